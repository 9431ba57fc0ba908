"""One model of a MAPI message, whatever file it was kept in (ARCHITECTURE.md, readers/: the readers).

Outlook keeps a message as MAPI properties (MS-OXPROPS): a ``.msg`` file holds them in the
streams of a Compound File (MS-OXMSG), a ``winmail.dat`` in the attributes of a TNEF stream
(MS-OXTNEF), a PST in its property contexts (MS-PST).  Each of those three readers fills the same
frozen values, :class:`MapiMessage` and :class:`MapiAttachment`, and one reader of the model
(:mod:`urisift.readers.mail.mapi.reading`) turns them into records and nested content, so that a
message reads the same from any of them.

A property's value is kept as the bytes it was stored as (MS-OXCDATA §2.11.1): a string in
UTF-16LE (``PtypString``) or in the message's code page (``PtypString8``), an integer in
little-endian order; it is decoded only when it is asked for.
"""

from __future__ import annotations

import codecs
from collections.abc import Mapping
from dataclasses import dataclass, field

# property types (MS-OXCDATA §2.11.1)
PT_SHORT = 0x0002
PT_LONG = 0x0003
PT_BOOLEAN = 0x000B
PT_OBJECT = 0x000D
PT_STRING8 = 0x001E
PT_UNICODE = 0x001F
PT_BINARY = 0x0102

# property identifiers (MS-OXPROPS), by the names of their canonical properties
PID_MESSAGE_CLASS = 0x001A  # PidTagMessageClass
PID_SUBJECT = 0x0037
PID_TRANSPORT_MESSAGE_HEADERS = 0x007D  # PidTagTransportMessageHeaders: the RFC 5322 heading it came with
PID_BODY = 0x1000  # PidTagBody: the plain text
PID_RTF_COMPRESSED = 0x1009  # PidTagRtfCompressed (MS-OXRTFCP)
PID_HTML = 0x1013  # PidTagHtml (PidTagBodyHtml when it is a string)
PID_BODY_CONTENT_LOCATION = 0x1014  # PidTagBodyContentLocation
PID_INTERNET_MESSAGE_ID = 0x1035  # PidTagInternetMessageId
PID_BUSINESS_HOME_PAGE = 0x3A51  # a contact's
PID_PERSONAL_HOME_PAGE = 0x3A50
PID_INTERNET_CODEPAGE = 0x3FDE  # PidTagInternetCodepage: the code page of the HTML body
PID_MESSAGE_CODEPAGE = 0x3FFD  # PidTagMessageCodepage: the code page of PtypString8 values
PID_ATTACH_DATA = 0x3701  # PidTagAttachDataBinary, or PidTagAttachDataObject (an embedded message)
PID_ATTACH_FILENAME = 0x3704
PID_ATTACH_METHOD = 0x3705
PID_ATTACH_LONG_FILENAME = 0x3707
PID_ATTACH_MIME_TAG = 0x370E
PID_ATTACH_CONTENT_ID = 0x3712
PID_ATTACH_CONTENT_LOCATION = 0x3713
PID_DISPLAY_NAME = 0x3001

#: the properties the reader of the model uses: the only ones a file's readers take out of it (a message
#: holds hundreds; reading each of a .msg's streams cost more than reading its bodies)
WANTED = frozenset({PID_MESSAGE_CLASS, PID_TRANSPORT_MESSAGE_HEADERS, PID_BODY, PID_RTF_COMPRESSED, PID_HTML,
                    PID_BODY_CONTENT_LOCATION, PID_INTERNET_MESSAGE_ID, PID_INTERNET_CODEPAGE, PID_MESSAGE_CODEPAGE,
                    PID_ATTACH_DATA, PID_ATTACH_FILENAME, PID_ATTACH_METHOD, PID_ATTACH_LONG_FILENAME,
                    PID_ATTACH_MIME_TAG, PID_ATTACH_CONTENT_ID, PID_ATTACH_CONTENT_LOCATION, PID_DISPLAY_NAME})

# PidTagAttachMethod's values (MS-OXCMSG §2.2.2.9)
ATTACH_BY_VALUE = 1
ATTACH_EMBEDDED_MSG = 5

#: Windows code pages whose Python codec is not ``cp`` and the number (MS-OXPROPS names them;
#: the rest, 1250-1258, 437, 850, 874, 932, 936, 949, 950, are Python's ``cpNNN`` as they are)
_CODE_PAGES = {1200: "utf-16-le", 1201: "utf-16-be", 20127: "ascii", 20866: "koi8-r", 21866: "koi8-u",
               28591: "latin-1", 28592: "iso8859-2", 28593: "iso8859-3", 28594: "iso8859-4", 28595: "iso8859-5",
               28596: "iso8859-6", 28597: "iso8859-7", 28598: "iso8859-8", 28599: "iso8859-9", 28603: "iso8859-13",
               28605: "iso8859-15", 50220: "iso2022-jp", 50221: "iso2022-jp", 50222: "iso2022-jp", 51932: "euc-jp",
               51936: "gb2312", 51949: "euc-kr", 52936: "hz", 54936: "gb18030", 65000: "utf-7", 65001: "utf-8",
               10000: "mac-roman"}
#: what PtypString8 values are read in when the message names no code page (Outlook's default, Western)
DEFAULT_CODE_PAGE = 1252


def codec_of(code_page: int | None) -> str | None:
    """The Python codec of a Windows code page number, or None when Python has none for it."""
    if code_page is None:
        return None
    name = _CODE_PAGES.get(code_page, f"cp{code_page}")
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def tag(pid: int, ptype: int) -> int:
    """A property tag: the identifier in the high 16 bits, the type in the low (MS-OXCDATA §2.9)."""
    return pid << 16 | ptype


@dataclass(frozen=True, slots=True)
class Properties:
    """The properties of one MAPI object: tag → the value's bytes as stored (see the module doc),
    and the codec its ``PtypString8`` values are in."""

    values: Mapping[int, bytes] = field(default_factory=dict)
    codec: str = "cp1252"

    def text(self, pid: int) -> str | None:
        """The string property ``pid`` (``PtypString`` first, else ``PtypString8``), or None when absent."""
        wide = self.values.get(tag(pid, PT_UNICODE))
        if wide is not None:
            return wide.decode("utf-16-le", "replace").rstrip("\x00")
        narrow = self.values.get(tag(pid, PT_STRING8))
        if narrow is not None:
            return narrow.decode(self.codec, "replace").rstrip("\x00")
        return None

    def binary(self, pid: int) -> bytes | None:
        """The binary property ``pid``, or None when absent."""
        return self.values.get(tag(pid, PT_BINARY))

    def integer(self, pid: int) -> int | None:
        """The 32-bit integer property ``pid`` (``PtypInteger32``), or None when absent or short."""
        value = self.values.get(tag(pid, PT_LONG))
        if value is None or len(value) < 4:
            return None
        return int.from_bytes(value[:4], "little", signed=True)


@dataclass(frozen=True, slots=True)
class MapiAttachment:
    """An attachment object (MS-OXCMSG §2.2.2): its properties, and the message it holds when it is
    an embedded message (attach method 5)."""

    properties: Properties
    embedded: MapiMessage | None = None

    @property
    def method(self) -> int | None:
        return self.properties.integer(PID_ATTACH_METHOD)

    @property
    def name(self) -> str | None:
        """Its file name: the long one, else the 8.3 one, else its display name."""
        for pid in (PID_ATTACH_LONG_FILENAME, PID_ATTACH_FILENAME, PID_DISPLAY_NAME):
            value = self.properties.text(pid)
            if value:
                return value
        return None

    @property
    def data(self) -> bytes | None:
        """The bytes of an attachment by value."""
        return self.properties.binary(PID_ATTACH_DATA)

    @property
    def media_type(self) -> str | None:
        """Its MIME tag (PidTagAttachMimeTag), lower case and without parameters."""
        value = self.properties.text(PID_ATTACH_MIME_TAG)
        if not value:
            return None
        return value.split(";", 1)[0].strip().lower() or None

    @property
    def content_id(self) -> str | None:
        return self.properties.text(PID_ATTACH_CONTENT_ID)


@dataclass(frozen=True, slots=True)
class MapiMessage:
    """A message object (MS-OXCMSG §2.2.1): its properties and attachments, and what was wrong in
    the file where they were read (each read past: the rest of the message stands)."""

    properties: Properties
    attachments: tuple[MapiAttachment, ...] = ()
    problems: tuple[str, ...] = ()
    # the RTF body already decompressed, where the file's reader did it (libpff, in C); else None, and the
    # reader of the model decompresses PidTagRtfCompressed
    rtf: bytes | None = None

    @property
    def message_class(self) -> str | None:
        return self.properties.text(PID_MESSAGE_CLASS)

    @property
    def html(self) -> bytes | str | None:
        """The HTML body: bytes in the code page of :attr:`html_codec` (``PtypBinary``, as Outlook
        writes it), or text when it was kept as a string."""
        value = self.properties.binary(PID_HTML)
        return value if value is not None else self.properties.text(PID_HTML)

    @property
    def html_codec(self) -> str | None:
        """The codec of the HTML body's bytes (PidTagInternetCodepage), None when it names none."""
        return codec_of(self.properties.integer(PID_INTERNET_CODEPAGE))
