"""The scan's events: the content it routes to a reader, the
tally that ends each unit of work, and a batch of output a worker process
already wrote out."""

from __future__ import annotations

import io
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, BinaryIO, Literal

from . import Charset, Defect, Flag, Kind, Origin

if TYPE_CHECKING:  # hints only: the vocabulary imports nothing of the core (nor the email package) at run time
    from email.message import Message

    from typing_extensions import TypeIs  # (typing's own from Python 3.13)

    from ..stages.base import BaseLayer
    from ..stages.containment import Budget


def is_message(body: object) -> TypeIs[Message]:
    """Whether ``body`` is a parsed message (``email.message.Message``),
    without importing the email package: nothing can be a Message before
    that package is loaded, and a run that reads no mail never loads it
    (15 ms of a command's start)."""
    module = sys.modules.get("email.message")
    return module is not None and isinstance(body, module.Message)


@dataclass(frozen=True, slots=True)
class Content:
    """One piece of content for the scan to route to its reader by ``kind``:
    an input, or what a reader found nested in one (a MIME part, a WARC
    payload, a file uuencoded in a text part).

    ``body`` is a byte stream, bytes or text already decoded (then
    ``decoding`` says how); ``layer`` the bases in force around it;
    ``declared`` the charset its container declares; ``flags`` are added to
    every record found in it; ``placed`` where its text stands in the
    message around it (text output's location); ``points_to`` names the part of the message
    around it that a target points to (mail, RFC 2392 / RFC 2557 §8);
    ``budget`` the account of the document it belongs to (None until the
    scan routes it: a reader hands its own on to content that is part of
    the same document, a feed's HTML, and the scan gives any other a fresh
    one; ARCHITECTURE.md, Budgets); ``inflated`` that the body's bytes are inflated out of
    compressed ones as they are read (a compressed input, a payload's
    content or transfer coding): each counts against the budget's bytes.
    """

    body: BinaryIO | bytes | str | Message
    kind: Kind
    origin: Origin
    layer: BaseLayer
    declared: str | None = None
    decoding: Charset | None = None
    sniffed: bool = False  # ``kind`` was sniffed rather than asked for
    live: bool = False  # a pipe or terminal: scanned line by line as it arrives
    flags: tuple[Flag, ...] = ()
    points_to: Callable[[str], str | None | Literal[False]] | None = None
    # where a (line, column) of this content's text stands in the message or record around it, as
    # written in the file (for Record.in_file); None where it does not stand there as written
    placed: Callable[[int, int], tuple[int, int]] | None = None
    budget: Budget | None = None
    # where this content's text starts in the decoded text around it (character offset, line, column):
    # its records' spans, lines and columns are moved there, the document's own (raw HTML in Markdown)
    at: tuple[int, int, int] | None = None
    # the line (of the content around it) of the element whose text this document is (a feed's
    # <description>, an Atom type="html" element): the text is unescaped, so the document's own lines
    # and columns are not the file's; its records are given this line, and no column or span
    held: int | None = None
    inflated: bool = False
    # the documents of an input that holds many, read by their index, to read of it (a PST's messages
    # [first, end): one unit's share, planned by urisift.pipeline.plan); None: all of them
    documents: tuple[int, int] | None = None
    # a PDF page's image: the 1-based page it is drawn on (its records' ``page``)
    page: int | None = None

    def stream(self) -> BinaryIO:
        """The body as a byte stream (mail and archives are bytes: a body
        handed in as text is taken as its UTF-8)."""
        body = self.body
        if is_message(body):
            raise TypeError("a parsed message is content of kind mail only")
        if isinstance(body, str):
            body = body.encode("utf-8")
        return io.BytesIO(body) if isinstance(body, bytes) else body


@dataclass(slots=True)
class Tally:
    """What the scan of one unit of work read, counted as it went: the last
    item of every unit's stream (``--stats`` adds them up; the pool
    renumbers an mbox range's messages by them).  Nothing is read twice to
    count it.

    ``stored`` is the bytes as read from the input (compressed, if it is);
    ``decoded`` the bytes after decompression (``None``: not known, e.g. a
    ``.warc.gz`` read record by record).
    """

    inputs: int = 0
    messages: int = 0
    parts: int = 0
    lines: int = 0  # an mbox's line breaks (a range's: the ranges after it number their lines on)
    warc_types: Counter[str] = field(default_factory=Counter)
    stored: int = 0
    decoded: int | None = 0
    size: int = 0  # the bytes of the unit, as planned (for a progress bar)
    # the kinds of content read, nested ones too ("html" for a mail's HTML part): the options
    # that apply to none of them are said to be unused at the end of a run
    kinds: set[str] = field(default_factory=set)

    def add(self, other: Tally) -> None:
        self.inputs += other.inputs
        self.messages += other.messages
        self.lines += other.lines
        self.parts += other.parts
        self.warc_types.update(other.warc_types)
        self.stored += other.stored
        self.decoded = None if self.decoded is None or other.decoded is None else self.decoded + other.decoded
        self.size += other.size
        self.kinds |= other.kinds


@dataclass(frozen=True, slots=True)
class Rendered:
    """A batch of a unit's output already written out in the output format
    (by a worker process: text is cheaper to send between processes than
    records), and the defects among it, for standard error and the exit
    status."""

    text: str
    defects: tuple[Defect, ...]
