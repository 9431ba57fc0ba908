"""What an input holds, told from its first bytes, then its name (``--kind
auto``): the magic numbers and signatures of each kind a reader takes.  Pure
functions of a sample; no I/O."""

from __future__ import annotations

import os
import re

from .compressed import WARC_STARTS
from .model import Kind

# RFC 5322 §3.6: a header field is a name of printable ASCII but ":" and a colon;
# continuation lines start with white space.  Bounded per line: linear.
_HEADER_LINE = re.compile(rb"[!-9;-~]{1,76}:")
# RFC 4155: "From " the envelope sender, then the date
_MBOX_FROM = re.compile(rb"From \S{1,300} +\S")
# WHATWG MIME Sniffing §7.1, "the HTML signatures": a tag name, then a tag-terminating byte
_HTML_SIGNATURE = re.compile(
    rb"<(?:!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--)[ >]",
    re.IGNORECASE)
_EXTENSIONS = {
    ".html": Kind.HTML, ".htm": Kind.HTML, ".xhtml": Kind.XML, ".xht": Kind.XML, ".shtml": Kind.HTML,
    ".eml": Kind.MAIL, ".msg": Kind.MAIL, ".mht": Kind.MAIL, ".mhtml": Kind.MAIL,
    ".mbox": Kind.MBOX, ".mbx": Kind.MBOX,
    ".warc": Kind.WARC, ".arc": Kind.WARC,
    ".css": Kind.CSS,
    ".xml": Kind.XML, ".atom": Kind.XML, ".rss": Kind.XML, ".rdf": Kind.XML, ".svg": Kind.XML, ".opml": Kind.XML,
    ".pdf": Kind.PDF,
    ".docx": Kind.OFFICE, ".xlsx": Kind.OFFICE, ".pptx": Kind.OFFICE, ".docm": Kind.OFFICE, ".xlsm": Kind.OFFICE,
    ".pptm": Kind.OFFICE, ".odt": Kind.OFFICE, ".ods": Kind.OFFICE, ".odp": Kind.OFFICE,
}
_XHTML_NAMESPACE = b"http://www.w3.org/1999/xhtml"
# the first element of an XML document, after its prolog (declaration, comments, doctype, PIs)
_XML_ROOT = re.compile(rb"<([A-Za-z_][\w.:-]*)")


def _xml_root(start: bytes) -> bytes | None:
    """The root element's name of a document that starts ``<?xml`` (XML 1.0
    §2.8), lower case; None when the sample ends before it."""
    position = 0
    while True:
        position = start.find(b"<", position)
        if position == -1:
            return None
        if start.startswith((b"<?", b"<!"), position):
            end = start.find(b"-->", position) + 3 if start.startswith(b"<!--", position) else start.find(
                b">", position) + 1
            if end <= 0:
                return None
            position = end
            continue
        m = _XML_ROOT.match(start, position)
        return None if m is None else m.group(1).lower()


def _is_message(head: bytes) -> bool:
    """RFC 5322 headers up to the first blank line, with the two fields §3.6
    requires of every message: ``Date`` and ``From``."""
    names: set[bytes] = set()
    for line in head.split(b"\n"):
        line = line.rstrip(b"\r")
        if not line:
            break
        if line[:1] in (b" ", b"\t"):
            if not names:
                return False
            continue
        m = _HEADER_LINE.match(line)
        if m is None:
            return False
        names.add(m.group()[:-1].lower())
    return {b"date", b"from"} <= names


def sniff_kind(head: bytes, name: str | None = None) -> Kind:
    """The kind of content that starts with ``head``: its bytes first, then
    the file name's extension, else plain text."""
    if head.startswith(WARC_STARTS):
        return Kind.WARC
    if _MBOX_FROM.match(head):
        return Kind.MBOX
    if _is_message(head):
        return Kind.MAIL
    if head.startswith(b"%PDF-"):  # PDF 32000-1 §7.5.2
        return Kind.PDF
    if head.startswith(b"PK\x03\x04") and (b"[Content_Types].xml" in head or b"mimetypeapplication/vnd.oasis."
                                             in head):
        return Kind.OFFICE  # an OPC package (its content types part), an ODF one (its mimetype member first)
    # the HTML signature may follow white space (and a UTF-8 BOM)
    start = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    start = start.lstrip(b" \t\r\n\x0c")
    if name and name.lower().endswith((".xhtml", ".xht")) and start[:1] == b"<":
        return Kind.XML  # named as XHTML, which a browser parses as XML (issue 38), whatever it starts with
    if _HTML_SIGNATURE.match(start):
        return Kind.HTML
    if start.startswith(b"<?xml"):
        root = _xml_root(start)
        if root is not None:
            # an XML document whose root is in the XHTML namespace is XHTML, which a
            # browser parses as XML (issue 38); an <html> in no namespace is HTML
            if root.rpartition(b":")[2] == b"html" and _XHTML_NAMESPACE not in start:
                return Kind.HTML
            return Kind.XML
    if name:
        base = os.path.basename(name).lower()
        if base == "robots.txt":
            return Kind.ROBOTS
        ext = os.path.splitext(base)[1]
        if ext in _EXTENSIONS:
            return _EXTENSIONS[ext]
    return Kind.TEXT
