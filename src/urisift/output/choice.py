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


def sets_base(record: Record) -> bool:
    """Whether the record is a reference that sets where others resolve, a
    base, rather than one a reader or a browser fetches: an HTML or XHTML
    ``<base href>`` (WHATWG HTML §4.2.3; the second one too, which the page
    ignores) and an object's or applet's ``codebase`` (HTML 4.01 §13.3).
    No outlink, no edge of the link graph."""
    place = record.found.place
    attribute = place.attribute
    return (attribute == "href" and place.element == "base") or attribute == "codebase"


def browser_column(record: Record) -> str:
    """The browser's URL as ``--resolve both`` prints it beside the RFC
    target: empty where that parser fails."""
    browser = record.browser_target
    return browser if isinstance(browser, str) else ""
