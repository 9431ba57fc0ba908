"""Issue 35: the guarantees of the nesting boundary, inherited by every
reader: an inner reader that fails costs its own content only, every
document has a budget, and no document costs a gigabyte, an hour or the
rest of the archive.  Each class of the issue with the link after it still
found."""

from __future__ import annotations

import importlib
import io
import json
import struct
import subprocess
import sys
import time
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import replace
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

import urisift.pipeline.scan
from urisift import Defect, Record, ScanOptions, iter_input, scan_html
from urisift.cli.command import main
from urisift.model import Content, DefectKind, Kind, Tally
from urisift.stages.containment import Limits

from .conftest import OLD_ENGINE_FACTOR, ROOT
from .test_payloads import _pdf

SRC = str(ROOT / "src")


def _split(items: Any) -> tuple[list[Record], list[Defect]]:
    items = list(items)
    return [i for i in items if isinstance(i, Record)], [i for i in items if isinstance(i, Defect)]


def _scan(path: Path, **options: Any) -> tuple[list[Record], list[Defect]]:
    return _split(iter_input(str(path), ScanOptions(**options)))


def _message(number: int, attachments: list[tuple[str, str, bytes]], body: str = "") -> bytes:
    message = EmailMessage()
    message["From"] = "a@example.com"
    message["Date"] = "Mon, 3 Jun 2024 12:00:00 +0000"
    message["Subject"] = f"message {number}"
    message.set_content(body or f"see http://m{number}.example/ now\n")
    for name, media, data in attachments:
        main_type, sub_type = media.split("/")
        message.add_attachment(data, maintype=main_type, subtype=sub_type, filename=name)
    return message.as_bytes()


def _mbox(messages: list[bytes]) -> bytes:
    out = b""
    for number, data in enumerate(messages):
        body = b"\n".join(b">" + line if line.startswith(b"From ") else line for line in data.split(b"\n"))
        out += b"From a@example.com Mon Jun  3 12:00:%02d 2024\n" % (number % 60) + body + b"\n\n"
    return out


def _zip(members: list[tuple[str, bytes]]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in members:
            package.writestr(zipfile.ZipInfo(name, date_time=(2024, 6, 3, 12, 0, 0)), data,
                             compress_type=zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _relationships(*targets: str) -> bytes:
    rows = "".join(f'<Relationship Id="r{i}" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
                   f'relationships/hyperlink" Target="{t}" TargetMode="External"/>' for i, t in enumerate(targets))
    return ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/'
            f'package/2006/relationships">{rows}</Relationships>').encode()


def _docx(*members: tuple[str, bytes]) -> bytes:
    return _zip([("[Content_Types].xml", b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                  b'package/2006/content-types"/>'), *members])


def _patched(package: bytes, member: str, *, flags: int | None = None, method: int | None = None,
             size: int | None = None) -> bytes:
    """The package with one member's general-purpose flags, compression
    method or uncompressed size rewritten, in its local header and its
    central directory entry (APPNOTE 4.3.7, 4.3.12), as an encrypting or
    imploding zip tool (or a lying one) writes them."""
    data = bytearray(package)
    name = member.encode()
    for signature, flag_at, method_at, name_at in ((b"PK\x03\x04", 6, 8, 30), (b"PK\x01\x02", 8, 10, 46)):
        at = data.find(signature)
        while at != -1:
            length = struct.unpack_from("<H", data, at + (26 if signature == b"PK\x03\x04" else 28))[0]
            if bytes(data[at + name_at:at + name_at + length]) == name:
                if flags is not None:
                    struct.pack_into("<H", data, at + flag_at, flags)
                if method is not None:
                    struct.pack_into("<H", data, at + method_at, method)
                if size is not None:
                    struct.pack_into("<I", data, at + method_at + 12, size)
            at = data.find(signature, at + 4)
    return bytes(data)


# -- the nesting boundary: a reader that fails, plugged into each nesting -----------------------------------------

def _tripping_html(monkeypatch: pytest.MonkeyPatch) -> None:
    """The HTML reader fails on any content that holds "TRIP", as a bug would."""
    real = urisift.pipeline.scan.READERS[Kind.HTML]

    def tripping(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Any]:
        body = content.body
        if not isinstance(body, (str, bytes)):
            body = body.read()  # type: ignore[union-attr]
            content = replace(content, body=body)
        text = body if isinstance(body, str) else bytes(body).decode("latin-1")
        if "TRIP" in text:
            yield from real(content, options, tally)  # its records before the failure are kept
            raise RuntimeError("a bug")
        yield from real(content, options, tally)

    monkeypatch.setitem(urisift.pipeline.scan.READERS, Kind.HTML, tripping)


def _page(n: int, trip: bool = False) -> bytes:
    return f'<p><a href="http://page{n}.example/">{"TRIP" if trip else "ok"}</a></p>'.encode()


def test_a_failing_reader_in_a_mail_part_costs_that_part_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    _tripping_html(monkeypatch)
    path = tmp_path / "a.mbox"
    path.write_bytes(_mbox([_message(n, [("p.html", "text/html", _page(n, trip=n == 1))]) for n in range(3)]))
    records, defects = _scan(path)
    assert [r.uri for r in records] == ["http://m0.example/", "http://page0.example/", "http://m1.example/",
                                        "http://page1.example/", "http://m2.example/", "http://page2.example/"]
    assert [str(d) for d in defects] == [
        f"{path} message 1 part 2: scan-failed: reading its html content failed (RuntimeError: a bug); "
        "the rest is read; please report it"]


def test_a_failing_reader_in_a_warc_payload_costs_that_record_alone(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _tripping_html(monkeypatch)
    path = tmp_path / "a.warc"
    path.write_bytes(b"".join(_warc_response(f"http://h.example/{n}", _page(n, trip=n == 1)) for n in range(3)))
    records, defects = _scan(path)
    assert [r.uri for r in records] == ["http://page0.example/", "http://page1.example/", "http://page2.example/"]
    assert [(d.kind, d.origin.warc_target_uri) for d in defects] == [(DefectKind.SCAN_FAILED, "http://h.example/1")]


def _warc_response(uri: str, body: bytes, media: bytes = b"text/html") -> bytes:
    http = b"HTTP/1.1 200 OK\r\nContent-Type: " + media + b"\r\nContent-Length: %d\r\n\r\n" % len(body) + body
    head = (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri.encode() + b"\r\n"
            b"WARC-Date: 2024-06-03T12:00:00Z\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-%012d>\r\n"
            % (abs(hash(uri)) % 10**12) + b"Content-Type: application/http; msgtype=response\r\n"
            b"Content-Length: %d\r\n\r\n" % len(http))
    return head + http + b"\r\n\r\n"


def test_a_failing_reader_in_a_feeds_html_costs_that_entry_alone(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    _tripping_html(monkeypatch)
    entries = "".join(f'<entry><content type="html">{_page(n, trip=n == 1).decode().replace("<", "&lt;")}'
                      '</content></entry>' for n in range(3))
    path = tmp_path / "f.atom"
    path.write_text(f'<feed xmlns="http://www.w3.org/2005/Atom">{entries}'
                    '<link href="http://after.example/"/></feed>')
    records, defects = _scan(path)
    assert [r.uri for r in records] == ["http://page0.example/", "http://page1.example/", "http://page2.example/",
                                        "http://after.example/"]
    assert [d.kind for d in defects] == [DefectKind.SCAN_FAILED]


def test_a_failing_reading_of_a_package_member_costs_that_member_alone(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from urisift.readers.xml import walk

    real = walk.XmlWalk.items

    def tripping(self: walk.XmlWalk) -> Iterator[Any]:
        if self.member == "word/_rels/document.xml.rels":
            raise RuntimeError("a bug")
        yield from real(self)

    monkeypatch.setattr(walk.XmlWalk, "items", tripping)
    path = tmp_path / "a.docx"
    path.write_bytes(_docx(("word/_rels/document.xml.rels", _relationships("http://lost.example/")),
                           ("word/_rels/header1.xml.rels", _relationships("http://kept.example/"))))
    records, defects = _scan(path)
    assert [(r.uri, r.place.member) for r in records] == [("http://kept.example/", "word/_rels/header1.xml.rels")]
    assert [str(d) for d in defects] == [
        f"{path}: scan-failed: reading member word/_rels/document.xml.rels failed (RuntimeError: a bug); "
        "the rest is read; please report it"]


def _linked_pdf(pages: int, *, annots: dict[int, bytes] | None = None, contents: dict[int, bytes] | None = None,
                streams: list[bytes] | None = None) -> bytes:
    """A PDF of ``pages`` pages, page n (from 1) linking http://pN.example/ and
    writing http://tN.example/ in its text; ``annots`` and ``contents`` replace
    a page's /Annots and /Contents values; ``streams`` are extra objects (from 4 + 3*pages)."""
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % (4 + 3 * i) for i in range(pages))
               + b"] /Count %d >>" % pages, font]
    for i in range(pages):
        n = i + 1
        text = b"BT /F1 12 Tf 72 700 Td (see http://t%d.example/ here) Tj ET" % n
        page_annots = (annots or {}).get(n, b"[%d 0 R]" % (6 + 3 * i))
        page_contents = (contents or {}).get(n, b"%d 0 R" % (5 + 3 * i))
        objects += [b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
                    b" /Contents " + page_contents + b" /Annots " + page_annots + b" >>",
                    b"<< /Length %d >>\nstream\n" % len(text) + text + b"\nendstream",
                    b"<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A << /S /URI /URI (http://p%d.example/) >> >>"
                    % n]
    return _pdf(objects + (streams or []))


def test_a_failing_page_costs_that_page_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pypdf")
    from urisift.readers.documents import pdf

    real = pdf._text_layer

    def tripping(text: str, number: int, *rest: Any) -> Iterator[Record]:
        if number == 2:
            raise RuntimeError("a bug")
        yield from real(text, number, *rest)

    monkeypatch.setattr(pdf, "_text_layer", tripping)
    path = tmp_path / "a.pdf"
    path.write_bytes(_linked_pdf(3))
    records, defects = _scan(path)
    assert [r.uri for r in records] == ["http://p1.example/", "http://t1.example/", "http://p2.example/",
                                        "http://p3.example/", "http://t3.example/"]
    assert [str(d) for d in defects] == [
        f"{path}: scan-failed: reading page 2 failed (RuntimeError: a bug); the rest is read; please report it"]


def test_a_failing_srcdoc_costs_that_srcdoc_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    parsing = importlib.import_module("urisift.readers.html.parse")
    real = parsing.parse

    def tripping(markup: Any, *rest: Any) -> Any:
        if "TRIP" in str(markup) and "iframe" not in str(markup):  # (the srcdoc's document, not the page's)
            raise RuntimeError("a bug")
        return real(markup, *rest)

    monkeypatch.setattr(parsing, "parse", tripping)
    records, defects = _split(scan_html('<iframe srcdoc="<a href=http://in.example/>TRIP</a>"></iframe>'
                                        '<a href="http://after.example/">x</a>', base="http://h.example/"))
    assert [r.uri for r in records] == ["http://after.example/"]
    assert [d.detail for d in defects] == [
        "reading an iframe srcdoc 1 deep failed (RuntimeError: a bug); the rest is read; please report it"]


# -- memory that grows with one document --------------------------------------------------------------------------

def _peak(code: str) -> tuple[str, int]:
    """What ``code`` prints, run in a child of its own, and the child's peak resident memory in MB
    (VmHWM, the peak of its own address space: ru_maxrss keeps the parent's
    peak across fork and exec, and the test process's is hundreds of MB)."""
    peak = "print(int(next(l for l in open('/proc/self/status') if l.startswith('VmHWM:')).split()[1]) // 1024)"
    child = subprocess.run([sys.executable, "-"], input=f"import sys; sys.path.insert(0, {SRC!r})\n{code}\n{peak}",
                           capture_output=True, text=True, check=True, timeout=300)
    *out, peak = child.stdout.splitlines()
    return "\n".join(out), int(peak)


@pytest.mark.parametrize("sheet", [
    "a{background:url(" + "a" * 2_000_000 + ")}",
    'a{content:"' + "a" * 2_000_000 + '"}',
    "a{background:url(" + "\\41 " * 500_000 + ")}",
    "/*" + "*" * 2_000_000,
], ids=["url", "string", "escapes", "comment"])
@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory read from /proc")
def test_a_long_token_in_a_style_sheet_costs_its_length(sheet: str) -> None:
    # a 2 MB url(), string, run of escapes or comment: linear memory (a 10 MB url() took 1.4 GB)
    out, peak = _peak(f"""
from urisift import scan_html, ScanOptions, iter_input
import io
sheet = {sheet!r} + "b{{background:url(next.png)}}"
page = "<style>" + sheet + "</style><p style='" + sheet.replace("'", "") + "'>x</p>"
print(sum(r.uri == "next.png" for r in scan_html(page)))
print(sum(getattr(r, "uri", "") == "next.png" for r in iter_input("-", ScanOptions(kind="css"),
      stdin=io.BytesIO(sheet.encode()))))""")
    assert out.splitlines() == ["2" if not sheet.startswith("/*") else "0", "1" if not sheet.startswith("/*") else "0"]
    assert peak < 200


def test_a_chain_of_long_xml_bases_is_refused_past_the_bound_and_read_on(tmp_path: Path) -> None:
    path = tmp_path / "nested.atom"
    value = "a/" * 20_000  # 40 KB a base, 60 of them nested
    path.write_text('<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://f.example/">'
                    + f'<entry xml:base="{value}">' * 60 + '<link href="x"/>' + "</entry>" * 60
                    + '<link href="y"/></feed>')
    start = time.perf_counter()
    records, defects = _scan(path)
    assert time.perf_counter() - start < 5
    assert [(r.uri, r.target) for r in records] == [("x", "http://f.example/x"), ("y", "http://f.example/y")]
    assert len(defects) == 60 and {d.kind for d in defects} == {DefectKind.BAD_BASE}
    assert defects[0].detail == (
        "xml-base " + repr(value[:120]) + "... (40000 characters) (xml:base of <entry> at line 1) cannot serve as a "
        "base: it is 40000 characters long, longer than a base may be (32768); xml-base base 'http://f.example/' "
        "stays in force")


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory read from /proc")
def test_many_sibling_bases_are_dropped_with_their_elements() -> None:
    out, peak = _peak("""
import io
from urisift import iter_input, ScanOptions
feed = io.BytesIO(b'<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://f.example/">'
                  + b''.join(b'<entry xml:base="e%d/"><link href="x"/></entry>' % i for i in range(200_000))
                  + b'</feed>')
targets = [r.target for r in iter_input("-", ScanOptions(kind="xml"), stdin=feed)]
print(len(targets), targets[0], targets[-1])""")
    assert out == "200000 http://f.example/e0/x http://f.example/e199999/x"
    assert peak < 150


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory read from /proc")
def test_a_million_links_in_one_atom_entry_stream_out() -> None:
    out, peak = _peak("""
import io
from urisift import iter_input, ScanOptions
feed = io.BytesIO(b'<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://f.example/"><entry>'
                  b'<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">'
                  + b''.join(b'<a href="p%d">x</a>\\n' % i for i in range(300_000))
                  + b'</div></content></entry></feed>')
count, last = 0, None
for last in iter_input("-", ScanOptions(kind="xml"), stdin=feed):
    count += 1
print(count, last.target, last.line)""")
    assert out == "300000 http://f.example/p299999 300000"
    assert peak < 150


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory read from /proc")
def test_a_relationship_part_of_a_million_rows_streams_out() -> None:
    out, peak = _peak("""
import io, zipfile
from urisift import iter_input, ScanOptions
buffer = io.BytesIO()
with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("[Content_Types].xml", "<Types/>")
    z.writestr("word/_rels/document.xml.rels", '<Relationships xmlns="http://schemas.openxmlformats.org/package/'
               '2006/relationships">' + "".join(f'<Relationship Id="r{i}" Target="http://r{i}.example/" '
               'TargetMode="External"/>' for i in range(300_000)) + "</Relationships>")
count, last = 0, None
for last in iter_input("-", ScanOptions(kind="office"), stdin=io.BytesIO(buffer.getvalue())):
    count += 1
print(count, last.uri)""")
    assert out == "300000 http://r299999.example/"
    assert peak < 150


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory read from /proc")
def test_a_page_past_the_segment_size_is_read_in_pieces_with_every_link() -> None:
    # 6 MB of links: parsed in pieces of about 1 MB; every link, its line, and the
    # document's <base> (in the first piece) on the links of the last
    out, peak = _peak("""
from urisift import scan_html
page = '<html><head><base href="http://b.example/d/"></head><body>' + ''.join(
    f'<a href="p{i}">t{i}</a>\\n' for i in range(300_000)) + '</body></html>'
count, first, last = 0, None, None
for last in scan_html(page):
    count += 1
    first = first or (last if last.element == "a" else None)
end = page.rindex("p299999")
print(count, len(page) > 4 << 20)
print(first.target, first.line, first.text)
print(last.target, last.line, last.text, last.span == (end, end + 7))""")
    # the <base href> and 300,000 links
    assert out.splitlines() == ["300001 True", "http://b.example/d/p0 1 t0",
                                "http://b.example/d/p299999 300000 t299999 True"]
    assert peak < 200


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="peak memory read from /proc")
def test_a_page_of_text_without_tags_is_cut_in_its_text() -> None:
    # 20 MB of "<" (no tag anywhere) took lexbor 425 MB whole; cut in pieces of text it is
    # bounded, and a URL in a long text run (paragraphs apart) is still found whole
    out, peak = _peak("""
from urisift import scan_html
from urisift.readers.html.segments import PIECE, segments
page = '<p>' + '<' * 20_000_000 + '</p>'
pieces = list(segments(page))
print(len(pieces) > 1, max(map(len, pieces)) <= PIECE, ''.join(pieces) == page, list(scan_html(page)))
text = '<pre>' + ('words ' * 99 + '\\n\\n') * 12_000 + 'see http://after.example/x and more</pre>'
print([r.target for r in scan_html(text)])""")
    assert out.splitlines() == ["True True True []", "['http://after.example/x']"]
    assert peak < OLD_ENGINE_FACTOR * 200


# -- time that grows without bound ------------------------------------------------------------------------------

def test_pages_sharing_a_bomb_of_text_operators_end_fast_with_one_defect(tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    ops = b"BT /F1 12 Tf 72 712 Td " + b"(a) Tj " * 200_000 + b"ET"  # 1.4 MB of content, drawn by every page
    squeezed = zlib.compress(ops, 9)
    pages = 2_000
    pdf = _linked_pdf(pages, contents={n: b"%d 0 R" % (4 + 3 * pages) for n in range(1, pages)},
                      streams=[b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(squeezed) + squeezed
                               + b"\nendstream"])
    path = tmp_path / "shared.pdf"
    path.write_bytes(pdf)
    start = time.perf_counter()
    records, defects = _scan(path)
    assert time.perf_counter() - start < 20
    # every page's annotation, and the last page's own text
    assert [r.uri for r in records] == [f"http://p{n}.example/" for n in range(1, pages + 1)] + ["http://t2000.example/"]
    assert [str(d) for d in defects] == [
        f"{path}: bomb: the text layer of pages 1, 2, 3, 4, 5 and 1994 more: not read, its content is past what one "
        "page's text layer is read for (1048576 bytes); their link annotations are read"]


def test_a_document_past_its_time_budget_ends_with_what_was_left_unread(tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    path = tmp_path / "a.pdf"
    path.write_bytes(_linked_pdf(3))
    records, defects = _scan(path, limits=Limits(seconds=0))
    assert records == []
    assert [str(d) for d in defects] == [
        f"{path}: bomb: the document's time budget (0 s, --time-budget) ran out: pages 1 to 3 not read"]


# -- the rest of the archive --------------------------------------------------------------------------------------

_ODT_TYPE = "application/vnd.oasis.opendocument.text"
_DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


@pytest.mark.parametrize(("flags", "method", "why"), [
    (0x1, None, "member word/_rels/document.xml.rels is encrypted: not read"),
    (None, 6, "member word/_rels/document.xml.rels is compressed with method 6 (implode), which this reader "
              "lacks: not read"),
    (None, 99, "member word/_rels/document.xml.rels is compressed with method 99 (AES encryption), which this "
               "reader lacks: not read"),
])
def test_a_member_that_cannot_be_inflated_costs_that_member_alone(tmp_path: Path, flags: int | None,
                                                                  method: int | None, why: str) -> None:
    package = _patched(_docx(("word/_rels/document.xml.rels", _relationships("http://lost.example/")),
                             ("word/_rels/footer1.xml.rels", _relationships("http://kept.example/"))),
                       "word/_rels/document.xml.rels", flags=flags, method=method)
    path = tmp_path / "a.mbox"
    path.write_bytes(_mbox([_message(0, [("a.docx", _DOCX_TYPE, package)]), _message(1, [])]))
    records, defects = _scan(path)
    assert [r.uri for r in records] == ["http://m0.example/", "http://kept.example/", "http://m1.example/"]
    assert [str(d) for d in defects] == [f"{path} message 0 part 2: broken-document: {why}"]


def test_a_bomb_member_costs_that_member_alone(tmp_path: Path) -> None:
    bomb = b'<?xml version="1.0"?><Relationships xmlns="x">' + b" " * 50_000_000 + b"</Relationships>"
    path = tmp_path / "a.docx"
    path.write_bytes(_docx(("word/_rels/document.xml.rels", bomb),
                           ("word/_rels/footer1.xml.rels", _relationships("http://kept.example/"))))
    records, defects = _scan(path)
    assert [r.uri for r in records] == ["http://kept.example/"]
    assert [d.kind for d in defects] == [DefectKind.BOMB]
    assert defects[0].detail.startswith("member word/_rels/document.xml.rels claims to inflate 50000062 bytes from ")


def test_a_package_past_the_inflate_budget_reads_what_the_budget_allows(tmp_path: Path) -> None:
    path = tmp_path / "a.docx"
    path.write_bytes(_docx(("word/_rels/document.xml.rels", _relationships("http://first.example/")),
                           ("word/_rels/footer1.xml.rels", _relationships("http://second.example/"))))
    size = len(_relationships("http://first.example/"))
    records, defects = _scan(path, limits=Limits(inflated=size + 10))
    assert [r.uri for r in records] == ["http://first.example/"]
    assert [d.detail for d in defects] == [
        f"member word/_rels/footer1.xml.rels would inflate {len(_relationships('http://second.example/'))} bytes, "
        f"past what is left of the document's inflate budget (10 of {size + 10}, --inflate-budget): not read"]


def test_a_member_that_lies_about_its_size_is_read_as_far_as_it_said(tmp_path: Path) -> None:
    rows = _relationships("http://a.example/", "http://b.example/")
    package = _docx(("word/_rels/document.xml.rels", rows))
    path = tmp_path / "a.docx"  # it says a third of its size
    path.write_bytes(_patched(package, "word/_rels/document.xml.rels", size=len(rows) // 3))
    records, defects = _scan(path)
    assert records == []  # zipfile checks the CRC-32 as the size it gives is reached
    # (the zipfile of CPython 3.11.2 refuses to open the member at all, for overlapping entries: no record
    # either way, a defect that says what zipfile said)
    assert [d.detail for d in defects] in ([
        "member word/_rels/document.xml.rels: it cannot be inflated (BadZipFile: Bad CRC-32 for file "
        "'word/_rels/document.xml.rels'): read as far as it went"], [
        "member word/_rels/document.xml.rels cannot be opened (BadZipFile: Overlapped entries: "
        "'word/_rels/document.xml.rels' (possible zip bomb)): not read"])


def test_one_bad_annotation_costs_that_annotation_alone(tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    path = tmp_path / "a.pdf"
    path.write_bytes(_linked_pdf(2, annots={1: b"[999 0 R 42 6 0 R]"}))
    records, defects = _scan(path)
    assert [r.uri for r in records] == ["http://p1.example/", "http://t1.example/", "http://p2.example/",
                                        "http://t2.example/"]
    assert [d.detail for d in defects] == [
        "page 1: annotation 1 cannot be read: it refers to an object the file does not hold; the rest of the page "
        "is read",
        "page 1: annotation 2 cannot be read: 42 is not a dictionary; the rest of the page is read"]


def test_a_bomb_stream_in_a_page_costs_that_stream_alone(tmp_path: Path) -> None:
    pytest.importorskip("pypdf")
    squeezed = zlib.compress(b"0" * 200_000_000, 9)
    pages = 2
    bomb = b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(squeezed) + squeezed + b"\nendstream"
    path = tmp_path / "a.pdf"
    path.write_bytes(_linked_pdf(pages, contents={1: b"[%d 0 R 5 0 R]" % (4 + 3 * pages)}, streams=[bomb]))
    records, defects = _scan(path)
    assert [r.uri for r in records] == ["http://p1.example/", "http://t1.example/", "http://p2.example/",
                                        "http://t2.example/"]
    assert [d.kind for d in defects] == [DefectKind.BOMB]
    assert defects[0].detail.startswith("page 1: content stream 1 inflates past a bound (")


def test_a_bad_byte_in_a_sitemap_is_one_defect_and_the_urls_after_it_are_read(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    data = (b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/'
            b'sitemap/0.9">\n<url><loc>http://s.example/a</loc></url>\n<url><loc>http://s.example/\xff'
            b'</loc></url>\n<url><loc>http://s.example/c</loc></url>\n</urlset>\n')
    path.write_bytes(data)
    records, defects = _scan(path)
    # as every reader reads a byte that is not UTF-8 in UTF-8 text: as windows-1252, and told
    assert [(r.uri, r.line) for r in records] == [("http://s.example/a", 3), ("http://s.example/\xff", 4),
                                                  ("http://s.example/c", 5)]
    at = data.index(b"\xff")
    assert [str(d) for d in defects] == [f"{path} at byte {at}: undecodable-bytes: ff is not utf-8 (invalid start "
                                         "byte); read as windows-1252"]


def _srcdoc(depth: int) -> str:
    """A link in an iframe srcdoc nested ``depth`` deep, each level quoted by escaping the one inside."""
    page = '<a href="http://deep.example/">x</a>'
    for _ in range(depth):
        page = '<iframe srcdoc="' + page.replace("&", "&amp;").replace('"', "&quot;") + '"></iframe>'
    return page + '<a href="http://after.example/">y</a>'


def test_srcdoc_nested_deep_is_read_and_deeper_is_a_defect() -> None:
    records, defects = _split(scan_html(_srcdoc(4)))
    assert [r.uri for r in records] == ["http://deep.example/", "http://after.example/"] and defects == []
    records, defects = _split(scan_html(_srcdoc(17)))
    assert [r.uri for r in records] == ["http://after.example/"]
    assert [d.detail for d in defects] == [
        "iframe srcdoc nested more than 16 deep: the innermost (36 characters) is not read"]


def test_a_defect_is_one_line_and_a_billion_laughs_names_its_doctype(tmp_path: Path) -> None:
    laughs = "".join('<!ENTITY l{} "{}">\n'.format(i, f"&l{i - 1};" * 10) for i in range(1, 10))
    path = tmp_path / "laughs.rss"
    path.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE rss [\n<!ENTITY l0 "lol">\n{laughs}]>\n<rss><channel>'
                    '<link>https://a.example/</link><link>&l9;</link></channel></rss>')
    out, err = io.StringIO(), io.StringIO()
    main([str(path)], stdout=out, stderr=err)
    assert err.getvalue().count("\n") == 1
    assert err.getvalue() == (
        f"urisift: {path}: broken-document: the XML ends here (the entities its DOCTYPE (line 2) declares expand "
        "past libxml2's bound): Maximum entity amplification factor exceeded, see xmlCtxtSetMaxAmplification.; "
        "what came before it was read\n")


# -- an archive carrying each class: --jobs 1 and --jobs 2 give the same -------------------------------------------

def test_an_archive_carrying_each_class_gives_the_same_with_one_or_two_jobs(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pypdf")
    from urisift.pipeline import plan

    attachments = [
        ("long.css", "text/css", ("a{background:url(" + "a" * 200_000 + ")}b{background:url(http://css.example/)}")
         .encode()),
        ("bases.atom", "application/atom+xml", (f'<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://f/">'
                                                f'<entry xml:base="{"a/" * 20_000}"><link href="x"/></entry></feed>')
         .encode()),
        ("locked.docx", _DOCX_TYPE, _patched(_docx(("word/_rels/document.xml.rels", _relationships("http://l/")),
                                                   ("word/_rels/footer1.xml.rels", _relationships("http://k/"))),
                                             "word/_rels/document.xml.rels", flags=0x1)),
        ("annots.pdf", "application/pdf", _linked_pdf(2, annots={1: b"[999 0 R]"})),
        ("sitemap.xml", "application/xml", b'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>'
                                           b'http://s/\xff</loc></url><url><loc>http://s/2</loc></url></urlset>'),
        ("deep.html", "text/html", _srcdoc(17).encode()),
    ]
    messages = [_message(n, [attachments[n % len(attachments)]]) for n in range(60)]
    path = tmp_path / "all.mbox"
    path.write_bytes(_mbox(messages))
    monkeypatch.setattr(plan, "MBOX_RANGE_SIZE", 64 << 10)
    assert len([u for u in plan.plan(__import__("urisift.pipeline.walking", fromlist=["walk"]).walk([str(path)]))]) > 4
    runs = []
    for jobs in ("1", "2"):
        out, err = io.StringIO(), io.StringIO()
        status = main(["--jobs", jobs, "--format", "jsonl", str(path)], stdout=out, stderr=err)
        runs.append((status, out.getvalue(), err.getvalue()))
    assert runs[0] == runs[1]
    lines = [json.loads(line) for line in runs[0][1].splitlines()]
    uris = [line["uri"] for line in lines if "uri" in line]
    assert uris.count("http://m59.example/") == 1  # the last message's text part: nothing after a class was lost
    assert uris.count("http://css.example/") == 10 and uris.count("http://k/") == 10 and uris.count("x") == 10
    assert uris.count("http://p2.example/") == 10 and uris.count("http://s/2") == 10
    assert uris.count("http://after.example/") == 10
    assert runs[0][0] == 0



def test_the_budgets_are_the_commands_to_set(tmp_path: Path) -> None:
    path = tmp_path / "a.docx"
    rows = _relationships("http://first.example/")
    path.write_bytes(_docx(("word/_rels/document.xml.rels", rows)))
    out, err = io.StringIO(), io.StringIO()
    assert main(["--inflate-budget", "100", str(path)], stdout=out, stderr=err) == 0
    assert (out.getvalue(), err.getvalue()) == ("", (
        f"urisift: {path}: bomb: member word/_rels/document.xml.rels would inflate {len(rows)} bytes, past what is "
        "left of the document's inflate budget (100 of 100, --inflate-budget): not read\n"))
    out, err = io.StringIO(), io.StringIO()
    assert main(["--inflate-budget", "1K", "--time-budget", "30", str(path)], stdout=out, stderr=err) == 0
    assert (out.getvalue(), err.getvalue()) == ("http://first.example/\n", "")
    assert main(["--time-budget", "0", str(path)], stdout=out, stderr=err) == 2
