"""Exceptions raised by urisift's URI core."""

from __future__ import annotations


class UriError(ValueError):
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
