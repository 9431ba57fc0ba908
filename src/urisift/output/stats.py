"""``--stats``: what a run read and found, counted from
the events the scan already sees -- each unit's
:class:`~urisift.model.Tally` (inputs, messages, text parts, WARC and ARC
records of every type, bytes as stored and after decompression) and the
records and defects as they stream by -- never by reading an input again.
Printed at the end on standard error, as JSON with ``--format jsonl``."""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import IO, Any

from ..model import Defect, Record, Tally


@dataclass
class Stats:
    """Counts of one run."""

    read: Tally = field(default_factory=Tally)
    records: int = 0
    styles: Counter[str] = field(default_factory=Counter)
    base_sources: Counter[str] = field(default_factory=Counter)
    defects: Counter[str] = field(default_factory=Counter)
    #: records text output left out: a reference with no text to print (``href=""``, no base)
    unprinted: int = 0
    #: binary files a directory walk passed over (images, fonts ...)
    binary: int = 0
    started: float = field(default_factory=time.perf_counter)

    def record(self, record: Record) -> None:
        self.records += 1
        self.styles[record.found.style.value] += 1
        base = record.base_layer
        self.base_sources[base.source.value if base is not None else "none"] += 1

    def defect(self, defect: Defect) -> None:
        self.defects[defect.kind.value] += 1

    def tally(self, tally: Tally) -> None:
        """A unit is done: what it read."""
        self.read.add(tally)

    def as_json(self) -> dict[str, Any]:
        elapsed = time.perf_counter() - self.started
        read = self.read

        def rate(size: int | None) -> float | None:
            return round(size / 1e6 / elapsed, 2) if elapsed and size is not None else None

        return {
            "inputs": read.inputs, "bytes": read.stored, "bytes_decompressed": read.decoded,
            "messages": read.messages, "parts": read.parts, "warc_records": sum(read.warc_types.values()),
            "records": self.records, "styles": dict(self.styles), "base_sources": dict(self.base_sources),
            "defects": dict(self.defects), "warc_record_types": dict(read.warc_types),
            "unprinted": self.unprinted, "binary_skipped": self.binary, "elapsed_s": round(elapsed, 3),
            "mb_per_s": rate(read.stored), "mb_per_s_decompressed": rate(read.decoded),
        }

    def write(self, err: IO[str], as_json: bool) -> None:
        data = self.as_json()
        if as_json:
            err.write(json.dumps({"stats": data}) + "\n")
            return
        decompressed = data["bytes_decompressed"]
        size = f"{data['bytes'] / 1e6:.1f} MB"
        if decompressed is not None and decompressed != data["bytes"]:
            size += f" ({decompressed / 1e6:.1f} MB decompressed)"
        speed = ""
        if data["mb_per_s"] is not None:
            speed = f", {data['mb_per_s']} MB/s"
            if decompressed is not None and decompressed != data["bytes"]:
                speed += f" ({data['mb_per_s_decompressed']} MB/s decompressed)"
        # the units a run of pages or text has none of are not counted ("0 messages" for HTML)
        read = [_count(data["inputs"], "input") + (f" ({_count(self.binary, 'binary file')} passed over)"
                                                   if self.binary else ""), size] + [
            _count(data[key], what) for key, what in (("messages", "message"), ("parts", "text part"),
                                                      ("warc_records", "WARC/ARC record")) if data[key]]
        records = _count(data["records"], "record")
        if self.unprinted:
            records += f" ({self.unprinted} with no text to print left out of text output)"
        err.write(f"urisift: {', '.join(read)}; {records}; "
                  f"{_count(sum(self.defects.values()), 'defect')}; {data['elapsed_s']} s{speed}\n")
        for title, counts in (("styles", self.styles), ("base sources", self.base_sources),
                              ("defects", self.defects), ("WARC/ARC records by type", self.read.warc_types)):
            if counts:
                err.write(f"urisift:   {title}: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()) + "\n")


def _count(n: int, what: str) -> str:
    """``n`` things, singular for one (never "1 inputs")."""
    return f"{n} {what}" if n == 1 else f"{n} {what}s"
