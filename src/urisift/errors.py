"""Exceptions raised by urisift's URI core."""

from __future__ import annotations


class UriError(ValueError):
    """Base class for errors about a URI or URN."""


class UriSyntaxError(UriError):
    """Text that does not match the ABNF it was checked against.

    ``text`` is the whole input, ``position`` the 0-based code-point offset of
    the offending character, ``component`` the ABNF rule being matched there.
    """

    def __init__(self, text: str, position: int, reason: str, component: str) -> None:
        self.text = text
        self.position = position
        self.reason = reason
        self.component = component
        super().__init__(f"{text!r}: position {position}: {reason} (in {component})")


class BaseUriError(UriError):
    """A base URI that cannot serve for resolution (RFC 3986 §5.1: it must be absolute)."""
