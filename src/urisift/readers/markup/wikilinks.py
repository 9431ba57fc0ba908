"""Markdown wikilinks (``--wikilinks``), as Obsidian, Foam and GitHub's wikis write them.

No specification defines them; the forms read are those the three document
(and pulldown-cmark's ``ENABLE_WIKILINKS`` parses):

- ``[[Page]]``: a link to the page, a relative reference ``Page``;
- ``[[Page|label]]``: the same, its text ``label``;
- ``[[Page#Heading]]``: the page's heading, a fragment (``[[#Heading]]``: this page's);
- ``![[file.png]]``: an embed, ``img``/``src``.

The page's name is a path, its characters outside RFC 3986's ``pchar`` and
``/`` percent-encoded (§2.1; a space is ``%20``), the heading a fragment
encoded the same way (§3.5).  A wikilink holds no ``[``, ``]`` or line break,
and it ends at the first ``]]``: one that never closes on its line is none,
and the text after it is read as before.  The span is the target's as
written, inside the brackets.  In code a wikilink is text: the Markdown
reader leaves these out there (their style is ``markup``, as GFM's e-mail
autolinks are).

Linear: one pattern of bounded, possessive repeats, tried at each ``[[``.
"""

from __future__ import annotations

from collections.abc import Iterator
from heapq import merge
from operator import attrgetter
from urllib.parse import quote

from ...model import Flag, Found, Style, Where, new_found, new_place
from ...stages.options import ScanOptions
from ...uri import patterns
from .gfm import prose

# a name and a label: at most 1,024 characters each (no page name is longer), no bracket, bar or line break
_WIKILINK = patterns.compile(r"(?P<bang>!?)\[\[(?P<target>[^\[\]|\n\r]{1,1024}+)(?:\|(?P<label>[^\[\]\n\r]{0,1024}+))?"
                             r"\]\]")
# RFC 3986 §3.3 pchar and "/", which a path may hold as they are (and "%" is encoded: a name is no escape)
_PATH_SAFE = "/!$&'()*+,;=:@-._~"
_FLAGS = (Flag.WIKILINK,)
_START = attrgetter("start")


def with_wikilinks(text: str, options: ScanOptions) -> Iterator[Found]:
    """The text scanner's finds in Markdown's prose (:func:`.gfm.prose`), with the
    wikilinks among them where ``options`` ask for them (``--wikilinks``), in order."""
    finds = prose(text, options.abbreviated, options.refang)
    if not options.wikilinks or "[[" not in text:
        return finds
    return merge(finds, wikilinks(text), key=_START)


def wikilinks(text: str) -> Iterator[Found]:
    """The wikilinks of ``text``, in order: style ``markup``, flag
    ``wikilink``, ``a``/``href`` (an embed: ``img``/``src``) with the label
    or the name as the link's text."""
    search = _WIKILINK.search
    at = text.find("[[")
    while at != -1:
        m = search(text, at - 1 if at and text[at - 1] == "!" else at)
        if m is None:
            return
        target = m.group("target")
        name, hash_, heading = target.partition("#")
        if name.strip() or heading.strip():
            reference = quote(name.strip(), safe=_PATH_SAFE)
            if hash_:
                reference += "#" + quote(heading.strip(), safe=_PATH_SAFE + "?")
            label = m.group("label")
            shown = (label if label is not None and label.strip() else target).strip()
            embed = bool(m.group("bang"))
            place = new_place(Where.MARKDOWN, "img" if embed else "a", "src" if embed else "href", None, None,
                              shown)
            start = m.start("target")
            yield new_found(reference, start, start + len(target), Style.MARKUP, _FLAGS, (), None, place)
        at = text.find("[[", m.end())
