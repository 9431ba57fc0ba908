"""A code's payload → the stretches of it to read for URIs (see :mod:`urisift.readers.image`).

Most payloads are a URL, or text; some are one of the forms phones' readers act on, whose fields are read
by what they are:

- ``URLTO:`` (NTT DoCoMo's bookmark): the rest is a URI;
- ``MECARD:`` (DoCoMo's contact: ``N:…;URL:…;EMAIL:…;;``) and ``MATMSG:`` (a mail to send:
  ``TO:…;SUB:…;BODY:…;;``): ``URL`` is a URI, ``EMAIL`` and ``TO`` an address (``mailto:``, RFC 6068), every
  other field text; ``\\`` escapes ``;``, ``:``, ``,`` and itself;
- ``WIFI:`` (``T:WPA;S:ssid;P:password;H:true;;``, the form ZXing's readers introduced and the Wi-Fi
  Alliance's Easy Connect specification took up): its fields are text (a network's name may be a URL put
  there to be read);
- ``SMSTO:number:message`` (and ``MMSTO:``): the message is text;
- ``BEGIN:VCARD`` (RFC 6350, and vCard 2.1 and 3 as phones write them): ``URL`` (and ``SOURCE``, ``PHOTO``,
  ``LOGO``) is a URI, ``EMAIL`` an address, every other property's value text.

A stretch is text to scan (``uri=False``) or one URI as written (``uri=True``: a scheme-less host name is
still one, as a phone opens it); ``start`` is where it stands in the payload, None where it was unescaped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from ...uri import patterns


class Stretch(NamedTuple):
    """A piece of a payload: its text, where it starts in the payload (None: unescaped, so its offsets are
    not the payload's), the field it is (None for the payload itself), and whether it is one URI or an address."""

    text: str
    start: int | None
    field: str | None
    uri: bool = False
    address: bool = False


#: a field of MECARD, MATMSG and WIFI: a name, ':', a value up to an unescaped ';'
_FIELD = patterns.compile(r"([A-Za-z-]{1,32}):((?:[^;\\]|\\.)*+)(?:;|$)", re.DOTALL)
_ESCAPE = patterns.compile(r"\\(.)", re.DOTALL)
#: the vCard properties whose value is a URI, and those that are an address
_CARD_URIS = frozenset({"URL", "SOURCE", "PHOTO", "LOGO", "IMPP"})
_CARD_ADDRESSES = frozenset({"EMAIL"})
_FORM_URIS = frozenset({"URL"})
_FORM_ADDRESSES = frozenset({"EMAIL", "TO"})
#: a vCard's content line: its name (after a group), parameters, value (RFC 6350 §3.3)
_CARD_LINE = patterns.compile(r"(?:[A-Za-z0-9-]{1,64}\.)?([A-Za-z0-9-]{1,64})(?:;[^:\r\n]{0,500})?:(.*)")


def stretches(payload: str) -> Iterator[Stretch]:
    """The stretches of ``payload`` to read (see the module doc), in order."""
    head = payload[:8].upper()
    if head.startswith("URLTO:"):
        value = payload[6:]
        yield Stretch(value.strip(), 6 + len(value) - len(value.lstrip()), "URLTO", uri=True)
    elif head.startswith(("MECARD:", "MATMSG:", "WIFI:")):
        form = payload[:payload.index(":")].upper()
        yield from _fields(payload, len(form) + 1, form)
    elif head.startswith(("SMSTO:", "MMSTO:")):
        colon = payload.find(":", 6)
        if colon != -1:
            yield Stretch(payload[colon + 1:], colon + 1, payload[:5].upper())
    elif head.startswith("BEGIN:VC") and payload[:11].upper() == "BEGIN:VCARD":
        yield from _card(payload)
    else:
        yield Stretch(payload, 0, None)


def _fields(payload: str, at: int, form: str) -> Iterator[Stretch]:
    for m in _FIELD.finditer(payload, at):
        name, raw = m.group(1).upper(), m.group(2)
        if not raw:
            continue
        value = _ESCAPE.sub(r"\1", raw)
        start = m.start(2) if value == raw else None
        lead = len(value) - len(value.lstrip())
        yield Stretch(value.strip(), None if start is None else start + lead, f"{form}:{name}",
                      uri=name in _FORM_URIS, address=name in _FORM_ADDRESSES)


def _card(payload: str) -> Iterator[Stretch]:
    """The properties of a vCard, each line on its own (a folded line, RFC 6350 §3.2, is unfolded: its
    offsets are then not the payload's)."""
    lines: list[tuple[str, int, bool]] = []
    at = 0
    for raw in payload.splitlines(keepends=True):
        line = raw.rstrip("\r\n")
        if line[:1] in (" ", "\t") and lines:
            text, start, _ = lines[-1]
            lines[-1] = (text + line[1:], start, True)
        else:
            lines.append((line, at, False))
        at += len(raw)
    for line, start, folded in lines:
        m = _CARD_LINE.match(line)
        if m is None:
            continue
        name, value = m.group(1).upper(), m.group(2)
        if name in ("BEGIN", "END", "VERSION") or not value.strip():
            continue
        lead = len(value) - len(value.lstrip())
        place = None if folded else start + m.start(2) + lead
        if name in _CARD_URIS or name in _CARD_ADDRESSES:
            yield Stretch(value.strip(), place, f"VCARD:{name}", uri=name in _CARD_URIS,
                          address=name in _CARD_ADDRESSES)
        else:
            unescaped = value.replace("\\n", "\n").replace("\\N", "\n").replace("\\,", ",").replace("\\;", ";")
            yield Stretch(unescaped.strip(), place if unescaped == value else None, f"VCARD:{name}")


__all__ = ["Stretch", "stretches"]
