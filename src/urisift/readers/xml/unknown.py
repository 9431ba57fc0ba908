"""XML of a vocabulary urisift does not know: the URIs of its text, found by
the text scanner and named by the element they stand in, and its
attributes whose whole value is an absolute URI (RFC 3986 §4.3), each
resolved against the ``xml:base`` in force where it stands (the walk's
frame, XML Base §4.2)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ...model import Record
from ...stages.delimit import Scanner
from ...uri import patterns
from .vocabulary import ANY_ELEMENT, XML_BASE

if TYPE_CHECKING:
    from .walk import Frame, XmlWalk

_SPACE = " \t\r\n"
# an attribute whose whole value is an absolute URI: a hierarchical one ("scheme://"), or one of the schemes
# without "//" that name a resource on their own
_ABSOLUTE = patterns.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,31}+://[^\s]++|(?i:mailto|urn|tel|news|sip|sips|xmpp|geo|magnet"
                       r"|tag|doi|info|ni|cid|mid):[^\s/][^\s]*+")


def _names(element: Any) -> tuple[str, str]:
    """(namespace, local name) of an element or attribute's ``{namespace}local`` tag."""
    tag = element if isinstance(element, str) else element.tag
    if tag[:1] == "{":
        namespace, _, local = tag[1:].partition("}")
        return namespace, local
    return "", tag


def prose_records(walk: XmlWalk, run: str, parent: Any, frame: Frame, line: int | None,
                  backwards: bool) -> Iterator[Record]:
    """The URIs of a run of text whose element is ``parent``; the run ends
    on ``line`` (``backwards``) or starts on it (None: not known)."""
    if ":" not in run and "www." not in run and "ftp." not in run:
        return
    tag = parent.tag
    local = _names(tag)[1] if isinstance(tag, str) else ""
    place = walk.place(f"{parent.prefix}:{local}" if local and parent.prefix else local, None)
    for found in Scanner(run, abbreviated=walk.options.abbreviated, refang=walk.options.refang):
        assert found.start is not None
        at = None if line is None else (line - run.count("\n", found.start) if backwards
                                        else line + run.count("\n", 0, found.start))
        yield walk.tail(frame)(found._replace(start=None, end=None, place=place), None, at, None)


def absolute_records(walk: XmlWalk, element: Any, local: str, frame: Frame) -> Iterator[Record]:
    """An element's attributes whose whole value is an absolute URI (``xml:base`` is the base, not a link)."""
    name = f"{element.prefix}:{local}" if element.prefix else local
    for attribute, value in element.attrib.items():
        value = value.strip(_SPACE)
        if attribute != XML_BASE and _ABSOLUTE.fullmatch(value) is not None:
            namespace, attribute_local = _names(attribute)
            label = ANY_ELEMENT.get((namespace, attribute_local))
            if label is None:
                prefix = next((p for p, n in element.nsmap.items() if n == namespace and p), None) \
                    if namespace else None
                label = f"{prefix}:{attribute_local}" if prefix else attribute_local
            yield walk.record(frame, value, name, label, element.sourceline)


__all__ = ["absolute_records", "prose_records"]
