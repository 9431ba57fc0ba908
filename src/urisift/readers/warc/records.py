"""The WARC/ARC front door (ARCHITECTURE.md, readers/: the readers): a WARC or ARC stream in, the
references in each record's HTTP headers out as records, and its payload
out as nested content for the scan to route, each against the record's own
``WARC-Target-URI`` (url-syntax-05 §5.1.3: the URI it was retrieved from)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from ...model import BaseSource, Content, Defect, Flag, Record, Style, Tally, Where, new_found, new_place, origin_with
from ...stages.delimit.chars import ordered
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from ...stages.placing import Placing
from .headers import content_location, http_references
from .reader import WarcReader


def read_warc(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect | Content]:
    """The records of every ``response``, ``resource`` and ``revisit`` of a
    WARC or ARC stream (:mod:`urisift.readers.warc`): its HTTP ``Location`` and
    ``Link`` targets against its ``WARC-Target-URI`` alone, its payload
    (nested content) against that URI under whatever base the payload sets."""
    reader = WarcReader(content.stream(), content.origin, locations=options.locations)
    origin = content.origin
    try:
        for unit in reader:
            if isinstance(unit, Defect):
                yield unit
                continue
            where = origin_with(origin, offset=unit.offset, warc_record_id=unit.record_id,
                                warc_target_uri=unit.target_uri, warc_date=unit.date, line=unit.line)
            head = None if unit.head is None else Placing(unit.head)
            # (a target with no hierarchy names its record, a crawler's dns: lookup, and is no base: no defect)
            layer, defect = content.layer.push(unit.target_uri, BaseSource.RETRIEVAL, "WARC-Target-URI", origin=where,
                                               naming=True)
            if defect is not None:
                yield defect
            tail = Tail(layer, where, None, browser=True, needs=options.needs)
            flags = (Flag.TRUNCATED,) if unit.truncated else ()
            for name, reference, rel in http_references(unit):
                place = new_place(Where.HEADER, None, None, name, rel, None)
                record = tail(new_found(reference, None, None, Style.HEADER, (), (), None, place))
                if head is not None:
                    record = record._replace(in_file=head.header(reference, name))
                if flags:
                    found = record.found
                    record = record._replace(found=found._replace(flags=ordered({*found.flags, *flags})))
                yield record
            if unit.kind is None or unit.payload is None:
                continue
            # RFC 2616 §14.14 made Content-Location a base for the body; RFC 7231
            # §3.1.4.2 took that back: only on request
            location = content_location(unit) if options.content_location else None
            layer, defect = layer.push(location, BaseSource.CONTENT_LOCATION, "HTTP Content-Location", origin=where,
                                       naming=True)
            if defect is not None:
                yield defect
            yield Content(unit.payload, unit.kind, where, layer, unit.charset, flags=flags, inflated=unit.inflated,
                          placed=_payload_place(unit.head) if unit.as_written and unit.head is not None else None)
    finally:
        tally.warc_types.update(reader.types)
        tally.decoded = reader.decompressed  # (a .warc.gz is decompressed member by member, here)


def _payload_place(head: bytes) -> Callable[[int, int], tuple[int, int]]:
    """Where a (line, column) of a payload that stands as written is in its
    record: the lines of its head (the WARC and HTTP headers) before it."""
    first = head.count(b"\n") + 1

    def place(line: int, column: int) -> tuple[int, int]:
        return first + line - 1, column

    return place


__all__ = ["read_warc"]
