"""The mbox splitter (issue 10 groundwork): RFC 4155 envelopes, mboxo/mboxrd
unescaping, mboxcl2 Content-Length, offsets, chunk boundaries, streaming."""

from __future__ import annotations

import io
import lzma
import mailbox
import re
import tracemalloc
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urisift.readers.mail import MboxMessage, split_mbox
from urisift.readers.mail.mbox import is_envelope

from .conftest import shared_path

ARCHIVE = (
    b"From alice@example.org Mon Jan  1 00:00:00 2001\n"
    b"From: alice@example.org\nSubject: one\n\nBody one.\n>From the start, an escaped line.\n"
    b">>From a quoted one.\nFrom the middle of a line? no: this line starts with it, but is no envelope.\n\n"
    b"From bob@example.org Tue, 2 Jan 2001 10:00:00 +0000\n"
    b"From: bob@example.org\n\nBody two.\n\n"
    b"From MAILER-DAEMON 3 Jan 2001 11:00:00\n"
    b"Subject: three\n\nhttp://three.example/\n"
)


def split(data: bytes, chunk_size: int = 1 << 20) -> list[MboxMessage]:
    return list(split_mbox(io.BytesIO(data), chunk_size=chunk_size))


def test_messages_envelopes_offsets_and_unescaping() -> None:
    messages = split(ARCHIVE)
    assert [(m.message, m.offset, m.envelope) for m in messages] == [
        (0, 0, b"From alice@example.org Mon Jan  1 00:00:00 2001"),
        (1, ARCHIVE.index(b"From bob"), b"From bob@example.org Tue, 2 Jan 2001 10:00:00 +0000"),
        (2, ARCHIVE.index(b"From MAILER"), b"From MAILER-DAEMON 3 Jan 2001 11:00:00")]
    assert messages[0].data == (
        b"From: alice@example.org\nSubject: one\n\nBody one.\nFrom the start, an escaped line.\n"
        b">From a quoted one.\nFrom the middle of a line? no: this line starts with it, but is no envelope.\n")
    assert messages[1].data == b"From: bob@example.org\n\nBody two.\n"
    assert messages[2].data == b"Subject: three\n\nhttp://three.example/\n"  # the last: no separator to drop


@given(st.integers(min_value=7, max_value=400))
def test_any_chunk_size_gives_the_same_messages(chunk_size: int) -> None:
    assert split(ARCHIVE, chunk_size) == split(ARCHIVE)


def test_crlf_archives() -> None:
    crlf = ARCHIVE.replace(b"\n", b"\r\n")
    messages = split(crlf)
    assert len(messages) == 3 and messages[1].data == b"From: bob@example.org\r\n\r\nBody two.\r\n"
    assert messages[2].envelope == b"From MAILER-DAEMON 3 Jan 2001 11:00:00"


def test_mboxcl2_content_length_keeps_unescaped_from_lines_in_the_body() -> None:
    body = b"Line one.\n\nFrom here Mon it looks like an envelope.\n"
    data = (b"From a@example.org Mon Jan  1 00:00:00 2001\nContent-Length: %d\n\n" % len(body) + body
            + b"\nFrom b@example.org Tue Jan  2 00:00:00 2001\nSubject: two\n\nx\n")
    messages = split(data)
    assert [m.envelope[:6] for m in messages] == [b"From a", b"From b"]
    assert messages[0].data.endswith(b"From here Mon it looks like an envelope.\n")


def test_a_wrong_content_length_is_ignored() -> None:
    data = (b"From a@example.org Mon Jan  1 00:00:00 2001\nContent-Length: 3\n\nhello there\n\n"
            b"From b@example.org Tue Jan  2 00:00:00 2001\n\nx\n")
    assert [m.data for m in split(data)] == [b"Content-Length: 3\n\nhello there\n", b"\nx\n"]
    assert split(data + b"\n")[-1].data == b"\nx\n"  # a final blank line is a separator


def test_bytes_before_the_first_envelope_are_kept() -> None:
    data = b"junk that is no message\n\n" + ARCHIVE
    messages = split(data)
    assert (messages[0].envelope, messages[0].data, len(messages)) == (b"", b"junk that is no message\n", 4)
    assert messages[1].offset == data.index(b"From alice")


@pytest.mark.parametrize("data", [b"", b"From a@example.org Mon Jan  1 00:00:00 2001", b"From a@b Mon\n"])
def test_edges(data: bytes) -> None:
    messages = split(data)
    assert [(m.envelope, m.data) for m in messages] == ([] if not data else [(data.rstrip(b"\n"), b"")])


@pytest.mark.parametrize("line, ok", [
    (b"From mboxrd@z Thu Jan  1 00:00:00 1970", True), (b"From a@b.c  Wed Feb 5 10:00:00 2003", True),
    (b"From user 5 Feb 2003 10:00", True), (b"From the start of it all", False), (b"From:", False),
    (b"From  Mon", True), (b">From a Mon Jan 1", False),
])
def test_envelope_lines(line: bytes, ok: bool) -> None:
    assert is_envelope(line) is ok


def test_the_linux_mips_archive_splits_as_the_stdlib_splits_it(tmp_path: Path) -> None:
    path = shared_path("corpora", "linux-mips-1996-2007", "linux-mips-1996-2007.mboxrd.xz")
    with lzma.open(path) as f:
        head = f.read(8 << 20)
    head = head[: head.rindex(b"\nFrom mboxrd@z ") + 1]
    ours = split(head, chunk_size=1 << 16)
    (tmp_path / "head.mbox").write_bytes(head)
    box = mailbox.mbox(str(tmp_path / "head.mbox"), create=False)
    theirs = [re.sub(rb"(?m)^>(>*From )", rb"\1", box.get_bytes(key)) for key in box.iterkeys()]
    assert len(ours) == len(theirs) > 2000
    assert [m.data.rstrip(b"\n") for m in ours] == [t.rstrip(b"\n") for t in theirs]


def test_memory_stays_flat_on_a_long_archive() -> None:
    message = b"From a@example.org Mon Jan  1 00:00:00 2001\nSubject: x\n\n" + b"line of text\n" * 200 + b"\n"

    class Endless:
        """A stream of ``copies`` messages that is never held whole."""

        def __init__(self, copies: int) -> None:
            self.left = copies

        def read(self, size: int = -1) -> bytes:
            if not self.left:
                return b""
            self.left -= 1
            return message

    def peak(copies: int) -> int:
        tracemalloc.start()
        count = sum(1 for _ in split_mbox(Endless(copies), chunk_size=1 << 16))  # type: ignore[arg-type]
        _, top = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        assert count == copies
        return top

    assert peak(20_000) < 1.5 * peak(2_000)
