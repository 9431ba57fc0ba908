"""Inputs built to make a text scanner backtrack, by size, and the check that
work grows linearly with size.  Shared by the linear-time tests and
bench/bench.py (which reports the growth ratios)."""

from __future__ import annotations

import time
from collections.abc import Callable


def assert_linear(work: Callable[[int], object], small: int = 250_000, large: int = 1_000_000) -> None:
    """Fail when ``work(n)`` grows faster than linearly between the two sizes.

    Four times the input may take four times as long; quadratic would be
    sixteen, so the bound is twelve.  A large run under half a second is
    linear enough whatever the ratio says: at that scale cache effects swamp
    it.  Each size takes the best of three runs, since a busy machine only
    ever adds time.
    """

    def cost(n: int) -> float:
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            work(n)
            best = min(best, time.perf_counter() - t0)
        return best

    t_small, t_large = cost(small), cost(large)
    assert t_large < 0.5 or t_large < t_small * 12 * (large / small) / 4, (t_small, t_large)
    assert t_large < 4.0, t_large


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
    "XML start tags with a scheme prefix": lambda n: "<xcon:b>" * (n // 8),
    "XML elements with a scheme prefix": lambda n: "<xcon:b>x</xcon:b>" * (n // 18),
    "hyphen lines inside brackets": lambda n: "<http://a/b-\n" + "c-\n" * (n // 3) + ">",
    # issue 8: the bracket stack, paired apostrophes, emphasis runs, name runs, markup
    "nested brackets": lambda n: "http://a/" + "([" * (n // 4) + "])" * (n // 4),
    "mismatched brackets": lambda n: "http://a/" + "(]" * (n // 2),
    "closers after URIs": lambda n: "http://a/b)" * (n // 11),
    "apostrophes": lambda n: "http://a/'" + "x'" * (n // 2),
    "apostrophes and dots": lambda n: "http://a/b" + "'." * (n // 2),
    "emphasis runs": lambda n: "**" + "x " * (n // 4) + "http://a/b" + "*" * (n // 2),
    "underscores": lambda n: "_" * n + "http://a/b_",
    "name runs": lambda n: "a:b:" * (n // 4) + "c://d",
    "distinct tags": lambda n: "".join(f"<t{i}:x{i}>" for i in range(n // 12)),
    "format characters": lambda n: "http://a/" + "\u200b" * n,
    "pipes": lambda n: "http://a/" + "|" * n,
}
