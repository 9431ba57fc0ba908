"""MediaWiki XML export dumps: each revision's text read as wikitext, named
by its page and revision, its internal links resolved against the wiki's
article path (``<siteinfo><base>``); read page by page, in memory that
does not grow with the dump."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from urisift.cli.command import main

from .conftest import run_cli as run

DUMP = """\
<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="en">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <base>https://en.wikipedia.org/wiki/Main_Page</base>
  </siteinfo>
  <page>
    <title>Alpha beta</title>
    <ns>0</ns>
    <id>12</id>
    <revision>
      <id>345</id>
      <contributor><username>X</username><id>99</id></contributor>
      <text bytes="10" xml:space="preserve">See [[gamma ray]] and [https://ext.example/ e].
&lt;code&gt;http://code.example/&lt;/code&gt;</text>
    </revision>
  </page>
  <page>
    <title>Delta</title>
    <revision>
      <id>346</id>
      <text>{{cite web|url=https://cite.example/}} [[File:d.png]] [[#Notes]]</text>
    </revision>
  </page>
</mediawiki>
"""

FIELDS = "uri,target,base_source,where,element,attribute,flags,line,column,part"


def test_each_revision_is_read_as_wikitext_against_the_article_path(tmp_path: Path) -> None:
    dump = tmp_path / "enwiki-pages.xml"
    dump.write_text(DUMP, "utf-8")
    code, out, err = run(["--format", "jsonl", "--fields", FIELDS, str(dump)])
    assert (code, err) == (0, "")
    assert [tuple(json.loads(line).values()) for line in out.splitlines()] == [
        ("./Gamma_ray", "https://en.wikipedia.org/wiki/Gamma_ray", "siteinfo", "wikitext", "a", "href", [], 1, 7,
         "Alpha beta#345"),
        ("https://ext.example/", "https://ext.example/", None, "wikitext", "a", "href", [], 1, 24, "Alpha beta#345"),
        ("http://code.example/", "http://code.example/", None, "wikitext", None, None, ["code"], 2, 7,
         "Alpha beta#345"),
        ("https://cite.example/", "https://cite.example/", None, "wikitext", "a", "href", [], 1, 16, "Delta#346"),
        ("./File:D.png", "https://en.wikipedia.org/wiki/File:D.png", "siteinfo", "wikitext", "img", "src", [], 1, 42,
         "Delta#346"),
        ("#Notes", "https://en.wikipedia.org/wiki/Main_Page#Notes", "siteinfo", "wikitext", "a", "href", [], 1, 57,
         "Delta#346"),
    ]


def test_a_dump_without_a_base_leaves_titles_relative_and_a_bad_base_is_a_defect(tmp_path: Path) -> None:
    dump = tmp_path / "d.xml"
    dump.write_text(DUMP.replace("https://en.wikipedia.org/wiki/Main_Page", "not a base"), "utf-8")
    code, out, err = run(["--format", "jsonl", "--fields", "uri,target", str(dump)])
    lines = [json.loads(line) for line in out.splitlines()]
    assert lines[0]["defect"] == "bad-base"
    assert lines[0]["detail"].startswith("siteinfo 'not a base' (<siteinfo><base> at line 4) cannot serve as a base")
    assert lines[1] == {"uri": "./Gamma_ray", "target": None}
    assert "<siteinfo><base> at line 4" in err


def _write_dump(path: Path, pages: int) -> None:
    with path.open("w", encoding="utf-8") as f:
        f.write('<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/">\n<siteinfo><base>'
                "https://wiki.example/wiki/Main_Page</base></siteinfo>\n")
        for n in range(pages):
            f.write(f"<page><title>Page {n}</title><revision><id>{n}</id><text>[[Link {n}]] "
                    f"[https://ext.example/{n} x] {{{{cite web|url=https://cite.example/{n}}}}}</text>"
                    "</revision></page>\n")
        f.write("</mediawiki>\n")


def _peak_rss(path: Path) -> tuple[int, int]:
    """(records, peak RSS in KiB) of a scan of ``path`` in a process of its own
    (its VmHWM: ``ru_maxrss`` would keep the forking test process's peak across exec)."""
    script = ("import re, sys\nfrom urisift import scan_path\n"
              "n = sum(1 for _ in scan_path(sys.argv[1]))\n"
              "print(n, re.search(r'VmHWM:\\s*(\\d+)', open('/proc/self/status').read()).group(1))")
    out = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True, text=True, check=True,
                         env={"PYTHONPATH": str(Path(__file__).parent.parent / "src")}).stdout.split()
    return int(out[0]), int(out[1])


def test_memory_does_not_grow_with_the_dump(tmp_path: Path) -> None:
    small, large = tmp_path / "small.xml", tmp_path / "large.xml"
    _write_dump(small, 2_000)
    _write_dump(large, 40_000)
    records_small, rss_small = _peak_rss(small)
    records_large, rss_large = _peak_rss(large)
    assert (records_small, records_large) == (6_000, 120_000)
    assert rss_large - rss_small < 16 * 1024  # (the large dump is 20 times the small one, some 4 MB more)


def test_a_dump_is_told_by_its_root_without_a_name(tmp_path: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    main([], stdin=io.BytesIO(DUMP.encode()), stdout=out, stderr=err)
    assert (out.getvalue().splitlines()[:2], err.getvalue()) == (
        ["https://en.wikipedia.org/wiki/Gamma_ray", "https://ext.example/"], "")
