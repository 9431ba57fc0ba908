"""Exceptions: the URI core's positioned errors, and the errors that end a run (with their exit codes)."""

from __future__ import annotations

from enum import IntEnum


class _Own(type):
    """The class of urisift's exceptions: ``dir()`` (and so ``help()``) names
    what urisift's classes define, not every attribute of ``Exception``
    (``help(urisift)`` would otherwise list all of them for each error class)."""

    def __dir__(cls) -> list[str]:
        names = {"__class__", "__doc__", "__module__", "args"}
        for klass in cls.__mro__:
            if klass.__module__.startswith("urisift"):
                names.update(vars(klass))
        return sorted(names)


class UriError(ValueError, metaclass=_Own):
    """Base class for errors about a URI or URN."""


class _PositionedError(UriError):
    """An error at one place in an input: ``text`` is the whole input,
    ``position`` the 0-based code-point offset of the offending character,
    ``reason`` what is wrong there, ``where`` the rule being matched."""

    def __init__(self, text: str, position: int, reason: str, where: str) -> None:
        self.text = text
        self.position = position
        self.reason = reason
        super().__init__(f"{text!r}: position {position}: {reason} ({where})")


class UriSyntaxError(_PositionedError):
    """Text that does not match the ABNF it was checked against; ``component``
    is the ABNF rule being matched at ``position``."""

    def __init__(self, text: str, position: int, reason: str, component: str) -> None:
        self.component = component
        super().__init__(text, position, reason, f"in {component}")


class UrnError(_PositionedError):
    """Text that is not a URN under the named rules; ``rule`` is the
    specification and section broken."""

    def __init__(self, text: str, position: int, reason: str, rule: str) -> None:
        self.rule = rule
        super().__init__(text, position, reason, rule)


class BaseUriError(UriError):
    """A base URI that cannot serve for resolution (RFC 3986 §5.1: it must be absolute)."""


class ExitCode(IntEnum):
    """The command's exit status (a contract: ARCHITECTURE.md, The record contract)."""

    OK = 0  # the run completed, defects in the input or not
    INPUT = 1  # an input could not be read at all, or the output could not be written
    USAGE = 2  # the command line is wrong
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT), as shells report it


class RunError(Exception, metaclass=_Own):
    """An error that ends a run; ``exit_code`` is what the command exits with."""

    exit_code: ExitCode = ExitCode.INPUT


class UsageError(RunError):
    """The options asked for something that cannot be done (an unknown or unbuilt kind ...)."""

    exit_code = ExitCode.USAGE


class InputError(RunError):
    """An input that cannot be read at all, or, under the strict policy, the first defect."""

    exit_code = ExitCode.INPUT


class OutputError(RunError):
    """The output cannot be written (a full disk): never blamed on an input."""

    exit_code = ExitCode.INPUT
