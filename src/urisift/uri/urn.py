"""URNs under each generation of their specification.

``rules`` names the generation:

``"2141"``        RFC 2141 (1997): NID of 1–32 letters, digits and hyphens, not
                  starting with a hyphen; "urn" reserved; NSS of the 2141 URN
                  characters ("/", "?", "#" reserved and refused, "%00" refused);
                  no query or fragment.  Lexical equivalence, §5: case of "urn",
                  of the NID and of percent-encoding hex digits.
``"2141bis-00"``  draft-saintandre-2141bis-00 (2141bis-00): NID ``(alphanum)
                  0*30(ldh) (alphanum)`` (no trailing hyphen), NSS ``1*pchar``
                  ("~" and "&" allowed); equivalence in three steps (§6).
``"2141bis-03"``  draft-ietf-urnbis-rfc2141bis-urn-03 (rfc2141bis-urn-03): the same NID rule
                  with "urn" reserved (§2.1), NSS ``1*pchar``, a ``?`` query of
                  ``keywd=value`` directives joined by "&" (§2.3; a repeated
                  keyword is flagged), a fragment (§2.4); equivalence in five
                  steps (§5), 5a (drop the query) or 5b (order its directives).
``"8141"``        RFC 8141: NID rule as above, "urn-<n>" informal NIDs only with a
                  number; NSS ``pchar *(pchar / "/")``; ``?+`` r-, ``?=`` q- and
                  ``#`` f-components; equivalence (§3) ignores r, q and f.

Comparison never decodes percent-encoding (every generation says so);
:meth:`Urn.display` decodes it for people, and is never used to compare.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from . import arguments as check
from . import patterns
from .errors import UrnError

Rules = Literal["2141", "2141bis-00", "2141bis-03", "8141"]
RULES: tuple[str, ...] = ("2141", "2141bis-00", "2141bis-03", "8141")

_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_HEX = frozenset("0123456789ABCDEFabcdef")
# RFC 3986 pchar without pct-encoded
_PCHAR = _ALNUM | frozenset("-._~!$&'()*+,;=:@")
# RFC 2141 §2.2: <trans> without <reserved>, which §2.3 keeps out of NSSs
_URN_CHARS_2141 = _ALNUM | frozenset("()+,-.:=@;$_!*'")
# rfc2141bis-urn-03 §2.3: keywd = ALPHA *( ["-"] (ALPHA / DIGIT) )
_KEYWD = patterns.compile(r"[A-Za-z](?>(?:-?[A-Za-z0-9])*)")
# rfc2141bis-urn-03 §2.3: v-pchar = unreserved / pct-encoded / v-subdels ("&" excluded)
_V_PCHAR = _ALNUM | frozenset("-._~!$'()*+,;=:@/?")
_PCT = patterns.compile(r"%([0-9A-Fa-f]{2})")


@dataclass(frozen=True, slots=True)
class Urn:
    """A parsed URN.  Components a generation does not have are ``None``;
    present-but-empty ones are ``""``."""

    text: str
    rules: str
    scheme: str  # "urn" in whatever case it was written
    nid: str
    nss: str
    r_component: str | None = None  # RFC 8141 "?+"
    q_component: str | None = None  # RFC 8141 "?="
    query: str | None = None  # rfc2141bis-urn-03 "?"
    fragment: str | None = None  # RFC 8141 f-component / rfc2141bis-urn-03 fragment
    directives: tuple[tuple[str, str], ...] = ()  # rfc2141bis-urn-03 query directives, in order
    flags: tuple[str, ...] = ()  # e.g. "repeated-keyword:s"

    @property
    def f_component(self) -> str | None:
        return self.fragment

    def directive(self, keywd: str) -> str | None:
        """The value of a rfc2141bis-urn-03 query directive (the first, if repeated)."""
        return next((value for key, value in self.directives if key == keywd), None)

    @property
    def service(self) -> str | None:
        """rfc2141bis-urn-03 §2.3.1: the URN resolution service asked for with ``s=``."""
        return self.directive("s")

    @property
    def component(self) -> str | None:
        """rfc2141bis-urn-03 §2.3.2: the component of the resource asked for with ``c=``."""
        return self.directive("c")

    @classmethod
    def parse(cls, text: str, *, rules: Rules = "8141") -> Urn:
        """Parse ``text`` as a URN under ``rules``; raise :class:`UrnError` naming
        the rule broken when it is not one."""
        check.text("Urn.parse", "text", text)
        check.one_of("Urn.parse", "rules", rules, RULES)
        spec = _SPEC[rules]
        if len(text) < 4 or text[:4].lower() != "urn:":
            pairs = zip(text.lower(), "urn:", strict=False)
            bad = next((i for i, (a, b) in enumerate(pairs) if a != b), min(len(text), 4))
            raise UrnError(text, bad, 'a URN starts with "urn:" (any case)', spec)
        colon = text.find(":", 4)
        end_nid = colon if colon != -1 else len(text)
        nid = text[4:end_nid]
        _check_nid(text, nid, rules, spec)
        if colon == -1:
            raise UrnError(text, len(text), 'no ":" after the NID', spec)
        scheme = text[:3]
        rest_start = colon + 1
        if rules == "8141":
            return _parse_8141(cls, text, scheme, nid, rest_start, spec)
        if rules == "2141bis-03":
            return _parse_03(cls, text, scheme, nid, rest_start, spec)
        nss = text[rest_start:]
        allowed = _URN_CHARS_2141 if rules == "2141" else _PCHAR
        _check_chars(text, rest_start, len(text), allowed, "NSS", spec, nonempty=True,
                     no_nul=rules == "2141")
        return cls(text, rules, scheme, nid, nss)

    # -- comparison -------------------------------------------------------------
    def comparison_key(self, *, objective: Literal["resource", "cache"] = "resource") -> str:
        """The string lexical equivalence compares (see the module doc).

        ``objective`` chooses step 5a ("resource") or 5b ("cache") of rfc2141bis-urn-03
        §5; other generations have no such step.
        """
        key = "urn:" + self.nid.lower() + ":" + _upper_hex(self.nss)
        if self.nid.lower() == "uuid":
            # RFC 4122 §3: UUID hex digits are case-insensitive on input
            key = key.lower()
        if self.rules == "2141bis-03" and self.query is not None and objective == "cache":
            ordered = sorted(self.directives, key=lambda d: d[0])  # stable: equal keywords keep order
            key += "?" + "&".join(k + "=" + _upper_hex(v) for k, v in ordered)
        return key

    def equivalent(self, other: Urn, *, objective: Literal["resource", "cache"] = "resource") -> bool:
        return self.comparison_key(objective=objective) == other.comparison_key(objective=objective)

    def display(self) -> str:
        """A form for people (rfc2141bis-urn-03 §4): percent-encoded UTF-8 sequences of
        non-ASCII characters decoded.  Encoded ASCII stays encoded, since
        decoding it could make two different URNs look alike.  Never compare
        this form."""
        return _decode_non_ascii(self.text)

    def __str__(self) -> str:
        return self.text


_SPEC = {
    "2141": "RFC 2141",
    "2141bis-00": "draft-saintandre-2141bis-00",
    "2141bis-03": "draft-ietf-urnbis-rfc2141bis-urn-03",
    "8141": "RFC 8141",
}


def _check_nid(text: str, nid: str, rules: str, spec: str) -> None:
    if nid == "":
        raise UrnError(text, 4, "the NID is empty", f"{spec} NID")
    for i, c in enumerate(nid):
        if c not in _ALNUM and c != "-":
            raise UrnError(text, 4 + i, f"character {c!r} not allowed in a NID", f"{spec} NID")
    if nid[0] == "-":
        raise UrnError(text, 4, "a NID starts with a letter or digit", f"{spec} NID")
    if rules == "2141":
        if len(nid) > 32:
            raise UrnError(text, 4 + 32, "a NID has at most 32 characters", "RFC 2141 §2 NID")
    else:
        if len(nid) < 2:
            raise UrnError(text, 4 + len(nid), "a NID has at least 2 characters", f"{spec} NID")
        if len(nid) > 32:
            raise UrnError(text, 4 + 32, "a NID has at most 32 characters", f"{spec} NID")
        if nid[-1] == "-":
            raise UrnError(text, 4 + len(nid) - 1, "a NID does not end with a hyphen", f"{spec} NID")
    if rules in ("2141", "2141bis-03") and nid.lower() == "urn":
        raise UrnError(text, 4, 'the NID "urn" is reserved', f"{spec} NID")
    if rules == "8141" and nid[:4].lower() == "urn-" and not re.fullmatch(r"[1-9][0-9]*", nid[4:]):
        raise UrnError(text, 8, 'an informal NID is "urn-" and a number', "RFC 8141 §5.2 informal NID")


def _check_chars(text: str, start: int, end: int, allowed: frozenset[str], what: str, spec: str,
                 *, nonempty: bool = False, no_nul: bool = False) -> None:
    if nonempty and start >= end:
        raise UrnError(text, start, f"the {what} is empty", f"{spec} {what}")
    i = start
    while i < end:
        c = text[i]
        if c in allowed:
            i += 1
        elif c == "%":
            if i + 2 < end and text[i + 1] in _HEX and text[i + 2] in _HEX:
                if no_nul and text[i + 1 : i + 3] == "00":
                    raise UrnError(text, i, "octet 0 may not be used, encoded or not", f"{spec} {what}")
                i += 3
            else:
                raise UrnError(text, i, "'%' not followed by two hex digits", f"{spec} {what}")
        else:
            raise UrnError(text, i, f"character {c!r} not allowed in the {what}", f"{spec} {what}")


def _split_tail(text: str, start: int) -> tuple[int, int, int, int]:
    """Where the NSS, the "?" part and the "#" part are: (nss_end, q_at,
    body_end, hash_at), -1 for an absent "?" or "#"."""
    hash_at = text.find("#", start)
    body_end = hash_at if hash_at != -1 else len(text)
    q_at = text.find("?", start, body_end)
    return (q_at if q_at != -1 else body_end), q_at, body_end, hash_at


def _parse_8141(cls: type[Urn], text: str, scheme: str, nid: str, start: int, spec: str) -> Urn:
    # NSS = pchar *( pchar / "/" ); it ends at "?" or "#"
    end = len(text)
    nss_end, q_at, body_end, hash_at = _split_tail(text, start)
    if nss_end == start:
        raise UrnError(text, start, "the NSS is empty", f"{spec} §2 NSS")
    if text[start] == "/":
        raise UrnError(text, start, "the NSS starts with a pchar, not '/'", f"{spec} §2 NSS")
    _check_chars(text, start, nss_end, _PCHAR | {"/"}, "NSS", spec)
    r = q = f = None
    if q_at != -1:
        rq = text[q_at:body_end]
        if rq.startswith("?+"):
            # the r-component runs to the first "?=", which starts the q-component
            q_rel = rq.find("?=", 2)
            r_end = q_at + (q_rel if q_rel != -1 else len(rq))
            r = _component_8141(text, q_at + 2, r_end, "r-component", spec)
            if q_rel != -1:
                q = _component_8141(text, r_end + 2, body_end, "q-component", spec)
        elif rq.startswith("?="):
            q = _component_8141(text, q_at + 2, body_end, "q-component", spec)
        else:
            raise UrnError(text, q_at, '"?" must start "?+" (r-component) or "?=" (q-component)',
                           f"{spec} §2 rq-components")
    if hash_at != -1:
        _check_chars(text, hash_at + 1, end, _PCHAR | {"/", "?"}, "f-component", spec)
        f = text[hash_at + 1 :]
    return cls(text, "8141", scheme, nid, text[start:nss_end], r_component=r, q_component=q, fragment=f)


def _component_8141(text: str, start: int, end: int, what: str, spec: str) -> str:
    # r-component / q-component = pchar *( pchar / "/" / "?" )
    if start >= end:
        raise UrnError(text, start, f"the {what} is empty", f"{spec} §2 {what}")
    if text[start] in "/?":
        raise UrnError(text, start, f"the {what} starts with a pchar", f"{spec} §2 {what}")
    _check_chars(text, start, end, _PCHAR | {"/", "?"}, what, spec)
    return text[start:end]


def _parse_03(cls: type[Urn], text: str, scheme: str, nid: str, start: int, spec: str) -> Urn:
    end = len(text)
    nss_end, q_at, body_end, hash_at = _split_tail(text, start)
    _check_chars(text, start, nss_end, _PCHAR, "NSS", spec, nonempty=True)
    query = fragment = None
    directives: list[tuple[str, str]] = []
    flags: list[str] = []
    if q_at != -1:
        query = text[q_at + 1 : body_end]
        pos = q_at + 1
        seen: set[str] = set()
        for directive in query.split("&"):
            keywd, eq, value = directive.partition("=")
            m = _KEYWD.fullmatch(keywd)
            if m is None or not eq:
                raise UrnError(text, pos, f"{directive!r} is not a keywd=value directive", f"{spec} §2.3 urn-query")
            _check_chars(text, pos + len(keywd) + 1, pos + len(directive), _V_PCHAR, "query value", spec)
            if keywd in seen and f"repeated-keyword:{keywd}" not in flags:
                flags.append(f"repeated-keyword:{keywd}")  # §2.3: MUST NOT appear more than once
            seen.add(keywd)
            directives.append((keywd, value))
            pos += len(directive) + 1
    if hash_at != -1:
        _check_chars(text, hash_at + 1, end, _PCHAR | {"/", "?"}, "fragment", spec)
        fragment = text[hash_at + 1 :]
    return cls(text, "2141bis-03", scheme, nid, text[start:nss_end], query=query, fragment=fragment,
               directives=tuple(directives), flags=tuple(flags))


def _upper_hex(text: str) -> str:
    if "%" not in text:
        return text
    return _PCT.sub(lambda m: "%" + m.group(1).upper(), text)


def _decode_non_ascii(text: str) -> str:
    """Decode runs of percent-encoded octets that form UTF-8 non-ASCII characters."""
    def decode_run(m: re.Match[str]) -> str:
        raw = bytes(int(h, 16) for h in re.findall(r"%([0-9A-Fa-f]{2})", m.group()))
        out: list[str] = []
        i = 0
        while i < len(raw):
            b = raw[i]
            if b < 0x80:
                out.append(f"%{b:02X}")
                i += 1
                continue
            width = 2 if b >> 5 == 0b110 else 3 if b >> 4 == 0b1110 else 4 if b >> 3 == 0b11110 else 1
            chunk = raw[i : i + width]
            try:
                out.append(chunk.decode("utf-8"))
                i += width
            except UnicodeDecodeError:
                out.append(f"%{b:02X}")
                i += 1
        return "".join(out)

    return re.sub(r"(?:%[0-9A-Fa-f]{2})+", decode_run, text)


def urn_equivalent(a: str | Urn, b: str | Urn, *, rules: Rules = "8141",
                   objective: Literal["resource", "cache"] = "resource") -> bool:
    """Lexical equivalence of two URNs under ``rules`` (see the module doc).

    Raises :class:`UrnError` when either is not a URN under those rules.
    """
    check.text("urn_equivalent", "a", a, also=(Urn,), expected="a str or an Urn")
    check.text("urn_equivalent", "b", b, also=(Urn,), expected="a str or an Urn")
    check.one_of("urn_equivalent", "rules", rules, RULES)
    check.one_of("urn_equivalent", "objective", objective, ("resource", "cache"))
    ua = a if isinstance(a, Urn) else Urn.parse(a, rules=rules)
    ub = b if isinstance(b, Urn) else Urn.parse(b, rules=rules)
    return ua.equivalent(ub, objective=objective)
