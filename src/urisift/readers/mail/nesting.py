"""A message's nesting checked before the email package parses it.

The stdlib parser (``email.feedparser``) recurses once per level of MIME
nesting: each part of a ``multipart/*`` (RFC 2046 §5.1) and the message
inside a ``message/*`` entity (RFC 2046 §5.2) is parsed by a nested
generator.  About a thousand levels -- a few kilobytes of hostile mail --
raise ``RecursionError`` inside it, and before that every line is checked
against the boundary of every open level (time that grows with the depth
times the length).  RFC 2046 sets no limit on nesting; this module sets one.

:func:`checked_parse` is the one entry point: it parses a message as
``email.message_from_bytes(data, policy=compat32)`` does, but

1. counts, in one pass, what could make the nesting deep: each level needs a
   ``boundary`` parameter or a ``message/*`` type in the text (a
   ``multipart/digest`` part is ``message/rfc822`` by default, RFC 2046
   §5.1.5, hence two levels for each boundary).  Almost every message is
   below the limit by that count and goes straight to the parser;
2. otherwise follows the parser's own reading of the message -- header
   blocks, boundary lines as the parser matches them, its defaults -- without
   recursing, and where an entity below :data:`MAX_DEPTH` levels would open
   another level, gives it ``Content-Type: text/plain`` instead: the parser
   then reads everything nested in it as the text of one part, in which the
   scanner still finds every link, and the levels around it as they are.
   One ``deep-nesting`` defect says where;
3. catches ``RecursionError`` all the same (the parser recursing where this
   reading did not foresee it): then the message's heading is parsed alone
   and its whole body read as text, with a ``deep-nesting`` defect.

Before the parser sees a message, the fields of its own heading that no step
of urisift reads (:data:`UNREAD_FIELDS`: trace, signatures, addresses) are
taken out: the parser's cost is in heading lines, and on a mail archive these
are two thirds of them.  What it makes of the rest is unchanged.

Linear: one pass over the lines, each line re-read at most once per level
it closes (at most :data:`MAX_DEPTH`).
"""

from __future__ import annotations

import re
from email.errors import MessageError
from email.feedparser import BytesFeedParser
from email.message import Message
from email.parser import BytesHeaderParser
from email.policy import compat32
from itertools import groupby

from ...model import Defect, DefectKind, Origin
from ...uri import patterns
from .headers import MAX_PARAMETERS_LENGTH
from .reading import KEPT_PARAMETERS, MAX_DEPTH, Reshaped, reshaped, short_content_type
from .single_part import plain_parse

# the rest of a field: its line and the folded lines after it
_FIELD_REST = patterns.compile(rb"[^\r\n]*+(?>(?:(?:\r\n?+|\n)[ \t][^\r\n]*+)*)")
# The lines the parser reads as the heading: each a field's first line or a
# folded one (its headerRE, but "From ", after which nothing is dropped).
_HEADING_LINES = patterns.compile(rb"(?>(?:(?:[\x21-\x39\x3b-\x7e]*+:|[\t ])[^\n]*+\n)*)")
#: fields of a message's own heading that no step of urisift reads (none
#: holds a reference :mod:`.header_uris` reports): the trace and signature
#: fields relays add, the addresses, the date and the thread's references
#: (RFC 5322 §3.6.1-3.6.4, §3.6.7; RFC 6376; RFC 8601; RFC 8617; RFC 2045
#: §4).  On an archive they are two thirds of the heading lines; the parser
#: is spared them.
UNREAD_FIELDS = ("Received", "X-Received", "Return-Path", "Delivered-To", "DKIM-Signature",
                 "X-Google-DKIM-Signature", "DomainKey-Signature", "Authentication-Results", "Received-SPF",
                 "ARC-Seal", "ARC-Message-Signature", "ARC-Authentication-Results", "References", "In-Reply-To",
                 "From", "To", "Cc", "Bcc", "Reply-To", "Mail-Followup-To", "Sender", "Date", "MIME-Version",
                 "Precedence", "Errors-To", "Importance", "User-Agent", "X-Priority", "X-MSMail-Priority",
                 "X-MimeOLE")
# one of them with its folded lines: from the line break before it to the
# one that ends its last line; at the start, with the line break after it
# (grouped by first letter: a line that starts none is passed over at its first letter)
_UNREAD_NAMES = b"|".join(
    re.escape(first).encode() + b"(?:" + b"|".join(re.escape(name[1:]).encode() for name in names) + b")"
    for first, names in groupby(sorted({name.lower() for name in UNREAD_FIELDS}, key=lambda n: (n[0], -len(n))),
                                key=lambda n: n[0]))
_UNREAD_FIELD = patterns.compile(rb"\n(?i:" + _UNREAD_NAMES + rb"):[^\n]*+(?>(?:\n[\t ][^\n]*+)*)(?=\n)")
_FIRST_UNREAD_FIELD = patterns.compile(rb"(?i:" + _UNREAD_NAMES + rb"):[^\n]*+(?>(?:\n[\t ][^\n]*+)*)\n")


def checked_parse(data: bytes, origin: Origin) -> tuple[Message, list[Defect]]:
    """The message in ``data`` as ``email.message_from_bytes(data,
    policy=compat32)`` parses it, less the fields of its own heading that
    nothing reads (:func:`without_unread_fields`), and the defects met doing
    so; never raises.

    A message nested deeper than :data:`MAX_DEPTH` levels comes back with
    its deepest containers turned into ``text/plain`` parts (their content,
    nested parts and all, is that part's text) and one ``deep-nesting``
    defect whose position is the byte offset in ``data`` of the first one.
    A Content-Type field longer than
    :data:`~urisift.readers.mail.headers.MAX_PARAMETERS_LENGTH` keeps only its type
    and :data:`KEPT_PARAMETERS` (the email package's parameter parser is
    quadratic), with a ``broken-mime`` defect.  Should the parser fail all
    the same (``RecursionError`` past this reading, a codec error on an
    RFC 2231 parameter), the heading is parsed alone and the whole body is
    one text part, with a defect saying so.  ``origin`` is the message's
    (the defects' origin).
    """
    defects: list[Defect] = []
    try:
        return _parsed(data, origin, defects), defects
    except RecursionError:
        # a depth this module's reading did not foresee
        problem = Defect(DefectKind.DEEP_NESTING, "the MIME parser ran out of stack on this message's nesting: "
                         "its heading was read, and its whole body as text", origin, None)
    except (ValueError, LookupError, UnicodeError, MessageError) as exc:
        # the parser reads RFC 2231 parameters with Python's codecs: a
        # boundary*=a\x00''x raises ValueError out of it
        problem = Defect(DefectKind.BROKEN_MIME, f"the MIME parser failed on this message ({type(exc).__name__}: "
                         f"{exc}): its heading was read, and its whole body as text", origin, None)
    # the heading alone is parsed (no recursion, no parameters), the body is one text part
    message = BytesHeaderParser(policy=compat32).parsebytes(data)
    if message.get("Content-Type") is not None:
        message.replace_header("Content-Type", "text/plain")
    return message, [problem]


def _parsed(data: bytes, origin: Origin, defects: list[Defect]) -> Message:
    """The parse of :func:`checked_parse`, its defects added to ``defects``."""
    # the fields no step reads go first, and the nesting is counted on the
    # rest: they hold none of the MIME structure (no Content-Type goes)
    kept = without_unread_fields(data)
    if not _needs_reading(kept):
        # a plain single-part message is built without the feedparser (its lines
        # cost half a mail scan); any other is the parser's
        plain = plain_parse(kept)
        return plain if plain is not None else _from_bytes(kept)
    shaped = reshaped(data)  # the message itself, whose offsets the defects name
    for position, length in shaped.shortened:
        defects.append(Defect(DefectKind.BROKEN_MIME,
                              f"a Content-Type value of {length} characters (more than "
                              f"{MAX_PARAMETERS_LENGTH}): only its type and its {', '.join(KEPT_PARAMETERS)} "
                              "parameters were read", origin, position))
    if shaped.cuts:
        first = shaped.cuts[0]
        more = f"; {len(shaped.cuts) - 1} more entities read the same way" if len(shaped.cuts) > 1 else ""
        defects.append(Defect(
            DefectKind.DEEP_NESTING,
            f"MIME entities nested more than {MAX_DEPTH} levels deep: the {first.content_type} at level "
            f"{first.depth} was read as text/plain, with all it holds, so its links are still found "
            f"but not its parts' own bases{more}", origin, first.position))
    return _from_bytes(without_unread_fields(shaped.data))


#: the bytes fed to the parser at a time: what ``email.parser.Parser`` reads at a time
_FEED = 8192


def _from_bytes(data: bytes) -> Message:
    """``email.message_from_bytes(data, policy=compat32)``, the bytes fed to
    its feedparser a piece at a time, as that function feeds the pieces of
    the text it decodes them to: the same message, without the whole text
    held in a ``StringIO``, whose buffer is four bytes a character (a
    50 MB message held 200 MB there)."""
    parser = BytesFeedParser(policy=compat32)
    view = memoryview(data)
    for at in range(0, len(data), _FEED):
        parser.feed(bytes(view[at:at + _FEED]))
    return parser.close()


def without_unread_fields(data: bytes) -> bytes:
    """``data`` without the fields of :data:`UNREAD_FIELDS` in its own heading
    (names in any case, as the parser compares them): what the parser
    then makes of every other field, of the body and of its defects is what
    it makes of ``data``.  A field is taken with its folded lines.  The
    heading is left whole when a line in it ends in a lone CR (the parser's
    line ends, not this reading's) or when a line that begins "From " ends
    it (whose meaning there depends on the lines before and after it; no
    such line is inside it, being no field line), or when the input ends in
    a folded line without a line break (a field the heading cannot hold
    whole)."""
    end = _HEADING_LINES.match(data).end()  # type: ignore[union-attr]  # "*+" always matches
    # the heading is read where it stands (``endpos``), not copied: a heading of
    # 50 MB would be held three times over
    if (data.find(b"\r", 0, end) != -1 and data.count(b"\r", 0, end) != data.count(b"\r\n", 0, end)
            or data.startswith(b"From ", end)
            or data[end:end + 1] in (b"\t", b" ")):  # a folded line the input ends in, with no line break
        return data
    start = 0
    while (first := _FIRST_UNREAD_FIELD.match(data, start, end)) is not None:
        start = first.end()
    view = memoryview(data)
    kept: list[memoryview] = []
    at = start  # the fields before ``start`` go
    for field in _UNREAD_FIELD.finditer(data, start, end):
        kept.append(view[at:field.start()])
        at = field.end()
    if not start and not kept:
        return data
    kept.append(view[at:])  # the rest of the heading, and the body
    return b"".join(kept)


def _needs_reading(data: bytes) -> bool:
    """Whether ``data`` may nest deeper than :data:`MAX_DEPTH` or holds a
    Content-Type field too long to parse.  A level needs a ``boundary``
    (two levels: a multipart, and a digest part's default message/rfc822)
    or a ``message/`` (one) somewhere in the text (RFC 2046 §5.1.5, §5.2);
    counted on the lower-cased bytes, in C (a regex that ignores case tries
    every position: it took longer than the parse)."""
    lower = data.lower()
    if 2 * lower.count(b"boundary") + lower.count(b"message/") > MAX_DEPTH:
        return True
    if len(data) <= MAX_PARAMETERS_LENGTH:
        return False  # (no field is longer than the message)
    at = lower.find(b"content-type:")
    while at != -1:
        if not at or lower[at - 1] in b"\r\n":  # a field at a line start
            end = _FIELD_REST.match(data, at + 13).end()  # type: ignore[union-attr]  # "*+" always matches
            if end - at > MAX_PARAMETERS_LENGTH:
                return True
        at = lower.find(b"content-type:", at + 13)
    return False


__all__ = ["KEPT_PARAMETERS", "MAX_DEPTH", "Reshaped", "checked_parse", "reshaped", "short_content_type"]
