"""An XML document → its records: decoded by the charset
chain (:mod:`.decoding`), parsed by a pull parser that trusts nothing
(:mod:`.parsing`), walked as its events come (:mod:`.walk`): a sitemap of a
million URLs, a feed of a million entries, a million links in one entry's
XHTML, all in constant memory, their records streamed as they are found.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

from ...model import Content, Defect, Record, Tally
from ...model.events import is_message
from ...stages.options import ScanOptions
from .decoding import Utf8Feed
from .parsing import Parsed
from .walk import XmlWalk


def read_xml(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    body = content.body
    if is_message(body):
        raise TypeError("a parsed message is content of kind mail only")
    declared = content.declared or options.charset
    if isinstance(body, str):
        body, declared = body.encode("utf-8"), "utf-8"  # text handed in: its own declaration no longer holds
    stream = io.BytesIO(body) if isinstance(body, bytes) else body
    feed = Utf8Feed(stream, declared, content.origin)
    walk = XmlWalk(content.layer, content.origin, options, Parsed(feed, content.origin), feed.decoding,
                   content.budget)
    for item in walk.items():
        if feed.defects:
            yield from feed.take()
        yield item
    yield from feed.take()


__all__ = ["read_xml"]
