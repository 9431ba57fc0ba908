"""The MIME walk: every leaf part of a message, with the bases its headings
set in force (seed 001 §5.1.2; RFC 2110; RFC 2557; DESIGN §4).

Each entity's heading may set a base (``Content-Base``, else
``Content-Location``), resolved against the base of the entity around it;
inner parts inherit it, through ``multipart/*`` and ``message/rfc822`` (a
forwarded message is an entity with its own heading and base).  The walk
pushes a layer on the :class:`~urisift.base.BaseStack` for each heading and
pops it on the way out, so while a part is being scanned the stack holds
exactly the layers around it: the caller scans each part before the walk
goes on.

Part paths are IMAP's (RFC 3501 §6.4.5): a message's body parts are ``1``,
``2``, ...; the parts of a ``multipart`` at ``2`` are ``2.1``, ``2.2``; a
single-part message's body is ``1``; the body of a message attached at
``3`` is ``3.1`` (or its parts ``3.1``, ``3.2``).
"""

from __future__ import annotations

from collections.abc import Iterator
from email.message import Message
from typing import NamedTuple

from ..base import BaseStack
from ..model import BaseSource, Defect, DefectKind, Origin
from .headers import content_type as content_type_of
from .headers import heading_base

_SOURCES = {"Content-Base": BaseSource.CONTENT_BASE, "Content-Location": BaseSource.CONTENT_LOCATION,
            "Snapshot-Content-Location": BaseSource.CONTENT_LOCATION}
#: RFC 2557 §5: inside multipart/related with no base at all, relative
#: references resolve against this, so that they can be matched to the parts
THIS_MESSAGE = "thismessage:/"
#: nesting deeper than this is not walked (a message bomb), and is reported
MAX_DEPTH = 64


class Heading(NamedTuple):
    """A message's heading (the top one, or an attached message's), yielded
    with its own base in force: its URI headers resolve against it."""

    path: str
    entity: Message


class Leaf(NamedTuple):
    """A part with content: its path, the entity, its content type (lower
    case) and its raw Content-Type value (None when absent)."""

    path: str
    entity: Message
    content_type: str
    raw_type: str | None = None


def _join(prefix: str, index: int) -> str:
    return f"{prefix}.{index}" if prefix else str(index)


def walk_message(message: Message, stack: BaseStack, origin: Origin) -> Iterator[Heading | Leaf | Defect]:
    """The leaves of ``message`` and the defects met on the way, in order;
    ``stack`` holds the layers around the part just yielded."""
    yield from _entity(message, "", stack, origin, 0, root=True)


def _entity(entity: Message, path: str, stack: BaseStack, origin: Origin, depth: int, *, root: bool
            ) -> Iterator[Heading | Leaf | Defect]:
    name, value = heading_base(entity)
    where = f"part {path}" if path else "the message heading"
    defect = stack.push(value, _SOURCES[name] if name else BaseSource.CONTENT_BASE,
                        f"{name} of {where}" if name else "")
    try:
        if defect is not None:
            yield defect
        if root:
            yield Heading(path, entity)
        for problem in getattr(entity, "defects", ()):
            yield Defect(DefectKind.BROKEN_MIME, f"{where}: {type(problem).__name__}: {problem}".rstrip(": "),
                         origin)
        content_type, raw_type = content_type_of(entity)
        if content_type == "multipart/related" and stack.current is None:
            stack.pop()
            stack.push(THIS_MESSAGE, BaseSource.DEFAULT, f"RFC 2557 §5, {where} is multipart/related with no base")
        if depth > MAX_DEPTH:
            yield Defect(DefectKind.BROKEN_MIME, f"{where}: nested more than {MAX_DEPTH} deep; not walked further",
                         origin)
            return
        if entity.is_multipart():
            children = entity.get_payload()
            assert isinstance(children, list)
            if content_type == "message/rfc822" or not content_type.startswith("multipart/"):
                # an attached message: its own heading, its body parts under this path
                for inner in children:
                    if isinstance(inner, Message):
                        yield from _entity(inner, path, stack, origin, depth + 1, root=True)
                return
            for index, child in enumerate(children, start=1):
                if isinstance(child, Message):
                    yield from _entity(child, _join(path, index), stack, origin, depth + 1, root=False)
            return
        yield Leaf(_join(path, 1) if root else path, entity, content_type, raw_type)
    finally:
        stack.pop()
