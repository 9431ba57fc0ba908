"""A MediaWiki wikitext document → its records.

What MediaWiki renders as a link is a record with that HTML's element and
attribute, style ``markup``:

- external links ``[url label]`` and ``[url]`` (the protocols of MediaWiki's
  ``$wgUrlProtocols``, and ``//`` protocol-relative), ``a``/``href``;
- template parameters whose value is an absolute URL (``{{cite web|url=…}}``,
  ``archive-url=``, ``chapter-url=``, an infobox's ``website=``, a
  positional ``{{URL|https://…}}``), ``a``/``href``: the citation and
  infobox templates render them as external links;
- internal links ``[[Page]]``, ``[[Page#Section|label]]``, ``a``/``href``,
  and ``[[File:x.png]]``/``[[Image:x.png]]`` and each line of a
  ``<gallery>`` (``File:`` may be left out there) as ``img``/``src``: the title
  normalised as MediaWiki does (``Title::newFromText``: ``_`` and runs of
  white space one ``_``, a known namespace's canonical name, the first
  letter upper case, ``%XX`` decoded) and percent-encoded as
  ``wfUrlencode`` does, written as the relative reference ``./Title``
  (``./`` keeps a title holding ``:`` a path).  Resolved against a base
  that is an article's URL (``https://en.wikipedia.org/wiki/Main_Page``) it
  is the article path's ``$1``; with no base it stays relative.  A
  subpage link (``[[/Sub]]``, ``[[../Up]]``) is left out: its target is
  the current page's title, which a wikitext file does not name;
- the URLs of the prose (MediaWiki's free links), found by the text
  scanner, ``a``/``href``, with the scanner's style.

Nothing in ``<!-- -->`` or ``<nowiki>`` is read (MediaWiki shows neither
as a link).  The content of ``<pre>``, ``<syntaxhighlight>``, ``<source>``
and ``<code>`` is code: its URLs are found as text with the ``code`` flag
and no element, and left out with ``ScanOptions(code=False)``.

Why a scanner of its own and not mwparserfromhell, the parser of the
Python wiki tools: that parser (0.7.2, its C tokenizer) read a realistic
article-like document of 2 MB at 0.7 MB/s, far below the 10 MB/s a kind is
read at, and builds a tree many times its text.  The constructs that make
links are few and each is told by its first characters, so one regular
expression finds them left to right; each is bounded (a title, a label, a
parameter's name), a tag whose closing tag is missing is remembered as such
(it is never looked for again), so the time is linear in the text.  The
document is read in pieces of about :data:`PIECE` characters, each cut at a
line's start between two constructs, so what is held besides the text does
not grow with it; the time budget is looked at between pieces.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from urllib.parse import quote, unquote

from ...model import Content, Defect, DefectKind, Flag, Found, Place, Record, Span, Style, Tally, Unit, Where, new_found
from ...stages.charset import content_text
from ...stages.delimit import Scanner
from ...stages.delimit.chars import ordered
from ...stages.found_to_record import Tail
from ...stages.options import ScanOptions
from ...uri import patterns
from .marks import advance

LINK = Place(Where.WIKITEXT, "a", "href")
IMAGE = Place(Where.WIKITEXT, "img", "src")
IN_CODE = Place(Where.WIKITEXT)
#: the characters of a piece, about
PIECE = 1 << 20

# $wgUrlProtocols (MediaWiki 1.41's default): those with "//" and those without
_PROTOCOL = (r"(?:(?i:https?|ftps?|sftp|irc|ircs|gopher|telnet|nntp|worldwind|svn|git|mms|redis|ssh)://"
             r"|(?i:mailto|news|urn|tel|sip|sips|xmpp|geo|magnet|sms|bitcoin|matrix):|//)")
# an external link's URL: Parser::EXT_LINK_URL_CLASS (no "[", "]", "<", ">", '"', control or space)
_URL = r"[^\]\[<>\"\x00-\x20\x7f\s]++"
# one alternative a construct, told apart by its group; the opening tags are looked for case-insensitively.
# Each alternative begins with a literal character outside its group, so that the engine knows the
# characters a match can begin with and passes over the rest of the text in C (three times as fast)
_TOKEN = patterns.compile(
    r"<(?P<comment>!--)"
    r"|<(?P<tag>(?i:nowiki|pre|syntaxhighlight|source|code|gallery))(?=[\s/>])[^>]{0,1000}+>"
    r"|\{(?P<open>\{)|\}(?P<close>\})"
    r"|\[\[[ \t]*+(?P<title>[^\[\]|\n{}<>]{1,512}+)(?=\||\]\])"
    r"|\[(?P<external>" + _PROTOCOL + _URL + r")(?=[ \t\u3000\]])"
    r"|\|[ \t\r\n]*+(?:(?P<name>[^=|{}\[\]\n<>]{1,64}+)=[ \t\r\n]*+)?(?P<value>" + _PROTOCOL
    + r"[^\s|{}\[\]<>\"]++)")
_CLOSER = {tag: patterns.compile(r"</" + tag + r"\s*>", re.IGNORECASE)
           for tag in ("nowiki", "pre", "syntaxhighlight", "source", "code", "gallery")}
# a line of a <gallery>: a file's name (its "File:" may be left out), up to its caption's "|"
_GALLERY_LINE = patterns.compile(r"^[ \t]*+([^|\n<>\[\]{}]{1,512}+)", re.MULTILINE)
_COMMENT_END = "-->"

#: namespaces of a default MediaWiki (and Wikipedia's), their aliases to their canonical names, by lower case
_NAMESPACES = {name.lower(): name for name in (
    "Media", "Special", "Talk", "User", "User talk", "Project", "Project talk", "File", "File talk", "MediaWiki",
    "MediaWiki talk", "Template", "Template talk", "Help", "Help talk", "Category", "Category talk", "Wikipedia",
    "Wikipedia talk", "Portal", "Portal talk", "Draft", "Draft talk", "Module", "Module talk", "TimedText",
    "TimedText talk")}
_NAMESPACES.update({"image": "File", "image talk": "File talk", "wp": "Wikipedia", "wt": "Wikipedia talk"})
_IMAGES = frozenset({"File"})
# what wfUrlencode leaves as it is besides rawurlencode's letters, digits and "-_.~"
_TITLE_SAFE = ";@$!*(),/~:"
_FRAGMENT_SAFE = "!$&'()*+,;=:@/?~"
# a title MediaWiki refuses holds one of these (Title::newFromText)
_REFUSED = patterns.compile(r"[<>\[\]{}|]")
# a title that quote() leaves as it is (rawurlencode's unreserved characters and _TITLE_SAFE's)
_AS_IT_IS = patterns.compile(r"[A-Za-z0-9\-_.~;@$!*(),/:]*+")
_SPACES = patterns.compile(r"[ _\t\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]++")


def article_reference(target: str) -> tuple[str, bool] | None:
    """An internal link's target (``Page#Section``) → the relative
    reference MediaWiki's link points to (``./Page#Section``) and whether
    it names a file (``File:``/``Image:``: an image); None for a subpage
    link or a title MediaWiki refuses (``Title::newFromText``)."""
    if "%" in target:
        target = unquote(target)  # (MediaWiki decodes a target's escapes first)
    title, hash_, fragment = target.partition("#")
    if "_" in title or "  " in title or not title.isascii() or "\t" in title:
        title = _SPACES.sub(" ", title)  # (most titles are words with single spaces: nothing to fold)
    title = title.strip(" ")
    if title.startswith(":"):  # [[:Category:X]]: a link to the page, not a membership
        title = title[1:].lstrip(" ")
    if title.startswith(("/", "../")) or _REFUSED.search(title) is not None:
        return None
    image = False
    prefix, colon, name = title.partition(":")
    namespace = _NAMESPACES.get(prefix.rstrip(" ").lower()) if colon else None
    if namespace is not None:
        name = name.lstrip(" ")
        image = namespace in _IMAGES
        title = namespace + ":" + name[:1].upper() + name[1:]
    else:
        title = title[:1].upper() + title[1:]
    reference = ""
    if title:
        title = title.replace(" ", "_")
        reference = "./" + (title if _AS_IT_IS.fullmatch(title) else quote(title, safe=_TITLE_SAFE))
    if hash_:
        fragment = _SPACES.sub(" ", fragment).strip(" ").replace(" ", "_")
        reference += "#" + quote(fragment, safe=_FRAGMENT_SAFE)
    if not reference or reference == "#":
        return None
    return reference, image


#: the references of the titles met lately: a wiki links the same few pages again and again (the bench's
#: pages, 23,087 links to 5,837 titles), and a title's reference is the same wherever it stands
_reference_of = lru_cache(maxsize=8192)(article_reference)


def read_wikitext(content: Content, options: ScanOptions, tally: Tally) -> Iterator[Record | Defect]:
    """The records of a wikitext document, read in pieces of about
    :data:`PIECE` characters."""
    text, decoding, defects = content_text(content, options.charset)
    yield from defects
    tail = Tail(content.layer, content.origin, decoding, browser=options.browser, needs=options.needs)
    budget = content.budget
    marked: list[tuple[int, int, str, Place]] = []  # the piece's links: (start, end, reference, place)
    skipped: list[tuple[int, int, bool]] = []  # the piece's ranges not read as prose: (start, end, code?)
    unclosed: set[str] = set()  # tags whose closing tag is not in the rest of the text
    depth = 0  # of templates ({{ … }})
    # the next "]" and the next line break at or after some place: an external link is closed when its "]"
    # comes before the line ends (its label holds neither); each is looked for again only once passed
    bracket = newline = -1
    piece, line = 0, 1  # where the piece starts, and its line
    at = 0
    search = _TOKEN.search
    length = len(text)
    while True:
        prose_from = at  # (what follows the last construct read is prose up to the next one)
        token = search(text, at)
        start = length if token is None else token.start()
        while start - piece >= PIECE or (token is None and piece < length):
            cut = _cut(text, max(piece + PIECE, prose_from), start) if start - piece >= PIECE else start
            yield from _piece(text, piece, cut, line, marked, skipped, tail, options)
            line += text.count("\n", piece, cut)
            piece = cut
            marked, skipped = [], []
            if piece < length and budget is not None and budget.expired():
                yield from budget.over_time(f"the rest of the document (from character {cut})", content.origin)
                return
        if token is None:
            return
        group = token.lastgroup
        at = token.end()
        if group == "open":
            depth += 1
        elif group == "close":
            depth = max(0, depth - 1)
        elif group == "title":
            title = token.group("title")
            made = _reference_of(title)
            if made is not None:
                end = token.end("title")
                skipped.append((start, end, False))
                marked.append((token.start("title"), end - (len(title) - len(title.rstrip())), made[0],
                               IMAGE if made[1] else LINK))
        elif group == "external":
            if bracket < at:
                bracket = text.find("]", at)
                bracket = length if bracket == -1 else bracket
            if newline < at:
                newline = text.find("\n", at)
                newline = length if newline == -1 else newline
            if bracket < newline:  # (its label is text, not read: a URL there is not a link of its own)
                skipped.append((start, bracket + 1, False))
                marked.append((start + 1, at, token.group("external"), LINK))
                at = bracket + 1
            else:  # not a link: its URL is the prose's (MediaWiki's free link)
                at = start + 1
        elif group == "value":
            if depth:  # a template's parameter (elsewhere a table's cell: the scanner's)
                begin = token.start("value")
                skipped.append((begin, at, False))
                marked.append((begin, at, token.group("value"), LINK))
            else:
                at = token.start("value")
        elif group == "comment":
            end = text.find(_COMMENT_END, at)
            if end == -1:  # MediaWiki hides the rest of the page: so does this reading, and says so
                opened = line + text.count("\n", piece, start)
                yield Defect(DefectKind.BROKEN_DOCUMENT, f"a comment opened at line {opened} is never closed: the "
                             "rest of the page is inside it, and not read", content.origin, start, Unit.CHARACTER)
            at = length if end == -1 else end + len(_COMMENT_END)
            skipped.append((start, at, False))
        else:  # an opening tag: its content up to its closing tag, if there is one
            tag = token.group("tag").lower()
            if token.group().endswith("/>") or tag in unclosed:
                continue  # (<nowiki/>; a tag never closed is shown as text)
            closer = _CLOSER[tag].search(text, at)
            if closer is None:
                unclosed.add(tag)
                continue
            if tag == "gallery":  # each line a file: an image (its caption is not read)
                for line_of in _GALLERY_LINE.finditer(text, at, closer.start()):
                    name = line_of.group(1).rstrip()
                    made = _reference_of(name if ":" in name else "File:" + name) if name else None
                    if made is not None and made[1]:
                        marked.append((line_of.start(1), line_of.start(1) + len(name), made[0], IMAGE))
            skipped.append((start, closer.end(), tag not in ("nowiki", "gallery")))
            at = closer.end()


def _cut(text: str, low: int, high: int) -> int:
    """Where a piece ends in prose between ``low`` and ``high`` (no
    construct there): after a line break, else after a space, within a
    piece's length of ``low``; else a piece's length on; ``high`` when the
    prose is reached no sooner."""
    if low >= high:
        return high
    end = min(high, low + PIECE)
    newline = text.find("\n", low, end)
    if newline != -1:
        return newline + 1
    space = text.find(" ", low, end)
    return space + 1 if space != -1 else end


def _piece(text: str, first: int, last: int, first_line: int, marked: list[tuple[int, int, str, Place]],
           skipped: list[tuple[int, int, bool]], tail: Tail, options: ScanOptions) -> Iterator[Record]:
    """The records of ``text[first:last]``: its links and the URLs of its
    prose (of its code, flagged), in order, each with its line and column."""
    prose = text[first:last]
    finds: list[tuple[int, Found]] = []
    k = 0
    for found in Scanner(prose, abbreviated=options.abbreviated, refang=options.refang):
        assert found.start is not None and found.end is not None
        start = found.start + first
        while k < len(skipped) and skipped[k][1] <= start:
            k += 1
        if k < len(skipped) and skipped[k][0] <= start:
            if not skipped[k][2] or not options.code:
                continue
            found = found._replace(flags=ordered({*found.flags, Flag.CODE}), place=IN_CODE)
        else:
            found = found._replace(place=LINK)
        assert found.end is not None  # (the scanner's finds stand in the text)
        finds.append((start, found._replace(start=start, end=found.end + first)))
    line, line_start, upto = first_line, text.rfind("\n", 0, first) + 1, first  # (a cut may be inside a line)
    i = j = 0
    while i < len(marked) or j < len(finds):
        if j == len(finds) or i < len(marked) and marked[i][0] <= finds[j][0]:
            start, end, reference, place = marked[i]
            i += 1
            found = new_found(reference, start, end, Style.MARKUP, (), (), None, place)
        else:
            start, found = finds[j]
            end = found.end if found.end is not None else start
            j += 1
        line, line_start, upto = advance(text, start, line, line_start, upto)
        yield tail(found, Span(start, end), line, start - line_start + 1)
