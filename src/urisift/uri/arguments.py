"""Checks at the library's door: a public function called with
an argument of the wrong type or value raises at once, at the call (never
from deep inside, nor at a generator's first item), a ``TypeError`` (the
wrong type) or ``ValueError`` (a value out of its set) naming the function,
the argument, what it expected and what it got:

    scan_text(): text must be a str, not NoneType

Each check costs one ``type`` or ``isinstance`` test where the argument is
right, so the core's functions keep them on their hot paths.  No I/O, and
nothing of the pipeline: the core imports this module.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any


def _got(value: Any) -> str:
    return type(value).__name__


def text(function: str, name: str, value: Any, *, none: bool = False, also: tuple[type, ...] = (),
         expected: str = "a str", hint: str = "") -> None:
    """``value`` is a str (or None, with ``none``; or one of ``also``);
    ``hint`` is added to the message when it is bytes."""
    if type(value) is str or (none and value is None) or (also and isinstance(value, also)) or isinstance(value, str):
        return
    more = f" ({hint})" if hint and isinstance(value, (bytes, bytearray)) else ""
    raise TypeError(f"{function}(): {name} must be {expected}{' or None' if none else ''}, not {_got(value)}{more}")


def flag(function: str, name: str, value: Any) -> None:
    """``value`` is True or False."""
    if value is not True and value is not False:
        raise TypeError(f"{function}(): {name} must be True or False, not {value!r}")


def number(function: str, name: str, value: Any, *, least: float, integer: bool = False) -> None:
    """``value`` is a number (an int, with ``integer``) of ``least`` or more."""
    if isinstance(value, bool) or not isinstance(value, int if integer else (int, float)):
        raise TypeError(f"{function}(): {name} must be {'an int' if integer else 'a number'}, not {_got(value)}")
    if not value >= least:  # (NaN too)
        raise ValueError(f"{function}(): {name} must be {least:g} or more, not {value!r}")


def one_of(function: str, name: str, value: Any, choices: Collection[str]) -> None:
    """``value`` is one of ``choices``."""
    if value not in choices:
        listed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{function}(): {name} must be one of {listed}; not {value!r}")


def binary_stream(function: str, name: str, value: Any) -> None:
    """``value`` reads bytes: a file opened ``'rb'``, ``io.BytesIO``, a pipe's buffer."""
    if not callable(getattr(value, "read", None)):
        raise TypeError(f"{function}(): {name} must be a binary stream (a file opened with 'rb', io.BytesIO), "
                        f"not {_got(value)}")
    # what a read of nothing gives: "" from a text stream (io.TextIOBase), b"" from a binary one
    try:
        probe = value.read(0)
    except ValueError as exc:  # closed
        raise ValueError(f"{function}(): {name} cannot be read ({exc})") from exc
    if isinstance(probe, str):
        raise TypeError(f"{function}(): {name} is a text stream ({_got(value)}): give a binary one (open the file "
                        "with 'rb', or pass sys.stdin.buffer, io.BytesIO)")


def instance(function: str, name: str, value: Any, kind: type | tuple[type, ...], expected: str) -> None:
    """``value`` is a ``kind``."""
    if not isinstance(value, kind):
        raise TypeError(f"{function}(): {name} must be {expected}, not {_got(value)}")


__all__ = ["binary_stream", "flag", "instance", "number", "one_of", "text"]
