"""Issue 21: style sheets, the XML family, robots.txt, PDF and office files
read the same from a file, a WARC response and a mail attachment; their
hostile forms end in a defect, fast; and kinds are sniffed from content."""

from __future__ import annotations

import io
import json
import time
import zipfile
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from urisift import Defect, Record, scan_message, scan_path
from urisift.cli.command import main
from urisift.model import DefectKind, Kind
from urisift.stages.sniff import sniff_kind

from .conftest import ROOT

CORPORA = ROOT / "corpora"
SAMPLES = {
    "css/site.css": "text/css", "css/fonts/fonts.css": "text/css; charset=utf-8",
    "xml/feed.atom": "application/atom+xml", "xml/news.rss": "application/rss+xml",
    "xml/sitemap-pages.xml": "application/xml", "xml/subscriptions.opml": "text/x-opml",
    "xml/drawing.svg": "image/svg+xml", "xml/robots.txt": "text/plain",
    "pdf/links-and-base.pdf": "application/pdf",
    "office/invoice.docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "office/sheet.xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "office/notes.odt": "application/vnd.oasis.opendocument.text",
}
# what says where a reference is and where it goes, apart from the container around it
_KEYS = ("uri", "target", "base", "style", "where", "element", "attribute", "header", "page", "member", "span",
         "line", "column", "flags", "risks")


def _golden(name: str) -> list[dict[str, Any]]:
    lines = (ROOT / "tests" / "golden" / (name + ".expected.jsonl")).read_text("utf-8").splitlines()
    return [{k: json.loads(line)[k] for k in _KEYS} for line in lines]


def _rows(records: list[Record]) -> list[dict[str, Any]]:
    from urisift.output import record_json

    return [{k: record_json(r)[k] for k in _KEYS} for r in records]


def _url(name: str) -> str:
    return f"https://corpus.example/{name}"


def test_in_a_warc_each_payload_gives_the_records_of_its_file(tmp_path: Path) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    path = tmp_path / "payloads.warc"
    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=False)
        for name, media in SAMPLES.items():
            body = (CORPORA / name).read_bytes()
            http = StatusAndHeaders("200 OK", [("Content-Type", media), ("Content-Length", str(len(body)))],
                                    protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(_url(name), "response", payload=io.BytesIO(body),
                                                          http_headers=http))
    records = [r for r in scan_path(path) if isinstance(r, Record)]
    for name in SAMPLES:
        # robots.txt is told by its place at a site's root: here it is not at one, and is text
        if name == "xml/robots.txt":
            continue
        mine = [r for r in records if r.origin.warc_target_uri == _url(name) and r.style != "header"]
        assert _rows(mine) == _golden(name), name


def test_as_a_mail_attachment_each_payload_gives_the_records_of_its_file() -> None:
    message = EmailMessage()
    message["From"] = "a@example.org"
    message["Subject"] = "payloads"
    message.set_content("see the attachments")
    for name, media in SAMPLES.items():
        maintype, _, subtype = media.partition(";")[0].partition("/")
        message.add_attachment((CORPORA / name).read_bytes(), maintype=maintype, subtype=subtype,
                               filename=Path(name).name)
        message.get_payload()[-1]["Content-Location"] = _url(name)
    records = [r for r in scan_message(message.as_bytes()) if isinstance(r, Record)]
    for index, name in enumerate(SAMPLES, start=2):
        if name == "xml/robots.txt":
            continue  # a text/plain attachment is text
        mine = [r for r in records if r.origin.part == str(index)]
        assert _rows(mine) == _golden(name), name


def test_robots_txt_at_a_sites_root_in_a_warc_gives_its_sitemap_lines(tmp_path: Path) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    path = tmp_path / "robots.warc"
    body = (CORPORA / "xml" / "robots.txt").read_bytes()
    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=False)
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/plain")], protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record("https://www.example.com/robots.txt", "response",
                                                      payload=io.BytesIO(body), http_headers=http))
    records = [r for r in scan_path(path) if isinstance(r, Record)]
    assert [(r.uri, r.target, r.header) for r in records] == [
        ("https://www.example.com/sitemap-index.xml", "https://www.example.com/sitemap-index.xml", "Sitemap"),
        ("/sitemap-news.xml", "https://www.example.com/sitemap-news.xml", "Sitemap")]


# -- hostile forms: a defect, within a second ----------------------------------------------------

def _scan(path: Path) -> tuple[list[Record], list[Defect], float]:
    start = time.perf_counter()
    items = list(scan_path(path))
    took = time.perf_counter() - start
    return ([i for i in items if isinstance(i, Record)], [i for i in items if isinstance(i, Defect)], took)


def test_an_external_entity_is_never_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("https://secret.example/leaked")
    doc = tmp_path / "xxe.xml"
    doc.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE urlset [<!ENTITY x SYSTEM "file://{secret}">]>\n'
                   '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://a.example/&x;</loc>'
                   '</url></urlset>')
    records, defects, took = _scan(doc)
    assert [r.uri for r in records] == ["https://a.example/"]
    assert "leaked" not in repr(records) + repr(defects)
    # nothing read, and the declaration told, naming the entity (issue 38)
    assert [str(d) for d in defects] == [
        f"{doc}: broken-document: the XML (line 2): its DOCTYPE declares the external entity &x; "
        f"(SYSTEM 'file://{secret}'), which is never read"]
    assert took < 1


def test_a_billion_laughs_is_refused_not_expanded(tmp_path: Path) -> None:
    laughs = '<!ENTITY l0 "lol">' + "".join('<!ENTITY l{} "{}">'.format(i, f"&l{i - 1};" * 10) for i in range(1, 10))
    doc = tmp_path / "laughs.xml"
    doc.write_text(f'<?xml version="1.0"?>\n<!DOCTYPE rss [{laughs}]>\n<rss><channel><link>https://a.example/&l9;'
                   '</link></channel></rss>')
    records, defects, took = _scan(doc)
    assert took < 1
    assert records == []
    assert [d.kind for d in defects] == [DefectKind.BROKEN_DOCUMENT]
    assert "amplification" in defects[0].detail


def test_deeply_nested_xml_is_a_defect_and_what_came_before_is_kept(tmp_path: Path) -> None:
    doc = tmp_path / "deep.xml"
    doc.write_text('<?xml version="1.0"?><opml><body><outline xmlUrl="https://first.example/feed"/>'
                   + "<outline>" * 100_000 + "</outline>" * 100_000 + "</body></opml>")
    records, defects, took = _scan(doc)
    assert [r.uri for r in records] == ["https://first.example/feed"]
    assert [d.kind for d in defects] == [DefectKind.BROKEN_DOCUMENT]
    assert "Excessive depth" in defects[0].detail
    assert took < 1


def test_a_zip_bomb_is_bounded_before_it_is_inflated(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.docx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/_rels/document.xml.rels", b"<Relationships>" + b" " * 300_000_000 + b"</Relationships>")
    records, defects, took = _scan(bomb)
    assert records == []
    assert [d.kind for d in defects] == [DefectKind.BOMB]
    assert "more than 200 times" in defects[0].detail
    assert took < 1


def _pdf(objects: list[bytes]) -> bytes:
    """A PDF of these objects (1 is the catalog), with a correct xref table."""
    out = b"%PDF-1.7\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return out


def test_a_pdf_stream_that_inflates_past_the_bound_is_a_bomb_defect(tmp_path: Path) -> None:
    import zlib

    pytest.importorskip("pypdf")
    squeezed = zlib.compress(b"0" * 200_000_000, 9)
    pdf = _pdf([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 10 10] /Contents 4 0 R "
                b"/Resources << /Font << /F1 5 0 R >> >> >>",
                b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(squeezed) + squeezed + b"\nendstream",
                b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"])
    path = tmp_path / "bomb.pdf"
    path.write_bytes(pdf)
    records, defects, took = _scan(path)
    assert records == []
    assert [d.kind for d in defects] == [DefectKind.BOMB]
    assert took < 1


def test_an_encrypted_pdf_and_a_truncated_one_are_defects(tmp_path: Path) -> None:
    pypdf = pytest.importorskip("pypdf")
    writer = pypdf.PdfWriter(clone_from=str(CORPORA / "pdf" / "links-and-base.pdf"))
    writer.encrypt("owner-and-user-secret", algorithm="AES-128")
    locked = tmp_path / "locked.pdf"
    with locked.open("wb") as f:
        writer.write(f)
    records, defects, _ = _scan(locked)
    assert records == []
    assert [(d.kind, d.detail) for d in defects] == [
        (DefectKind.BROKEN_DOCUMENT, "the PDF is encrypted with a password: its links cannot be read")]
    cut = tmp_path / "cut.pdf"
    cut.write_bytes((CORPORA / "pdf" / "links-and-base.pdf").read_bytes()[:300])
    records, defects, took = _scan(cut)
    assert records == [] and [d.kind for d in defects] == [DefectKind.BROKEN_DOCUMENT]
    assert took < 1


def test_a_broken_zip_and_broken_xml_are_defects_not_crashes(tmp_path: Path) -> None:
    junk = tmp_path / "junk.docx"
    junk.write_bytes(b"PK\x03\x04 not really a zip")
    _, defects, _ = _scan(junk)
    assert [d.kind for d in defects] == [DefectKind.BROKEN_DOCUMENT]
    feed = tmp_path / "cut.atom"
    feed.write_text('<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><link href="https://a.example/"/>'
                    "<entry><link href=")
    records, defects, _ = _scan(feed)
    assert [r.uri for r in records] == ["https://a.example/"]
    assert [d.kind for d in defects] == [DefectKind.BROKEN_DOCUMENT]


# -- sniffing ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("head", "name", "kind"), [
    (b"%PDF-1.7\n", None, Kind.PDF),
    (b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00[Content_Types].xml", None, Kind.OFFICE),
    (b"PK\x03\x04\n\x00\x00\x00\x00\x00mimetypeapplication/vnd.oasis.opendocument.text", None, Kind.OFFICE),
    (b'<?xml version="1.0"?>\n<!-- c -->\n<feed xmlns="http://www.w3.org/2005/Atom">', None, Kind.XML),
    (b'\xef\xbb\xbf<?xml version="1.0"?><urlset>', None, Kind.XML),
    # XHTML is XML, as a browser's XML parser reads it (issue 38); <html> in no namespace is HTML
    (b'<?xml version="1.0"?>\n<!DOCTYPE html>\n<html xmlns="http://www.w3.org/1999/xhtml">', None, Kind.XML),
    (b'<?xml version="1.0"?>\n<html><body>', None, Kind.HTML),
    (b'<html xmlns="http://www.w3.org/1999/xhtml"><p>no prolog</p>', "page.xhtml", Kind.XML),
    (b'<html xmlns="http://www.w3.org/1999/xhtml"><p>no prolog</p>', "page.html", Kind.HTML),
    (b"User-agent: *\nDisallow: /\n", "site/robots.txt", Kind.ROBOTS),
    (b"body { color: red }", "a/site.css", Kind.CSS),
    (b"PK\x03\x04 a zip of something else", None, Kind.ARCHIVE),  # (its reader says it is no ZIP it can read)
])
def test_kinds_are_sniffed_from_content_then_name(head: bytes, name: str | None, kind: Kind) -> None:
    assert sniff_kind(head, name) is kind


def test_the_kind_can_be_asked_for(tmp_path: Path) -> None:
    css = tmp_path / "style.txt"
    css.write_text("a { background: url(x.png) }")
    out, err = io.StringIO(), io.StringIO()
    assert main(["--kind", "css", "--base", "https://h.example/s/", str(css)], stdout=out, stderr=err) == 0
    assert out.getvalue() == "https://h.example/s/x.png\n"


# -- the style sheet scanner against CSS Syntax 3 as tinycss2 reads it -----------------------

def _tinycss2_urls(css: str) -> list[str]:
    import tinycss2

    found: list[str] = []

    def walk(tokens: Any) -> None:
        for t in tokens:
            if t.type == "url":
                found.append(t.value)
            elif t.type == "function":
                if t.lower_name == "url" or t.lower_name.endswith("image-set"):
                    found.extend(a.value for a in t.arguments if a.type == "string")
                walk(t.arguments)
            elif t.type == "at-rule":
                if t.lower_at_keyword == "import":
                    first = next((a for a in t.prelude if a.type not in ("whitespace", "comment")), None)
                    if first is not None and first.type == "string":
                        found.append(first.value)
                walk(t.prelude)
                walk(t.content or [])
            elif t.type == "qualified-rule":
                walk(t.prelude)
                walk(t.content)
            elif t.type in ("() block", "[] block", "{} block"):
                walk(t.content)

    walk(tinycss2.parse_stylesheet(css))
    return found


@pytest.mark.parametrize("name", ["css/site.css", "css/base.css", "css/fonts/fonts.css"])
def test_the_scanner_finds_what_tinycss2_finds(name: str) -> None:
    pytest.importorskip("tinycss2")
    from urisift.readers.css.syntax import css_urls

    css = (CORPORA / name).read_text("utf-8")
    assert [u.url for u in css_urls(css)] == _tinycss2_urls(css)
