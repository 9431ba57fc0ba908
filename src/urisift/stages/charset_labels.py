"""Charset labels (the decoding step of ARCHITECTURE.md, How one input flows): the name urisift reports for a
label a container or the content declares, and the Python codec behind a
registered name (the IANA / WHATWG spellings where Python's differ)."""

from __future__ import annotations

import codecs
import re
from functools import lru_cache

# Python codec names whose registered (IANA / WHATWG) spelling differs, and back.
_REGISTERED_NAMES = {
    "cp932": "windows-31j", "cp949": "windows-949", "cp874": "windows-874", "mac-roman": "macintosh",
    "mac-cyrillic": "x-mac-cyrillic", "shift_jis": "shift_jis", "utf-16-le": "utf-16le",
    "utf-16-be": "utf-16be", "utf-32-le": "utf-32le", "utf-32-be": "utf-32be", "ascii": "us-ascii",
}
CODEC_FOR = {registered: codec for codec, registered in _REGISTERED_NAMES.items()}


@lru_cache(maxsize=1024)  # a mail archive names a handful of charsets, part after part
def normalize_label(label: str) -> str | None:
    """The name urisift reports for a charset label: the registered spelling,
    lower case (``windows-1252``, ``iso-8859-15``, ``euc-jp``, ``ibm866``),
    or None when Python has no codec for the label."""
    label = label.strip().strip("\"'").lower()
    if not label:
        return None
    try:
        info = codecs.lookup(label)
    except (LookupError, ValueError):  # ValueError: a NUL in the label (RFC 2231 lets one through)
        # a label of the WHATWG Encoding Standard's that Python does not know
        # (x-gbk, iso-8859-8-i, x-mac-roman ...): what a browser or a mail
        # reader built on one decodes with, where Python has that codec
        whatwg = whatwg_codec(label)
        if whatwg is None:
            return None
        info = codecs.lookup(whatwg)
    if not getattr(info, "_is_text_encoding", True):
        return None  # a codec that is no charset (base64, quopri, hex, rot13, zlib): bytes.decode refuses it
    name = info.name
    if name in _REGISTERED_NAMES:
        return _REGISTERED_NAMES[name]
    if name.startswith("cp125"):
        return "windows-" + name[2:]
    if name.startswith("iso8859-"):
        return "iso-8859-" + name[8:]
    if name.startswith("iso2022_"):
        return "iso-2022-" + name[8:].replace("_", "-")
    if name[:2] == "cp" and name[2:].isdigit() and _has_codec("ibm" + name[2:]):
        return "ibm" + name[2:]  # cp437, cp855, cp866 ... are IBM code pages (cp720, which Python has under
        # no ibm name, keeps its own: the name reported must find its codec again)
    return name.replace("_", "-")


def _has_codec(label: str) -> bool:
    try:
        codecs.lookup(label)
    except LookupError:
        return False
    return True


def whatwg_codec(label: str) -> str | None:
    """The Python codec of the WHATWG encoding a label names ("get an
    encoding", Encoding Standard §4.2), or None (no such label, or an
    encoding Python has no codec for: x-user-defined, replacement)."""
    import webencodings

    encoding = webencodings.lookup(label) if "\x00" not in label else None
    if encoding is None:
        return None
    try:
        return codecs.lookup(encoding.codec_info.name).name
    except LookupError:
        return None


@lru_cache(maxsize=1024)
def codec_name(name: str) -> str:
    """The Python codec behind a registered charset name."""
    return codecs.lookup(CODEC_FOR.get(name, name)).name


# ASCII-compatible codecs read ASCII bytes as themselves; stateful ones do not
# (ISO-2022's escapes, UTF-7's "+", HZ's "~{" are ASCII), and this probe,
# holding each of those, tells them apart
_ASCII_PROBE = bytes(range(128)) + b"~{a~}+AGE-\x1b$B\x1b(B\x1b$)C\x0e\x0f"


@lru_cache(maxsize=256)
def reads_ascii_as_itself(codec: str) -> bool:
    """Whether ``codec`` decodes every ASCII byte string to the same characters."""
    try:
        return _ASCII_PROBE.decode(codec) == _ASCII_PROBE.decode("ascii")
    except (UnicodeDecodeError, LookupError):
        return False


@lru_cache(maxsize=64)
def never_starting(codec: str) -> tuple[re.Pattern[bytes], str] | None:
    """The bytes that start no character of ``codec`` whatever follows them (at a character's start,
    each is an error of its own, one byte long), as a pattern of a run of them, and the reason the
    decoder gives for each; None when there are none, or when what a byte starts may depend on the
    bytes before it (a codec that does not read ASCII as itself: ISO-2022, HZ and UTF-7 shift, a
    UTF-16 byte is half a unit).  UTF-8's are its continuation bytes, C0, C1 and F5-FF (RFC 3629 §3).
    Told by decoding each pair of bytes (:func:`_probed`), once a codec."""
    if codec == "utf-8":
        return _UTF_8_NEVER_STARTING  # (the commonest, known: not probed)
    return _probed(codec) if reads_ascii_as_itself(codec) else None


_UTF_8_NEVER_STARTING = (re.compile(rb"[\x80-\xc1\xf5-\xff]+"), "invalid start byte")


def _probed(codec: str) -> tuple[re.Pattern[bytes], str] | None:
    decoder = codecs.getincrementaldecoder(codec)("strict")
    never: list[int] = []
    reasons: set[str] = set()
    for first in range(256):
        said: set[str] = set()
        for second in range(256):
            decoder.reset()
            try:
                decoder.decode(bytes((first, second)), False)
            except UnicodeDecodeError as exc:
                if exc.start == 0 and exc.end == 1:
                    said.add(exc.reason)
                    continue
            break  # (it decodes, starts a longer character, or fails past its first byte)
        else:
            never.append(first)
            reasons |= said
    if not never or len(reasons) != 1:
        return None
    return re.compile(b"[" + b"".join(re.escape(bytes((byte,))) for byte in never) + b"]+"), reasons.pop()
