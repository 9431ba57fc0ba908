"""The HTML tags' groups of an RTF body that encapsulates HTML, read whole (MS-OXRTFEX §2.2.3.2, RTF 1.9.1).

In a Word message's encapsulated HTML, the ``{\\*\\htmltagN …}`` groups are nearly all of the body (its
style sheet, cut into groups of 4 KB): the token loop of :mod:`urisift.readers.mail.mapi.rtf` reads
such a group in one step, when it holds nothing but text, hex escapes, ``\\par``, ``\\line``,
``\\tab`` and the escaped ``\\ { }``, and gives it the text its tokens would have given.  A group is
found and checked by the bytes' own find (``{`` and ``}`` that no backslash escapes), its commonest
escape is replaced by the bytes' own replace, and the rest are checked in one split at its
backslashes: many times faster than a loop of tokens, or a regular expression's byte by byte.  Any
other group (one nested, another control word, a control symbol) is left to the token loop, and
``rtf._read(rtf, whole=False)``, which reads every group token by token, is what reading it whole must
equal (a property test).
"""

from __future__ import annotations

import functools
import re

from ....stages.charset_labels import reads_ascii_as_itself

# the control word that opens a tag's group (``mhtmltag``: the same tag for MHTML, passed over), and its delimiter
_TAG_OPEN = re.compile(rb"\\\*\\(m?)htmltag(?:\d{1,10})?(?: |(?=[^a-zA-Z0-9-]))")
#: the bytes a control word's name and parameter go on with: after \par, \line or \tab, the group is no tag's alone
_WORD_GOES_ON = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
_HEX_DIGITS = frozenset(b"0123456789abcdefABCDEF")


class Closes:
    """Where the first ``}`` that no backslash escapes stands after a tag's control word: each stretch of the
    bytes searched once, however many tags' groups open in it (a group that fails to be read whole is read
    token by token, and a tag's group opened inside it ends where it does)."""

    __slots__ = ("begin", "end", "rtf")

    def __init__(self, rtf: bytes) -> None:
        self.rtf, self.begin, self.end = rtf, -1, -1

    def after(self, begin: int) -> int:
        # (a later begin inside the stretch last searched has the same answer: a control word's end is never
        # inside a run of backslashes, so that each brace's run, and its parity, is the same from either begin)
        if 0 <= self.begin <= begin and (begin < self.end or self.end < 0):
            return self.end
        rtf = self.rtf
        end = rtf.find(b"}", begin)
        # (a brace with no backslash before it, the commonest, is told without a call)
        while end > begin and rtf[end - 1] == 0x5C and _backslashes_before(rtf, end, begin) % 2:
            end = rtf.find(b"}", end + 1)
        self.begin, self.end = begin, end
        return end


def _backslashes_before(rtf: bytes, at: int, begin: int) -> int:
    run = at
    while run > begin and rtf[run - 1] == 0x5C:
        run -= 1
    return at - run


def group_end(rtf: bytes, start: int) -> int:
    """Where the ``}`` that closes the group being read at ``start`` (past a control word) stands, counting the
    braces no backslash escapes, as the tokens do; the RTF's length when none does."""
    depth, at = 0, start
    close = rtf.find(b"}", at)
    while close >= 0:
        opened = rtf.find(b"{", at, close)
        if opened >= 0:
            depth += not _backslashes_before(rtf, opened, start) % 2
            at = opened + 1
            continue
        if not _backslashes_before(rtf, close, start) % 2:
            if not depth:
                return close
            depth -= 1
        at = close + 1
        close = rtf.find(b"}", at)
    return len(rtf)


def tags(rtf: bytes, start: int, closes: Closes, shown: bool, codec: str, ascii_kept: bool, line_break: str,
          skipping: int) -> tuple[list[str], int, int] | None:
    """The tags' groups read whole from the one opened at ``start`` (after its ``{``) on, while one follows
    another with nothing but line breaks (no text) between them: their text (none, unless ``shown``), what is
    left to skip, and where the last group read ends; None when the first is no group to read whole.

    Groups are read together, their bytes joined, while none ends in a control word (which the next one's
    letters would go on): a Word message's style sheet is cut into groups of 4 KB, and each pass over bytes
    costs a call."""
    texts: list[str] = []
    batch: list[tuple[bytes | None, int]] = []  # (the bytes, or None for a group passed over; its end), not yet read
    consumed = -1  # where the last group read ends
    batching = shown and not skipping and ascii_kept
    at, size = start, len(rtf)
    opening, closing = _TAG_OPEN.match, closes.after  # (the loop's calls, made locals: a body has hundreds of groups)
    while True:
        opened = opening(rtf, at)
        if opened is None:
            break
        begin = opened.end()
        close = closing(begin)
        if close < 0 or _holds_group(rtf, begin, close):
            break  # (a group to read token by token)
        mhtml = rtf[at + 3] == 0x6D  # (an m after \*\: \*\mhtmltag)
        tagged, end = rtf[begin:close], close + 1
        if batching:
            batch.append((None if mhtml else tagged, end))
            if not mhtml and rtf.find(b"\\", close - 5 if close - 5 > begin else begin, close) >= 0:
                consumed = _read_batch(batch, codec, line_break, texts, consumed)
                batch.clear()
                if consumed != end:
                    break
        elif mhtml or not shown:
            consumed = end  # (passed over by the token loop too, whatever its escapes: only its braces count)
        else:
            read = _tag_text(tagged, codec, ascii_kept, line_break, skipping)
            if read is None:
                break
            texts.append(read[0])
            skipping, consumed = read[1], end
        if rtf.startswith(b"\r\n{\\*\\", end):
            at = end + 3  # (the commonest: Word puts each group on a line of its own)
            continue
        at = end
        while at < size and rtf[at] in b"\r\n":
            at += 1
        if not rtf.startswith(b"{\\*\\", at):
            break
        at += 1
    if batch:
        consumed = _read_batch(batch, codec, line_break, texts, consumed)
    return (texts, skipping, consumed) if consumed >= 0 else None


def _read_batch(batch: list[tuple[bytes | None, int]], codec: str, line_break: str, texts: list[str],
                consumed: int) -> int:
    """Tags' groups (in a codec that reads ASCII as ASCII, nothing to skip) read at once when their bytes
    joined are ASCII, else one by one up to the first that is no group to read whole: their text put in
    ``texts``; returns where the last group read ends (``consumed`` when none is)."""
    bodies = [tagged for tagged, _ in batch if tagged is not None]
    joined = bodies[0] if len(bodies) == 1 else b"".join(bodies)
    if b"\\" not in joined and joined.isascii():
        # (no escape at all, a tag's group of a Word message's body most often: its bytes are its text)
        bare = joined.translate(None, b"\r\n") if b"\r" in joined or b"\n" in joined else joined
        texts.append(bare.decode("ascii"))
        return batch[-1][1]
    if joined.isascii() and b"\x00" not in joined and b"\x01" not in joined:
        text = _ascii_tag_text(joined, codec, line_break)
        if text is not None:
            texts.append(text)
            return batch[-1][1]
    for tagged, end in batch:
        if tagged is not None:
            read = _tag_text(tagged, codec, True, line_break, 0)
            if read is None:
                return consumed
            texts.append(read[0])
        consumed = end
    return consumed


def _holds_group(rtf: bytes, begin: int, close: int) -> bool:
    """Whether a tag's group, its bytes after the control word from ``begin`` to its ``}`` at ``close``, holds
    a ``{`` that no backslash escapes (a group inside it: then it is read token by token)."""
    brace = rtf.find(b"{", begin, close)
    while brace >= 0:
        if rtf[brace - 1] != 0x5C or not _backslashes_before(rtf, brace, begin) % 2:
            return True
        brace = rtf.find(b"{", brace + 1, close)
    return False


def _tag_text(tagged: bytes, codec: str, ascii_kept: bool, line_break: str, skipping: int) -> tuple[str, int] | None:
    """The text of a tag's group (its bytes after the control word), as the token loop reads it: bytes decoded
    together up to each character emitted alone; ``skipping`` fallback characters of a ``\\uN`` passed over
    first (a byte, a hex escape or an escaped brace each one).  With ``ascii_kept`` (the codec decodes ASCII as
    ASCII), a run of ASCII takes ASCII's own decoder.  Returns the text and what is left to skip; None for a
    group that holds more than text, hex escapes, \\par, \\line, \\tab and the escaped \\ { } (it is read token by
    token)."""
    if not skipping and ascii_kept and tagged.isascii() and b"\x00" not in tagged and b"\x01" not in tagged:
        whole = _ascii_tag_text(tagged, codec, line_break)
        if whole is not None:
            return whole, 0
    # each piece but the first follows a backslash: an escape, or (after an escaped backslash's empty piece) text
    pieces = tagged.split(b"\\")
    text: list[str] = []
    run = bytearray()

    def take(chunk: bytes) -> None:
        nonlocal skipping
        chunk = chunk.translate(None, b"\r\n")
        if skipping and chunk:
            cut = min(skipping, len(chunk))
            skipping, chunk = skipping - cut, chunk[cut:]
        run.extend(chunk)

    def emit(character: str, symbol: bool) -> None:
        nonlocal skipping
        if symbol and skipping:  # (an escaped symbol is a fallback character; a control word is none)
            skipping -= 1
            return
        if run:
            text.append(run.decode("ascii") if ascii_kept and run.isascii() else run.decode(codec, "replace"))
            run.clear()
        text.append(character)

    take(pieces[0])
    literal = False
    for piece in pieces[1:]:
        if literal:
            take(piece)
            literal = False
        elif not piece:
            emit("\\", True)
            literal = True
        elif piece[0] == 0x7B or piece[0] == 0x7D:
            emit(chr(piece[0]), True)
            take(piece[1:])
        elif piece[0] == 0x27:
            if len(piece) < 3 or piece[1] not in _HEX_DIGITS or piece[2] not in _HEX_DIGITS:
                return None
            if skipping:
                skipping -= 1
            else:
                run.append(int(piece[1:3], 16))
            take(piece[3:])
        else:
            size = _word_size(piece)
            if size is None:
                return None
            emit("\t" if piece[0] == 0x74 else line_break, False)
            take(piece[size:])
    if run:
        text.append(run.decode("ascii") if ascii_kept and run.isascii() else run.decode(codec, "replace"))
    return "".join(text), skipping


def _ascii_tag_text(tagged: bytes, codec: str, line_break: str) -> str | None:
    """The text of a tag's group of ASCII with no NUL or SOH, read in ``codec``, which reads ASCII as ASCII, in
    a few passes over all its bytes; None when it holds an escape no tag's group read whole may hold, or hex
    escapes that do not decode run by run (then it is read piece by piece, :func:`_tag_text`).

    ``\\par ``, most of the escapes of a Word message's style sheet, is replaced first by the bytes' own replace,
    as if no backslash before it were escaped: one that was (the second of an escaped pair) leaves a backslash
    before the line break put in, and no escape starts so, which the check of what follows each backslash left
    finds.  That check splits the bytes at the backslashes: each piece after one is an escaped brace, a hex
    escape or ``\\par``, ``\\line`` or ``\\tab``, with the text after it, or empty (an escaped backslash, the
    text after it the next piece).  ``\\tab `` is left to the check (a replace makes two passes over all the
    bytes, whatever it finds, and a style sheet has a tab for five line breaks).

    The token loop decodes the bytes between two characters it puts in (a line break, a tab, a brace) on their
    own; the joined bytes decode the same when each run of hex escapes decodes on its own, in a code page
    where an ASCII byte is a character whatever comes before it: then no character spans an ASCII byte."""
    broken = b"\r" in tagged or b"\n" in tagged  # (CR and LF are no text: the line breaks stand as NUL until dropped)
    line = b"\x00" if broken else b"\r\n" if line_break == "\r\n" else b"\n"
    hexed = False
    if b"\\" in tagged:
        tagged = tagged.replace(b"\\par ", line)
    if b"\\" in tagged:
        pieces = tagged.split(b"\\")
        kept = [pieces[0]]
        run = bytearray()  # the hex escapes' bytes of a run not yet decoded alone
        at, count = 1, len(pieces)
        while at < count:
            piece = pieces[at]
            at += 1
            if not piece:
                kept.append(b"\\")
                if at < count:
                    kept.append(pieces[at])
                    at += 1
            elif piece[:4] == b"tab ":
                kept.append(b"\t")
                kept.append(piece[4:])
            elif piece[0] == 0x7B or piece[0] == 0x7D:
                kept.append(piece)  # (the brace is the escape's character)
            elif piece[0] == 0x27:
                if broken or len(piece) < 3 or piece[1] not in _HEX_DIGITS or piece[2] not in _HEX_DIGITS:
                    return None  # (a hex escape's byte may be a CR or LF, which are text there)
                run.append(int(piece[1:3], 16))
                if len(piece) == 3 and at < count and pieces[at][:1] == b"'":
                    continue  # (the run goes on)
                if not _joined_safe(codec) or not _decodes(run, codec):
                    return None
                kept.append(bytes(run))
                kept.append(piece[3:])
                run.clear()
                hexed = True
            else:
                size = _word_size(piece)
                if size is None:
                    return None
                kept.append(b"\t" if piece[0] == 0x74 else line)
                kept.append(piece[size:])
        tagged = b"".join(kept)
    if broken:
        tagged = tagged.translate(None, b"\r\n")
    if hexed:
        try:
            return tagged.decode(codec)
        except UnicodeDecodeError:
            return None
    text = tagged.decode("ascii")
    return text.replace("\x00", line_break) if broken and "\x00" in text else text


@functools.lru_cache(maxsize=64)
def _joined_safe(codec: str) -> bool:
    # (every Windows code page, single-byte or DBCS, and UTF-8; not ISO-2022 or HZ, which shift on ASCII bytes)
    return reads_ascii_as_itself(codec)


def _decodes(run: bytearray, codec: str) -> bool:
    try:
        run.decode(codec)
    except UnicodeDecodeError:
        return False
    return True


def _word_size(piece: bytes) -> int | None:
    """How many bytes after a backslash are \\par, \\line or \\tab with the space that delimits it; None for anything
    else (another word, the same word going on, a control symbol)."""
    if piece.startswith(b"par") or piece.startswith(b"tab"):
        size = 3
    elif piece.startswith(b"line"):
        size = 4
    else:
        return None
    if len(piece) > size:
        if piece[size] == 0x20:
            return size + 1
        if piece[size] in _WORD_GOES_ON:
            return None
    return size


__all__ = ["Closes", "group_end", "tags"]
