"""Inputs: walking, compressed files, kinds sniffed from the bytes (sources.py)."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
from pathlib import Path

import pytest

from urisift import Defect, DefectKind, Kind, Record, iter_input, scan_text
from urisift.pipeline.sources import Input, open_input, sniff_kind
from urisift.pipeline.walking import walk

TEXT = b"see http://a.example/x and <URL:http://b.example/\n  y>\n" * 50


@pytest.mark.parametrize("head, name, kind", [
    (b"WARC/1.0\r\nWARC-Type: warcinfo\r\n", None, Kind.WARC),
    (b"filedesc://IAH-20080430204825-00000-blackbook.arc 0.0.0.0 20080430204825", None, Kind.WARC),
    (b"From joe@example.com Mon Jan  1 00:00:00 2001\nFrom: joe\n", None, Kind.MBOX),
    (b"From MAILER-DAEMON Fri Jul  8 12:08:34 2011\n", None, Kind.MBOX),
    (b"Received: by x\r\nDate: Mon, 1 Jan 2001 00:00:00 +0000\r\nFrom: a@b\r\n Folded\r\n\r\nbody", None,
     Kind.MAIL),
    # From, To and Subject only: quoted headers in a note, not a message (RFC 5322 §3.6 requires Date)
    (b"From: Alice <alice@example.org>\nTo: Bob\nSubject: Re\n\nBob wrote:\n", None, Kind.TEXT),
    (b"Date: today\nFrom: x\nthis is not a header line\n", None, Kind.TEXT),
    (b"\xef\xbb\xbf  <!DOCTYPE html><html>", None, Kind.HTML),
    (b"\n<HTML>\n<head>", "notes.txt", Kind.HTML),
    (b"<p>hello", None, Kind.HTML),
    (b"<pre>not a signature</pre>", "page.htm", Kind.HTML),
    (b"<pre>not a signature</pre>", None, Kind.TEXT),
    (b"a <b>note</b>", None, Kind.TEXT),
    (b"anything", "box.mbox", Kind.MBOX),
    (b"anything", "msg.EML", Kind.MAIL),
    (b"anything", "crawl.warc", Kind.WARC),
    (b"anything", "notes", Kind.TEXT),
])
def test_sniff_kind(head: bytes, name: str | None, kind: Kind) -> None:
    assert sniff_kind(head, name) is kind


@pytest.mark.parametrize("compress, suffix", [(gzip.compress, ".gz"), (bz2.compress, ".bz2"),
                                              (lzma.compress, ".xz")])
def test_compressed_inputs_give_the_same_records(tmp_path: Path, compress, suffix: str) -> None:  # type: ignore[no-untyped-def]
    plain = tmp_path / "notes.txt"
    plain.write_bytes(TEXT)
    packed = tmp_path / ("notes.txt" + suffix)
    packed.write_bytes(compress(TEXT))
    renamed = tmp_path / "no-suffix"  # recognized by its magic bytes, not its name
    renamed.write_bytes(compress(TEXT))

    def rows(path: Path) -> list[tuple[object, ...]]:
        return [(r.uri, r.span, r.line, r.column, r.charset) for r in iter_input(str(path))
                if isinstance(r, Record)]

    assert len(rows(plain)) == 100
    assert rows(packed) == rows(plain) == rows(renamed)
    opened = open_input(Input(str(packed)))
    assert (opened.kind, opened.compression) == (Kind.TEXT, {".gz": "gzip", ".bz2": "bzip2", ".xz": "xz"}[suffix])
    opened.stream.close()


def test_a_compressed_html_file_is_sniffed_inside(tmp_path: Path) -> None:
    f = tmp_path / "page.html.gz"
    f.write_bytes(gzip.compress(b"<!doctype html><a href=x>"))
    opened = open_input(Input(str(f)))
    assert opened.kind is Kind.HTML
    opened.stream.close()


@pytest.mark.parametrize("compress, method", [(gzip.compress, "gzip"), (bz2.compress, "bzip2"),
                                              (lzma.compress, "xz")])
def test_a_truncated_stream_is_a_defect_and_what_came_before_is_scanned(tmp_path: Path, compress,  # type: ignore[no-untyped-def]
                                                                        method: str) -> None:
    body = b"first http://one.example/\n" + b"filler %d " * 20000 + b"\nlast http://two.example/\n"
    f = tmp_path / "cut.txt.z"
    packed = compress(body)
    f.write_bytes(packed[: len(packed) * 3 // 4])
    items = list(iter_input(str(f)))
    records = [i.uri for i in items if isinstance(i, Record)]
    defects = [i for i in items if isinstance(i, Defect)]
    # gzip and xz stream, so what came before the cut is scanned; bzip2 decodes
    # whole 900 kB blocks, and this input is one truncated block
    assert records[:1] == ([] if method == "bzip2" else ["http://one.example/"])
    assert "http://two.example/" not in records
    assert [d.kind for d in defects] == [DefectKind.CORRUPT_COMPRESSION]
    assert defects[0].file == str(f) and defects[0].detail.startswith(f"{method} data is corrupt or truncated (")


def test_a_corrupt_gzip_member_is_a_defect(tmp_path: Path) -> None:
    packed = bytearray(gzip.compress(b"http://one.example/ " * 5000))
    packed[200:260] = b"\xff" * 60  # garbage in the middle of the deflate stream
    f = tmp_path / "bad.gz"
    f.write_bytes(bytes(packed))
    items = list(iter_input(str(f)))
    assert [i.kind for i in items if isinstance(i, Defect)] == [DefectKind.CORRUPT_COMPRESSION]


def test_walk_skips_hidden_entries_unless_asked(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("url = https://hidden.example/\n")
    (tmp_path / ".env").write_text("x\n")
    (tmp_path / "b.txt").write_text("x\n")
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "z.txt").write_text("x\n")
    # a directory's files, sorted, then its subdirectories, sorted
    names = [i.path for i in walk([str(tmp_path)]) if isinstance(i, Input)]
    assert names == [str(tmp_path / "b.txt"), str(tmp_path / "a" / "z.txt")]
    names = [i.path for i in walk([str(tmp_path)], hidden=True) if isinstance(i, Input)]
    assert names == [str(tmp_path / ".env"), str(tmp_path / "b.txt"), str(tmp_path / ".git" / "config"),
                     str(tmp_path / "a" / "z.txt")]
    # a hidden file named on the command line is read
    assert [i.path for i in walk([str(tmp_path / ".env")])] == [str(tmp_path / ".env")]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_walk_skips_a_fifo_with_a_defect(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "z.txt").write_text("x\n")
    items = list(walk([str(tmp_path)]))
    assert isinstance(items[0], Defect) and items[0].kind is DefectKind.NOT_A_FILE
    assert items[0].detail == "a FIFO; skipped (name it explicitly to read it)"
    assert items[0].file == str(tmp_path / "pipe")
    assert items[1] == Input(str(tmp_path / "z.txt"), under="z.txt")


def test_standard_input_is_sniffed_and_decompressed_too() -> None:
    items = list(iter_input("-", stdin=io.BytesIO(gzip.compress(TEXT))))
    assert [i.uri for i in items if isinstance(i, Record)] == [
        r.uri for r in scan_text(TEXT.decode()) if isinstance(r, Record)]


def test_a_missing_file_is_an_unreadable_defect() -> None:
    (d,) = iter_input("/no/such/file")
    assert isinstance(d, Defect) and (d.kind, d.detail, d.file) == (
        DefectKind.UNREADABLE, "No such file or directory", "/no/such/file")



def test_a_replay_of_a_file_s_first_bytes_rewinds_to_the_file_and_of_a_pipe_or_a_later_start_does_not(
        tmp_path: Path) -> None:
    from urisift.stages.streams import Replay

    (tmp_path / "f").write_bytes(b"head:the rest")
    with open(tmp_path / "f", "rb") as file:
        replay = Replay(file.read(5), file)
        assert replay.read(2) == b"he"
        rewound = replay.rewound()
        assert rewound is file and rewound.read() == b"head:the rest"
    with open(tmp_path / "f", "rb") as file:
        file.seek(2)
        assert Replay(file.read(3), file).rewound() is None  # (its head is no first bytes of the file)
    read, write = os.pipe()
    os.write(write, b"head:the rest")
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        replay = Replay(pipe.read(5), pipe)
        assert replay.rewound() is None
        assert replay.read() == b"head:the rest"
