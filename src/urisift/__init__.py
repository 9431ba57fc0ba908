"""urisift: find URI references in text, mail and HTML, and resolve them against the right base."""

from .api import scan_html, scan_mbox, scan_message, scan_path, scan_stream, scan_text
from .base import BaseStack
from .delimit import find_references
from .errors import BaseUriError, InputError, UriError, UriSyntaxError, UrnError, UsageError
from .model import (
    Base,
    BaseSource,
    Charset,
    CharsetSource,
    Defect,
    DefectKind,
    Flag,
    Found,
    Kind,
    Origin,
    Place,
    Record,
    Span,
    Style,
    Where,
)
from .normalize import equivalent, normalize
from .output import record_json, record_line
from .reference import Authority, UriReference, is_valid, validate
from .resolve import remove_dot_segments, resolve
from .risk import Risk, risks
from .scan import ScanOptions, iter_input, scan_input
from .schemes import registered_schemes
from .urn import Urn, urn_equivalent

__version__ = "0.1.0"

__all__ = [
    # URI core
    "Authority", "BaseUriError", "UriError", "UriReference", "UriSyntaxError", "is_valid", "validate",
    "remove_dot_segments", "resolve",
    # normalization, URNs, risks
    "equivalent", "normalize", "Urn", "UrnError", "urn_equivalent", "Risk", "risks", "registered_schemes",
    # the pipeline's vocabulary
    "Base", "BaseSource", "Charset", "CharsetSource", "Defect", "DefectKind", "Flag", "Found", "Kind", "Origin",
    "Place", "Record", "Span", "Style", "Where", "BaseStack",
    # scanning
    "ScanOptions", "find_references", "iter_input", "scan_html", "scan_input", "scan_mbox", "scan_message", "scan_path",
    "scan_stream", "scan_text",
    "record_json", "record_line", "InputError", "UsageError",
]
