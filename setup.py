"""The build: urisift is pure Python, and its hottest modules --
the HTML walk, the position search, the depth guard's passes, the
record step -- are also compiled by mypyc from the same ``.py`` files where the
build finds what that takes (mypyc, a C compiler, Python's headers): 1.3 to
1.4 times the speed of the walk alone, measured on the 130 shared pages
(``python bench/bench.py speed``).  One small kernel is C of its own: the
depth guard's first pass over a page's bytes (src/urisift/readers/html/shallow_kernel.c),
five times its pure-Python twin (``tokens.shallow_twin``), which a
hypothesis test holds equal to it.  Where something is missing, the package
is the pure one, and a one-line note says why; ``urisift --version`` says
which build a machine has.

An editable install (``pip install -e .``, a developer's) is never
compiled: a compiled module would shadow the ``.py`` being edited.  Set
``URISIFT_PURE=1`` to build the pure package anyway.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup

#: the modules compiled, each a pure function of its inputs (no monkeypatching, no
#: attribute set on a function or class from outside: mypyc's native classes refuse it)
COMPILED = [
    "src/urisift/readers/html/tree.py",
    "src/urisift/readers/html/document.py",
    "src/urisift/readers/html/locate.py",
    "src/urisift/readers/html/guard.py",
    "src/urisift/readers/html/tokens.py",
    "src/urisift/stages/found_to_record.py",
    "src/urisift/uri/joiner.py",  # §5.2 against a page's base, each relative link
    # and the record's other steps: its value (model/build.py), what a browser fetches, the
    # wrappers, deceptive link text, style sheets' url()s, validity, its JSON line
    "src/urisift/model/build.py",
    "src/urisift/uri/browser.py",
    "src/urisift/uri/unwrap.py",
    "src/urisift/readers/css/syntax.py",
    "src/urisift/uri/validity.py",
    "src/urisift/uri/deceptive.py",
    "src/urisift/output/lines.py",
    # the text scanner (every text node, mail part and text file goes through it)
    "src/urisift/stages/delimit/scanner.py",
    "src/urisift/stages/delimit/bare.py",
    "src/urisift/stages/delimit/angle.py",
    "src/urisift/stages/delimit/chars.py",
    "src/urisift/readers/html/srcset.py",
]
# (not the public functions' modules, uri/resolution.py, uri/normalization.py and output/records.py among
# them: a compiled function checks its arguments' types itself, with mypyc's words, before
# the library's door says which is wrong)


def _note(why: str) -> None:
    print(f"urisift: building the pure-Python package ({why})", file=sys.stderr)


def _compiler() -> str | None:
    """Why this machine cannot compile, or None when it can."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler: {compiler!r} is not on PATH"
    include = sysconfig.get_paths().get("include")
    if not include or not (Path(include) / "Python.h").exists():
        return "no Python headers (Python.h) to compile against"
    return None


def extensions() -> list[object]:
    if os.environ.get("URISIFT_PURE") == "1":
        _note("URISIFT_PURE=1")
        return []
    if any(command in sys.argv for command in ("editable_wheel", "develop")):
        return []  # an editable install runs the .py files as they are edited
    if sys.implementation.name != "cpython":
        _note(f"mypyc compiles for CPython, not {sys.implementation.name}")
        return []
    why = _compiler()
    if why is not None:
        _note(why)
        return []
    # optional: should the compiler fail on it, setuptools says so in a line and builds on without it
    kernel = [Extension("urisift.readers.html.shallow_kernel", ["src/urisift/readers/html/shallow_kernel.c"],
                        optional=True)]
    try:
        from mypyc.build import mypycify
    except ImportError:
        _note("mypyc is not installed in the build environment")
        return kernel
    try:
        # the third-party libraries are not in the build environment: their types are
        # Any here, as mypy's own run (pyproject.toml) checks them against their stubs
        return [*kernel, *mypycify(["--ignore-missing-imports", "--follow-imports=silent", *COMPILED],
                                   opt_level="3")]
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - any failure of mypyc (its type errors exit):
        _note(f"mypyc failed: {type(exc).__name__}: {exc}")  # the package still installs, pure but the kernel
        return kernel


setup(ext_modules=extensions())
