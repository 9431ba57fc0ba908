"""Bytes to text, with the reason the charset was chosen (ARCHITECTURE.md, How one input flows).

The chain, first that applies wins:

1. a byte-order mark (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE)             -> ``bom``
2. a charset the container declares (MIME or HTTP ``charset=``,
   ``--charset``), when Python has a codec for it                     -> ``declared``
3. a charset the content declares, found by a ``sniff`` step (the
   HTML ``<meta>`` prescan)                                           -> ``meta``
4. detection: the sample decodes as UTF-8 (pure ASCII included), else
   the ``detect`` step's guess (chardet by default) when confident     -> ``detected``
5. windows-1252 as the WHATWG reads it (its five undefined bytes are the
   C1 controls of their number)                                         -> ``default``

Only a sample (the first 64 KiB) decides, so a stream decodes in constant
memory.  A run of bytes that is not UTF-8 in UTF-8 text is read as
windows-1252 (mixed archives and logs), in other charsets it becomes U+FFFD;
each run is reported as a :class:`~urisift.model.Defect` with its byte
offset: nothing stops the scan.  Detection also knows UTF-16/32 without a
byte-order mark (by where its NUL bytes fall) and ISO-2022 (by its
escapes).  A declared label Python does not know is a defect too, and the
chain goes on below it.
"""

from __future__ import annotations

import codecs
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from ..model import NOWHERE, Charset, CharsetSource, Content, Defect, DefectKind, Origin
from ..model.events import is_message
from .charset_labels import codec_name, never_starting, normalize_label, reads_ascii_as_itself
from .detect import MIN_CONFIDENCE, bomless_utf16_32, chardet_detect, iso_2022, utf8_prefix_ok

#: a sniffing step: the sample's own declaration of its charset (a label), or None
Sniff = Callable[[bytes], str | None]
#: a detection step: a label and a confidence in [0, 1], or None
Detect = Callable[[bytes], tuple[str, float] | None]

SAMPLE_SIZE = 64 * 1024
FALLBACK = "windows-1252"

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32le"),  # before UTF-16 LE, whose BOM is its prefix
    (codecs.BOM_UTF32_BE, "utf-32be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16le"),
    (codecs.BOM_UTF16_BE, "utf-16be"),
)


@dataclass(frozen=True, slots=True)
class Choice(Charset):
    """The charset chosen for some bytes (a :class:`Charset`: its registered
    name and why), and how many BOM bytes to skip.  ``codec`` is the Python
    codec that decodes it."""

    bom_length: int = 0
    overruled: str | None = None  # a <meta> charset the bytes are not in, set aside for UTF-8

    @property
    def codec(self) -> str:
        return codec_name(self.name)


# windows-1252 as the WHATWG Encoding Standard reads it: Python's cp1252, with
# the five bytes it leaves undefined mapped to the C1 controls of their number;
# its bytes 80-9F, where it differs from Latin-1, as a table for str.translate
_C1_AS_WINDOWS_1252 = {b: bytes([b]).decode("cp1252", "ignore") or chr(b) for b in range(0x80, 0xA0)}


def _read_as_fallback(data: bytes) -> str:
    return data.decode("latin-1").translate(_C1_AS_WINDOWS_1252)


def choose(sample: bytes, *, declared: str | None = None, sniff: Sniff | None = None,
           detect: Detect | None = chardet_detect, complete: bool = False) -> Choice:
    """Pick the charset for bytes that start with ``sample`` (see the module doc).

    ``complete`` says the sample is the whole input (so a truncated last
    character counts against UTF-8).  ``detect=None`` skips the detector.
    """
    for bom, name in _BOMS:
        if sample.startswith(bom):
            return Choice(name, CharsetSource.BOM, len(bom))
    if declared:
        label = normalize_label(declared)
        if label is not None:
            return Choice(label, CharsetSource.DECLARED)
    if sniff is not None:
        label = normalize_label(sniff(sample) or "")
        if label is not None:
            if label != "utf-8" and not sample.isascii() and utf8_prefix_ok(sample, complete) \
                    and not _decodes(sample, label, complete):
                # A page saved (or re-encoded) as UTF-8 that kept its old <meta>:
                # its bytes are valid UTF-8 and not valid in what the <meta> says.
                # UTF-8 by chance is rare enough for non-ASCII text to take it.
                return Choice("utf-8", CharsetSource.DETECTED, overruled=label)
            return Choice(label, CharsetSource.META)
    wide = bomless_utf16_32(sample) or iso_2022(sample)
    if wide is not None:
        return Choice(wide, CharsetSource.DETECTED)
    if utf8_prefix_ok(sample, complete):
        return Choice("utf-8", CharsetSource.DETECTED)
    guess = detect(sample) if detect is not None else None
    if guess is not None and guess[1] >= MIN_CONFIDENCE:
        detected = normalize_label(guess[0])
        if detected is not None:
            return Choice(detected, CharsetSource.DETECTED)
    return Choice(FALLBACK, CharsetSource.DEFAULT)


def _decodes(sample: bytes, label: str, complete: bool) -> bool:
    """Whether ``sample`` is in the charset ``label`` (a truncated last
    character does not count against it unless the sample is complete)."""
    try:
        codecs.getincrementaldecoder(Choice(label, CharsetSource.META).codec)("strict").decode(sample, complete)
    except (UnicodeDecodeError, LookupError):
        return False
    return True


def _overruled(choice: Choice, origin: Origin) -> list[Defect]:
    if choice.overruled is None:
        return []
    return [Defect(DefectKind.CHARSET_MISMATCH,
                   f"the <meta> declares {choice.overruled}, which these bytes are not in; they are UTF-8, "
                   "and are read as UTF-8", origin)]


def _unknown_label(declared: str | None, origin: Origin) -> list[Defect]:
    """A declared label with no codec: reported, and the chain goes on below it."""
    if declared and declared.strip() and normalize_label(declared) is None:
        return [Defect(DefectKind.UNKNOWN_CHARSET,
                       f"declared charset {declared.strip()!r} is not one Python can decode; detected instead",
                       origin)]
    return []


@dataclass
class _Recorder:
    """Collects undecodable byte runs from one incremental decoder."""

    origin: Origin
    charset: str
    defects: list[Defect] = field(default_factory=list)
    consumed: int = 0  # bytes fed before the current call
    # the open run (start, end, bytes, reason): the last entry of ``defects``
    _run: tuple[int, int, bytes, str] | None = None
    runs: int = 0  # runs seen in the whole input
    unlisted: int = 0  # runs past ``listed``, counted but not listed one by one
    last_unlisted: int = 0
    #: undecodable runs listed one by one per input; the rest are summed up at
    #: the end.  Zero for binary content, which is reported once as a whole.
    listed: int = 20

    def handler(self, exc: UnicodeError) -> tuple[str, int]:
        assert isinstance(exc, UnicodeDecodeError)
        bad = exc.object[exc.start : exc.end]
        if self.charset == FALLBACK:
            # the five bytes Python's cp1252 leaves undefined (81 8D 8F 90 9D): the WHATWG
            # Encoding Standard maps them to the C1 controls, which end a URI like any control
            return "".join(map(chr, bad)), exc.end
        start = self.consumed + exc.start
        self._note(start, bad, exc.reason)
        end = exc.end
        # the decoder calls once for each byte that starts no character (a MB took seconds): the run of them
        # after this one taken at once, but for the last byte given (which a decoder may keep for what follows)
        pattern, reason = never_starting(codec_name(self.charset)) or (None, "")
        beyond = None if pattern is None else pattern.match(exc.object, end, len(exc.object) - 1)
        if beyond is not None:
            end = beyond.end()
            self._note(start + len(bad), exc.object[exc.end : end], reason, apart=True)
        if self.charset == "utf-8":
            return _read_as_fallback(exc.object[exc.start : end]), end
        return "\ufffd" * (1 + end - exc.end), end

    def _note(self, start: int, bad: bytes, reason: str, apart: bool = False) -> None:
        """``bad`` (a piece the decoder told, or bytes it tells ``apart``), at
        ``start``: adjacent ones a run of 64 bytes or so, one defect until ``listed`` are."""
        done = 0
        while done < len(bad):
            run = self._run
            if run is not None and run[1] == start + done and len(run[2]) < 64:
                taken = bad[done : done + 64 - len(run[2])] if apart else bad
                self._run = (run[0], run[1] + len(taken), run[2] + taken, run[3])
                if self.runs <= self.listed:
                    self.defects[-1] = self._defect()
            else:
                taken = bad[done : done + 64]
                self.runs += 1
                self._run = (start + done, start + done + len(taken), taken, reason)
                if self.runs <= self.listed:
                    self.defects.append(self._defect())
                else:  # a binary file would drown the report: count the rest, list them once
                    self.unlisted += 1
                    self.last_unlisted = start + done
            done += len(taken)

    @property
    def fate(self) -> str:
        """What became of the bytes: in UTF-8 text, a run that is not UTF-8 is
        most likely Latin-1 or windows-1252 (an archive or log that mixes
        them), and is read as such rather than left as U+FFFD inside a URI."""
        return f"read as {FALLBACK}" if self.charset == "utf-8" else "replaced by U+FFFD"

    def take(self) -> list[Defect]:
        """The defects found so far (the open run is closed)."""
        defects, self.defects, self._run = self.defects, [], None
        return defects

    def summary(self) -> Defect | None:
        if not self.unlisted:
            return None
        return Defect(DefectKind.UNDECODABLE_BYTES,
                      f"{self.unlisted} more runs of bytes that are not {self.charset}, {self.fate} "
                      f"(the first {self.listed} are listed; the last is at byte {self.last_unlisted})",
                      self.origin, self.last_unlisted)

    def _defect(self) -> Defect:
        assert self._run is not None
        start, _end, bad, reason = self._run
        return Defect(DefectKind.UNDECODABLE_BYTES, f"{bad.hex(' ')} is not {self.charset} ({reason}); {self.fate}",
                      self.origin, start)


_HANDLER_NAME = "urisift-record"


class _Active(threading.local):
    """The recorders of the decodes under way in this thread, innermost last.
    The error handler is process-wide (codecs.register_error), the decodes
    are not: each thread sees its own stack."""

    def __init__(self) -> None:
        self.stack: list[_Recorder] = []


_active = _Active()


def _dispatch(exc: UnicodeError) -> tuple[str, int]:
    return _active.stack[-1].handler(exc)


codecs.register_error(_HANDLER_NAME, _dispatch)


def _binary_at(sample: bytes, choice: Choice) -> int | None:
    """Where the first NUL byte is, when the chosen charset makes it a sign of
    binary content (text has none; UTF-16/32 have plenty)."""
    if choice.name.startswith(("utf-16", "utf-32")):
        return None
    nul = sample.find(b"\x00")
    return None if nul == -1 else nul


def _binary_defect(recorder: _Recorder, nul: int) -> Defect:
    """Binary content is reported once, with what became of its bytes."""
    runs = recorder.unlisted
    replaced = f"; {runs} runs of bytes that are not {recorder.charset}: {recorder.fate}" if runs else ""
    return Defect(DefectKind.BINARY_CONTENT,
                  f"NUL bytes: this does not look like {recorder.charset} text; scanned anyway{replaced}",
                  recorder.origin, nul)


def _closing_defect(recorder: _Recorder, nul: int | None) -> Defect | None:
    """The defect that ends an input: binary content (reported once), else the
    summary of the undecodable runs not listed one by one, else none."""
    return _binary_defect(recorder, nul) if nul is not None else recorder.summary()


def decode(data: bytes, *, declared: str | None = None, sniff: Sniff | None = None,
           detect: Detect | None = chardet_detect, origin: Origin = NOWHERE
           ) -> tuple[str, Choice, list[Defect]]:
    """Decode a whole byte string: the text, the charset chosen (with its
    provenance), and the defects."""
    choice = choose(data[:SAMPLE_SIZE], declared=declared, sniff=sniff, detect=detect,
                    complete=len(data) <= SAMPLE_SIZE)
    if data.isascii() and b"\x00" not in data and reads_ascii_as_itself(choice.codec):
        # the commonest mail part and page, ASCII in a charset that reads it as
        # ASCII: nothing to record (no byte can fail, no NUL says binary)
        return data.decode("ascii"), choice, _unknown_label(declared, origin) + _overruled(choice, origin)
    recorder = _Recorder(origin, choice.name, consumed=choice.bom_length)
    nul = _binary_at(data[:SAMPLE_SIZE], choice)
    if nul is not None:
        recorder.listed = 0
    _active.stack.append(recorder)
    try:
        text = data[choice.bom_length :].decode(choice.codec, _HANDLER_NAME)
    finally:
        _active.stack.pop()
    defects = _unknown_label(declared, origin) + _overruled(choice, origin) + recorder.take()
    last = _closing_defect(recorder, nul)
    return text, choice, defects + ([last] if last is not None else [])


def content_text(content: Content, declared: str | None, sniff: Sniff | None = None
                 ) -> tuple[str, Charset | None, list[Defect]]:
    """The text of a piece of content read whole (a style sheet, a
    robots.txt): a body handed in as text is taken as it is (with the
    decoding it came with), bytes and streams are decoded by the chain
    (``declared``: the container's charset, else the command line's)."""
    body = content.body
    if is_message(body):
        raise TypeError("a parsed message is content of kind mail only")
    if isinstance(body, str):
        return body, content.decoding, []
    data = body if isinstance(body, bytes) else body.read()
    text, choice, defects = decode(data, declared=content.declared or declared, sniff=sniff, origin=content.origin)
    return text, Charset(choice.name, choice.source), defects


def decode_stream(stream: BinaryIO, *, declared: str | None = None, sniff: Sniff | None = None,
                  detect: Detect | None = chardet_detect, origin: Origin = NOWHERE,
                  chunk_size: int = 1 << 20, chosen: Charset | None = None, at: int = 0
                  ) -> tuple[Choice, Iterator[tuple[str, list[Defect]]]]:
    """Decode a binary stream chunk by chunk in constant memory.

    Returns the choice and an iterator of (text chunk, defects in that chunk).
    ``chosen`` and ``at``: the stream is a range of a larger input from its
    byte ``at`` (no BOM, no state there), in the charset the input's first
    bytes chose (:func:`urisift.pipeline.plan.stream_choice`); defects name the
    input's byte offsets.
    """
    sample = stream.read(SAMPLE_SIZE)
    first = sample + stream.read(max(0, chunk_size - len(sample)))
    complete = len(first) < chunk_size
    choice = Choice(chosen.name, chosen.source) if chosen is not None else choose(
        sample, declared=declared, sniff=sniff, detect=detect, complete=complete and len(first) <= SAMPLE_SIZE)

    def chunks() -> Iterator[tuple[str, list[Defect]]]:
        decoder = codecs.getincrementaldecoder(choice.codec)(_HANDLER_NAME)
        recorder = _Recorder(origin, choice.name)
        if chosen is None:
            recorder.defects.extend(_unknown_label(declared, origin) + _overruled(choice, origin))
        data = first[choice.bom_length :]
        recorder.consumed = at + choice.bom_length
        nul = _binary_at(sample, choice) if chosen is None else None
        if nul is not None:
            recorder.listed = 0  # reported once, at the end, as a whole
        final = complete
        while True:
            pending = len(decoder.getstate()[0])
            recorder.consumed -= pending
            _active.stack.append(recorder)
            try:
                text = decoder.decode(data, final)
            finally:
                _active.stack.pop()
            recorder.consumed += pending + len(data)
            defects = recorder.take()
            if final:
                last = _closing_defect(recorder, nul)
                if last is not None:
                    defects.append(last)
                yield text, defects
                return
            yield text, defects
            data = stream.read(chunk_size)
            final = not data

    return choice, chunks()


def decode_lines(stream: BinaryIO, *, declared: str | None = None, origin: Origin = NOWHERE
                 ) -> tuple[Choice, Iterator[tuple[str, list[Defect]]]]:
    """Decode a live stream (a pipe, a terminal) a line at a time, as the
    lines arrive, so that what is found in a line is written before the
    next one comes (``tail -f log | urisift``).  The charset is chosen on
    the first line (BOM > declared > UTF-8 > windows-1252: a line is too
    little for a detector to go on)."""
    first = stream.readline()
    choice = choose(first, declared=declared, detect=None)

    def lines() -> Iterator[tuple[str, list[Defect]]]:
        decoder = codecs.getincrementaldecoder(choice.codec)(_HANDLER_NAME)
        recorder = _Recorder(origin, choice.name, consumed=choice.bom_length)
        recorder.defects.extend(_unknown_label(declared, origin))
        line = first[choice.bom_length:]
        while True:
            final = not line
            _active.stack.append(recorder)
            try:
                text = decoder.decode(line, final)
            finally:
                _active.stack.pop()
            recorder.consumed += len(line)
            defects = recorder.take()
            if final:
                last = recorder.summary()
                yield text, defects + ([last] if last is not None else [])
                return
            yield text, defects
            line = stream.readline()

    return choice, lines()
