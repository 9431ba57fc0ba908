"""Outlook's files written from their specifications, for the tests (no writer of them is a test dependency):

- :func:`compound_file`: a Compound File, version 3 (MS-CFB §2): 512-byte sectors, the streams under
  4,096 bytes in the mini stream (§2.6.3), each storage's children chained as a tree of right siblings
  (every node black, in the order §2.6.4 compares names);
- :func:`msg`: an Outlook message file (MS-OXMSG §2.1) of given properties and attachments;
- :func:`tnef`: a TNEF stream (MS-OXTNEF §2.1.3) of given attributes, its checksums right unless asked;
- :func:`property_list`: MS-OXTNEF §2.1.3.4's encoding of MAPI properties;
- :func:`encapsulated`: HTML encapsulated in RTF (MS-OXRTFEX);
- run as a script, the corpus's samples: ``corpora/mail/report.msg`` and ``corpora/mail/winmail.dat``.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path

_SECTOR, _MINI, _CUTOFF = 512, 64, 4096
_FREE, _END, _FATSECT, _DIFSECT, _NOSTREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFC, 0xFFFFFFFF
SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def _key(name: str) -> tuple[int, str]:
    return len(name), name.upper()  # MS-CFB §2.6.4: shorter names first, then upper case


def compound_file(streams: dict[str, bytes]) -> bytes:
    """A Compound File holding ``streams`` (paths with ``/`` between storages; storages made as needed)."""
    # the tree of storages: path -> children names
    entries: list[dict[str, object]] = [{"name": "Root Entry", "type": 5, "path": ""}]
    index = {"": 0}
    children: dict[str, list[str]] = {"": []}
    for path in streams:
        parts = path.split("/")
        for depth in range(1, len(parts) + 1):
            sub = "/".join(parts[:depth])
            if sub in index:
                continue
            parent = "/".join(parts[:depth - 1])
            is_stream = depth == len(parts)
            index[sub] = len(entries)
            entries.append({"name": parts[depth - 1], "type": 2 if is_stream else 1, "path": sub})
            children.setdefault(parent, []).append(sub)
            if not is_stream:
                children.setdefault(sub, [])
    for entry in entries:
        entry.update(left=_NOSTREAM, right=_NOSTREAM, child=_NOSTREAM, start=_END, size=0)
    for parent, kids in children.items():
        ordered = sorted(kids, key=lambda p: _key(p.rsplit("/", 1)[-1]))
        if ordered:
            entries[index[parent]]["child"] = index[ordered[0]]
            for a, b in zip(ordered, ordered[1:], strict=False):
                entries[index[a]]["right"] = index[b]
    # the mini stream and its FAT; the big streams
    mini = bytearray()
    minifat: list[int] = []
    big: list[tuple[int, bytes]] = []
    for path, data in streams.items():
        entry = entries[index[path]]
        entry["size"] = len(data)
        if not data:
            continue
        if len(data) < _CUTOFF:
            first = len(mini) // _MINI
            count = -(-len(data) // _MINI)
            entry["start"] = first
            minifat.extend(list(range(first + 1, first + count)) + [_END])
            mini += data + b"\x00" * (count * _MINI - len(data))
        else:
            big.append((index[path], data))
    directory = bytearray()
    sectors = {
        "dir": -(-len(entries) * 128 // _SECTOR),
        "minifat": -(-len(minifat) * 4 // _SECTOR),
        "mini": -(-len(mini) // _SECTOR),
    }
    data_sectors = sectors["dir"] + sectors["minifat"] + sectors["mini"] + sum(-(-len(d) // _SECTOR) for _, d in big)
    # the FAT's sectors, and the DIFAT's that name those past the header's 109 (MS-CFB §2.5), at the file's end
    fat_count, difat_count = 1, 0
    while True:
        while fat_count * 128 < data_sectors + fat_count + difat_count:
            fat_count += 1
        needed = max(0, -(-(fat_count - 109) // 127))
        if needed == difat_count:
            break
        difat_count = needed
    fat = [_FATSECT] * fat_count
    body = bytearray()

    def place(data: bytes, count: int) -> int:
        first = len(fat)
        fat.extend(list(range(first + 1, first + count)) + [_END] if count else [])
        body.extend(data + b"\x00" * (count * _SECTOR - len(data)))
        return first if count else _END

    # the directory is written last (its entries need the starts), so its sectors are reserved first
    dir_start = len(fat)
    fat.extend(list(range(dir_start + 1, dir_start + sectors["dir"])) + [_END])
    body.extend(b"\x00" * (sectors["dir"] * _SECTOR))
    minifat_start = place(b"".join(struct.pack("<I", v) for v in minifat), sectors["minifat"])
    mini_start = place(bytes(mini), sectors["mini"])
    entries[0]["start"], entries[0]["size"] = (mini_start, len(mini)) if mini else (_END, 0)
    for at, data in big:
        entries[at]["start"] = place(data, -(-len(data) // _SECTOR))
    for entry in entries:
        name = str(entry["name"]).encode("utf-16-le") + b"\x00\x00"
        directory += name.ljust(64, b"\x00") + struct.pack(
            "<HBBIII16sIQQIQ", len(name), entry["type"], 1, entry["left"], entry["right"], entry["child"],
            b"\x00" * 16, 0, 0, 0, entry["start"], entry["size"])
    while len(directory) % _SECTOR:
        directory += b"\x00" * 64 + struct.pack("<HBBIII16sIQQIQ", 0, 0, 0, _NOSTREAM, _NOSTREAM, _NOSTREAM,
                                                b"\x00" * 16, 0, 0, 0, 0, 0)
    body[0:len(directory)] = directory
    difat_start = len(fat)
    fat.extend([_DIFSECT] * difat_count)
    rest = list(range(109, fat_count))
    for number in range(difat_count):
        named = rest[number * 127:(number + 1) * 127]
        named += [_FREE] * (127 - len(named)) + [difat_start + number + 1 if number + 1 < difat_count else _END]
        body.extend(b"".join(struct.pack("<I", v) for v in named))
    fat_bytes = b"".join(struct.pack("<I", v) for v in fat)
    fat_bytes += struct.pack("<I", _FREE) * (fat_count * 128 - len(fat))
    difat = list(range(min(fat_count, 109))) + [_FREE] * (109 - min(fat_count, 109))
    header = SIGNATURE + b"\x00" * 16 + struct.pack(
        "<HHHHH6sIIIIIIIII", 0x3E, 3, 0xFFFE, 9, 6, b"\x00" * 6, 0, fat_count, fat_count + 0, 0, _CUTOFF,
        minifat_start if minifat else _END, sectors["minifat"], difat_start if difat_count else _END, difat_count) \
        + b"".join(struct.pack("<I", v) for v in difat)
    # (the directory's first sector is the first after the FAT's: fat_count)
    assert dir_start == fat_count
    return header + fat_bytes + bytes(body)


# -- MS-OXMSG ----------------------------------------------------------------------------

PT_LONG, PT_STRING8, PT_UNICODE, PT_BINARY, PT_OBJECT = 0x0003, 0x001E, 0x001F, 0x0102, 0x000D


@dataclass
class Attachment:
    """An attachment of :func:`msg`: its properties ({(id, type): value}), or an embedded message."""

    properties: dict[tuple[int, int], object] = field(default_factory=dict)
    embedded: Message | None = None


@dataclass
class Message:
    properties: dict[tuple[int, int], object] = field(default_factory=dict)
    attachments: list[Attachment] = field(default_factory=list)


def _value(ptype: int, value: object) -> bytes:
    if ptype == PT_UNICODE:
        return str(value).encode("utf-16-le") + b"\x00\x00"
    if ptype == PT_STRING8:
        return (value if isinstance(value, bytes) else str(value).encode("cp1252")) + b"\x00"
    assert isinstance(value, bytes)
    return value


def _object(properties: dict[tuple[int, int], object], header: int, prefix: str, out: dict[str, bytes]) -> None:
    fixed = bytearray(b"\x00" * header)
    for (pid, ptype), value in properties.items():
        tag = pid << 16 | ptype
        if ptype in (PT_UNICODE, PT_STRING8, PT_BINARY):
            data = _value(ptype, value)
            out[f"{prefix}__substg1.0_{tag:08X}"] = data
            fixed += struct.pack("<IIII", tag, 6, len(data), 0)
        else:
            fixed += struct.pack("<IIi", tag, 6, int(value)) + b"\x00" * 4  # type: ignore[call-overload]
    out[f"{prefix}__properties_version1.0"] = bytes(fixed)


def _message_streams(message: Message, prefix: str, header: int, out: dict[str, bytes]) -> None:
    _object(message.properties, header, prefix, out)
    for number, attachment in enumerate(message.attachments):
        where = f"{prefix}__attach_version1.0_#{number:08X}/"
        properties = dict(attachment.properties)
        if attachment.embedded is not None:
            properties[(0x3705, PT_LONG)] = 5
            _message_streams(attachment.embedded, f"{where}__substg1.0_3701000D/", 24, out)
        _object(properties, 8, where, out)


def msg(message: Message) -> bytes:
    """The ``.msg`` file of ``message`` (MS-OXMSG §2.1)."""
    streams: dict[str, bytes] = {}
    _message_streams(message, "", 32, streams)
    streams["__nameid_version1.0/__substg1.0_00020102"] = b""
    return compound_file(streams)


# -- MS-OXTNEF ---------------------------------------------------------------------------

def property_list(properties: dict[tuple[int, int], object]) -> bytes:
    """MAPI properties as a TNEF property list (MS-OXTNEF §2.1.3.4)."""
    out = bytearray(struct.pack("<I", len(properties)))
    for (pid, ptype), value in properties.items():
        out += struct.pack("<I", pid << 16 | ptype)
        if ptype in (PT_UNICODE, PT_STRING8, PT_BINARY, PT_OBJECT):
            data = _value(ptype, value) if ptype != PT_OBJECT else b"\x00" * 16 + value  # type: ignore[operator]
            out += struct.pack("<II", 1, len(data)) + data + b"\x00" * (-len(data) % 4)
        else:
            out += struct.pack("<i", int(value))  # type: ignore[call-overload]
    return bytes(out)


def attribute(level: int, identifier: int, data: bytes, checksum: int | None = None, length: int | None = None
              ) -> bytes:
    """One TNEF attribute (§2.1.3.2); ``checksum``/``length``: wrong ones, when asked."""
    total = sum(data) & 0xFFFF if checksum is None else checksum
    return struct.pack("<BII", level, identifier, len(data) if length is None else length) + data + \
        struct.pack("<H", total)


def tnef(*attributes: bytes) -> bytes:
    """A TNEF stream of ``attributes`` (the signature, a key, the version attribute, then them)."""
    return b"\x78\x9f\x3e\x22" + struct.pack("<H", 0x0101) + attribute(1, 0x00089006, b"\x00\x00\x01\x00") + \
        b"".join(attributes)


MSG_PROPS, ATTACHMENT, REND_DATA, ATTACH_DATA, ATTACH_TITLE, BODY = (
    0x00069003, 0x00069005, 0x00069002, 0x0006800F, 0x00018010, 0x0002800C)


# -- the corpus's samples (corpora/mail/report.msg, corpora/mail/winmail.dat) --------------

def encapsulated(html: str) -> bytes:
    """HTML encapsulated in RTF as Outlook writes it (MS-OXRTFEX §2.1.3.1): each tag in an
    ``htmltag`` group, the text between them as RTF text, RTF of its own in ``\\htmlrtf``."""
    import re

    out = [rb"{\rtf1\ansi\ansicpg1252\fromhtml1 \fbidis \deff0{\fonttbl{\f0\fswiss Arial;}}" b"\r\n"
           rb"{\colortbl\red0\green0\blue0;}" b"\r\n" rb"\uc1\pard\plain\deftab360 \f0\fs24 "]
    for piece in re.split(r"(<[^>]*>)", html):
        if not piece:
            continue
        escaped = piece.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}").replace("\n", "\\par\r\n")
        data = "".join(c if ord(c) < 128 else f"\\u{ord(c)}?" for c in escaped).encode("ascii")
        if piece.startswith("<"):
            out.append(rb"{\*\htmltag84 " + data + b"}")
        else:
            out.append(rb"\htmlrtf {\htmlrtf0 " + data + rb"}\htmlrtf0 ")
    out.append(b"}")
    return b"".join(out)


def _compressed(rtf: bytes) -> bytes:
    import compressed_rtf  # (a test dependency: the writer of compressed RTF the field uses)

    return bytes(compressed_rtf.compress(rtf, compressed=True))


REPORT_HTML = (
    '<html><head><base href="https://portal.example.com/account/"></head><body>\n'
    '<p>Dear customer, your mailbox is <b>full</b>. <a href="verify?id=83412&amp;step=1">Verify now</a>\n'
    'or it will be closed. <img src="cid:logo@portal.example.com" alt="Portal"></p>\n'
    '<p>Support: <a href="mailto:help@portal.example.com">help@portal.example.com</a> \u00b7 '
    '<a href="https://portal.example.com/privacy">Privacy</a></p>\n</body></html>\n')
REPORT_HEADERS = (
    "Received: from mx.portal.example.com (mx.portal.example.com [192.0.2.25])\r\n"
    "\tby mail.example.org; Tue, 1 Dec 2026 09:12:44 +0000\r\n"
    "From: Portal Support <support@portal.example.com>\r\nTo: ann@example.org\r\n"
    "Subject: Your mailbox is full\r\nDate: Tue, 1 Dec 2026 09:12:40 +0000\r\n"
    "Message-ID: <4f1c.9e2@portal.example.com>\r\n"
    "List-Unsubscribe: <https://portal.example.com/unsubscribe?u=ann%40example.org>\r\n"
    "MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"b1\"\r\n")


def report() -> Message:
    """A reported phishing message as Outlook keeps it: its HTML, its RTF (which encapsulates the same
    HTML) and its plain text, the headers it came with, an attached page, an inline logo and the
    message it forwarded."""
    forwarded = Message({
        (0x001A, PT_UNICODE): "IPM.Note", (0x0037, PT_UNICODE): "Re: invoice",
        (0x1035, PT_UNICODE): "<a71.2@billing.example.net>",
        (0x1000, PT_UNICODE): "Please pay the invoice at https://billing.example.net/pay/2026-114 today.\r\n"})
    return Message(
        {(0x001A, PT_UNICODE): "IPM.Note", (0x0037, PT_UNICODE): "Your mailbox is full",
         (0x007D, PT_UNICODE): REPORT_HEADERS, (0x3FDE, PT_LONG): 65001, (0x3FFD, PT_LONG): 1252,
         (0x1013, PT_BINARY): REPORT_HTML.encode("utf-8"), (0x1009, PT_BINARY): _compressed(encapsulated(REPORT_HTML)),
         (0x1000, PT_UNICODE): "Dear customer, your mailbox is full. Verify now\r\n"
                               "<https://portal.example.com/account/verify?id=83412&step=1>\r\n"},
        [Attachment({(0x3707, PT_UNICODE): "invoice.html", (0x370E, PT_UNICODE): "text/html",
                     (0x3705, PT_LONG): 1,
                     (0x3701, PT_BINARY): b'<html><body><form action="https://collect.example.net/post">'
                                          b'<a href="https://portal.example.com.verify.example.net/">Open</a>'
                                          b"</form></body></html>\n"}),
         Attachment({(0x3707, PT_UNICODE): "logo.png", (0x370E, PT_UNICODE): "image/png", (0x3705, PT_LONG): 1,
                     (0x3712, PT_UNICODE): "logo@portal.example.com",
                     (0x3701, PT_BINARY): b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01"
                                          b"\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\x0bIDATx\x9cc\x00\x01"
                                          b"\x00\x00\x05\x00\x01\r\n-\xb4\x00\x00\x00\x00IEND\xaeB`\x82"}),
         Attachment(embedded=forwarded)])


def winmail() -> bytes:
    """A winmail.dat as Exchange sends it: the HTML body in the message's properties, an attachment."""
    html = (b'<html><body><p>The agenda is <a href="https://intranet.example.org/agenda?d=2026-12-03&amp;'
            b'r=4">here</a>.</p></body></html>')
    return tnef(
        attribute(1, 0x00078008, b"IPM.Microsoft Mail.Note\x00"),
        attribute(1, MSG_PROPS, property_list({(0x1013, PT_BINARY): html, (0x3FDE, PT_LONG): 65001,
                                               (0x1035, PT_STRING8): "<c81@exchange.example.org>"})),
        attribute(2, REND_DATA, b"\x01\x00\xff\xff\xff\xff\x00\x00\x00\x00\x00\x00\x00\x00"),
        attribute(2, ATTACH_TITLE, b"notes.txt\x00"),
        attribute(2, ATTACH_DATA, b"Minutes: https://intranet.example.org/minutes/2026-11\r\n"))


def write(folder: Path) -> None:
    (folder / "report.msg").write_bytes(msg(report()))
    (folder / "winmail.dat").write_bytes(winmail())


if __name__ == "__main__":
    write(Path(__file__).resolve().parents[2] / "corpora" / "mail")
