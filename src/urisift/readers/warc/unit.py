"""What the reader hands the scan for one record (:class:`WarcUnit`), and
small helpers its modules share."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import BinaryIO

from ...model import Kind

UNIT_TYPES = frozenset({"response", "resource", "revisit"})


@dataclass(frozen=True, slots=True)
class WarcUnit:
    """One record to scan, and what the scan needs to know of it."""

    record_type: str
    record_id: str | None
    target_uri: str | None
    date: str | None
    offset: int
    truncated: str | None  # the WARC-Truncated reason ("length", "time" ...), None when whole
    status: str | None  # the HTTP status code, None without HTTP headers
    headers: tuple[tuple[str, str], ...]  # the HTTP headers, as written
    media_type: str | None
    charset: str | None  # the charset the HTTP (or record) Content-Type declares
    kind: Kind | None  # HTML or TEXT: scanned; None: counted and skipped
    payload: BinaryIO | None  # the decoded payload, readable until the next unit is asked for
    # where the record stands in a plain file, when asked (text output's location): the
    # line its "WARC/" line is on, its bytes up to its payload, and whether the payload stands as
    # written (no transfer or content coding); None in a .warc.gz, a pipe, or not asked for
    line: int | None = None
    head: bytes | None = None
    as_written: bool = False
    inflated: bool = False  # a content or transfer coding is undone as the payload is read (gzip, deflate, br)


def media_type(value: str | None) -> tuple[str | None, str | None]:
    """The media type (lower case) and the charset parameter of a Content-Type value."""
    if not value:
        return None, None
    media, _, rest = value.partition(";")
    m = re.search(r'(?i)\bcharset\s*=\s*"?([^";\s]+)', rest)
    return media.strip().lower() or None, (m.group(1) if m else None)


def sniffed(head: bytes) -> Kind:
    start = head.lstrip()[:64].lower()
    return Kind.HTML if start.startswith((b"<!doctype html", b"<html", b"<head", b"<body")) else Kind.TEXT


def printable(text: str) -> str:
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= 200 else text[:200] + "..."
