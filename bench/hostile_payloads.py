"""The hostile payloads of issue 35, at the sizes the issue measured, built
for bench_hostile.py's children (each returns the input's bytes)."""

from __future__ import annotations

import io
import json
import struct
import zipfile
import zlib
from collections.abc import Iterator
from email.message import EmailMessage

MB = 1_000_000


def css_url(size: int = 10 * MB) -> bytes:
    """A style sheet with one url() of ``size`` bytes, and a link after it."""
    return b"a{background:url(" + b"a" * size + b")} b{background:url(next.png)}"


def css_string(size: int = 10 * MB) -> bytes:
    return b'a{content:"' + b"a" * size + b'"} b{background:url(next.png)}'


def css_escapes(size: int = 10 * MB) -> bytes:
    return b"a{background:url(" + b"\\41 " * (size // 4) + b")} b{background:url(next.png)}"


def warc_response(uri: bytes, media: bytes, body: bytes) -> bytes:
    http = b"HTTP/1.1 200 OK\r\nContent-Type: " + media + b"\r\nContent-Length: %d\r\n\r\n" % len(body) + body
    return (b"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri + b"\r\nWARC-Date: 2024-06-03T12:00:00Z\r\n"
            b"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\n"
            b"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n" % len(http)
            + http + b"\r\n\r\n")


_PAGE = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href='/p'>x</a>"


def arc_broken(count: int = 12_000) -> bytes:
    """An ARC file of ``count`` records, the middle one's length 5 bytes too long."""
    fields = b"1 0 Example\nURL IP-address Archive-date Content-type Archive-length\n"
    head = b"filedesc://x.arc 0.0.0.0 20240603120000 text/plain %d\n" % len(fields) + fields + b"\n"
    return _joined(head, (b"http://h%d.example/ 10.0.0.1 20240603120000 text/html %d\n"
                          % (n, len(_PAGE) + (5 if n == count // 2 else 0)) + _PAGE + b"\n" for n in range(count)), b"")


def _warc_record(n: int, version: bytes, end: bytes) -> bytes:
    return (b"WARC/" + version + b"\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:%d>\r\n"
            b"WARC-Target-URI: http://h%d.example/\r\nContent-Type: application/http; msgtype=response\r\n"
            b"Content-Length: %d\r\n\r\n" % (n, n, len(_PAGE))) + _PAGE + end


def warc_without_blank_lines(count: int = 12_000, version: bytes = b"1.0") -> bytes:
    """``count`` WARC records, every other one without the blank line after it."""
    return _joined(b"", (_warc_record(n, version, b"" if n % 2 else b"\r\n\r\n") for n in range(count)), b"")


def draft_warc_broken(count: int = 12_000) -> bytes:
    """``count`` WARC/0.18 records, the middle one's Content-Length 5 bytes too long."""
    middle = _warc_record(count // 2, b"0.18", b"\r\n\r\n").replace(
        b"Content-Length: %d" % len(_PAGE), b"Content-Length: %d" % (len(_PAGE) + 5))
    return _joined(b"", (middle if n == count // 2 else _warc_record(n, b"0.18", b"\r\n\r\n")
                         for n in range(count)), b"")


def css_in_warc(size: int = 10 * MB) -> bytes:
    return warc_response(b"http://h.example/site.css", b"text/css", css_url(size))


def nested_bases(depth: int = 250, size: int = 40_000) -> bytes:
    """``depth`` nested entries, each with an xml:base of ``size`` bytes (10 MB)."""
    value = b"a/" * (size // 2)
    return (b'<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://f.example/">'
            + (b'<entry xml:base="' + value + b'">') * depth + b'<link href="x"/>' + b"</entry>" * depth
            + b'<link href="y"/></feed>')


def _joined(head: bytes, rows: object, tail: bytes) -> bytes:
    """head, rows, tail as one bytes, built in pieces (the builder's own peak
    memory is the child's too, and should be the input's size, not a list's)."""
    out = io.BytesIO()
    out.write(head)
    for row in rows:  # type: ignore[attr-defined]
        out.write(row)
    out.write(tail)
    return out.getvalue()


def sibling_bases(count: int = 1_000_000, based: bool = True) -> bytes:
    """``count`` entries, each with its own link (one href repeated hid what a base costs:
    a tail's cache answered every record) and, ``based``, its own xml:base."""
    return _joined(b'<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://f.example/">',
                   ((b'<entry xml:base="e%d/"><link href="x%d"/></entry>\n' if based else
                     b'<entry id="e%d"><link href="x%d"/></entry>\n') % (i, i) for i in range(count)), b"</feed>")


def dense_html(count: int = 1_100_000, prefix: bytes = b"", middle: bytes = b"", suffix: bytes = b"") -> bytes:
    """``count`` distinct links (26 MB), after ``prefix``, with ``middle`` half way, before ``suffix``."""
    half = count // 2
    return _joined(b"<html><body>" + prefix,
                   (b'<a href="/p%d">x</a>\n' % i + (middle if i == half else b"") for i in range(count)),
                   suffix + b"</body></html>")


#: prefixes a page's first pass once read wrongly, so that the page was parsed whole (1.5 GB)
SVG_TITLE, SVG_STYLE = b"<svg><title>x</svg><p>", b"<svg><style>x</svg><p>"
WIDE_TAG = b"<a " + b" ".join(b'data-a%d="%d"' % (i, i) for i in range(1100)) + b">x</a>"


def atom_xhtml(count: int = 1_000_000) -> bytes:
    return _joined(b'<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://f.example/"><entry>'
                   b'<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">',
                   (b'<a href="p%d">x</a>\n' % i for i in range(count)), b"</div></content></entry></feed>")


def _zip(members: list[tuple[str, bytes]]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        for name, data in members:
            package.writestr(name, data)
    return out.getvalue()


def _relationships(targets: list[bytes]) -> bytes:
    return (b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            + b"".join(b'<Relationship Id="r%d" Target="%s" TargetMode="External"/>' % (i, t)
                       for i, t in enumerate(targets)) + b"</Relationships>")


def rels(count: int = 1_000_000) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("[Content_Types].xml", b"<Types/>")
        with package.open("word/_rels/document.xml.rels", "w") as member:
            member.write(b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">')
            for i in range(count):
                member.write(b'<Relationship Id="r%d" Target="http://r%d.example/" TargetMode="External"/>' % (i, i))
            member.write(b"</Relationships>")
    return out.getvalue()


def _pdf(objects: dict[int, bytes]) -> bytes:
    out = b"%PDF-1.7\n"
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n"
    size = max(objects) + 1
    xref = len(out)
    out += b"xref\n0 %d\n" % size + b"".join(
        (b"%010d 00000 n \n" % offsets[n]) if n in offsets else b"0000000000 65535 f \n" for n in range(size))
    return out + b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, xref)


def pdf_shared(pages: int = 10_000, operators: int = 900_000) -> bytes:
    """``pages`` pages drawn by one content stream of ``operators`` text operators (about 10 KB)."""
    squeezed = zlib.compress(b"BT /F1 12 Tf 72 712 Td " + b"(a) Tj " * operators + b"ET", 9)
    objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>",
               2: b"<< /Type /Pages /Kids [" + b" ".join(b"%d 0 R" % (10 + i) for i in range(pages))
               + b"] /Count %d >>" % pages,
               3: b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(squeezed) + squeezed + b"\nendstream",
               4: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", 5: b"<< /Font << /F1 4 0 R >> >>"}
    for i in range(pages):
        objects[10 + i] = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R /Resources 5 0 R >>"
    return _pdf(objects)


def pdf_bad_objects(pages: int = 2_000) -> bytes:
    """Pages whose /Annots hold a dangling entry and a number beside a link,
    and whose contents hold a bomb stream beside their own."""
    bomb = zlib.compress(b"0" * 200_000_000, 9)
    objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>", 3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               4: b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(bomb) + bomb + b"\nendstream"}
    kids = []
    for i in range(pages):
        page, text, link = 10 + 3 * i, 11 + 3 * i, 12 + 3 * i
        kids.append(b"%d 0 R" % page)
        words = b"BT /F1 12 Tf 72 700 Td (see http://t%d.example/) Tj ET" % i
        objects[page] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
                         b" /Contents [4 0 R %d 0 R] /Annots [999999 0 R 42 %d 0 R] >>" % (text, link))
        objects[text] = b"<< /Length %d >>\nstream\n" % len(words) + words + b"\nendstream"
        objects[link] = (b"<< /Type /Annot /Subtype /Link /Rect [0 0 9 9] "
                         b"/A << /S /URI /URI (http://p%d.example/) >> >>" % i)
    objects[2] = b"<< /Type /Pages /Kids [" + b" ".join(kids) + b"] /Count %d >>" % pages
    return _pdf(objects)


def _patched(package: bytes, member: bytes, flags: int | None, method: int | None) -> bytes:
    data = bytearray(package)
    for signature, flag_at, method_at, length_at, name_at in ((b"PK\x03\x04", 6, 8, 26, 30),
                                                              (b"PK\x01\x02", 8, 10, 28, 46)):
        at = data.find(signature)
        while at != -1:
            length = struct.unpack_from("<H", data, at + length_at)[0]
            if bytes(data[at + name_at:at + name_at + length]) == member:
                if flags is not None:
                    struct.pack_into("<H", data, at + flag_at, flags)
                if method is not None:
                    struct.pack_into("<H", data, at + method_at, method)
            at = data.find(signature, at + 4)
    return bytes(data)


def mbox_of_unreadable_members(messages: int = 3_000) -> bytes:
    """An mbox whose messages carry office files with one member encrypted, or
    compressed with implode (6) or AES (99), and a link in each text part."""
    out = io.BytesIO()
    docx_type = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
    for n in range(messages):
        package = _zip([("[Content_Types].xml", b"<Types/>"),
                        ("word/_rels/document.xml.rels", _relationships([b"http://lost.example/"])),
                        ("word/_rels/footer1.xml.rels", _relationships([b"http://kept%d.example/" % n]))])
        flags, method = ((1, None), (None, 6), (None, 99))[n % 3]
        message = EmailMessage()
        message["From"] = "a@example.com"
        message["Subject"] = f"message {n}"
        message.set_content(f"see http://m{n}.example/\n")
        message.add_attachment(_patched(package, b"word/_rels/document.xml.rels", flags, method),
                               maintype=docx_type.split("/")[0], subtype=docx_type.split("/")[1], filename="a.docx")
        out.write(b"From a@example.com Mon Jun  3 12:00:00 2024\n" + message.as_bytes().replace(b"\nFrom ", b"\n>From ")
                  + b"\n\n")
    return out.getvalue()


def sitemap_bad_byte(count: int = 200_000) -> bytes:
    """A sitemap of ``count`` URLs with one byte that is not UTF-8 in the first of them."""
    return _joined(b'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/'
                   b'0.9">\n<url><loc>http://s.example/\xff</loc></url>\n',
                   (b"<url><loc>http://s.example/%d</loc></url>\n" % i for i in range(count)), b"</urlset>\n")


def srcdoc_deep(depth: int = 24) -> bytes:
    page = '<a href="http://deep.example/">x</a>'
    for _ in range(depth):
        page = '<iframe srcdoc="' + page.replace("&", "&amp;").replace('"', "&quot;") + '"></iframe>'
    return (page + '<a href="http://after.example/">y</a>').encode()


# -- the guarantees before and around the readers: inflation and time budgets --------------------

def _packed(compressor: object, head: bytes, filler: bytes, size: int, tail: bytes) -> bytes:
    """``head``, ``filler`` repeated to ``size`` bytes, ``tail``, compressed a
    megabyte at a time (the builder never holds what it inflates to)."""
    out = io.BytesIO()
    out.write(compressor.compress(head))  # type: ignore[attr-defined]
    block = filler * (MB // len(filler))
    for _ in range(size // len(block)):
        out.write(compressor.compress(block))  # type: ignore[attr-defined]
    out.write(compressor.compress(tail))  # type: ignore[attr-defined]
    out.write(compressor.flush())  # type: ignore[attr-defined]
    return out.getvalue()


def _gzip() -> object:
    return zlib.compressobj(9, zlib.DEFLATED, 31)


def html_gz(size: int = 1_000 * MB) -> bytes:
    """A .html.gz of about 1 MB inflating to ``size`` bytes of one paragraph, links first and last."""
    return _packed(_gzip(), b"<html><body><a href='http://first.example/'>f</a><p>", b" ", size,
                   b"</p><a href='http://last.example/'>l</a>")


def css_xz(size: int = 2_000 * MB) -> bytes:
    """A .css.xz inflating to ``size`` bytes of one comment, a url() first and last."""
    import lzma
    return _packed(lzma.LZMACompressor(preset=9), b"a{background:url(http://first.example/a.png)}/*", b" ", size,
                   b"*/b{background:url(http://last.example/b.png)}")


def warc_gz_coded(size: int = 400 * MB) -> bytes:
    """A .warc.gz of two records: an HTML response whose Content-Encoding is
    gzip, inflating to ``size`` bytes, then one with a link."""
    coded = _packed(_gzip(), b"<a href='http://first.example/'>f</a><p>", b" ", size, b"</p>")
    big = warc_response(b"http://h.example/big", b"text/html\r\nContent-Encoding: gzip", coded)
    small = warc_response(b"http://h.example/next", b"text/html", b"<a href='http://next.example/'>n</a>")
    return _gzip_bytes(big) + _gzip_bytes(small)


def _gzip_bytes(data: bytes) -> bytes:
    compressor = _gzip()
    return compressor.compress(data) + compressor.flush()  # type: ignore[attr-defined]


def data_uri_page(size: int = 100 * MB) -> bytes:
    """A page of ``size`` bytes holding one data: link (base64 of a page), a link after it."""
    return _joined(b"<html><body><a href='data:text/html;base64,", (b"PGEgaHJlZj0ieCI+eDwvYT4K" * (MB // 24)
                                                                   for _ in range(size // MB)),
                   b"'>d</a><a href='http://after.example/'>a</a></body></html>")


def base64_html_part(size: int = 50 * MB) -> bytes:
    """A message whose HTML part is ``size`` bytes of base64 (paragraphs, a link first), a text part after it."""
    import base64
    page = b"<a href='http://first.example/'>f</a>" + b"<p>words words words</p>\n" * (size * 3 // 4 // 26)
    encoded = base64.encodebytes(page)
    return (b"From: a@example.com\nDate: Mon, 3 Jun 2024 12:00:00 +0000\nMIME-Version: 1.0\n"
            b"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/html\n"
            b"Content-Transfer-Encoding: base64\n\n" + encoded + b"\n--b\nContent-Type: text/plain\n\n"
            b"see http://after.example/\n--b--\n")


def text_links(size: int = 174 * MB) -> bytes:
    """``size`` bytes of plain text, a distinct link a line."""
    return _joined(b"", (b"see http://t%d.example/page for it\n" % i for i in range(size // 36)), b"")


def css_links(size: int = 80 * MB) -> bytes:
    """A style sheet of ``size`` bytes, a rule with a distinct url() a line."""
    return _joined(b"", (b"a%d{background:url(http://c%d.example/i.png)}\n" % (i, i) for i in range(size // 48)),
                   b"")


def mail_text_part(size: int = 34 * MB) -> bytes:
    """A message with one text part of ``size`` bytes, a distinct link a line."""
    return _joined(b"From: a@example.com\nDate: Mon, 3 Jun 2024 12:00:00 +0000\nContent-Type: text/plain\n\n",
                   (b"see http://m%d.example/page\n" % i for i in range(size // 28)), b"")


def bz2_nuls(size: int = 2_000 * MB) -> bytes:
    """A .bz2 of ``size`` NUL bytes."""
    import bz2
    return _packed(bz2.BZ2Compressor(9), b"see http://first.example/\n", b"\0", size, b"")


def markdown_definitions(count: int = 1_000_000) -> bytes:
    """A million link reference definitions, each its own label (21 MB)."""
    return b"".join(b"[d%d]: /d/%d\n" % (n, n) for n in range(count))


def markdown_link_line(count: int = 500_000) -> bytes:
    """Half a million inline links on one line, distinct (12 MB): no line break to cut at."""
    return b"".join(b"[l%d](p/%d.html) " % (n, n) for n in range(count)) + b"\n"


def notebook_cells(count: int = 100_000) -> bytes:
    """A notebook of 100,000 cells, markdown and code by turns, each with a distinct link."""
    cells = []
    for n in range(count):
        if n % 2:
            cells.append({"cell_type": "code", "source": f"get('https://api.example/{n}')", "outputs": []})
        else:
            cells.append({"cell_type": "markdown", "source": f"[cell {n}](docs/{n}.md)"})
    return json.dumps({"cells": cells, "nbformat": 4, "nbformat_minor": 5}).encode()


def rst_nested_notes(count: int = 2_000) -> bytes:
    """Notes nested 2,000 deep, each indented past the last, with a URL and an image in each."""
    return b"".join(b" " * n + b".. note:: http://n%d.example/\n\n" % n + b" " * (n + 1)
                    + b".. image:: i%d.png\n\n" % n for n in range(count))


def rst_link_line(count: int = 250_000) -> bytes:
    """250,000 embedded URIs and references to targets on one line, and the targets."""
    links = b" ".join(b"`l%d <https://l.example/%d>`_ t%d_" % (n, n, n % 1000) for n in range(count))
    targets = b"".join(b".. _t%d: https://t.example/%d\n" % (n, n) for n in range(1000))
    return links + b"\n\n" + targets


def asciidoc_delimiters(count: int = 2_000) -> bytes:
    """Comment, listing and passthrough delimiters, one of each length, none closed but by the next longer."""
    return b"".join(b"/-+"[n % 3:n % 3 + 1] * (n + 4) + b"\nhttp://d%d.example/\n" % n for n in range(count))


def asciidoc_link_line(count: int = 250_000) -> bytes:
    """250,000 URL macros with their text, and cross references, on one line."""
    return b" ".join(b"https://l.example/%d[l%d] <<s%d>>" % (n, n, n) for n in range(count)) + b"\n"


def wikitext_links(count: int = 250_000) -> bytes:
    """A million links of wikitext's four kinds (internal, file, external, a template's), distinct."""
    return b"".join(b"[[Page %d|p]] [[File:F%d.png]] [https://ext.example/%d e] {{cite web|url=https://c.example/%d}}\n"
                    % (n, n, n, n) for n in range(count))


def mediawiki_dump(pages: int = 100_000) -> bytes:
    """A MediaWiki export dump of ``pages`` pages, each of about 1,200 bytes of article-like text."""
    return b"".join(mediawiki_dump_parts(pages))


def mediawiki_dump_parts(pages: int = 100_000) -> Iterator[bytes]:
    """The same dump, a part at a time (its head, each page, its end), to write one larger than memory."""
    head = (b'<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11">\n<siteinfo>'
            b"<sitename>W</sitename><base>https://wiki.example/wiki/Main_Page</base></siteinfo>\n")
    body = (b"'''Topic %d''' is a [[subject]] of [[great interest#History|interest]] since 1900.&lt;ref&gt;"
            b"{{cite web|url=https://example.org/a/%d|title=Source|access-date=2020-01-01}}&lt;/ref&gt;\n"
            b"It is described at [https://example.com/p/%d the portal] and http://bare.example.net/x/%d too. "
            + b"Prose of the article, sentences without links, as most of an article is. " * 10
            + b"\n== History ==\n[[File:Topic %d.png|thumb|A picture]] The road.\n")
    pages_ = (b"<page><title>Topic %d</title><ns>0</ns><id>%d</id><revision><id>%d</id><text>" % (n, n, n)
              + body % (n, n, n, n, n) + b"</text></revision></page>\n" for n in range(pages))
    yield head
    yield from pages_
    yield b"</mediawiki>\n"
