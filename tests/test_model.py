"""The pipeline's vocabulary (model.py): records composed of shared parts."""

from __future__ import annotations

import dataclasses
import pickle

from urisift import (
    Base,
    BaseSource,
    Charset,
    CharsetSource,
    Defect,
    DefectKind,
    Flag,
    Found,
    Origin,
    Place,
    Record,
    Span,
    Style,
    Where,
)
from urisift.model import TEXT, Content, Kind, Unit, nested_content, new_found, new_record, origin_with, with_flags
from urisift.stages.base import BaseLayer
from urisift.stages.containment import Limits


def _record() -> Record:
    found = Found("../g", 5, 9, Style.ANGLE_URL, (Flag.WRAPPED,), ("../h",))
    return Record(found, "http://a/b/g", Base("http://a/b/c/d", BaseSource.RETRIEVAL, "--base"),
                  Origin(file="f.txt", message=3, part="1.2"), Charset("utf-8", CharsetSource.DETECTED),
                  Span(5, 9), 2, 1)


def test_record_reads_like_its_json_line() -> None:
    r = _record()
    assert (r.uri, r.target, r.base, r.base_source, r.style, r.where, r.flags, r.alternatives) == (
        "../g", "http://a/b/g", "http://a/b/c/d", BaseSource.RETRIEVAL, Style.ANGLE_URL, Where.TEXT,
        (Flag.WRAPPED,), ("../h",))
    assert (r.file, r.charset, r.charset_source, r.span, r.line, r.column) == (
        "f.txt", "utf-8", CharsetSource.DETECTED, (5, 9), 2, 1)


def test_undefined_parts_are_none() -> None:
    r = Record(Found("http://x/", None, None, Style.HEADER, place=Place(Where.HEADER, header="List-Post")),
               "http://x/", None, Origin(), None)
    assert (r.base, r.base_source, r.charset, r.charset_source, r.span, r.line, r.column) == (
        None, None, None, None, None, None, None)
    assert (r.where, r.place.header) == (Where.HEADER, "List-Post")


def test_fast_constructors_build_the_same_objects() -> None:
    r = _record()
    f = r.found
    assert new_found(*f) == f and type(new_found(*f)) is Found
    built = new_record(f, r.target, r.base_layer, r.origin, r.decoding, r.span, r.line, r.column, r.risks)
    assert built == r
    origin = Origin(file="a.mbox", message=3, message_id="<m@x>", part="1", offset=10)
    assert origin_with(origin, part="2.1", offset=None) == dataclasses.replace(origin, part="2.1", offset=None)
    assert origin_with(origin) == origin
    # every field, each changed alone: the fast constructor names them in the class's order
    values = {"file": "b", "message": 4, "message_id": "<n@x>", "part": "2", "offset": 11, "warc_record_id": "<r>",
              "warc_target_uri": "http://t.example/", "warc_date": "2026-11-25T00:00:00Z", "line": 12,
              "retrieval": "http://r.example/d/"}
    assert [f.name for f in dataclasses.fields(Origin)] == list(values)
    for name, value in values.items():
        assert origin_with(origin, **{name: value}) == dataclasses.replace(origin, **{name: value})
    flags = (Flag.WRAPPED, Flag.CODE)
    flagged = with_flags(r, flags)
    assert flagged == r._replace(found=f._replace(flags=flags)) and type(flagged) is Record
    assert type(flagged.found) is Found
    around = Content(b"{}", Kind.NOTEBOOK, origin, BaseLayer(), decoding=Charset("utf-8", CharsetSource.BOM),
                     sniffed=True, flags=(Flag.WRAPPED,), budget=Limits().budget(), held=3)
    cell = origin_with(origin, part="3")
    for kind, flags in ((Kind.MARKDOWN, ()), (Kind.TEXT, (Flag.CODE,))):
        assert nested_content("x", kind, cell, around, flags) == Content("x", kind, cell, around.layer, flags=flags,
                                                                         budget=around.budget)
    assert [f.name for f in dataclasses.fields(Content)][:4] == ["body", "kind", "origin", "layer"]


def test_everything_pickles() -> None:
    # worker processes send records and defects back to the parent
    r = _record()
    d = Defect(DefectKind.BAD_BASE, "x", Origin(file="f"), 3, Unit.CHARACTER)
    assert pickle.loads(pickle.dumps(r)) == r
    assert pickle.loads(pickle.dumps(d)) == d


def test_span_is_a_pair() -> None:
    assert Span(3, 7) == (3, 7) and Span(3, 7).end == 7


def test_defect_names_the_input_and_the_position() -> None:
    d = Defect(DefectKind.UNDECODABLE_BYTES, "ff is not utf-8", Origin(file="box", message=4, part="2"), 17)
    assert str(d) == "box message 4 part 2 at byte 17: undecodable-bytes: ff is not utf-8"
    assert str(Defect(DefectKind.BINARY_CONTENT, "NUL")) == "<input>: binary-content: NUL"
    assert (d.file, d.message, d.part) == ("box", 4, "2")


def test_text_place_is_the_default() -> None:
    assert Found("x:y", 0, 3, Style.BARE).place is TEXT and Place(Where.TEXT) == TEXT
