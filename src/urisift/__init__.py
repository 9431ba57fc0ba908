"""urisift: find URI references in text, mail and HTML, and resolve them against the right base."""

from .delimit import Found, find_references, registered_schemes
from .errors import BaseUriError, UriError, UriSyntaxError, UrnError
from .normalize import equivalent, normalize
from .record import BaseSource, CharsetSource, Defect, Flag, Record, Style, Where
from .reference import Authority, UriReference, is_valid, validate
from .resolve import remove_dot_segments, resolve
from .risk import Risk, risks
from .scan import scan_path, scan_stream, scan_text
from .urn import Urn, urn_equivalent

__version__ = "0.1.0"

__all__ = [
    "Authority",
    "BaseSource",
    "CharsetSource",
    "Defect",
    "Flag",
    "Found",
    "Record",
    "Risk",
    "Style",
    "Urn",
    "UrnError",
    "Where",
    "equivalent",
    "find_references",
    "normalize",
    "registered_schemes",
    "scan_path",
    "scan_stream",
    "scan_text",
    "urn_equivalent",
    "BaseUriError",
    "UriError",
    "UriReference",
    "UriSyntaxError",
    "is_valid",
    "remove_dot_segments",
    "resolve",
    "risks",
    "validate",
]
