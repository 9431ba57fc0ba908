"""Shared test helpers: where ../shared is (tests that need it skip without it)."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import settings

# CI runs once and cannot be retried by hand: there, hypothesis explores the
# same examples every time and no example may fail for being slow on a busy
# machine.  Locally, every run explores new ground.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

ROOT = Path(__file__).resolve().parents[1]
#: how much more memory a bound allows on CPython before 3.11.5 (Debian 12's 3.11.2): its regex engine keeps
#: a mark for each turn of an atomic repeat of a group (the HTML first pass's raw text, a page of text cut in
#: pieces), where 3.11.5 and later keep none; the records are the same
OLD_ENGINE_FACTOR = 2.5 if sys.version_info < (3, 11, 5) else 1
SHARED = Path(os.environ.get("URISIFT_SHARED", ROOT.parent / "shared"))


def shared_path(*parts: str) -> Path:
    """A path under ../shared, or skip the calling test when it is absent."""
    p = SHARED.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"{p} not present (../shared is only beside the project in its workspace)")
    return p


def load_vectors(name: str) -> Any:
    return json.loads(shared_path("vectors", name).read_text(encoding="utf-8"))


def trip_the_scan_of(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Make the scan of every input whose name ends with ``name`` raise
    RuntimeError("a bug"), as a bug in a reader would (forked workers inherit it)."""
    import urisift.pipeline.scan

    real = urisift.pipeline.scan.scan_content

    def tripping(content, options, *rest):  # type: ignore[no-untyped-def]
        if (content.origin.file or "").endswith(name):
            raise RuntimeError("a bug")
        return real(content, options, *rest)

    monkeypatch.setattr(urisift.pipeline.scan, "scan_content", tripping)


def load_script(path: Path, name: str) -> ModuleType:
    """A script of the repository that is no package's module (``fuzz/*.py``, ``docs/hooks.py``),
    loaded as the module ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_cli(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    """The command run in this process: its exit status, standard output and standard error."""
    from urisift.cli.command import main

    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def json_rows(out: str) -> list[tuple[object, ...]]:
    """JSON lines as tuples of their values, in the order of their keys."""
    return [tuple(json.loads(line).values()) for line in out.splitlines()]
