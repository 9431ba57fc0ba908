"""The output formats of the command (ARCHITECTURE.md, The record contract): how records and
defects are written, given a :class:`Layout`.

- ``text``: one target a line (the reference when it has none; which
  target: ``--resolve``, :mod:`.choice`; ``both``: the browser's after a tab); with
  ``location``, ``file:line:column:`` before it, as grep and ripgrep write;
  with ``null``, NUL-terminated instead of line-terminated (``xargs -0``).
- ``jsonl``: one JSON object a line, records and ``{"defect": ...}`` lines.
- ``csv``: a header row, then a row a record (RFC 4180: CRLF, quoted as
  needed); null is an empty field, ``""`` the empty string, a list its JSON
  text: every cell reads back as the value it was.
- ``edges``: ``source<TAB>target``, one line a record that has a target:
  the source is the page the link stands in (``warc_target_uri``), else the
  retrieval URI given (``--base``), else the input's file name.
- ``fields`` chooses and orders the keys of ``jsonl`` and ``csv`` (and
  Parquet's columns); ``context`` adds the ``context`` key, ``normalized``
  the ``normalized`` one, in that order, after the contract's keys.

A layout is picklable: worker processes write a unit's output with the same one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import IO, Any

from ..model import Defect, Flag, Origin, Record, Where
from .choice import browser_column, chosen_target, sets_base
from .fields import FieldLines
from .records import EXTRA_KEYS, RECORD_KEYS, RecordLines, defect_line, file_place, record_json


@dataclass(frozen=True, slots=True)
class Layout:
    """How the output looks (see the module doc)."""

    format: str = "text"
    normalized: bool = False  # add the normalized target
    flags: bool = False  # text: the risk flags after a tab
    location: bool = False  # text: file:line:column: first
    null: bool = False  # text: NUL after each line instead of a line break
    fields: tuple[str, ...] | None = None  # jsonl/csv/parquet: these keys only, in this order
    context: bool = False  # add the text around each reference
    resolution: str = "rfc"  # --resolve: which URL text and edges use (output.choice)
    unwrap: bool = False  # --unwrap: the URL behind a wrapper, where there is one
    effective: bool = False  # --effective: where the target ends in a crawl's captures
    region: bool = False  # --region: the region key added, after the contract's keys

    def columns(self) -> tuple[str, ...]:
        if self.fields is not None:
            return self.fields
        return RECORD_KEYS + (("region",) if self.region else ()) + (("context",) if self.context else ()) + (
            ("normalized",) if self.normalized else ())

    def row(self, record: Record, normalized: str | None) -> dict[str, Any]:
        """The record as a JSON object with this layout's keys."""
        row = record_json(record, self.columns())
        row["region"] = record.found.place.region
        row["context"] = record.context
        row["normalized"] = normalized
        row["file_line"], row["file_column"] = file_place(record)
        # a key not computed (browser_target) is null in a row: CSV and Parquet have no absent value
        return {k: row.get(k) for k in self.columns()}


#: the default layout: text, the contract's keys
PLAIN = Layout()

#: every key --fields may name
FIELDS = RECORD_KEYS + EXTRA_KEYS


class Writer:
    """Writes records (and, where the format has room, defects) to ``out``."""

    def __init__(self, out: IO[str], layout: Layout = PLAIN) -> None:
        self.out = out
        self.layout = layout

    def record(self, record: Record, normalized: str | None = None) -> None:
        raise NotImplementedError

    def defect(self, defect: Defect) -> None:
        """Text and CSV have no room for defects: they go to standard error only."""

    def close(self) -> None:
        """Finish the output (a Parquet file writes its footer)."""


class TextWriter(Writer):
    """One target a line (the reference itself when it has none).  A
    reference with no text to print (``href=""`` and no base) is left out,
    and counted in :attr:`empty`: a blank line would be an empty argument
    to the next program (``-0 | xargs -0 curl``).  JSON lines and CSV keep it."""

    def __init__(self, out: IO[str], layout: Layout = PLAIN) -> None:
        super().__init__(out, layout)
        self.end = end = "\0" if layout.null else "\n"
        self.empty = 0
        if layout == Layout(null=layout.null):
            # the RFC target a line and nothing else: the commonest text output,
            # one line without the choices below (a third of a link-dense run)
            write = out.write

            def record(record: Record, normalized: str | None = None) -> None:
                line = record.target or record.found.reference
                if line:
                    write(line + end)
                else:
                    self.empty += 1

            self.record = record  # type: ignore[method-assign]

    def record(self, record: Record, normalized: str | None = None) -> None:
        layout = self.layout
        resolution = layout.resolution
        line = normalized if layout.normalized and normalized is not None else (
            chosen_target(record, resolution, layout.unwrap, layout.effective) or record.uri)
        if not line:
            self.empty += 1
            return
        if resolution == "both":
            line += "\t" + browser_column(record)
        if layout.flags and record.risks:
            line += "\t" + "; ".join(str(r) for r in record.risks)
        if layout.location:
            line = f"{location(record)}:{line}"
        self.out.write(line + self.end)


#: a file name's control characters as ``\xNN`` in a text line: a line break in a name would
#: cut the line in two (the bytes that are not UTF-8 are already ``\xNN``, by printable_name)
CONTROLS = {code: f"\\x{code:02x}" for code in (*range(0x20), 0x7F)}


def location(record: Record) -> str:
    """``file:line:column`` of text output: where the reference
    stands in the file, as grep and editors read it.  In a message or WARC
    record whose text does not stand in the file as written (a base64 part,
    a gzip member), the line field names where it is and the line there:
    ``MESSAGE/PART/LINE`` (mbox), ``PART/LINE`` (a message file; part ``0``
    is the heading), ``@OFFSET/LINE`` (a WARC or ARC record, by its byte
    offset), ``pPAGE/LINE`` (a PDF page), ``MEMBER/LINE`` (an office
    package's member), ``.../uu/LINE`` (a file uuencoded in a part: the line
    is that file's); ``-`` where no line or column is known.  Always three
    fields."""
    origin = record.origin
    name = (origin.file or "-").translate(CONTROLS)
    if record.in_file is not None and origin.line is not None:
        in_line, in_column = file_place(record)  # (the one rule of where a part stands in its file)
        return f"{name}:{in_line}:{'-' if in_column is None else in_column}"
    line = "-" if record.line is None else str(record.line)
    column = "-" if record.column is None else str(record.column)
    inside = []
    if origin.warc_record_id is not None or origin.warc_target_uri is not None:
        inside.append(f"@{origin.offset}")
    if origin.message is not None:
        inside.append(str(origin.message))
    place = record.found.place
    if place.page is not None:  # a PDF page's text (its streams are compressed)
        inside.append(f"p{place.page}")
    if place.member is not None:  # an office package's member
        inside.append(place.member)
    if origin.part is not None:
        inside.append(origin.part)
    elif origin.message is not None or record.found.place.where is Where.HEADER and not inside:
        inside.append("0")  # a message's own heading
    if Flag.UUENCODED in record.found.flags:
        inside.append("uu")  # its line and column are in the file decoded from the part, not in the part
    if not inside:
        return f"{name}:{line}:{column}"  # the file's own text: its line is the file's
    return f"{name}:{'/'.join(inside)}/{line}:{column}"


class JsonlWriter(Writer):
    """One JSON object a line: records, and ``{"defect": ...}`` lines."""

    def __init__(self, out: IO[str], layout: Layout = PLAIN) -> None:
        super().__init__(out, layout)
        self._line = RecordLines()
        if layout.fields is None and not layout.context and not layout.normalized and not layout.region:
            # the contract's keys: the fast line builder, one call less a record
            line, write = self._line, out.write

            def record(record: Record, normalized: str | None = None) -> None:
                write(line(record) + "\n")

            self.record = record  # type: ignore[method-assign]
        else:
            # one function made for the keys: the line made and written in one call
            self.record = FieldLines.writer(layout.columns(), out.write)  # type: ignore[method-assign]

    def record(self, record: Record, normalized: str | None = None) -> None:
        self.out.write(json.dumps(self.layout.row(record, normalized), ensure_ascii=False) + "\n")

    def defect(self, defect: Defect) -> None:
        self.out.write(defect_line(defect) + "\n")


class CsvWriter(Writer):
    """A header row (unless ``header=False``: a worker's part of the output),
    then one row a record, RFC 4180 (CRLF line ends; a field quoted when it
    holds a comma, a quote or a line break, its quotes doubled).

    Every value can be read back as it was: null is an empty field, the
    empty string a quoted empty field (``""``), a list (``alternatives``,
    ``span``, ``flags``, ``rel``, ``risks``) its JSON text (``[]`` when
    empty), a number its digits.  Python's csv module cannot tell the first
    two apart when writing (``QUOTE_NOTNULL`` came in 3.12), hence the
    rows are joined here."""

    def __init__(self, out: IO[str], layout: Layout = PLAIN, *, header: bool = True) -> None:
        super().__init__(out, layout)
        if header:
            out.write(",".join(map(_csv_field, layout.columns())) + "\r\n")

    def record(self, record: Record, normalized: str | None = None) -> None:
        self.out.write(",".join(map(_csv_cell, self.layout.row(record, normalized).values())) + "\r\n")


def _csv_cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return _csv_field(json.dumps(value, ensure_ascii=False))
    return _csv_field(str(value))


def _csv_field(text: str) -> str:
    """A field as RFC 4180 §2 writes it (the empty string quoted, so that it
    stays apart from null)."""
    if not text:
        return '""'
    if "," in text or '"' in text or "\n" in text or "\r" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def edge_source(origin: Origin, base: str | None = None) -> str:
    """The source of the edges a record draws: the WARC record's target
    URI, else the input's retrieval URI (``--base``, joined with the file's
    path under a directory walked; a web input's URL), else ``base``, else
    the file's name."""
    return origin.warc_target_uri or origin.retrieval or base or origin.file or "-"


class EdgeWriter(Writer):
    """``source<TAB>target`` a line (tabs and line breaks in either escaped)."""

    def __init__(self, out: IO[str], layout: Layout = PLAIN, *, base: str | None = None) -> None:
        super().__init__(out, layout)
        self.base = base

    def edge(self, record: Record, normalized: str | None = None) -> tuple[str, str] | None:
        """The edge a record draws, (source, target); None for a relative
        reference with no base (no target: no edge to draw), and for a base
        (``<base href>``: it sets where the page's links resolve, and nobody
        fetches it, :func:`~urisift.output.choice.sets_base`)."""
        if sets_base(record):
            return None
        target = normalized if self.layout.normalized and normalized is not None else chosen_target(
            record, self.layout.resolution, self.layout.unwrap, self.layout.effective)
        if target is None:
            return None
        return edge_source(record.origin, self.base), target

    def record(self, record: Record, normalized: str | None = None) -> None:
        edge = self.edge(record, normalized)
        if edge is not None:
            self.out.write(f"{_field(edge[0])}\t{_field(edge[1])}\n")


def _field(value: str) -> str:
    if "\t" in value or "\n" in value or "\r" in value:
        return value.replace("\t", "%09").replace("\n", "%0A").replace("\r", "%0D")
    return value


WRITERS: dict[str, type[Writer]] = {"text": TextWriter, "jsonl": JsonlWriter, "csv": CsvWriter, "edges": EdgeWriter}
