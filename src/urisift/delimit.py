"""Delimiting URI references in running text (seed 001 Appendix E; seed 002
Appendices E and F; seed 003 §2.5.3; DESIGN §3).

The scanner walks the text once, left to right.  A single trigger pattern finds
the next place something may start (``<``, ``www.``/``ftp.``, or a ``scheme:``
at a word start); each trigger is then delimited by its own rule:

- ``<...>`` and ``<URL:...>``: everything up to the closing ``>``, with all
  whitespace removed; continuation lines may start with mail quote markers,
  and a hyphen right before a line break is reported both ways.
- a bare ``scheme:...``: registered schemes only (or ``//`` after the colon);
  ends at whitespace or a character that cannot be in a URI; trailing
  punctuation, closing quotes and unbalanced closing brackets are left out.
- ``urn:``: the NSS ends at the first excluded character (seed 003 §2.5.3).
- ``www.`` / ``ftp.``: abbreviated URIs (seed 002 Appendix F).

Linear time: every pattern here is a literal, a lookaround of fixed width, or a
single character class under ``*``/``+`` followed by nothing that could make
the engine give characters back and retry in a different split (no nested
quantifiers, no alternation under a repeat with overlapping branches).  A
group under a repeat is possessive (``++``, ``*+``, Python 3.11) or bounded, so
the engine keeps no backtracking state per repetition.  The
bracket search looks for the next ``<`` or ``>`` only, so the regions examined
for successive ``<`` do not overlap.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .record import Flag, Style

# Characters that end a bare URI: whitespace, the delimiters of Appendix E, the
# characters RFC 3986 never allows ("{}|\^`"), controls, and the typographic
# and CJK punctuation that surrounds URIs in prose.
_STOP = (
    r"\s<>\"{}|\\^`\x00-\x1f\x7f"
    "\u201c\u201d\u2018\u2019\u00ab\u00bb\u2039\u203a"  # “ ” ‘ ’ « » ‹ ›
    "\u3001\u3002\uff0c\uff0e\uff1a\uff1b\uff01\uff1f\u300c\u300d\u300e\u300f"  # 、。，．：；！？「」『』
    "\uff08\uff09\u3010\u3011\u3008\u3009\u300a\u300b"  # （）【】〈〉《》
)
# *( any character that may stand in a URI in running text ) -- one class, so linear
_BODY = re.compile(f"[^{_STOP}]*")


def _body_end(text: str, pos: int) -> int:
    """Where a run of URI characters starting at ``pos`` ends."""
    m = _BODY.match(text, pos)
    assert m is not None  # "*" matches the empty string too
    return m.end()


# The trigger: the earliest place a reference may start.  Every branch begins
# with a literal so that the engine skips ahead with its fast literal/charset
# search instead of trying three branches at every position (measured: 0.09 s
# against 1.2 s on 24 MB of RFC text):
#   "<"            an angle-bracket delimiter
#   ":" + a character that may follow in a URI: the end of a candidate scheme,
#                  whose start is found by looking back (see Scanner._scheme_start)
#   "www." / "ftp." in the usual spellings: an abbreviated URI (Appendix F)
_TRIGGER = re.compile(r"<|:(?=[^" + _STOP + r"])|www\.|WWW\.|Www\.|ftp\.|FTP\.|Ftp\.")
# scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
_SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.")
# characters that may not stand right before an abbreviated "www." (it would
# be part of a host name, an e-mail address, a path or a scheme)
_ABBR_NOT_AFTER = frozenset(".@/:%+-_")

# an XML tag's prefixed name right after "<" or "</", ended by white space, "/" or ">"
_XML_TAG_NAME = re.compile(r"/?[A-Za-z_][\w.-]*+:[A-Za-z_][\w.-]*+(?=[\s/>])")
# how far after an element's start tag its closing tag is looked for
_XML_WINDOW = 16384
# an XML qualified name, "prefix:local", optionally self-closing ("/")
_QNAME = re.compile(r"[A-Za-z_][\w.-]*+:[A-Za-z_][\w.-]*+/?")
# <URL: prefix, any case, with or without white space after it
_URL_PREFIX = re.compile(r"[Uu][Rr][Ll]:\s*")
# the next bracket of either kind
_BRACKET = re.compile(r"[<>]")
# a mail quote prefix at a line start: "> ", ">> ", "> > ", indented or not
_QUOTE_PREFIX = re.compile(r"[ \t]*+(?:>[ \t]?)++")
# white space (any, including line breaks)
_WS = re.compile(r"\s+")
_HAS_WS = re.compile(r"\s")
_HAS_ALNUM = re.compile(r"[^\W_]")
# a reference that starts at a given place: "scheme:" or "www."/"ftp."
_LEADING_REFERENCE = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*):|(?:[Ww]{3}|[Ff][Tt][Pp])\.")
# a scheme at the start of a delimited string
_LEADING_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")
# the line break after a hyphen (or after "scheme://"), with the next line's
# indent and margin marks: mail quote markers (">") and the change bars ("|")
# of revised documents
_HYPHEN_BREAK = re.compile(r"[ \t]*+\r?\n(?:[ \t]*+[>|])*+[ \t]*+")
_MARGIN_MARKS = re.compile(r"[>|]")
# abbreviated host: "www." label ( "." label )+, then an optional port.  The
# repetitions are bounded (a DNS name has at most 127 labels of 63 characters)
# and possessive, so a megabyte of "www.www.www." costs one bounded pass and
# no backtracking state.
_ABBR_HOST = re.compile(r"[\w-]{1,63}+(?:\.[\w-]{1,63}+){1,126}+(?::[0-9]++)?+")
# URN: "urn:" NID ":" NSS, NSS ending at an excluded character (seed 003 §2.5.3)
#   NID = alphanum 0*31( alphanum / "-" ) ; NSS chars = URN chars or "%" HEXDIG HEXDIG
_URN = re.compile(
    r"[Uu][Rr][Nn]:[A-Za-z0-9][A-Za-z0-9-]{0,31}:"
    r"(?:[A-Za-z0-9()+,\-.:=@;$_!*'&~]|%[0-9A-Fa-f]{2})++"  # possessive: no state kept per character
)
# after an NSS: the r-, q- and f-components ("?+", "?=", "#") of seed 003 / RFC 8141
_URN_COMPONENT = re.compile(r"[?#]")

_TRAILING_PUNCT = frozenset(".,;:!?'\"\u2019\u201d\u00bb\u203a")
_CLOSERS = {")": "(", "]": "[", "}": "{"}
_EMAIL_LIKE = re.compile(r"[^\s@<>:/]+@[^\s@<>:/]+")


@lru_cache(maxsize=1)
def registered_schemes() -> frozenset[str]:
    """IANA permanent and provisional URI schemes (lower case), from package data."""
    text = resources.files("urisift").joinpath("data/iana-uri-schemes.txt").read_text("utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


@dataclass(frozen=True, slots=True)
class Found:
    """One reference delimited in the text.

    ``start``/``end`` are code-point offsets of the reference as it stands in
    the text, delimiters excluded (for a wrapped reference the span covers
    the line breaks and indentation that were removed).  ``reference`` is the
    reference itself: delimiters and white space removed.  ``expanded`` is the
    absolute URI an abbreviated reference stands for.
    """

    reference: str
    start: int
    end: int
    style: Style
    flags: tuple[Flag, ...] = ()
    alternatives: tuple[str, ...] = ()
    expanded: str | None = None


def _trim(text: str, start: int, end: int) -> tuple[int, set[Flag]]:
    """Leave out trailing punctuation and unbalanced closing brackets (DESIGN §3).

    Returns the new end and the flags that apply.  Linear: the bracket counts
    are taken once and updated as characters are dropped.
    """
    flags: set[Flag] = set()
    counts: dict[str, int] | None = None
    while end > start:
        c = text[end - 1]
        if c in _TRAILING_PUNCT:
            end -= 1
            flags.add(Flag.TRIMMED)
            continue
        opener = _CLOSERS.get(c)
        if opener is not None:
            if counts is None:
                seg = text[start:end]
                counts = {k: seg.count(k) for k in "()[]{}"}
            if counts[c] > counts[opener]:
                counts[c] -= 1
                end -= 1
                flags.add(Flag.UNBALANCED)
                continue
        break
    return end, flags


class Scanner:
    """Find URI references in one string.  Use :func:`find_references`."""

    def __init__(self, text: str, *, abbreviated: bool = True) -> None:
        self.text = text
        self.abbreviated = abbreviated
        self.schemes = registered_schemes()
        self._ls = 0  # start of the line of the last "<" seen, and how far that search went
        self._ls_upto = 0
        self._q_line = -1  # the line whose quote prefix was read last, and where it ends
        self._q_end = -1
        self._xml_search_from = 0  # where a closing XML tag would start
        self._closing: dict[str, tuple[int, int]] = {}  # XML name -> (closing tag at, searched to)

    # -- the walk ----------------------------------------------------------------
    def __iter__(self) -> Iterator[Found]:
        text = self.text
        n = len(text)
        pos = 0
        search = _TRIGGER.search
        while pos < n:
            m = search(text, pos)
            if m is None:
                return
            at = m.start()
            c = text[at]
            if c == "<":
                found, resume = self._angle(at)
            elif c == ":":
                start = self._scheme_start(at, pos)
                if start is None:
                    found, resume = None, at + 1
                else:
                    found, resume = self._bare(start, at)
            else:
                found, resume = self._abbreviated(at)
            if found is not None:
                yield found
            pos = resume

    def _scheme_start(self, colon: int, floor: int) -> int | None:
        """Where the scheme ending at ``colon`` starts: the run of scheme
        characters before the colon must begin with a letter and stand at a
        word start (not after another scheme character)."""
        text = self.text
        i = colon
        chars = _SCHEME_CHARS
        while i > floor and text[i - 1] in chars:
            i -= 1
        if i == colon or not text[i].isascii() or not text[i].isalpha():
            return None
        return i

    # -- <...> and <URL:...> ------------------------------------------------------
    def _angle(self, lt: int) -> tuple[Found | None, int]:
        text = self.text
        content_start = lt + 1
        style = Style.ANGLE
        m = _URL_PREFIX.match(text, content_start)
        if m is not None:
            style = Style.ANGLE_URL
            content_start = m.end()
        line_start = self._line_start(lt)
        quoted = self._quoted_line(line_start, lt)
        # find the closing ">" (a "<" first means this one is not a delimiter)
        scan = content_start
        scan_line = line_start
        while True:
            b = _BRACKET.search(text, scan)
            if b is None or b.group() == "<":
                return None, lt + 1
            gt = b.start()
            if quoted:
                k = text.rfind("\n", scan, gt)  # bounded: only what this search passed over
                if k != -1:
                    scan_line = k + 1
                markers_end = self._quote_markers_end(scan_line, gt)
                if markers_end is not None:
                    scan = markers_end  # skip the whole prefix at once: linear
                    continue
            break
        self._xml_search_from = gt
        found = self._delimited(content_start, gt, style, quoted)
        if found is None:
            return None, self._after_tag_name(lt)
        return found, gt + 1

    def _after_tag_name(self, lt: int) -> int:
        """Where to go on after a "<" that delimits nothing.  An XML tag whose
        prefixed name happens to start with a scheme ("<xcon:target uri=...>",
        "</xcon:target>") is markup, not a URI: skip the name."""
        m = _XML_TAG_NAME.match(self.text, lt + 1)
        return m.end() if m is not None else lt + 1

    def _line_start(self, pos: int) -> int:
        """Start of the line holding ``pos``.  The "<" the walk meets come in
        increasing order, so each call searches only the text the previous
        one did not: linear over the whole walk."""
        if pos < self._ls_upto:
            return self.text.rfind("\n", 0, pos) + 1  # pragma: no cover - the walk never goes back
        k = self.text.rfind("\n", self._ls_upto, pos)
        if k != -1:
            self._ls = k + 1
        self._ls_upto = pos
        return self._ls

    def _quoted_line(self, line_start: int, pos: int) -> bool:
        """Whether the line starting at ``line_start`` opens with mail quote
        markers before ``pos``; remembered per line, so a line of a million
        ">" is read once."""
        if line_start != self._q_line:
            m = _QUOTE_PREFIX.match(self.text, line_start)
            self._q_line = line_start
            self._q_end = m.end() if m is not None and ">" in m.group() else -1
        return 0 <= self._q_end <= pos

    def _quote_markers_end(self, line_start: int, gt: int) -> int | None:
        """When the ">" at ``gt`` belongs to the quote markers that open a
        continuation line (only markers and blanks before it, more text after
        the markers), where the markers end; else None."""
        if line_start == 0:
            return None
        m = _QUOTE_PREFIX.match(self.text, line_start)
        if m is None or gt >= m.end():
            return None
        end = m.end()
        if end >= len(self.text) or self.text[end] in "\r\n":
            return None  # nothing after the markers: the ">" closes the bracket
        return end

    def _delimited(self, cs: int, ce: int, style: Style, quoted: bool) -> Found | None:
        text = self.text
        raw = text[cs:ce]
        # leading/trailing blanks inside the brackets are not part of the URI
        lead = len(raw) - len(raw.lstrip())
        raw = raw.strip()
        if not raw:
            return None
        start = cs + lead
        end = start + len(raw)
        flags: list[Flag] = []
        alternatives: tuple[str, ...] = ()
        if _HAS_WS.search(raw):
            pieces: list[str] = []
            for i, line in enumerate(raw.split("\n")):
                line = line.strip()
                if i and quoted:
                    stripped = line.lstrip("> \t")
                    if stripped != line:
                        flags.append(Flag.QUOTE_MARKERS)
                        line = stripped
                pieces.append(_WS.sub("", line))
            if "" in pieces[1:-1]:
                return None  # a blank line is a paragraph break: not one URI
            reference = "".join(pieces)
            flags.append(Flag.WRAPPED)
            breaks = {i for i, p in enumerate(pieces[:-1]) if p.endswith("-")}
            if breaks:
                flags.append(Flag.HYPHEN_BREAK)
                alternatives = ("".join(p[:-1] if i in breaks else p for i, p in enumerate(pieces)),)
        else:
            reference = raw
        if not self._acceptable(raw, reference, style):
            return None
        return Found(reference, start, end, style, tuple(sorted(set(flags), key=_flag_order)), alternatives)

    def _acceptable(self, raw: str, reference: str, style: Style) -> bool:
        """<...> holds an absolute URI; <URL:...> may hold a relative reference.

        The scheme must stand before any white space ("<see http://x>" is
        prose in brackets, not "seehttp://x"), and a relative reference may
        be broken only at line ends.
        """
        if '"' in reference or "<" in reference:
            return False
        m = _LEADING_SCHEME.match(raw)
        if m is None:
            if style is not Style.ANGLE_URL or _EMAIL_LIKE.fullmatch(reference):
                return False
            return not any(_HAS_WS.search(line.strip()) for line in raw.splitlines())
        scheme = m.group()[:-1].lower()
        rest = reference[m.end():]
        if rest in ("", "//"):
            return False  # a scheme with nothing after it is not a URI
        if style is Style.ANGLE_URL:
            return True
        if not (scheme in self.schemes or rest.startswith("//")):
            return False
        return not self._is_xml_element(raw)

    def _is_xml_element(self, raw: str) -> bool:
        """``<xcon:conference-password>`` is a URI by the letter of the rules,
        but it is an XML element when it is self-closing (``<x:y/>``) or its
        closing tag follows within 16 KiB.

        Each name remembers where its closing tag was found (or how far the
        search went without finding one), so a text of nothing but such tags
        is still searched about once: linear."""
        if not _QNAME.fullmatch(raw):
            return False
        if raw.endswith("/"):
            return True
        start = self._xml_search_from
        limit = start + _XML_WINDOW
        found, searched_to = self._closing.get(raw, (-1, -1))
        if found >= start:
            return found < limit  # the closing tag found before is still ahead
        if found == -1:
            # no closing tag up to searched_to: search only what lies beyond
            if searched_to >= limit:
                return False
            begin = max(start, searched_to - len(raw) - 3)
        else:
            begin = start  # the closing tag found before belongs to an earlier element
        found = self.text.find("</" + raw + ">", begin, limit)
        self._closing[raw] = (found, limit)
        return found != -1

    # -- bare scheme:... ----------------------------------------------------------
    def _bare(self, start: int, colon: int) -> tuple[Found | None, int]:
        text = self.text
        scheme = text[start:colon].lower()
        after = colon + 1
        if text.startswith(":", after):
            return None, after  # "File::Spec", "std::vector": a scope, not "scheme:" and a path
        is_known = scheme in self.schemes
        if not is_known and "." in scheme:
            # "season.http://..." (a missing space after a full stop): the
            # scheme is the registered name after the last dot
            tail = scheme.rsplit(".", 1)[1]
            if tail in self.schemes and text.startswith("//", after):
                start = colon - len(tail)
                scheme, is_known = tail, True
        if not is_known and not text.startswith("//", after):
            return None, after
        if scheme == "urn":
            return self._urn(start, after)
        end = _body_end(text, after)
        if end - after == 2 and text.startswith("//", after):
            joined = self._scheme_break(start, end)
            if joined is not None:
                return joined, joined.end
        return self._finish_bare(start, end, after)

    def _continuation(self, end: int, *, abbreviated: bool) -> tuple[int, int, set[Flag]] | None:
        """The rest of a URI broken at the line break right after ``end``: its
        start and end on the next line (past indent and margin marks), and the
        flags the join earns; None when the next line does not continue it."""
        text = self.text
        m = _HYPHEN_BREAK.match(text, end)
        if m is None or "\n" not in m.group():
            return None
        cont_start = m.end()
        if self._starts_reference(cont_start, abbreviated=abbreviated):
            return None  # the next line starts a reference of its own
        cont_end, flags = _trim(text, cont_start, _body_end(text, cont_start))
        if cont_end == cont_start:
            return None
        flags.add(Flag.WRAPPED)
        if _MARGIN_MARKS.search(m.group()):
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
                     tuple(sorted(flags, key=_flag_order)))

    def _finish_bare(self, start: int, end: int, after: int) -> tuple[Found | None, int]:
        text = self.text
        # "..." delimits exactly: no trimming inside the quotes
        if start > 0 and end < len(text) and text[start - 1] == '"' and text[end] == '"':
            return self._emit(start, end, Style.QUOTE, set(), after), end + 1
        if start > 0 and end < len(text) and text[start - 1] == "\u201c" and text[end] == "\u201d":
            return self._emit(start, end, Style.QUOTE, set(), after), end + 1
        stop = end
        end, flags = _trim(text, start, end)
        found = self._emit(start, end, Style.BARE, flags, after)
        if found is not None and text[end - 1 : end] == "-" and end == stop:
            found, end = self._hyphen_join(found, end)
        return found, max(end, after)

    def _emit(self, start: int, end: int, style: Style, flags: set[Flag], after: int) -> Found | None:
        text = self.text
        rest = text[after:end]
        if rest.strip("/") == "" or not (_HAS_ALNUM.search(rest) or rest == "*"):
            # "http://", "mailto:" -- nothing after the scheme; "things:)-" -- an
            # emoticon, not a path ("news:*", all groups, is RFC 1738's own example)
            return None
        return Found(text[start:end], start, end, style, tuple(sorted(flags, key=_flag_order)))

    def _hyphen_join(self, found: Found, end: int) -> tuple[Found, int]:
        """A bare URI that ends in "-" at a line break continues on the next line
        (seed 002 Appendix E): the primary reading keeps the hyphen, the other
        reading drops it."""
        cont = self._continuation(end, abbreviated=True)
        if cont is None:
            return found, end
        cont_start, cont_end, flags = cont
        tail = self.text[cont_start:cont_end]
        flags |= set(found.flags) | {Flag.HYPHEN_BREAK}
        return (
            Found(found.reference + tail, found.start, cont_end, found.style,
                  tuple(sorted(flags, key=_flag_order)), (found.reference[:-1] + tail,)),
            cont_end,
        )

    def _starts_reference(self, at: int, *, abbreviated: bool = True) -> bool:
        m = _LEADING_REFERENCE.match(self.text, at)
        if m is None:
            return False
        scheme = m.group("scheme")
        if scheme is None:
            return abbreviated  # www. / ftp.
        return scheme.lower() in self.schemes or self.text.startswith("//", m.end())

    # -- urn: ----------------------------------------------------------------------
    def _urn(self, start: int, after: int) -> tuple[Found | None, int]:
        text = self.text
        m = _URN.match(text, start)
        if m is None:
            return None, after
        end = m.end()
        # optional ?+r, ?=q and #f components: they run to the next stop
        # character (the body class admits later components too)
        if _URN_COMPONENT.match(text, end):
            end = _body_end(text, end)
        end, flags = _trim(text, start, end)
        nss_start = text.index(":", start + 4) + 1
        if end <= nss_start:
            return None, max(end, after)
        return Found(text[start:end], start, end, Style.BARE, tuple(sorted(flags, key=_flag_order))), end

    # -- www. / ftp. ---------------------------------------------------------------
    def _abbreviated(self, start: int) -> tuple[Found | None, int]:
        text = self.text
        if not self.abbreviated:
            return None, start + 4
        if start > 0:
            before = text[start - 1]
            if before in _ABBR_NOT_AFTER or before.isalnum():
                return None, start + 4
        after = text[start + 4 : start + 5]
        if not after.isalnum():
            return None, start + 4
        host = _ABBR_HOST.match(text, start)
        if host is None:
            return None, start + 4
        end = host.end()
        if end < len(text) and text[end] in "/?#":
            end = _body_end(text, end)
        end, flags = _trim(text, start, end)
        if end < len(text) and text[end] in _TRAILING_PUNCT:
            flags.add(Flag.TRIMMED)  # the host pattern already stopped before it
        reference = text[start:end]
        if "." not in reference[4:].rstrip("."):
            return None, start + 4
        prefix = "ftp://" if reference[:3].lower() == "ftp" else "http://"
        return (
            Found(reference, start, end, Style.ABBREVIATED, tuple(sorted(flags, key=_flag_order)),
                  expanded=prefix + reference),
            end,
        )


_ORDER = {f: i for i, f in enumerate(Flag)}


def _flag_order(flag: Flag) -> int:
    return _ORDER[flag]


def find_references(text: str, *, abbreviated: bool = True) -> list[Found]:
    """Every URI reference in ``text``, in order (DESIGN §3)."""
    return list(Scanner(text, abbreviated=abbreviated))
