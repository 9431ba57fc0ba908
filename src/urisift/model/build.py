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
_p_where, _p_element, _p_attribute, _p_header, _p_rel, _p_text, _p_page, _p_member, _p_region = (
    getattr(Place, f.name).__set__ for f in fields(Place))
# The generated __init__ of a frozen dataclass sets each field through
# object.__setattr__ (its frozen check): 0.15-0.28 µs a field.  Setting the
# slots through their descriptors takes about a third of that.
_origin_names = tuple(f.name for f in fields(Origin))
_origin_values = attrgetter(*_origin_names)
_origin_index = {name: i for i, name in enumerate(_origin_names)}
_origin_setters = tuple(getattr(Origin, name).__set__ for name in _origin_names)


def origin_with(origin: Origin, **changes: str | int | None) -> Origin:
    """``dataclasses.replace(origin, **changes)`` in half the time: mail
    makes a few origins a message (its number, Message-ID, each part).
    Every field is read in one call, and set through its slot."""
    values = list(_origin_values(origin))
    for name, value in changes.items():
        values[_origin_index[name]] = value
    new: Origin = _new(Origin)
    for setter, value in zip(_origin_setters, values, strict=False):  # (both one a field)
        setter(new, value)
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
