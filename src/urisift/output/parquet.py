"""Parquet for indexers: :func:`schema` is the record contract
(ARCHITECTURE.md, The record contract) as Arrow types, one column a JSON key, in the same order
(``normalized`` last when asked for); it does not depend on the data, so
files from many runs concatenate.  Defects are not rows: they go to
standard error, as with CSV."""

from __future__ import annotations

from typing import IO, Any

from ..model import Record
from .records import RECORD_KEYS
from .writers import PLAIN, Layout, Writer

#: rows a Parquet row group is written in (bounded memory on any input)
BATCH = 65_536


def schema(layout: Layout = PLAIN) -> Any:
    """The Arrow schema of the records with ``layout``'s keys (pyarrow
    imported here: an optional extra)."""
    import pyarrow as pa

    text, number, texts = pa.string(), pa.int64(), pa.list_(pa.string())
    risk = pa.struct([("flag", text), ("section", text), ("detail", text)])
    types = {
        "uri": text, "target": text, "alternatives": texts, "base": text, "base_source": text, "style": text,
        "where": text, "element": text, "attribute": text, "header": text, "file": text, "message": number,
        "message_id": text, "part": text, "offset": number, "warc_record_id": text, "warc_target_uri": text,
        "warc_date": text, "rel": texts, "text": text, "span": pa.list_(number), "line": number,
        "column": number, "flags": texts, "charset": text, "charset_source": text, "risks": pa.list_(risk),
        "points_to": text, "browser_target": text, "unwrapped": text, "wrapper": texts, "effective_target": text,
        "effective_hops": number, "effective_status": number, "effective_loop": pa.bool_(), "page": number,
        "member": text, "region": text, "context": text, "normalized": text, "file_line": number,
        "file_column": number,
    }
    assert tuple(types)[:len(RECORD_KEYS)] == RECORD_KEYS
    return pa.schema([pa.field(k, types[k]) for k in layout.columns()])


class ParquetWriter(Writer):
    """Records as Parquet (zstd), written a row group at a time to ``path``."""

    def __init__(self, out: IO[str], layout: Layout = PLAIN, *, path: str = "") -> None:
        super().__init__(out, layout)
        try:
            import pyarrow as pa
            import pyarrow.parquet as pq
        except ImportError as exc:
            raise ImportError("--format parquet needs pyarrow: pip install 'urisift[parquet]'") from exc
        self._pa = pa
        self._schema = schema(layout)
        self._file = pq.ParquetWriter(path, self._schema, compression="zstd")
        self._rows: list[dict[str, Any]] = []

    def record(self, record: Record, normalized: str | None = None) -> None:
        self._rows.append(self.layout.row(record, normalized))
        if len(self._rows) >= BATCH:
            self._flush()

    def _flush(self) -> None:
        if self._rows:
            self._file.write_table(self._pa.Table.from_pylist(self._rows, schema=self._schema))
            self._rows = []

    def close(self) -> None:
        self._flush()
        self._file.close()
