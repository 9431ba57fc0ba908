"""Which part of a message a reference points to.

- RFC 2392: ``cid:<content-id>`` names the body part whose ``Content-ID``
  is that addr-spec; ``mid:<message-id>`` names a message, and
  ``mid:<message-id>/<content-id>`` a body part of it.  Both are
  percent-encoded in the URL and written between ``<…>`` in the header.
- RFC 2557 §8: a reference whose absolute form equals a part's
  ``Content-Location`` (resolved against the base around that part, as
  §5 says) names that part too, e.g. the images of a saved page.

A record then says which part it points to by its IMAP part path (see
:mod:`urisift.readers.mail.walk`); ``""`` is the whole message in which the
reference stands, when a ``mid:`` names it.  Only parts of the message the
reference stands in are matched: a ``mid:`` naming another message of an
archive is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from email.message import Message
from urllib.parse import unquote

from ...model import Origin
from ...stages.base import BaseLayer, absolute
from ...uri.errors import UriError
from .headers import base_value, decoded
from .walk import Heading, Leaf, walk_message


def _message_id(value: object) -> str | None:
    """A ``Content-ID`` or ``Message-ID`` as the addr-spec its URL names:
    the angle brackets and all white space removed."""
    text = "".join(decoded(str(value)).split())
    if text.startswith("<") and text.endswith(">"):
        text = text[1:-1]
    return text or None


def _key(text: str) -> str:
    # the local part of an addr-spec is case-sensitive, its domain is not;
    # clients that write the URL and the header disagree on neither in
    # practice, but a lower-cased domain is the one safe folding
    local, at, domain = text.rpartition("@")
    return f"{local}@{domain.lower()}" if at else text


@dataclass
class PartIndex:
    """The parts of one message a reference can name: by Content-ID, by the
    Message-ID of the message or of a message attached in it, and by
    absolute Content-Location."""

    content_ids: dict[str, str] = field(default_factory=dict)
    message_ids: dict[str, str] = field(default_factory=dict)
    locations: dict[str, str] = field(default_factory=dict)
    # per message path, the Content-IDs of its own parts (for mid:msg/cid)
    parts_of: dict[str, dict[str, str]] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.content_ids or self.message_ids or self.locations)

    def points_to(self, target: str) -> str | None:
        """The part path ``target`` (an absolute URI) names, or None."""
        scheme = target[:4].lower()
        if scheme == "cid:":
            return self.content_ids.get(_key(unquote(target[4:])))
        if scheme == "mid:":
            message, slash, part = target[4:].partition("/")
            path = self.message_ids.get(_key(unquote(message)))
            if path is None or not slash:
                return path
            return self.parts_of.get(path, {}).get(_key(unquote(part)))
        return self.locations.get(target.partition("#")[0])


def index_parts(message: Message, layer: BaseLayer, origin: Origin) -> PartIndex:
    """Walk ``message`` once and index its parts (the walk's defects are the
    scan's to report, not this pass's)."""
    index = PartIndex()
    messages: list[str] = []  # the paths of the headings around the entity met
    for item in walk_message(message, layer, origin):
        if isinstance(item, Heading):
            path = item.path
            while messages and not path.startswith(messages[-1]):
                messages.pop()
            messages.append(path)
            message_id = item.entity.get("Message-ID")
            if message_id is not None and (key := _message_id(message_id)) is not None:
                index.message_ids.setdefault(_key(key), path)
        elif isinstance(item, Leaf):
            entity, path = item.entity, item.path
            content_id = entity.get("Content-ID")
            if content_id is not None and (key := _message_id(content_id)) is not None:
                index.content_ids.setdefault(_key(key), path)
                owner = messages[-1] if messages else ""
                index.parts_of.setdefault(owner, {}).setdefault(_key(key), path)
            location = entity.get("Content-Location")
            if location is not None and (value := base_value(str(location))) is not None:
                _locate(index, value, entity, item.layer, path)
    return index


def _locate(index: PartIndex, value: str, entity: Message, layer: BaseLayer, path: str) -> None:
    """Index a part's Content-Location, made absolute as RFC 2557 §5 says:
    against the Content-Base of the same heading when there is one (its
    layer holds it: it is the base in force), else against the base around
    the part (the layer under the one its heading added)."""
    against = layer.current if entity.get("Content-Base") is not None else layer.below
    try:
        made = absolute(value, against)
    except UriError:
        return
    index.locations.setdefault(made, path)
