"""No silent wrong answer: each class here gave an answer that looked right
and was not, with exit status 0.  Real files, and real servers on 127.0.0.1."""

from __future__ import annotations

import io
import json
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from urisift import Defect, Record, ScanOptions, iter_input, scan_html, scan_path
from urisift.cli.command import main
from urisift.model import DefectKind
from urisift.pipeline.plan import plan
from urisift.pipeline.scan import scan_serial
from urisift.pipeline.walking import walk


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(["--jobs", "1", *argv], stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def rows(out: str) -> list[dict[str, object]]:
    return [json.loads(line) for line in out.splitlines()]


# -- a web input is resolved against its own URL (RFC 3986 §5.1.3) -------------------------------

PAGE = b'<a href="rel/x.html">x</a> <a href="/top.html">t</a>\n'
ROBOTS = b"User-agent: *\nDisallow: /private/\nSitemap: /sitemap.xml\nSitemap: maps/news.xml\n"
# past twice the text range size: a large text read from the web is cut into ranges, each a request
BIG = b"see <URL:first.html>\n" + b"filler line of text\n" * 60_000 + b"and <URL:last.html>\n"


class _Site(BaseHTTPRequestHandler):
    """/dir/page.html, /robots.txt, /big.txt (ranges honoured); /old/page (a 301 to
    /new/dir/page.html, served there), /hop (a 302 to /old/page: two redirects), /moved-big (to /big.txt)."""

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:  # noqa: N802 - http.server's name
        moves = {"/old/page": "/new/dir/page.html", "/hop": "/old/page", "/moved-big": "/data/big.txt"}
        bodies = {"/dir/page.html": PAGE, "/new/dir/page.html": PAGE, "/robots.txt": ROBOTS, "/data/big.txt": BIG}
        if self.path in moves:
            self.send_response(301 if self.path == "/old/page" else 302)
            self.send_header("Location", moves[self.path])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = bodies.get(self.path)
        if body is None:
            self.send_error(404)
            return
        start = 0
        ranged = self.headers.get("Range", "")
        if ranged.startswith("bytes=") and ranged.endswith("-"):
            start = int(ranged[6:-1])
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(len(body) - start))
        self.end_headers()
        self.wfile.write(body[start:])


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _targets(out: str) -> list[tuple[object, object, object]]:
    return [(r["uri"], r["target"], r["base_source"]) for r in rows(out) if "uri" in r]


def test_a_web_page_resolves_against_its_own_url(site: str) -> None:
    code, out, err = run(["--format", "jsonl", f"{site}/dir/page.html"])
    assert (code, err) == (0, "")
    assert _targets(out) == [("rel/x.html", f"{site}/dir/rel/x.html", "retrieval"),
                             ("/top.html", f"{site}/top.html", "retrieval")]
    assert {r["base"] for r in rows(out)} == {f"{site}/dir/page.html"}


def test_after_redirects_the_base_is_the_url_the_page_came_from(site: str) -> None:
    for start in ("/old/page", "/hop"):
        code, out, err = run(["--format", "jsonl", f"{site}{start}"])
        assert (code, err) == (0, "")
        assert _targets(out) == [("rel/x.html", f"{site}/new/dir/rel/x.html", "retrieval"),
                                 ("/top.html", f"{site}/top.html", "retrieval")]
        assert {r["base"] for r in rows(out)} == {f"{site}/new/dir/page.html"}
        # and it is the source of the page's edges
        assert run(["--format", "edges", f"{site}{start}"])[1] == (
            f"{site}/new/dir/page.html\t{site}/new/dir/rel/x.html\n{site}/new/dir/page.html\t{site}/top.html\n")


def test_a_fetched_robots_txt_resolves_its_sitemaps(site: str) -> None:
    assert run([f"{site}/robots.txt"]) == (0, f"{site}/sitemap.xml\n{site}/maps/news.xml\n", "")


def test_from_list_entries_and_the_library_resolve_against_their_urls(site: str, tmp_path: Path) -> None:
    listing = tmp_path / "inputs.txt"
    listing.write_text(f"{site}/old/page\n{site}/robots.txt\n")
    assert run(["--from-list", str(listing)]) == (
        0, f"{site}/new/dir/rel/x.html\n{site}/top.html\n{site}/sitemap.xml\n{site}/maps/news.xml\n", "")
    records = [r for r in iter_input(f"{site}/old/page") if isinstance(r, Record)]
    assert [(r.target, r.base) for r in records] == [(f"{site}/new/dir/rel/x.html", f"{site}/new/dir/page.html"),
                                                    (f"{site}/top.html", f"{site}/new/dir/page.html")]


def test_a_large_web_text_cut_into_ranges_keeps_its_url_as_base_in_every_range(site: str) -> None:
    units = [u for u in plan(walk([f"{site}/moved-big"])) if not isinstance(u, Defect)]
    assert len(units) >= 2  # (the last record is in a range of its own, read with a request of its own)
    found = [(i.uri, i.target) for i in scan_serial(units) if isinstance(i, Record)]
    assert found == [("first.html", f"{site}/data/first.html"), ("last.html", f"{site}/data/last.html")]


def test_an_explicit_base_still_wins_over_the_url(site: str) -> None:
    assert run(["--base", "https://b.example/d/", f"{site}/dir/page.html"]) == (
        0, "https://b.example/d/rel/x.html\nhttps://b.example/top.html\n", "")


# -- a directory walked under --base: each file its own retrieval URI ------------------------------

def _mirror(tmp_path: Path) -> Path:
    mirror = tmp_path / "mirror"
    (mirror / "a" / "b").mkdir(parents=True)
    (mirror / "a" / "b" / "page.html").write_bytes(b'<a href="x.html">x</a><a href="../up.html">u</a>')
    (mirror / "index.html").write_bytes(b'<a href="a/">a</a>')
    (mirror / "a" / "b" / "caf\u00e9 & co.txt").write_bytes(b"<URL:y.txt>\n")
    return mirror


def test_a_directory_walked_under_base_gives_each_file_its_own_url(tmp_path: Path) -> None:
    mirror = _mirror(tmp_path)
    for base in ("https://site.example/", "https://site.example"):
        code, out, err = run(["--format", "jsonl", "--base", base, str(mirror)])
        assert (code, err) == (0, "")
        assert [(r["target"], r["base"]) for r in rows(out)] == [
            ("https://site.example/a/", "https://site.example/index.html"),
            ("https://site.example/a/b/y.txt", "https://site.example/a/b/caf%C3%A9%20&%20co.txt"),
            ("https://site.example/a/b/x.html", "https://site.example/a/b/page.html"),
            ("https://site.example/a/up.html", "https://site.example/a/b/page.html")]
    # a base with a path is the directory's URL, taken as a directory
    code, out, _ = run(["--base", "https://site.example/docs", str(mirror / "a")])
    assert out == "https://site.example/docs/b/y.txt\nhttps://site.example/docs/b/x.html\nhttps://site.example/docs/up.html\n"
    # a file named itself keeps --base as it is
    assert run(["--base", "https://site.example/p/q.html", str(mirror / "a" / "b" / "page.html")])[1] == (
        "https://site.example/p/x.html\nhttps://site.example/up.html\n")


def test_the_library_and_the_spark_plan_give_the_mirrors_urls(tmp_path: Path) -> None:
    mirror = _mirror(tmp_path)
    page = mirror / "a" / "b" / "page.html"
    records = list(scan_path(page, base="https://site.example/", root=mirror))
    assert [(r.target, r.base) for r in records if isinstance(r, Record)] == [
        ("https://site.example/a/b/x.html", "https://site.example/a/b/page.html"),
        ("https://site.example/a/up.html", "https://site.example/a/b/page.html")]
    with pytest.raises(ValueError, match="is not under root"):
        scan_path(page, base="https://site.example/", root=tmp_path / "elsewhere")
    from urisift.spark import (
        driver as spark,  # the job's own planning (on the driver and in its tasks), then each unit's scan
    )

    options = ScanOptions(base="https://site.example/")
    units = spark.plan(spark.paths_of([str(mirror)]), options)
    targets = [i.target for i in scan_serial(units, options) if isinstance(i, Record)]
    assert targets == ["https://site.example/a/", "https://site.example/a/b/y.txt", "https://site.example/a/b/x.html",
                       "https://site.example/a/up.html"]


# -- one rule for what may serve as a base, from any source -----------------------------------------

@pytest.mark.parametrize(("base", "why"), [
    ("data:text/html,x", "a data: URI cannot be a base"),
    ("javascript:alert(1)", "a javascript: URI cannot be a base"),
    ("mailto:a@b.example", "a mailto: URI with no hierarchy (no authority, a path not starting with '/') cannot "
                           "be a base (RFC 3986 §5.2.3 would merge a relative path into an opaque one)"),
])
def test_base_refuses_what_a_base_element_refuses(base: str, why: str) -> None:
    assert run(["--base", base], b"<URL:x.html>\n") == (
        2, "", f"urisift: --base {base!r} cannot serve as a base (RFC 3986 §5.1): {why}\n")
    with pytest.raises(ValueError, match="^" + re.escape(f"ScanOptions(): base {base!r} cannot serve as a base")):
        ScanOptions(base=base)
    # and <base href> refuses the same, with a defect, as every other layer does; but a base with an
    # opaque path, which the content may set for its fragments (issue 53: tests/test_regressions.py)
    items = list(scan_html(f'<base href="{base}"><a href="x.html">x</a>', base="http://h.example/d/"))
    if base.startswith("mailto:"):
        _, record, defect = items
        assert isinstance(defect, Defect) and isinstance(record, Record)
        assert (record.target, record.base) == (None, base)
        assert defect.detail == (f"'x.html' has no target: the html-base base {base!r} has an opaque path, against "
                                 "which only a fragment-only reference resolves (RFC 3986 §5.2.2)")
        return
    defect, _, record = items  # (<base href> is a link too)
    assert isinstance(defect, Defect) and isinstance(record, Record)
    assert defect.kind is DefectKind.BAD_BASE and why in defect.detail
    assert record.target == "http://h.example/d/x.html"


def test_options_that_cannot_serve_fail_when_the_options_are_built() -> None:
    with pytest.raises(ValueError) as caught:
        ScanOptions(base="notaurl")
    assert str(caught.value) == ("ScanOptions(): base 'notaurl' cannot serve as a base (RFC 3986 §5.1): 'notaurl' "
                                 "is relative and there is no base below it to resolve it against")
    with pytest.raises(ValueError) as caught:
        ScanOptions(charset="bogus")
    assert str(caught.value) == ("ScanOptions(): charset 'bogus': no such charset (try utf-8, latin-1, "
                                 "windows-1252, shift_jis ...)")


def test_xml_base_cannot_turn_a_relative_href_into_a_script(tmp_path: Path) -> None:
    feed = tmp_path / "f.atom"
    feed.write_bytes(b'<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://h.example/'
                     b'f/">\n<entry xml:base="javascript:alert(1)//"><link href="x"/></entry>\n'
                     b'<entry xml:base="data:text/html,"><link href="y"/></entry>\n</feed>\n')
    code, out, err = run(["--format", "jsonl", str(feed)])
    found = rows(out)
    assert [(r["uri"], r["target"]) for r in found if "uri" in r] == [("x", "http://h.example/f/x"),
                                                                      ("y", "http://h.example/f/y")]
    assert [r["defect"] for r in found if "defect" in r] == ["bad-base", "bad-base"]
    assert code == 0 and "cannot serve as a base: a javascript: URI cannot be a base" in err


def test_a_content_base_of_mailto_resolves_no_relative_path() -> None:
    message = b"Content-Base: mailto:list@example.org\nContent-Type: text/html\n\n<a href='page.html'>p</a>\n"
    code, out, err = run(["--kind", "mail", "--format", "jsonl"], message)
    (record,) = [r for r in rows(out) if "uri" in r]
    # an opaque base (issue 53): a fragment alone resolves against it, and 'page.html' has no target
    assert (record["target"], record["base"]) == (None, "mailto:list@example.org")
    assert "'page.html' has no target: the content-base base 'mailto:list@example.org' has an opaque path" in err


# -- a wrapper cut short is broken, not a shorter URL -----------------------------------------------

CUT_MAIL = (b"From: a@example.org\nSubject: x\n\nOn Monday someone wrote:\n"
            b">>> Please read https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Flist\n"
            b">>> s.example.org%2Farchive%2F2024&data=05%7C02%7Cx&sdata=abc&reserved=0 today\n")


def test_a_safe_links_url_cut_at_the_line_width_of_quoted_mail_is_broken() -> None:
    code, out, err = run(["--unwrap", "--kind", "mail", "--format", "jsonl", "--fields", "uri,unwrapped,wrapper,risks"],
                         CUT_MAIL)
    (record,) = rows(out)
    assert (code, record["unwrapped"], record["wrapper"]) == (0, None, ["safelinks"])
    assert record["risks"] == [{"flag": "broken-wrapper", "section": "7.5", "detail": (
        "the safelinks wrapper cannot be decoded: its url parameter is not followed by data or sdata or reserved, "
        "which safelinks always writes after it: the link is cut short (at a line break?), and 'https://list' "
        "may be only the start of its URL")}]
    # text output gives the link as it stands, never the shorter URL that looked valid
    assert run(["--unwrap", "--kind", "mail"], CUT_MAIL)[1] == (
        "https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Flist\n")


@pytest.mark.parametrize(("whole", "cut"), [
    ("https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fa.example%2Fx&data=05%7C02&reserved=0",
     "https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2Fa.example"),
    ("https://urldefense.proofpoint.com/v1/url?u=http://a.example/x&k=abc%0A&r=x&m=y&s=z",
     "https://urldefense.proofpoint.com/v1/url?u=http://a.example"),
    ("https://urldefense.proofpoint.com/v2/url?u=http-3A__a.example_x&d=DwIG&c=x&r=y&m=z&s=w&e=",
     "https://urldefense.proofpoint.com/v2/url?u=http-3A__a.example"),
    ("https://linkprotect.cudasvc.com/url?a=https%3a%2f%2fa.example%2fx&c=E,1,AbCd,&typo=1",
     "https://linkprotect.cudasvc.com/url?a=https%3a%2f%2fa.example"),
    ("https://a-ctp.trendmicro.com/wis/clicktime/v1/query?url=https%3a%2f%2fa.example%2fx&umid=4B&auth=01",
     "https://a-ctp.trendmicro.com/wis/clicktime/v1/query?url=https%3a%2f%2fa.example"),
])
def test_each_wrapper_that_says_where_its_target_ends_is_broken_when_cut(whole: str, cut: str) -> None:
    from urisift.uri.unwrap import unwrap

    done = unwrap(whole)
    assert done is not None and done.url is not None and done.url.rstrip("/") in ("https://a.example/x",
                                                                                  "http://a.example/x")
    broken = unwrap(cut)
    assert broken is not None and broken.url is None and broken.risk is not None
    assert broken.risk.flag == "broken-wrapper" and "the link is cut short" in broken.risk.detail
    # a cut that falls after the parameters that close the target leaves the target whole
    assert unwrap(whole[:-2]) is not None and unwrap(whole[:-2]).url == done.url  # type: ignore[union-attr]


# -- a captured page is captured, whatever its canonical names -----------------------------------------

SITE = "http://crawl.example"


def _crawl(path: Path) -> None:
    pytest.importorskip("warcio")
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    def response(writer: WARCWriter, uri: str, status: str, headers: list[tuple[str, str]], body: bytes,
                 date: str) -> None:
        http = StatusAndHeaders(status, headers + [("Content-Length", str(len(body)))], protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record(uri, "response", payload=io.BytesIO(body), http_headers=http,
                                                      warc_headers_dict={"WARC-Date": date}))

    html = [("Content-Type", "text/html")]
    with path.open("wb") as out:
        writer = WARCWriter(out, gzip=False)
        response(writer, f"{SITE}/", "200 OK", html, b'<a href="/article?utm=x">a</a> <a href="/moved">m</a>',
                 "2024-05-03T12:00:00Z")
        # captured, and names as canonical a URL the crawl lacks
        response(writer, f"{SITE}/article?utm=x", "200 OK", html,
                 b'<link rel="canonical" href="https://www.crawl.example/article">', "2024-05-03T12:00:01Z")
        # a redirect to a captured page whose canonical is not captured either
        response(writer, f"{SITE}/moved", "301 Moved Permanently", [("Location", "/article?utm=x")], b"",
                 "2024-05-03T12:00:02Z")


def test_a_page_whose_canonical_was_not_captured_is_captured(tmp_path: Path) -> None:
    warc = tmp_path / "crawl.warc"
    _crawl(warc)
    out_, err_ = io.StringIO(), io.StringIO()
    code = main(["audit", "--format", "jsonl", str(warc)], stdout=out_, stderr=err_)
    out, err = out_.getvalue(), err_.getvalue()
    home = json.loads(out.splitlines()[0])
    assert (code, err, home["page"]) == (0, "", f"{SITE}/")
    assert home["outlinks"]["link"] == {"total": 2, "captured": 2, "missing": 0}
    assert home["captured"] == [
        {"target": f"{SITE}/article?utm=x", "kind": "link", "capture": "2024-05-03T12:00:01Z"},
        {"target": f"{SITE}/moved", "kind": "link", "capture": "2024-05-03T12:00:01Z"}]
    code, out, err = run(["--effective", "--format", "jsonl", "--fields",
                          "uri,effective_target,effective_hops,effective_status,effective_loop", str(warc)])
    assert [tuple(r.values()) for r in rows(out)][:2] == [
        ("/article?utm=x", f"{SITE}/article?utm=x", 0, 200, False),
        ("/moved", f"{SITE}/article?utm=x", 1, 200, False)]


# -- a location inside an embedded document is the file's, or marked as nested ----------------------------

RSS = (b'<?xml version="1.0"?>\n<rss version="2.0">\n<channel>\n<title>t</title>\n<link>http://example.org/</link>\n'
       b'<item>\n<description>&lt;p&gt;Read &lt;a href="http://example.org/a"&gt;this&lt;/a&gt; and\n'
       b'see http://example.org/b&lt;/p&gt;</description>\n</item>\n</channel>\n</rss>\n')


def test_a_feeds_html_is_placed_at_its_elements_line_not_at_its_own(tmp_path: Path) -> None:
    feed = tmp_path / "f.rss"
    feed.write_bytes(RSS)
    assert run(["-H", str(feed)]) == (0, f"{feed}:5:-:http://example.org/\n{feed}:7:-:http://example.org/a\n"
                                         f"{feed}:7:-:http://example.org/b\n", "")
    code, out, _ = run(["--format", "jsonl", "--fields", "uri,line,column,span,where", str(feed)])
    assert [tuple(r.values()) for r in rows(out)] == [("http://example.org/", 5, None, None, "xml"),
                                                      ("http://example.org/a", 7, None, None, "html"),
                                                      ("http://example.org/b", 7, None, None, "text")]


def test_a_feed_attached_to_a_message_is_placed_in_the_message_file(tmp_path: Path) -> None:
    message = tmp_path / "m.eml"
    message.write_bytes(b"From: a@example.org\nSubject: feed\nMIME-Version: 1.0\n"
                        b"Content-Type: application/rss+xml\n\n" + RSS)
    # the feed's lines count from the body's first line (line 6 of the file): its element's line there
    assert run(["-H", str(message)])[1] == (f"{message}:10:-:http://example.org/\n{message}:12:-:http://example.org/a\n"
                                            f"{message}:12:-:http://example.org/b\n")  # (no made-up column 1)


def test_a_uuencoded_files_lines_are_marked_as_its_own() -> None:
    import binascii

    data = b"first line\nsecond line http://uu.example/x\n"
    message = (b"From: a@example.org\nSubject: uu\n\nSome text\n\nbegin 644 f.txt\n" + binascii.b2a_uu(data)
               + b"`\nend\n")
    code, out, _ = run(["-H", "--kind", "mail"], message)
    assert out == "-:1/uu/2:13:http://uu.example/x\n"  # line 2 of the decoded file, not of part 1


def test_an_xhtml_iframes_srcdoc_is_placed_at_the_iframes_line(tmp_path: Path) -> None:
    page = tmp_path / "x.xhtml"
    page.write_bytes(b'<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml">\n<head><title>t</title>'
                     b'</head>\n<body>\n<iframe srcdoc="&lt;p&gt;x &lt;a href=&quot;http://in.example/&quot;&gt;y'
                     b'&lt;/a&gt;"></iframe>\n</body></html>\n')
    assert run(["-H", str(page)]) == (0, f"{page}:5:-:http://in.example/\n", "")


def test_a_warc_record_named_by_a_urn_is_no_base_and_no_defect(tmp_path: Path) -> None:
    block = b"see http://x.example/ and <URL:rel.html>\n"
    warc = tmp_path / "urn.warc"
    warc.write_bytes(b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Target-URI: urn:x-notes:2024:05\r\n"
                     b"Content-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(block) + block + b"\r\n\r\n")
    # a urn: (or a crawler's dns:) target names its record; it has no hierarchy and is no base: "rel.html"
    # stays relative rather than becoming "urn:x-notes:2024:rel.html", and nothing in the record is wrong
    code, out, err = run(["--format", "jsonl", "--fields", "uri,target,base", str(warc)])
    assert (code, err) == (0, "")
    assert [tuple(r.values()) for r in rows(out)] == [("http://x.example/", "http://x.example/", None),
                                                      ("rel.html", None, None)]


def test_the_spark_job_refuses_such_a_base_as_the_command_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                                                ) -> None:
    from urisift.spark import driver as spark

    page = tmp_path / "p.html"
    page.write_bytes(b'<a href="x.html">x</a>')
    assert spark.main(["--base", "javascript:alert(1)", "--output", str(tmp_path / "out"), str(page)]) == 2
    assert capsys.readouterr().err == ("urisift-spark: --base 'javascript:alert(1)' cannot serve as a base "
                                       "(RFC 3986 §5.1): a javascript: URI cannot be a base\n")
    assert not (tmp_path / "out").exists()
