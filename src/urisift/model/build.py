"""Fast constructors for the records' parts (the hot path of every scan): the
same objects as the classes' own constructors build, in a fraction of the
time (a test holds them to it)."""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter
from typing import Literal

from . import Base, Charset, Flag, Found, Origin, Place, Record, Risk, Span, Style, Where

_new = object.__new__
_tuple_new = tuple.__new__
_p_where, _p_element, _p_attribute, _p_header, _p_rel, _p_text, _p_page, _p_member = (
    getattr(Place, f.name).__set__ for f in fields(Place))
# The generated __init__ of a frozen dataclass sets each field through
# object.__setattr__ (its frozen check): 0.15-0.28 µs a field.  Setting the
# slots through their descriptors takes about a third of that.
_o_file, _o_message, _o_message_id, _o_part, _o_offset, _o_record_id, _o_target_uri, _o_date = (
    getattr(Origin, f.name).__set__ for f in fields(Origin))
_origin_values = attrgetter(*(f.name for f in fields(Origin)))


def origin_with(origin: Origin, **changes: str | int | None) -> Origin:
    """``dataclasses.replace(origin, **changes)`` in half the time: mail
    makes a few origins a message (its number, Message-ID, each part)."""
    file, message, message_id, part, offset, record_id, target_uri, date = _origin_values(origin)
    if changes:  # (a test per field: a dict lookup with a default costs twice as much)
        if "file" in changes:
            file = changes["file"]
        if "message" in changes:
            message = changes["message"]
        if "message_id" in changes:
            message_id = changes["message_id"]
        if "part" in changes:
            part = changes["part"]
        if "offset" in changes:
            offset = changes["offset"]
        if "warc_record_id" in changes:
            record_id = changes["warc_record_id"]
        if "warc_target_uri" in changes:
            target_uri = changes["warc_target_uri"]
        if "warc_date" in changes:
            date = changes["warc_date"]
    new: Origin = _new(Origin)
    _o_file(new, file)
    _o_message(new, message)
    _o_message_id(new, message_id)
    _o_part(new, part)
    _o_offset(new, offset)
    _o_record_id(new, record_id)
    _o_target_uri(new, target_uri)
    _o_date(new, date)
    return new


def new_place(where: Where, element: str | None, attribute: str | None, header: str | None,
              rel: tuple[str, ...] | None, text: str | None) -> Place:
    """``Place(...)`` with every field given, in order (one per HTML link: its rel and text)."""
    place: Place = _new(Place)
    _p_where(place, where)
    _p_element(place, element)
    _p_attribute(place, attribute)
    _p_header(place, header)
    _p_rel(place, rel)
    _p_text(place, text)
    _p_page(place, None)
    _p_member(place, None)
    return place


def new_found(reference: str, start: int | None, end: int | None, style: Style, flags: tuple[Flag, ...],
              alternatives: tuple[str, ...], expanded: str | None, place: Place) -> Found:
    """``Found(...)`` with every field given, in order."""
    return _tuple_new(Found, (reference, start, end, style, flags, alternatives, expanded, place))


def new_record(found: Found, target: str | None, base_layer: Base | None, origin: Origin,
               decoding: Charset | None, span: Span | None, line: int | None, column: int | None,
               risks: tuple[Risk, ...], points_to: str | None = None,
               browser_target: str | None | Literal[False] = False, unwrapped: str | None = None,
               wrapper: tuple[str, ...] = ()) -> Record:
    """``Record(...)`` with every field but ``context`` given, in order."""
    return _tuple_new(Record, (found, target, base_layer, origin, decoding, span, line, column, risks, points_to,
                               None, browser_target, unwrapped, wrapper, None))
