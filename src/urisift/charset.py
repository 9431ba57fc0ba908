"""Bytes to text, with the reason the charset was chosen.

The order, first that applies wins:

1. a byte-order mark (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE)            -> ``bom``
2. a charset the container declares (MIME ``charset=``, HTTP)       -> ``declared``
3. the sample decodes as UTF-8 (pure ASCII included)                -> ``detected``
4. chardet's guess on the sample                                    -> ``detected``
5. windows-1252, which maps every byte                              -> ``default``

Only a sample (the first 64 KiB) decides, so a file streams in constant
memory.  Bytes that do not decode become U+FFFD and each run of them is
reported as a :class:`~urisift.record.Defect` with its byte offset: nothing
stops the scan.
"""

from __future__ import annotations

import codecs
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from .record import CharsetSource, Defect

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
class Choice:
    """The charset chosen for some bytes (its registered name), why, and how
    many BOM bytes to skip.  ``codec`` is the Python codec that decodes it."""

    charset: str
    source: CharsetSource
    bom_length: int = 0

    @property
    def codec(self) -> str:
        return codecs.lookup(_CODEC_FOR.get(self.charset, self.charset)).name


# Python codec names whose registered (IANA / WHATWG) spelling differs, and back.
_REGISTERED_NAMES = {
    "cp932": "windows-31j", "cp949": "windows-949", "cp874": "windows-874", "mac-roman": "macintosh",
    "mac-cyrillic": "x-mac-cyrillic", "shift_jis": "shift_jis", "utf-16-le": "utf-16le",
    "utf-16-be": "utf-16be", "utf-32-le": "utf-32le", "utf-32-be": "utf-32be",
}
_CODEC_FOR = {registered: codec for codec, registered in _REGISTERED_NAMES.items()}


def normalize_label(label: str) -> str | None:
    """The name urisift reports for a charset label: the registered spelling,
    lower case (``windows-1252``, ``iso-8859-15``, ``euc-jp``, ``ibm866``),
    or None when Python has no codec for the label."""
    label = label.strip().strip("\"'").lower()
    if not label:
        return None
    try:
        name = codecs.lookup(label).name
    except LookupError:
        return None
    if name in _REGISTERED_NAMES:
        return _REGISTERED_NAMES[name]
    if name.startswith("cp125"):
        return "windows-" + name[2:]
    if name.startswith("iso8859-"):
        return "iso-8859-" + name[8:]
    if name.startswith("iso2022_"):
        return "iso-2022-" + name[8:].replace("_", "-")
    if name[:2] == "cp" and name[2:].isdigit():
        return "ibm" + name[2:]  # cp437, cp855, cp866 ... are IBM code pages
    return name.replace("_", "-")


def _utf8_prefix_ok(sample: bytes, complete: bool) -> bool:
    try:
        sample.decode("utf-8")
        return True
    except UnicodeDecodeError as exc:
        # a character cut by the end of the sample is not evidence against UTF-8
        return not complete and exc.start >= len(sample) - 3 and exc.reason == "unexpected end of data"


def choose(sample: bytes, *, declared: str | None = None, complete: bool = False) -> Choice:
    """Pick the charset for bytes that start with ``sample`` (see the module doc).

    ``complete`` says the sample is the whole input (so a truncated last
    character counts against UTF-8).
    """
    for bom, name in _BOMS:
        if sample.startswith(bom):
            return Choice(name, CharsetSource.BOM, len(bom))
    if declared:
        label = normalize_label(declared)
        if label is not None:
            return Choice(label, CharsetSource.DECLARED)
    if _utf8_prefix_ok(sample, complete):
        return Choice("utf-8", CharsetSource.DETECTED)
    import chardet  # imported late: only inputs that are not UTF-8 pay for it

    guess = chardet.detect(sample)
    detected = normalize_label(guess.get("encoding") or "")
    if detected is not None and (guess.get("confidence") or 0) >= 0.2:
        return Choice(detected, CharsetSource.DETECTED)
    return Choice(FALLBACK, CharsetSource.DEFAULT)


@dataclass
class _Recorder:
    """Collects undecodable byte runs from one incremental decoder."""

    file: str | None
    defects: list[Defect] = field(default_factory=list)
    consumed: int = 0  # bytes fed before the current call
    charset: str = ""
    # the open run (start, end, bytes, reason): the last entry of ``defects``
    _run: tuple[int, int, bytes, str] | None = None
    runs: int = 0  # runs seen in the whole input
    unlisted: int = 0  # runs past LISTED, counted but not listed one by one
    last_unlisted: int = 0

    #: undecodable runs listed one by one per input; the rest are summed up at the end
    LISTED = 20

    def handler(self, exc: UnicodeError) -> tuple[str, int]:
        assert isinstance(exc, UnicodeDecodeError)
        start = self.consumed + exc.start
        bad = exc.object[exc.start : exc.end]
        run = self._run
        if run is not None and run[1] == start and len(run[2]) < 64:
            # adjacent bad bytes are one defect, not one per byte
            self._run = (run[0], start + len(bad), run[2] + bad, run[3])
            self.defects[-1] = self._defect()
            return "\ufffd", exc.end
        self.runs += 1
        if self.runs > self.LISTED:
            # a binary file would drown the report: count the rest, list them once
            self._run = None
            self.unlisted += 1
            self.last_unlisted = start
            return "\ufffd", exc.end
        self._run = (start, start + len(bad), bad, exc.reason)
        self.defects.append(self._defect())
        return "\ufffd", exc.end

    def take(self) -> list[Defect]:
        """The defects found so far (the open run is closed)."""
        defects, self.defects, self._run = self.defects, [], None
        return defects

    def summary(self) -> Defect | None:
        if not self.unlisted:
            return None
        return Defect(
            "undecodable-bytes",
            f"{self.unlisted} more runs of bytes that are not {self.charset}, replaced by U+FFFD "
            f"(the first {self.LISTED} are listed; the last is at byte {self.last_unlisted})",
            file=self.file,
            position=self.last_unlisted,
        )

    def _defect(self) -> Defect:
        assert self._run is not None
        start, _end, bad, reason = self._run
        return Defect(
            "undecodable-bytes",
            f"{bad.hex(' ')} is not {self.charset} ({reason}); replaced by U+FFFD",
            file=self.file,
            position=start,
        )


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


def decode_bytes(data: bytes, *, declared: str | None = None, file: str | None = None
                 ) -> tuple[str, Choice, list[Defect]]:
    """Decode a whole byte string; returns the text, the choice, and the defects."""
    choice = choose(data[:SAMPLE_SIZE], declared=declared, complete=len(data) <= SAMPLE_SIZE)
    recorder = _Recorder(file, charset=choice.charset, consumed=choice.bom_length)
    _active.stack.append(recorder)
    try:
        text = data[choice.bom_length :].decode(choice.codec, _HANDLER_NAME)
    finally:
        _active.stack.pop()
    defects = recorder.take()
    summary = recorder.summary()
    return text, choice, defects + ([summary] if summary is not None else [])


def decode_stream(stream: BinaryIO, *, declared: str | None = None, file: str | None = None,
                  chunk_size: int = 1 << 20) -> tuple[Choice, Iterator[tuple[str, list[Defect]]]]:
    """Decode a binary stream chunk by chunk in constant memory.

    Returns the choice and an iterator of (text chunk, defects in that chunk).
    """
    sample = stream.read(SAMPLE_SIZE)
    first = sample + stream.read(max(0, chunk_size - len(sample)))
    complete = len(first) < chunk_size
    choice = choose(sample, declared=declared, complete=complete and len(first) <= SAMPLE_SIZE)

    def chunks() -> Iterator[tuple[str, list[Defect]]]:
        decoder = codecs.getincrementaldecoder(choice.codec)(_HANDLER_NAME)
        recorder = _Recorder(file, charset=choice.charset)
        data = first[choice.bom_length :]
        recorder.consumed = choice.bom_length
        nul = sample.find(b"\x00")
        if nul != -1 and not choice.charset.startswith(("utf-16", "utf-32")):
            # Text has no NUL bytes: this is most likely not text.  It is
            # scanned all the same (nothing is lost), and the reader is told.
            recorder.defects.append(Defect(
                "binary-content", f"a NUL byte: this does not look like {choice.charset} text; scanned anyway",
                file=file, position=nul))
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
                summary = recorder.summary()
                if summary is not None:
                    defects.append(summary)
                yield text, defects
                return
            yield text, defects
            data = stream.read(chunk_size)
            final = not data

    return choice, chunks()
