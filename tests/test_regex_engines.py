"""The same records on every CPython the metadata accepts.

CPython 3.11 before 3.11.5 (Debian 12's python3 is 3.11.2) matched a
possessive repeat of a *group* wrongly when the group can backtrack or holds
a lookaround (python/cpython gh-100061, gh-106052): ``(?:[a-z.]++|(?<=x)y)*+``
stopped one character short, and every bare URL lost its last character.
The project writes each such repeat as an atomic group around a greedy one,
``(?>(?:...)*)``, which means the same on every version, and
:func:`urisift.uri.patterns.compile` makes it possessive again where the engine
matches that right (it keeps no mark a turn).  A possessive repeat of one
character class (``[a-z]*+``) is a different opcode that was never affected,
and stays.

``.ci/every_python`` runs this file, the delimiter's tests and the golden
files on every CPython it finds on the machine.
"""

from __future__ import annotations

from collections.abc import Iterator
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]

import pytest

from urisift import scan_text

_ONE_CHARACTER = (sre.LITERAL, sre.NOT_LITERAL, sre.IN, sre.ANY, sre.CATEGORY)


def _group_possessives(items: list[tuple[object, object]]) -> Iterator[str]:
    """The possessive repeats of more than one character in a parsed pattern."""
    for op, av in items:
        if op is sre.POSSESSIVE_REPEAT:
            _, _, sub = av  # type: ignore[misc]
            if not (len(sub.data) == 1 and sub.data[0][0] in _ONE_CHARACTER):
                yield str(sub.data)[:80]
            yield from _group_possessives(sub.data)
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT):
            yield from _group_possessives(av[2].data)  # type: ignore[index]
        elif op is sre.SUBPATTERN:
            yield from _group_possessives(av[3].data)  # type: ignore[index]
        elif op is sre.BRANCH:
            for branch in av[1]:  # type: ignore[index]
                yield from _group_possessives(branch.data)
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            yield from _group_possessives(av[1].data)  # type: ignore[index]
        elif op is sre.ATOMIC_GROUP:
            yield from _group_possessives(av.data)  # type: ignore[attr-defined]
        elif op is sre.GROUPREF_EXISTS:
            for branch in av[1:]:  # type: ignore[index]
                if branch is not None:
                    yield from _group_possessives(branch.data)


def test_the_guard_sees_the_patterns_it_guards() -> None:
    assert list(_group_possessives(sre_parse.parse(r"(?:[a-z.]++|(?<=x)y)*+").data))
    assert not list(_group_possessives(sre_parse.parse(r"(?>(?:[a-z.]++|(?<=x)y)*)").data))
    assert not list(_group_possessives(sre_parse.parse(r"[a-z]*+\n?+").data))


def test_an_atomic_repeat_is_possessive_where_the_engine_is_right() -> None:
    from urisift.uri.patterns import POSSESSIVE_GROUPS, compile, possessive

    assert possessive(r"a(?>(?:[a-z.]++|(?<=x)y)*)b") == r"a(?:[a-z.]++|(?<=x)y)*+b"
    assert possessive(r"(?>(?P<s>//)?)(?>(?:\.(?>(?:x)+))*)") == r"(?P<s>//)?+(?:\.(?:x)++)*+"
    assert possessive(rb"(?>(?:\)[^)])+)") == rb"(?:\)[^)])++"
    assert possessive(r"(?>a|b)(?>(?:a){0,9})[(?>]") == r"(?>a|b)(?:a){0,9}+[(?>]"
    # the same matches either way, on every engine
    pattern = compile(r"(?>(?:[a-z.]++|(?<=x)y)*)")
    assert pattern.pattern == (r"(?:[a-z.]++|(?<=x)y)*+" if POSSESSIVE_GROUPS else r"(?>(?:[a-z.]++|(?<=x)y)*)")
    assert pattern.match("path.git ").end() == 8


#: a fresh interpreter that records every pattern compiled (re._compile serves re.compile, re.match ...)
#: while it imports every module and scans every kind of sample, large pages and opaque URIs included:
#: the patterns built in a class or a function at run time, which no module attribute holds
_RECORDER = r"""
import importlib, io, json, pkgutil, re, sys
from pathlib import Path
seen = set()
real = re._compile
def recording(pattern, flags):
    if isinstance(pattern, (str, bytes)):
        seen.add((pattern if isinstance(pattern, str) else pattern.decode("latin-1"), isinstance(pattern, bytes),
                  int(flags)))
    return real(pattern, flags)
re._compile = recording
import urisift
for module in pkgutil.walk_packages(urisift.__path__, "urisift."):
    try:
        importlib.import_module(module.name)
    except ImportError:
        pass
from urisift import ScanOptions, iter_input, scan_text
for path in sorted(Path(sys.argv[1]).rglob("*")):
    if path.is_file() and not path.name.endswith(".jsonl"):
        list(iter_input(str(path)))
page = "".join(f'<p><a href="/p{i}">x</a><!-- c --></p>' for i in range(160_000))
list(iter_input("-", ScanOptions(kind="html"), stdin=io.BytesIO(page.encode())))
list(scan_text("geo:1.5,2 data:text/plain;a=b,x jabber:a:b news:a.b mailto:a@b.example xmpp:a@b.example/r"))
print(json.dumps(sorted(seen)))
"""


def test_no_pattern_compiled_at_run_time_repeats_a_group_possessively() -> None:
    import json
    import subprocess
    import sys
    from pathlib import Path

    corpora = Path(__file__).resolve().parents[1] / "corpora"
    import os

    # (the patterns as compiled for an engine before 3.11.5, whatever the engine: patterns.POSSESSIVE_GROUPS)
    done = subprocess.run([sys.executable, "-c", _RECORDER, str(corpora)], capture_output=True, text=True,
                          check=True, timeout=600, env={**os.environ, "URISIFT_REGEX_OLD_ENGINE": "1"})
    patterns = json.loads(done.stdout)
    assert len(patterns) > 200
    offenders = []
    for text, is_bytes, flags in patterns:
        source: str | bytes = text.encode("latin-1") if is_bytes else text
        offenders += [f"{text[:60]!r}: {found}" for found in _group_possessives(sre_parse.parse(source, flags).data)]
    assert offenders == []


@pytest.mark.parametrize(("text", "uris"), [
    ("x https://example.org/path.git y", ["https://example.org/path.git"]),
    ("http://a.example/abc", ["http://a.example/abc"]),
    ("see www.example.org/a.b, then", ["www.example.org/a.b"]),
    ("<URL:http://a.example/x.y>", ["http://a.example/x.y"]),
    ("urn:isbn:0451450523 and urn:ietf:rfc:3986", ["urn:isbn:0451450523", "urn:ietf:rfc:3986"]),
    ("http://ex.example/می\u200cخواهم end", ["http://ex.example/می\u200cخواهم"]),
])
def test_the_last_character_stays(text: str, uris: list[str]) -> None:
    assert [r.uri for r in scan_text(text)] == uris
