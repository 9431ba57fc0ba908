"""The ``browser`` case of bench.py (issue 25): what computing the browser's
target beside the RFC one costs.

- HTML, the 130 saved pages: ``scan_html`` as shipped (both targets, the
  ``differs`` check) against the same scan with the browser's work switched
  off for the measurement (the WHATWG parse and the comparison replaced by
  no-ops in this process only).  Target: at most 10% more time.
- Plain text, the RFC texts of the ``scan`` case: ``scan_text`` as users run
  it (no browser target unless asked) against ``scan_text(browser=True)``
  (what ``--resolve browser|both`` costs there).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from bench_html import BASE, load_pages


@contextmanager
def _browser_off() -> Iterator[None]:
    """The browser's work as no-ops, for the measurement only."""
    import urisift.uri.browser as whatwg  # what each Tail reads its resolver and the comparison from

    class _Off:
        def __init__(self, base: str | None) -> None:
            pass

        def __call__(self, reference: str) -> bool:
            return False

    saved = whatwg.BrowserResolver, whatwg.difference
    whatwg.BrowserResolver, whatwg.difference = _Off, lambda a, b: None  # type: ignore[assignment,misc]
    try:
        yield
    finally:
        whatwg.BrowserResolver, whatwg.difference = saved  # type: ignore[misc]


def bench_browser(rounds: int, shared: Path, texts: list[str], timeit: Callable[[Callable[[], object], int], float],
                  table: Callable[..., None]) -> None:
    from urisift import scan_html, scan_text

    pages = load_pages(shared)
    if pages:
        size = sum(map(len, pages)) / 1e6

        def html() -> int:
            return sum(1 for page in pages for _ in scan_html(page, base=BASE))

        both = timeit(html, rounds)
        with _browser_off():
            rfc_only = timeit(html, rounds)
        again = timeit(html, rounds)  # shipped again: the machine's drift between the two
        ours = "scan_html, both targets (as shipped)"
        table(f"browser: {len(pages)} pages, {size:.1f} MB: both targets against the RFC target alone "
              f"(cost {(min(both, again) / rfc_only - 1) * 100:.1f}%, target ≤ 10%)", "MB", size,
              [(ours, min(both, again), ""), ("scan_html, the browser's work switched off", rfc_only, "")], ours)
    text = "\n".join(texts)
    mb = len(text.encode("utf-8")) / 1e6
    plain = timeit(lambda: sum(1 for _ in scan_text(text)), rounds)
    asked = timeit(lambda: sum(1 for _ in scan_text(text, browser=True)), rounds)
    ours = "scan_text (no browser target unless asked)"
    table(f"browser: {len(texts)} RFC texts, {mb:.1f} MB: plain text without and with browser targets", "MB", mb,
          [(ours, plain, ""), ("scan_text(browser=True): --resolve browser|both", asked, "")], ours)
