"""urisift: find URI references in text, mail, HTML, web archives, style
sheets, feeds, PDF and office files, and resolve each against the base
that applies to it (RFC 3986).  ``help(urisift.NAME)`` tells more of each.

Scanning (each yields :class:`Record` and :class:`Defect` values):
    scan_text(text)            the references in a string of plain text
    scan_stream(stream)        the same from a binary stream, in constant memory
    scan_html(document)        an HTML page: bytes, text or a BeautifulSoup tree
    scan_message(message)      one e-mail message (RFC 5322, MIME)
    scan_mbox(stream)          every message of an mbox archive
    scan_path(path)            one file, of whatever kind it holds
    iter_input(path, options)  one input with :class:`ScanOptions`, as the command reads it
    find_references(text)      the references delimited in a text, unresolved (:class:`Found`)
    ScanOptions                what a scan needs besides its input
    record_json(record), record_line(record)   a record as the command's JSON object or line

The URI core (no I/O):
    UriReference, Authority    RFC 3986's components of a reference and of an authority
    validate, is_valid         a text against an ABNF production of RFC 3986 / 3987
    resolve                    a reference against a base (RFC 3986 §5.2)
    remove_dot_segments        RFC 3986 §5.2.4
    normalize, equivalent      the §6.2 comparison ladder
    Urn, urn_equivalent        URNs under RFC 2141, its drafts, RFC 8141
    risks, Risk                the RFC 3986 §7 risks of a URI
    registered_schemes         IANA's URI schemes

The vocabulary of records: Record, Found, Place, Span, Origin, Base, BaseSource, BaseLayer, Charset,
CharsetSource, Defect, DefectKind, Flag, Kind, Style, Where, Region (where on an HTML page a link stands).
Errors: UriError, UriSyntaxError, BaseUriError, UrnError (bad URIs); InputError, UsageError (a run).

The names load their modules when first used (PEP 562), so that ``import
urisift`` and the command start fast and can be interrupted cleanly.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# The URI core is light (no parser, no I/O), and two of its functions share
# their module's name: bound here, eagerly, so that importing the module
# (which sets the package attribute to the module) cannot shadow them.
from .uri.normalization import equivalent, normalize
from .uri.resolution import remove_dot_segments, resolve

if TYPE_CHECKING:
    from .api import scan_html, scan_mbox, scan_message, scan_path, scan_stream, scan_text
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
        Region,
        Risk,
        Span,
        Style,
        Where,
    )
    from .output import record_json, record_line
    from .pipeline.inputs import iter_input
    from .pipeline.scan import ScanOptions
    from .stages.base import BaseLayer
    from .stages.delimit import find_references
    from .uri.errors import BaseUriError, InputError, UriError, UriSyntaxError, UrnError, UsageError
    from .uri.reference import Authority, UriReference, is_valid, validate
    from .uri.risk import risks
    from .uri.schemes import registered_schemes
    from .uri.urn import Urn, urn_equivalent

__version__ = "0.1.0"

#: public name -> the module that defines it
_HOME = {
    "Authority": "uri.reference",
    "Base": "model",
    "BaseSource": "model",
    "BaseLayer": "stages.base",
    "BaseUriError": "uri.errors",
    "Charset": "model",
    "CharsetSource": "model",
    "Defect": "model",
    "DefectKind": "model",
    "Flag": "model",
    "Found": "model",
    "InputError": "uri.errors",
    "Kind": "model",
    "Origin": "model",
    "Place": "model",
    "Record": "model",
    "Region": "model",
    "Risk": "model",
    "ScanOptions": "pipeline.scan",
    "Span": "model",
    "Style": "model",
    "UriError": "uri.errors",
    "UriReference": "uri.reference",
    "UriSyntaxError": "uri.errors",
    "Urn": "uri.urn",
    "UrnError": "uri.errors",
    "UsageError": "uri.errors",
    "Where": "model",
    "find_references": "stages.delimit",
    "is_valid": "uri.reference",
    "iter_input": "pipeline.inputs",
    "record_json": "output.records",
    "record_line": "output.records",
    "registered_schemes": "uri.schemes",
    "risks": "uri.risk",
    "scan_html": "api",
    "scan_mbox": "api",
    "scan_message": "api",
    "scan_path": "api",
    "scan_stream": "api",
    "scan_text": "api",
    "urn_equivalent": "uri.urn",
    "validate": "uri.reference",
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'urisift' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # found once: later uses do not come here
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    # URI core
    "Authority", "BaseUriError", "UriError", "UriReference", "UriSyntaxError", "is_valid", "validate",
    "remove_dot_segments", "resolve",
    # normalization, URNs, risks
    "equivalent", "normalize", "Urn", "UrnError", "urn_equivalent", "Risk", "risks", "registered_schemes",
    # the pipeline's vocabulary
    "Base", "BaseSource", "Charset", "CharsetSource", "Defect", "DefectKind", "Flag", "Found", "Kind", "Origin",
    "Place", "Record", "Region", "Span", "Style", "Where", "BaseLayer",
    # scanning
    "ScanOptions", "find_references", "iter_input", "scan_html", "scan_mbox", "scan_message", "scan_path",
    "scan_stream", "scan_text",
    "record_json", "record_line", "InputError", "UsageError",
]
