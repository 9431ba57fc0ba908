"""What an input holds, told from its first bytes and its name (``--kind
auto``).  Pure functions of a sample; no I/O.

Signatures are of two strengths, and the name sits between them:

1. *unmistakable* content wins over any name: WARC/ARC magic, ``%PDF-``, a
   ZIP package of office parts, an mbox envelope line of RFC 4155's shape
   (``From `` sender asctime-date), an RFC 5322 heading with the ``Date``
   and ``From`` fields §3.6 requires, ``<?xml`` and its root element, a
   document that opens with ``<!DOCTYPE html`` or ``<html``;
2. the *name*: ``robots.txt``, an extension of a kind (``.css``, ``.rss``,
   ``.eml`` ..., Markdown's ``.md``, reStructuredText's ``.rst``, AsciiDoc's
   ``.adoc``, Org's ``.org``, ``.tex``, ``.bib``), and the names of plain
   text (``.txt``, ``.log`` ...), which mean text;
3. *weak* content, for an input whose name says nothing (standard input, a
   file without a known extension): the other HTML signatures of WHATWG
   MIME Sniffing §7.1 (``<p``, ``<a``, ``<!--`` ...), the root element of a
   feed, sitemap, OPML or SVG document without its XML declaration, a style
   sheet's first rule or at-rule, robots.txt's first line.

Weak content never overrides a name: a Markdown file that starts with an
HTML comment is text, and so is a line beginning ``From now on`` (text read
as text loses nothing it holds; the same text read as another kind can).
An input with no name whose first bytes are markup of no kind told here is
read as text, and :func:`doubt` says so.
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple

from ..model import Kind
from ..uri import patterns

#: an Apple Mail message file's first line: the message's length in bytes
_EMLX_LENGTH = re.compile(rb"[ \t]*\d{1,12}[ \t]*\r?\n")
#: what a WARC or an ARC file starts with
WARC_STARTS = (b"WARC/", b"filedesc://")
#: a Compound File's first eight bytes (MS-CFB §2.2), which an Outlook .msg is (MS-OXMSG §2.1)
CFB_SIGNATURE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
#: a TNEF stream's first four bytes, 0x223E9F78 little-endian (MS-OXTNEF §2.1.3.1)
TNEF_SIGNATURE = b"\x78\x9f\x3e\x22"
#: a PST's first four bytes (MS-PST §2.2.2.6: dwMagic)
PST_SIGNATURE = b"!BDN"

#: the most leading bytes any signature is looked for in: what is past it is
#: never looked at, so that sniffing costs the same whatever the input's size
SAMPLE = 4096

# RFC 5322 §3.6: a header field is a name of printable ASCII but ":" and a colon;
# continuation lines start with white space.  Bounded per line: linear.
_HEADER_LINE = patterns.compile(rb"[!-9;-~]{1,76}:")
_DAY = rb"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
_MONTH = rb"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
_TIME = rb"\d{1,2}:\d{2}(?::\d{2})?"
# RFC 4155 §2: "From " the envelope sender (an addr-spec, MAILER-DAEMON, or "-" as
# some agents write), white space, then the date in asctime form ("Thu Jan  1
# 00:00:00 1970", a zone before the year at times); the RFC 5322 form some
# writers use ("Mon, 3 Mar 2003 10:00:00") too.  Every form holds a time of day:
# "From now on, the docs live at ..." has none, and is a line of text.
_ENVELOPE = patterns.compile(
    rb"From \S{1,300}(?: \S{1,64}){0,2}?[ \t]+(?:" + _DAY + rb",?[ \t]+" + _MONTH + rb"[ \t]+\d{1,2}[ \t]+" + _TIME
    + rb"|(?:" + _DAY + rb",?[ \t]+)?\d{1,2}[ \t-]" + _MONTH + rb"[ \t-]\d{2,4}[ \t]+" + _TIME + rb")(?:[ \t]|\r?$)")
# WHATWG MIME Sniffing §7.1, "the HTML signatures": a tag name, then a tag-terminating byte
_HTML_SIGNATURE = patterns.compile(
    rb"<(?:!doctype html|html|head|script|iframe|h1|div|font|table|a|style|title|b|body|br|p|!--)[ >]", re.IGNORECASE)
# the two of them that open a whole document, not a fragment a note may begin with
_HTML_DOCUMENT = patterns.compile(rb"<(?:!doctype html|html)[ \t\r\n>]", re.IGNORECASE)
_EXTENSIONS = {
    ".html": Kind.HTML, ".htm": Kind.HTML, ".xhtml": Kind.XML, ".xht": Kind.XML, ".shtml": Kind.HTML,
    ".eml": Kind.MAIL, ".msg": Kind.MSG, ".mht": Kind.MAIL, ".mhtml": Kind.MAIL,
    ".mbox": Kind.MBOX, ".mbx": Kind.MBOX,
    ".warc": Kind.WARC, ".arc": Kind.WARC,
    ".css": Kind.CSS,
    ".xml": Kind.XML, ".atom": Kind.XML, ".rss": Kind.XML, ".rdf": Kind.XML, ".svg": Kind.XML, ".opml": Kind.XML,
    ".pdf": Kind.PDF,
    ".docx": Kind.OFFICE, ".xlsx": Kind.OFFICE, ".pptx": Kind.OFFICE, ".docm": Kind.OFFICE, ".xlsm": Kind.OFFICE,
    ".pptm": Kind.OFFICE, ".odt": Kind.OFFICE, ".ods": Kind.OFFICE, ".odp": Kind.OFFICE,
    # the names of plain text: text, whatever markup they begin with (only unmistakable content overrides them)
    ".txt": Kind.TEXT, ".text": Kind.TEXT,
    ".log": Kind.TEXT,
}
# Markdown, whatever markup it begins with (R Markdown, Quarto and MDX are Markdown with code chunks)
_EXTENSIONS.update(dict.fromkeys((".md", ".markdown", ".mdown", ".mkd", ".mkdn", ".mdwn", ".mdx", ".qmd", ".rmd"),
                                 Kind.MARKDOWN))
_EXTENSIONS[".ipynb"] = Kind.NOTEBOOK
_EXTENSIONS.update(dict.fromkeys((".rst", ".rest"), Kind.RST))
_EXTENSIONS.update(dict.fromkeys((".adoc", ".asciidoc", ".asc"), Kind.ASCIIDOC))
_EXTENSIONS[".org"] = Kind.ORG
_EXTENSIONS.update(dict.fromkeys((".tex", ".latex", ".ltx"), Kind.LATEX))
_EXTENSIONS[".bib"] = Kind.BIBTEX
_EXTENSIONS.update(dict.fromkeys((".wiki", ".mediawiki", ".wikitext"), Kind.WIKITEXT))
_EXTENSIONS[".emlx"] = Kind.EMLX  # (and .partial.emlx)
_EXTENSIONS.update(dict.fromkeys((".ics", ".ical", ".icalendar", ".ifb", ".vcs"), Kind.CALENDAR))
_EXTENSIONS.update(dict.fromkeys((".csv", ".tsv", ".tab"), Kind.CSV))  # (RFC 4180 §3; IANA's tab-separated-values)
_EXTENSIONS.update(dict.fromkeys((".vcf", ".vcard"), Kind.VCARD))
_EXTENSIONS[".tnef"] = Kind.TNEF  # (and winmail.dat, by its whole name)
_EXTENSIONS.update(dict.fromkeys((".pst", ".ost"), Kind.PST))
_EXTENSIONS[".epub"] = Kind.EPUB
_EXTENSIONS.update(dict.fromkeys((".zip", ".tar", ".tgz", ".tbz", ".tbz2", ".txz"), Kind.ARCHIVE))
# images, read for the codes drawn in them with --qr (and passed over as binary without it)
_EXTENSIONS.update(dict.fromkeys((".png", ".apng", ".jpg", ".jpeg", ".jpe", ".jfif", ".gif", ".bmp", ".dib", ".tif",
                                  ".tiff", ".webp"), Kind.IMAGE))
#: the signatures of the images the image reader decodes (PNG, JPEG, GIF, TIFF; WebP's RIFF form type at byte 8):
#: no text starts so; BMP's "BM" could, and is told by its name only
_IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"II*\x00", b"MM\x00*")
_XHTML_NAMESPACE = b"http://www.w3.org/1999/xhtml"
# the first element of an XML document, after its prolog (declaration, comments, doctype, PIs)
_XML_ROOT = patterns.compile(rb"<([A-Za-z_][\w.:-]*)")
# root elements (local names, lower case) that no note or page begins with: the XML family's readers
_XML_ROOTS = frozenset({b"rss", b"feed", b"rdf", b"urlset", b"sitemapindex", b"opml", b"svg", b"mediawiki"})
# CSS Syntax 3: what a style sheet may begin with.  An at-rule of CSS, or a
# rule: a selector (names, classes, ids, combinators, attribute selectors,
# pseudo-classes with their arguments; no "=" or "(" of its own, as code has),
# "{", then a declaration "name: value" ended by ";" or "}".  Bounded: linear.
_CSS_AT_RULE = patterns.compile(
    rb"@(?:charset|import|namespace|media|font-face|supports|page|(?:-webkit-)?keyframes|layer|container|"
    rb"property|counter-style|font-feature-values|-moz-document)\b", re.IGNORECASE)
# (each class taken possessively: a pseudo-class's name that the class of selector characters could go on
# with split every way there is, and 568 bytes of prose with colons took 0.4 s a name tried)
_CSS_RULE = patterns.compile(
    rb"((?:[-\w.#*>+~,\s%]|\[[^\]\n]{0,200}+\]|::?[-\w]{1,40}+\([^)\n]{0,200}+\)|::?[-\w]{1,40}+|\\.){1,500}?)"
    rb"\{\s*+(?:--|-?[A-Za-z_])[-\w]{0,60}+\s*+:[^;{}]{0,2000}+[;}]")
_CSS_COMMENTS = patterns.compile(rb"(?:\s|/\*.{0,4000}?\*/)*", re.DOTALL)
# robots.txt (RFC 9309 §2.2): its groups' lines, after comments and blank lines
_ROBOTS = patterns.compile(rb"(?:[ \t]*(?:#[^\n]{0,1000})?\r?\n){0,50}[ \t]*(?:user-agent|sitemap)[ \t]*:",
                           re.IGNORECASE)
# the start of markup: an element's name, then white space, "/" or ">" (not "<URL:...>", "<https://...",
# "<mailto:...>" nor "<joe@...>", which text holds)
_MARKUP = patterns.compile(rb"<(?:[!?]|[A-Za-z][\w.-]{0,60}[\s/>])")


#: signs of the markup kinds that are read as text when no name says them (a document on standard
#: input): (the kind, its name, what was seen, the pattern), the more specific first.  Only a note
#: comes of them (text read as text loses nothing); --kind reads the document as that markup.
_MARKUP_SIGNS = tuple((kind, what, seen, patterns.compile(pattern, re.MULTILINE)) for kind, what, seen, pattern in (
    (Kind.LATEX, "LaTeX", "a \\documentclass or \\begin{document}", rb"^[ \t]*\\(?:documentclass|begin\{document\})"),
    (Kind.BIBTEX, "BibTeX", "an @entry{", rb"^[ \t]*@(?i:article|book|inproceedings|incollection|misc|online|"
                                             rb"techreport|phdthesis|mastersthesis|manual|proceedings)[ \t]*[{(]"),
    (Kind.ORG, "Org", "a #+ keyword line", rb"^#\+(?i:title|author|options|begin_[a-z]+|startup|setupfile):"
                                             rb"?(?=[ \t\r\n])"),
    (Kind.ASCIIDOC, "AsciiDoc", "a document title and attribute lines", rb"\A= \S[^\n]*\n(?::[\w-]+:[^\n]*\n)+"),
    (Kind.RST, "reStructuredText", "a directive or a hyperlink target", rb"^\.\. (?:[a-z][\w-]*::|_[^:\n]+:)"),
    (Kind.MARKDOWN, "Markdown", "an ATX heading, a fenced block, an inline link or a link reference definition",
     rb"^(?:#{1,6}[ \t]+\S|```|~~~|\[[^\]\n]+\]:[ \t]*\S)|\]\([^)\s]+\)"),
))


def _markup_sign(start: bytes) -> tuple[Kind, str, str] | None:
    for kind, what, seen, pattern in _MARKUP_SIGNS:
        if pattern.search(start):
            return kind, what, seen
    return None


def _past_comments(start: bytes) -> bytes:
    """What follows the HTML comments a sample opens with (all of them, and the white space
    between), or ``b""`` when a comment does not end in the sample."""
    while start.startswith(b"<!--"):
        end = start.find(b"-->", 4)
        if end == -1:
            return b""
        start = start[end + 3:].lstrip(b" \t\r\n\x0c")
    return start


class Sniffed(NamedTuple):
    """What an input holds, and, when that is a guess worth saying, why."""

    kind: Kind
    doubt: str | None = None


def _xml_root(start: bytes) -> bytes | None:
    """The root element's name of a document that starts with markup (XML
    1.0 §2.8: after the prolog's declaration, comments, doctype and
    processing instructions), lower case; None when the sample ends before it
    (a comment, declaration or instruction that does not close in it).

    Every turn of the loop moves ``position`` past the markup it looked at,
    or returns: it ends within one pass over the sample."""
    position = 0
    while position < len(start):
        at = start.find(b"<", position)
        if at == -1:
            return None
        if start.startswith(b"<!--", at):
            close = start.find(b"-->", at + 4)  # (XML 1.0 §2.5: "<!-->" does not close itself)
            if close == -1:
                return None
            position = close + 3
        elif start.startswith((b"<?", b"<!"), at):
            close = start.find(b">", at + 2)
            if close == -1:
                return None
            position = close + 1
        else:
            m = _XML_ROOT.match(start, at)
            return None if m is None else m.group(1).lower()
    return None


def _is_message(head: bytes) -> bool:
    """RFC 5322 headers up to the first blank line, with the two fields §3.6
    requires of every message: ``Date`` and ``From``."""
    names: set[bytes] = set()
    start = 0
    while start != -1:  # (the lines split(b"\n") gives, not split whole: most heads fail on their first)
        end = head.find(b"\n", start)
        line = (head[start:] if end == -1 else head[start:end]).rstrip(b"\r")
        start = end if end == -1 else end + 1
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


def _is_envelope(line: bytes) -> bool:
    """Whether ``line`` is an mbox envelope line of RFC 4155's shape."""
    return _ENVELOPE.match(line) is not None


def _unmistakable(head: bytes, start: bytes) -> Kind | None:
    """The kind content says whatever the name (1. in the module doc)."""
    if head.startswith(WARC_STARTS):
        return Kind.WARC
    if _is_envelope(head[:head.find(b"\n") if b"\n" in head else len(head)]):
        return Kind.MBOX
    if _is_message(head):
        return Kind.MAIL
    count = _EMLX_LENGTH.match(head)
    if count is not None and _is_message(head[count.end():]):
        return Kind.EMLX  # Apple Mail's: the message's byte count on a line of its own, then the message
    if head.startswith(b"%PDF-"):  # PDF 32000-1 §7.5.2
        return Kind.PDF
    if head.startswith(CFB_SIGNATURE):  # MS-CFB §2.2; which Compound Files are messages, the reader tells
        return Kind.MSG
    if head.startswith(TNEF_SIGNATURE):  # MS-OXTNEF §2.1.3.1
        return Kind.TNEF
    if head.startswith(PST_SIGNATURE) and head[8:10] in (b"SM", b"SO", b"SA"):  # MS-PST §2.2.2.6: dwMagic, wMagicClient
        return Kind.PST
    opening = start[:16].upper()
    if opening.startswith(b"BEGIN:VCALENDAR"):  # RFC 5545 §3.4
        return Kind.CALENDAR
    if opening.startswith(b"BEGIN:VCARD"):  # RFC 6350 §6.1.1
        return Kind.VCARD
    if head.startswith(b"PK\x03\x04") and head[30:38] == b"mimetype" and b"application/epub+zip" in head[38:90]:
        return Kind.EPUB  # OCF 3.3 §4.2.6: its first member, stored, is "mimetype", holding the media type
    if head.startswith(b"PK\x03\x04") and (b"[Content_Types].xml" in head or b"mimetypeapplication/vnd.oasis." in head):
        return Kind.OFFICE  # an OPC package (its content types part), an ODF one (its mimetype member first)
    if _HTML_DOCUMENT.match(start):
        return Kind.HTML
    if start.startswith(b"<?xml"):
        root = _xml_root(start)
        if root is not None:
            # an XML document whose root is in the XHTML namespace is XHTML, which a
            # browser parses as XML; an <html> in no namespace is HTML
            if root.rpartition(b":")[2] == b"html" and _XHTML_NAMESPACE not in start:
                return Kind.HTML
            return Kind.XML
    return None


def is_image(head: bytes) -> bool:
    """Whether ``head`` starts an image of a format the image reader decodes, by its signature."""
    return head.startswith(_IMAGE_MAGIC) or (head.startswith(b"RIFF") and head[8:12] == b"WEBP")


def kind_by_name(name: str | None) -> Kind | None:
    """The kind a file's name says (2. in the module doc), or None."""
    return _by_name(name)


def _by_name(name: str | None) -> Kind | None:
    if not name or name == "-":
        return None
    base = os.path.basename(name).lower()
    if base == "robots.txt":
        return Kind.ROBOTS
    if base in ("winmail.dat", "win.dat"):
        return Kind.TNEF
    if base.endswith((".tar.gz", ".tar.bz2", ".tar.xz")):
        return Kind.ARCHIVE
    return _EXTENSIONS.get(os.path.splitext(base)[1])


def _archive(head: bytes) -> Kind | None:
    """An archive by its first bytes, after the name (an office file whose first member is
    compressed is told by its name: .odt, .docx): any other ZIP (an EPUB too, for now: its
    members by their names), a tar (POSIX ustar and GNU tar: ``ustar`` at byte 257)."""
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")) or head[257:262] == b"ustar":
        return Kind.ARCHIVE
    return None


def _weak(start: bytes) -> Kind | None:
    """The kind content suggests when no name says one (3. in the module doc)."""
    if start.startswith(b"<"):
        root = _xml_root(start)
        if root is not None and root.rpartition(b":")[2] in _XML_ROOTS:
            return Kind.XML
        if _HTML_SIGNATURE.match(start):
            return Kind.HTML
        return None
    if _ROBOTS.match(start):
        return Kind.ROBOTS
    at = _CSS_COMMENTS.match(start)
    rest = start[at.end():] if at is not None else start
    if _CSS_AT_RULE.match(rest):
        return Kind.CSS
    rule = _CSS_RULE.match(rest)
    if rule is not None and rule.group(1).strip() and rule.group(1).rstrip()[-1:] not in (b":", b","):
        return Kind.CSS
    return None


def sniff(head: bytes, name: str | None = None) -> Sniffed:
    """The kind of content that starts with ``head`` (see the module doc),
    and a note when an input with no name was read as text though it
    begins with markup.  Only the first :data:`SAMPLE` bytes are looked at."""
    head = head[:SAMPLE]
    # signatures may follow white space (and a UTF-8 BOM)
    start = head[3:] if head.startswith(b"\xef\xbb\xbf") else head
    start = start.lstrip(b" \t\r\n\x0c")
    if name and name.lower().endswith((".xhtml", ".xht")) and start[:1] == b"<":
        return Sniffed(Kind.XML)  # named as XHTML, which a browser parses as XML, whatever it starts with
    # (an image's signature after the name: a PNG named .msg stays what its name says, as before images were read)
    kind = _unmistakable(head, start) or _by_name(name) or (Kind.IMAGE if is_image(head) else None) or \
        _archive(head) or _weak(start)
    nameless = name in (None, "", "-")  # standard input: only its bytes can say what it is
    if kind is Kind.HTML and nameless and start.startswith(b"<!--"):
        # an HTML comment is also how a Markdown file often begins (a licence, a note to editors): what
        # follows it tells; read as text, a Markdown document's <https://...> autolinks are found
        rest = _past_comments(start)
        sign = None if not rest or rest.startswith(b"<") else _markup_sign(rest)
        if sign is not None and sign[0] is Kind.MARKDOWN:
            return Sniffed(Kind.TEXT, "it begins with an HTML comment, and then looks like Markdown (" + sign[2]
                           + "); read as plain text: --kind markdown reads it as Markdown, --kind html as HTML")
    if kind is not None:
        return Sniffed(kind)
    if nameless and (sign := _markup_sign(start)) is not None:
        return Sniffed(Kind.TEXT, f"it looks like {sign[1]} ({sign[2]}); read as plain text: --kind {sign[0].value} "
                                  f"reads it as {sign[1]}")
    if _by_name(name) is None and _MARKUP.match(start):
        return Sniffed(Kind.TEXT, "it begins with markup of no kind told by its first bytes (HTML, a feed, a sitemap, "
                       "OPML, SVG, a MediaWiki dump); read as plain text: --kind html or --kind xml reads it as markup")
    return Sniffed(Kind.TEXT)


def sniff_kind(head: bytes, name: str | None = None) -> Kind:
    """The kind of content that starts with ``head`` (see :func:`sniff`)."""
    return sniff(head, name).kind


#: the signatures of binary media a directory walk passes over (images, audio, video, fonts, programs,
#: archives urisift does not open), after the kinds it reads and compressed inputs have been told apart
_BINARY_MEDIA = (
    b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"RIFF", b"II*\x00", b"MM\x00*", b"BM",
    b"\x00\x00\x01\x00", b"ID3", b"OggS", b"fLaC", b"wOFF", b"wOF2", b"OTTO", b"\x00\x01\x00\x00", b"\x7fELF",
    b"MZ", b"\xca\xfe\xba\xbe", b"\x00asm", b"PK\x03\x04", b"7z\xbc\xaf\x27\x1c", b"Rar!\x1a\x07",
    b"SQLite format 3\x00", b"\x1aE\xdf\xa3",
)
#: the kinds a name may say that are text, where a NUL byte means the file is not what its name says
_TEXT_KINDS = frozenset({Kind.TEXT, Kind.MARKDOWN})
#: what a walk reads although its bytes are not text: compressed inputs (decompressed, then sniffed), and
#: text in UTF-16 or UTF-32 (its BOM says so; the charset chain decodes it)
_READ_THOUGH_BINARY = (b"\x1f\x8b", b"BZh", b"\xfd7zXZ\x00", b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")


def binary(head: bytes, name: str | None = None) -> bool:
    """Whether a file that starts with ``head`` is binary, as ripgrep and
    GNU grep tell it in a directory walk: a NUL byte in its first bytes, or
    the signature of an image, a font, a program ...; a kind urisift reads
    (a WARC, a PDF, an office file; a message whose name says so, which may
    hold a binary part), a compressed input and text with a UTF-16 or
    UTF-32 BOM are not."""
    if name is not None and name.endswith(".msf"):
        return True  # Thunderbird's index of the mbox file beside it (Mork): nothing of the messages' own
    if head.startswith(_READ_THOUGH_BINARY):
        return False
    if head.startswith(CFB_SIGNATURE):
        # a Compound File named as what it is (a .doc, an .xls, Thumbs.db) holds no message: passed over;
        # one named .msg, or with no extension, may be one
        return name is not None and os.path.splitext(os.path.basename(name))[1].lower() not in ("", ".msg")
    named = _by_name(name)
    if named is not None and named not in _TEXT_KINDS and named is not Kind.IMAGE:
        return False  # (an image is binary: a walk reads it only with --qr, which asks walking.walk so)
    start = head.lstrip(b" \t\r\n\x0c")
    if _unmistakable(head, start) is not None:
        return False
    return head.startswith(_BINARY_MEDIA) or b"\x00" in head
