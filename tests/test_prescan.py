"""The HTML <meta> prescan (prescan.py) against html5lib's encoding tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from urisift import CharsetSource
from urisift.readers.html.prescan import prescan
from urisift.stages.charset import choose

from .conftest import SHARED

VECTORS = SHARED / "corpora" / "conformance-vectors" / "html5lib-encoding"
# scripted/ needs a browser that runs scripts: out of a prescan's reach
FILES = sorted(VECTORS.glob("*.dat"))


def _cases(path: Path) -> list[tuple[bytes, str]]:
    """(data, expected encoding) pairs of an html5lib .dat file."""
    cases = []
    for block in path.read_bytes().split(b"#data\n")[1:]:
        data, _, rest = block.partition(b"\n#encoding\n")
        cases.append((data, rest.split(b"\n", 1)[0].decode("ascii").strip().lower()))
    return cases


# urisift's one deviation from the browser chain: bytes that are valid UTF-8
# (and not ASCII) under a <meta> naming a charset they are not valid in are
# read as UTF-8, with a charset-mismatch defect: saved pages keep their old
# <meta>.  This vector is such bytes (html5lib stores the page converted to UTF-8).
_DEVIATIONS = {("test-yahoo-jp.dat", 0): "the bytes are UTF-8, not the EUC-JP the <meta> names: read as UTF-8"}
CASES = [pytest.param(path.name, i, data, expected, id=f"{path.name}:{i}",
                      marks=[pytest.mark.xfail(strict=True, reason=_DEVIATIONS[(path.name, i)])]
                      if (path.name, i) in _DEVIATIONS else [])
         for path in FILES for i, (data, expected) in enumerate(_cases(path))]


@pytest.mark.skipif(not FILES, reason="../shared is not present")
@pytest.mark.parametrize("name, index, data, expected", CASES)
def test_html5lib_prescan_vectors(name: str, index: int, data: bytes, expected: str) -> None:
    # The chain as a browser runs it: a BOM, then the prescan, else the default
    # (the vectors expect windows-1252, with no detection).
    choice = choose(data, sniff=prescan, detect=None)
    assert (choice.name if choice.source in (CharsetSource.BOM, CharsetSource.META) else "windows-1252") == expected


def test_the_prescan_itself_finds_what_the_vector_names() -> None:
    if not FILES:
        pytest.skip("../shared is not present")
    data, expected = _cases(VECTORS / "test-yahoo-jp.dat")[0]
    assert (prescan(data), expected) == ("euc-jp", "euc-jp")


def test_the_vectors_are_all_there() -> None:
    if not FILES:
        pytest.skip("../shared is not present")
    assert len(CASES) == 82


@pytest.mark.parametrize("data, expected", [
    (b'<meta charset="utf-8">', "utf-8"),
    (b"<meta charset=ISO-8859-1>", "windows-1252"),  # the WHATWG label table, as browsers read it
    (b'<meta http-equiv="content-type" content="text/html; charset=shift_jis">', "shift_jis"),
    (b'<meta content="text/html; charset=koi8-r">', None),  # no http-equiv: the pragma is needed
    (b'<meta charset="utf-16le">', "utf-8"),
    (b'<meta charset="x-user-defined">', "windows-1252"),
    (b'<!-- <meta charset="euc-kr"> --><meta charset="big5">', "big5"),
    (b'<title><meta charset="gbk"></title>', "gbk"),  # the prescan knows no RCDATA, as in browsers
    (b"x" * 65530 + b'<meta charset="utf-8">', None),  # past the first 64 KiB
    (b'<meta charset="no-such-label">', None),
])
def test_prescan(data: bytes, expected: str | None) -> None:
    assert prescan(data) == expected


def test_the_prescan_is_the_sniff_step_of_the_charset_chain() -> None:
    page = '<meta charset="koi8-r"><p>Привет http://x.example/'.encode("koi8-r")
    choice = choose(page, sniff=prescan, complete=True)
    assert (choice.name, choice.source) == ("koi8-r", CharsetSource.META)
    # a BOM and a declared charset come first
    assert choose(b"\xef\xbb\xbf" + page, sniff=prescan).source is CharsetSource.BOM
    assert choose(page, declared="utf-8", sniff=prescan).source is CharsetSource.DECLARED
