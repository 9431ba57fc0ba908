"""Check a built site's own links with urisift: every link from one of its pages to another file of
the site must name a file that is there.

    python docs/check_links.py SITE_DIR

Each HTML file is scanned with ``urisift.scan_path`` under a base of its own (``--base`` for a
directory: the base joined with the file's path under the site), so a link's ``target`` starts with
that base exactly when it stays inside the site; the rest of it, fragment and query left out, is a
path under the site's directory.  Exit status 0 when every such link resolves to a file, 1 (and a
line for each broken link) otherwise.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import unquote, urlsplit

from urisift import Defect, Record, scan_path

#: a base no real link can point into: a target under it is a file of the site
BASE = "https://site.invalid/"
#: what a link check needs of each record (positions are searched for: the line is kept for the report)
FIELDS = {"target", "line", "element", "attribute"}


def internal(target: str) -> str | None:
    """The site path a target names, or None for a target outside the site."""
    if not target.startswith(BASE):
        return None
    path = unquote(urlsplit(target).path)
    return path.removeprefix("/")


def broken_links(site: Path, checked: list[int] | None = None) -> Iterator[str]:
    """A line for each link of a page of ``site`` that names a file the site does not have
    (``checked``, when given, gets one item a link checked)."""
    for page in sorted(site.rglob("*.html")):
        for item in scan_path(page, base=BASE, root=site, fields=FIELDS):
            if isinstance(item, Defect):
                continue
            assert isinstance(item, Record)
            if item.element is None or item.attribute is None or item.target is None:
                continue  # a URL written in the text, not a link
            path = internal(item.target)
            if path is None:
                continue
            if checked is not None:
                checked.append(1)
            there = site / path
            if path == "" or path.endswith("/"):
                there = there / "index.html"
            if not there.is_file():
                where = page.relative_to(site)
                yield f"{where}:{item.line}: <{item.element} {item.attribute}> -> {path}: no such file in the site"


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python docs/check_links.py SITE_DIR", file=sys.stderr)
        return 2
    site = Path(argv[0])
    pages = sum(1 for _ in site.rglob("*.html"))
    checked: list[int] = []
    broken = list(broken_links(site, checked))
    for line in broken:
        print(line)
    print(f"check_links: {pages} pages, {len(checked)} internal links, {len(broken)} broken", file=sys.stderr)
    if not checked:
        print("check_links: no internal link found: is this a built site?", file=sys.stderr)
        return 1
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
