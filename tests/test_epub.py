"""EPUB books (issue 54): each file of the book has the retrieval URI of its path in it."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from urisift import Defect, Kind, Record, ScanOptions, iter_input
from urisift.stages.sniff import sniff_kind

OPF = ('<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0">'
       '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:source>https://src.example/</dc:source>'
       '<link rel="record" href="meta/record.xml"/></metadata><manifest>'
       '<item id="c1" href="ch1.xhtml" media-type="application/xhtml+xml"/></manifest>'
       '<guide><reference type="cover" href="cover.xhtml"/></guide></package>')
NCX = ('<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/"><navMap><navPoint id="n">'
       '<content src="ch1.xhtml#s1"/></navPoint></navMap></ncx>')
CHAPTER = ('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><link rel="stylesheet" '
           'href="css/s.css"/></head><body><a href="ch2.xhtml#s">next</a> <a href="https://ext.example/">e</a>'
           '</body></html>')


def _book() -> bytes:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as book:
        book.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip")  # (stored, first: OCF §4.2.6)
        book.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:'
                      'names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf"/>'
                      "</rootfiles></container>", zipfile.ZIP_DEFLATED)
        book.writestr("OEBPS/content.opf", OPF, zipfile.ZIP_DEFLATED)
        book.writestr("OEBPS/toc.ncx", NCX, zipfile.ZIP_DEFLATED)
        book.writestr("OEBPS/ch1.xhtml", CHAPTER, zipfile.ZIP_DEFLATED)
        book.writestr("OEBPS/css/s.css", "body { background: url(../img/bg.png) }", zipfile.ZIP_DEFLATED)
    return packed.getvalue()


def _seen(path: Path, **options: object) -> list[tuple[str | None, str, str | None]]:
    items = list(iter_input(str(path), ScanOptions(**options)))  # type: ignore[arg-type]
    assert not [i for i in items if isinstance(i, Defect)]
    return [(i.origin.part, i.uri, i.target) for i in items if isinstance(i, Record)]


def test_a_book_maps_onto_its_base_as_a_tree_does(tmp_path: Path) -> None:
    path = tmp_path / "book.epub"
    path.write_bytes(_book())
    assert sniff_kind(path.read_bytes()[:4096]) is Kind.EPUB
    root = "https://books.example/b/OEBPS/"
    assert _seen(path, base="https://books.example/b/") == [
        ("OEBPS/content.opf", "https://src.example/", "https://src.example/"),
        ("OEBPS/content.opf", "meta/record.xml", root + "meta/record.xml"),
        ("OEBPS/content.opf", "ch1.xhtml", root + "ch1.xhtml"),
        ("OEBPS/content.opf", "cover.xhtml", root + "cover.xhtml"),
        ("OEBPS/toc.ncx", "ch1.xhtml#s1", root + "ch1.xhtml#s1"),
        ("OEBPS/ch1.xhtml", "css/s.css", root + "css/s.css"),
        ("OEBPS/ch1.xhtml", "ch2.xhtml#s", root + "ch2.xhtml#s"),
        ("OEBPS/ch1.xhtml", "https://ext.example/", "https://ext.example/"),
        ("OEBPS/css/s.css", "../img/bg.png", root + "img/bg.png"),
    ]


def test_without_a_base_a_book_is_the_directory_of_its_own_file(tmp_path: Path) -> None:
    path = tmp_path / "b o.epub"
    path.write_bytes(_book())
    seen = _seen(path)
    assert seen[6] == ("OEBPS/ch1.xhtml", "ch2.xhtml#s", path.resolve().as_uri() + "/OEBPS/ch2.xhtml#s")
    assert "%20" in (seen[6][2] or "")
