"""Apple Mail's .emlx files (issue 54): the message is read as a message, Mail's plist is not."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from urisift import Defect, DefectKind, Kind, Record, ScanOptions, iter_input
from urisift.cli.command import main
from urisift.stages.sniff import sniff_kind

from .conftest import shared_path

MESSAGE = (b"From: Ann <ann@example.org>\r\nTo: bo@example.org\r\nSubject: notes\r\n"
           b"Date: Mon, 29 Mar 2021 18:52:23 +0200\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n"
           b"<p>The <a href=3D\"https://notes.example/a/very/long/path/that/quoted-printable/wr=\r\n"
           b"aps\">notes</a> are up.</p>\r\n")
PLIST = (b'<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" '
         b'"http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n<plist version="1.0"><dict><key>flags</key>'
         b"<integer>8623489089</integer></dict></plist>\n")


def _emlx(message: bytes = MESSAGE, length: int | None = None) -> bytes:
    return b"%-10d\n" % (len(message) if length is None else length) + message + PLIST


def _items(path: Path, **options: object) -> list[Record | Defect]:
    return list(iter_input(str(path), ScanOptions(**options)))  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["12345.emlx", "12345.partial.emlx", "no-name-says-it"])
def test_an_emlx_message_is_read_as_a_message_and_its_plist_is_not(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(_emlx())
    items = _items(path, fields=frozenset({"uri", "target", "file_line", "file_column", "part"}))
    assert [(i.target, i.where.value, i.element) for i in items if isinstance(i, Record)] == [
        ("https://notes.example/a/very/long/path/that/quoted-printable/wraps", "html", "a")]
    assert not [i for i in items if isinstance(i, Defect)]
    out, err = io.StringIO(), io.StringIO()
    assert main(["-H", str(path)], stdout=out, stderr=err) == 0
    # the message's line 9 is the file's 10th: its byte count stands before it (the QP part as written)
    assert out.getvalue() == f"{path}:10:19:https://notes.example/a/very/long/path/that/quoted-printable/wraps\n"


def test_an_emlx_is_sniffed_by_its_count_and_message() -> None:
    assert sniff_kind(_emlx()) is Kind.EMLX
    assert sniff_kind(b"42\nnot a message at all\n") is Kind.TEXT


def test_a_byte_count_past_the_end_or_no_count_is_a_defect_and_the_message_is_read(tmp_path: Path) -> None:
    (tmp_path / "long.emlx").write_bytes(b"%d\n" % (len(MESSAGE) + 500) + MESSAGE)
    items = _items(tmp_path / "long.emlx")
    assert [i.detail for i in items if isinstance(i, Defect)] == [
        f"its first line says the message is {len(MESSAGE) + 500} bytes, and the file holds {len(MESSAGE)} after "
        "it: read as far as it goes"]
    assert len([i for i in items if isinstance(i, Record)]) == 1
    # a plain message named .emlx is what its bytes say (content before the name): no defect
    (tmp_path / "plain.emlx").write_bytes(MESSAGE)
    assert len([i for i in _items(tmp_path / "plain.emlx") if isinstance(i, Record)]) == 1
    # asked to read one as .emlx, what has no count is said, and read as a message
    items = _items(tmp_path / "plain.emlx", kind=Kind.EMLX)
    assert [i.kind for i in items if isinstance(i, Defect)] == [DefectKind.BROKEN_MIME]
    assert len([i for i in items if isinstance(i, Record)]) == 1


def test_the_shared_emlx_samples_give_no_record_of_their_plist() -> None:
    folder = shared_path("corpora", "outlook-kept-mail", "emlx")
    for path in sorted(folder.glob("*.emlx")):
        assert _items(path) == [], path.name


def test_a_mail_store_walk_reads_emlx_and_thunderbirds_mbox_but_not_its_index(tmp_path: Path) -> None:
    messages = tmp_path / "Mail" / "V10" / "INBOX.mbox" / "Messages"
    messages.mkdir(parents=True)
    (messages / "1.emlx").write_bytes(_emlx())
    thunderbird = tmp_path / "Thunderbird"
    thunderbird.mkdir()
    (thunderbird / "Inbox").write_bytes(b"From ann@example.org Mon Mar 29 18:52:23 2021\n" + MESSAGE)
    (thunderbird / "Inbox.msf").write_bytes(b"// <!-- <mdb:mork:z v=\"1.4\"/> -->\n< <(a=c)> // (f=iso-8859-1)\n"
                                            b"(B8=https://index.example/)>\n")
    out, err = io.StringIO(), io.StringIO()
    assert main(["--format", "csv", "--fields", "file,target", str(tmp_path)], stdout=out, stderr=err) == 0
    assert out.getvalue().splitlines()[1:] == [
        f"{messages / '1.emlx'},https://notes.example/a/very/long/path/that/quoted-printable/wraps",
        f"{thunderbird / 'Inbox'},https://notes.example/a/very/long/path/that/quoted-printable/wraps"]
