"""Which base URI applies: the layers of seed 001 §5.1 / seed 002 §5.1 (DESIGN §4).

Precedence, innermost first:

1. a base embedded in the content (HTML ``<base href>``), §5.1.1;
2. the base of the encapsulating entity (a MIME heading's ``Content-Base``,
   else its ``Content-Location``, else the enclosing heading's, recursively
   through nested parts), §5.1.2;
3. the URI the content was retrieved from (``--base``, a WARC record's
   target URI), §5.1.3;
4. an application default, §5.1.4 (none unless asked for).

A :class:`BaseStack` holds the layers outermost at the bottom.  Pushing a
layer resolves its value against the base in force below it (a relative
``Content-Location`` or ``<base href="sub/">``), and drops the fragment,
because a base URI never has one (RFC 3986 §5.1: the fragment of a base is
irrelevant to resolution).  A value that cannot serve as a base is a defect
naming it, and the layer below stays in force: nothing is resolved against a
broken base, and nothing is silently lost.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from .errors import UriError
from .model import NOWHERE, Base, BaseSource, Defect, DefectKind, Origin, Unit
from .reference import UriReference, validate
from .resolve import resolve


def as_base(value: str, below: Base | None, *, refuse: frozenset[str] = frozenset()) -> str:
    """``value`` as a base URI: resolved against ``below`` when relative, its
    fragment dropped, checked against RFC 3987's ``IRI`` production (a base
    may hold non-ASCII: it is only used to resolve, never sent).

    Raises :class:`UriError` with the reason when it cannot serve: it does
    not parse, it is relative with nothing below, or its scheme is one of
    ``refuse`` (HTML refuses ``data:`` and ``javascript:`` bases).
    """
    ref = UriReference.parse(value)
    if ref.scheme is None:
        if below is None:
            raise UriError(f"{value!r} is relative and there is no base below it to resolve it against")
        ref = resolve(ref, below.uri)
    else:
        ref = resolve(ref, ref)  # §5.2.2: an absolute reference still loses its dot segments
    target = str(ref._replace(fragment=None))
    validate(target, "IRI")
    scheme = (ref.scheme or "").lower()
    if scheme in refuse:
        raise UriError(f"a {scheme}: URI cannot be a base")
    return target


class BaseStack:
    """The bases in force for some content, one layer per push (see the module doc).

    ``origin`` is where the content came from: the defects name it.
    """

    def __init__(self, origin: Origin = NOWHERE) -> None:
        self.origin = origin
        self._layers: list[Base | None] = []

    @classmethod
    def holding(cls, base: Base | None, origin: Origin = NOWHERE) -> BaseStack:
        """A stack of one layer that is already a base (or None): what an
        HTML form action or a codebase resolves against."""
        stack = cls(origin)
        stack._layers.append(base)
        return stack

    @property
    def current(self) -> Base | None:
        """The base in force: the innermost layer that could serve, or None."""
        return self._layers[-1] if self._layers else None

    @property
    def below(self) -> Base | None:
        """The base in force under the innermost layer: what that layer's own
        value resolved against."""
        return self._layers[-2] if len(self._layers) >= 2 else None

    def push(self, value: str | None, source: BaseSource, detail: str = "", *,
             refuse: frozenset[str] = frozenset(), position: int | None = None,
             unit: Unit = Unit.CHARACTER) -> Defect | None:
        """Enter a layer whose base is ``value`` (None: the layer sets none,
        and the one below stays in force).  Returns the defect when ``value``
        cannot serve; the layer is entered either way, so every push has its
        :meth:`pop`."""
        below = self.current
        if value is None:
            self._layers.append(below)
            return None
        try:
            uri = as_base(value, below, refuse=refuse)
        except UriError as exc:
            self._layers.append(below)
            where = f" ({detail})" if detail else ""
            keeps = f"{below.source} base {below.uri!r}" if below is not None else "no base"
            return Defect(DefectKind.BAD_BASE,
                          f"{source} {value!r}{where} cannot serve as a base: {exc}; {keeps} stays in force",
                          self.origin, position, unit)
        self._layers.append(Base(uri, source, detail))
        return None

    def pop(self) -> None:
        """Leave the innermost layer."""
        self._layers.pop()

    @contextmanager
    def layer(self, value: str | None, source: BaseSource, detail: str = "", *,
              refuse: frozenset[str] = frozenset()) -> Iterator[Defect | None]:
        """``with stack.layer(...) as defect:`` — push, and pop on the way out."""
        defect = self.push(value, source, detail, refuse=refuse)
        try:
            yield defect
        finally:
            self.pop()


def retrieval_stack(retrieval: str | None, origin: Origin = NOWHERE, *, detail: str = "--base",
                    default: str | None = None) -> tuple[BaseStack, list[Defect]]:
    """A stack holding the default and retrieval layers (4 and 3), and the
    defects of those that cannot serve; ``detail`` says where the retrieval
    URI came from (``--base``, ``WARC-Target-URI``)."""
    stack = BaseStack(origin)
    defects = [d for d in (stack.push(default, BaseSource.DEFAULT, "the default base"),
                           stack.push(retrieval, BaseSource.RETRIEVAL, detail))
               if d is not None]
    return stack, defects
