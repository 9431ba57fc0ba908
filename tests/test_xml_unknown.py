"""XML of a vocabulary urisift does not know: the URIs of its text and its
attributes that are absolute URIs, each resolved against the xml:base in
force; a known vocabulary keeps its own reading."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import run_cli as run

DOC = """\
<?xml version="1.0"?>
<catalog xmlns="urn:example:catalog" xmlns:x="urn:example:x" xml:base="http://cat.example/base/">
  <item id="1" href="https://item.example/1" note="see: this" x:ref="mailto:a@b.example" rel="rel/path" t="12:30">
    Visit http://text.example/a and www.example.org, or &lt;URL:rel/page.html&gt;.
    <sub xml:base="http://other.example/dir/">tail <![CDATA[ ftp://cdata.example/f <URL:x.html> ]]></sub>
  </item>
  <!-- http://comment.example/ -->
</catalog>
"""


def test_an_unknown_vocabulary_gives_its_text_and_absolute_attributes(tmp_path: Path) -> None:
    doc = tmp_path / "catalog.xml"
    doc.write_text(DOC, "utf-8")
    code, out, err = run(["--format", "jsonl", "--fields", "uri,target,style,where,element,attribute,line", str(doc)])
    assert (code, err) == (0, "")
    assert [tuple(json.loads(line).values()) for line in out.splitlines()] == [
        ("https://item.example/1", "https://item.example/1", "attribute", "xml", "item", "href", 3),
        ("mailto:a@b.example", "mailto:a@b.example", "attribute", "xml", "item", "x:ref", 3),
        ("http://text.example/a", "http://text.example/a", "bare", "xml", "item", None, 4),
        ("www.example.org", "http://www.example.org", "abbreviated", "xml", "item", None, 4),
        ("rel/page.html", "http://cat.example/base/rel/page.html", "angle-url", "xml", "item", None, 4),
        ("ftp://cdata.example/f", "ftp://cdata.example/f", "bare", "xml", "sub", None, 5),
        ("x.html", "http://other.example/dir/x.html", "angle-url", "xml", "sub", None, 5),
    ]


def test_a_known_vocabulary_keeps_its_own_reading(tmp_path: Path) -> None:
    feed = tmp_path / "feed.xml"
    feed.write_text('<rss version="2.0"><channel><link>http://rss.example/</link>'
                    "<title>http://title.example/</title></channel></rss>")
    assert run([str(feed)])[1] == "http://rss.example/\n"
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://s.example/'
                       '</loc><lastmod>see http://not.example/</lastmod></url></urlset>')
    assert run([str(sitemap)])[1] == "http://s.example/\n"
