"""The ``payloads`` case of bench.py (issue 21): urisift's readers of
sitemaps, feeds and PDFs against the obvious peers on the same elements.

- A sitemap of 200,000 URLs (with image entries): ``scan_path`` against lxml
  ``iterparse`` + ``urljoin`` over the same ``loc`` elements.
- 2,000 Atom entries with HTML content: ``scan_path`` against lxml's parse
  + ``urljoin`` of every ``link/@href`` (which does not read the HTML
  inside, nor the xml:base in scope: urisift does more in its time).
- A PDF of 500 pages with 10 link annotations each and a text layer:
  ``scan_path`` (annotations, /Base, the text layer) against pypdf's own
  walk of the annotations' /URI actions (no text).

Inputs are built once in bench/.data.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

DATA = Path(__file__).parent / ".data"
BASE = "https://www.example.com/sitemap.xml"


def _sitemap(path: Path, n: int) -> None:
    with path.open("w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" '
                'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n')
        for i in range(n):
            f.write(f"<url><loc>https://www.example.com/p/{i}.html</loc><lastmod>2024-05-03</lastmod>")
            if i % 4 == 0:
                f.write(f"<image:image><image:loc>https://img.example.com/{i}.jpg</image:loc></image:image>")
            f.write("</url>\n")
        f.write("</urlset>\n")


def _feed(path: Path, n: int) -> None:
    with path.open("w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
                'xml:base="https://blog.example.org/">\n<title>t</title><link href="/"/>\n')
        for i in range(n):
            f.write(f'<entry xml:base="{i}/"><title>e{i}</title><link href="post.html"/>'
                    f'<link rel="enclosure" href="media/{i}.mp3"/><id>tag:x,{i}</id>'
                    f'<content type="html">&lt;p&gt;&lt;a href="../{i + 1}/post.html"&gt;next&lt;/a&gt; '
                    f'&lt;img src="fig.png"&gt;&lt;/p&gt;</content></entry>\n')
        f.write("</feed>\n")


def _pdf(path: Path, pages: int, links: int) -> None:
    from pypdf import PdfWriter
    from pypdf.annotations import Link
    from pypdf.generic import RectangleObject

    writer = PdfWriter()
    for p in range(pages):
        writer.add_blank_page(595, 842)
        for k in range(links):
            writer.add_annotation(p, Link(rect=RectangleObject((10, 10 + 20 * k, 200, 28 + 20 * k)),
                                          url=f"https://docs.example.com/{p}/{k}"))
    with path.open("wb") as f:
        writer.write(f)


def inputs() -> dict[str, Path]:
    DATA.mkdir(exist_ok=True)
    made = {"sitemap": DATA / "sitemap-200k.xml", "feed": DATA / "feed-2k.atom", "pdf": DATA / "links-500p.pdf"}
    if not made["sitemap"].exists():
        _sitemap(made["sitemap"], 200_000)
    if not made["feed"].exists():
        _feed(made["feed"], 2_000)
    if not made["pdf"].exists():
        _pdf(made["pdf"], 500, 10)
    return made


def _ours(path: Path) -> Callable[[], int]:
    from urisift import Record, scan_path

    def run() -> int:
        return sum(1 for r in scan_path(path, base=BASE) if type(r) is Record)
    return run


def _lxml_sitemap(path: Path) -> Callable[[], int]:
    from urllib.parse import urljoin

    from lxml import etree

    locs = {"{http://www.sitemaps.org/schemas/sitemap/0.9}loc", "{http://www.google.com/schemas/sitemap-image/1.1}loc"}

    def run() -> int:
        n = 0
        for _, element in etree.iterparse(str(path), events=("end",)):
            if element.tag in locs:
                urljoin(BASE, (element.text or "").strip())
                n += 1
            element.clear(keep_tail=True)
        return n
    return run


def _lxml_feed(path: Path) -> Callable[[], int]:
    from urllib.parse import urljoin

    from lxml import etree

    def run() -> int:
        tree = etree.parse(str(path))
        return sum(1 for link in tree.iter("{http://www.w3.org/2005/Atom}link")
                   if urljoin(BASE, link.get("href") or ""))
    return run


def _pypdf_walk(path: Path) -> Callable[[], int]:
    from pypdf import PdfReader

    def run() -> int:
        n = 0
        for page in PdfReader(io.BytesIO(path.read_bytes())).pages:
            for annotation in page.get("/Annots") or []:
                action = annotation.get_object().get("/A")
                if action is not None and action.get_object().get("/URI") is not None:
                    n += 1
        return n
    return run


def bench_payloads(rounds: int, timeit: Callable[[Callable[[], object], int], float],
                   table: Callable[..., None]) -> None:
    made = inputs()
    cases = [("sitemap", "lxml iterparse + urljoin of every loc", _lxml_sitemap),
             ("feed", "lxml parse + urljoin of every link/@href", _lxml_feed),
             ("pdf", "pypdf: the /URI of every link annotation", _pypdf_walk)]
    for key, peer_name, peer in cases:
        path = made[key]
        mb = path.stat().st_size / 1e6
        ours = f"urisift scan_path ({_ours(path)()} records)"
        table(f"payloads: {path.name}, {mb:.1f} MB (lower ratio = faster than urisift)", "MB", mb,
              [(ours, timeit(_ours(path), rounds), ""), (f"{peer_name} ({peer(path)()} found)",
                                                          timeit(peer(path), rounds), "")], ours)
