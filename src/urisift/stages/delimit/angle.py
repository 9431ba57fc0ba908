"""The ``<...>`` and ``<URL:...>`` rule (url-syntax-05 Appendix E; rfc2396bis-01 Appendix E;
ARCHITECTURE.md, Delimiting running text).

Everything up to the closing ``>`` is the reference, with all white space
removed; continuation lines may start with mail quote markers, and a hyphen
right before a line break is reported both ways.  ``<...>`` must hold an
absolute URI whose scheme stands before any white space; ``<URL:...>`` may
hold a relative reference.  An XML element whose prefixed name happens to
start with a scheme (``<xcon:floor/>``) is markup.

Linear: the trigger's look-ahead stops at the next bracket, so the regions
examined for successive ``<`` do not overlap; line starts and quote prefixes
are remembered, so no line is read twice; a content rejected for its syntax
is remembered too, so repeated markup (``<xcon:b>``) is decided once.
"""

from __future__ import annotations

from ...model import Flag, Found, Style
from ...uri import patterns
from ...uri.grammar import SCHEME
from .chars import HAS_WS, LEADING_SCHEME, WS, ordered
from .opaque import opaque_uri

# <URL: prefix, any case, with or without white space after it
URL_PREFIX = patterns.compile(r"[Uu][Rr][Ll]:\s*")
# a mail quote prefix at a line start: "> ", ">> ", "> > ", indented or not
QUOTE_PREFIX = patterns.compile(r"[ \t]*+(?>(?:>[ \t]?)+)")
# an XML tag's prefixed name right after "<" or "</", ended by white space, "/" or ">"
XML_TAG_NAME = patterns.compile(r"/?[A-Za-z_][\w.-]*+:[A-Za-z_][\w.-]*+(?=[\s/>])")
# how far after an element's start tag its closing tag is looked for
XML_WINDOW = 16384
# an XML qualified name, "prefix:local", optionally self-closing ("/")
QNAME = patterns.compile(r"[A-Za-z_][\w.-]*+:[A-Za-z_][\w.-]*+/?")
# an interior line holding only white space; a hyphen (and blanks) at a line end
BLANK_LINE = patterns.compile(r"\n[^\S\n]*+\n")
HYPHEN_AT_BREAK = patterns.compile(r"-[^\S\n]*+\n")
# continuation lines' quote markers (when text follows them on their line) and
# everything but brackets: the content of a "<" on a quoted line
QUOTED_CONTENT = patterns.compile(r"(?>(?:[^<>\n]++|\n(?>(?:[ \t]*+(?>(?:>[ \t]?)+)(?![\r\n]|\Z))?))*)")
# what a "<" that holds a URI starts with: "URL:" or "scheme:" (and "//" or not)
_OPENING = patterns.compile(rf"\s*+(?:(?P<url>[Uu][Rr][Ll]:)|(?P<scheme>{SCHEME}+):(?>(?P<slashes>//)?))")
# how long a rejected bracket content may be to be remembered, and how many are
_CACHED_LENGTH, _CACHED_TAGS = 256, 4096
# a path, a query or an address in what follows a scheme's colon
STRUCTURED = patterns.compile(r"[/?@=]")
EMAIL_LIKE = patterns.compile(r"[^\s@<>:/]+@[^\s@<>:/]+")


class AngleRule:
    """Delimits the reference that a ``<`` opens, if any, in one text."""

    def __init__(self, text: str, schemes: frozenset[str]) -> None:
        self.text = text
        self.schemes = schemes
        self._ls = 0  # start of the line of the last "<" seen, and how far that search went
        self._ls_upto = 0
        self._q_line = -1  # the line whose quote prefix was read last, and where it ends
        self._q_end = -1
        self._xml_search_from = 0  # where a closing XML tag would start
        self._closing: dict[str, tuple[int, int]] = {}  # XML name -> (closing tag at, searched to)
        # bracket contents rejected for their syntax alone, and how far to skip
        self._rejected: dict[str, int] = {}
        self._cacheable = False  # whether the last rejection was for syntax alone

    def __call__(self, lt: int) -> tuple[Found | None, int]:
        text = self.text
        # The trigger saw a ">" before any other "<": the content up to it, on
        # one line, is often a tag seen before ("<xcon:b>", "<p>") that was
        # rejected for what it is, wherever it stands: decided at once.
        first_gt = text.find(">", lt)
        if 0 <= first_gt - lt <= _CACHED_LENGTH:
            skip = self._rejected.get(text[lt + 1 : first_gt])
            if skip is not None:
                return None, lt + skip
        if not self._may_hold_a_uri(lt + 1):
            resume = self._after_tag_name(lt)
            if 0 <= first_gt - lt <= _CACHED_LENGTH:
                # (a verdict on the bracket's content alone: the scheme and the tag name both end before
                # its ">"; a page of "<kbd>" and "</kbd>" is then a look-up a tag)
                if len(self._rejected) >= _CACHED_TAGS:
                    self._rejected.clear()
                self._rejected[text[lt + 1 : first_gt]] = resume - lt
            return None, resume
        content_start = lt + 1
        style = Style.ANGLE
        m = URL_PREFIX.match(text, content_start)
        if m is not None:
            style = Style.ANGLE_URL
            content_start = m.end()
        line_start = self._line_start(lt)
        quoted = self._quoted_line(line_start, lt)
        # On a quoted line, continuation lines may open with quote markers: one
        # match skips them all up to the closing bracket (linear: possessive
        # throughout).  Elsewhere the trigger's look-ahead saw no "<" before it.
        gt = QUOTED_CONTENT.match(text, content_start).end() if quoted else first_gt  # type: ignore[union-attr]
        if text[gt : gt + 1] != ">":
            return None, lt + 1
        self._xml_search_from = gt
        self._cacheable = False  # _delimited says when its verdict is for the syntax alone
        found = self._delimited(content_start, gt, style, quoted)
        if found is None:
            resume = self._after_tag_name(lt)
            if self._cacheable and gt == first_gt and gt - lt <= _CACHED_LENGTH:
                if len(self._rejected) >= _CACHED_TAGS:
                    self._rejected.clear()  # bounded memory, whatever the markup
                self._rejected[text[lt + 1 : gt]] = resume - lt
            return None, resume
        return found, gt + 1

    def _may_hold_a_uri(self, at: int) -> bool:
        """A first look at what follows a "<": "URL:", or a scheme that is
        registered or has "//" after it (the scheme stands before any white
        space, so before any line break and any quote marker).  Most tags
        fail it ("<p>", "<t0:x0>"), at the cost of one match."""
        m = _OPENING.match(self.text, at)
        if m is None:
            return False
        if m.group("url") is not None:
            return True
        return m.group("slashes") is not None or m.group("scheme").lower() in self.schemes

    def _after_tag_name(self, lt: int) -> int:
        """Where to go on after a "<" that delimits nothing.  An XML tag whose
        prefixed name happens to start with a scheme ("<xcon:target uri=...>",
        "</xcon:target>") is markup, not a URI: skip the name."""
        m = XML_TAG_NAME.match(self.text, lt + 1)
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
            m = QUOTE_PREFIX.match(self.text, line_start)
            self._q_line = line_start
            self._q_end = m.end() if m is not None and ">" in m.group() else -1
        return 0 <= self._q_end <= pos

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
        if not HAS_WS.search(raw):
            reference = raw
        elif not quoted:
            # one substitution for the whole content, however many lines it spans
            if BLANK_LINE.search(raw):
                return None  # a blank line is a paragraph break: not one URI
            reference = WS.sub("", raw)
            flags.append(Flag.WRAPPED)
            if HYPHEN_AT_BREAK.search(raw):
                flags.append(Flag.HYPHEN_BREAK)
                alternatives = (WS.sub("", HYPHEN_AT_BREAK.sub("\n", raw)),)
        else:
            pieces: list[str] = []
            for i, line in enumerate(raw.split("\n")):
                line = line.strip()
                if i:
                    stripped = line.lstrip("> \t")
                    if stripped != line:
                        flags.append(Flag.QUOTE_MARKERS)
                        line = stripped
                pieces.append(WS.sub("", line))
            if "" in pieces[1:-1]:
                return None  # a blank line is a paragraph break: not one URI
            reference = "".join(pieces)
            flags.append(Flag.WRAPPED)
            breaks = {i for i, p in enumerate(pieces[:-1]) if p.endswith("-")}
            if breaks:
                flags.append(Flag.HYPHEN_BREAK)
                alternatives = ("".join(p[:-1] if i in breaks else p for i, p in enumerate(pieces)),)
        self._cacheable = "\n" not in raw
        if not self._acceptable(raw, reference, style):
            return None
        return Found(reference, start, end, style, ordered(set(flags)), alternatives)

    def _acceptable(self, raw: str, reference: str, style: Style) -> bool:
        """<...> holds an absolute URI; <URL:...> may hold a relative reference.

        The scheme must stand before any white space ("<see http://x>" is
        prose in brackets, not "seehttp://x"), and a relative reference may
        be broken only at line ends.
        """
        if '"' in reference or "<" in reference:
            return False
        m = LEADING_SCHEME.match(raw)
        if m is None:
            if style is not Style.ANGLE_URL or EMAIL_LIKE.fullmatch(reference):
                return False
            return not any(HAS_WS.search(line.strip()) for line in raw.splitlines())
        scheme = m.group()[:-1].lower()
        rest = reference[m.end():]
        if rest in ("", "//"):
            return False  # a scheme with nothing after it is not a URI
        if style is Style.ANGLE_URL:
            return True
        # Brackets are evidence, but not for "<xcon:b>" or "<DAV:href>": a
        # registered scheme without "//" and without its own syntax (opaque.py)
        # needs a path, query or address ("<http:/x/y>", a slash missing, is
        # still meant as a URI).
        if (not rest.startswith("//") and scheme != "urn"
                and not opaque_uri(scheme, reference, m.end(), len(reference))
                and (scheme not in self.schemes or not STRUCTURED.search(rest))):
            return False
        if self._is_xml_element(raw):
            self._cacheable = False  # depends on where it stands: not remembered
            return False
        return True

    def _is_xml_element(self, raw: str) -> bool:
        """``<xcon:conference-password>`` is a URI by the letter of the rules,
        but it is an XML element when it is self-closing (``<x:y/>``) or its
        closing tag follows within 16 KiB.

        Each name remembers where its closing tag was found (or how far the
        search went without finding one), so a text of nothing but such tags
        is still searched about once: linear."""
        if not QNAME.fullmatch(raw):
            return False
        if raw.endswith("/"):
            return True
        start = self._xml_search_from
        limit = start + XML_WINDOW
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
