"""The MIME walk: every leaf part of a message, with the bases its headings
around it (url-syntax-05 §5.1.2; RFC 2110; RFC 2557; ARCHITECTURE.md, Base URIs).

Each entity's heading may set a base (``Content-Base``, else
``Content-Location``), resolved against the base of the entity around it;
inner parts inherit it, through ``multipart/*`` and ``message/rfc822`` (a
forwarded message is an entity with its own heading and base).  Each
heading adds a layer to the frozen chain of the entity around it
(:class:`~urisift.stages.base.BaseLayer`), and every heading and leaf is yielded
with its own chain: what is in force for a part does not depend on when,
or in which order, the parts are scanned.

Part paths are IMAP's (RFC 3501 §6.4.5): a message's body parts are ``1``,
``2``, ...; the parts of a ``multipart`` at ``2`` are ``2.1``, ``2.2``; a
single-part message's body is ``1``; the body of a message attached at
``3`` is ``3.1`` (or its parts ``3.1``, ``3.2``).
"""

from __future__ import annotations

from collections.abc import Iterator
from email import errors
from email.message import Message
from typing import NamedTuple

from ...model import BaseSource, Defect, DefectKind, Origin
from ...stages.base import BaseLayer
from .headers import content_type as content_type_of
from .headers import heading_base

#: what the email package says of a multipart it could not split (no boundary
#: line, or no boundary named): mail.parts reads its body as text and says so
_UNSPLIT = (errors.StartBoundaryNotFoundDefect, errors.MultipartInvariantViolationDefect,
            errors.NoBoundaryInMultipartDefect)
_SOURCES = {"Content-Base": BaseSource.CONTENT_BASE, "Content-Location": BaseSource.CONTENT_LOCATION,
            "Snapshot-Content-Location": BaseSource.CONTENT_LOCATION}
#: RFC 2557 §5: inside multipart/related with no base at all, relative
#: references resolve against this, so that they can be matched to the parts
THIS_MESSAGE = "thismessage:/"
#: nesting deeper than this is not walked (a message bomb), and is reported
MAX_DEPTH = 64


class Heading(NamedTuple):
    """A message's heading (the top one, or an attached message's), yielded
    with the chain of bases its own heading sets: its URI headers resolve
    against it."""

    path: str
    entity: Message
    layer: BaseLayer


class Leaf(NamedTuple):
    """A part with content: its path, the entity, its content type (lower
    case), its raw Content-Type value (None when absent), and the chain of
    bases around it (its own heading's layer on top)."""

    path: str
    entity: Message
    content_type: str
    raw_type: str | None
    layer: BaseLayer


def _join(prefix: str, index: int) -> str:
    return f"{prefix}.{index}" if prefix else str(index)


def walk_message(message: Message, layer: BaseLayer, origin: Origin) -> Iterator[Heading | Leaf | Defect]:
    """The headings and leaves of ``message`` and the defects met on the way,
    in document order; ``layer`` is the chain of bases around the message.

    Iterative (a list of entities still to visit), so that no nesting depth
    can exhaust Python's stack; past :data:`MAX_DEPTH` an entity is reported
    and not walked further."""
    # (entity, path, the chain around it, depth, whether it has a heading of its own)
    pending: list[tuple[Message, str, BaseLayer, int, bool]] = [(message, "", layer, 0, True)]
    while pending:
        entity, path, around, depth, root = pending.pop()
        name, value = heading_base(entity)
        where = f"part {path}" if path else "the message heading"
        source = _SOURCES[name] if name else BaseSource.CONTENT_BASE
        own, defect = around.push(value, source, f"{name} of {where}" if name else "", origin=origin,
                                  naming=source is not BaseSource.CONTENT_BASE)
        if defect is not None:
            yield defect
        if root:
            yield Heading(path, entity, own)
        content_type, raw_type = content_type_of(entity)
        unsplit = content_type.startswith("multipart/") and not entity.is_multipart()
        for problem in getattr(entity, "defects", ()):
            if unsplit and isinstance(problem, _UNSPLIT):
                continue  # a multipart the parser could not split: its body is read as text, and said so once
            yield Defect(DefectKind.BROKEN_MIME, f"{where}: {type(problem).__name__}: {problem}".rstrip(": "),
                         origin)
        if content_type == "multipart/related" and own.current is None:
            own, _ = around.push(THIS_MESSAGE, BaseSource.DEFAULT,
                                 f"RFC 2557 §5, {where} is multipart/related with no base", origin=origin)
        if depth > MAX_DEPTH:
            yield Defect(DefectKind.DEEP_NESTING, f"{where}: nested more than {MAX_DEPTH} deep; not walked further",
                         origin)
            continue
        if entity.is_multipart():
            children = entity.get_payload()
            assert isinstance(children, list)
            if content_type == "message/rfc822" or not content_type.startswith("multipart/"):
                # an attached message: its own heading, its body parts under this path
                inner = [(child, path, own, depth + 1, True) for child in children if isinstance(child, Message)]
            else:
                inner = [(child, _join(path, index), own, depth + 1, False)
                         for index, child in enumerate(children, start=1) if isinstance(child, Message)]
            pending.extend(reversed(inner))  # the first child is visited next
            continue
        yield Leaf(_join(path, 1) if root else path, entity, content_type, raw_type, own)
