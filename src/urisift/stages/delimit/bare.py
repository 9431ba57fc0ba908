"""Bare references in running text: ``scheme:...``, ``urn:...`` and the
abbreviated ``www.``/``ftp.`` forms (rfc2396bis-01 Appendices E and F; rfc2141bis-urn-03
§2.5.3; ARCHITECTURE.md, Delimiting running text).

- A bare ``scheme:...`` needs ``//`` after the colon, or a registered scheme
  with its own syntax (``opaque.py``), at a word start; it ends at white
  space or a character that cannot be in a URI, or at a closing bracket that
  is not its own; trailing punctuation and closing quotes are left out, and
  so is a closing emphasis run that opened before it.  ``"..."`` delimits exactly.  A URI that ends in ``-`` (or in
  ``scheme://``) at a line break continues on the next line.
- ``urn:``: the NSS ends at the first excluded character (rfc2141bis-urn-03 §2.5.3).
- ``www.`` / ``ftp.``: abbreviated URIs, absolute by heuristic.

Linear: a character class under a repeat is possessive (``++``, ``*+``),
a repeated group is atomic (``(?>(?:...)*)``, never ``(?:...)*+``, which
CPython before 3.11.5 matched wrongly) or bounded, so nothing is given back
and tried again in another split.
"""

from __future__ import annotations

from ...model import Flag, Found, Place, Style, new_found
from ...uri import patterns
from ...uri.grammar import SCHEME
from .chars import HAS_ALNUM, SCHEME_CHARS, TRAILING_PUNCT, TRIMMABLE, body_end, ordered, trim
from .opaque import OPAQUE_SYNTAX, opaque_uri

_TEXT = Place()
# enum members looked up once: in Python 3.11 each Style.X costs 0.1 µs
_BARE, _QUOTE = Style.BARE, Style.QUOTE
LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
# quotes that delimit a URI exactly (ARCHITECTURE.md, Delimiting running text): opening -> closing
_QUOTE_PAIRS = {'"': '"', "\u201c": "\u201d"}
_CLOSERS = (")", "]")
# a last character that calls for trimming or a hyphen join
_ENDS_SPECIALLY = TRIMMABLE | frozenset("*_~-")
# a last character that trim() leaves out alone when the one before it is none of those (an apostrophe is kept
# when it closes a quotation opened in the URI: trim() looks for it)
_TRIMMED_AT_ONCE = TRAILING_PUNCT - {"'"}
_TRIMMED = (Flag.TRIMMED,)
# the line break after a hyphen (or after "scheme://"), with the next line's
# indent and margin marks: mail quote markers (">") and the change bars ("|")
# of revised documents
HYPHEN_BREAK = patterns.compile(r"[ \t]*+\r?\n(?>(?:[ \t]*+[>|])*)[ \t]*+")
MARGIN_MARKS = patterns.compile(r"[>|]")
# a reference that starts at a given place: "scheme:" or "www."/"ftp."
LEADING_REFERENCE = patterns.compile(rf"(?P<scheme>{SCHEME}):|(?:[Ww]{{3}}|[Ff][Tt][Pp])\.")
# URN: "urn:" NID ":" NSS, NSS ending at an excluded character (rfc2141bis-urn-03 §2.5.3)
#   NID = alphanum 0*31( alphanum / "-" ) ; NSS chars = URN chars or "%" HEXDIG HEXDIG
#   (parentheses are taken by body_end's bracket rule, the rest by one class)
URN = patterns.compile(r"[Uu][Rr][Nn]:[A-Za-z0-9][A-Za-z0-9-]{0,31}:")
URN_NSS = patterns.compile(r"(?>(?:[A-Za-z0-9+,\-.:=@;$_!*'&~]|%[0-9A-Fa-f]{2})*)")  # atomic: nothing given back
# after an NSS: the r-, q- and f-components ("?+", "?=", "#") of rfc2141bis-urn-03 / RFC 8141
URN_COMPONENT = patterns.compile(r"[?#]")
# characters that may not stand right before an abbreviated "www." (it would
# be part of a host name, an e-mail address, a path or a scheme)
ABBR_NOT_AFTER = frozenset(".@/:%+-_")
# abbreviated host: "www." label ( "." label )+, then an optional port.  The
# repetitions are bounded (a DNS name has at most 127 labels of 63 characters)
# and atomic, so a megabyte of "www.www.www." costs one bounded pass and
# no backtracking state.
ABBR_HOST = patterns.compile(r"[\w-]{1,63}+(?>(?:\.[\w-]{1,63}+){1,126})(?>(?::[0-9]++)?)")


# the characters of an escape that code and JSON put before a scheme:
# "\x22https://", "\u003Chttps://", "%3Dhttp://" (the scheme starts after it)
_ESCAPE = patterns.compile(r"(?<=\\)(?:x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8})|(?<=%)[0-9A-Fa-f]{2}")
# characters after which no scheme starts: it would be inside a path
# ("/wiki/File:Foo.jpg", "C:\\http"), or a list of names ("fe80::feed:c498",
# "h=from:content-type"; after ":" only "scheme://" starts a URI)
_NOT_BEFORE_SCHEME = frozenset("/\\:")
# emphasis markup that may stand right before a URI ("_http://x_", "**http://x**")
EMPHASIS = frozenset("*_~")
# how far before a URI the opening emphasis run is looked for, and how long a
# run of markers before a scheme is read (both bounds keep the scan linear)
_EMPHASIS_WINDOW, _EMPHASIS_RUN = 1024, 16
# what may stand right before a web URI that the trigger matched for it to be
# taken at once; after anything else the scheme rule decides (word start, escapes)
FAST_AFTER_ANY_BUT = SCHEME_CHARS | _NOT_BEFORE_SCHEME | EMPHASIS | {"%"}


def _past_escape(text: str, start: int, colon: int) -> int:
    """Where the scheme starts when the run of scheme characters before the
    colon begins with the tail of an escape ("x22" of "\x22https"): after it."""
    if start and text[start - 1] in "\\%":
        m = _ESCAPE.match(text, start, colon)
        if m is not None:
            return m.end()
    return start


def word_start(text: str, at: int) -> bool:
    """Whether a scheme at ``at`` stands at a word start: at the start of the
    text, or after a character that is not ASCII alphanumeric, not "/", "\\"
    or ":", and not a run of emphasis markers inside a word ("x_icon:hover").
    An escape just left behind ("\x22https") is a word start too, and so is
    any non-ASCII letter (CJK text puts URIs right after its words)."""
    if not at:
        return True
    before = text[at - 1]
    if before in EMPHASIS:
        i = at - 1
        while i > 0 and text[i - 1] in EMPHASIS and at - i < _EMPHASIS_RUN:
            i -= 1
        return not i or not (text[i - 1].isascii() and text[i - 1].isalnum())
    if before == ":":
        # "Homepage:http://x" is a label and a URI; "fe80::feed:c498" and
        # "h=from:content-type:date" are lists of names: "//" tells them apart
        return text.startswith("//", text.find(":", at) + 1)
    if before in _NOT_BEFORE_SCHEME:
        return False
    return not (before.isascii() and before.isalnum()) or _ends_escape(text, at)


def _ends_escape(text: str, at: int) -> bool:
    """Whether an escape ("\x22", "\u003C", "%3D") ends right at ``at``."""
    for width in (3, 5, 9, 2):
        lo = at - width
        if lo >= 1 and text[lo - 1] in "\\%":
            m = _ESCAPE.match(text, lo, at)
            if m is not None and m.end() == at:
                return True
    return False


def emphasis_end(text: str, start: int, end: int, flags: set[Flag]) -> int:
    """Leave out a closing run of emphasis markers ("**", "_", "~~") when the
    same run opens before the URI on its line (``**see http://x/a**``,
    ``_http://x/a_``): it is the markup's, not the URI's.  The look back is
    bounded, so the scan stays linear."""
    i = end
    while i > start and text[i - 1] in EMPHASIS and text[i - 1] == text[end - 1]:
        i -= 1
    run = text[i:end]
    if not run or i == start:
        return end
    floor = max(text.rfind("\n", max(0, start - _EMPHASIS_WINDOW), start) + 1, start - _EMPHASIS_WINDOW)
    k = text.rfind(run, floor, start)
    while k != -1:
        opens = ((k == 0 or not (text[k - 1].isalnum() or text[k - 1] == run[0]))
                 and k + len(run) < len(text) and not text[k + len(run)].isspace()
                 and text[k + len(run)] != run[0])
        if opens:
            flags.add(Flag.TRIMMED)
            return i
        k = text.rfind(run, floor, k)
    return end


# scheme characters and colons: "a:b:c", "fe80::1", "h=from:content-type:date"
_NAME_RUN = patterns.compile(r"[A-Za-z0-9+.:-]*+")
_MAX_HOST = 253
_HOST_RUN = patterns.compile(r"[\w.-]*+")


def _skip_host(text: str, at: int) -> int:
    """Past the rest of a host-like run, so that no shorter host is read inside it."""
    m = _HOST_RUN.match(text, at)
    return m.end() if m is not None else at


def starts_reference(text: str, at: int, schemes: frozenset[str], *, abbreviated: bool = True) -> bool:
    """Whether a reference of its own starts at ``at`` ("scheme:" or "www.")."""
    m = LEADING_REFERENCE.match(text, at)
    if m is None:
        return False
    scheme = m.group("scheme")
    if scheme is None:
        return abbreviated  # www. / ftp.
    return scheme.lower() in schemes or text.startswith("//", m.end())


class SchemeRule:
    """Delimits the bare reference whose scheme ends at a ``:``, if any."""

    def __init__(self, text: str, schemes: frozenset[str]) -> None:
        self.text = text
        self.schemes = schemes

    def __call__(self, colon: int, floor: int) -> tuple[Found | None, int]:
        """The reference whose scheme ends at the ``:`` at ``colon`` (the walk
        has passed everything before ``floor``).  The scheme is the run of
        scheme characters before the colon; it must begin with a letter and
        stand at a word start (see :func:`word_start`)."""
        text = self.text
        start = colon
        while start > floor and text[start - 1] in SCHEME_CHARS:
            start -= 1
        if start < colon:
            start = _past_escape(text, start, colon)
            if text[start] not in LETTERS and text.startswith("//", colon + 1):
                # "...http://x", "1.http://x": the run starts with dots or
                # digits; the scheme is the registered name after its last dot
                dot = text.rfind(".", start, colon) + 1
                if dot and dot < colon and text[dot] in LETTERS and text[dot:colon].lower() in self.schemes:
                    start = dot
        if start == colon or text[start] not in LETTERS or not word_start(text, start):
            return None, self._past_names(colon)
        return self._bare(start, colon)

    def _past_names(self, colon: int) -> int:
        """Where to go on after a ``name:`` that starts no URI.  Inside the run
        of scheme characters and colons that follows ("a:b:c", "fe80::1:2",
        "urn:a:::"), every scheme would stand right after a colon, where only
        ``scheme://`` starts a URI: so the walk resumes at the end of the run,
        or at the scheme before a ``://`` that ends it.  One match, so a
        megabyte of "a:" is one step, not half a million."""
        text = self.text
        end = _NAME_RUN.match(text, colon + 1).end()  # type: ignore[union-attr]
        if end > colon + 1 and text[end - 1] == ":" and text.startswith("//", end):
            return text.rfind(":", colon + 1, end - 1) + 1 or colon + 1
        return end if end > colon + 1 else colon + 1

    def _bare(self, start: int, colon: int) -> tuple[Found | None, int]:
        text = self.text
        scheme = text[start:colon].lower()
        after = colon + 1
        if text.startswith(":", after):
            return None, self._past_names(colon)  # "File::Spec", "std::vector": a scope, not "scheme:" and a path
        is_known = scheme in self.schemes
        if not is_known and "." in scheme:
            # "season.http://..." (a missing space after a full stop): the
            # scheme is the registered name after the last dot
            tail = scheme.rsplit(".", 1)[1]
            if tail in self.schemes and text.startswith("//", after):
                start = colon - len(tail)
                scheme, is_known = tail, True
        if not is_known and not text.startswith("//", after):
            return None, self._past_names(colon)
        if scheme == "urn":
            return self._urn(start, after)
        end = body_end(text, after, start=start)
        if text.startswith("//", after):
            return self.body(start, after, end)
        if scheme not in OPAQUE_SYNTAX:
            return None, self._past_names(colon)  # a registered name alone is not enough (see opaque.py)
        found, resume = self.body(start, after, end)
        if found is None or not opaque_uri(scheme, found.reference, colon + 1 - start, len(found.reference)):
            return None, after  # checked after a hyphen join: "mailto:dmarc-" + "feedback@example.com"
        return found, resume

    def body(self, start: int, after: int, end: int) -> tuple[Found | None, int]:
        """The reference from ``start`` whose scheme ends before ``after`` and
        whose run of URI characters ends at ``end``: joined across a line
        break after ``scheme://``, trimmed, joined across a hyphen break."""
        text = self.text
        last = text[end - 1]
        if (last not in _ENDS_SPECIALLY and (not start or text[start - 1] not in _QUOTE_PAIRS)
                and text[after + 2 : after + 3].isalnum() and text.startswith("//", after)
                and text[end : end + 1] not in _CLOSERS):
            # the common case -- "scheme://host...", nothing to trim, no foreign
            # bracket after it, no quotes around it, no line break to join --
            # decided at once
            return new_found(text[start:end], start, end, _BARE, (), (), None, _TEXT), end
        if (last in _TRIMMED_AT_ONCE and text.startswith("//", after) and text[after + 2 : after + 3].isalnum()
                and text[end - 2] not in _ENDS_SPECIALLY and (not start or text[start - 1] not in _QUOTE_PAIRS)
                and text[end : end + 1] not in _CLOSERS):
            # the next commonest: the same, but for one mark of punctuation after it ("see http://x/a, and"),
            # what _finish_bare would make of it (a test holds them equal): left out, the reference "trimmed"
            return new_found(text[start : end - 1], start, end - 1, _BARE, _TRIMMED, (), None, _TEXT), end - 1
        if end - after == 2 and text.startswith("//", after):
            joined = self._scheme_break(start, end)
            if joined is not None:
                assert joined.end is not None  # found in the text
                return joined, joined.end
        return self._finish_bare(start, end, after)

    def _continuation(self, end: int, *, abbreviated: bool) -> tuple[int, int, set[Flag]] | None:
        """The rest of a URI broken at the line break right after ``end``: its
        start and end on the next line (past indent and margin marks), and the
        flags the join earns; None when the next line does not continue it."""
        text = self.text
        m = HYPHEN_BREAK.match(text, end)
        if m is None or "\n" not in m.group():
            return None
        cont_start = m.end()
        if starts_reference(text, cont_start, self.schemes, abbreviated=abbreviated):
            return None  # the next line starts a reference of its own
        cont_end, flags = trim(text, cont_start, body_end(text, cont_start))
        if cont_end == cont_start:
            return None
        flags.add(Flag.WRAPPED)
        if MARGIN_MARKS.search(m.group()):
            flags.add(Flag.QUOTE_MARKERS)
        return cont_start, cont_end, flags

    def _scheme_break(self, start: int, end: int) -> Found | None:
        """``http://`` at the end of a line with the rest of the URI on the
        next: a line break no reader would take for the end of the URI.  (A
        host may well start with "www.", so only a scheme ends the join.)"""
        cont = self._continuation(end, abbreviated=False)
        if cont is None:
            return None
        cont_start, cont_end, flags = cont
        text = self.text
        return Found(text[start:end] + text[cont_start:cont_end], start, cont_end, Style.BARE,
                     ordered(flags))

    def _finish_bare(self, start: int, end: int, after: int) -> tuple[Found | None, int]:
        text = self.text
        # "..." and “...” delimit exactly: no trimming inside the quotes
        closing = _QUOTE_PAIRS.get(text[start - 1]) if start else None
        if closing is not None and text[end : end + 1] == closing:
            return self._emit(start, end, _QUOTE, set(), after), end + 1
        stop = end
        end, flags = trim(text, start, end)
        end = emphasis_end(text, start, end, flags)
        found = self._emit(start, end, _BARE, flags, after)
        if found is not None and text[end - 1 : end] == "-" and end == stop:
            found, end = self._hyphen_join(found, end)
        return found, max(end, after)

    def _emit(self, start: int, end: int, style: Style, flags: set[Flag], after: int) -> Found | None:
        text = self.text
        rest = text[after:end]
        if not (rest[2:3].isalnum() and rest[:2] == "//") and (  # "//" and a host: the common case
                rest in ("", "//") or not (HAS_ALNUM.search(rest) or rest == "*" or rest.startswith("///"))):
            # "http://", "mailto:" -- nothing after the scheme; "things:)-" -- an
            # emoticon, not a path ("news:*", all groups, is RFC 1738's own
            # example).  "file:///" is an empty authority and the root path: a URI.
            return None
        return new_found(text[start:end], start, end, style, ordered(flags) if flags else (), (), None, _TEXT)

    def _hyphen_join(self, found: Found, end: int) -> tuple[Found, int]:
        """A bare URI that ends in "-" at a line break continues on the next line
        (rfc2396bis-01 Appendix E): the primary reading keeps the hyphen, the other
        reading drops it."""
        cont = self._continuation(end, abbreviated=True)
        if cont is None:
            return found, end
        cont_start, cont_end, flags = cont
        tail = self.text[cont_start:cont_end]
        flags |= set(found.flags) | {Flag.HYPHEN_BREAK}
        return (
            Found(found.reference + tail, found.start, cont_end, found.style,
                  ordered(flags), (found.reference[:-1] + tail,)),
            cont_end,
        )

    def _urn(self, start: int, after: int) -> tuple[Found | None, int]:
        text = self.text
        m = URN.match(text, start)
        if m is None:
            return None, after
        end = body_end(text, m.end(), URN_NSS, "(")
        if end == m.end():
            return None, after  # no NSS
        # optional ?+r, ?=q and #f components: they run to the next stop
        # character (the body class admits later components too)
        if URN_COMPONENT.match(text, end):
            end = body_end(text, end, start=start)
        end, flags = trim(text, start, end)
        nss_start = text.index(":", start + 4) + 1
        if end <= nss_start:
            return None, max(end, after)
        return Found(text[start:end], start, end, Style.BARE, ordered(flags)), end


class AbbreviatedRule:
    """Delimits an abbreviated ``www.``/``ftp.`` URI (rfc2396bis-01 Appendix F)."""

    def __init__(self, text: str, enabled: bool = True) -> None:
        self.text = text
        self.abbreviated = enabled

    def __call__(self, start: int) -> tuple[Found | None, int]:
        text = self.text
        if not self.abbreviated:
            return None, start + 4
        if start > 0:
            before = text[start - 1]
            if before in ABBR_NOT_AFTER or before.isalnum():
                return None, start + 4
        after = text[start + 4 : start + 5]
        if not after.isalnum():
            return None, start + 4
        host = ABBR_HOST.match(text, start)
        if host is None:
            return None, start + 4
        end = host.end()
        after_host = text[end : end + 2] or " "
        if after_host and (end - start > _MAX_HOST or after_host[0].isalnum() or after_host[0] in "_-"
                           or (after_host[0] == "." and after_host[1:].isalnum())):
            # a label over 63 characters or a name over 253 (RFC 1035 §2.3.4)
            # is no host name: the run is rejected whole, not cut to a shorter host
            return None, _skip_host(text, end)
        if end < len(text) and text[end] in "/?#":
            end = body_end(text, end, start=start)
        end, flags = trim(text, start, end)
        if end < len(text) and text[end] in TRAILING_PUNCT:
            flags.add(Flag.TRIMMED)  # the host pattern already stopped before it
        reference = text[start:end]
        if "." not in reference[4:].rstrip("."):
            return None, start + 4
        prefix = "ftp://" if reference[:3].lower() == "ftp" else "http://"
        return (
            Found(reference, start, end, Style.ABBREVIATED, ordered(flags),
                  expanded=prefix + reference),
            end,
        )
