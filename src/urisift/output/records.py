"""The record contract of DESIGN §2 in one place: the keys and their order,
what each holds, and the writers for ``text``, ``jsonl`` and ``csv``.

Keys are stable and never renamed.  Since the pipeline issue a record also
carries ``offset``, ``warc_record_id``, ``warc_target_uri``, ``warc_date``,
``rel`` and ``text`` (null where they do not apply); since the mail issue,
``points_to``, the part path a ``cid:``/``mid:``/Content-Location
reference names; since issue 25, ``browser_target``, what the WHATWG
URL parser gives (present only where it was computed: always for HTML and
WARC, for text and mail with ``--resolve browser|both``; null where that
parser fails); since issue 23, ``unwrapped`` and ``wrapper`` (the URL behind
a link-protection service's or an archive's wrapping, and the wrappers),
and ``effective_target``, ``effective_hops``, ``effective_status``,
``effective_loop`` (where the target ends in a crawl's captures, with
``--effective``; null otherwise); since issue 21, ``page`` (PDF) and
``member`` (the part of an office file's ZIP package), last; and a defect
line also carries ``message_id``, ``offset`` and ``warc_record_id``.  A run
adds keys when asked (:data:`EXTRA_KEYS`): ``region`` (issue 39: where on
an HTML page it stands: --fields naming it, --region), ``context``,
``normalized``.

JSON lines are written by :func:`record_line`, which gives exactly
``json.dumps(record_json(record), ensure_ascii=False)`` (a test holds it to
that) but builds the parts every record of one input shares -- its origin,
charset, base and place -- once, not once a record.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from json.encoder import encode_basestring
from typing import Any

from .. import arguments as check
from ..model import Base, Charset, Defect, Effective, Origin, Place, Record, Style

#: JSON keys of a record, in output order (DESIGN §2; never renamed).
RECORD_KEYS = (
    "uri", "target", "alternatives", "base", "base_source", "style", "where", "element", "attribute",
    "header", "file", "message", "message_id", "part", "offset", "warc_record_id", "warc_target_uri",
    "warc_date", "rel", "text", "span", "line", "column", "flags", "charset", "charset_source", "risks",
    "points_to", "browser_target", "unwrapped", "wrapper", "effective_target", "effective_hops", "effective_status",
    "effective_loop", "page", "member",
)
#: keys a run adds when asked, after the contract's, in this order (urisift.needs.KEYS)
EXTRA_KEYS = ("region", "context", "normalized")
#: JSON keys of a defect line, in output order.
DEFECT_KEYS = ("defect", "detail", "file", "position", "unit", "message", "part", "message_id", "offset",
               "warc_record_id")

_ORIGIN_KEYS = ("file", "message", "message_id", "part", "offset", "warc_record_id", "warc_target_uri",
                "warc_date")


class NotComputed(ValueError):
    """A key written that the scan was not asked to compute (ScanOptions.fields, issue 36)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the record's {key!r} was not computed: ask for it (ScanOptions.fields, --fields)")


def _not_computed(record: Record, keys: Collection[str] | None = None) -> str | None:
    """The first key of ``record`` (of ``keys``, when given) that was not computed, if any."""
    for key, value in (("risks", record.risks), ("span", record.span), ("line", record.line),
                       ("column", record.column), ("unwrapped", record.unwrapped), ("wrapper", record.wrapper),
                       ("points_to", record.points_to), ("text", record.found.place.text)):
        if value is False and (keys is None or key in keys):
            return key
    if keys is not None and "region" in keys and record.found.place.region is False:
        return "region"  # (a key added when asked: not one of every record's)
    return None


def record_json(record: Record, keys: Collection[str] | None = None) -> dict[str, Any]:
    """The record as a JSON object, keys in contract order; raises
    :class:`NotComputed` for a record whose scan was not asked for every key
    (for one of ``keys``, when given: those the caller writes)."""
    if type(record) is not Record:
        check.instance("record_json", "record", record, Record, "a Record")
    missing = _not_computed(record, keys)
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
    for key in _ORIGIN_KEYS:
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


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _fragment(obj: dict[str, Any]) -> str:
    """``"k": v, ...`` for the keys of ``obj``, as json.dumps writes them."""
    return _dumps(obj)[1:-1]


def _string(value: str | None | bool) -> str:
    return "null" if value is None else encode_basestring(value)  # type: ignore[arg-type]


class _Fragments:
    """The JSON of the parts records share, remembered for the last object
    seen: consecutive records of one input share them (identity is enough,
    and keeps the cache from holding anything but the current input)."""

    __slots__ = ("origin", "origin_json", "decoding", "decoding_json", "base", "base_json", "place",
                 "place_json")

    def __init__(self) -> None:
        self.origin: Origin | None = None
        self.origin_json = ""
        self.decoding: Charset | None | bool = False  # False: nothing seen yet (None is a value)
        self.decoding_json = ""
        self.base: Base | None | bool = False
        self.base_json = ""
        self.place: Place | None = None
        self.place_json: tuple[str, str, str] = ("", "", "")

    # Each ``take_*`` remembers a new object and its JSON; the caller has
    # already seen that it is not the one remembered (an identity test inline
    # is cheaper than a call on the hot path).

    def take_origin(self, origin: Origin) -> None:
        self.origin = origin
        self.origin_json = _fragment({k: getattr(origin, k) for k in _ORIGIN_KEYS})

    def take_decoding(self, decoding: Charset | None) -> None:
        self.decoding = decoding
        self.decoding_json = _fragment({"charset": None if decoding is None else decoding.name,
                                        "charset_source": None if decoding is None else decoding.source.value})

    def take_base(self, base: Base | None) -> None:
        self.base = base
        self.base_json = _fragment({"base": None if base is None else base.uri,
                                    "base_source": None if base is None else base.source.value})

    def take_place(self, place: Place) -> None:
        self.place = place
        # (joined here rather than through json.dumps: an HTML link has a place
        # of its own, its rel and text, so this runs once a link)
        rel = "null" if place.rel is None else _list(place.rel)
        self.place_json = (
            f'"where": {encode_basestring(place.where.value)}, "element": {_string(place.element)}, '
            f'"attribute": {_string(place.attribute)}, "header": {_string(place.header)}',
            f'"rel": {rel}, "text": {_string(place.text)}',
            f'"page": {_number(place.page)}, "member": {_string(place.member)}')


def _list(values: tuple[str, ...]) -> str:
    if not values:
        return "[]"
    return "[" + ", ".join(encode_basestring(v) for v in values) + "]"


class RecordLines:
    """Writes records as JSON lines (see the module doc); one per writer.

    The hot path of a link-dense input: the shared parts come from
    :class:`_Fragments` by identity, the target's JSON is the reference's
    when they are the same string, and what stands between the target and
    the position (base, style, place, origin) and, for a record with no
    flags, risks, wrapper or effective target, everything after the
    position, are joined once for a run of records that share them.
    """

    def __init__(self) -> None:
        self._shared = _Fragments()
        self._style: Style | None = None  # the style the middle part was joined for
        self._middle = ""
        self._plain_for: tuple[Charset | None, Place | None] = (None, None)  # what _plain_end was joined for
        self._plain_end = ""

    def __call__(self, record: Record) -> str:
        if record.risks is False or record.span is False or record.unwrapped is False \
                or record.points_to is False:
            raise NotComputed(_not_computed(record) or "risks")
        shared = self._shared
        found = record.found
        place = found.place
        style = found.style
        changed = style is not self._style
        if place is not shared.place:
            if place.text is False:
                raise NotComputed("text")
            shared.take_place(place)
            changed = True
        origin = record.origin
        if origin is not shared.origin:
            shared.take_origin(origin)
            changed = True
        base = record.base_layer
        if base is not shared.base:
            shared.take_base(base)
            changed = True
        decoding = record.decoding
        if decoding is not shared.decoding:
            shared.take_decoding(decoding)
        if changed:
            self._style = style
            self._middle = (f'{shared.base_json}, "style": "{style._value_}", {shared.place_json[0]}, '
                            f'{shared.origin_json}, {shared.place_json[1]}')
        reference = found.reference
        uri = encode_basestring(reference)
        target = record.target
        span = record.span
        alternatives = found.alternatives
        if span is None:
            position = f'"span": null, "line": {_number(record.line)}, "column": {_number(record.column)}'
        else:
            position = f'"span": [{span[0]}, {span[1]}], "line": {record.line}, "column": {record.column}'
        head = (f'{{"uri": {uri}, "target": {uri if target is reference else _string(target)}, '
                f'"alternatives": {_list(alternatives) if alternatives else "[]"}, {self._middle}, {position}, ')
        flags = found.flags
        risks = record.risks
        browser = record.browser_target
        wrapper = record.wrapper
        if not flags and not risks and record.points_to is None and record.unwrapped is None \
                and not wrapper and record.effective is None and browser is False:
            joined_for = self._plain_for
            if decoding is not joined_for[0] or place is not joined_for[1]:
                self._plain_for = (decoding, place)
                self._plain_end = self._end("[]", "[]", "null", "", "null", "[]", _NO_EFFECTIVE)
            return head + self._plain_end
        return head + self._end(
            _list(flags) if flags else "[]", _dumps([r.to_json() for r in risks]) if risks else "[]",
            _string(record.points_to), "" if browser is False else f', "browser_target": {_string(browser)}',
            _string(record.unwrapped), _list(wrapper) if wrapper else "[]",  # type: ignore[arg-type]
            _NO_EFFECTIVE if record.effective is None else _effective(record.effective))

    def _end(self, flags: str, risks: str, points_to: str, browser: str, unwrapped: str, wrapper: str,
             effective: str) -> str:
        """The line after the position (its JSON parts given)."""
        shared = self._shared
        return (f'"flags": {flags}, {shared.decoding_json}, "risks": {risks}, "points_to": {points_to}{browser}, '
                f'"unwrapped": {unwrapped}, "wrapper": {wrapper}, {effective}, {shared.place_json[2]}}}')


_NO_EFFECTIVE = '"effective_target": null, "effective_hops": null, "effective_status": null, "effective_loop": null'


def _effective(effective: Effective) -> str:
    loop = "true" if effective.loop else "false"
    return (f'"effective_target": {_string(effective.target)}, "effective_hops": {effective.hops}, '
            f'"effective_status": {_number(effective.status)}, "effective_loop": {loop}')


def _number(value: int | None) -> str:
    return "null" if value is None else str(value)


def record_line(record: Record) -> str:
    """One record as one JSON line (without the line break)."""
    check.instance("record_line", "record", record, Record, "a Record")
    return RecordLines()(record)


def defect_line(defect: Defect) -> str:
    """One defect as one JSON line (without the line break)."""
    return _dumps(defect_json(defect))


def record_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a ``--format jsonl`` line, shipped
    in the package as ``urisift/schema/record.schema.json``."""
    from importlib.resources import files

    schema: dict[str, Any] = json.loads(files("urisift").joinpath("schema/record.schema.json").read_text("utf-8"))
    return schema
