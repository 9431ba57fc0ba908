"""Output (ARCHITECTURE.md, output/ and pool/): the record contract and its JSON
(:mod:`.records`), the writers of every format (:mod:`.writers`, Parquet in
:mod:`.parquet`), the write loop (:mod:`.writing`) and ``--stats``
(:mod:`.stats`).  It knows records and a writer interface, and nothing of
the process pool or of how inputs are read (import-linter contracts hold
it to that)."""

from .records import (
           DEFECT_KEYS,
           RECORD_KEYS,
           RecordLines,
           defect_json,
           defect_line,
           record_json,
           record_line,
           record_schema,
)

__all__ = ["DEFECT_KEYS", "RECORD_KEYS", "RecordLines", "defect_json", "defect_line", "record_json", "record_line",
           "record_schema"]
