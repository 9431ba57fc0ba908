"""The record contract (ARCHITECTURE.md, The record contract) in one place: the keys and their order,
what each holds, and the writers for ``text``, ``jsonl`` and ``csv``.

Keys are stable and never renamed.  Among them, a record carries
``offset``, ``warc_record_id``, ``warc_target_uri``,
``warc_date``, ``rel`` and ``text`` (null where they do not apply);
``points_to``, the part path a ``cid:``/``mid:``/Content-Location
reference names; ``browser_target``, what the WHATWG
URL parser gives (present only where it was computed: always for HTML and
WARC, for text and mail with ``--resolve browser|both``; null where that
parser fails); ``unwrapped`` and ``wrapper`` (the URL behind
a link-protection service's or an archive's wrapping, and the wrappers),
and ``effective_target``, ``effective_hops``, ``effective_status``,
``effective_loop`` (where the target ends in a crawl's captures, with
``--effective``; null otherwise); ``page`` (PDF) and
``member`` (the part of an office file's ZIP package), last; and a defect
line also carries ``message_id``, ``offset`` and ``warc_record_id``.  A run
adds keys when asked (:data:`EXTRA_KEYS`): ``region`` (where on
an HTML page it stands: --fields naming it, --region), ``context``,
``normalized``, ``file_line`` and ``file_column`` (where it stands in the
file itself, :func:`file_place`: --fields naming them).

JSON lines are written by :func:`record_line`, which gives exactly
``json.dumps(record_json(record), ensure_ascii=False)`` (a test holds it to
that) but builds the parts every record of one input shares -- its origin,
charset, base and place -- once, not once a record (:mod:`.lines`).
"""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from ..model import Defect, Flag, Record, Where
from ..uri import arguments as check
from .computed import NotComputed, not_computed
from .lines import ORIGIN_KEYS, RecordLines, dumps

#: JSON keys of a record, in output order (ARCHITECTURE.md, The record contract; never renamed).
RECORD_KEYS = (
    "uri", "target", "alternatives", "base", "base_source", "style", "where", "element", "attribute",
    "header", "file", "message", "message_id", "part", "offset", "warc_record_id", "warc_target_uri",
    "warc_date", "rel", "text", "span", "line", "column", "flags", "charset", "charset_source", "risks",
    "points_to", "browser_target", "unwrapped", "wrapper", "effective_target", "effective_hops", "effective_status",
    "effective_loop", "page", "member",
)
#: keys a run adds when asked, after the contract's, in this order (urisift.model.needs.KEYS)
EXTRA_KEYS = ("region", "context", "normalized", "file_line", "file_column")
#: JSON keys of a defect line, in output order.
DEFECT_KEYS = ("defect", "detail", "file", "position", "unit", "message", "part", "message_id", "offset",
               "warc_record_id")

def file_place(record: Record) -> tuple[int | None, int | None]:
    """Where the reference stands in the file itself, as (line, column), 1-based: the
    ``line`` and ``column`` of a file's own text; in a message, an mbox or a plain WARC,
    where its part's text stands in the file as written (not a base64 or gzip part's);
    (None, None) where its text is not in the file's bytes as written, or the column
    alone where the record has none (an XML element's).  Text output's ``file:line:``
    (``-H``) is this place where there is one."""
    placed = record.in_file
    origin = record.origin
    if placed is not None and origin.line is not None:
        return origin.line + placed[0] - 1, placed[1]
    place = record.found.place
    if (origin.warc_record_id is not None or origin.warc_target_uri is not None or origin.message is not None
            or origin.part is not None or place.page is not None or place.member is not None
            or place.where is Where.HEADER or Flag.UUENCODED in record.found.flags):
        return None, None  # inside a container whose text does not stand in the file as written
    line, column = record.line, record.column
    return (None if line is False else line), (None if column is False else column)


def record_json(record: Record, keys: Collection[str] | None = None) -> dict[str, Any]:
    """The record as a JSON object, keys in contract order; raises
    :class:`NotComputed` for a record whose scan was not asked for every key
    (for one of ``keys``, when given: those the caller writes)."""
    if type(record) is not Record:
        check.instance("record_json", "record", record, Record, "a Record")
    missing = not_computed(record, keys)
    if missing is not None:
        raise NotComputed(missing)
    found, origin, place = record.found, record.origin, record.found.place
    out: dict[str, Any] = {
        "uri": found.reference,
        "target": record.target,
        "alternatives": list(found.alternatives),
        "base": record.base,
        "base_source": None if record.base_layer is None else record.base_layer.source.value,
        "style": found.style.value,
        "where": place.where.value,
        "element": place.element,
        "attribute": place.attribute,
        "header": place.header,
    }
    for key in ORIGIN_KEYS:
        out[key] = getattr(origin, key)
    out["rel"] = None if place.rel is None else list(place.rel)
    out["text"] = place.text
    out["span"] = None if not record.span else list(record.span)
    out["line"] = record.line
    out["column"] = record.column
    out["flags"] = [f.value for f in found.flags]
    out["charset"] = record.charset
    out["charset_source"] = None if record.decoding is None else record.decoding.source.value
    out["risks"] = [r.to_json() for r in record.risks or ()]
    out["points_to"] = record.points_to
    if record.browser_target is not False:  # not asked for: no key, so that it never reads as a failure
        out["browser_target"] = record.browser_target
    out["unwrapped"] = record.unwrapped
    out["wrapper"] = list(record.wrapper or ())
    effective = record.effective
    out["effective_target"] = None if effective is None else effective.target
    out["effective_hops"] = None if effective is None else effective.hops
    out["effective_status"] = None if effective is None else effective.status
    out["effective_loop"] = None if effective is None else effective.loop
    out["page"] = place.page
    out["member"] = place.member
    if keys is not None and "region" in keys:
        out["region"] = place.region  # a key added when asked (EXTRA_KEYS)
    return out


def defect_json(defect: Defect) -> dict[str, Any]:
    """The defect as a JSON object (a ``defect`` line), keys in contract order."""
    origin = defect.origin
    return {
        "defect": defect.kind.value, "detail": defect.detail, "file": origin.file, "position": defect.position,
        "unit": defect.unit.value, "message": origin.message, "part": origin.part,
        "message_id": origin.message_id, "offset": origin.offset, "warc_record_id": origin.warc_record_id,
    }


def record_line(record: Record) -> str:
    """One record as one JSON line (without the line break)."""
    check.instance("record_line", "record", record, Record, "a Record")
    return RecordLines()(record)


def defect_line(defect: Defect) -> str:
    """One defect as one JSON line (without the line break)."""
    return dumps(defect_json(defect))


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a ``--format jsonl`` line, shipped
    in the package as ``urisift/schema/record.schema.json``."""
    from importlib.resources import files

    schema: dict[str, Any] = json.loads(files("urisift").joinpath("schema/record.schema.json").read_text("utf-8"))
    return schema


# (NotComputed and RecordLines are the package's names, kept here where they were)
__all__ = ["DEFECT_KEYS", "EXTRA_KEYS", "RECORD_KEYS", "NotComputed", "RecordLines", "defect_json", "defect_line",
           "file_place", "record_json", "record_line", "record_schema"]
