"""Issue 38: XML documents read as a browser and the specifications read
them.  XHTML served or named as XML is XML (elements known by namespace,
internal entities expanded, external ones never read and told), Atom and
RSS XHTML islands are element trees each element's xml:base applies to, and
each vocabulary's URL-bearing places are read: OPML's head, ODF's meta.xml
and formulas, OOXML's field codes over many runs, spreadsheets' formulas and
HyperlinkBase."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path
from typing import Any

from urisift import Defect, Record, ScanOptions, iter_input
from urisift.model import DefectKind, Kind

from .test_hostile_payloads import _warc_response


def _scan(path: Path | str, **options: Any) -> tuple[list[Record], list[Defect]]:
    items = list(iter_input(str(path), ScanOptions(**options)))
    return [i for i in items if isinstance(i, Record)], [i for i in items if isinstance(i, Defect)]


def _rows(records: list[Record]) -> list[tuple[Any, ...]]:
    return [(r.where.value, r.element, r.attribute, r.uri, r.target, r.line) for r in records]


XHTML = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE h:html [
  <!ENTITY site "http://entity.example/">
  <!ENTITY secret SYSTEM "file:///etc/hostname">
]>
<h:html xmlns:h="http://www.w3.org/1999/xhtml" xmlns:svg="http://www.w3.org/2000/svg"
        xmlns:xl="http://www.w3.org/1999/xlink" xmlns:m="http://www.w3.org/1998/Math/MathML">
<h:head>
<h:link rel="stylesheet" href="style.css"/>
<h:base href="http://base.example/dir/"/>
</h:head>
<h:body>
<h:a href="&site;page">see &site;text &secret;</h:a>
<h:img srcset="a.png 1x, b.png 2x"/>
<h:form action=""/>
<h:p style="background: url(bg.png)">x</h:p>
<svg:svg><svg:a xl:href="svg.html"/><svg:image href="pic.svg"/></svg:svg>
<m:math><m:mi href="math.html">x</m:mi></m:math>
</h:body>
</h:html>
"""


def test_xhtml_named_as_such_is_read_as_xml(tmp_path: Path) -> None:
    path = tmp_path / "page.xhtml"
    path.write_text(XHTML)
    records, defects = _scan(path, base="http://doc.example/p/page.xhtml")
    assert _rows(records) == [
        # the <link> before the <base> resolves against it, as a browser resolves it
        ("xml", "link", "href", "style.css", "http://base.example/dir/style.css", 9),
        ("xml", "base", "href", "http://base.example/dir/", "http://base.example/dir/", 10),
        ("xml", "a", "href", "http://entity.example/page", "http://entity.example/page", 13),
        ("xml", "a", None, "http://entity.example/text", "http://entity.example/text", 13),
        ("xml", "img", "srcset", "a.png", "http://base.example/dir/a.png", 14),
        ("xml", "img", "srcset", "b.png", "http://base.example/dir/b.png", 14),
        # an empty action is the document's own URL, not the base (HTML §4.10.21.3)
        ("xml", "form", "action", "", "http://doc.example/p/page.xhtml", 15),
        ("xml", "p", "style", "bg.png", "http://base.example/dir/bg.png", 16),
        ("xml", "svg:a", "xlink:href", "svg.html", "http://base.example/dir/svg.html", 17),
        ("xml", "svg:image", "href", "pic.svg", "http://base.example/dir/pic.svg", 17),
        ("xml", "m:mi", "href", "math.html", "http://base.example/dir/math.html", 18),
    ]
    assert [str(d) for d in defects] == [
        f"{path}: broken-document: the XML (line 2): its DOCTYPE declares the external entity &secret; "
        "(SYSTEM 'file:///etc/hostname'), which is never read"]


def test_xhtml_is_xml_when_served_so_and_html_when_served_as_html(tmp_path: Path) -> None:
    page = XHTML.replace("<h:a", "<h:a data-x='1'").encode()
    path = tmp_path / "crawl.warc"
    path.write_bytes(_warc_response("http://served.example/a.xhtml", page, b"application/xhtml+xml")
                     + _warc_response("http://served.example/b.html", page, b"text/html"))
    records, _ = _scan(path)
    by_page = {(r.warc_target_uri, r.where.value) for r in records}
    assert by_page == {("http://served.example/a.xhtml", "xml"), ("http://served.example/b.html", "html")}


def test_atom_xhtml_content_is_a_tree_each_xml_base_applies_to(tmp_path: Path) -> None:
    path = tmp_path / "feed.atom"
    path.write_text("""<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://feed.example/">
<entry xml:base="entries/1/">
<summary type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><a href="s.html">s</a></div></summary>
<content type="xhtml" xml:base="content/">
<div xmlns="http://www.w3.org/1999/xhtml">
<p xml:base="/p/"><a href="one.html">one</a> and <img src="../two.png"/></p>
<a href="three.html">three</a> http://text.example/x
</div>
</content>
</entry>
</feed>""")
    records, defects = _scan(path)
    assert defects == []
    assert [(r.element, r.uri, r.target) for r in records] == [
        ("a", "s.html", "http://feed.example/entries/1/s.html"),
        ("a", "one.html", "http://feed.example/p/one.html"),
        ("img", "../two.png", "http://feed.example/two.png"),
        ("a", "three.html", "http://feed.example/entries/1/content/three.html"),
        ("div", "http://text.example/x", "http://text.example/x"),
    ]


def test_an_rss_item_s_xhtml_body_is_read_where_it_stands(tmp_path: Path) -> None:
    path = tmp_path / "news.rss"
    path.write_text('<rss version="2.0"><channel><item><link>http://i.example/1</link>'
                    '<body xmlns="http://www.w3.org/1999/xhtml"><a href="http://body.example/">b</a></body>'
                    "</item></channel></rss>")
    records, _ = _scan(path)
    assert [(r.element, r.uri) for r in records] == [("link", "http://i.example/1"), ("a", "http://body.example/")]


def test_opml_s_head_holds_urls_too(tmp_path: Path) -> None:
    path = tmp_path / "subs.opml"
    path.write_text('<opml version="2.0"><head><ownerId>http://owner.example/contact</ownerId>'
                    "<docs>http://opml.org/spec2.opml</docs></head><body>"
                    '<outline xmlUrl="http://feed.example/rss" htmlUrl="http://site.example/"/></body></opml>')
    records, _ = _scan(path)
    assert [(r.element, r.attribute, r.uri) for r in records] == [
        ("ownerId", None, "http://owner.example/contact"), ("docs", None, "http://opml.org/spec2.opml"),
        ("outline", "xmlUrl", "http://feed.example/rss"), ("outline", "htmlUrl", "http://site.example/")]


def test_an_external_dtd_is_never_read_and_told_but_those_a_browser_knows(tmp_path: Path) -> None:
    path = tmp_path / "a.xml"
    path.write_text('<?xml version="1.0"?>\n<!DOCTYPE urlset SYSTEM "http://dtd.example/sitemap.dtd">\n'
                    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://a.example/</loc>'
                    "</url></urlset>")
    records, defects = _scan(path)
    assert [r.uri for r in records] == ["http://a.example/"]
    assert [d.detail for d in defects] == [
        "the XML (line 2): its DOCTYPE names an external DTD (SYSTEM 'http://dtd.example/sitemap.dtd'), which is "
        "never read: what it declares is not known here"]
    known = tmp_path / "b.xhtml"
    known.write_text('<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
                     '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n'
                     '<html xmlns="http://www.w3.org/1999/xhtml"><body><p>caf&eacute;&nbsp;http://x.example/</p>'
                     "</body></html>")
    records, defects = _scan(known)
    assert ([r.uri for r in records], defects) == (["http://x.example/"], [])


def _package(members: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for name, text in members.items():
            package.writestr(name, text)
    return out.getvalue()


_RELS = ('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{}</Relationships>')
_W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'


def test_ooxml_field_codes_over_runs_formulas_and_hyperlink_base(tmp_path: Path) -> None:
    document = (f'<w:document {_W}><w:body><w:p>'
                '<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> HYPER</w:instrText></w:r>'
                '<w:r><w:instrText>LINK "http://split.example/</w:instrText></w:r><w:r><w:instrText>x" \\o "t"'
                '</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>x</w:t></w:r>'
                '<w:r><w:fldChar w:fldCharType="end"/></w:r>'
                '<w:fldSimple w:instr=" INCLUDEPICTURE &quot;http://pic.example/a.png&quot; \\d "/>'
                '<w:fldSimple w:instr=" HYPERLINK \\l &quot;bookmark&quot; "/>'
                "</w:p></w:body></w:document>")
    header = (f'<w:hdr {_W}><w:p><w:fldSimple w:instr=\'HYPERLINK "http://header.example/"\'/></w:p></w:hdr>')
    sheet = ('<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row><c>'
             '<f>HYPERLINK("http://formula.example/?a=""q""","go")</f></c></row></sheetData></worksheet>')
    app = ('<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
           "<HyperlinkBase>http://hyperlink-base.example/docs/</HyperlinkBase></Properties>")
    rels = _RELS.format('<Relationship Id="r1" Target="../other.docx" TargetMode="External"/>'
                        '<Relationship Id="r2" Target="styles.xml"/>')
    path = tmp_path / "a.docx"
    path.write_bytes(_package({"[Content_Types].xml": "<Types/>", "word/document.xml": document,
                               "word/header1.xml": header, "xl/worksheets/sheet1.xml": sheet,
                               "word/_rels/document.xml.rels": rels, "docProps/app.xml": app,
                               "ppt/slides/_rels/slide1.xml.rels": _RELS.format(
                                   '<Relationship Id="r1" Target="http://slide.example/" TargetMode="External"/>')}))
    records, defects = _scan(path, base="http://files.example/a.docx")
    assert defects == []
    assert [(r.place.member, r.element, r.uri, r.target, r.base_source.value if r.base_source else None)
            for r in records] == [
        ("word/document.xml", "w:instrText", "http://split.example/x", "http://split.example/x", None),
        ("word/document.xml", "w:fldSimple", "http://pic.example/a.png", "http://pic.example/a.png", None),
        ("word/header1.xml", "w:fldSimple", "http://header.example/", "http://header.example/", None),
        ("xl/worksheets/sheet1.xml", "f", 'http://formula.example/?a="q"', "http://formula.example/?a=%22q%22",
         None),
        ("word/_rels/document.xml.rels", "Relationship", "../other.docx", "http://hyperlink-base.example/other.docx",
         "hyperlink-base"),
        ("ppt/slides/_rels/slide1.xml.rels", "Relationship", "http://slide.example/", "http://slide.example/", None),
    ]


def test_odf_meta_formulas_and_bibliography(tmp_path: Path) -> None:
    ns = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
          'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
          'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"')
    content = (f"<office:document-content {ns}><office:body><office:spreadsheet><table:table><table:table-row>"
               '<table:table-cell table:formula="of:=HYPERLINK(&quot;http://cell.example/&quot;; &quot;c&quot;)"/>'
               "</table:table-row></table:table>"
               '<text:p><text:bibliography-mark text:url="http://cited.example/"/></text:p>'
               "</office:spreadsheet></office:body></office:document-content>")
    meta = (f"<office:document-meta {ns}><office:meta>"
            '<meta:template xlink:href="../templates/report.ott"/></office:meta></office:document-meta>')
    path = tmp_path / "a.ods"
    path.write_bytes(_package({"mimetype": "application/vnd.oasis.opendocument.spreadsheet", "content.xml": content,
                               "meta.xml": meta}))
    records, defects = _scan(path, base="http://files.example/d/a.ods")
    assert defects == []
    assert [(r.place.member, r.element, r.attribute, r.uri, r.target) for r in records] == [
        ("content.xml", "table:table-cell", "table:formula", "http://cell.example/", "http://cell.example/"),
        ("content.xml", "text:bibliography-mark", "text:url", "http://cited.example/", "http://cited.example/"),
        # relative to the package taken as a directory (ODF Packages §3.7): "../" is beside the file
        ("meta.xml", "meta:template", "xlink:href", "../templates/report.ott",
         "http://files.example/d/templates/report.ott"),
    ]


def test_the_kind_of_an_xhtml_payload_is_xml() -> None:
    from urisift.stages.media import kind_of

    assert (kind_of("application/xhtml+xml"), kind_of("text/html")) == (Kind.XML, Kind.HTML)
    assert DefectKind.BROKEN_DOCUMENT.value == "broken-document"


def test_an_internal_entity_holding_elements_is_read_where_it_is_referenced(tmp_path: Path) -> None:
    # libxml2 parses such an entity's replacement text apart from the document (its elements
    # have no parent, no namespace): the walk failed on them (AttributeError), and lost the rest
    path = tmp_path / "entity.xhtml"
    path.write_text("""<?xml version="1.0"?>
<!DOCTYPE html [
<!ENTITY e "<b>bold <a href='in.html'>in</a> see http://text.example/</b><i>x</i> http://tail.example/">
<!ENTITY plain "http://plain.example/">
]>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><body>
<p>&e; then &plain;</p>
<a href="after.html">after</a>
</body></html>
""")
    records, defects = _scan(path, base="http://doc.example/d/entity.xhtml")
    assert defects == []
    assert _rows(records) == [
        ("xml", "a", "href", "in.html", "http://doc.example/d/in.html", 1),
        ("xml", "b", None, "http://text.example/", "http://text.example/", None),
        ("xml", "p", None, "http://tail.example/", "http://tail.example/", None),
        ("xml", "p", None, "http://plain.example/", "http://plain.example/", 7),
        ("xml", "a", "href", "after.html", "http://doc.example/d/after.html", 8)]


def test_an_entity_holding_elements_in_a_feed_is_read_in_its_vocabulary(tmp_path: Path) -> None:
    path = tmp_path / "feed.atom"
    path.write_text("""<?xml version="1.0"?>
<!DOCTYPE feed [<!ENTITY links "<link href='http://in.example/'/><link href='two.html'/>">]>
<feed xmlns="http://www.w3.org/2005/Atom"><entry>&links;</entry><link href="http://after.example/"/></feed>
""")
    records, defects = _scan(path, base="http://doc.example/feed.atom")
    assert defects == []
    assert [(r.element, r.uri, r.target) for r in records] == [
        ("link", "http://in.example/", "http://in.example/"),
        ("link", "two.html", "http://doc.example/two.html"),
        ("link", "http://after.example/", "http://after.example/")]
