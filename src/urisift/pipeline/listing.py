"""A listing of inputs (``--from-list``, of the command and of the Spark
job): one path or URL a line, as Common Crawl publishes them
(``warc.paths.gz``)."""

from __future__ import annotations

import gzip
import sys
import zlib
from typing import BinaryIO

from .remote import missing_backend
from .sources import open_binary


def listed(path: str, stdin: BinaryIO | None = None) -> list[str]:
    """The paths a listing file names, one a line (blank lines and ``#``
    lines left out): a local or remote file, gzip-compressed or not
    (Common Crawl's ``warc.paths.gz``), as ``--from-list`` of the command
    and of the Spark job read it; ``-`` is standard input (``stdin``, else the
    process's), as ``tar -T -`` and ``wget -i -`` read it.  An ``OSError``
    saying why when it cannot be read (a backend not installed, a gzip stream
    cut short or corrupt)."""
    if path == "-":
        data = (stdin if stdin is not None else sys.stdin.buffer).read()
    else:
        if (missing := missing_backend(path)) is not None:
            raise OSError(missing)
        with open_binary(path) as f:
            data = f.read()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (EOFError, zlib.error) as exc:  # (a bad header is gzip.BadGzipFile, an OSError already)
            raise OSError(f"not a gzip stream that can be read: {exc}") from exc
    lines = (line.strip() for line in data.decode("utf-8", "replace").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


__all__ = ["listed"]
