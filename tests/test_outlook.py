"""Outlook's mail as it is kept (issue 54): .msg, TNEF and PST, one model of a MAPI message.

The inputs are written from the specifications (tests/sample_makers/outlook.py); the shared
samples of four readers' test suites are read where ../shared is present."""

from __future__ import annotations

import io
import struct
import time
from pathlib import Path
from typing import Any

import compressed_rtf
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from urisift import Defect, DefectKind, Kind, Record, ScanOptions, iter_input
from urisift.readers.mail.mapi.rtf import RtfContent, rtf_content
from urisift.stages.containment import Limits
from urisift.stages.sniff import sniff_kind

from .conftest import shared_path
from .sample_makers.outlook import (
    ATTACH_DATA,
    ATTACH_TITLE,
    ATTACHMENT,
    BODY,
    MSG_PROPS,
    PT_BINARY,
    PT_LONG,
    PT_OBJECT,
    PT_STRING8,
    PT_UNICODE,
    REND_DATA,
    Attachment,
    Message,
    attribute,
    compound_file,
    msg,
    property_list,
    tnef,
)

HEADERS = ("Received: from mx.example.org\r\nMessage-ID: <report-1@mail.example.org>\r\n"
           "List-Unsubscribe: <https://lists.example.org/unsubscribe?u=1>\r\n"
           "Content-Base: https://base.example.org/news/\r\n")
RTF_HTML = (rb"{\rtf1\ansi\ansicpg1252\fromhtml1 \deff0{\fonttbl{\f0\fswiss Arial;}}"
            rb"{\*\htmltag19 <html>}{\*\htmltag34 <head>}{\*\htmltag41 </head>}{\*\htmltag50 <body>}"
            rb'\htmlrtf {\b \htmlrtf0 Pay {\*\htmltag84 <a href="https://pay.example/inv?a=1&amp;b=2">}'
            rb'\htmlrtf {\field{\*\fldinst{HYPERLINK "https://rtf-only.example/"}}{\fldrslt now}}\htmlrtf0 '
            rb"now{\*\htmltag92 </a>}\htmlrtf }\htmlrtf0 caf\'e9 \u8364?{\*\htmltag58 </body>}}")


def _rtf(text: bytes, *, compressed: bool = True) -> bytes:
    return bytes(compressed_rtf.compress(text, compressed=compressed))


def _report() -> Message:
    """A reported message as Outlook keeps it: every body rendition, headers, attachments."""
    html = b'<p>See <a href="terms.html">terms</a> and <img src="cid:logo@x"></p>'
    embedded = Message({(0x001A, PT_UNICODE): "IPM.Note", (0x1000, PT_UNICODE): "inner https://inner.example/i"})
    return Message(
        {(0x001A, PT_UNICODE): "IPM.Note", (0x007D, PT_UNICODE): HEADERS, (0x1013, PT_BINARY): html,
         (0x3FDE, PT_LONG): 65001, (0x1009, PT_BINARY): _rtf(RTF_HTML),
         (0x1000, PT_UNICODE): "Plain: https://plain.example/p."},
        [Attachment({(0x3707, PT_UNICODE): "logo.png", (0x370E, PT_UNICODE): "image/png",
                     (0x3712, PT_UNICODE): "logo@x", (0x3701, PT_BINARY): b"\x89PNG\r\n\x1a\n\x00\x00junk"}),
         Attachment({(0x3707, PT_UNICODE): "notes.txt", (0x3701, PT_BINARY): b"notes at https://notes.example/n\n"}),
         Attachment(embedded=embedded)])


def _items(path: Path, **options: object) -> list[Record | Defect]:
    return list(iter_input(str(path), ScanOptions(**options)))  # type: ignore[arg-type]


def _seen(items: list[Record | Defect]) -> list[tuple[str | None, str, str | None]]:
    return [(i.origin.part, i.uri, i.target) for i in items if isinstance(i, Record)]


def _defects(items: list[Record | Defect]) -> list[tuple[DefectKind, str]]:
    return [(i.kind, i.detail) for i in items if isinstance(i, Defect)]


def test_every_rendition_headers_and_attachments_of_a_msg_are_read(tmp_path: Path) -> None:
    path = tmp_path / "report.msg"
    path.write_bytes(msg(_report()))
    items = _items(path)
    assert _seen(items) == [
        (None, "https://lists.example.org/unsubscribe?u=1", "https://lists.example.org/unsubscribe?u=1"),
        ("html", "terms.html", "https://base.example.org/news/terms.html"),
        ("html", "cid:logo@x", "cid:logo@x"),
        # the HTML only the compressed RTF holds, de-encapsulated (MS-OXRTFEX): its &amp; is HTML's
        ("rtf", "https://pay.example/inv?a=1&b=2", "https://pay.example/inv?a=1&b=2"),
        ("text", "https://plain.example/p", "https://plain.example/p"),
        ("attachment-2", "https://notes.example/n", "https://notes.example/n"),
        ("attachment-3/text", "https://inner.example/i", "https://inner.example/i"),
    ]
    assert not _defects(items)
    records = [i for i in items if isinstance(i, Record)]
    assert {r.origin.message_id for r in records[:-1]} == {"<report-1@mail.example.org>"}
    assert records[0].header == "List-Unsubscribe"
    assert [r.points_to for r in records if r.uri.startswith("cid:")] == ["attachment-1"]
    assert sniff_kind(path.read_bytes()[:4096], str(path)) is Kind.MSG


def test_rtf_de_encapsulation_keeps_the_html_and_drops_rtf_of_its_own() -> None:
    found = rtf_content(RTF_HTML)
    assert found.html
    assert found.text == ('<html><head></head><body>Pay <a href="https://pay.example/inv?a=1&amp;b=2">now</a>'
                          "caf\u00e9 \u20ac</body>")


def test_plain_rtf_gives_its_text_and_its_hyperlink_fields() -> None:
    found = rtf_content(rb'{\rtf1\ansi{\fonttbl{\f0 Times;}}Go {\field{\*\fldinst HYPERLINK "https://field.example/x" '
                        rb'\\l "top"}{\fldrslt here}}\par done}')
    assert not found.html
    assert found.text == "Go  <https://field.example/x#top> here\ndone"


def test_rtf_nested_100000_groups_deep_is_read_in_one_pass_and_the_link_after_it_found() -> None:
    deep = rb"{\rtf1 " + b"{" * 100_000 + b"x" + b"}" * 100_000 + rb" after https://after.example/ }"
    started = time.perf_counter()
    found = rtf_content(deep)
    assert time.perf_counter() - started < 5
    assert found.text == "x after https://after.example/ "


@pytest.mark.parametrize(("mangle", "why"), [
    (lambda c: c[:12] + struct.pack("<I", struct.unpack_from("<I", c, 12)[0] ^ 1) + c[16:],
     "(MS-OXRTFCP §2.1.3.2)"),
    (lambda c: struct.pack("<I", len(c) + 5000) + c[4:], None),
])
def test_a_compressed_rtf_with_a_bad_crc_or_a_lying_size_is_a_defect_and_the_other_bodies_are_read(
        tmp_path: Path, mangle: object, why: str | None) -> None:
    report = _report()
    report.properties[(0x1009, PT_BINARY)] = mangle(_rtf(RTF_HTML))  # type: ignore[operator]
    path = tmp_path / "bad.msg"
    path.write_bytes(msg(report))
    items = _items(path)
    (kind, detail), = _defects(items)
    assert kind is DefectKind.BROKEN_DOCUMENT
    assert detail.startswith("part rtf: its compressed RTF (MS-OXRTFCP) cannot be read: ")
    if why:
        assert why in detail
    else:
        n = len(_rtf(RTF_HTML))
        assert f"its header says {n + 5000 - 12} bytes of compressed RTF follow, and {n - 16} do" in detail
    assert [p for p, _, _ in _seen(items)] == [None, "html", "html", "text", "attachment-2", "attachment-3/text"]


def test_uncompressed_rtf_is_read_too(tmp_path: Path) -> None:
    path = tmp_path / "mela.msg"
    path.write_bytes(msg(Message({(0x1009, PT_BINARY): _rtf(rb"{\rtf1 see https://mela.example/ }",
                                                            compressed=False)})))
    assert _seen(_items(path)) == [("rtf", "https://mela.example/", "https://mela.example/")]


def test_a_png_named_msg_and_a_word_document_are_no_messages_and_give_no_record(tmp_path: Path) -> None:
    (tmp_path / "a.msg").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR tEXt www.inkscape.org")
    word = compound_file({"WordDocument": b"\x00" * 600 + b" https://word.example/ ", "1Table": b"\x00" * 10})
    (tmp_path / "b.msg").write_bytes(word)
    # a PNG named .msg is an image: passed over without --qr, as an image is (read for its codes with it)
    assert _defects(_items(tmp_path / "a.msg")) == []
    (tmp_path / "c.msg").write_bytes(b"\x7fELF\x02\x01\x01\x00 a program")
    assert _defects(_items(tmp_path / "c.msg")) == [
        (DefectKind.UNSUPPORTED_KIND, "not an Outlook message: its bytes are not a Compound File (an Outlook message "
         "is a Compound File, MS-OXMSG §2.1); not read")]
    assert _defects(_items(tmp_path / "b.msg")) == [
        (DefectKind.UNSUPPORTED_KIND, "a Compound File that is no Outlook message (a Word document): not read")]
    assert not _seen(_items(tmp_path / "a.msg")) and not _seen(_items(tmp_path / "b.msg"))
    # in a walk, a Compound File named as what it is (a .doc) is passed over, as binary files are
    (tmp_path / "c.doc").write_bytes(word)
    (tmp_path / "d.txt").write_bytes(b"https://after.example/\n")
    walked = list(iter_input(str(tmp_path), ScanOptions()))
    assert [i.uri for i in walked if isinstance(i, Record)] == ["https://after.example/"]
    assert [i.origin.file for i in walked if isinstance(i, Defect)] == [str(tmp_path / "b.msg"),
                                                                        str(tmp_path / "c.msg")]


def _broken_cfbs() -> dict[str, bytes]:
    good = msg(Message({(0x1000, PT_UNICODE): "https://x.example/ " * 300}))
    fat_loop = bytearray(good)
    (first_fat,) = struct.unpack_from("<I", good, 76)
    (dir_start,) = struct.unpack_from("<I", good, 48)
    # the body's stream (11 KB: in sectors of its own) made to chain back to its first sector (MS-CFB §2.3)
    fat = [struct.unpack_from("<I", good, 512 + first_fat * 512 + 4 * i)[0] for i in range(128)]
    last = max(i for i, v in enumerate(fat) if v == 0xFFFFFFFE and i > dir_start + 2)
    struct.pack_into("<I", fat_loop, 512 + first_fat * 512 + last * 4, last - 5)
    assert fat[last - 5] == last - 4  # (the stream's sixth sector from its end: the loop is inside its chain)
    cycle = bytearray(good)
    # the first child of the root made its own right sibling: a directory cycle (MS-CFB §2.6.4)
    (child,) = struct.unpack_from("<I", good, 512 + dir_start * 512 + 76)
    struct.pack_into("<I", cycle, 512 + dir_start * 512 + child * 128 + 72, child)
    return {"truncated": good[:700], "fat-loop": bytes(fat_loop), "cycle": bytes(cycle)}


WHY = {"truncated": "the Outlook message's Compound File cannot be read (",
       "fat-loop": "the Compound File is damaged: the chain of sectors of stream __substg1.0_1000001F loops back to ",
       "cycle": "the Compound File is damaged: "}


@pytest.mark.parametrize("shape", ["truncated", "fat-loop", "cycle"])
def test_a_broken_compound_file_is_a_defect_and_the_next_input_is_read(tmp_path: Path, shape: str) -> None:
    (tmp_path / "a.msg").write_bytes(_broken_cfbs()[shape])
    (tmp_path / "b.txt").write_bytes(b"https://next.example/\n")
    items = list(iter_input(str(tmp_path), ScanOptions()))
    defects = [i for i in items if isinstance(i, Defect)]
    assert defects and defects[0].kind is DefectKind.BROKEN_DOCUMENT
    assert defects[0].detail.startswith(WHY[shape]), defects[0].detail
    assert [i.uri for i in items if isinstance(i, Record)][-1] == "https://next.example/"


def _winmail() -> bytes:
    html = b'<a href="https://tnef.example/a?x=1&amp;y=2">a</a>'
    inner = tnef(attribute(1, MSG_PROPS, property_list({(0x1000, PT_STRING8): "in https://embedded.example/"})))
    return tnef(
        attribute(1, MSG_PROPS, property_list({(0x1013, PT_BINARY): html, (0x3FDE, PT_LONG): 65001,
                                               (0x1035, PT_STRING8): "<tnef-1@example.org>"})),
        attribute(1, BODY, b"body https://legacy-body.example/\r\n"),
        attribute(2, REND_DATA, b"\x01\x00\xff\xff\xff\xff\x00\x00\x00\x00\x00\x00\x00\x00"),
        attribute(2, ATTACH_TITLE, b"page.html\x00"),
        attribute(2, ATTACH_DATA, b'<a href="https://attached.example/">x</a>'),
        attribute(2, REND_DATA, b"\x01\x00\xff\xff\xff\xff\x00\x00\x00\x00\x00\x00\x00\x00"),
        attribute(2, ATTACHMENT, property_list({(0x3705, PT_LONG): 5, (0x3701, PT_OBJECT): inner})),
    )


def test_a_tnef_stream_gives_its_bodies_attachments_and_embedded_message(tmp_path: Path) -> None:
    path = tmp_path / "winmail.dat"
    path.write_bytes(_winmail())
    items = _items(path)
    assert _seen(items) == [
        ("html", "https://tnef.example/a?x=1&y=2", "https://tnef.example/a?x=1&y=2"),
        ("text", "https://legacy-body.example/", "https://legacy-body.example/"),
        ("attachment-1", "https://attached.example/", "https://attached.example/"),
        ("attachment-2/text", "https://embedded.example/", "https://embedded.example/"),
    ]
    assert not _defects(items)
    assert {i.origin.message_id for i in items[:3]} == {"<tnef-1@example.org>"}
    assert sniff_kind(path.read_bytes()[:100]) is Kind.TNEF


def test_a_tnef_checksum_or_length_that_lies_is_a_defect_and_the_rest_is_read(tmp_path: Path) -> None:
    good = attribute(1, BODY, b"first https://first.example/\r\n")
    bad_sum = attribute(1, MSG_PROPS, property_list({(0x1013, PT_BINARY): b'<a href="https://sum.example/">s</a>'}),
                        checksum=7)
    path = tmp_path / "x.tnef"
    path.write_bytes(tnef(good, bad_sum))
    items = _items(path)
    assert [u for _, u, _ in _seen(items)] == ["https://sum.example/", "https://first.example/"]
    (kind, detail), = _defects(items)
    assert kind is DefectKind.BROKEN_DOCUMENT and "'s checksum is 7, and its bytes sum to " in detail
    path.write_bytes(tnef(good, attribute(1, MSG_PROPS, b"\x01\x00\x00\x00", length=1 << 30)))
    items = _items(path)
    assert [u for _, u, _ in _seen(items)] == ["https://first.example/"]
    (kind, detail), = _defects(items)
    assert detail == f"at byte {6 + 15 + len(good)}: attribute 0x00069003 says it holds {1 << 30} bytes, and 6 " \
                     "follow: read no further"


def test_msg_and_tnef_attached_to_mail_are_read_as_nested_messages(tmp_path: Path) -> None:
    import base64

    def part(media: str, name: str, data: bytes) -> bytes:
        encoded = base64.encodebytes(data)
        return (f"--b\r\nContent-Type: {media}; name=\"{name}\"\r\nContent-Transfer-Encoding: base64\r\n"
                f"Content-Disposition: attachment; filename=\"{name}\"\r\n\r\n").encode() + encoded
    mail = (b"From: a@example.org\r\nTo: abuse@example.org\r\nSubject: phish\r\nMIME-Version: 1.0\r\n"
            b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nsee attached\r\n"
            + part("application/vnd.ms-outlook", "original.msg", msg(_report()))
            + part("application/ms-tnef", "winmail.dat", _winmail())
            + part("application/octet-stream", "fwd.msg", msg(Message({(0x1000, PT_UNICODE): "https://o.example/"})))
            + b"--b--\r\n")
    path = tmp_path / "report.eml"
    path.write_bytes(mail)
    seen = [(p, u) for p, u, _ in _seen(_items(path))]
    assert seen == [
        ("2", "https://lists.example.org/unsubscribe?u=1"), ("2!/html", "terms.html"), ("2!/html", "cid:logo@x"),
        ("2!/rtf", "https://pay.example/inv?a=1&b=2"), ("2!/text", "https://plain.example/p"),
        ("2!/attachment-2", "https://notes.example/n"), ("2!/attachment-3/text", "https://inner.example/i"),
        ("3!/html", "https://tnef.example/a?x=1&y=2"), ("3!/text", "https://legacy-body.example/"),
        ("3!/attachment-1", "https://attached.example/"), ("3!/attachment-2/text", "https://embedded.example/"),
        ("4!/text", "https://o.example/")]


# -- PST: the shared samples (ruby-msg's), through the pst extra ---------------------------

def test_a_pst_gives_each_message_by_its_folder_path_and_identifier() -> None:
    pytest.importorskip("pypff")
    items = _items(shared_path("corpora", "outlook-kept-mail", "ruby-msg", "pst", "attachAndInline.pst"))
    assert [(p, u) for p, u, _ in _seen(items)] == [
        ("Outlook データ ファイルのトップ/2097188/rtf", u) for u in (
            "cid:filelist.xml@01D78380.EF6DC500", "cid:editdata.mso", "~~themedata~~", "~~colorschememapping~~",
            "cid:image001.png@01D78380.EF6DC500")]
    records = [i for i in items if isinstance(i, Record)]
    assert {r.origin.message for r in records} == {1}
    assert [r.points_to for r in records][-1] == "Outlook データ ファイルのトップ/2097188/attachment-2"


def test_a_pst_cut_in_half_is_a_defect_and_the_next_input_is_read(tmp_path: Path) -> None:
    pytest.importorskip("pypff")
    data = shared_path("corpora", "outlook-kept-mail", "ruby-msg", "pst", "msgInMsg.pst").read_bytes()
    (tmp_path / "a.pst").write_bytes(data[: len(data) // 2])
    (tmp_path / "b.txt").write_bytes(b"https://next.example/\n")
    items = list(iter_input(str(tmp_path), ScanOptions()))
    assert [i.kind for i in items if isinstance(i, Defect)] == [DefectKind.BROKEN_DOCUMENT]
    assert [i.uri for i in items if isinstance(i, Record)][-1] == "https://next.example/"


@pytest.mark.parametrize("how", ["file", "stdin"])
def test_a_pst_file_is_read_where_it_lies_not_held(tmp_path: Path, how: str) -> None:
    # an e-discovery export is a PST of many GB: libpff reads it from the file (or from standard input
    # redirected from one), seeking; it was read whole into memory first (a 300 MB PST took 640 MB)
    pytest.importorskip("pypff")
    import tracemalloc

    data = shared_path("corpora", "outlook-kept-mail", "ruby-msg", "pst", "attachAndInline.pst").read_bytes()
    (tmp_path / "a.pst").write_bytes(data + bytes(48 << 20))  # (past its end: bytes libpff never reads)
    tracemalloc.start()
    try:
        if how == "file":
            items = list(iter_input(str(tmp_path / "a.pst"), ScanOptions()))
        else:
            with open(tmp_path / "a.pst", "rb") as stdin:
                items = list(iter_input("-", ScanOptions(kind=Kind.PST), stdin=stdin))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20
    assert [u for _, u, _ in _seen(items)] == [
        "cid:filelist.xml@01D78380.EF6DC500", "cid:editdata.mso", "~~themedata~~", "~~colorschememapping~~",
        "cid:image001.png@01D78380.EF6DC500"]


def test_the_fuzzers_findings_stay_fast_and_said(tmp_path: Path) -> None:
    # a Compound File whose properties stream says it holds 512 MB, its sectors chained round: olefile read
    # it round for 20 s (found by fuzz/run.py msg); each chain is now followed once
    name = "msg-timeout-dc211c32c07f25f2d0a8e27a565090ad7cf39d38"
    (tmp_path / "found.msg").write_bytes((Path(__file__).parent / "data" / "fuzz" / name).read_bytes())
    started = time.perf_counter()
    items = _items(tmp_path / "found.msg")
    assert time.perf_counter() - started < 2
    assert _defects(items)[0] == (DefectKind.BROKEN_DOCUMENT, "the Compound File is damaged: the chain of sectors "
                                  "of the directory loops back to sector 0 (MS-CFB §2.3)")


def test_a_large_pst_is_planned_in_shares_of_its_messages_and_each_share_reads_its_own(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pypff")
    import urisift.pipeline.plan as plan
    from urisift.pipeline.scan import scan_unit
    from urisift.pipeline.sources import Input
    from urisift.pipeline.units import WorkUnit

    path = str(shared_path("corpora", "outlook-kept-mail", "ruby-msg", "pst", "attachAndInline.pst"))
    # (the samples are 271 KB of one message each: the bounds made small enough to cut them)
    monkeypatch.setattr(plan, "PST_RANGE_SIZE", 50_000)
    monkeypatch.setattr(plan, "WARC_RANGE_SIZE", 50_000)
    units = list(plan.plan([Input(path)]))
    assert units == [WorkUnit(Input(path), kind=Kind.PST, items=(0, 1, 1))]
    whole = [i for i in scan_unit(WorkUnit(Input(path)), ScanOptions()) if isinstance(i, Record)]
    share = [i for i in scan_unit(units[0], ScanOptions()) if isinstance(i, Record)]
    assert share == whole and len(whole) == 5
    # a share past the file's messages reads none of them, and does not count the input again
    after = list(scan_unit(WorkUnit(Input(path), kind=Kind.PST, items=(1, 1, 1)), ScanOptions()))
    assert not [i for i in after if isinstance(i, Record)]
    assert [i.inputs for i in after if not isinstance(i, (Record, Defect))] == [0]


class _Pipe(io.RawIOBase):
    """Bytes that come as through a pipe: read once, never sought."""

    def __init__(self, data: bytes) -> None:
        self.data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        chunk = self.data.read(len(buffer))
        buffer[:len(chunk)] = chunk
        return len(chunk)


def _unmappable(*_: object, **__: object) -> None:
    raise OSError(19, "No such device")  # (what mmap says of a file system that cannot map)


def test_a_msg_file_larger_than_a_document_may_be_held_is_read_from_the_file(tmp_path: Path) -> None:
    # (a .msg is held whole, as its Compound File is read on bytes: one over the bound, 64 MiB, was read only
    # as far as the bound, and an attachment past it was lost, with a bomb; a file named is now mapped)
    page = b"<p>" + b"x" * 300_000 + b"<a href='https://after.example/'>late</a>"
    report = Message({(0x1000, PT_UNICODE): "text https://text.example/"}, [Attachment({
        (0x3707, PT_UNICODE): "page.html", (0x370E, PT_UNICODE): "text/html", (0x3701, PT_BINARY): page})])
    data = msg(report)
    path = tmp_path / "large.msg"
    path.write_bytes(data)
    limits = Limits(whole=len(data) - 1)
    whole = [("text", "https://text.example/", "https://text.example/"),
             ("attachment-1", "https://after.example/", "https://after.example/")]
    named = _items(path, limits=limits)
    assert _defects(named) == [] and _seen(named) == whole
    with path.open("rb") as redirected:  # (standard input redirected from the file)
        items = list(iter_input("-", ScanOptions(kind="msg", limits=limits), stdin=redirected))
    assert _defects(items) == [] and _seen(items) == whole
    piped = list(iter_input("-", ScanOptions(kind="msg", limits=limits), stdin=io.BufferedReader(_Pipe(data))))
    assert _defects(piped) == [(DefectKind.BOMB, f"its reader holds it whole, and it is longer than {len(data) - 1} "
                                f"bytes, the bound of a document held whole: its bytes from byte {len(data) - 1} on "
                                "not read")]
    # a file that cannot be mapped is read as far as a document may be held, as a pipe's bytes are
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("mmap.mmap", _unmappable)
        assert _defects(_items(path, limits=limits)) == _defects(piped)
        assert _seen(_items(path)) == whole
    # an image named .msg, as large, is still an image: passed over without --qr
    (tmp_path / "large-image.msg").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + b"\x00" * 300_000)
    assert _items(tmp_path / "large-image.msg", limits=limits) == []


@settings(max_examples=300)
@given(st.lists(st.one_of(st.integers(0, 40), st.just(0xFFFFFFFE)), max_size=60), st.integers(0, 45),
       st.integers(512 * 3, 512 * 30), st.booleans())
@example([1, 2, 3, 0xFFFFFFFE], 0, 2048, False)  # (a chain whose last sector is the first past the file's end)
@example([1, 2, 3, 0xFFFFFFFE], 0, 2048, True)
def test_a_chain_of_sectors_is_read_in_runs_as_it_is_sector_by_sector(links: list[int], start: int, length: int,
                                                                      mini: bool) -> None:
    from array import array

    from urisift.readers.mail.mapi.compound_file import CompoundFile

    cfb = CompoundFile(msg(Message({(0x1000, PT_UNICODE): "x"})))
    # a file of ``length`` bytes, each sector's bytes its own, and a table of links (some past the file, some runs)
    cfb.data = bytes((i // 64) % 251 for i in range(length))
    table = array("I", links)
    size = 64 if mini else cfb.sector
    source = cfb.data[:length // 2] if mini else None
    chain = cfb._chain(start, table, "s")
    expected, cut = [], False
    for number in chain:  # (what the reader did sector by sector)
        block = (source[number * size:(number + 1) * size] if source is not None else
                 cfb.data[(number + 1) * size:(number + 2) * size] if (number + 1) * size < length else b"")
        if not block:
            cut = True
            break
        expected.append(block)
    cfb.damage.clear()
    assert cfb._chain_bytes(start, table, size, "s", source) == b"".join(expected)
    assert ("s runs past the end of the file: cut short" in cfb.damage) == cut


def test_a_msg_whose_fat_is_named_past_the_header_s_109_sectors_is_read_through_its_difat(tmp_path: Path) -> None:
    # (an attachment of 9 MB: about 145 sectors of FAT, those past the header's 109 named by DIFAT, MS-CFB §2.5)
    report = Message({(0x1000, PT_UNICODE): "text https://text.example/"}, [
        Attachment({(0x3707, PT_UNICODE): "blob.bin", (0x370E, PT_UNICODE): "application/octet-stream",
                    (0x3701, PT_BINARY): b"\x00" * (9 << 20)}),
        Attachment({(0x3707, PT_UNICODE): "page.html", (0x370E, PT_UNICODE): "text/html",
                    (0x3701, PT_BINARY): b"<a href='https://after.example/'>x</a>"})])
    path = tmp_path / "large.msg"
    path.write_bytes(msg(report))
    items = _items(path)
    assert _defects(items) == []
    assert _seen(items) == [("text", "https://text.example/", "https://text.example/"),
                            ("attachment-2", "https://after.example/", "https://after.example/")]


def test_a_msg_file_that_holds_an_rfc_5322_message_is_read_as_one(tmp_path: Path) -> None:
    # (some clients save a message as text under the .msg name: its bytes say what it is)
    path = tmp_path / "saved.msg"
    path.write_bytes(b"From: a@example.org\r\nTo: b@example.org\r\nDate: Tue, 1 Dec 2026 09:00:00 +0000\r\n"
                     b"Subject: s\r\n\r\nsee https://text.example/\r\n")
    assert _seen(_items(path)) == [("1", "https://text.example/", "https://text.example/")]


def test_compressed_rtf_that_inflates_past_what_a_body_may_be_is_a_bomb_and_a_lying_size_is_a_cut(
        tmp_path: Path) -> None:
    from urisift.readers.mail.mapi.rtf_compression import decompressed
    from urisift.stages.containment import Limits

    # (LZFu inflates up to eight times: a message held whole could make eight times its size of RTF)
    rtf = rb"{\rtf1 " + b"x" * 40_000 + rb" https://after.example/ }"
    packed = _rtf(rtf)
    assert len(packed) < len(rtf) // 7
    report = Message({(0x1009, PT_BINARY): packed, (0x1000, PT_UNICODE): "text https://text.example/"})
    path = tmp_path / "bomb.msg"
    path.write_bytes(msg(report))
    items = _items(path, limits=Limits(whole=30_000))
    assert _defects(items) == [(DefectKind.BOMB, f"part rtf: its compressed RTF (MS-OXRTFCP) is not read: its "
                                f"header says it inflates to {len(rtf)} bytes, more than a body may be held (30000); "
                                "the other bodies are read")]
    assert [u for _, u, _ in _seen(items)] == ["https://text.example/"]
    # a header that says fewer bytes than the stream makes: the RTF is cut at its size
    lying = packed[:4] + struct.pack("<I", 100) + packed[8:]
    assert decompressed(lying) == rtf[:100]


@settings(max_examples=200)
@given(st.lists(st.sampled_from([rb"{\rtf1\ansi ", b"ab", b"x" * 40, rb"\par ", bytes(range(256)), b"\r\n"]),
                max_size=120), st.binary(max_size=64))
def test_lzfu_gives_back_what_was_compressed_across_the_dictionary_s_wrap(parts: list[bytes], tail: bytes) -> None:
    from urisift.readers.mail.mapi.rtf_compression import decompressed

    rtf = b"".join(parts) + tail  # up to 31 KB: the 4,096-byte dictionary wraps, references overlap what they write
    assert decompressed(_rtf(rtf)) == rtf


_RTF_PIECES = [
    rb"{\*\htmltag12 ", rb"{\*\htmltag", rb"{\*\mhtmltag3 ", rb"{\*\htmltag1-", b"{", b"}", rb"\par", rb"\par ",
    rb"\par5", rb"\line", rb"\tab ", rb"\tabx", rb"\\", rb"\{", rb"\}", rb"\'8a", rb"\'41", rb"\'e9", rb"\u8364?",
    rb"\uc2 ", rb"\uc0 ", rb"\htmlrtf ", rb"\htmlrtf0 ", rb"\ansicpg932 ", rb"\ansicpg1252 ", rb"\ansicpg1200 ",
    rb"\fromhtml1 ", rb"{\field{\*\fldinst HYPERLINK ", rb"{\fonttbl ", rb"\pard", rb"\*", rb"\~", b"<a>",
    b"ab", b"\xe9\x81", b"\x00", b"\x01", b"\r\n", b"\r", b" ", b"-", b"5", b"'", b"\\", rb"\pa", b"r ",
    rb"\\par ", rb"\\\par ", rb"\\\tab ", rb"\'4", rb"\'zz", b"\\\r", b"}\r\n{\\*\\htmltag4 ",
    rb"{\*\htmltag241 <style>\par p \{margin:0\}\par\tab a:link \{color:blue\}\par </style>}"]


@settings(max_examples=400)
@given(st.lists(st.sampled_from(_RTF_PIECES), max_size=60))
def test_a_tag_s_group_read_whole_reads_as_its_tokens_do(pieces: list[bytes]) -> None:
    from urisift.readers.mail.mapi import rtf

    body = rb"{\rtf1\ansi " + b"".join(pieces)
    assert rtf._read(body) == rtf._read(body, whole=False)


def test_a_word_style_sheet_in_tag_groups_is_read_whole_with_its_escapes() -> None:
    body = (rb"{\rtf1\ansi\ansicpg932\fromhtml1 {\*\htmltag241 <style>\par \{font-family:"
            rb"\\FF2D\\30B4;\}\par\tab p \{margin:0\}\r\n</style>}{\*\mhtmltag84 <a href=cid:x>}"
            rb"{\*\htmltag84 <a href=x\'82\'a0>}}")
    found = rtf_content(body)
    assert found == RtfContent('<style>\r\n{font-family:\\FF2D\\30B4;}\r\n\tp {margin:0}</style><a href=x\u3042>',
                               True, "cp932")
