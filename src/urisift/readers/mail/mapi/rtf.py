"""An Outlook message's RTF body → the HTML or the text it holds (MS-OXRTFEX, RTF 1.9.1).

The body is the RTF of PidTagRtfCompressed, decompressed by
:mod:`urisift.readers.mail.mapi.rtf_compression` (MS-OXRTFCP), or by libpff in a PST.  An RTF
body written from HTML (``\\fromhtml1`` in its header, MS-OXRTFEX §2.1.3.1.1) holds the HTML
whole: the tags in ``{\\*\\htmltagN …}`` groups, the text between them, and RTF of its own marked
off by ``\\htmlrtf … \\htmlrtf0``.  :func:`rtf_content` de-encapsulates it (§2.2.3.2): the tags'
groups and the text outside ``\\htmlrtf`` are the HTML; ``\\par`` is a line break and ``\\tab`` a
tab; ``\\'hh`` is a byte in the header's ``\\ansicpgN`` code page, ``\\uN`` a character (its
``\\ucN`` fallback characters skipped).  ``{\\*\\mhtmltagN …}`` holds the same
tag with its URL rewritten for MHTML (a ``cid:``), and is passed over for the original.

Other RTF gives its text, with each ``HYPERLINK`` field's target (RTF 1.9.1, "Fields") written
as ``<URL>`` before the field's visible text, so that the text scanner finds the link the field
makes.  One pass over the tokens, with a list for the groups: RTF nested 100,000 deep is read
as any other.  The tags' groups, nearly all of a Word message's encapsulated HTML, are read whole
where they can be (:mod:`urisift.readers.mail.mapi.rtf_tags`).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ....uri import patterns
from .rtf_tags import Closes, group_end, tags

# RTF 1.9.1: a control word (letters, an optional signed parameter, one space taken as its
# delimiter), a hex escape, a control symbol, a group's brace, a run of text; CR and LF are no text
_TOKEN = (rb"\\([a-zA-Z]{1,32})(-?\d{1,10})?(?: |(?=[^a-zA-Z]|\Z))|\\'([0-9a-fA-F]{2})|\\(.?)|([{}])"
          rb"|([^\\{}\r\n]+)|[\r\n]+")
_TOKENS = patterns.compile(_TOKEN, re.DOTALL)
#: destinations whose text is no part of the body (RTF 1.9.1: the header's tables, pictures, objects,
#: document information); any other destination marked ``\*`` is passed over too
_SKIPPED = frozenset({b"fonttbl", b"colortbl", b"stylesheet", b"info", b"pict", b"object", b"listtable",
                      b"listoverridetable", b"revtbl", b"rsidtbl", b"generator", b"xmlnstbl", b"themedata",
                      b"colorschememapping", b"latentstyles", b"datastore", b"filetbl", b"header", b"footer",
                      b"headerl", b"headerr", b"footerl", b"footerr", b"pntext", b"pntxta", b"pntxtb", b"mhtmltag",
                      b"bkmkstart", b"bkmkend", b"xe", b"tc", b"nonshppict", b"objdata", b"objclass"})
#: control symbols that stand for a character
_SYMBOLS = {b"\\": "\\", b"{": "{", b"}": "}", b"~": "\u00a0", b"_": "\u2011", b"-": "", b"|": "", b":": ""}
# a field instruction's hyperlink (RTF 1.9.1 "Fields"; Word's field codes: HYPERLINK "url" \l "anchor")
_HYPERLINK = re.compile(r'\s*HYPERLINK\s+(?:"([^"]*)"|(\S+))?(?:.*?\\l\s+"([^"]*)")?', re.DOTALL)


@dataclass(frozen=True, slots=True)
class RtfContent:
    """What an RTF body holds: HTML it encapsulates (``html``), else its text; the code page it was read in."""

    text: str
    html: bool
    codec: str


class _Group:
    """A group's state (RTF 1.9.1: a group inherits its parent's, and gets it back on leaving)."""

    __slots__ = ("field", "htmlrtf", "skip", "tag", "uc")

    def __init__(self, skip: bool = False, htmlrtf: bool = False, tag: bool = False, uc: int = 1,
                 field: bool = False) -> None:
        self.skip, self.htmlrtf, self.tag, self.uc, self.field = skip, htmlrtf, tag, uc, field

    def copy(self) -> _Group:
        return _Group(self.skip, self.htmlrtf, self.tag, self.uc, self.field)


def rtf_content(rtf: bytes) -> RtfContent:
    """The HTML an RTF body encapsulates, else its text (see the module doc)."""
    return _read(rtf)


def _read(rtf: bytes, whole: bool = True) -> RtfContent:
    """The loop of :func:`rtf_content`; ``whole`` False reads a tag's group token by token too (what reading it
    whole must equal)."""
    codec = "cp1252"
    ascii_kept = True  # the code page decodes ASCII bytes as ASCII: then ASCII's own decoder, many times faster
    html = False
    out: list[str] = []
    instruction: list[str] = []  # the text of the field instruction being read
    pending = bytearray()  # bytes of text not yet decoded (a DBCS character's two \'hh escapes belong together)
    group = _Group()
    stack: list[_Group] = []
    fresh = starred = False  # at a group's first token; after its \*
    skipping = 0  # fallback characters of a \uN still to skip

    def flush() -> None:
        if pending:
            (instruction if group.field else out).append(
                pending.decode("ascii") if ascii_kept and pending.isascii() else pending.decode(codec, "replace"))
            pending.clear()

    def emit(text: str) -> None:
        flush()
        (instruction if group.field else out).append(text)

    def shown() -> bool:
        # what goes to the body: not in a passed-over destination, nor RTF of its own in encapsulated HTML
        return not group.skip and (group.tag or not group.htmlrtf)

    at = 0
    closes = Closes(rtf)
    while True:
        for match in _TOKENS.finditer(rtf, at):
            word, parameter, hexed, symbol, brace, run = match.groups()
            if brace is not None:
                flush()
                if brace == b"{":
                    read = None
                    if whole and rtf.startswith(b"\\*", match.end()):
                        read = tags(rtf, match.end(), closes, not group.skip, codec, ascii_kept,
                                    "\r\n" if html else "\n", skipping)
                    if read is not None:
                        # tags' groups read whole: what their tokens would do, the state left as it was
                        texts, skipping, at = read
                        (instruction if group.field else out).extend(texts)
                        fresh = starred = False
                        break  # (the tokens go on after the groups)
                    stack.append(group)
                    group = group.copy()
                    fresh, starred = True, False
                else:
                    if group.field and stack and not stack[-1].field:
                        _hyperlink("".join(instruction), emit_to=out, html=html)
                        instruction.clear()
                    group = stack.pop() if stack else _Group()
                    fresh = starred = False
                continue
            if symbol == b"*" and fresh:
                starred = True
                continue
            if word is not None:
                first, fresh = fresh, False
                if first and not group.skip:
                    if word == b"fldinst":
                        group.field = True
                        continue
                    if word == b"htmltag":
                        group.tag = True
                        continue
                    if word in _SKIPPED or starred:
                        group.skip = True
                        if whole:  # (its tokens would do nothing: on from its closing brace)
                            at = group_end(rtf, match.end())
                            break
                        continue
                if group.skip:
                    continue
                if word == b"htmlrtf":
                    group.htmlrtf = parameter != b"0"
                elif word == b"fromhtml":
                    html = True
                elif word == b"ansicpg" and parameter is not None:
                    codec = _codec(int(parameter)) or codec
                    ascii_kept = _keeps_ascii(codec)
                elif word == b"uc" and parameter is not None:
                    group.uc = max(0, int(parameter))
                elif word == b"u" and parameter is not None:
                    if shown() or group.field:
                        value = int(parameter)
                        emit(chr(value + 0x10000 if value < 0 else value) if -0x8000 <= value < 0x110000 else "\ufffd")
                    skipping = group.uc
                elif word in (b"par", b"line") and (shown() or group.field):
                    emit("\r\n" if html else "\n")
                elif word == b"tab" and (shown() or group.field):
                    emit("\t")
                continue
            fresh = False
            if group.skip:
                continue
            if hexed is not None:
                if skipping:
                    skipping -= 1
                elif shown() or group.field:
                    pending.append(int(hexed, 16))
            elif symbol is not None:
                if symbol in (b"\n", b"\r") and (shown() or group.field):
                    emit("\r\n" if html else "\n")  # a backslash before a line break is \par
                elif symbol in _SYMBOLS and (shown() or group.field):
                    if skipping:
                        skipping -= 1
                    else:
                        emit(_SYMBOLS[symbol])
            elif run is not None and (shown() or group.field):
                if skipping:
                    cut = min(skipping, len(run))
                    skipping -= cut
                    run = run[cut:]
                pending.extend(run)
        else:
            break  # (the tokens' end)
    flush()
    return RtfContent("".join(out), html, codec)


def _hyperlink(instruction: str, *, emit_to: list[str], html: bool) -> None:
    """A field instruction read: a ``HYPERLINK`` one's target written as ``<URL>`` into plain text
    (in encapsulated HTML, the link is the ``<a>`` tag's, already there)."""
    match = _HYPERLINK.match(instruction)
    if html or match is None or not (match.group(1) or match.group(2) or match.group(3)):
        return
    target = (match.group(1) or match.group(2) or "") + (f"#{match.group(3)}" if match.group(3) else "")
    emit_to.append(f" <{target}> ")


@functools.lru_cache(maxsize=64)
def _keeps_ascii(codec: str) -> bool:
    """Whether ``codec`` decodes each ASCII byte as that character (every Windows ANSI code page does;
    EBCDIC and UTF-16 do not)."""
    ascii = bytes(range(128))
    return ascii.decode(codec, "replace") == ascii.decode("ascii")


def _codec(code_page: int) -> str | None:
    from .model import codec_of

    return codec_of(code_page)
