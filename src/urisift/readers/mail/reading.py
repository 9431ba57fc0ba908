"""The email package's own reading of a message, followed without
recursing (hostile nesting exhausts the parser's own recursion): header
blocks, boundary lines as its feedparser matches them, its defaults
(RFC 2046 §5.1.5: a digest's parts are message/rfc822), level by level on a stack of its own.  Where an entity
at :data:`MAX_DEPTH` would open another level, it is given
``Content-Type: text/plain`` instead, so that the parser then reads what it
holds as the text of one part; a Content-Type too long for the parser's
quadratic parameter reading keeps only :data:`KEPT_PARAMETERS`.
:func:`~urisift.readers.mail.nesting.checked_parse` uses it.
"""

from __future__ import annotations

import io
import re
from email.message import Message
from itertools import accumulate
from typing import NamedTuple

from ...uri import patterns
from .headers import MAX_PARAMETERS_LENGTH

#: levels below the message that are parsed as MIME structure; an entity at
#: this depth is read as text if it would open another level.  The walk
#: stops at the same depth, so nothing parsed goes unwalked.
MAX_DEPTH = 64

# the parser's own patterns (email.feedparser): a header line, a line break
_HEADER_LINE = patterns.compile(r"^(From |[\041-\071\073-\176]*:|[\t ])")
_LINE_BREAK = patterns.compile(r"\r\n|\r|\n")
# a Content-Type parameter, its value quoted or not (RFC 2045 §5.1); possessive,
# and a quote left open fails only its own match: linear
_PARAMETER = patterns.compile(r';\s*+([A-Za-z0-9_.-]++)\s*+=\s*+("(?>(?:[^"\\]|\\.)*)"|[^;\s"]*+)')
#: the parameters a Content-Type too long to parse keeps: the ones the parser
#: (boundary) and urisift (charset, format, delsp) read
KEPT_PARAMETERS = ("boundary", "charset", "format", "delsp")


class Cut(NamedTuple):
    """An entity read as text rather than as the structure it declares."""

    position: int  # byte offset in the message of its Content-Type header (or where one was put)
    content_type: str  # what it declared (lower case)
    depth: int  # levels below the message


class Reshaped(NamedTuple):
    """A message made safe to parse: its bytes, the entities cut to text,
    and the (position, length) of each Content-Type field shortened."""

    data: bytes
    cuts: list[Cut]
    shortened: list[tuple[int, int]]


def reshaped(data: bytes, limit: int = MAX_DEPTH) -> Reshaped:
    """``data`` with the entities that would nest deeper than ``limit`` made
    ``text/plain``, and overlong Content-Type fields shortened (see
    :func:`checked_parse`); ``data`` itself when there is nothing to change."""
    text = data.decode("ascii", "surrogateescape")  # as email.message_from_bytes reads it: a byte a character
    reading = _Reading(text, limit)
    reading.run()
    if not reading.edits:
        return Reshaped(data, [], [])
    out = []
    last = 0
    for start, end, replacement in reading.edits:
        out.append(text[last:start])
        out.append(replacement)
        last = end
    out.append(text[last:])
    return Reshaped("".join(out).encode("ascii", "surrogateescape"), reading.cuts, reading.shortened)


def short_content_type(value: str) -> str:
    """A Content-Type value reduced to its type and the first of each of
    :data:`KEPT_PARAMETERS`, as written."""
    kept: dict[str, str] = {}
    for m in _PARAMETER.finditer(value):
        name = m.group(1).lower()
        if name in KEPT_PARAMETERS and name not in kept:
            kept[name] = m.group(2)
            if len(kept) == len(KEPT_PARAMETERS):
                break
    return value.partition(";")[0].strip() + "".join(f"; {name}={kept[name]}" for name in KEPT_PARAMETERS
                                                        if name in kept)


# the states of one entity being read, as email.feedparser's _parsegen goes
_HEADING, _BODY, _DONE, _MULTIPART, _AFTER_PART, _EPILOGUE, _STATUS, _AFTER_STATUS = range(8)


class _Entity:
    """One level of the parser's recursion: an entity being read."""

    __slots__ = ("depth", "default", "state", "content_type", "boundary", "separator", "preamble")

    def __init__(self, depth: int, default: str) -> None:
        self.depth = depth
        self.default = default  # its content type when it declares none
        self.state = _HEADING
        self.content_type = default
        self.boundary: str | None = None
        self.separator: re.Pattern[str] | None = None
        self.preamble = True


class _Reading:
    """The parser's reading of a message, level by level on a stack of its
    own (see the module doc), with the cuts it makes at ``limit``."""

    def __init__(self, text: str, limit: int) -> None:
        # lines as the parser splits them: at CR LF, CR or LF, kept at the line's end
        self.lines = io.StringIO(text, newline="").readlines()
        self.offsets = list(accumulate(map(len, self.lines), initial=0))
        self.limit = limit
        self.next = 0
        self.pushed_back: list[int] = []  # lines read again first (the last one next)
        self.open_boundaries: dict[str, int] = {}  # boundaries that end the entity being read
        self.blank_ends = 0  # inside message/delivery-status a blank line ends each block
        self.cuts: list[Cut] = []
        self.shortened: list[tuple[int, int]] = []
        self.edits: list[tuple[int, int, str]] = []  # (start, end, replacement) in order
        self.entities: list[tuple[int, str]] = []  # (depth, content type) of each entity read, in order

    # -- the parser's input: lines, some of which end the entity being read --

    def _ends(self, line: str) -> bool:
        """Whether ``line`` is a boundary of an enclosing multipart (or a
        blank line inside message/delivery-status): the parser's false EOF.
        A boundary line is "--" boundary ["--"] [spaces] (RFC 2046 §5.1.1);
        boundaries never end in white space (the parser strips it), so
        stripping the line's own leaves the two forms to look up."""
        if self.blank_ends and line[:1] in ("\r", "\n"):
            return True
        if not self.open_boundaries or not line.startswith("--"):
            return False
        body = line.rstrip("\r\n").rstrip(" \t")
        return body[2:] in self.open_boundaries or (body.endswith("--") and body[2:-2] in self.open_boundaries)

    def _read(self) -> int | None:
        """The index of the next line; None at the end of the input or of the entity."""
        if self.pushed_back:
            index = self.pushed_back.pop()
        elif self.next < len(self.lines):
            index = self.next
            self.next += 1
        else:
            return None
        if self._ends(self.lines[index]):
            self.pushed_back.append(index)
            return None
        return index

    def _peek(self) -> int:
        return self.pushed_back[-1] if self.pushed_back else self.next

    # -- the walk --

    def run(self) -> None:
        stack = [_Entity(0, "text/plain")]
        while stack:
            entity = stack[-1]
            state = entity.state
            if state == _HEADING:
                child = self._heading(entity)
                if child is not None:
                    stack.append(child)
            elif state in (_BODY, _EPILOGUE):
                while self._read() is not None:
                    pass
                stack.pop()
            elif state == _DONE:
                stack.pop()
            elif state in (_MULTIPART, _AFTER_PART):
                if state == _AFTER_PART:
                    self._close_boundary(entity)
                child = self._multipart(entity)
                if child is None:
                    stack.pop()
                else:
                    stack.append(child)
            elif state == _STATUS:
                # RFC 3464 §2.1: blocks of fields separated by blank lines
                self.blank_ends += 1
                entity.state = _AFTER_STATUS
                stack.append(_Entity(entity.depth + 1, "text/plain"))
            else:  # _AFTER_STATUS
                self.blank_ends -= 1
                self._read()  # the blank line
                index = self._read()
                if index is None:
                    stack.pop()
                else:
                    self.pushed_back.append(index)
                    entity.state = _STATUS

    def _heading(self, entity: _Entity) -> _Entity | None:
        """Read an entity's heading; decide how its body is read; the entity
        nested in it to read first, if any."""
        start = self._peek()
        heading: list[int] = []
        while True:
            index = self._read()
            if index is None:
                break
            line = self.lines[index]
            if not _HEADER_LINE.match(line):
                if not _LINE_BREAK.match(line):
                    self.pushed_back.append(index)  # no blank line before the body: the parser reads it as body
                break
            heading.append(index)
        found = self._content_type(heading)
        short = None
        if found is not None and len(found[0]) > MAX_PARAMETERS_LENGTH:
            short = short_content_type(found[0])
            self.shortened.append((self.offsets[found[1]], len(found[0])))
            found = (short, found[1], found[2])
        probe = Message()
        probe.set_default_type(entity.default)
        if found is not None:
            probe.set_raw("Content-Type", found[0])
        content_type = probe.get_content_type()
        entity.content_type = content_type
        self.entities.append((entity.depth, content_type))
        maintype = content_type.partition("/")[0]
        boundary = probe.get_boundary() if maintype == "multipart" else None
        if (maintype == "message" or boundary is not None) and entity.depth >= self.limit:
            if short is not None:
                self.shortened.pop()  # the field goes whole
            self._cut(entity, heading, found, start)
            entity.state = _BODY
            return None
        if short is not None:
            assert found is not None
            self._replace(found[1], found[2], "Content-Type: " + short)
        if content_type == "message/delivery-status":
            entity.state = _STATUS
            return None
        if maintype == "message":
            entity.state = _DONE
            return _Entity(entity.depth + 1, "text/plain")
        if boundary is None:
            entity.state = _BODY  # a multipart without a boundary is read as one body, as the parser does
            return None
        entity.boundary = boundary
        entity.separator = patterns.compile("(?P<sep>" + re.escape("--" + boundary)
                                            + r")(?P<end>--)?[ \t]*(?:\r\n|\r|\n)?$")
        entity.state = _MULTIPART
        return None

    def _content_type(self, heading: list[int]) -> tuple[str, int, int] | None:
        """The first Content-Type field of a heading as the parser reads it
        (value, index of its first and last line); a ``From `` line that ends
        the heading is put back, as the parser does."""
        lines = self.lines
        found: tuple[str, int, int] | None = None
        current: list[int] = []  # the field being read: its lines
        for number, index in enumerate(heading):
            line = lines[index]
            if line[0] in " \t":
                if current:
                    current.append(index)
                continue
            if current and found is None:
                found = self._field(current)
            current = []
            if line.startswith("From "):
                if number == len(heading) - 1 and number:
                    self.pushed_back.append(index)
                    break
                continue
            if line.find(":") > 0:
                current = [index]
        if current and found is None:
            found = self._field(current)
        return found

    def _field(self, indexes: list[int]) -> tuple[str, int, int] | None:
        first = self.lines[indexes[0]]
        name, _, value = first.partition(":")
        if name.lower() != "content-type":
            return None
        value = value.lstrip(" \t") + "".join(self.lines[i] for i in indexes[1:])
        return value.rstrip("\r\n"), indexes[0], indexes[-1]

    def _cut(self, entity: _Entity, heading: list[int], found: tuple[str, int, int] | None, start: int) -> None:
        """Make the entity text/plain: its Content-Type field replaced, or
        one put at the top of its heading (a digest part's default type)."""
        lines, offsets = self.lines, self.offsets
        if found is not None:
            edit = self._replace(found[1], found[2], "Content-Type: text/plain")
        else:
            at = start
            if heading and heading[0] == start and lines[start].startswith("From "):
                at += 1  # after an envelope line (the parser reads it as such only first in a heading)
            before = lines[at - 1] if at else ""
            line_break = before[len(before.rstrip("\r\n")):] or "\n"
            edit = (offsets[at], offsets[at], "Content-Type: text/plain" + line_break)
            self.edits.append(edit)
        self.cuts.append(Cut(edit[0], entity.content_type, entity.depth))

    def _replace(self, first: int, last: int, field: str) -> tuple[int, int, str]:
        """Put ``field`` in place of lines ``first`` to ``last`` (one field), with the last one's line break."""
        lines, offsets = self.lines, self.offsets
        edit = (offsets[first], offsets[last + 1], field + lines[last][len(lines[last].rstrip("\r\n")):])
        self.edits.append(edit)
        return edit

    def _multipart(self, entity: _Entity) -> _Entity | None:
        """Read a multipart's lines up to its next part (returned) or its end (None)."""
        separator = entity.separator
        assert separator is not None and entity.boundary is not None
        while True:
            index = self._read()
            if index is None:
                return None  # the end of the input, or of an enclosing part, before the closing boundary
            m = separator.match(self.lines[index])
            if m is None:
                continue  # the preamble (RFC 2046 §5.1.1)
            if m.group("end"):
                entity.state = _EPILOGUE
                return None
            if entity.preamble:
                entity.preamble = False
            # the parser skips any boundary lines that follow this one
            while True:
                index = self._read()
                if index is None:
                    break
                if separator.match(self.lines[index]) is None:
                    self.pushed_back.append(index)
                    break
            self.open_boundaries[entity.boundary] = self.open_boundaries.get(entity.boundary, 0) + 1
            entity.state = _AFTER_PART
            digest = entity.content_type == "multipart/digest"
            return _Entity(entity.depth + 1, "message/rfc822" if digest else "text/plain")

    def _close_boundary(self, entity: _Entity) -> None:
        assert entity.boundary is not None
        count = self.open_boundaries[entity.boundary] - 1
        if count:
            self.open_boundaries[entity.boundary] = count
        else:
            del self.open_boundaries[entity.boundary]
