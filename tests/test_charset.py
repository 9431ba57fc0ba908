"""The charset chain (charset.py): BOM > declared > sniffed > detected > default, with its seams."""

from __future__ import annotations

import codecs
import io

import pytest

from urisift import CharsetSource, DefectKind, Origin
from urisift.stages.charset import choose, decode, decode_stream

LATIN = "caf\u00e9 cr\u00e8me http://exemple.fr/\u00e9t\u00e9 ".encode("latin-1") * 10


def _meta(sample: bytes) -> str | None:
    return "koi8-r" if b"<meta" in sample else None


def _detector(label: str, confidence: float):  # type: ignore[no-untyped-def]
    return lambda sample: (label, confidence)


@pytest.mark.parametrize("data, declared, sniff, detect, name, source", [
    (codecs.BOM_UTF8 + b"<meta>x", "latin-1", _meta, None, "utf-8", CharsetSource.BOM),
    (b"<meta>x", "latin-1", _meta, None, "iso-8859-1", CharsetSource.DECLARED),
    (b"<meta>x", None, _meta, None, "koi8-r", CharsetSource.META),
    (b"<meta>x", "x-unknown", _meta, None, "koi8-r", CharsetSource.META),  # an unknown label falls through
    (b"plain ascii", None, _meta, None, "utf-8", CharsetSource.DETECTED),
    (LATIN, None, None, _detector("ISO-8859-15", 0.9), "iso-8859-15", CharsetSource.DETECTED),
    (LATIN, None, None, _detector("ISO-8859-15", 0.1), "windows-1252", CharsetSource.DEFAULT),  # not confident
    (LATIN, None, None, _detector("no-such-codec", 0.9), "windows-1252", CharsetSource.DEFAULT),
    (LATIN, None, None, None, "windows-1252", CharsetSource.DEFAULT),  # no detector at all
])
def test_the_chain_in_order(data: bytes, declared: str | None, sniff, detect, name: str,  # type: ignore[no-untyped-def]
                            source: CharsetSource) -> None:
    choice = choose(data, declared=declared, sniff=sniff, detect=detect, complete=True)
    assert (choice.name, choice.source) == (name, source)


def test_decode_gives_text_charset_and_defects() -> None:
    text, charset, defects = decode(b"<meta> \xe9", sniff=_meta, origin=Origin(file="p.html"))
    assert (text, charset.name, charset.source, defects) == ("<meta> \u0418", "koi8-r", CharsetSource.META, [])


def test_an_unknown_declared_label_is_a_defect_and_detection_takes_over() -> None:
    text, charset, defects = decode(b"abc", declared="x-unknown", origin=Origin(file="m.eml"))
    assert (text, charset.name, charset.source) == ("abc", "utf-8", CharsetSource.DETECTED)
    assert [(d.kind, d.detail, d.file) for d in defects] == [
        (DefectKind.UNKNOWN_CHARSET, "declared charset 'x-unknown' is not one Python can decode; detected instead",
         "m.eml")]


def test_the_stream_decoder_agrees_with_decode() -> None:
    data = ("\u00e9t\u00e9 http://x.example/ " * 5000).encode("utf-8") + b"\xff tail"
    whole, charset, defects = decode(data)
    choice, pieces = decode_stream(io.BytesIO(data), chunk_size=4096)
    chunks = list(pieces)
    assert "".join(t for t, _ in chunks) == whole and choice == charset
    assert [d for _, ds in chunks for d in ds] == defects
    assert [d.position for d in defects] == [data.index(b"\xff")]


def test_binary_content_is_reported_once() -> None:
    data = bytes(range(256)) * 40
    _, _, defects = decode(data)
    assert [d.kind for d in defects] == [DefectKind.BINARY_CONTENT]
    assert defects[0].position == 0
    _, pieces = decode_stream(io.BytesIO(data), chunk_size=1000)
    assert [d.kind for _, ds in pieces for d in ds] == [DefectKind.BINARY_CONTENT]


# -- the ASCII fast path of decode (issue 24) ------------------------------------------------

def test_codecs_that_read_ascii_as_itself_are_told_from_stateful_ones() -> None:
    from urisift.stages.charset_labels import reads_ascii_as_itself

    same = ["ascii", "utf-8", "latin-1", "cp1252", "iso8859-15", "koi8-r", "shift_jis", "euc-jp", "gb18030",
            "big5", "mac-roman"]
    other = ["iso2022_jp", "iso2022_kr", "utf-7", "hz", "utf-16-le", "utf-32", "cp037", "no-such-codec"]
    assert [c for c in same if not reads_ascii_as_itself(c)] == []
    assert [c for c in other if reads_ascii_as_itself(c)] == []


@pytest.mark.parametrize("declared", [None, "us-ascii", "iso-8859-1", "windows-1252", "utf-8", "shift_jis",
                                      "iso-2022-jp", "utf-7", "hz-gb-2312", "utf-16le", "x-unknown"])
@pytest.mark.parametrize("data", [b"plain http://example.com/ text\r\n", b"~{a~} +AGE- \x1b$B$3\x1b(B",
                                  b"nul \x00 inside", b"", b"<meta charset=iso-2022-jp>"])
def test_the_ascii_fast_path_decodes_as_the_whole_chain_does(declared: str | None, data: bytes,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import urisift.stages.charset
    from urisift.readers.html import prescan

    fast = [decode(data, declared=declared), decode(data, declared=declared, sniff=prescan)]
    monkeypatch.setattr(urisift.stages.charset, "reads_ascii_as_itself", lambda codec: False)
    slow = [decode(data, declared=declared), decode(data, declared=declared, sniff=prescan)]
    assert fast == slow


def test_a_whatwg_label_python_lacks_is_its_encoding() -> None:
    # x-gbk, iso-8859-8-i, x-mac-roman: labels of the Encoding Standard, which mail and web readers
    # decode with; Python has the codec under another name
    from urisift import scan_message

    for label, name, body in (("x-gbk", "gbk", "链接".encode("gbk")), ("iso-8859-8-i", "iso-8859-8", b"\xf9\xec"),
                              ("x-mac-roman", "macintosh", b"caf\x8e")):
        message = (f"Content-Type: text/plain; charset={label}\n\n".encode() + body
                   + b" http://w.example/" + body + b"\n")
        items = list(scan_message(message))
        assert [(r.uri, r.charset, r.charset_source) for r in items] == [  # type: ignore[union-attr]
            ("http://w.example/" + body.decode(codecs.lookup(name).name), name, CharsetSource.DECLARED)], label


def test_an_html_documents_declared_label_is_read_as_a_browser_reads_it() -> None:
    # HTTP and MIME labels of HTML as its <meta>: ISO-8859-1 and US-ASCII mean windows-1252 (0x92 is ’);
    # a text/plain part's US-ASCII stays US-ASCII (its 8-bit bytes a defect each)
    from urisift import scan_message

    html = b"Content-Type: text/html; charset=iso-8859-1\n\n<a href='http://h.example/it\x92s'>x</a>\n"
    plain = b"Content-Type: text/plain; charset=us-ascii\n\nsee http://p.example/ it\x92s\n"
    assert [(r.target, r.charset) for r in scan_message(html)] == [  # type: ignore[union-attr]
        ("http://h.example/it’s", "windows-1252")]
    items = list(scan_message(plain))
    assert [type(i).__name__ for i in items] == ["Defect", "Record"]
    assert (items[0].kind, items[1].charset) == (DefectKind.UNDECODABLE_BYTES, "us-ascii")  # type: ignore[union-attr]


def test_every_label_reported_finds_its_codec_again() -> None:
    """A name normalize_label reports is a name the decoder can open: cp720 was reported 'ibm720', which
    Python has no codec for, and every reader that decodes a document whole failed on chardet's guess
    (b'\\xec ', found by the notebook reader's fuzz target)."""
    import codecs
    import encodings.aliases

    from urisift.stages.charset_labels import codec_name, normalize_label

    lost = []
    for name in sorted(set(encodings.aliases.aliases.values()) | set(encodings.aliases.aliases)):
        try:
            codecs.lookup(name)
        except LookupError:
            continue
        label = normalize_label(name)
        if label is not None:
            try:
                codec_name(label)
            except LookupError:
                lost.append((name, label))
    assert lost == []
    assert normalize_label("cp720") == "cp720" and normalize_label("cp437") == "ibm437"
