"""A whole record's JSON line (ARCHITECTURE.md, The record contract), the hot path of every ``--format
jsonl`` run: exactly ``json.dumps(record_json(record), ensure_ascii=False)``
(a test holds the two to each other), built from parts joined once for the
records that share them.  Compiled by mypyc where the build can (setup.py);
the public doors (:func:`~.records.record_line`) stay in :mod:`.records`.

A record's line is its reference and target, then what stands before its
position (base, style, place, origin: the same for a run of records), the
link's ``rel`` and ``text`` (an HTML link's own), the position, and what
follows: flags, charset, risks, ``points_to`` and the browser's target, then
unwrapping, the effective target, ``page`` and ``member``.  The parts before
and after the browser's target are joined once for the commonest case (no
flag, no risk, nothing unwrapped): on a page with ``browser_target`` and a
``rel``/``text`` of each link's own, a line is then a few joins.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring
from typing import Any

from ..model import Base, Charset, Effective, Origin, Place, Record, Style, Where
from .computed import NotComputed, not_computed

#: the origin's keys, in output order
ORIGIN_KEYS = ("file", "message", "message_id", "part", "offset", "warc_record_id", "warc_target_uri",
               "warc_date")
NO_EFFECTIVE = '"effective_target": null, "effective_hops": null, "effective_status": null, "effective_loop": null'
_NO_PAGE = '"page": null, "member": null'
#: a record resolved against no base (an absolute reference, or none in force)
_NO_BASE = '"base": null, "base_source": null'
#: how many places' first parts (where, element, attribute, header) are remembered
_HEADS = 256


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def fragment(obj: dict[str, Any]) -> str:
    """``"k": v, ...`` for the keys of ``obj``, as json.dumps writes them."""
    return dumps(obj)[1:-1]


def string(value: str | None | bool) -> str:
    return "null" if value is None else encode_basestring(value)  # type: ignore[arg-type]


def strings(values: tuple[str, ...]) -> str:
    if not values:
        return "[]"
    return "[" + ", ".join([encode_basestring(v) for v in values]) + "]"


def number(value: int | None) -> str:
    return "null" if value is None else str(value)


def effective_json(effective: Effective) -> str:
    loop = "true" if effective.loop else "false"
    return (f'"effective_target": {string(effective.target)}, "effective_hops": {effective.hops}, '
            f'"effective_status": {number(effective.status)}, "effective_loop": {loop}')


class _Shared:
    """The JSON of the parts records share, remembered for the last object
    seen: consecutive records of one input share them (identity is enough,
    and keeps the cache from holding anything but the current input).  A
    place's first part is remembered by value too: the links of a page each
    have a place of their own (their rel and text), most of them ``a href``."""

    def __init__(self) -> None:
        self.origin: Origin | None = None
        self.origin_json = ""
        self.decoding: Charset | None | bool = False  # False: nothing seen yet (None is a value)
        self.decoding_json = ""
        self.base: Base | None = None  # the last base a record had (None: none yet)
        self.base_json = ""
        self.place: Place | None = None
        self.place_head = ""  # where, element, attribute, header
        self.rel_text = ""
        self.page_member = _NO_PAGE
        self.heads: dict[tuple[Where, str | None, str | None, str | None], str] = {}

    # Each ``take_*`` remembers a new object and its JSON; the caller has
    # already seen that it is not the one remembered (an identity test inline
    # is cheaper than a call on the hot path).

    def take_origin(self, origin: Origin) -> None:
        self.origin = origin
        self.origin_json = fragment({k: getattr(origin, k) for k in ORIGIN_KEYS})

    def take_decoding(self, decoding: Charset | None) -> None:
        self.decoding = decoding
        self.decoding_json = fragment({"charset": None if decoding is None else decoding.name,
                                       "charset_source": None if decoding is None else decoding.source.value})

    def take_base(self, base: Base) -> None:
        self.base = base
        self.base_json = fragment({"base": base.uri, "base_source": base.source.value})

    def take_place(self, place: Place) -> None:
        self.place = place
        key = (place.where, place.element, place.attribute, place.header)
        head = self.heads.get(key)
        if head is None:
            if len(self.heads) >= _HEADS:
                self.heads.clear()
            head = self.heads[key] = (
                f'"where": {encode_basestring(place.where.value)}, "element": {string(place.element)}, '
                f'"attribute": {string(place.attribute)}, "header": {string(place.header)}')
        self.place_head = head
        rel = "null" if place.rel is None else strings(place.rel)
        self.rel_text = f'"rel": {rel}, "text": {string(place.text)}'
        page, member = place.page, place.member
        self.page_member = _NO_PAGE if page is None and member is None else \
            f'"page": {number(page)}, "member": {string(member)}'


class RecordLines:
    """Writes records as JSON lines (see the module doc); one per writer.

    The hot path of a link-dense input: the shared parts come from
    :class:`_Shared` by identity, the target's JSON is the reference's
    when they are the same string, and what stands between the target and
    the position (base, style, place, origin) is joined once for a run of
    records that share it, as are, for a record with no flags, risks,
    unwrapping or effective target, the parts around its browser target.
    """

    def __init__(self) -> None:
        self._shared = _Shared()
        self._style: Style | None = None  # the style the middle parts were joined for
        self._head_for = ""  # the place head the middle parts were joined for
        # the middle part (base, style, place head, origin) joined twice over: for
        # the records with no base (absolute references) and for those with the
        # base last seen, since the two alternate on a page; each slot remembers
        # the base JSON it was joined for ("" for none yet)
        self._middles = ["", ""]
        self._middle_for = ["", ""]
        self._plain_before_for: Charset | None | bool = False  # the decoding _plain_before was joined for
        self._plain_before = ""
        self._plain_after_for = ""  # the page and member _plain_after was joined for
        self._plain_after = ""

    def __call__(self, record: Record) -> str:
        if record.risks is False or record.span is False or record.unwrapped is False \
                or record.points_to is False:
            raise NotComputed(not_computed(record) or "risks")
        shared = self._shared
        found = record.found
        place = found.place
        style = found.style
        if place is not shared.place:
            if place.text is False:
                raise NotComputed("text")
            shared.take_place(place)
        changed = style is not self._style or shared.place_head is not self._head_for
        origin = record.origin
        if origin is not shared.origin:
            shared.take_origin(origin)
            changed = True
        decoding = record.decoding
        if decoding is not shared.decoding:
            shared.take_decoding(decoding)
        if changed:
            self._style = style
            self._head_for = shared.place_head
            self._middle_for = ["", ""]
        base = record.base_layer
        if base is None:
            slot, base_json = 0, _NO_BASE
        else:
            if base is not shared.base:
                shared.take_base(base)
            slot, base_json = 1, shared.base_json
        if self._middle_for[slot] is not base_json:
            self._middle_for[slot] = base_json
            self._middles[slot] = f'{base_json}, "style": "{style._value_}", {shared.place_head}, {shared.origin_json}'
        middle = self._middles[slot]
        reference = found.reference
        uri = encode_basestring(reference)
        target = record.target
        span = record.span
        alternatives = found.alternatives
        if span is None:
            position = f'"span": null, "line": {number(record.line)}, "column": {number(record.column)}'
        else:
            position = f'"span": [{span[0]}, {span[1]}], "line": {record.line}, "column": {record.column}'
        head = (f'{{"uri": {uri}, "target": {uri if target is reference else string(target)}, '
                f'"alternatives": {strings(alternatives) if alternatives else "[]"}, {middle}, '
                f'{shared.rel_text}, {position}, ')
        flags = found.flags
        risks = record.risks
        points_to = record.points_to
        if not flags and not risks and points_to is None:
            if decoding is not self._plain_before_for:
                self._plain_before_for = decoding
                self._plain_before = f'"flags": [], {shared.decoding_json}, "risks": [], "points_to": null'
            before = self._plain_before
        else:
            before = (f'"flags": {strings(flags) if flags else "[]"}, {shared.decoding_json}, '
                      f'"risks": {dumps([r.to_json() for r in risks]) if risks else "[]"}, '
                      f'"points_to": {string(points_to)}')
        browser = record.browser_target
        unwrapped, wrapper, effective = record.unwrapped, record.wrapper, record.effective
        if unwrapped is None and not wrapper and effective is None:
            if shared.page_member is not self._plain_after_for:
                self._plain_after_for = shared.page_member
                self._plain_after = (f', "unwrapped": null, "wrapper": [], {NO_EFFECTIVE}, '
                                     f'{shared.page_member}}}')
            after = self._plain_after
        else:
            after = (f', "unwrapped": {string(unwrapped)}, "wrapper": {strings(wrapper) if wrapper else "[]"}, '
                     f'{NO_EFFECTIVE if effective is None else effective_json(effective)}, {shared.page_member}}}')
        if browser is False:  # not asked for: no key, so that it never reads as a failure
            return head + before + after
        return head + before + ', "browser_target": ' + string(browser) + after


__all__ = ["NO_EFFECTIVE", "ORIGIN_KEYS", "RecordLines", "dumps", "effective_json", "fragment", "number", "string",
           "strings"]
