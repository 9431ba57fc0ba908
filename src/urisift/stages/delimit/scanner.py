"""The scanner of running text (see the package doc for its rules), and
what depends on them: the cheap screens for a text that may hold a
reference, and where a long text may be cut.  Compiled by mypyc where the
build can (setup.py); the public door, :func:`~urisift.stages.delimit.find_references`,
stays in the package's ``__init__``, which checks its arguments first."""

from __future__ import annotations

from collections.abc import Iterator

from ...model import Flag, Found
from ...uri import patterns
from ...uri.schemes import registered_schemes
from .angle import AngleRule
from .bare import FAST_AFTER_ANY_BUT, AbbreviatedRule, SchemeRule
from .chars import BODY, SCHEME_CHARS, STOP, body_end, ordered
from .refang import DEFANGED_SCHEME, Mapping, bare, refang, written

__all__ = ["Found", "Scanner", "may_hold_absolute", "may_hold_reference", "registered_schemes", "safe_cut",
           "safe_line_start"]

_ANGLE, _WEB, _SCHEME, _ABBREVIATED = "angle", "web", "scheme", "abbreviated"

#: The trigger table: (the literal a rule starts with, the rule).  Each row
#: becomes one branch of the trigger, its literal and then an empty group;
#: the group that matched names the row.  A branch that does not start with
#: a plain literal, or one group around several literals, makes the engine
#: try every branch at every position (measured: 0.51 s against 0.15 s for
#: the trigger alone on 24 MB of RFC text).
_TABLE: tuple[tuple[str, str], ...] = (
    # a "<" that some ">" closes before the next "<": any other delimits nothing,
    # and the engine passes over it without a call (linear: the look-ahead
    # stops at the next bracket, so successive ones never overlap); and only one
    # that AngleRule would not turn down at first look: "URL:" or a scheme and
    # its ":" (what its _OPENING starts with), or an XML tag's prefixed name
    # (what it skips, XML_TAG_NAME): "<p>", "</kbd>", '<a href="...">' go by
    # without a call (a page of inline tags was a call a tag)
    (r"<(?=(?:\s*+[A-Za-z][A-Za-z0-9+.\-]*+|/?[A-Za-z_][\w.\-]*+):[^<>]*+>)", _ANGLE),
    # the commonest reference of all, matched with its body (one possessive class: linear)
    ("http://" + BODY, _WEB),
    ("https://" + BODY, _WEB),
    ("ftp://" + BODY, _WEB),
    # the end of a candidate scheme; SchemeRule looks back for its start
    (":(?=[^" + STOP + "])", _SCHEME),
    *((prefix + r"\.", _ABBREVIATED) for prefix in ("www", "WWW", "Www", "ftp", "FTP", "Ftp")),
)
_TRIGGER = patterns.compile("|".join(f"{literal}()" for literal, _ in _TABLE))
_BRACKETS = ("(", "[", ")", "]")
# every rule needs a ":" (the angle rule's content is absolute, or <URL:...>) or www./ftp.
_ABBREVIATION = patterns.compile("|".join(literal for literal, rule in _TABLE if rule is _ABBREVIATED))
_RULE_OF = {group: rule for group, (_, rule) in enumerate(_TABLE, start=1)}  # m.lastindex -> rule
# the triggers of every rule but the abbreviated one
_ABSOLUTE_TRIGGER = patterns.compile("|".join(literal for literal, rule in _TABLE if rule is not _ABBREVIATED))


class Scanner:
    """Find URI references in one string.  Use :func:`find_references`."""

    def __init__(self, text: str, *, abbreviated: bool = True, refang: bool = False) -> None:
        self.text = text
        self.refang = refang
        self.abbreviating = abbreviated

    def __iter__(self) -> Iterator[Found]:
        if self.refang:
            return self._refanged()
        return self._scan()

    def _refanged(self) -> Iterator[Found]:
        """``--refang``: the references of the text rewritten by the rule
        table (:mod:`.refang`), each at its place in the text as written,
        and the bare hosts and addresses that were defanged, in order."""
        text = self.text
        fanged, edits = refang(text)
        if not edits:
            yield from self._scan()
            return
        mapping = Mapping(edits)
        finds = Scanner(fanged, abbreviated=self.abbreviating)._scan()
        bares = bare(fanged, edits) if self.abbreviating else iter(())
        found, other = next(finds, None), next(bares, None)
        upto = 0  # where the last reference yielded ends (in the rewritten text): a bare one inside it is none
        while found is not None or other is not None:
            if other is None or (found is not None and found.start <= other.start):  # type: ignore[operator]
                this, found = found, next(finds, None)
            else:
                this, other = other, next(bares, None)
                if this.start < upto:  # type: ignore[operator]
                    continue
            assert this is not None and this.end is not None
            upto = max(upto, this.end)
            yield written(text, this, mapping)

    def _scan(self) -> Iterator[Found]:
        text = self.text
        n = len(text)
        pos = 0
        search = _TRIGGER.search
        rule_of = _RULE_OF
        # each rule made when its trigger is first met (most texts scanned are short, and meet one rule or none)
        scheme = SchemeRule(text, registered_schemes())
        angle: AngleRule | None = None
        abbreviated: AbbreviatedRule | None = None
        while pos < n:
            m = search(text, pos)
            if m is None:
                return
            rule = rule_of[m.lastindex]  # type: ignore[index]
            start = m.start()
            if rule is _WEB:
                colon = text.find(":", start)
                if start and text[start - 1] in FAST_AFTER_ANY_BUT:
                    found, resume = scheme(colon, pos)  # "xhttp:", "season.http:", "/http:", "\x22https:"
                else:
                    end = m.end()
                    if text[end : end + 1] in _BRACKETS:
                        end = body_end(text, end, start=start)  # brackets are paired one by one
                    found, resume = scheme.body(start, colon + 1, end)
            elif rule is _SCHEME:
                if start == pos or text[start - 1] not in SCHEME_CHARS:
                    # no scheme before the ":" (an AsciiDoc attribute's ":name:", a "::"): what the rule
                    # would say, without a call (most of the triggers in some markup)
                    pos = scheme._past_names(start)
                    continue
                found, resume = scheme(start, pos)
                if found is not None and found.reference[0] in "hHfF" and DEFANGED_SCHEME.match(found.reference):
                    # hxxp:, fxp: ... (IANA lists hxxp as provisional): a URI as written, flagged
                    found = found._replace(flags=ordered({*found.flags, Flag.DEFANGED}))
            elif rule is _ANGLE:
                if angle is None:
                    angle = AngleRule(text, scheme.schemes)
                found, resume = angle(start)
            else:
                if abbreviated is None:
                    abbreviated = AbbreviatedRule(text, self.abbreviating)
                found, resume = abbreviated(start)
            if found is not None:
                yield found
            pos = resume


def may_hold_reference(text: str) -> bool:
    """Whether the scanner could find anything in ``text``: a cheap screen
    for the many short texts of an HTML page."""
    return ":" in text or ("." in text and _ABBREVIATION.search(text) is not None)


def may_hold_absolute(text: str) -> bool:
    """Whether the scanner without ``www.``/``ftp.`` abbreviations could find
    anything in ``text``: a trigger of another rule stands in it (a mail
    heading's "Re:" is none)."""
    return _ABSOLUTE_TRIGGER.search(text) is not None


def safe_cut(chunk: str, *, patient: bool = False) -> int:
    """Where ``chunk`` can be split so that no reference spans the split.

    A blank line is safe: no rule joins across one.  Failing that, the start
    of a line, moved back before an unclosed "<" (the angle rule reads to its
    ">") or a line that ends in "-" or "//" (the bare rule may continue on
    the next line); failing that, the last white space; failing that the
    whole chunk (a single run of more than a chunk without white space).
    ``patient``: rather than cut at white space inside the open bracket or
    the continued line, cut nowhere (0) and wait for more, up to a megabyte.
    """
    cut = max(chunk.rfind("\n\n"), chunk.rfind("\n\r\n"))
    if cut != -1:
        return cut + 1
    cut = chunk.rfind("\n")
    if cut != -1:
        cut += 1
        lt = chunk.rfind("<", 0, cut)
        if lt > chunk.rfind(">", 0, cut):
            cut = chunk.rfind("\n", 0, lt) + 1  # keep the open bracket with what follows
        while cut > 0 and chunk[max(0, cut - 4) : cut].rstrip("\r\n").endswith(("-", "//")):
            cut = chunk.rfind("\n", 0, cut - 1) + 1  # a hyphen or "scheme://" at a line end
        if cut > 0:
            return cut
        if patient and len(chunk) < 1 << 20:
            return 0  # a live stream: wait for the line that closes the "<" or continues the URI
    for i in range(len(chunk) - 1, -1, -1):
        if chunk[i].isspace():
            return i + 1
    return len(chunk)


def safe_line_start(before: bytes) -> bool:
    """Whether a text may be cut right after ``before`` (the bytes up to a
    line start, in a charset where ``<``, ``>``, ``-``, ``/`` and a line feed
    are the ASCII bytes and nothing else), by the rules of :func:`safe_cut`:
    no "<" left open in it, and its last line ending in neither "-" nor
    "//".  For cutting a large file into ranges (:mod:`urisift.pipeline.plan`)
    without decoding it."""
    if before.rfind(b"<") > before.rfind(b">"):
        return False  # the angle rule reads on to the ">"
    return not before[-4:].rstrip(b"\r\n").endswith((b"-", b"//"))
