"""Orchestration (pipeline/scan.py): one found-to-record step for every kind, units for pools."""

from __future__ import annotations

import ast
import io
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import urisift
from urisift import (
    BaseLayer,
    Defect,
    DefectKind,
    Found,
    InputError,
    Kind,
    Origin,
    Record,
    ScanOptions,
    Style,
    iter_input,
    resolve,
    risks,
    scan_stream,
)
from urisift.model import Base, BaseSource, Content
from urisift.pipeline.scan import scan_content
from urisift.stages.delimit.chars import LEADING_SCHEME
from urisift.stages.found_to_record import Tail, _plainly_opaque
from urisift.uri.risk import plainly_safe
from urisift.uri.validity import invalidity, plainly_valid

from .conftest import ROOT

PACKAGE = ROOT / "src" / "urisift"


def _key(item: Record | Defect) -> tuple[object, ...]:
    if isinstance(item, Defect):
        return ("defect", item.kind, item.detail, item.file, item.position)
    return (item.uri, item.target, item.base, item.span, item.line, item.column, item.flags, item.alternatives,
            item.file, item.charset, item.risks)


def _scan_list(path: str, options: ScanOptions) -> list[Record | Defect]:
    return list(iter_input(path, options))


def test_a_process_pool_gives_the_same_records_as_a_serial_run(tmp_path: Path) -> None:
    inputs = sorted(str(p) for p in (ROOT / "corpora" / "text").glob("*.txt"))
    broken = tmp_path / "broken.txt"
    broken.write_bytes(b"x http://bad.example/\xff\xfe y <URL:rel/x>\n")
    inputs += [str(broken), str(tmp_path / "missing.txt")]
    options = ScanOptions(base="http://base.example/d/")
    serial = [_scan_list(path, options) for path in inputs]
    with ProcessPoolExecutor(2) as pool:
        parallel = list(pool.map(_scan_list, inputs, [options] * len(inputs)))
    assert [[_key(i) for i in items] for items in parallel] == [[_key(i) for i in items] for items in serial]
    assert parallel == serial  # the objects themselves come back equal
    assert sum(isinstance(i, Record) for items in serial for i in items) >= 49
    assert [i.kind for i in serial[-1] if isinstance(i, Defect)] == [DefectKind.UNREADABLE]


def test_strict_policy_stops_at_the_first_defect(tmp_path: Path) -> None:
    f = tmp_path / "bad.txt"
    # past the 64 KiB sample that chose UTF-8, a byte that is not UTF-8
    f.write_bytes(b"http://one.example/\n" + b"a" * 70_000 + b"\n\xff\n")
    assert [type(i).__name__ for i in iter_input(str(f))] == ["Defect", "Record"]  # a chunk's defects first
    with pytest.raises(InputError, match="undecodable-bytes"):
        list(iter_input(str(f), ScanOptions(strict=True)))


def test_a_sniffed_kind_that_is_not_built_is_reported_and_scanned_as_text() -> None:
    # every kind a file can be sniffed as is built now; content handed in as
    # a kind scan_content has no reader for (a Maildir is a folder) still
    # gets the lenient path: a defect, then the text scanner
    content = Content(b"see http://x.example/\n", Kind.MAILDIR, Origin(file="f"), BaseLayer(), sniffed=True)
    items = list(scan_content(content, ScanOptions()))
    assert isinstance(items[0], Defect) and items[0].kind is DefectKind.UNSUPPORTED_KIND
    assert items[0].detail == ("this looks like maildir content, which this version does not read yet; "
                               "scanned as plain text")
    assert [i.uri for i in items[1:] if isinstance(i, Record)] == ["http://x.example/"]


def test_a_sniffed_warc_file_is_read_as_warc(tmp_path: Path) -> None:
    f = tmp_path / "archive.warc"
    f.write_bytes(b"WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 22\r\n\r\nsee http://x.example/\n")
    assert list(iter_input(str(f))) == []  # a warcinfo record is skipped
    # --kind text: the same bytes as text
    assert [type(i).__name__ for i in iter_input(str(f), ScanOptions(kind=Kind.TEXT))] == ["Record"]


def test_a_sniffed_html_file_is_read_as_html(tmp_path: Path) -> None:
    f = tmp_path / "page.html"
    f.write_bytes(b"<!doctype html><p>see http://x.example/ and <a href=rel.html>this</a></p>")
    items = list(iter_input(str(f), ScanOptions(base="http://h.example/d/")))
    assert [(type(i).__name__, i.uri, i.target, i.element) for i in items if isinstance(i, Record)] == [
        ("Record", "http://x.example/", "http://x.example/", "p"),
        ("Record", "rel.html", "http://h.example/d/rel.html", "a")]
    # --kind text reads the markup as text: the relative link is lost
    assert [i.uri for i in iter_input(str(f), ScanOptions(kind=Kind.TEXT)) if isinstance(i, Record)] == [
        "http://x.example/"]


def test_an_unbuilt_kind_asked_for_is_an_error() -> None:
    content = Content(b"x", Kind.MAILDIR, Origin(file="m"), BaseLayer())
    with pytest.raises(InputError, match="reading maildir input is not built yet"):
        list(scan_content(content, ScanOptions()))


@given(st.from_regex(r"[a-z]{1,5}:(//[a-z.]{0,6}(:[0-9]{0,3})?)?[a-z./%0@:?#]{0,12}", fullmatch=True))
def test_the_tails_fast_path_agrees_with_the_full_resolution(reference: str) -> None:
    tail = Tail(BaseLayer(), Origin(), None)
    record = tail(Found(reference, 0, len(reference), Style.BARE))
    assert record.target == str(resolve(reference, reference))
    bad = invalidity(reference)  # the invalid flag comes first, then the §7 ones
    assert record.risks == ((bad,) if bad else ()) + risks(resolve(reference, reference))


@given(st.from_regex(r"[a-zA-Z]{1,5}:(//[a-z0-9.]{0,6}(:[0-9]{0,3})?|\.)?[a-zA-Z./%0-9@:?#|]{0,12}", fullmatch=True),
       st.sampled_from([None, "http://h.example/d/f"]))
@example("http://0x7f.1/x", None)  # (valid, but a rare IPv4 form: flagged)
@example("http://a.example/%0D%0Ax", None)  # (an encoded CR LF)
@example("mailto:a@b%2", "http://h.example/d/f")  # (a bad escape)
@example("mailto:ann@example.org", None)  # (no "/" and no "%": one match tells it)
@example("tel:+1-555;x=y?z#f", "http://h.example/d/f")
def test_the_tails_plain_path_agrees_with_working_a_header_value_out(reference: str, base: str | None) -> None:
    found = Found(reference, 0, len(reference), Style.HEADER)  # (a calendar's URL, ORGANIZER ...: not told a scheme)
    layer = BaseLayer() if base is None else BaseLayer.holding(Base(base, BaseSource.RETRIEVAL))
    worked_out = Tail(layer, Origin(), None)
    worked_out._plain = None  # every reference through _work_out
    assert Tail(layer, Origin(), None)(found) == worked_out(found)


@settings(max_examples=3000)
@given(st.from_regex(r"[a-zA-Z][a-zA-Z0-9+.-]{0,4}:[a-zA-Z0-9.:@?#%/!$&'()*+,;=~_|é -]{0,14}", fullmatch=True))
@example("mailto:ann@example.org?subject=x#y")
@example("x:.y")  # (a rootless "./": not plain)
def test_the_one_match_for_an_opaque_reference_accepts_what_the_steps_accept(reference: str) -> None:
    # _plainly_absolute's first match, for a reference with no "/" and no "%": what its steps would say
    if _plainly_opaque(reference) is not None:
        scheme = LEADING_SCHEME.match(reference)
        assert scheme is not None and "/." not in reference and not reference.startswith(".", scheme.end())
        assert plainly_valid(reference) and plainly_safe(reference)
    for opaque in ("mailto:ann@example.org", "tel:+1-555-0100", "urn:isbn:0451450523", "xmpp:a@b.example?x;y"):
        assert _plainly_opaque(opaque) is not None
    for other in ("mailto:a@b%2", "x:./y", "x:.y", "http://a.example/", "x:/a", "mailto:a b"):
        assert _plainly_opaque(other) is None


def test_a_plainly_safe_absolute_header_value_is_its_own_target_and_others_are_worked_out() -> None:
    tail = Tail(BaseLayer(), Origin(), None)
    records = [tail(Found(r, 0, len(r), Style.HEADER)) for r in ("mailto:ann@example.org", "mailto:a@b%2", "x:/./y")]
    assert [(r.target, [k.flag for k in r.risks]) for r in records] == [
        ("mailto:ann@example.org", []), ("mailto:a@b%2", ["invalid"]), ("x:/y", [])]


def test_scan_stream_of_a_string_base_and_bytes_agree() -> None:
    data = b"<URL:g> http://a.example/"
    records = [r for r in scan_stream(io.BytesIO(data), base="http://h/d/f") if isinstance(r, Record)]
    assert [(r.uri, r.target, r.base) for r in records] == [("g", "http://h/d/g", "http://h/d/f"),
                                                              ("http://a.example/", "http://a.example/", None)]


# -- the layout (ARCHITECTURE.md, Layers): checked again from the source ---------------------

def _module(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The package's modules ``path`` imports at run time (not those named
    for type hints only, under ``if TYPE_CHECKING:``), as absolute names."""
    tree = ast.parse(path.read_text("utf-8"))
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: set[str] = set()
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join([*base, *([node.module] if node.module else [])])
            else:
                name = node.module or ""
            if name.startswith("urisift"):
                names.add(name)
                names.update(f"{name}.{alias.name}" for alias in node.names)
        pending.extend(ast.iter_child_nodes(node))
    return names


#: the folders below the scan: the vocabulary, the URI core, the stages, the readers
BELOW_SCAN = ("model", "uri", "stages", "readers")


@pytest.mark.parametrize("path", sorted(p for part in BELOW_SCAN for p in (PACKAGE / part).rglob("*.py")),
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_nothing_below_scan_imports_scan_or_cli(path: Path) -> None:
    assert not {n for n in _imports(path) if n.startswith(("urisift.pipeline.scan", "urisift.cli"))}


@pytest.mark.parametrize("path", sorted((PACKAGE / "model").glob("*.py")), ids=lambda p: p.name)
def test_model_imports_nothing_of_the_pipeline(path: Path) -> None:
    # nothing outside the model package at run time (a hint's import is under TYPE_CHECKING)
    assert {n for n in _imports(path) if not n.startswith("urisift.model")} == set()


def test_the_top_of_the_package_is_its_face() -> None:
    # ARCHITECTURE.md, Code map: a folder for each part; at the top only the library's face
    assert sorted(p.name for p in PACKAGE.glob("*.py")) == ["__init__.py", "__main__.py", "api.py"]
    assert sorted(p.name for p in PACKAGE.iterdir() if p.is_dir() and p.name != "__pycache__") == [
        "cli", "crawl", "data", "model", "output", "pipeline", "pool", "readers", "schema", "spark", "stages", "uri"]


def test_no_submodule_has_the_name_of_a_public_function() -> None:
    # urisift.resolve is the function to every tool (help(), documentation tools, IDEs), not a module
    modules = {p.stem for p in PACKAGE.rglob("*.py")} | {p.name for p in PACKAGE.rglob("*") if p.is_dir()}
    assert modules & set(urisift.__all__) == set()


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_modules_stay_small(path: Path) -> None:
    assert len(path.read_text("utf-8").splitlines()) <= 400


# -- issue 8, class 1: the last line of an input without a line break ----------------------------

@pytest.mark.parametrize("text, expected", [
    ("see <http://x.example/draft-ietf-\n  foo-bar.txt>", ["http://x.example/draft-ietf-foo-bar.txt"]),
    ("see http://x.example/draft-ietf-\n  foo-bar.txt", ["http://x.example/draft-ietf-foo-bar.txt"]),
    ("go to http://\n  host.example/p", ["http://host.example/p"]),
    ("<URL:http://a.example/b\n>", ["http://a.example/b"]),
    ("last http://end.example/x", ["http://end.example/x"]),
])
def test_no_final_line_break_gives_the_same_records_as_one(text: str, expected: list[str]) -> None:
    for data in (text, text + "\n", "intro\n" * 20_000 + text):  # the last one spans chunks
        for chunk_size in (1 << 20, 4096):
            items = list(scan_stream(io.BytesIO(data.encode()), chunk_size=chunk_size))
            assert [r.uri for r in items if isinstance(r, Record)] == expected, (data[-60:], chunk_size)
    assert [r.uri for r in iter_input("-", stdin=io.BytesIO(text.encode())) if isinstance(r, Record)] == expected
