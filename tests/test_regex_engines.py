"""The same records on every CPython the metadata accepts.

CPython 3.11 before 3.11.5 (Debian 12's python3 is 3.11.2) matched a
possessive repeat of a *group* wrongly when the group can backtrack or holds
a lookaround (python/cpython gh-100061, gh-106052): ``(?:[a-z.]++|(?<=x)y)*+``
stopped one character short, and every bare URL lost its last character.
3.11.5 made such a repeat an atomic group around a greedy one, so the
project writes it that way itself: ``(?>(?:...)*)`` means the same on every
version.  A possessive repeat of one character class (``[a-z]*+``) is a
different opcode that was never affected, and stays.

``.ci/every_python`` runs this file, the delimiter's tests and the golden
files on every CPython it finds on the machine.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections.abc import Iterator
from re import _constants as sre  # type: ignore[attr-defined]
from re import _parser as sre_parse  # type: ignore[attr-defined]

import pytest

import urisift
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


def _package_patterns() -> Iterator[tuple[str, re.Pattern[str] | re.Pattern[bytes]]]:
    for module in pkgutil.walk_packages(urisift.__path__, "urisift."):
        try:
            loaded = importlib.import_module(module.name)
        except ImportError:  # an optional extra (Spark, the picker) that is not installed
            continue
        for name, value in vars(loaded).items():
            if isinstance(value, re.Pattern):
                yield f"{module.name}.{name}", value


def test_the_guard_sees_the_patterns_it_guards() -> None:
    assert list(_group_possessives(sre_parse.parse(r"(?:[a-z.]++|(?<=x)y)*+").data))
    assert not list(_group_possessives(sre_parse.parse(r"(?>(?:[a-z.]++|(?<=x)y)*)").data))
    assert not list(_group_possessives(sre_parse.parse(r"[a-z]*+\n?+").data))
    assert sum(1 for _ in _package_patterns()) > 100


def test_no_pattern_repeats_a_group_possessively() -> None:
    offenders = [f"{name}: {found}" for name, pattern in _package_patterns()
                 for found in _group_possessives(sre_parse.parse(pattern.pattern, pattern.flags).data)]
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
