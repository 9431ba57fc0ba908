"""Mail (issue 10): MIME base headers, the MIME walk with inherited bases,
part paths, transfer encodings, header URIs, flowed text, the parts a
reference points to, and the base-header gems."""

from __future__ import annotations

import binascii
import email
import io
import time
from email.policy import compat32
from pathlib import Path

import pytest

from urisift import record_json, record_line, scan_mbox, scan_message
from urisift.model import BaseSource, Defect, DefectKind, Flag, Origin, Record
from urisift.readers.mail.flowed import unflow
from urisift.readers.mail.headers import base_value, decoded, heading_base
from urisift.readers.mail.uuencode import uu_blocks
from urisift.readers.mail.walk import Heading, Leaf, walk_message
from urisift.stages.base import NO_BASE

from .conftest import shared_path


@pytest.mark.parametrize("raw, value", [
    ('"http://www.example.com/a/"', "http://www.example.com/a/"),
    ('"http://biz.yahoo.com/prnews/980122/ca_\n netscap_3.html"', "http://biz.yahoo.com/prnews/980122/ca_netscap_3.html"),
    ("<http://example.com/x>", "http://example.com/x"),
    ("<URL:http://example.com/y>", "http://example.com/y"),
    ("URL: http://example.com/z", "http://example.com/z"),
    ("  sub/dir/page.html ", "sub/dir/page.html"),
    ("=?utf-8?q?http=3A=2F=2Fexample.com=2Fq?=", "http://example.com/q"),
    ('""', None), ("   ", None),
])
def test_base_header_values(raw: str, value: str | None) -> None:
    assert base_value(raw) == value


def test_decoded_leaves_words_it_cannot_decode() -> None:
    assert decoded("=?x-no-such?q?abc?=") == "=?x-no-such?q?abc?="
    assert decoded("plain") == "plain"


def _message(text: str) -> email.message.Message:
    return email.message_from_bytes(text.encode(), policy=compat32)


def test_content_base_wins_over_content_location() -> None:
    m = _message("Content-Location: loc.html\nContent-Base: http://b.example/\n\nx")
    assert heading_base(m) == ("Content-Base", "http://b.example/")
    assert heading_base(_message("Content-Location: loc.html\n\nx")) == ("Content-Location", "loc.html")
    assert heading_base(_message("Content-Base: \"\"\nContent-Location: l\n\nx")) == ("Content-Location", "l")


NESTED = """\
From: a@example.org
Content-Type: multipart/mixed; boundary="outer"
Content-Base: http://outer.example/dir/

--outer
Content-Type: text/plain

<URL:plain.html>
--outer
Content-Type: multipart/related; boundary="inner"
Content-Location: sub/

--inner
Content-Type: text/html
Content-Location: page.html

<a href="rel.html">r</a>
--inner
Content-Type: image/png
Content-Location: http://img.example/i.png
Content-Transfer-Encoding: base64

iVBORw0KGgo=
--inner--
--outer
Content-Type: message/rfc822

From: b@example.org
Content-Base: http://forwarded.example/
Content-Type: text/plain

<URL:fwd.html>
--outer--
"""


def test_the_walk_gives_imap_paths_and_the_layers_in_force() -> None:
    seen = []
    headings = []
    for item in walk_message(_message(NESTED), NO_BASE, Origin()):
        if isinstance(item, Heading):
            headings.append((item.path, item.entity["From"], item.layer.current.uri if item.layer.current else None))
            continue
        assert isinstance(item, Leaf)
        base = item.layer.current
        seen.append((item.path, item.content_type, base.uri if base else None, base.source if base else None))
    assert seen == [
        ("1", "text/plain", "http://outer.example/dir/", BaseSource.CONTENT_BASE),
        ("2.1", "text/html", "http://outer.example/dir/sub/page.html", BaseSource.CONTENT_LOCATION),
        ("2.2", "image/png", "http://img.example/i.png", BaseSource.CONTENT_LOCATION),
        ("3.1", "text/plain", "http://forwarded.example/", BaseSource.CONTENT_BASE)]
    assert headings == [("", "a@example.org", "http://outer.example/dir/"),
                        ("3", "b@example.org", "http://forwarded.example/")]


def test_scan_message_resolves_each_part_against_its_base() -> None:
    records = [r for r in scan_message(NESTED.encode(), base="http://retrieval.example/") if isinstance(r, Record)]
    assert [(r.origin.part, r.uri, r.target, r.base_source) for r in records] == [
        ("1", "plain.html", "http://outer.example/dir/plain.html", BaseSource.CONTENT_BASE),
        ("2.1", "rel.html", "http://outer.example/dir/sub/rel.html", BaseSource.CONTENT_LOCATION),
        ("3.1", "fwd.html", "http://forwarded.example/fwd.html", BaseSource.CONTENT_BASE)]


def test_transfer_encodings_are_undone_before_scanning() -> None:
    qp = ("Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n"
          "see http://qp.example/a-very-long-path-that-the-encoder-=\nsplit?x=3D1&y=3D%C3%A9 caf=C3=A9\n")
    b64 = ("Content-Type: text/html; charset=iso-8859-1\nContent-Transfer-Encoding: base64\n\n"
           "PGEgaHJlZj0iaHR0cDovL2I2NC5leGFtcGxlL+kiPng8L2E+\n")
    assert [(r.uri, r.charset) for r in scan_message(qp.encode()) if isinstance(r, Record)] == [
        ("http://qp.example/a-very-long-path-that-the-encoder-split?x=1&y=%C3%A9", "utf-8")]
    # (an HTML part's ISO-8859-1 is its WHATWG encoding, windows-1252, as a mail reader's renderer reads it)
    assert [(r.uri, r.charset) for r in scan_message(b64.encode()) if isinstance(r, Record)] == [
        ("http://b64.example/é", "windows-1252")]


def test_a_broken_message_is_reported_and_the_rest_still_read() -> None:
    broken = ("Content-Type: multipart/mixed; boundary=\"b\"\n\n--b\nContent-Type: text/plain\n\n"
              "http://first.example/\n--b\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\n"
              "aHR0cDovL3NlY29uZC5leGFtcGxlLw=\n")  # no closing boundary, bad padding
    items = list(scan_message(broken.encode()))
    assert [r.uri for r in items if isinstance(r, Record)] == ["http://first.example/", "http://second.example/"]
    assert {i.kind for i in items if isinstance(i, Defect)} == {DefectKind.BROKEN_MIME}


def test_the_gems_resolve_as_their_headers_and_html_say() -> None:
    folder = shared_path("corpora", "base-header-gems")
    # Mozilla 4.02 "Send Page": Content-Base folded inside its quotes, and a <base> in the HTML that wins
    with open(folder / "linux-mips-1998-netscape-send-page-content-base.mbox", "rb") as f:
        records = [r for r in scan_mbox(f) if isinstance(r, Record)]
    assert {r.origin.message_id for r in records} == {"<34C77F80.20285955@netscape.com>"}
    relative = [(r.uri, r.target, r.base_source) for r in records if not r.uri.startswith(("http:", "mailto:"))]
    assert relative[:2] == [("/reports/", "http://biz.yahoo.com/reports/", BaseSource.HTML_BASE),
                            ("/industry/", "http://biz.yahoo.com/industry/", BaseSource.HTML_BASE)]
    # without its <base>, the part's folded Content-Base serves
    data = (folder / "linux-mips-1998-netscape-send-page-content-base.mbox").read_bytes()
    for spelling in (b'<base href="http://biz.yahoo.com/">', b'<BASE HREF="http://biz.yahoo.com/">'):
        data = data.replace(spelling, b"")
    records = [r for r in scan_mbox(io.BytesIO(data)) if isinstance(r, Record) and r.uri == "/reports/"]
    assert [(r.target, r.base_source) for r in records] == [
        ("http://biz.yahoo.com/reports/", BaseSource.CONTENT_BASE)]
    assert records[0].base == "http://biz.yahoo.com/prnews/980122/ca_netscap_3.html"
    # spam: Content-Base and Content-Location agree, and a QP-encoded <BASE HREF> wins
    records = [r for r in scan_message((folder / "spamassassin-spam2-00756-content-base.eml").read_bytes())
               if isinstance(r, Record)]
    assert ("../www/imagesjulio/contraloria.jpg", "http://www.rebackee.com/www/imagesjulio/contraloria.jpg",
            BaseSource.HTML_BASE) in [(r.uri, r.target, r.base_source) for r in records]
    # a BBC page mailed as multipart/related: its images are the parts whose absolute
    # Content-Location they name (RFC 2557 §8); no base is needed, none is used
    records = [r for r in scan_message((folder / "spamassassin-easyham2-00869-content-location.eml").read_bytes())
               if isinstance(r, Record) and r.origin.part == "1.2"]
    bbc = "http://news.bbc.co.uk/"
    assert [(r.element, r.target, r.base_source, r.points_to) for r in records] == [
        ("a", bbc + "1/hi/sci/tech/2147879.stm", None, None),
        ("img", bbc + "olmedia/1640000/images/_1644899_aster300.jpg", None, "2"),
        ("img", bbc + "furniture/nothing.gif", None, "3"),
        ("img", bbc + "furniture/nothing.gif", None, "3"),
        ("img", bbc + "furniture/grey_pixel.gif", None, "4"),
        ("img", bbc + "furniture/nothing.gif", None, "3"),
        ("img", bbc + "nol/shared/img/startquote.gif", None, "5"),
        ("img", bbc + "nol/shared/img/endquote.gif", None, "6"),
        ("a", bbc + "1/hi/sci/tech/2148924.stm", None, None),
    ]


HEADERS = """\
From: Someone <someone@example.org>
To: list@example.org
Subject: =?utf-8?q?see_http=3A=2F=2Fsubject.example=2Fa?= and www.not-abbreviated.example
Received: by ftp.example.org (Postfix) with ESMTP id 1234; http://received.example/ never read
DKIM-Signature: v=1; a=rsa-sha256; h=from:content-type:list-id; bh=abc
Message-ID: <1234@example.org>
List-Unsubscribe: <mailto:leave@example.org?subject=unsubscribe>,
 <https://lists.example.org/options/
  list> (web page)
List-Post: NO
List-Archive: <relative/archive/>
Archived-At: <http://archive.example/msg/1234>
X-URL: http://x-url.example/
X-Received: by 10.0.0.1 with http://x-received.example/
Content-Base: http://base.example/d/
Content-Type: text/plain

body
"""


def test_header_uris() -> None:
    records = [r for r in scan_message(HEADERS.encode()) if isinstance(r, Record)]
    assert [(r.place.header, r.style.value, r.uri, r.target) for r in records] == [
        ("Subject", "bare", "http://subject.example/a", "http://subject.example/a"),
        ("List-Unsubscribe", "header", "mailto:leave@example.org?subject=unsubscribe",
         "mailto:leave@example.org?subject=unsubscribe"),
        ("List-Unsubscribe", "header", "https://lists.example.org/options/list", "https://lists.example.org/options/list"),
        ("List-Archive", "header", "relative/archive/", "http://base.example/d/relative/archive/"),
        ("Archived-At", "header", "http://archive.example/msg/1234", "http://archive.example/msg/1234"),
        ("X-URL", "bare", "http://x-url.example/", "http://x-url.example/")]
    assert {r.where.value for r in records} == {"header"}


# -- format=flowed (RFC 3676) -------------------------------------------------------------------

@pytest.mark.parametrize("text, delsp, expected", [
    ("see http://example.com/a/ \nlong/path and\nmore", False, "see http://example.com/a/ long/path and\nmore"),
    ("see http://example.com/a/very- \nlong/path\n", True, "see http://example.com/a/very-long/path\n"),
    ("> quoted http://q.example/ \n> rest\nnot quoted", False, "> quoted http://q.example/ rest\nnot quoted"),
    ("> flowed \nunquoted next", False, "> flowed \nunquoted next"),
    ("-- \nsignature", False, "-- \nsignature"),
    (" From stuffed\n", False, "From stuffed\n"),
])
def test_unflow(text: str, delsp: bool, expected: str) -> None:
    assert unflow(text, delsp=delsp) == expected


def test_a_flowed_part_is_rejoined_before_scanning() -> None:
    message = ("Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes\n\n"
               "The page is at http://example.com/a/very/long/path/that/the/client/wra \n"
               "pped/index.html for now.\n")
    assert [(r.uri, r.charset) for r in scan_message(message.encode()) if isinstance(r, Record)] == [
        ("http://example.com/a/very/long/path/that/the/client/wrapped/index.html", "utf-8")]


def test_multipart_related_without_a_base_uses_thismessage() -> None:
    message = ('Content-Type: multipart/related; boundary="b"\n\n--b\nContent-Type: text/html\n\n'
               '<img src="images/a.gif">\n--b\nContent-Type: image/gif\nContent-Location: images/a.gif\n\nGIF\n--b--\n')
    assert [(r.target, r.base_source) for r in scan_message(message.encode()) if isinstance(r, Record)] == [
        ("thismessage:/images/a.gif", BaseSource.DEFAULT)]


def test_mhtml_snapshot_content_location_is_the_pages_address() -> None:
    message = ("From: <Saved by Blink>\nSnapshot-Content-Location: https://site.example/dir/page.html\n"
               'Content-Type: multipart/related; type="text/html"; boundary="b"\n\n--b\nContent-Type: text/html\n\n'
               '<a href="other.html">o</a>\n--b--\n')
    assert [(r.target, r.base_source) for r in scan_message(message.encode()) if isinstance(r, Record)] == [
        ("https://site.example/dir/other.html", BaseSource.CONTENT_LOCATION)]


def test_a_maildir_is_read_message_by_message_and_tmp_is_skipped(tmp_path: Path) -> None:
    from urisift.cli.command import main

    for sub in ("cur", "new", "tmp"):
        (tmp_path / "Mail" / sub).mkdir(parents=True)
    # no Date header: sniffing alone would take it for text; in a Maildir it is a message
    (tmp_path / "Mail" / "cur" / "1700000000.M1P1.host:2,S").write_bytes(
        b"From: a@example.org\nContent-Base: http://cur.example/d/\nContent-Type: text/plain\n\n<URL:x.html>\n")
    (tmp_path / "Mail" / "new" / "1700000001.M2P2.host").write_bytes(
        b"Subject: new http://new.example/\n\nbody\n")
    (tmp_path / "Mail" / "tmp" / "1700000002.M3P3.host").write_bytes(b"Subject: http://tmp.example/\n\nx\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["--no-location", str(tmp_path / "Mail")], stdout=out, stderr=err) == 0
    assert (out.getvalue(), err.getvalue()) == ("http://cur.example/d/x.html\nhttp://new.example/\n", "")


# -- more bad input -----------------------------------------------------------------------------------

def test_a_part_in_an_unknown_charset_is_detected_and_reported() -> None:
    message = "Content-Type: text/plain; charset=x-unknown\n\nsee http://x.example/caf\xe9\n".encode("latin-1")
    items = list(scan_message(message))
    assert [i.kind for i in items if isinstance(i, Defect)][:1] == [DefectKind.UNKNOWN_CHARSET]
    assert [r.uri for r in items if isinstance(r, Record)] == ["http://x.example/café"]


@pytest.mark.parametrize("message, uris", [
    (b"", []),
    (b"Subject: only a heading http://h.example/\n", ["http://h.example/"]),
    (b"Content-Type: text/plain\nContent-Transfer-Encoding: base64\n\naHR0cDovL3RydW5jYXRlZC5leGFtcGxlLw",
     ["http://truncated.example/"]),
])
def test_broken_messages_never_stop_the_scan(message: bytes, uris: list[str]) -> None:
    assert [r.uri for r in scan_message(message) if isinstance(r, Record)] == uris


def test_binary_junk_as_a_message_is_reported_and_still_read() -> None:
    items = list(scan_message(b"\x00\x01\x02binary junk\xff\xfe http://junk.example/\n"))
    assert [i.kind for i in items if isinstance(i, Defect)] == [DefectKind.BROKEN_MIME, DefectKind.BINARY_CONTENT]
    assert [r.uri for r in items if isinstance(r, Record)] == ["http://junk.example/"]


def test_binary_junk_as_an_mbox_is_one_message_and_nothing_raises() -> None:
    junk = bytes(range(256)) * 64
    items = list(scan_mbox(io.BytesIO(junk + b"\nFrom a@b Mon Jan  1 00:00:00 2001\n\nhttp://after.example/\n")))
    assert [r.uri for r in items if isinstance(r, Record)] == ["http://after.example/"]


# -- which part a reference names (RFC 2392 cid:/mid:, RFC 2557 §8 Content-Location) ----------

POINTERS = """\
Message-ID: <outer.1@Example.ORG>
Content-Type: multipart/mixed; boundary="m"

--m
Content-Type: multipart/related; boundary="r"

--r
Content-Type: text/html

<img src="cid:logo%2B1@Example.org"> <img src="images/a.gif#top"> <img src="cid:nothing@example.org">
<a href="mid:outer.1@example.org">me</a> <a href="mid:fwd.2@example.org/note@example.org">note</a>
<a href="mid:fwd.2@example.org">fwd</a> <a href="mid:elsewhere@example.org">other</a>
<img src="http://cb.example/base/x/pic.png">
--r
Content-Type: image/gif
Content-ID: <logo+1@example.org>
Content-Location: images/a.gif

GIF
--r
Content-Type: image/png
Content-Base: http://cb.example/base/
Content-Location: x/pic.png

PNG
--r--
--m
Content-Type: message/rfc822

Message-ID: <fwd.2@example.org>
Content-Type: multipart/mixed; boundary="f"

--f
Content-Type: text/plain
Content-ID: <note@example.org>

a note
--f--
--m--
"""


def test_references_name_the_parts_they_point_to() -> None:
    records = [r for r in scan_message(POINTERS.encode()) if isinstance(r, Record)]
    assert [(r.target, r.points_to) for r in records] == [
        ("cid:logo%2B1@Example.org", "1.2"),  # percent-decoded; the domain compared without case
        ("thismessage:/images/a.gif#top", "1.2"),  # RFC 2557 §5 default base, fragment aside
        ("cid:nothing@example.org", None),  # names no part
        ("mid:outer.1@example.org", ""),  # the message the reference stands in
        ("mid:fwd.2@example.org/note@example.org", "2.1"),  # a part of the attached message
        ("mid:fwd.2@example.org", "2"),  # the attached message
        ("mid:elsewhere@example.org", None),  # another message: not matched
        ("http://cb.example/base/x/pic.png", "1.3"),  # Content-Location against its own Content-Base
    ]


def test_points_to_comes_last_but_for_the_browser_target() -> None:
    # an HTML part: its records carry browser_target, after points_to
    record = next(r for r in scan_message(POINTERS.encode()) if isinstance(r, Record))
    assert record_line(record).endswith(', "points_to": "1.2", "browser_target": "cid:logo%2B1@Example.org", '
                                        '"unwrapped": null, "wrapper": [], "effective_target": null, '
                                        '"effective_hops": null, "effective_status": null, "effective_loop": null, '
                                        '"page": null, "member": null}')
    assert list(record_json(record))[-4:] == ["effective_status", "effective_loop", "page", "member"]


# -- uuencoded files in text parts --------------------------------------------------------------

def _uu(data: bytes, name: str, *, end: bool = True) -> str:
    lines = [f"begin 644 {name}"]
    lines += [binascii.b2a_uu(data[i:i + 45]).decode().rstrip("\n") for i in range(0, len(data), 45)]
    return "\n".join(lines + (["`", "end"] if end else []))


def test_a_uuencoded_text_file_is_decoded_and_scanned_and_its_lines_are_not() -> None:
    notes = b"see http://uu.example/notes and <http://uu.example/long/\n  path>\n"
    junk_png = b"\x89PNG\r\n\x1a\n\x00\x00" + b"http://in.png.example/" * 3
    body = ("Subject: files\n\nbefore http://before.example/\n" + _uu(notes, "notes.txt") + "\n"
            + _uu(junk_png, "pic.png") + "\nafter http://after.example/\n")
    items = list(scan_message(body.encode()))
    records = [r for r in items if isinstance(r, Record)]
    assert [(r.target, r.line, r.flags) for r in records] == [
        ("http://before.example/", 1, ()),
        ("http://after.example/", 12, ()),  # 1 + two blocks of 5 lines: the part's line numbers are kept
        ("http://uu.example/notes", 1, (Flag.UUENCODED,)),
        ("http://uu.example/long/path", 1, (Flag.WRAPPED, Flag.UUENCODED)),
    ]
    assert not [d for d in items if isinstance(d, Defect)]


def test_a_uuencoded_block_cut_short_is_a_defect_and_still_read() -> None:
    body = "\n" + _uu(b"x http://cut.example/ y\n" * 3, "cut.txt", end=False) + "\nsigned, me\n"
    items = list(scan_message(body.encode()))
    assert [r.target for r in items if isinstance(r, Record)] == ["http://cut.example/"] * 3
    (defect,) = [d for d in items if isinstance(d, Defect)]
    assert defect.kind is DefectKind.BROKEN_MIME and defect.position == 0 and defect.origin.part == "1"
    assert "uuencoded file 'cut.txt' has no 'end' line: cut short after 72 bytes" in defect.detail


def test_begin_in_prose_is_not_a_block() -> None:
    body = b"\nbegin 644 of the steps is http://prose.example/ and then\nend\n"
    assert [r.target for r in scan_message(body) if isinstance(r, Record)] == ["http://prose.example/"]


def test_uu_blocks_are_linear_on_hostile_input() -> None:
    text = ((b"begin 644 a\n" + b"M" * 200_000 + b"\n") * 20 + b"begin 644 " * 100_000 + b"\n"
            + b"begin 644 a" + b" " * 500_000 + b"b\n")
    start = time.perf_counter()
    blocks = uu_blocks(text)
    assert len(blocks) == 0 and time.perf_counter() - start < 2.0


def test_raw_8bit_headers_read_as_utf8_else_latin1() -> None:
    message = ("Subject: Grüße, see http://umlaut.example/ü\n".encode()
               + "X-URL: http://latin.example/café\n".encode("latin-1") + b"\nbody\n")
    records = [r for r in scan_message(message) if isinstance(r, Record)]
    assert [(r.header, r.uri) for r in records] == [
        ("Subject", "http://umlaut.example/ü"), ("X-URL", "http://latin.example/café")]


def test_the_bases_of_parts_do_not_depend_on_the_order_they_are_scanned_in() -> None:
    """Issue 19: each part carries its own frozen chain of bases, so two scans
    of one message interleaved item by item, or a part scanned long after
    the walk went past it, give the same records as one scan alone."""
    alone = list(scan_message(NESTED.encode(), base="http://retrieval.example/"))
    first = scan_message(NESTED.encode(), base="http://retrieval.example/")
    second = scan_message(NESTED.encode(), base="http://retrieval.example/")
    interleaved: list[object] = []
    for a, b in zip(first, second, strict=True):
        interleaved += [a, b]
    assert interleaved[0::2] == alone and interleaved[1::2] == alone
    # the walk run to its end before any part is looked at: every leaf still has its own bases
    leaves = [item for item in walk_message(_message(NESTED), NO_BASE, Origin()) if isinstance(item, Leaf)]
    assert [(leaf.path, leaf.layer.current.uri if leaf.layer.current else None) for leaf in reversed(leaves)] == [
        ("3.1", "http://forwarded.example/"), ("2.2", "http://img.example/i.png"),
        ("2.1", "http://outer.example/dir/sub/page.html"), ("1", "http://outer.example/dir/")]
    assert [(r.origin.part, r.base) for r in alone if isinstance(r, Record)] == [
        ("1", "http://outer.example/dir/"), ("2.1", "http://outer.example/dir/sub/page.html"),
        ("3.1", "http://forwarded.example/")]


@pytest.mark.parametrize("multipart", [False, True])
def test_points_to_means_the_same_in_a_single_part_message(multipart: bool) -> None:
    """Issue 20: a mid: naming the message itself is "" and a target naming
    no part is null, whether the message has one part or several."""
    body = b'<a href="mid:m1@x.example">me</a> <a href="cid:none@x.example">y</a> <a href="http://a.example/">z</a>\n'
    if multipart:
        message = (b'From: a@x.example\nMessage-ID: <m1@x.example>\nContent-Type: multipart/mixed; boundary="b"\n\n'
                   b"--b\nContent-Type: text/html\n\n" + body + b"--b--\n")
    else:
        message = b"From: a@x.example\nMessage-ID: <m1@x.example>\nContent-Type: text/html\n\n" + body
    assert [(r.uri, r.points_to) for r in scan_message(message) if isinstance(r, Record)] == [
        ("mid:m1@x.example", ""), ("cid:none@x.example", None), ("http://a.example/", None)]


@pytest.mark.parametrize("cte", [None, "7bit", "8BIT ", " binary", "base64", "quoted-printable", "x-uuencode",
                                 "x-token"])
def test_a_part_body_is_what_get_payload_decodes(cte: str | None) -> None:
    # the identity encodings take a shortcut past get_payload (issue 24): the same bytes
    from urisift.readers.mail.parts import transfer_decoded

    heading = b"Content-Type: text/plain\n" + (b"" if cte is None else b"Content-Transfer-Encoding: " + cte.encode()
                                               + b"\n")
    body = {"base64": b"aHR0cDovL2IuZXhhbXBsZS8=\n", "quoted-printable": b"http://q.example/=3D\n",
            "x-uuencode": b"begin 644 f\n%86)C\"@``\n`\nend\n"}.get(cte.strip() if cte else "", b"caf\xe9 http://x/\n")
    message = email.message_from_bytes(heading + b"\n" + body, policy=compat32)
    expected = message.get_payload(decode=True)
    assert transfer_decoded(message) == expected
    built = email.message.Message()
    built.set_payload("caf\u00e9 built from text")
    assert transfer_decoded(built) == built.get_payload(decode=True) == "caf\u00e9 built from text".encode(
        "raw-unicode-escape")
