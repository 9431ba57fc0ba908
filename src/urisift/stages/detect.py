"""Detection steps of the charset chain (``charset.choose``), for bytes that
carry no byte-order mark and no declaration: UTF-16/32 without a BOM (where
the NUL bytes fall), ISO-2022 (its escape sequences), UTF-8 (the sample
decodes), and chardet's guess with its confidence.  Pure functions of a
sample; no I/O.
"""

from __future__ import annotations


def utf8_prefix_ok(sample: bytes, complete: bool) -> bool:
    try:
        sample.decode("utf-8")
        return True
    except UnicodeDecodeError as exc:
        # a character cut by the end of the sample is not evidence against UTF-8
        return not complete and exc.start >= len(sample) - 3 and exc.reason == "unexpected end of data"


# ISO-2022 designations (RFC 1468, RFC 1557): 7-bit text that passes for ASCII
# unless the escape sequences are recognized
_ISO_2022 = ((b"\x1b$B", "iso-2022-jp"), (b"\x1b$@", "iso-2022-jp"), (b"\x1b(J", "iso-2022-jp"),
             (b"\x1b$)C", "iso-2022-kr"))


def iso_2022(sample: bytes) -> str | None:
    """ISO-2022-JP or -KR when the sample holds one of their designations."""
    if b"\x1b" not in sample:
        return None
    for escape, label in _ISO_2022:
        if escape in sample:
            return label
    return None


def bomless_utf16_32(sample: bytes) -> str | None:
    """UTF-16 or UTF-32 without a byte-order mark, told by where the NUL bytes
    fall (the high bytes of Latin and most BMP text), then checked by decoding."""
    n = len(sample) - len(sample) % 4
    if n < 16 or b"\x00" not in sample[:n]:
        return None
    q = n // 4
    nul = [sample[i:n:4].count(0) for i in range(4)]
    high, low = 0.9 * q, 0.1 * q
    label = None
    if nul[2] > high and nul[3] > high and nul[0] < low:
        label = "utf-32le"
    elif nul[0] > high and nul[1] > high and nul[3] < low:
        label = "utf-32be"
    elif nul[1] + nul[3] > 1.2 * q and nul[0] + nul[2] < 0.2 * q:
        label = "utf-16le"
    elif nul[0] + nul[2] > 1.2 * q and nul[1] + nul[3] < 0.2 * q:
        label = "utf-16be"
    if label is None:
        return None
    try:
        sample[:n].decode(label)
    except UnicodeDecodeError as exc:
        if exc.start < n - 4:  # a character cut by the end of the sample is no evidence
            return None
    return label


def chardet_detect(sample: bytes) -> tuple[str, float] | None:
    """The default detection step: chardet's guess and its confidence."""
    import chardet  # imported late: only inputs that are not UTF-8 pay for it

    guess = chardet.detect(sample)
    encoding = guess.get("encoding")
    if not encoding or encoding.lower().startswith(("utf-16", "utf-32")):
        # chardet takes a few NUL bytes in binary junk for UTF-16; text that
        # really is UTF-16/32 without a BOM, bomless_utf16_32 has already told
        return None
    return encoding, float(guess.get("confidence") or 0.0)


#: a detector's guess below this confidence falls through to the default
#: (chardet 7 guesses windows-1250 at 0.13 for short French Latin-1 text)
MIN_CONFIDENCE = 0.2
