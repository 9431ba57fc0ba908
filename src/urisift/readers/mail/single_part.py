"""The email package's parse of a plain single-part message, made without
its feedparser.

The feedparser reads a message a line at a time in Python: its heading
lines are half of a mail scan's time.  For a message whose heading is plain
-- an optional ``From `` envelope line, then fields (RFC 5322 §2.2: a name
of printable characters but ``:``, a colon, folded lines after it) up to
the first blank line, every line ended by LF or CRLF -- and whose content
type is neither ``multipart`` nor ``message`` (so that the parser gives its
body whole as the payload, RFC 2046 §5), the same
:class:`~email.message.Message` is built here from two regular
expressions over the whole heading: the same fields in the same order,
each value as compat32's ``header_source_parse`` makes it, the same
envelope line, the same payload, no defects.  Anything else (a lone CR, a line that
is no field, a first line that is folded, a field without a name, no blank
line, structure to parse) is left to the parser: :func:`plain_parse` gives
None.
"""

from __future__ import annotations

import re
from email.message import Message
from email.policy import compat32

from ...uri import patterns

# the end of the heading: a line break, then a blank line (LF or CRLF)
_HEADING_END = patterns.compile(r"\n\r?\n")
# a plain heading, whole: the envelope line, then fields with their folded lines
# (the feedparser's header line, email.feedparser.headerRE, less its odd cases)
_PLAIN_HEADING = patterns.compile(r"(?>(?:From [^\n]*+\n)?)"
                                  r"(?>(?:[\041-\071\073-\176]++:[^\n]*+\n(?>(?:[\t ][^\n]*+\n)*))*)")
# one field: its name, and its value as compat32 keeps it before the line end is cut
_FIELD = patterns.compile(r"^([\041-\071\073-\176]++):[ \t]*+([^\n]*+\n(?>(?:[\t ][^\n]*+\n)*))", re.MULTILINE)
_STRUCTURED = frozenset({"multipart", "message"})


def plain_parse(data: bytes) -> Message | None:
    """``email.message_from_bytes(data, policy=compat32)`` for a plain
    single-part message, or None when ``data`` is not one (see the module doc)."""
    text = data.decode("ascii", "surrogateescape")  # as BytesParser reads bytes
    end = _HEADING_END.search(text)
    if end is None:
        return None
    # the heading is read where it stands in ``text`` (its end as ``endpos``), and each
    # value is cut out once: a field of 50 MB is not copied three times over
    stop = end.start() + 1
    if text.find("\r", 0, stop) != -1 and text.count("\r", 0, stop) != text.count("\r\n", 0, stop):
        return None  # a lone CR ends a line for the parser, not for these patterns
    if _PLAIN_HEADING.fullmatch(text, 0, stop) is None:
        return None
    message = Message(policy=compat32)
    if text.startswith("From "):
        message.set_unixfrom(text[:text.index("\n")].rstrip("\r"))
    for field in _FIELD.finditer(text, 0, stop):
        # compat32.header_source_parse: the first line's leading blanks go, the line end of the last
        value_start, value_end = field.span(2)
        while value_end > value_start and text[value_end - 1] in "\r\n":
            value_end -= 1
        message.set_raw(field.group(1), text[value_start:value_end])
    if message.get_content_maintype() in _STRUCTURED:
        return None
    message.set_payload(text[end.end():])
    return message
