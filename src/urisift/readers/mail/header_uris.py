"""URI references in a message's own headers.

- RFC 2369 list headers (``List-Help``, ``-Subscribe``, ``-Unsubscribe``,
  ``-Post``, ``-Owner``, ``-Archive``): comma-separated ``<URI>``s, with
  comments after them; ``List-Post: NO`` names none.  RFC 5064
  ``Archived-At``: one ``<URI>``.  Style ``header``.
- Unstructured headers (``Subject``, ``Comments``, ``Keywords``,
  ``Organization``, ``Content-Description``, and ``X-`` headers but the
  trace and signature ones) go through the text scanner after RFC 2047
  decoding, without the ``www.``/``ftp.`` abbreviations: in headers those
  are host names far more often than links.
- Structured headers that hold no URIs (``Received``, ``DKIM-Signature``,
  ``Content-Type``, ``Message-ID``, ``References``, the address headers) are
  never read as running text.
"""

from __future__ import annotations

from collections.abc import Iterator
from email.message import Message

from ...model import Found, Place, Style, Where, new_found
from ...stages.delimit import Scanner, may_hold_absolute
from ...uri import patterns
from .headers import decoded, header_text

LIST_HEADERS = frozenset({"list-help", "list-subscribe", "list-unsubscribe", "list-post", "list-owner",
                          "list-archive", "archived-at"})
TEXT_HEADERS = frozenset({"subject", "comments", "keywords", "organization", "content-description"})
#: X- headers that are trace or signature data, not text
_NOT_TEXT = patterns.compile(r"(?i)x-(?:.*received|.*dkim|.*signature|originating-ip|spam-|virus-|ms-|gm-|google-|"
                       r"mailer-daemon|mimeole|msmail|uidl|mozilla-status|priority|barracuda|proofpoint)")
# an RFC 2369 element: "<" URI ">" (white space inside removed: RFC 2369 §2 lets it fold)
_ANGLED = patterns.compile(r"<([^<>]*)>")


def _kind(lower: str) -> int:
    """0: no URIs; 1: a list of ``<URI>``s; 2: text to scan."""
    if lower in LIST_HEADERS:
        return 1
    if lower in TEXT_HEADERS or (lower.startswith("x-") and not _NOT_TEXT.match(lower)):
        return 2
    return 0


#: header name (as written) -> _kind; archives repeat a few hundred names, so
#: it is worked out once a name (and forgotten past a bound, for spam's random ones)
_KINDS: dict[str, int] = {}


def header_references(message: Message) -> Iterator[Found]:
    """The references in the headers of ``message`` (its own heading only)."""
    kinds = _KINDS
    for name, value in message.raw_items():
        kind = kinds.get(name)
        if kind is None:
            if len(kinds) > 4096:
                kinds.clear()
            kind = kinds[name] = _kind(name.lower())
        if not kind:
            continue
        text = decoded(header_text(value))
        if kind == 1:
            place = Place(Where.HEADER, header=name)
            for m in _ANGLED.finditer(text):
                uri = "".join(m.group(1).split())
                if uri:
                    yield new_found(uri, None, None, Style.HEADER, (), (), None, place)
        elif may_hold_absolute(text):  # without www. forms, every reference has a scheme and its colon: "Re:" is none
            place = Place(Where.HEADER, header=name)
            # (one copy of the value, not a list of its lines: a Subject folded over 50 MB
            # would be millions of small strings)
            for found in Scanner(text.replace("\n", " "), abbreviated=False):
                yield found._replace(place=place)
