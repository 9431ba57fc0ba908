"""Inputs built to make a text scanner backtrack, by size.  Shared by the
linear-time tests and bench/bench.py (which reports their growth ratios)."""

from __future__ import annotations

from collections.abc import Callable

ADVERSARIAL: dict[str, Callable[[int], str]] = {
    "open angles": lambda n: "<" * n,
    "open parens after a scheme": lambda n: "http://" + "(" * n,
    "unterminated URL prefixes": lambda n: "<URL:" * (n // 5),
    "double quotes": lambda n: '"' * n,
    "no whitespace": lambda n: ("abc.def/ghi:" * (n // 12 + 1))[:n],
    "closing brackets": lambda n: "http://a/" + ")" * n,
    "dots after a URI": lambda n: "http://a" + "." * n,
    "angle with spaces": lambda n: "<http://a" + " x" * (n // 2),
    "www runs": lambda n: "www." * (n // 4),
    "colons": lambda n: "a:" * (n // 2),
    "urn colons": lambda n: "urn:a:" + ":" * n,
    "quote markers": lambda n: "> <http://a/\n" + "> x\n" * (n // 4),
    "hyphen lines": lambda n: "http://a/b-\n" * (n // 12),
    "long scheme": lambda n: "a" * n + "://x",
    "quote run then angles": lambda n: ">" * (n // 2) + "<" * (n // 2),
    "quoted angle then a marker run": lambda n: "> <http://a/\n" + ">" * n,
    "angles on one long line after quotes": lambda n: "> " + "<x " * (n // 3),
    "hyphen lines inside brackets": lambda n: "<http://a/b-\n" + "c-\n" * (n // 3) + ">",
}
