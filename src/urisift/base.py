"""Which base URI applies: the layers of seed 001 §5.1 / seed 002 §5.1 (DESIGN §4).

Precedence, innermost first:

1. a base embedded in the content (HTML ``<base href>``), §5.1.1;
2. the base of the encapsulating entity (a MIME heading's ``Content-Base``,
   else its ``Content-Location``, else the enclosing heading's, recursively
   through nested parts), §5.1.2;
3. the URI the content was retrieved from (``--base``, a WARC record's
   target URI), §5.1.3;
4. an application default, §5.1.4 (none unless asked for).

A :class:`BaseLayer` is the innermost layer, pointing at the one under it
(the outermost at the bottom of the chain).  Pushing a layer resolves its
value against the base in force below it (a relative ``Content-Location``
or ``<base href="sub/">``), and drops the fragment,
because a base URI never has one (RFC 3986 §5.1: the fragment of a base is
irrelevant to resolution).  A value that cannot serve as a base is a defect
naming it, and the layer below stays in force: nothing is resolved against a
broken base, and nothing is silently lost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from .errors import UriError
from .joiner import Joiner
from .model import NOWHERE, Base, BaseSource, Defect, DefectKind, Origin, Unit
from .reference import UriReference, validate
from .resolve import resolve

#: the longest base URI a layer takes (issue 35): far past any URL a server
#: answers to, and short enough that a chain of bases, each resolved against
#: the one below, cannot grow quadratic (250 nested 40 KB xml:base values
#: took a minute and 1.3 GB)
MAX_BASE_LENGTH = 1 << 15


def shown(value: str, limit: int = 120) -> str:
    """``value`` quoted for a message, cut to ``limit`` characters when longer."""
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}... ({len(value)} characters)"


def as_base(value: str, below: Base | None, *, refuse: frozenset[str] = frozenset()) -> str:
    """``value`` as a base URI: resolved against ``below`` when relative, its
    fragment dropped, checked against RFC 3987's ``IRI`` production (a base
    may hold non-ASCII: it is only used to resolve, never sent).

    Raises :class:`UriError` with the reason when it cannot serve: it does
    not parse, it is relative with nothing below, or its scheme is one of
    ``refuse`` (HTML refuses ``data:`` and ``javascript:`` bases).
    """
    return _as_base(value, None if below is None else below.uri, refuse)


# A mail archive's parts and a crawl's pages name the same few bases over and
# over (the retrieval URI, a site's <base href>, a list's Content-Base): a
# base's parse and its IRI check cost more than a small HTML part's records.
# The answer is a function of the three strings alone; refusals (exceptions)
# are not kept, and are rare.
@lru_cache(maxsize=512)
def _as_base(value: str, below: str | None, refuse: frozenset[str]) -> str:
    if len(value) > MAX_BASE_LENGTH:
        raise UriError(f"it is {len(value)} characters long, longer than a base may be ({MAX_BASE_LENGTH})")
    if below is not None and _PLAIN_PATH.fullmatch(value) is not None and "/." not in value \
            and value[0] != "." and not value.startswith("//"):
        # A relative path of path characters alone, with no dot segment and no
        # authority (an xml:base of "e7/" on each entry of a feed): §5.2.2's
        # merge is the base's directory and the path, as the joiner writes it,
        # and the base below is an IRI already, so the target is one too: the
        # parse, the resolution and the IRI check are spared (40 µs a base)
        target = _joiner_of(below).join(value)
        if len(target) > MAX_BASE_LENGTH:
            raise UriError(f"resolved, it grows to {len(target)} characters, longer than a base may be "
                           f"({MAX_BASE_LENGTH})")
        scheme = below[:below.find(":")].lower()
        if scheme in refuse:
            raise UriError(f"a {scheme}: URI cannot be a base")
        return target
    ref = UriReference.parse(value)
    if ref.scheme is None:
        if below is None:
            raise UriError(f"{shown(value)} is relative and there is no base below it to resolve it against")
        ref = resolve(ref, below)
    else:
        ref = resolve(ref, ref)  # §5.2.2: an absolute reference still loses its dot segments
    target = str(ref._replace(fragment=None))
    if len(target) > MAX_BASE_LENGTH:
        raise UriError(f"resolved, it grows to {len(target)} characters, longer than a base may be ({MAX_BASE_LENGTH})")
    validate(target, "IRI")
    scheme = (ref.scheme or "").lower()
    if scheme in refuse:
        raise UriError(f"a {scheme}: URI cannot be a base")
    return target


#: a relative path of unreserved characters, sub-delims, "@", "/" and percent-encodings (RFC 3986 §3.3's pchar
#: and "/", but ":": a colon before the first "/" could be taken for a scheme's)
_PLAIN_PATH = re.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=@/]|%[0-9A-Fa-f]{2})+")


@lru_cache(maxsize=64)
def _joiner_of(base: str) -> Joiner:
    """The joiner of a base already checked (a layer's): parsed once for all its children."""
    return Joiner(UriReference.parse(base))


@dataclass(frozen=True, slots=True)
class BaseLayer:
    """The bases in force for some content: the innermost layer, pointing at
    the layer under it (see the module doc).  A frozen value: pushing a
    layer returns a new chain and leaves this one as it was, so a reader
    hands each part the chain around it, and any order of iteration over
    suspended readers gives the same records.

    ``current`` is the base in force at this layer: its own value when it
    set one that could serve, else the one in force under it.
    """

    current: Base | None = None
    under: BaseLayer | None = None

    @property
    def below(self) -> Base | None:
        """The base in force under this layer: what its own value resolved against."""
        return None if self.under is None else self.under.current

    @classmethod
    def holding(cls, base: Base | None) -> BaseLayer:
        """A chain of one layer that is already a base (or None): what an
        HTML form action or a codebase resolves against."""
        return cls(base)

    def push(self, value: str | None, source: BaseSource, detail: str = "", *, origin: Origin = NOWHERE,
             refuse: frozenset[str] = frozenset(), position: int | None = None, unit: Unit = Unit.CHARACTER
             ) -> tuple[BaseLayer, Defect | None]:
        """The chain with a layer whose base is ``value`` on top (None: the
        layer sets none, and the one below stays in force), and the defect
        naming ``origin`` when ``value`` cannot serve (the layer below then
        stays in force: nothing is resolved against a broken base)."""
        below = self.current
        if value is None:
            return BaseLayer(below, self), None
        try:
            uri = as_base(value, below, refuse=refuse)
        except UriError as exc:
            where = f" ({detail})" if detail else ""
            keeps = f"{below.source} base {shown(below.uri)}" if below is not None else "no base"
            return BaseLayer(below, self), Defect(
                DefectKind.BAD_BASE,
                f"{source} {shown(value)}{where} cannot serve as a base: {exc}; {keeps} stays in force",
                origin, position, unit)
        return BaseLayer(Base(uri, source, detail), self), None


#: the chain with no base at all
NO_BASE = BaseLayer()


def retrieval_layers(retrieval: str | None, origin: Origin = NOWHERE, *, detail: str = "--base",
                     default: str | None = None) -> tuple[BaseLayer, list[Defect]]:
    """The default and retrieval layers (4 and 3), and the defects of those
    that cannot serve; ``detail`` says where the retrieval URI came from
    (``--base``, ``WARC-Target-URI``)."""
    layer, first = NO_BASE.push(default, BaseSource.DEFAULT, "the default base", origin=origin)
    layer, second = layer.push(retrieval, BaseSource.RETRIEVAL, detail, origin=origin)
    return layer, [d for d in (first, second) if d is not None]
