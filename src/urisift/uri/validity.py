"""Whether a reference is valid at all: an RFC 3986 ``URI-reference`` or an
RFC 3987 ``IRI-reference`` (rfc2396bis-01 §4.1, Appendix A), and if not, what is
wrong with it, as an ``invalid`` risk flag that names the component, the
offending character and where it stands.

A reference that is not valid is still resolved (RFC 3986 §5.2 works on the
Appendix B split, which every string has) and its ``target`` kept: the
record says what is wrong instead of dropping what a reader may still want.
It is never unflagged.

The classes, each with the section of rfc2396bis-01 it breaks:

- a character a component cannot hold: a space, ``<``, ``>``, a ``[``/``]``
  outside an IP literal, a control character (§2, §3.1-§3.5);
- a ``%`` not followed by two hex digits (§2.1);
- a non-character (U+FDD0-U+FDEF, U+xFFFE, U+xFFFF: RFC 3987 §2.2 leaves
  them out of ``ucschar``);
- a malformed IPv6 or IPvFuture literal (§3.2.2);
- a port that is not digits (§3.2.3);
- an ``@`` inside the userinfo (§3.2.1: the authority has one ``@`` at most);
- a ``:`` in the first segment of a relative path, or a scheme that does not
  start with a letter (§3.1, §4.2);
- a bidirectional formatting character (RFC 3987 §4.1: "MUST NOT" appear in
  an IRI, since it reorders how the IRI is displayed).
"""

from __future__ import annotations

from ..model import Risk
from . import patterns
from .errors import UriSyntaxError
from .reference import validate

#: the section of rfc2396bis-01 that defines each component the validator names
SECTIONS = {"scheme": "3.1", "userinfo": "3.2.1", "host": "3.2.2", "port": "3.2.3", "path": "3.3",
            "query": "3.4", "fragment": "3.5"}
#: RFC 3987 §4.1: LRM, RLM, LRE, RLE, PDF, LRO, RLO, and the isolates of Unicode 6.3 (LRI, RLI, FSI, PDI)
BIDI_FORMATTING = "\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_BIDI = patterns.compile(f"[{BIDI_FORMATTING}]")
# The common shape of a valid reference as one pattern (ASCII; no userinfo,
# port or IP literal; "%" escapes checked apart): a match is valid, no match
# means "look closer" (the full check, which names what is wrong).  Each
# branch is a run of one character class after a literal, so a match is one
# pass.  Classes, RFC 3986 Appendix A: reg-name = unreserved / pct-encoded /
# sub-delims; pchar adds ":" and "@"; query and fragment add "/" and "?".
_REG_NAME = r"[A-Za-z0-9\-._~!$&'()*+,;=%]"
_PCHAR = r"[A-Za-z0-9\-._~!$&'()*+,;=%:@]"
_SEGMENT_NC = r"[A-Za-z0-9\-._~!$&'()*+,;=%@]"  # segment-nz-nc: no ":"
_PATH = _PCHAR[:-1] + "/]"  # segments and their "/"
_QUERY = _PCHAR[:-1] + "/?]"  # query and fragment
PLAINLY_VALID = patterns.compile(
    r"(?:"
    rf"[A-Za-z][A-Za-z0-9+\-.]*:(?://{_REG_NAME}*(?:/{_PATH}*)?|(?!//){_PATH}*)"  # scheme, then hier-part
    rf"|//{_REG_NAME}*(?:/{_PATH}*)?"  # network-path reference
    rf"|(?![A-Za-z][A-Za-z0-9+\-.]*:|//){_SEGMENT_NC}*(?:/{_PATH}*)?"  # path-noscheme / path-absolute / empty
    r")"
    rf"(?:\?{_QUERY}*)?(?:#{_QUERY}*)?")
BAD_ESCAPE = patterns.compile(r"%(?![0-9A-Fa-f]{2})")
# Narrower still, for the hot path of text: a valid URI with an authority
# that can raise no RFC 3986 §7 flag -- no "%" at all (so no encoded CR or
# LF), no userinfo or port (neither "@" nor ":" in the authority) and a host
# with a character that no IPv4 form has (risk.plainly_safe's rules, which a
# property test holds this to).  One match decides valid and safe at once.
PLAINLY_SAFE = patterns.compile(
    r"[A-Za-z][A-Za-z0-9+\-.]*+://"
    r"(?=[^/?#]*?[G-WYZg-wyz\-_~!$&'()*+,;=])[A-Za-z0-9\-._~!$&'()*+,;=]*+"
    r"(?:/[A-Za-z0-9\-._~!$&'()*+,;=:@/]*+)?(?:\?[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*+)?"
    r"(?:#[A-Za-z0-9\-._~!$&'()*+,;=:@/?]*+)?")


def plainly_valid(reference: str) -> bool:
    """Whether ``reference`` is valid, decided by patterns for the common
    shape (ASCII, no IP literal, no userinfo or port); False means "look
    closer", not "invalid"."""
    if PLAINLY_VALID.fullmatch(reference) is None:
        return False
    return "%" not in reference or BAD_ESCAPE.search(reference) is None


def invalidity(reference: str) -> Risk | None:
    """The ``invalid`` flag of ``reference`` (None when it is a valid
    URI-reference or IRI-reference): the component, what is wrong and the
    0-based position in the reference."""
    if plainly_valid(reference):
        return None
    try:
        validate(reference, "IRI-reference")
    except UriSyntaxError as exc:
        return Risk("invalid", SECTIONS.get(exc.component, "4.1"),
                    f"{exc.component}: {exc.reason} at position {exc.position}")
    bidi = _BIDI.search(reference)
    if bidi is not None:
        return Risk("invalid", "RFC 3987 4.1",
                    f"bidirectional formatting character U+{ord(bidi.group()):04X} at position {bidi.start()}")
    return None
