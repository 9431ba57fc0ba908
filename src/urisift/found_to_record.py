"""Found → record: the step every input kind ends in (DESIGN §1, stages 3-5):
the base in force, RFC 3986 §5.2 resolution, the §7 risk flags, the record."""

from __future__ import annotations

import re

from .base import BaseLayer
from .delimit.chars import LEADING_SCHEME, ordered
from .model import Base, Charset, Flag, Found, Origin, Record, Risk, Span, Style, new_record
from .reference import UriReference
from .resolve import Joiner, resolve
from .risk import plainly_safe, risks

_parse = UriReference.parse
# ASCII characters RFC 3986 allows nowhere, which a reference may hold as written
_NOT_URI_CHARS = re.compile(r'[|^`{}\\ "<>]')


def _percent_encode(m: re.Match[str]) -> str:
    return f"%{ord(m.group()):02X}"

# looked up once: each Style.X costs 0.1 µs in Python 3.11
_ABBREVIATED, _BARE, _ANGLE = Style.ABBREVIATED, Style.BARE, Style.ANGLE
# "scheme:" at the start of a reference: it is absolute (RFC 3986 §4.3)
_SCHEME = LEADING_SCHEME
#: how many references a tail remembers before it starts afresh (constant memory on long texts)
_SEEN_LIMIT = 4096


class Tail:
    """Found → record: the base in force, the target, the risk flags.

    One per piece of content and base chain (a frozen
    :class:`~urisift.base.BaseLayer`: the base in force cannot change under
    it); the record names the layer that was used.
    """

    __slots__ = ("layer", "origin", "decoding", "_base", "_joiner", "_seen")

    def __init__(self, layer: BaseLayer, origin: Origin, decoding: Charset | None) -> None:
        self.layer = layer
        self.origin = origin
        self.decoding = decoding
        self._base: Base | None = layer.current  # the base in force, parsed into a joiner when first needed
        self._joiner: Joiner | None = None
        # reference -> what the slow path made of it: an HTML page names the
        # same few URLs many times ("#", "/", its menus)
        self._seen: dict[str, tuple[str | None, Base | None, tuple[Risk, ...], bool]] = {}

    def target(self, found: Found) -> tuple[str | None, Base | None, UriReference | str]:
        """The target (None when relative with no base), the base used, and
        what the risk flags are computed on (the target, else the reference)."""
        reference = found.reference
        if found.style is _ABBREVIATED:
            # Appendix F: an abbreviated URI is absolute by heuristic, never relative
            assert found.expanded is not None
            return found.expanded, None, found.expanded
        m = _SCHEME.match(reference)
        if m is not None:
            # An absolute reference needs no base; §5.2.2 still removes its dot
            # segments.  Without any ("/." nowhere, no rootless "./" path) the
            # target is the reference itself: §5.3 recomposes it exactly.
            if "/." not in reference and not reference.startswith(".", m.end()):
                return reference, None, reference
            parsed = _parse(reference)
            target = str(resolve(parsed, parsed))
            return target, None, target
        base = self._base
        if base is None:
            return None, None, _parse(reference)
        if self._joiner is None:
            self._joiner = Joiner(_parse(base.uri))  # a layer holds absolute bases only: it cannot refuse one
        target = self._joiner.join(reference)
        return target, base, target

    def __call__(self, found: Found, span: Span | None = None, line: int | None = None,
                 column: int | None = None) -> Record:
        reference = found.reference
        style = found.style
        if (style is _BARE or style is _ANGLE) and "/." not in reference and ":." not in reference and (
                "|" not in reference if style is _BARE  # the only one of _NOT_URI_CHARS a bare URI holds
                else _NOT_URI_CHARS.search(reference) is None):
            # The common case of target(), without the calls: these styles
            # always start with a scheme (the scanner saw to it), and without
            # dot segments the target is the reference itself.
            return new_record(found, reference, None, self.origin, self.decoding, span, line, column,
                              () if plainly_safe(reference) else risks(reference))
        seen = self._seen.get(reference)
        if seen is None or style is _ABBREVIATED:
            seen = self._work_out(found)
        if seen[3]:
            found = found._replace(flags=ordered({*found.flags, Flag.ENCODED}))
        return new_record(found, seen[0], seen[1], self.origin, self.decoding, span, line, column, seen[2])

    def _work_out(self, found: Found) -> tuple[str | None, Base | None, tuple[Risk, ...], bool]:
        """What the record of ``found`` holds: the target,
        the base used, the risk flags, and whether the target had to be
        percent-encoded; remembered for the next reference spelt the same."""
        target, base, vetted = self.target(found)
        encoded = target is not None and _NOT_URI_CHARS.search(target) is not None
        if encoded:
            # RFC 3986 form: what it does not allow is percent-encoded in the
            # target, and the record says so ("|" in a font URL, "^" ...)
            target = _NOT_URI_CHARS.sub(_percent_encode, target)  # type: ignore[arg-type]
            vetted = target
        seen = (target, base, risks(vetted), encoded)
        if found.style is not _ABBREVIATED:  # its target is not its spelling's alone
            if len(self._seen) >= _SEEN_LIMIT:
                self._seen.clear()
            self._seen[found.reference] = seen
        return seen
