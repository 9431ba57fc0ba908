"""The charset chain (charset.py): BOM > declared > sniffed > detected > default, with its seams."""

from __future__ import annotations

import codecs
import io
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urisift import CharsetSource, DefectKind, Origin
from urisift.stages import charset
from urisift.stages.charset import choose, decode, decode_stream
from urisift.stages.charset_labels import _probed, codec_name, never_starting

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


# -- a run of bytes that start no character, taken in one call of the error handler -----------------

_RUN_CODECS = ["utf-8", "gb2312", "shift_jis", "euc-jp", "big5", "windows-1251", "iso-8859-8", "utf-16le",
               "iso-2022-jp"]
# ASCII, a line break, bytes that start no character in some of those codecs, leads of two-byte characters
_RUN_BYTES = [0x41, 0x0A, 0x80, 0x81, 0x94, 0x98, 0xA1, 0xA4, 0xB0, 0xC3, 0xE3, 0xF8, 0xFF]


def _decoded(data: bytes, declared: str) -> tuple[str, list[tuple[str, str, int | None]], str, list[object]]:
    text, _, defects = decode(data, declared=declared)
    _, chunks = decode_stream(io.BytesIO(data), declared=declared, chunk_size=7)
    pieces = list(chunks)
    return (text, [(d.kind, d.detail, d.position) for d in defects], "".join(t for t, _ in pieces),
            [(d.kind, d.detail, d.position) for _, found in pieces for d in found])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(_RUN_CODECS),
       st.lists(st.tuples(st.sampled_from(_RUN_BYTES), st.integers(1, 150)), max_size=12))
def test_a_run_taken_at_once_is_told_as_the_decoder_tells_it_byte_by_byte(declared: str,
                                                                         runs: list[tuple[int, int]]) -> None:
    # the whole of a byte string and a stream of it in 7-byte chunks past its first 64 KiB (a run cut by a
    # chunk's end): the same text and defects as with each byte left to the decoder's own call
    data = b"a" * 65_536 + b"".join(bytes([byte]) * count for byte, count in runs)
    with patch.object(charset, "never_starting", lambda codec: None):
        byte_by_byte = _decoded(data, declared)
    assert _decoded(data, declared) == byte_by_byte


def _starting_none(codec: str) -> tuple[set[int], str] | None:
    found = never_starting(codec)
    return None if found is None else ({b for b in range(256) if found[0].fullmatch(bytes([b]))}, found[1])


def test_the_bytes_that_start_no_character_are_probed_as_rfc_3629_says_for_utf_8() -> None:
    rfc_3629 = {*range(0x80, 0xC2), *range(0xF5, 0x100)}  # continuation bytes, C0, C1 and F5-FF
    assert _starting_none("utf-8") == (rfc_3629, "invalid start byte")
    probed = _probed("utf-8")  # (UTF-8's set is known, not probed: the probe agrees with it)
    assert probed is not None and {b for b in range(256) if probed[0].fullmatch(bytes([b]))} == rfc_3629
    # EUC-CN: a two-byte character's first byte is A1-F7 (A1-A9 and B0-F7 in use), and its second A1-FE
    assert _starting_none(codec_name("gb2312")) == (
        {*range(0x80, 0xA1), *range(0xAA, 0xB0), *range(0xF8, 0x100)}, "illegal multibyte sequence")
    assert _starting_none("cp1251") == ({0x98}, "character maps to <undefined>")
    for shifting in ("iso2022_jp", "utf_7", "hz", "utf_16_le"):
        assert never_starting(shifting) is None


def test_a_megabyte_of_bytes_gb2312_starts_no_character_with_is_read_to_the_link_after_it() -> None:
    data = b"x" * 70_000 + b"\n" + b"\x80" * 1_000_000 + b" http://end.example/"
    text, _, defects = decode(data, declared="gb2312")
    assert text == "x" * 70_000 + "\n" + "\ufffd" * 1_000_000 + " http://end.example/"
    assert len(defects) == 21 and defects[0].detail == " ".join(["80"] * 64) + (
        " is not gb2312 (illegal multibyte sequence); replaced by U+FFFD")
    assert defects[-1].detail == ("15605 more runs of bytes that are not gb2312, replaced by U+FFFD "
                                  "(the first 20 are listed; the last is at byte 1069937)")
