"""WARC and ARC records as units to scan (ARCHITECTURE.md, readers/: the readers).

Read with warcio, which reads WARC (ISO 28500) and ARC, record-by-record
gzip or plain, strips the ``<…>`` that WARC 1.0 writers put around
``WARC-Target-URI``, and parses the HTTP status line and headers leniently
(through a reader and a header parser of ours that stay linear on hostile
header lines).  A file's clean records are read by FastWARC, several times
as fast, and handed over to warcio at the first that is not (:mod:`.fast`
says why both, and how the output stays warcio's).  The payload's codings are undone here (RFC 9112 §6.1,
RFC 9110 §8.4): every Transfer-Encoding coding, last first (``gzip,
chunked``), then the Content-Encoding's.

- ``response``, ``resource`` and ``revisit`` records are units: their
  retrieval URI is the record's own ``WARC-Target-URI``.  ``request``,
  ``metadata``, ``warcinfo`` (and ARC's file header) are counted and skipped.
- A unit's payload is scanned by its media type (the HTTP ``Content-Type``;
  for a ``resource``, the record's own): HTML and plain text, with the HTTP
  charset as the declared one; anything else is counted and skipped unread.
- A broken record is a ``broken-warc`` defect naming it (its
  offset, record ID and target URI): a corrupt gzip member, a missing or
  malformed Content-Length, one that runs past the end of the file or
  short of it, a payload whose coding breaks.  The scan goes on at the next
  record (the next gzip member, or the next ``WARC/`` header at a line
  start), in a file or on standard input alike, so nothing after a broken
  record is lost.

The modules: :mod:`.reader` (the reader and its defects), :mod:`.fast`
(FastWARC's reading of a clean file), :mod:`.parsing` (warcio's iterator,
linear on hostile header lines), :mod:`.making` (a record made into a
unit), :mod:`.codings` (the payload's codings), :mod:`.resync` (where
records start, in a file or a pipe), :mod:`.headers` (references in HTTP
headers), :mod:`.unit` (what a record hands the scan).
"""

from __future__ import annotations

from .headers import content_location, http_references, link_values
from .reader import WarcReader
from .resync import record_start
from .unit import UNIT_TYPES, WarcUnit

__all__ = ["UNIT_TYPES", "WarcReader", "WarcUnit", "content_location", "http_references",
           "link_values", "record_start"]
