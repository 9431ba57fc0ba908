"""The seed corpus of each fuzz target, built at run time from the project's
samples (``corpora/``), the shared real corpora (``../shared/corpora``, read
where they are and never copied into the project), and the scanner's
adversarial patterns (``tests/adversarial.py``) at a small size.

``python fuzz/seeds.py --out DIR`` writes ``DIR/<target>/<sha1>`` files;
``fuzz/run.py`` does it for the target it runs.  A seed longer than
``max_size`` is cut to its first ``max_size`` bytes: the fuzzer's inputs are
that short anyway, and a cut-off file is a broken input worth having.
"""

from __future__ import annotations

import argparse
import bz2
import gzip
import hashlib
import importlib.util
import io
import lzma
import os
import struct
import sys
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "corpora"
# the tests' URISIFT_SHARED (tests/conftest.py), if set: where ../shared is
SHARED = Path(os.environ.get("URISIFT_SHARED", ROOT.parent / "shared")) / "corpora"

#: at most this many seeds come from one shared collection, taken evenly
#: across it, so that the fuzzer's first pass over its corpus stays short
PER_COLLECTION = 60


def _files(root: Path, *patterns: str) -> list[Path]:
    if not root.is_dir():
        return []
    found = {p for pattern in patterns for p in root.glob(pattern) if p.is_file() and p.name != "SOURCE.md"}
    return sorted(found)


def _spread(paths: list[Path], count: int = PER_COLLECTION) -> list[Path]:
    """``count`` of ``paths`` taken at an even stride (all when fewer)."""
    if len(paths) <= count:
        return paths
    step = len(paths) / count
    return [paths[int(i * step)] for i in range(count)]


def _read(path: Path, max_size: int) -> bytes:
    with open(path, "rb") as f:
        return f.read(max_size)


def _adversarial(size: int) -> Iterator[bytes]:
    """The text scanner's backtracking traps (tests/adversarial.py), small."""
    spec = importlib.util.spec_from_file_location("_urisift_adversarial", ROOT / "tests" / "adversarial.py")
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for make in module.ADVERSARIAL.values():
        yield make(size).encode("utf-8")


def _outlook(target: str) -> Iterator[bytes]:
    """A message as Outlook keeps it, written by the tests' maker (tests/sample_makers/outlook.py): as a
    .msg (every body rendition, an attachment, an embedded message) or as a TNEF stream."""
    spec = importlib.util.spec_from_file_location("_urisift_outlook", ROOT / "tests" / "sample_makers" / "outlook.py")
    if spec is None or spec.loader is None:
        return
    make = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = make  # (its dataclasses look their module up)
    spec.loader.exec_module(make)
    payload = (rb'{\rtf1\fromhtml1{\*\htmltag <a href="https://r.example/">}x\htmlrtf {\field{\*\fldinst HYPERLINK'
               rb' "https://f.example/"}}\htmlrtf0 }')
    # uncompressed RTF (MS-OXRTFCP §2.1.3.1.1: its size, the RTF's, MELA, a CRC of 0)
    rtf = struct.pack("<II4sI", len(payload) + 12, len(payload), b"MELA", 0) + payload
    if target == "msg":
        inner = make.Message({(0x1000, make.PT_UNICODE): "inner https://i.example/"})
        yield make.msg(make.Message(
            {(0x007D, make.PT_UNICODE): "Message-ID: <a@b>\r\nContent-Base: https://b.example/\r\n",
             (0x1013, make.PT_BINARY): b'<a href="x.html">x</a>', (0x1009, make.PT_BINARY): rtf,
             (0x1000, make.PT_UNICODE): "see https://t.example/"},
            [make.Attachment({(0x3707, make.PT_UNICODE): "a.txt", (0x3701, make.PT_BINARY): b"https://a.example/"}),
             make.Attachment(embedded=inner)]))
    else:
        yield make.tnef(
            make.attribute(1, make.MSG_PROPS, make.property_list({(0x1013, make.PT_BINARY): b'<a href="h">h</a>',
                                                                  (0x1009, make.PT_BINARY): rtf})),
            make.attribute(1, make.BODY, b"https://body.example/"),
            make.attribute(2, make.REND_DATA, b"\x01\x00" + b"\xff" * 4 + b"\x00" * 8),
            make.attribute(2, make.ATTACH_TITLE, b"p.html\x00"), make.attribute(2, make.ATTACH_DATA, b"<a href=q>"))


def _mbox_slices(path: Path, max_size: int, count: int) -> Iterator[bytes]:
    """Pieces of an xz-compressed mbox, each cut at a ``From `` line, taken
    from its first megabytes (decompressed as far as needed, no further)."""
    with lzma.open(path, "rb") as f:
        head = f.read(max_size * count)
    starts = [0]
    at = head.find(b"\nFrom ", 1)
    while at != -1:
        if at + 1 - starts[-1] >= max_size // 2:
            starts.append(at + 1)
        at = head.find(b"\nFrom ", at + 1)
    for start in starts[:count]:
        yield head[start:start + max_size]


def _message_mbox(paths: list[Path], max_size: int) -> Iterator[bytes]:
    """Messages joined into small mbox archives (RFC 4155), a few a file,
    with the ``From `` lines inside their bodies left as they are, unquoted."""
    group: list[bytes] = []
    for path in paths:
        group.append(b"From fuzz@example.org Thu Jan  1 00:00:00 1970\n" + _read(path, max_size // 4) + b"\n")
        if len(group) == 3:
            yield b"".join(group)[:max_size]
            group = []
    if group:
        yield b"".join(group)[:max_size]


#: a QR code (of https://fuzz.example/q) drawn with half blocks, two modules a character (qrencode -t UTF8's form)
DRAWN = (
    " ▄▄▄▄▄▄▄ ▄▄   ▄    ▄▄▄▄▄▄▄ \n"
    " █ ▄▄▄ █ ██▀█▄█▀▄▀ █ ▄▄▄ █ \n"
    " █ ███ █ ▄▀ █▄█▄▀█ █ ███ █ \n"
    " █▄▄▄▄▄█ ▄ █ █ █ ▄ █▄▄▄▄▄█ \n"
    " ▄  ▄▄▄▄▄▄▀ ██▀█▄▄▄  ▄ ▄▄▄ \n"
    " █▀█▄▀█▄  █▄   ▀█ ▀▄▀▀█▀▀▄ \n"
    " ▀ ▄▄▀█▄▄ ▄█▀▀ █ ▀ ██ ▀▀▀█ \n"
    " ██ ▄ █▄▀▄▄█ ▀ ██▀▀  █▄▄█▄ \n"
    " █ █   ▄▄▄▄▄▄█▄ ▄▄▄▄█▄▀█▄▀ \n"
    " ▄▄▄▄▄▄▄ █▀▄▀▄▄█ █ ▄ █ ▀▀▄ \n"
    " █ ▄▄▄ █ ██▀█ █ ██▄▄▄█  ▄▄ \n"
    " █ ███ █ ▀ ▀▄▀█▀ ▄▀▀ ▄▄▄██ \n"
    " █▄▄▄▄▄█ ▄█ ███ ▄▄█ ▀▀▄▀▀█ \n"
    "                           ")


def _drawn_bitmap() -> bytes:
    """The bitmap --qr rebuilds of :data:`DRAWN` (urisift.stages.drawn)."""
    from urisift.stages.drawn import text_drawings

    return next(iter(text_drawings(DRAWN))).bitmap


def seeds(target: str, max_size: int, shared: bool = True) -> Iterator[bytes]:
    """Every seed of ``target``, at most ``max_size`` bytes each; the
    project's own alone when ``shared`` is false (the same on every machine)."""
    home = SHARED if shared else None

    def there(collection: str, *patterns: str) -> list[Path]:
        return _files(home / collection, *patterns) if home is not None else []

    project_messages = _files(PROJECT / "mail", "*.eml", "*.mhtml")
    shared_messages = (_spread(there("mime-fixtures", "**/*"))
                       + there("base-header-gems", "*.eml")
                       + _spread(there("spamassassin-2002", "**/*")))
    if target == "text":
        for path in _files(PROJECT / "text", "*.txt"):
            yield _read(path, max_size)
        yield from _adversarial(256)
        for path in _spread(there("rfc-text", "selected/*.txt"), 20):
            yield _read(path, max_size)
        for path in _spread(there("charset-samples-chardet", "**/*")):
            yield _read(path, max_size)
    elif target == "html":
        for path in _files(PROJECT / "html", "*.html"):
            yield _read(path, max_size)
        for path in _spread(there("html-readability-pages", "*/source.html")):
            yield _read(path, max_size)
        for path in _spread(there("charset-samples-chardet", "**/*.html", "**/*.htm", "**/*.xml"), 20):
            yield _read(path, max_size)
    elif target == "message":
        for path in project_messages + shared_messages:
            yield _read(path, max_size)
    elif target == "mbox":
        for path in _files(PROJECT / "mail", "*.mbox"):
            yield _read(path, max_size)
        for path in there("base-header-gems", "*.mbox"):
            yield _read(path, max_size)
        for path in there("linux-mips-1996-2007", "*.xz"):
            yield from _mbox_slices(path, max_size, 40)
        yield from _message_mbox(project_messages + _spread(shared_messages, 30), max_size)
    elif target == "warc":
        for path in _files(PROJECT / "warc", "*.warc", "*.warc.gz", "*.arc", "*.arc.gz"):
            yield _read(path, max_size)
        for path in there("warc-samples", "**/*.warc", "**/*.warc.gz", "**/*.arc", "**/*.arc.gz"):
            yield _read(path, max_size)
    elif target == "css":
        for path in _files(PROJECT / "css", "**/*.css"):
            yield _read(path, max_size)
        for path in _spread(there("html-readability-pages", "*/source.html"), 20):
            yield from _style_sheets(_read(path, 1 << 22), max_size)
    elif target == "xml":
        for path in _files(PROJECT / "xml", "*.atom", "*.rss", "*.xml", "*.opml", "*.svg"):
            yield _read(path, max_size)
        for path in _spread(there("charset-samples-chardet", "**/*.xml")):
            yield _read(path, max_size)
    elif target == "pdf":
        for path in _files(PROJECT / "pdf", "*.pdf"):
            yield _read(path, max_size)
    elif target == "office":
        for path in _files(PROJECT / "office", "*.docx", "*.xlsx", "*.odt"):
            yield _read(path, max_size)
    elif target == "markdown":
        for path in _files(PROJECT / "markdown", "*.md"):
            yield _read(path, max_size)
        for path in _spread(there("markdown-rust-book", "src/*.md"), 30):
            yield _read(path, max_size)
    elif target == "rst":
        for path in _files(PROJECT / "rst", "*.rst"):
            yield _read(path, max_size)
    elif target == "asciidoc":
        for path in _files(PROJECT / "asciidoc", "*.adoc"):
            yield _read(path, max_size)
    elif target == "org":
        for path in _files(PROJECT / "org", "*.org"):
            yield _read(path, max_size)
    elif target == "latex":
        for path in _files(PROJECT / "latex", "*.tex"):
            yield _read(path, max_size)
    elif target == "bibtex":
        for path in _files(PROJECT / "latex", "*.bib"):
            yield _read(path, max_size)
    elif target == "wikitext":
        for path in _files(PROJECT / "wiki", "*.wiki"):
            yield _read(path, max_size)
    elif target == "archive":
        # the HTML and mail samples in a ZIP, stored and deflated, and in a tar, plain and gzip'd
        members = [(p.name, _read(p, max_size // 4)) for folder in ("html", "mail")
                   for p in _files(PROJECT / folder, "*.*")]
        for method in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            packed = io.BytesIO()
            with zipfile.ZipFile(packed, "w", method) as package:
                for name, data in members:
                    package.writestr(name, data)
            yield packed.getvalue()[:max_size]
        for mode in ("w", "w:gz"):
            packed = io.BytesIO()
            with tarfile.open(fileobj=packed, mode=mode) as archive:  # type: ignore[call-overload]
                for name, data in members:
                    info = tarfile.TarInfo(name)
                    info.size = len(data)
                    archive.addfile(info, io.BytesIO(data))
            yield packed.getvalue()[:max_size]
    elif target == "emlx":
        # the project's messages as Apple Mail keeps them: the byte count, the message, a plist
        for path in project_messages:
            message = _read(path, max_size - 200)
            yield b"%-10d\n" % len(message) + message + b"<?xml version=\"1.0\"?><plist version=\"1.0\"></plist>\n"
    elif target == "calendar":
        # an invite and a contact card of the shapes the reader reads: folds, escapes, parameters, inline bytes
        yield (b"BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:see https://s.example/\\, and\\n more\r\n"
               b'ORGANIZER;CN="A: B":mailto:a@example.org\r\nURL:https://u.example/fo\r\n lded\r\n'
               b"DESCRIPTION:at https:/\r\n /d.example/x\r\nX-ALT-DESC;FMTTYPE=text/html:<a href=x>y</a>\r\n"
               b"ATTACH;FMTTYPE=text/plain;ENCODING=BASE64;VALUE=BINARY:aHR0cDovL2EuZXhhbXBsZS8=\r\n"
               b"END:VEVENT\r\nEND:VCALENDAR\r\n")
        yield (b"BEGIN:VCARD\r\nVERSION:4.0\r\nitem1.URL:https://c.example/\r\nEMAIL:a@example.org\r\n"
               b"PHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQ\r\nEND:VCARD\r\n")
    elif target in ("msg", "tnef"):
        yield from _outlook(target)
        for path in there("outlook-kept-mail", "**/*.msg" if target == "msg" else "**/*.tnef"):
            yield _read(path, max_size)
    elif target == "drawn":
        # a QR code drawn with half blocks, with full blocks two characters a module after quote marks, and
        # as a table of cells by bgcolor and by style (what --qr rebuilds); and the shapes at its bounds
        yield DRAWN.encode()
        rows = DRAWN.splitlines()
        top, bottom = {"█": "█", "▀": "█", "▄": " ", " ": " "}, {"█": "█", "▀": " ", "▄": "█", " ": " "}
        full = [("".join(half[c] * 2 for c in row)) for row in rows for half in (top, bottom)]
        yield ("> " + "\n> ".join(full)).encode()
        cells = "".join("<tr>" + "".join(f'<td bgcolor="{"#000" if c == "█" else "#fff"}"></td>' for c in row[::2])
                        + "</tr>" for row in full)
        yield f"<table>{cells}</table>".encode()
        styled = cells.replace('bgcolor="#000"', 'style="background:black"').replace('bgcolor="#fff"',
                                                                                      'style="background-color:#fff"')
        yield f"<table>{styled}</table>".encode()
        yield ("█ " * 300 + "\n").encode() * 12
        yield b"<table><tr>" + b'<td bgcolor="#000" colspan=999>' * 500
    elif target == "image":
        # the drawn code's bitmap (a PGM, as the rebuild hands it on), cut short, and with a byte flipped
        bitmap = _drawn_bitmap()
        yield bitmap[:max_size]
        yield bitmap[: len(bitmap) // 2]
        flipped = bytearray(bitmap[:max_size])
        flipped[len(flipped) // 3] ^= 0x55
        yield bytes(flipped)
    elif target == "csv":
        # tables of the shapes the reader reads: a header row, quoted cells over lines and with "", the
        # three delimiters, a quote that never closes, a CR LF table, a row wider than the rest
        yield (b'id,url,note\r\n1,https://x.example/a.html,Template\r\n2,"see https://q.example/a,b\r\n'
               b'and ""https://two.example/""",x\r\n3,www.abbr.example,\r\n')
        yield b"a;b;c\nhttps://s.example/;x;y\n\"u\";\"https://t.example/\";\n"
        yield b"name\tlink\nA\thttps://tab.example/x y\nB\t\"https://tab2.example/\n\"\n"
        yield b'1,"https://open.example/ never closes\n2,https://after.example/\n'
        yield b"x,y\n" + b"," * 100 + b"https://wide.example/\n"
    elif target == "notebook":
        for path in _files(PROJECT / "markdown", "*.ipynb"):
            yield _read(path, max_size)
    elif target == "sniff":
        # the first bytes of every kind the sniffer tells, and the shapes that once hung it
        for kind in ("html", "xml", "css", "mail", "warc", "text", "pdf"):
            for path in _files(PROJECT / kind, "*.*"):
                if not path.name.endswith(".jsonl"):
                    yield _read(path, min(max_size, 8192))
        yield b'<?xml version="1.0"?>\n<!-- licence ' + b"x" * 5000 + b" -->\n<rss><channel/></rss>\n"
        yield b"<!DOCTYPE x>\n<!-- " + b" " * 5000 + b"\n http://stdin.example/ -->\n"
    elif target in ("gzip", "bzip2", "xz"):
        # the project's samples compressed, whole, cut short, and with a byte flipped
        for data in _compressible(max_size):
            packed = _compressed(target, data)
            yield packed[:max_size]
            yield packed[: len(packed) // 2]
            flipped = bytearray(packed[:max_size])
            flipped[len(flipped) // 2] ^= 0x55
            yield bytes(flipped)
    elif target == "codings":
        # a coding byte (the target's choice of header), then the payload in that coding
        for data in _compressible(max_size):
            gzipped = _compressed("gzip", data)
            for choice, packed in ((0, gzipped), (1, zlib.compress(data)),
                                   (3, b"%x\r\n" % len(data) + data + b"\r\n0\r\n\r\n"),
                                   (4, b"%x\r\n" % len(gzipped) + gzipped + b"\r\n0\r\n\r\n")):
                yield bytes([choice]) + packed[:max_size]
    else:
        raise ValueError(f"no fuzz target {target!r}")


def _compressible(max_size: int) -> Iterator[bytes]:
    """The project's HTML, text and style sheet samples: what compressed inputs hold."""
    for kind, pattern in (("html", "*.html"), ("text", "*.txt"), ("css", "**/*.css")):
        for path in _files(PROJECT / kind, pattern)[:4]:
            yield _read(path, max_size)


def _compressed(method: str, data: bytes) -> bytes:
    if method == "gzip":
        return gzip.compress(data)
    if method == "bzip2":
        return bz2.compress(data)
    return lzma.compress(data)


def _style_sheets(page: bytes, max_size: int) -> Iterator[bytes]:
    """The text of a page's ``<style>`` elements, a seed each."""
    at = page.find(b"<style")
    while at != -1:
        start = page.find(b">", at) + 1
        end = page.find(b"</style", start)
        if start <= 0 or end == -1:
            return
        if end - start > 64:
            yield page[start:end][:max_size]
        at = page.find(b"<style", end)


def build(out: Path, target: str, max_size: int, limit: int | None = None) -> int:
    """Write ``target``'s seeds into ``out/target`` (named by their SHA-1, as
    libFuzzer names its corpus files, so that a seed is written once);
    returns how many distinct seeds there are."""
    directory = out / target
    directory.mkdir(parents=True, exist_ok=True)
    names = set()
    for data in islice(seeds(target, max_size), limit):
        name = hashlib.sha1(data).hexdigest()
        if name not in names:
            names.add(name)
            path = directory / name
            if not path.exists():
                path.write_bytes(data)
    return len(names)


TARGETS = ("text", "html", "message", "mbox", "warc", "css", "xml", "pdf", "office", "sniff", "gzip", "bzip2", "xz",
           "codings", "markdown", "notebook", "rst", "asciidoc", "org",
           "latex", "bibtex", "wikitext", "archive", "emlx", "calendar", "msg", "tnef", "drawn", "image", "csv")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/urisift-fuzz/seeds"))
    parser.add_argument("--max-size", type=int, default=65536, help="bytes a seed at most (default 65536)")
    parser.add_argument("targets", nargs="*", metavar="TARGET", help=f"any of {', '.join(TARGETS)} (default: all)")
    args = parser.parse_args(argv)
    unknown = set(args.targets) - set(TARGETS)
    if unknown:
        parser.error(f"no fuzz target {', '.join(sorted(unknown))}")
    for target in args.targets or TARGETS:
        print(f"{target}: {build(args.out, target, args.max_size)} seeds in {args.out / target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
