"""urisift: find URI references in text, mail and HTML, and resolve them against the right base."""

from .errors import BaseUriError, UriError, UriSyntaxError
from .reference import Authority, UriReference, is_valid, validate
from .resolve import remove_dot_segments, resolve

__version__ = "0.1.0"

__all__ = [
    "Authority",
    "BaseUriError",
    "UriError",
    "UriReference",
    "UriSyntaxError",
    "is_valid",
    "remove_dot_segments",
    "resolve",
    "validate",
]
