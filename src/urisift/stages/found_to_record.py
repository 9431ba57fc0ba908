"""Found → record: the step every input kind ends in (ARCHITECTURE.md, How one input flows):
the base in force, RFC 3986 §5.2 resolution, the ``invalid`` flag, the §7
risk flags, and (where asked) what a browser fetches and whether it
``differs``, the record."""

from __future__ import annotations

import re
from functools import cache, lru_cache
from types import ModuleType
from typing import Literal

from ..model import Base, Charset, Flag, Found, Origin, Record, Risk, Span, Style, new_record
from ..model.needs import BROWSER, EVERYTHING, POSITIONS, RISKS, UNWRAP
from ..uri import patterns
from ..uri.deceptive import deception
from ..uri.joiner import Joiner
from ..uri.reference import UriReference
from ..uri.resolution import resolve
from ..uri.risk import plainly_safe, risks
from ..uri.unwrap import may_be_wrapped, unwrap
from ..uri.validity import BAD_ESCAPE, BIDI_FORMATTING, PLAINLY_SAFE, PLAINLY_VALID, invalidity
from .base import BaseLayer
from .delimit.chars import LEADING_SCHEME, ordered

_parse = UriReference.parse
# what never reaches a target raw: the ASCII characters RFC 3986 allows
# nowhere (a reference may hold them as written), the C0 controls, DEL, the
# C1 controls and the bidirectional formatting characters (RFC 3987 §4.1)
_NOT_URI_CHARS = patterns.compile(r'[|^`{}\\ "<>\x00-\x1f\x7f-\x9f' + BIDI_FORMATTING + "]")


def _percent_encode(m: re.Match[str]) -> str:
    # RFC 3987 §3.1: the character's UTF-8 octets, each percent-encoded
    return "".join(f"%{b:02X}" for b in m.group().encode("utf-8"))

# looked up once: each Style.X costs 0.1 µs in Python 3.11
_ABBREVIATED, _BARE, _ANGLE, _DEFANGED = Style.ABBREVIATED, Style.BARE, Style.ANGLE, Flag.DEFANGED
# "scheme:" at the start of a reference: it is absolute (RFC 3986 §4.3)
_SCHEME = LEADING_SCHEME
# validity.plainly_valid, inline: the common valid shape, and no "%" without two hex digits
_plainly_valid = PLAINLY_VALID.fullmatch
_bad_escape = BAD_ESCAPE.search
# validity.PLAINLY_SAFE: valid, and no §7 flag (risk.plainly_safe), in one match
_plainly_safe = PLAINLY_SAFE.fullmatch
# what _plainly_absolute's steps accept, for a reference with no "/" and no "%" at all (a mailto: or tel:
# header, a urn:), in one match: a scheme and its ":", not a "." (§5.2.4 would read a rootless "./"), then
# URI characters of a path, a query and a fragment (PLAINLY_VALID's), with no authority to raise a §7 flag
_plainly_opaque = patterns.compile(
    r"[A-Za-z][A-Za-z0-9+\-.]*+:(?!\.)[A-Za-z0-9\-._~!$&'()*+,;=:@]*+(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@?]*+)?"
    r"(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@?]*+)?").fullmatch
#: how many references a tail remembers before it starts afresh (constant memory on long texts)
_SEEN_LIMIT = 4096


class Tail:
    """Found → record: the base in force, the target, the flags.

    One per piece of content and base chain (a frozen
    :class:`~urisift.stages.base.BaseLayer`: the base in force cannot change under
    it); the record names the layer that was used.  ``browser``: records
    also carry what the WHATWG URL parser gives (``browser_target``) against
    ``browser_base`` (an href that parser gave: HTML's ``<base href>`` as a
    browser reads it), else against the base in force as that parser reads it.
    """

    __slots__ = ("layer", "origin", "decoding", "browser", "_base", "_joiner", "_seen", "_browser", "_whatwg",
                 "_risky", "_unwraps", "_unplaced", "_plain")

    def __init__(self, layer: BaseLayer, origin: Origin, decoding: Charset | None, *, browser: bool = False,
                 browser_base: str | None | Literal[False] = False, needs: frozenset[str] = EVERYTHING) -> None:
        self.layer = layer
        self.origin = origin
        self.decoding = decoding
        # what the output asks for (ARCHITECTURE.md, Pushdown): the rest is not computed, and reads False
        browser = browser and BROWSER in needs
        self.browser = browser
        self._risky = RISKS in needs
        self._unwraps = UNWRAP in needs
        self._unplaced = POSITIONS not in needs  # a record given no position has none computed
        # what _work_out makes of a plainly safe absolute reference that may not be a wrapper, after its
        # target (the reference itself): no base, no flag, not encoded, no browser target, not unwrapped
        # (None: a browser target is asked for, and only _work_out computes it)
        self._plain: _Plain | None = None if browser else _PLAIN[self._risky, self._unwraps]
        self._base: Base | None = layer.current  # the base in force, parsed into a joiner when first needed
        self._joiner: Joiner | None = None
        # the WHATWG side (ada-url) is imported by the first tail that asks for it
        self._whatwg = _whatwg() if browser else None
        self._browser = None if self._whatwg is None else self._whatwg.BrowserResolver(
            self._whatwg.whatwg_base(None if self._base is None else self._base.uri)
            if browser_base is False else browser_base)
        # reference -> what the slow path made of it: an HTML page names the
        # same few URLs many times ("#", "/", its menus)
        self._seen: dict[str, _Seen] = {}

    def target(self, found: Found) -> tuple[str | None, Base | None, UriReference | str]:
        """The target (None when relative with no base), the base used, and
        what the risk flags are computed on (the target, else the reference)."""
        reference = found.reference
        if found.expanded is not None:
            # Appendix F: an abbreviated URI is absolute by heuristic, never relative; a defanged one
            # (--refang) is the URI it was written for
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
            return None, None, reference  # relative, and no base: the flags look at the reference itself
        if self._joiner is None:
            self._joiner = _joiner(base.uri)
        if self._joiner.base.authority is None and not reference.startswith("#") \
                and not self._joiner.base.path.startswith("/"):
            # an opaque base (mailto:, about:blank) resolves a fragment alone (RFC 3986 §5.2.2 keeps its path,
            # WHATWG URL fails on the rest; §5.2.3 would glue a path onto it): no target, the base named, and
            # the scan says so (base.unresolved)
            return None, base, reference
        target = self._joiner.join(reference)
        return target, base, target

    def __call__(self, found: Found, span: Span | None | Literal[False] = None,
                 line: int | None | Literal[False] = None, column: int | None | Literal[False] = None) -> Record:
        if span is None and line is None and self._unplaced:
            span = line = column = False  # not asked for: not computed
        reference = found.reference
        style = found.style
        if (style is _BARE or style is _ANGLE) and not self.browser and "/." not in reference \
                and ":." not in reference and found.expanded is None and not may_be_wrapped(reference):
            # The common case of target(), without the calls: these styles
            # always start with a scheme (the scanner saw to it), without dot
            # segments the target is the reference itself, and a reference of
            # URI characters alone with a plain authority is valid (and the
            # commonest of those, one match says, raises no flag either).
            if _plainly_safe(reference) is not None:
                return new_record(found, reference, None, self.origin, self.decoding, span, line, column, ())
            if _plainly_valid(reference) is not None and ("%" not in reference or _bad_escape(reference) is None):
                return new_record(found, reference, None, self.origin, self.decoding, span, line, column,
                                  () if plainly_safe(reference) else risks(reference))
        seen = self._seen.get(reference)
        expanded = found.expanded is not None  # (abbreviated, or defanged: the target is not the spelling's)
        if seen is None or expanded:
            plain = self._plain
            if plain is None or expanded:
                seen = self._work_out(found)
            elif "/" not in reference and _plainly_opaque(reference) is not None:
                # the commonest of the absolute ones below, told by one match (a calendar's mailto:
                # ATTENDEE, a tel:, a urn:): not "scheme://", so neither plainly safe nor a wrapper
                seen = (reference, *plain)
            elif _plainly_safe(reference) is not None and "/." not in reference and not may_be_wrapped(reference):
                # _work_out's answer, without its steps (a reference of a markup link: an rST line of
                # 250,000 embedded URIs): PLAINLY_SAFE starts with "scheme://", so the reference is its
                # own target, with no dot segment to remove, and valid
                seen = (reference, *plain)
            elif self._base is None and ":" not in reference and not reference.startswith("//") \
                    and _plainly_valid(reference) is not None and ("%" not in reference or _bad_escape(reference)
                                                                   is None):
                # the same for a relative reference with no base (a notebook's cell's link, read from a
                # file): no target; valid; no scheme and no authority, so no §7 flag; and no wrapper
                seen = (None, *plain)
            elif _plainly_absolute(reference) and not may_be_wrapped(reference):
                # and for any other absolute reference that is plainly valid and plainly safe (a calendar's
                # mailto: ATTENDEE, a tel:, a urn:): its own target, no flag, nothing to encode, no wrapper
                seen = (reference, *plain)
            else:
                seen = self._work_out(found)
        if seen[3]:
            found = found._replace(flags=ordered({*found.flags, Flag.ENCODED}))
        flags = seen[2]
        text = found.place.text
        if text and flags is not False:  # an HTML link's visible text: does it name another host than where it goes?
            deceptive = deception(text, seen[5] or seen[0])
            if deceptive is not None:
                flags = (*flags, deceptive)
        return new_record(found, seen[0], seen[1], self.origin, self.decoding, span, line, column, flags,
                          None, seen[4], seen[5], seen[6])

    def _work_out(self, found: Found) -> _Seen:
        """What the record of ``found`` holds: the target, the base used, the
        flags (``invalid``, §7, ``differs``), whether the target had to be
        percent-encoded, and the browser's URL; remembered for the next
        reference spelt the same."""
        target, base, vetted = self.target(found)
        # the commonest target, URI characters only and no §7 flag, is told by one match
        encoded = False
        risky = self._risky
        flags: tuple[Risk, ...] | Literal[False] = () if risky else False
        safe = target is not None and _plainly_safe(target) is not None
        if not safe:
            encoded = target is not None and _NOT_URI_CHARS.search(target) is not None
            if encoded:
                # RFC 3986 form: what it does not allow is percent-encoded in the
                # target, and the record says so ("|" in a font URL, "^", a
                # control character, a bidi override ...)
                target = _NOT_URI_CHARS.sub(_percent_encode, target)  # type: ignore[arg-type]
                vetted = target
            if risky:
                # a relative reference with no base to resolve it against (a page
                # read from a file): with no ":" and no "//" to start it, Appendix B
                # gives it neither a scheme nor an authority, and every §7 flag is
                # about one of those, so it is not parsed to be looked at
                reference = found.reference
                flags = () if target is None and ":" not in reference and not reference.startswith("//") \
                    else risks(vetted)
        if flags is not False:
            # a reference that is its own target and plainly safe is valid too
            # (PLAINLY_SAFE narrows PLAINLY_VALID): the commonest absolute link is
            # vetted by that one match
            # (a defanged reference is judged by the URI it was written for: its brackets are the defanging)
            bad = None if safe and target is found.reference else invalidity(
                found.expanded if found.expanded is not None and _DEFANGED in found.flags else found.reference)
            if bad is not None:
                flags = (bad, *flags)
        browser: str | None | Literal[False] = False
        resolver, whatwg = self._browser, self._whatwg
        if resolver is not None and whatwg is not None:
            if found.expanded is not None:
                browser = whatwg.browser_target(found.expanded, None)
            else:
                browser = resolver(found.reference)
            differs = whatwg.difference(target, browser) if flags is not False else None
            if differs is not None:
                flags = (*flags, differs)  # type: ignore[misc]
        unwrapped: str | None | Literal[False] = None
        wrapper: tuple[str, ...] | Literal[False] = ()
        if not self._unwraps:
            unwrapped = wrapper = False
        else:
            wrapped = unwrap(target if target is not None else found.reference)
            if wrapped is not None:
                unwrapped, wrapper = wrapped.url, wrapped.wrappers
                if wrapped.risk is not None and flags is not False:
                    flags = (*flags, wrapped.risk)
        seen = (target, base, flags, encoded, browser, unwrapped, wrapper)
        if found.expanded is None:  # an expanded one's target is not its spelling's alone
            if len(self._seen) >= _SEEN_LIMIT:
                self._seen.clear()
            self._seen[found.reference] = seen
        return seen


def _plainly_absolute(reference: str) -> bool:
    """Whether ``reference`` is what _work_out makes its own target with no flag: absolute (RFC 3986 §4.3)
    with no dot segment for §5.2.4 to remove, valid (validity.plainly_valid: URI characters only, so nothing
    to percent-encode either) and plainly safe (risk.plainly_safe: no §7 flag)."""
    if _plainly_opaque(reference) is not None:
        return True  # (the commonest such reference, told by one match: a test holds it to the steps below)
    m = _SCHEME.match(reference)
    return m is not None and "/." not in reference and not reference.startswith(".", m.end()) \
        and _plainly_valid(reference) is not None and ("%" not in reference or _bad_escape(reference) is None) \
        and plainly_safe(reference)


@cache
def _whatwg() -> ModuleType:
    """:mod:`urisift.uri.browser`, imported when first needed: a run that asks
    no browser target never loads ada-url (5 ms of a command's start).
    Kept once loaded: every small HTML part makes two tails."""
    from ..uri import browser

    return browser


@lru_cache(maxsize=512)
def _joiner(base: str) -> Joiner:
    """The joiner of a base URI (a layer's: absolute, so it cannot be
    refused); kept by its text, since the parts of an archive and the pages
    of a crawl share a few bases and a joiner is never changed."""
    return Joiner(_parse(base))


#: what the slow path makes of a reference: target, base used, flags, encoded, browser target, unwrapped,
#: wrappers (False: not computed, the output asking for none of them)
_Seen = tuple[str | None, Base | None, tuple[Risk, ...] | Literal[False], bool, str | None | Literal[False],
              str | None | Literal[False], tuple[str, ...] | Literal[False]]
#: what the slow path makes of a reference that Tail tells without it, after its target (Tail._plain)
_Plain = tuple[None, tuple[Risk, ...] | Literal[False], bool, str | None | Literal[False], str | None | Literal[False],
               tuple[str, ...] | Literal[False]]
#: Tail._plain by whether risks and unwrapping are asked for
_PLAIN: dict[tuple[bool, bool], _Plain] = {
    (risky, unwraps): (None, () if risky else False, False, False, *((None, ()) if unwraps else (False, False)))
    for risky in (True, False) for unwraps in (True, False)}
