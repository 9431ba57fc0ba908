"""Fast constructors for the records' parts (the hot path of every scan): the
same objects as the classes' own constructors build, in a fraction of the
time (a test holds them to it)."""

from __future__ import annotations

from dataclasses import fields
from operator import attrgetter
from typing import Literal

from . import Base, Charset, Flag, Found, Kind, Origin, Place, Record, Risk, Span, Style, Where
from .events import Content

_new = object.__new__
_tuple_new = tuple.__new__
_p_where, _p_element, _p_attribute, _p_header, _p_rel, _p_text, _p_page, _p_member, _p_region = (
    getattr(Place, f.name).__set__ for f in fields(Place))
# The generated __init__ of a frozen dataclass sets each field through
# object.__setattr__ (its frozen check): 0.15-0.28 µs a field.  Setting the
# slots through their descriptors takes about a third of that.
_origin_names = tuple(f.name for f in fields(Origin))
_origin_values = attrgetter(*_origin_names)
_origin_index = {name: i for i, name in enumerate(_origin_names)}
_origin_setters = tuple(getattr(Origin, name).__set__ for name in _origin_names)

(_o_file, _o_message, _o_message_id, _o_part, _o_offset, _o_warc_record_id, _o_warc_target_uri, _o_warc_date,
 _o_line, _o_retrieval) = _origin_setters  # (a test holds the names to the class's fields, in order)
# Content is a frozen dataclass too: its slots set the same way (a test holds nested_content to its constructor)
(_c_body, _c_kind, _c_origin, _c_layer, _c_declared, _c_decoding, _c_sniffed, _c_live, _c_flags, _c_points_to,
 _c_placed, _c_budget, _c_at, _c_held, _c_inflated, _c_documents, _c_page) = (
    getattr(Content, f.name).__set__ for f in fields(Content))


def origin_with(origin: Origin, **changes: str | int | None) -> Origin:
    """``dataclasses.replace(origin, **changes)`` in under half the time:
    mail makes a few origins a message (its number, Message-ID, each part),
    a notebook one a cell.  Every field is read in one call, and set
    through its slot, one call each (no loop: a loop's steps cost as much)."""
    values = list(_origin_values(origin))
    for name, value in changes.items():
        values[_origin_index[name]] = value
    new: Origin = _new(Origin)
    _o_file(new, values[0])
    _o_message(new, values[1])
    _o_message_id(new, values[2])
    _o_part(new, values[3])
    _o_offset(new, values[4])
    _o_warc_record_id(new, values[5])
    _o_warc_target_uri(new, values[6])
    _o_warc_date(new, values[7])
    _o_line(new, values[8])
    _o_retrieval(new, values[9])
    return new


def new_place(where: Where, element: str | None, attribute: str | None, header: str | None,
              rel: tuple[str, ...] | None, text: str | None | Literal[False],
              region: str | None | Literal[False] = None) -> Place:
    """``Place(...)`` with every field given, in order (one per HTML link: its rel, text and region)."""
    place: Place = _new(Place)
    _p_where(place, where)
    _p_element(place, element)
    _p_attribute(place, attribute)
    _p_header(place, header)
    _p_rel(place, rel)
    _p_text(place, text)
    _p_page(place, None)
    _p_member(place, None)
    _p_region(place, region)
    return place


def new_found(reference: str, start: int | None, end: int | None, style: Style, flags: tuple[Flag, ...],
              alternatives: tuple[str, ...], expanded: str | None, place: Place) -> Found:
    """``Found(...)`` with every field given, in order."""
    return _tuple_new(Found, (reference, start, end, style, flags, alternatives, expanded, place))


def new_record(found: Found, target: str | None, base_layer: Base | None, origin: Origin,
               decoding: Charset | None, span: Span | None | Literal[False], line: int | None | Literal[False],
               column: int | None | Literal[False], risks: tuple[Risk, ...] | Literal[False],
               points_to: str | None | Literal[False] = None, browser_target: str | None | Literal[False] = False,
               unwrapped: str | None | Literal[False] = None, wrapper: tuple[str, ...] | Literal[False] = ()
               ) -> Record:
    """``Record(...)`` with every field but ``context`` given, in order."""
    return _tuple_new(Record, (found, target, base_layer, origin, decoding, span, line, column, risks, points_to,
                               None, browser_target, unwrapped, wrapper, None, None))


def with_flags(record: Record, flags: tuple[Flag, ...]) -> Record:
    """``record._replace(found=record.found._replace(flags=flags))`` in a fraction of the time: the
    scan adds its container's flags to every record of nested content (a notebook's code cell's)."""
    reference, start, end, style, _, alternatives, expanded, place = record.found
    return _tuple_new(Record, (_tuple_new(Found, (reference, start, end, style, flags, alternatives, expanded, place)),
                               *record[1:]))


def nested_content(body: str, kind: Kind, origin: Origin, around: Content, flags: tuple[Flag, ...] = ()) -> Content:
    """``Content(body, kind, origin, around.layer, flags=flags, budget=around.budget)`` in half the
    time (a frozen dataclass's constructor sets each of its sixteen fields through object.__setattr__):
    text found in the content ``around``, part of its document, read with the bases in force there
    (a notebook makes one a cell)."""
    content: Content = _new(Content)
    _c_body(content, body)
    _c_kind(content, kind)
    _c_origin(content, origin)
    _c_layer(content, around.layer)
    _c_declared(content, None)
    _c_decoding(content, None)
    _c_sniffed(content, False)
    _c_live(content, False)
    _c_flags(content, flags)
    _c_points_to(content, None)
    _c_placed(content, None)
    _c_budget(content, around.budget)
    _c_at(content, None)
    _c_held(content, None)
    _c_inflated(content, False)
    _c_documents(content, None)
    _c_page(content, None)
    return content
