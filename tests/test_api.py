"""The public API is small and deliberate: this pins it."""

from __future__ import annotations

import urisift

PUBLIC = {
    # URI core (issue: foundation)
    "UriReference", "Authority", "validate", "is_valid", "resolve", "remove_dot_segments",
    "UriError", "UriSyntaxError", "BaseUriError",
    # text scanning and records
    "scan_text", "scan_html", "scan_message", "scan_mbox", "scan_stream", "scan_path", "find_references",
    "registered_schemes", "Found",
    "Record", "Defect", "Style", "Where", "Flag", "BaseSource", "CharsetSource",
    # issue 39: where on a page a link stands
    "Region",
    # normalization, URNs, risks
    "normalize", "equivalent", "Urn", "UrnError", "urn_equivalent", "risks", "Risk",
    # issue 7: the pipeline's vocabulary, bases, inputs and the record contract
    "Base", "Charset", "DefectKind", "Kind", "Origin", "Place", "Span", "BaseLayer", "ScanOptions",
    "iter_input", "record_json", "record_line", "InputError", "UsageError",
}


def test_public_api_is_pinned() -> None:
    assert set(urisift.__all__) == PUBLIC
    for name in PUBLIC:
        assert hasattr(urisift, name), name


def test_version() -> None:
    assert urisift.__version__ == "0.1.0"
