"""Issue 23: effective targets through a crawl's captured redirects, meta
refresh and canonical links, and the capture audit, on a WARC built here
with redirect chains, a refresh, a canonical, a loop and uncaptured outlinks."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from urisift.cli.command import main
from urisift.crawl.index import CANONICAL, LOCATION, MAX_HOPS, REFRESH, Capture, CaptureIndex
from urisift.model import Effective

SITE = "http://crawl.example"
PAGE = (b'<html><head><link rel="stylesheet" href="/style.css"><script src="/app.js"></script></head><body>'
        b'<a href="/r1">chain</a> <a href="/refresh">refresh</a> <a href="/canon">canonical</a> '
        b'<a href="/loop1">loop</a> <a href="/missing">missing</a> <a href="/r1#part">again, with a fragment</a>'
        b'<img src="/img.png"></body></html>')


def _warc(path: Path) -> None:
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    def response(writer: WARCWriter, uri: str, status: str, headers: list[tuple[str, str]], body: bytes,
                 date: str) -> None:
        http = StatusAndHeaders(status, headers + [("Content-Length", str(len(body)))], protocol="HTTP/1.1")
        record = writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http,
                                           warc_headers_dict={"WARC-Date": date})
        writer.write_record(record)

    html = [("Content-Type", "text/html")]
    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=False)
        response(writer, f"{SITE}/", "200 OK", html, PAGE, "2024-05-03T12:00:00Z")
        response(writer, f"{SITE}/r1", "301 Moved Permanently", [("Location", "/r2")], b"", "2024-05-03T12:00:01Z")
        response(writer, f"{SITE}/r2", "302 Found", [("Location", f"{SITE}/final")], b"", "2024-05-03T12:00:02Z")
        response(writer, f"{SITE}/final", "200 OK", html, b"<p>here</p>", "2024-05-03T12:00:03Z")
        response(writer, f"{SITE}/refresh", "200 OK", html,
                 b'<meta http-equiv="refresh" content="0; url=/after-refresh">', "2024-05-03T12:00:04Z")
        response(writer, f"{SITE}/after-refresh", "200 OK", html, b"<p>after</p>", "2024-05-03T12:00:05Z")
        response(writer, f"{SITE}/canon", "200 OK", html, b'<link rel="canonical" href="/canonical-page">',
                 "2024-05-03T12:00:06Z")
        response(writer, f"{SITE}/canonical-page", "200 OK", html, b"<p>the one</p>", "2024-05-03T12:00:07Z")
        response(writer, f"{SITE}/loop1", "301 Moved Permanently", [("Location", "/loop2")], b"",
                 "2024-05-03T12:00:08Z")
        response(writer, f"{SITE}/loop2", "301 Moved Permanently", [("Location", "/loop1")], b"",
                 "2024-05-03T12:00:09Z")
        response(writer, f"{SITE}/img.png", "200 OK", [("Content-Type", "image/png")], b"\x89PNG",
                 "2024-05-03T12:00:10Z")
        response(writer, f"{SITE}/style.css", "200 OK", [("Content-Type", "text/css")], b"a{}",
                 "2024-05-03T12:00:11Z")


@pytest.fixture
def crawl(tmp_path: Path) -> Path:
    pytest.importorskip("warcio")
    path = tmp_path / "crawl.warc"
    _warc(path)
    return path


def _run(*argv: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    assert main(list(argv), stdout=out, stderr=err) == 0, err.getvalue()
    return out.getvalue()


def test_each_target_is_followed_to_where_it_ends(crawl: Path) -> None:
    lines = _run("--effective", "--format", "jsonl", "--fields",
                 "uri,effective_target,effective_hops,effective_status,effective_loop", str(crawl)).splitlines()
    page = [json.loads(line) for line in lines][:9]  # the page's links, in order (the redirects' headers follow)
    assert [tuple(r.values()) for r in page] == [
        ("/style.css", f"{SITE}/style.css", 0, 200, False),
        ("/app.js", f"{SITE}/app.js", 0, None, False),  # not captured: it ends where it is
        ("/r1", f"{SITE}/final", 2, 200, False),
        ("/refresh", f"{SITE}/after-refresh", 1, 200, False),
        ("/canon", f"{SITE}/canonical-page", 1, 200, False),
        ("/loop1", f"{SITE}/loop2", 1, 301, True),
        ("/missing", f"{SITE}/missing", 0, None, False),
        ("/r1#part", f"{SITE}/final#part", 2, 200, False),  # the link's fragment kept to the end (RFC 9110 §10.2.2)
        ("/img.png", f"{SITE}/img.png", 0, 200, False),
    ]


def test_effective_targets_are_what_text_output_prints(crawl: Path) -> None:
    first = _run("--effective", "-n", str(crawl)).splitlines()[:9]
    assert first[2:4] == [f"{SITE}/final", f"{SITE}/after-refresh"]
    assert _run("--effective", "--jobs", "2", "-n", str(crawl)) == _run("--effective", "--jobs", "1", "-n", str(crawl))


def test_the_audit_says_what_each_page_missed(crawl: Path) -> None:
    pages = [json.loads(line) for line in _run("audit", "--format", "jsonl", str(crawl)).splitlines()]
    home = pages[0]
    assert (home["page"], home["warc_date"]) == (f"{SITE}/", "2024-05-03T12:00:00Z")
    assert home["outlinks"] == {"link": {"total": 5, "captured": 4, "missing": 1},
                                "embed": {"total": 3, "captured": 2, "missing": 1},
                                "redirect": {"total": 0, "captured": 0, "missing": 0}}
    assert home["missing"] == [{"target": f"{SITE}/missing", "kind": "link"},
                               {"target": f"{SITE}/app.js", "kind": "embed"}]
    assert home["captured"] == [
        {"target": f"{SITE}/r1", "kind": "link", "capture": "2024-05-03T12:00:03Z"},
        {"target": f"{SITE}/refresh", "kind": "link", "capture": "2024-05-03T12:00:05Z"},
        {"target": f"{SITE}/canon", "kind": "link", "capture": "2024-05-03T12:00:07Z"},
        {"target": f"{SITE}/loop1", "kind": "link", "capture": "2024-05-03T12:00:09Z"},
        {"target": f"{SITE}/style.css", "kind": "embed", "capture": "2024-05-03T12:00:11Z"},
        {"target": f"{SITE}/img.png", "kind": "embed", "capture": "2024-05-03T12:00:10Z"}]
    # a redirect's Location is the redirect kind of its own record
    assert pages[1]["outlinks"]["redirect"] == {"total": 1, "captured": 1, "missing": 0}
    table = _run("audit", str(crawl))
    assert table.startswith(f"pages audited: {len(pages)}\n")
    assert f"  {1:6}  {SITE}/missing\n" in table


# -- issue 38: a capture that redirects to itself is a loop; any cycle of any length -------------------

def _index(*chain: tuple[str, int, str | None, str | None]) -> CaptureIndex:
    """An index of captures (uri, status, via, next), a second apart from 2024-05-03T12:00:00Z."""
    index = CaptureIndex()
    for i, (uri, status, via, following) in enumerate(chain):
        index.add(Capture(uri, 1714737600 + i, status, via, following))
    return index


def test_a_capture_whose_location_is_itself_is_a_loop() -> None:
    index = _index(("http://shop.example/cart", 302, LOCATION, "http://SHOP.example:80/cart#top"))
    assert index.effective("http://shop.example/cart", None) == Effective("http://shop.example/cart", 0, 302, True)
    # and reached at the end of a chain
    index.add(Capture("http://shop.example/basket", 1714737700, 301, LOCATION, "http://shop.example/cart"))
    assert index.effective("http://shop.example/basket", None) == Effective("http://shop.example/cart", 1, 302, True)


def test_a_page_canonical_to_itself_or_reloading_itself_ends_there() -> None:
    index = _index(("http://news.example/a", 200, CANONICAL, "http://news.example/a"),
                   ("http://news.example/live", 200, REFRESH, "http://news.example/live"))
    assert index.effective("http://news.example/a", None) == Effective("http://news.example/a", 0, 200, False)
    assert index.effective("http://news.example/live", None) == Effective("http://news.example/live", 0, 200, False)


@pytest.mark.parametrize("length", [3, 7, MAX_HOPS, MAX_HOPS + 1, MAX_HOPS + 2, 3 * MAX_HOPS])
def test_a_cycle_of_any_length_is_a_loop(length: int) -> None:
    uris = [f"http://ring.example/{i}" for i in range(length)]
    index = _index(*((uri, 301, LOCATION, uris[(i + 1) % length]) for i, uri in enumerate(uris)))
    hops = min(length - 1, MAX_HOPS)  # the chain is given up at MAX_HOPS, and still known to loop
    assert index.effective(uris[0], None) == Effective(uris[hops], hops, 301, True)
    # a cycle the chain reaches after a tail of other captures
    index.add(Capture("http://ring.example/door", 1714737000, 302, LOCATION, uris[length // 2]))
    expected = min(length, MAX_HOPS)
    assert index.effective("http://ring.example/door", None) == Effective(
        uris[(length // 2 + expected - 1) % length], expected, 301, True)


def test_a_long_chain_without_a_cycle_is_no_loop() -> None:
    uris = [f"http://line.example/{i}" for i in range(3 * MAX_HOPS)]
    index = _index(*((uri, 301, LOCATION, uris[i + 1] if i + 1 < len(uris) else None) for i, uri in enumerate(uris)))
    assert index.effective(uris[0], None) == Effective(uris[MAX_HOPS], MAX_HOPS, 301, False)
    assert index.effective(uris[5], None) == Effective(uris[5 + MAX_HOPS], MAX_HOPS, 301, False)  # (learnt: no loop)
    assert index.effective(uris[2 * MAX_HOPS], None) == Effective(uris[-1], MAX_HOPS - 1, 301, False)


def test_a_self_redirect_in_a_crawl_is_an_effective_loop(tmp_path: Path) -> None:
    pytest.importorskip("warcio")
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    path = tmp_path / "self.warc"
    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=False)
        for uri, status, headers, body in [
                (f"{SITE}/", "200 OK", [("Content-Type", "text/html")], b'<a href="/login">sign in</a>'),
                (f"{SITE}/login", "302 Found", [("Location", f"{SITE}/login")], b"")]:
            http = StatusAndHeaders(status, [*headers, ("Content-Length", str(len(body)))], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http,
                                                          warc_headers_dict={"WARC-Date": "2024-05-03T12:00:00Z"}))
    lines = _run("--effective", "--format", "jsonl", "--fields",
                 "uri,effective_target,effective_hops,effective_status,effective_loop", str(path)).splitlines()
    assert json.loads(lines[0]) == {"uri": "/login", "effective_target": f"{SITE}/login", "effective_hops": 0,
                                    "effective_status": 302, "effective_loop": True}
