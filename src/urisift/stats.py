"""``--stats``: what a run read and found, counted as the records stream by
(issue 12), printed at the end on standard error, as JSON with ``--format jsonl``."""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import IO, Any

from .model import Defect, Kind, Record
from .sources import Input, open_input


@dataclass
class Stats:
    """Counts of one run."""

    inputs: int = 0
    bytes: int = 0  # the size of the files read (standard input: unknown, not counted)
    records: int = 0
    styles: Counter[str] = field(default_factory=Counter)
    base_sources: Counter[str] = field(default_factory=Counter)
    defects: Counter[str] = field(default_factory=Counter)
    warc_types: Counter[str] = field(default_factory=Counter)  # every WARC/ARC record read, by type
    started: float = field(default_factory=time.perf_counter)
    _messages: set[tuple[str | None, int]] = field(default_factory=set)
    _parts: set[tuple[str | None, int | None, str]] = field(default_factory=set)
    _records_ids: set[tuple[str | None, str]] = field(default_factory=set)

    def record(self, record: Record) -> None:
        self.records += 1
        self.styles[record.found.style.value] += 1
        base = record.base_layer
        self.base_sources[base.source.value if base is not None else "none"] += 1
        self._where(record.origin)

    def defect(self, defect: Defect) -> None:
        self.defects[defect.kind.value] += 1
        self._where(defect.origin)

    def _where(self, origin: Any) -> None:
        if origin.message is not None:
            self._messages.add((origin.file, origin.message))
        if origin.part is not None:
            self._parts.add((origin.file, origin.message, origin.part))
        if origin.warc_record_id is not None:
            self._records_ids.add((origin.file, origin.warc_record_id))

    def count_warc(self, sources: Iterable[Input | Defect], kind: Kind) -> None:
        """Count the records of the WARC and ARC files among ``sources`` by type."""
        for source in sources:
            if isinstance(source, Input) and source.path != "-" and _is_warc(source, kind):
                self.warc_types.update(count_warc_types(source.path))

    def as_json(self) -> dict[str, Any]:
        elapsed = time.perf_counter() - self.started
        return {
            "inputs": self.inputs, "bytes": self.bytes, "messages": len(self._messages), "parts": len(self._parts),
            "warc_records": len(self._records_ids), "records": self.records, "styles": dict(self.styles),
            "base_sources": dict(self.base_sources), "defects": dict(self.defects),
            "warc_record_types": dict(self.warc_types),
            "elapsed_s": round(elapsed, 3), "mb_per_s": round(self.bytes / 1e6 / elapsed, 2) if elapsed else None,
        }

    def write(self, err: IO[str], as_json: bool) -> None:
        data = self.as_json()
        if as_json:
            err.write(json.dumps({"stats": data}) + "\n")
            return
        err.write(f"urisift: {data['inputs']} inputs, {data['bytes'] / 1e6:.1f} MB, {data['messages']} messages, "
                  f"{data['parts']} parts, {data['warc_records']} WARC records; {data['records']} records; "
                  f"{sum(self.defects.values())} defects; {data['elapsed_s']} s"
                  + (f", {data['mb_per_s']} MB/s" if data["mb_per_s"] is not None else "") + "\n")
        for title, counts in (("styles", self.styles), ("base sources", self.base_sources),
                              ("defects", self.defects), ("WARC records by type", self.warc_types)):
            if counts:
                err.write(f"urisift:   {title}: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()) + "\n")


def _is_warc(source: Input, kind: Kind) -> bool:
    try:
        opened = open_input(source, kind=kind)
    except OSError:
        return False
    opened.stream.close()
    return opened.kind is Kind.WARC


def count_warc_types(path: str) -> Counter[str]:
    """The records of a WARC or ARC file by type (``response``, ``request``,
    ``warcinfo`` ...): what was scanned and what was skipped, for ``--stats``.
    A second pass over the records, without scanning their payloads; it
    resumes after a corrupt record as the scan does."""
    from .model import Origin
    from .warc import WarcReader

    with open(path, "rb") as f:
        reader = WarcReader(f, Origin(file=path))
        for _ in reader:
            pass
    return reader.types
