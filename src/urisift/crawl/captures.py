"""The first pass of ``--effective`` and the audit: the WARC
inputs read for their captures alone, into a :class:`~.index.CaptureIndex`.

What it costs: every record's WARC and HTTP headers are read (as the scan
reads them), and an HTML page's body only when its bytes hold ``refresh``
or ``canonical`` (a byte search), which is then parsed by the scan's own
HTML reader (so a refresh or a canonical link in a comment, a script or a
``<template>`` counts no more than the scan counts it).  Every other
payload is skipped unread.  The index keeps a few small fields a capture
(see :mod:`.index`): about 200-300 bytes each.

With ``jobs`` over 1 the units of work (files, and ranges of a large WARC,
as :mod:`urisift.pipeline.plan` cuts them) are read by a pool of processes, each
sending back its units' captures; the index is filled in input order, so
it is the same whatever the number of jobs.
"""

from __future__ import annotations

import io
import multiprocessing
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import BinaryIO

from ..model import Content, Defect, Kind, Origin, Record, Style, Tally, origin_with
from ..pipeline.plan import plan
from ..pipeline.sources import Input, open_input
from ..pipeline.units import Window, WorkUnit
from ..readers.html_reading import read_html
from ..readers.warc import WarcReader, WarcUnit, link_values
from ..stages.base import retrieval_layers
from ..stages.options import ScanOptions
from ..uri import patterns
from ..uri.errors import UriError
from ..uri.resolution import resolve
from .index import CANONICAL, LOCATION, REFRESH, Capture, CaptureIndex, seconds

#: a page is parsed for its refresh or canonical only when its bytes hold one of these words
_WORTH_PARSING = patterns.compile(rb"(?i)refresh|canonical")


def captures_of(unit: WorkUnit, options: ScanOptions) -> list[Capture]:
    """The captures of one unit of work (nothing when it is not a WARC or
    ARC input, or cannot be read: the scan that follows says why)."""
    source = unit.source
    origin = Origin(file=source.name)
    try:
        if unit.start is None:
            opened = open_input(source, kind=options.kind)
            if opened.kind is not Kind.WARC:
                opened.stream.close()
                return []
            stream: BinaryIO = opened.stream
        elif unit.kind is Kind.WARC:
            stream = io.BufferedReader(Window(open(source.path, "rb"), unit.start, unit.end))  # noqa: SIM115
        else:
            return []
    except OSError:
        return []
    # the HTML reader: without positions (a search, a fifth of the scan) and without context
    html_options = replace(options, positions=False, context=0, strict=False)
    try:
        return list(_captures(WarcReader(stream, origin), origin, html_options))
    except OSError:
        return []  # reading stopped: the scan reports it
    finally:
        stream.close()


def _captures(reader: WarcReader, origin: Origin, options: ScanOptions) -> Iterator[Capture]:
    for unit in reader:
        if isinstance(unit, Defect) or not unit.target_uri:
            continue  # a broken record is the scan's to report
        status = int(unit.status) if unit.status is not None and unit.status.isdigit() else None
        via, following = _points_on(unit, status, origin, options)
        yield Capture(unit.target_uri, seconds(unit.date), status, via, following)


def _points_on(unit: WarcUnit, status: int | None, origin: Origin, options: ScanOptions
               ) -> tuple[str | None, str | None]:
    """How a capture points on, and to where (see :mod:`.index`)."""
    page = unit.target_uri
    assert page is not None
    if status is not None and 300 <= status < 400:
        for name, value in unit.headers:
            if name.lower() == "location" and value.strip():
                target = _resolved("".join(value.split()), page)
                if target is not None:
                    return LOCATION, target
    refresh = canonical = None
    if unit.kind is Kind.HTML and unit.payload is not None:
        data = unit.payload.read()
        if _WORTH_PARSING.search(data):
            refresh, canonical = _in_page(unit, data, origin, options)
    if refresh is not None:
        return REFRESH, refresh
    if canonical is None:
        # RFC 6596 §3 lets the HTTP Link header carry it too (RFC 8288)
        for name, value in unit.headers:
            if name.lower() == "link":
                for reference, rel in link_values(value):
                    if rel is not None and "canonical" in rel:
                        canonical = _resolved(reference, page)
                        if canonical is not None:
                            break
            if canonical is not None:
                break
    return (CANONICAL, canonical) if canonical is not None else (None, None)


def _in_page(unit: WarcUnit, data: bytes, origin: Origin, options: ScanOptions) -> tuple[str | None, str | None]:
    """The first refresh URL and the first canonical link of a page, as the
    scan's HTML reader finds them (resolved against the page's base)."""
    where = origin_with(origin, offset=unit.offset, warc_record_id=unit.record_id, warc_target_uri=unit.target_uri,
                        warc_date=unit.date)
    layer, _ = retrieval_layers(unit.target_uri, where, detail="WARC-Target-URI")
    refresh = canonical = None
    content = Content(data, Kind.HTML, where, layer, unit.charset)
    for item in read_html(content, options, Tally()):
        if type(item) is not Record:
            continue
        assert isinstance(item, Record)
        if item.target is None:
            continue
        if refresh is None and item.style is Style.META_REFRESH:
            refresh = item.target
        elif canonical is None and item.element == "link" and item.rel is not None and "canonical" in item.rel:
            canonical = item.target
        if refresh is not None and canonical is not None:
            break
    return refresh, canonical


def _resolved(reference: str, page: str) -> str | None:
    try:
        return str(resolve(reference, page))
    except (UriError, ValueError):
        return None


def _unit_captures(job: tuple[WorkUnit, ScanOptions]) -> list[Capture]:
    return captures_of(*job)


def build_index(sources: Iterable[Input | Defect], options: ScanOptions, jobs: int = 1) -> CaptureIndex:
    """The capture index of the WARC and ARC inputs among ``sources`` (the
    others are passed over), read by ``jobs`` processes."""
    index = CaptureIndex()
    units = [u for u in plan(sources, options, cut=jobs > 1) if isinstance(u, WorkUnit)]
    if jobs > 1 and len(units) > 1:
        methods = multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        with context.Pool(min(jobs, len(units))) as pool:
            for captures in pool.imap(_unit_captures, [(u, options) for u in units]):
                for capture in captures:
                    index.add(capture)
    else:
        for unit in units:
            for capture in captures_of(unit, options):
                index.add(capture)
    return index


__all__ = ["build_index", "captures_of"]
