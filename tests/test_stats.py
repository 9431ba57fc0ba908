"""Issue 37: --stats counts that mean what they say for every kind of
input: a message is a message whether it is a file, a Maildir's, or an
mbox's; bytes_decompressed is the bytes after decompression, for a WARC
too; one input is "1 input"."""

from __future__ import annotations

import gzip
import io
import json
import re
from pathlib import Path
from typing import Any

from urisift.cli.command import main

MESSAGE = b"Date: Mon, 1 Jan 2001 00:00:00 +0000\nFrom: a@example.org\nSubject: x\n\nsee http://a.example/\n"
ENVELOPE = b"From a@example.org Mon Jan  1 00:00:00 2001\n"
WARC = (b"WARC/1.0\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000002>\r\n"
        b"WARC-Target-URI: http://w.example/\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nContent-Type: text/plain\r\n"
        b"Content-Length: 22\r\n\r\nsee http://b.example/\n\r\n\r\n")
KEPT = ("inputs", "bytes", "bytes_decompressed", "messages", "parts", "warc_records", "records")


def stats(*paths: Path | str) -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    assert main(["--stats", "--format", "jsonl", "--jobs", "1", *map(str, paths)], stdout=out, stderr=err) == 0
    data: dict[str, Any] = json.loads(err.getvalue().splitlines()[-1])["stats"]
    return {key: data[key] for key in KEPT}


def test_a_message_counts_as_one_however_it_comes(tmp_path: Path) -> None:
    (tmp_path / "one.eml").write_bytes(MESSAGE)
    assert stats(tmp_path / "one.eml") == {"inputs": 1, "bytes": 91, "bytes_decompressed": 91, "messages": 1,
                                           "parts": 1, "warc_records": 0, "records": 1}
    box = tmp_path / "Mail"
    for sub in ("cur", "new", "tmp"):
        (box / sub).mkdir(parents=True)
    (box / "cur" / "1.host:2,S").write_bytes(MESSAGE)
    (box / "new" / "2.host").write_bytes(MESSAGE)
    assert stats(box)["messages"] == 2
    # a directory of message files, with and without an envelope line
    (tmp_path / "dir").mkdir()
    (tmp_path / "dir" / "a.eml").write_bytes(MESSAGE)
    (tmp_path / "dir" / "b.eml").write_bytes(ENVELOPE + MESSAGE)
    (tmp_path / "dir" / "c").write_bytes(MESSAGE)
    assert stats(tmp_path / "dir")["messages"] == 3
    (tmp_path / "two.mbox").write_bytes(ENVELOPE + MESSAGE + b"\n" + ENVELOPE + MESSAGE)
    assert stats(tmp_path / "two.mbox")["messages"] == 2


def test_bytes_decompressed_are_the_bytes_after_decompression(tmp_path: Path) -> None:
    plain = tmp_path / "a.warc"
    plain.write_bytes(WARC)
    packed = tmp_path / "b.warc.gz"
    packed.write_bytes(gzip.compress(WARC) + gzip.compress(WARC))  # a gzip member a record
    mbox = tmp_path / "c.mbox.gz"
    mbox.write_bytes(gzip.compress(ENVELOPE + MESSAGE))
    assert stats(plain) == {"inputs": 1, "bytes": len(WARC), "bytes_decompressed": len(WARC), "messages": 0,
                            "parts": 0, "warc_records": 1, "records": 1}
    assert stats(packed)["bytes_decompressed"] == 2 * len(WARC)
    assert stats(mbox)["bytes_decompressed"] == len(ENVELOPE + MESSAGE)


def test_one_is_singular(tmp_path: Path) -> None:
    (tmp_path / "one.eml").write_bytes(MESSAGE)
    out, err = io.StringIO(), io.StringIO()
    assert main(["--stats", str(tmp_path / "one.eml")], stdout=out, stderr=err) == 0
    first = re.sub(r"; [0-9.]+ s, [0-9.]+ MB/s$", "; TIME", err.getvalue().splitlines()[0])
    assert first == "urisift: 1 input, 0.0 MB, 1 message, 1 text part; 1 record; 0 defects; TIME"
