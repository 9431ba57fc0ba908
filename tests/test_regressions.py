"""Issue 53's regressions: answers that were right before a round changed them.
Each test fails on the code before its fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from urisift import Defect, Record, scan_html

from .conftest import run_cli

# -- an opaque base resolves a fragment-only reference (RFC 3986 §5.2.2, WHATWG URL) ----------------


@pytest.mark.parametrize("base", ["mailto:x@x.com", "about:blank", "test:test", "sc:sd"])
def test_an_opaque_base_resolves_a_fragment_and_nothing_else(base: str) -> None:
    page = f'<base href="{base}"><a href="#x">f</a><a href="y">p</a><a href="?q">q</a>'
    items = [i for i in scan_html(page) if not (isinstance(i, Record) and i.element == "base")]
    assert [(i.uri, i.target, i.base, i.browser_target) if isinstance(i, Record) else (i.kind, i.detail, i.position)
            for i in items] == [
        ("#x", f"{base}#x", base, f"{base}#x"),
        ("y", None, base, None),
        ("bad-base", f"'y' has no target: the html-base base {base!r} has an opaque path, against which only a "
                     "fragment-only reference resolves (RFC 3986 §5.2.2)", page.index('"y"') + 1),
        ("?q", None, base, None),
        ("bad-base", f"'?q' has no target: the html-base base {base!r} has an opaque path, against which only a "
                     "fragment-only reference resolves (RFC 3986 §5.2.2)", page.index('"?q"') + 1),
    ]
    assert all(isinstance(i, Defect) for i in items if not isinstance(i, Record))


def test_a_base_relative_to_an_opaque_one_is_refused_and_base_mailto_stays_a_usage_error() -> None:
    # xml:base "sub/" under an opaque base would be §5.2.3's merge, which is not resolution against it
    feed = (b'<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xml:base="about:blank">'
            b'<entry xml:base="sub/"><link href="#top"/></entry></feed>')
    code, out, err = run_cli(["--kind", "xml", "--format", "jsonl", "-j", "1"], feed)
    assert code == 0 and '"target": "about:blank#top"' in out
    assert "'sub/' is relative, and the base below it, 'about:blank', has an opaque path" in err
    code, out, err = run_cli(["--base", "mailto:x@x.com"], b"<URL:#x>\n")
    assert (code, out) == (2, "") and "cannot serve as a base (RFC 3986 §5.1): a mailto: URI with no hierarchy" in err


# -- "&amp;" between a wrapper's parameters is "&" -------------------------------------------------

SAFE_LINKS = ("https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Flists.example.org%2Farchive%2F2024"
              "{amp}data=05%7C02%7Cx{amp}sdata=abc{amp}reserved=0")


@pytest.mark.parametrize("amp", ["&amp;", "&AMP;"])
def test_a_safe_links_url_escaped_in_a_plain_text_part_unwraps(amp: str) -> None:
    url = SAFE_LINKS.format(amp=amp)
    message = f"From: a@example.org\nSubject: x\nContent-Type: text/plain\n\nPlease read {url} today\n".encode()
    code, out, err = run_cli(["--kind", "mail", "--format", "jsonl", "--fields", "uri,unwrapped,wrapper,risks",
                              "-j", "1"], message)
    assert (code, err) == (0, "")
    assert out == json.dumps({"uri": url, "unwrapped": "https://lists.example.org/archive/2024",
                              "wrapper": ["safelinks"], "risks": []}) + "\n"


# -- one document over its time budget: one bomb defect --------------------------------------------

@pytest.mark.parametrize("seconds", [0.0, 1e-9])
def test_a_message_over_its_time_budget_gives_one_bomb(tmp_path: Path, seconds: float) -> None:
    from urisift import ScanOptions, iter_input
    from urisift.stages.containment import Limits

    body = b"".join(b"http://m%d.example/p\r\n" % i for i in range(100_000))  # 2.2 MB: past the meter's first look
    path = tmp_path / "a.eml"
    path.write_bytes(b"From: a@example.com\r\nSubject: s\r\nContent-Type: text/plain\r\n\r\n" + body)
    items = list(iter_input(str(path), ScanOptions(limits=Limits(seconds=seconds))))
    bombs = [i for i in items if isinstance(i, Defect)]
    # its bytes ran out first (the message's stream), and its part, the same document, says nothing more
    assert [(b.kind, b.detail, b.origin.part) for b in bombs] == [
        ("bomb", f"the document's time budget ({seconds:g} s, --time-budget) ran out: its bytes from byte 266240 on "
                 "not read", None)]
    assert 200 < sum(1 for i in items if isinstance(i, Record)) < 100_000
