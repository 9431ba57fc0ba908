"""Which URL of a record the command's output uses: ``--resolve``
picks between the RFC 3986 target and what a browser fetches
(``browser_target``, the WHATWG URL parser's result), and ``--unwrap`` the
URL behind a link-protection or archive wrapper, for what text
output prints and what ``--scheme``, ``--normalize``, ``--unique`` and edges use.

One function, so that every output agrees on the choice.
"""

from __future__ import annotations

from ..model import Record

#: what --resolve accepts
RESOLUTIONS = ("rfc", "browser", "both")


def chosen_target(record: Record, resolution: str, unwrap: bool = False, effective: bool = False) -> str | None:
    """The URL ``resolution`` picks (``both`` picks the RFC target here; text
    output prints the browser's beside it): None when the record has none
    (a relative reference with no base, or one the WHATWG parser refuses).
    ``unwrap`` (``--unwrap``): the URL behind a wrapper instead, where it
    could be recovered; ``effective`` (``--effective``): where
    the target ends in the crawl's captures, first of all."""
    if effective and record.effective is not None:
        return record.effective.target
    if unwrap and record.unwrapped:
        return record.unwrapped
    if resolution == "browser":
        browser = record.browser_target
        return None if browser is False else browser
    return record.target


def browser_column(record: Record) -> str:
    """The browser's URL as ``--resolve both`` prints it beside the RFC
    target: empty where that parser fails."""
    browser = record.browser_target
    return browser if isinstance(browser, str) else ""
