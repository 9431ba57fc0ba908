"""RFC 3986 §5.2 strict resolution of many references against one base, as
string joins where the reference's form allows (the found-to-record step's
hot path: every relative link of a page against that page's base).

Apart from :mod:`.resolve` so that the compiled build (setup.py) compiles it:
:mod:`.resolve` holds public functions, whose argument checks must come before
a compiled function's own."""

from __future__ import annotations

from .reference import UriReference
from .resolution import resolve

_parse = UriReference.parse


class Joiner:
    """§5.2 strict resolution of many references against one base, with the
    common forms done as string joins.

    Without dot segments and without a colon (which could start a scheme),
    §5.2.2 reduces to a prefix of the base and the reference: ``#f`` and ``""``
    keep the base's path and query, ``?q`` its path, ``/p`` its authority,
    ``//a/p`` its scheme, and a relative path its directory (§5.2.3 merge).
    Everything else goes through :func:`resolve`.  A test checks the two agree
    on valid references.  The caller has taken absolute references (a valid
    scheme) already, so text before a first colon here is never a scheme.
    The base has no dot segments (a base layer's have been removed,
    :func:`urisift.stages.base.as_base`): a prefix of one that had them would keep
    them, where :func:`resolve` removes them.
    """

    __slots__ = ("base", "_scheme", "_root", "_directory", "_path", "_query")

    def __init__(self, base: UriReference) -> None:
        self.base = base
        scheme, authority, path, query = base.scheme, base.authority, base.path, base.query
        assert scheme is not None, "a base is absolute"
        self._scheme = scheme + ":"
        self._root = self._scheme + ("" if authority is None else "//" + authority)
        if authority is not None and path == "":
            self._directory = self._root + "/"
        else:
            self._directory = self._root + path[: path.rfind("/") + 1]
        self._path = self._root + path
        self._query = self._path if query is None else self._path + "?" + query

    def join(self, reference: str) -> str:
        """The target of ``reference`` (which the caller found not to start
        with a scheme) against the base."""
        if ":" in reference or "/." in reference or reference.startswith("."):
            colon = reference.find(":")
            if colon != -1 and reference.find("/", 0, colon) == -1 and reference.find("?", 0, colon) == -1 \
                    and reference.find("#", 0, colon) == -1:
                # Appendix B would take "%20http" in "%20http://x" for a scheme,
                # which §3.1 says it cannot be: a relative path whose first
                # segment holds a colon, as §4.2 says to write it ("./" before it)
                # and as browsers read it
                reference = "./" + reference
            return str(resolve(_parse(reference), self.base))
        first = reference[:1]
        if first == "#" or not reference:
            return self._query + reference
        if first == "?":
            return self._path + reference
        if first == "/":
            return (self._scheme if reference.startswith("//") else self._root) + reference
        return self._directory + reference


__all__ = ["Joiner"]
