"""Hostile and broken mail (issue 20): nesting deep enough to exhaust the
email package's recursion, multiparts it cannot split, quoted-printable
transport padding, RFC 2047 words that cannot be decoded, and headings of
megabytes that must cost linear time.

Each message goes through :func:`urisift.readers.mail.nesting.checked_parse` (what
the scan calls in place of ``email.message_from_bytes``) and then the
public :func:`urisift.scan_message`."""

from __future__ import annotations

import email
import io
import os
import sys
from email.message import Message
from email.policy import compat32

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urisift import scan_mbox, scan_message
from urisift.model import NOWHERE, Defect, DefectKind, Origin, Record
from urisift.readers.mail import nesting, reading
from urisift.readers.mail.headers import base_value, decoded
from urisift.readers.mail.mbox import split_mbox
from urisift.readers.mail.nesting import MAX_DEPTH, checked_parse

from .adversarial import assert_linear
from .conftest import shared_path

Item = tuple[object, ...]


def _items(data: bytes, origin: Origin = NOWHERE) -> list[Item]:
    """What checked_parse reports, then the records and defects of the scan:
    records as (uri, target, part, line, column), defects as (kind, detail, position)."""
    message, defects = checked_parse(data, origin)
    out: list[Item] = [(d.kind, d.detail, d.position) for d in defects]
    for item in scan_message(message):
        if isinstance(item, Record):
            out.append((item.uri, item.target, item.origin.part, item.line, item.column))
        else:
            out.append((item.kind, item.detail, item.position))
    return out


def _deep(levels: int, kind: str = "multipart") -> bytes:
    """A message with ``levels`` nested multiparts (or message/rfc822
    entities) around one text part with one link."""
    out = ["From: a@example.com\nSubject: deep\n"]
    for i in range(levels):
        out.append(f'Content-Type: multipart/mixed; boundary="b{i}"\n\n--b{i}\n' if kind == "multipart"
                   else "Content-Type: message/rfc822\n\n")
    out.append("Content-Type: text/plain\n\nsee http://deep.example/inner\n")
    if kind == "multipart":
        out.extend(f"--b{i}--\n" for i in reversed(range(levels)))
    return "".join(out).encode()


def _deep_defect(content_type: str, position: int) -> Item:
    return (DefectKind.DEEP_NESTING,
            f"MIME entities nested more than 64 levels deep: the {content_type} at level 64 was read as "
            "text/plain, with all it holds, so its links are still found but not its parts' own bases", position)


LEVEL_64 = ".".join(["1"] * 64)  # the part path of a multipart's part 64 levels down


# -- deep nesting -----------------------------------------------------------------------

def test_the_stdlib_parser_itself_fails_on_a_thousand_levels() -> None:
    # the reason for the check: without it, this message is an exception
    with pytest.raises(RecursionError):
        email.message_from_bytes(_deep(1000), policy=compat32)


def test_a_thousand_nested_multiparts_give_one_defect_and_the_link() -> None:
    data = _deep(1000)
    # level 64 is read as one text part: its text holds the 936 levels
    # below it (three lines each) and then the link
    assert _items(data) == [
        _deep_defect("multipart/mixed", data.index(b'Content-Type: multipart/mixed; boundary="b64"')),
        ("http://deep.example/inner", "http://deep.example/inner", LEVEL_64, 936 * 3 + 1, 5)]


def test_a_thousand_nested_messages_give_one_defect_and_the_link() -> None:
    data = _deep(1000, "rfc822")
    at = len(b"From: a@example.com\nSubject: deep\n") + 64 * len(b"Content-Type: message/rfc822\n\n")
    # an attached message's body is under the path of the part holding it: "1" all the way down
    assert _items(data) == [_deep_defect("message/rfc822", at),
                            ("http://deep.example/inner", "http://deep.example/inner", "1", 936 * 2 + 1, 5)]


def test_nested_digests_are_cut_at_the_same_depth() -> None:
    # a digest's parts are message/rfc822 by default (RFC 2046 §5.1.5): two levels a digest
    levels = 40
    data = ("From: a@example.com\n"
            + "".join(f'Content-Type: multipart/digest; boundary="d{i}"\n\n--d{i}\n\n' for i in range(levels))
            + "http://digest.example/\n" + "".join(f"--d{i}--\n" for i in reversed(range(levels)))).encode()
    items = _items(data)
    level_64 = data.index(b'Content-Type: multipart/digest; boundary="d32"')
    assert items[0] == _deep_defect("multipart/digest", level_64)
    # digest 32 is at level 64; an attached message's body is under its part's
    # path, so each digest adds one "1"; its text holds "--d32", a blank
    # line, four lines for each of the 7 digests inside, then the link
    assert items[1:] == [("http://digest.example/", "http://digest.example/", ".".join(["1"] * 33), 2 + 7 * 4 + 1, 1)]


def test_nesting_up_to_the_limit_is_parsed_as_it_is() -> None:
    assert _items(_deep(MAX_DEPTH)) == [("http://deep.example/inner", "http://deep.example/inner", LEVEL_64, 1, 5)]
    assert _items(_deep(MAX_DEPTH, "rfc822")) == [("http://deep.example/inner", "http://deep.example/inner", "1", 1, 5)]


def test_many_boundaries_side_by_side_are_no_nesting() -> None:
    # 100 parts, each its own multipart/alternative: the count of boundaries
    # passes the cheap bound, the reading finds the depth is 2
    parts = "".join(f'--top\nContent-Type: multipart/alternative; boundary="a{i}"\n\n--a{i}\n'
                    f"Content-Type: text/plain\n\nhttp://side.example/{i}\n--a{i}--\n" for i in range(100))
    data = f'From: a@example.com\nContent-Type: multipart/mixed; boundary="top"\n\n{parts}--top--\n'.encode()
    assert nesting._needs_reading(data)
    assert _items(data) == [(f"http://side.example/{i}", f"http://side.example/{i}", f"{i + 1}.1", 1, 1)
                            for i in range(100)]


def test_a_deep_message_in_an_mbox_costs_only_itself() -> None:
    normal = "From a@b Mon Jan  1 00:00:00 2024\nFrom: b@example.com\nMessage-ID: <n{0}@x>\n\nvisit http://normal.example/{0}\n\n"
    mbox = (normal.format(1).encode() + b"From a@b Mon Jan  1 00:00:00 2024\n" + _deep(1000) + b"\n"
            + normal.format(2).encode())
    seen: list[Item] = []
    for item in split_mbox(io.BytesIO(mbox)):
        for found in _items(item.data, Origin(message=item.message)):
            seen.append((item.message, *found))
    deep_start = mbox.index(b"From: a@example.com")
    level_64 = mbox.index(b'Content-Type: multipart/mixed; boundary="b64"') - deep_start
    assert seen == [
        (0, "http://normal.example/1", "http://normal.example/1", "1", 1, 7),
        (1, *_deep_defect("multipart/mixed", level_64)),
        (1, "http://deep.example/inner", "http://deep.example/inner", LEVEL_64, 936 * 3 + 1, 5),
        (2, "http://normal.example/2", "http://normal.example/2", "1", 1, 7)]


def test_the_mbox_scan_gives_the_defect_and_every_other_message() -> None:
    normal = "From a@b Mon Jan  1 00:00:00 2024\nFrom: b@example.com\n\nvisit http://normal.example/{0}\n\n"
    mbox = (normal.format(1).encode() + b"From a@b Mon Jan  1 00:00:00 2024\n" + _deep(1000) + b"\n"
            + normal.format(2).encode())
    items = list(scan_mbox(io.BytesIO(mbox)))
    assert [(i.origin.message, i.uri) if isinstance(i, Record) else (i.origin.message, i.kind) for i in items] == [
        (0, "http://normal.example/1"), (1, DefectKind.DEEP_NESTING), (1, "http://deep.example/inner"),
        (2, "http://normal.example/2")]


def _stdlib_3_11_2(item: object) -> bool:
    """The defect CPython's email package of 3.11.2 adds to a multipart heading read without its body
    (MultipartInvariantViolationDefect; 3.11.2 adds it, 3.11.7 none): the records are the same either way."""
    return (sys.version_info < (3, 11, 7) and isinstance(item, Defect)
            and item.detail == "the message heading: MultipartInvariantViolationDefect")


def test_a_recursion_error_all_the_same_reads_the_body_as_text(monkeypatch: pytest.MonkeyPatch) -> None:
    def exhausted(data: bytes) -> Message:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(nesting, "_from_bytes", exhausted)  # (the parser, fed a piece at a time)
    data = (b'From: a@example.com\nList-Archive: <http://list.example/>\n'
            b'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: text/plain\n\nhttp://body.example/\n--b--\n')
    assert [item for item in _items(data) if item[:2] != (DefectKind.BROKEN_MIME,
                                                       "the message heading: MultipartInvariantViolationDefect")
            or sys.version_info >= (3, 11, 7)] == [
        (DefectKind.DEEP_NESTING, "the MIME parser ran out of stack on this message's nesting: its heading was "
                                  "read, and its whole body as text", None),
        ("http://list.example/", "http://list.example/", None, None, None),
        ("http://body.example/", "http://body.example/", "1", 4, 1)]


# the reading must split a message exactly as the parser does, or a cut
# could land somewhere else than it thinks
SHAPES = {
    "boundary reused inside": b'Content-Type: multipart/mixed; boundary="b"\n\n--b\nContent-Type: multipart/mixed; '
                              b'boundary="b"\n\n--b\n\nx\n--b--\n--b--\n',
    "outer boundary closes inner": b'Content-Type: multipart/mixed; boundary="o"\n\n--o\nContent-Type: multipart/'
                                   b'mixed; boundary="i"\n\n--i\n\nx\n--o\n\ny\n--o--\n',
    "digest defaults": b'Content-Type: multipart/digest; boundary="d"\n\n--d\n\nSubject: a\n\nx\n--d\n'
                       b'Content-Type: text/plain\n\ny\n--d--\n',
    "delivery status": b"Content-Type: message/delivery-status\n\nA: b\n\nContent-Type: message/rfc822\nC: d\n\nx\n",
    "no blank line, CR line ends": b'Content-Type: multipart/mixed; boundary="b"\r\r--b\rContent-Type: text/plain'
                                   b'\rbody\r--b  \r--b--\r',
    "envelope lines": b'From x\nContent-Type: multipart/mixed; boundary=b\n\n--b\nFrom y\nContent-Type: message/rfc822'
                      b'\nFrom z\n\nbody\n--b--\n',
    "folded type, boundary with spaces": b'Content-Type: multipart/mixed;\n boundary="a b "\n\n--a b\n\nx\n--a b--\n',
}


def _structure(message: Message, depth: int = 0) -> list[tuple[int, str]]:
    out = [(depth, message.get_content_type())]
    payload = message.get_payload()
    if isinstance(payload, list):
        for child in payload:
            assert isinstance(child, Message)
            out.extend(_structure(child, depth + 1))
    return out


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_reading_splits_a_message_as_the_parser_does(name: str) -> None:
    data = SHAPES[name]
    walk = reading._Reading(data.decode("ascii", "surrogateescape"), 10**9)
    walk.run()
    assert walk.entities == _structure(email.message_from_bytes(data, policy=compat32))


def test_the_reading_splits_real_mail_as_the_parser_does() -> None:
    folders = [shared_path("corpora", name) for name in ("mime-fixtures", "spamassassin-2002", "base-header-gems")]
    count = 0
    for folder in folders:
        for root, _, files in os.walk(folder):
            for name in files:
                if name.endswith((".md", ".xz", ".gz")):
                    continue
                with open(os.path.join(root, name), "rb") as f:
                    data = f.read()
                walk = reading._Reading(data.decode("ascii", "surrogateescape"), 10**9)
                walk.run()
                assert walk.entities == _structure(email.message_from_bytes(data, policy=compat32)), name
                count += 1
    assert count > 3000


# -- multiparts the parser cannot split -------------------------------------------------

def test_a_multipart_whose_boundary_never_occurs_is_read_as_text() -> None:
    # the boundary is "Zz"; the lines say "--zz" (boundaries are case-sensitive, RFC 2046 §5.1.1)
    data = (b'From: a@example.com\nContent-Type: multipart/mixed; boundary="Zz"\n\n--zz\nContent-Type: text/plain\n\n'
            b'see http://lost.example/a\n--zz--\n')
    assert _items(data) == [
        # one defect says it: the email package's own about the same part are folded into it
        (DefectKind.BROKEN_MIME, "part 1: this multipart/mixed has no line '--Zz' to start its first part; its body "
                                 "was read as text", None),
        ("http://lost.example/a", "http://lost.example/a", "1", 4, 5)]


def test_a_multipart_without_a_boundary_is_read_as_text() -> None:
    data = b"From: a@example.com\nContent-Type: multipart/alternative\n\nsee http://noparam.example/\n"
    assert _items(data) == [
        (DefectKind.BROKEN_MIME, "part 1: this multipart/alternative names no boundary; its body was read as text",
         None),
        ("http://noparam.example/", "http://noparam.example/", "1", 1, 5)]


def test_an_inner_multipart_read_as_text_keeps_its_heading_base() -> None:
    data = (b'From: a@example.com\nContent-Type: multipart/mixed; boundary="o"\n\n--o\nContent-Type: multipart/'
            b'related; boundary="i"\nContent-Base: http://base.example/d/\n\nsee <URL:rel.html>\n--o--\n')
    assert _items(data) == [
        (DefectKind.BROKEN_MIME, "part 1: this multipart/related has no line '--i' to start its first part; its "
                                 "body was read as text", None),
        ("rel.html", "http://base.example/d/rel.html", "1", 1, 10)]


# -- transfer encodings ------------------------------------------------------------------

def test_quoted_printable_soft_breaks_with_transport_padding() -> None:
    # RFC 2045 §6.7 (3): white space at the end of an encoded line is deleted
    # before decoding, so "=" then spaces or a tab is a soft line break
    data = (b"From: a@example.com\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n"
            b"see http://qp.example/a-long-=  \npath?x=3D1 and http://qp.example/tab=\t\nbed end   \n"
            b"http://qp.example/crlf= \r\nx and a last=   ")
    assert _items(data) == [
        ("http://qp.example/a-long-path?x=1", "http://qp.example/a-long-path?x=1", "1", 1, 5),
        ("http://qp.example/tabbed", "http://qp.example/tabbed", "1", 1, 43),
        ("http://qp.example/crlfx", "http://qp.example/crlfx", "1", 2, 1)]
    message, _ = checked_parse(data, Origin())
    from urisift.readers.mail.parts import transfer_decoded
    assert transfer_decoded(message) == (b"see http://qp.example/a-long-path?x=1 and http://qp.example/tabbed end\n"
                                         b"http://qp.example/crlfx and a last")


# -- headings ---------------------------------------------------------------------------

def test_an_encoded_word_that_cannot_be_decoded_no_longer_fails_the_archive() -> None:
    # "a" is no base64 at all: the email package raises HeaderParseError, which ended the scan
    mbox = (b"From a@b Mon Jan  1 00:00:00 2024\nSubject: =?utf-8?b?a?= http://subject.example/\n\n"
            b"http://one.example/\n\nFrom a@b Mon Jan  1 00:00:00 2024\nSubject: two\n\nhttp://two.example/\n")
    items = list(scan_mbox(io.BytesIO(mbox)))
    assert [(i.origin.message, i.uri, i.header) for i in items if isinstance(i, Record)] == [
        (0, "http://subject.example/", "Subject"), (0, "http://one.example/", None), (1, "http://two.example/", None)]
    assert not [i for i in items if isinstance(i, Defect)]


@pytest.mark.parametrize("value, expected", [
    ("=?utf-8?q?a?= =?utf-8?q?b?=", "ab"),  # white space between adjacent words goes (RFC 2047 §6.2)
    ("x =?utf-8?q?a?= y", "x a y"),
    ("=?utf-8?b?YWJj?=", "abc"),
    ("=?us-ascii?q?a?=  =?iso-8859-1?q?=E9?= z", "a é z"),
    ("=?utf-8?q?=C3?= =?utf-8?q?=A9?=", "é"),  # a character split across two words
    ("=?utf-8?b?a?=", "=?utf-8?b?a?="),  # bad base64: as written
    ("=?\u00e9?q?a?=", "=?\u00e9?q?a?="),  # a charset name that is not ASCII: as written
    ("=?utf-8?q?a?= =?x-no-such?q?b?=", "=?utf-8?q?a?= =?x-no-such?q?b?="),
    ("see http://x.example/?a=?b", "see http://x.example/?a=?b"),
    ("=?utf-8?q?line_one?=\n =?utf-8?q?_two?=", "line one two"),
])
def test_encoded_words_decode_as_the_email_package_decodes_them(value: str, expected: str) -> None:
    assert decoded(value) == expected


def test_nested_delimiters_around_a_base_are_peeled() -> None:
    assert base_value("<" * 5 + '"<URL:http://b.example/>"' + ">" * 5) == "http://b.example/"
    assert base_value("<<>>") is None


def _heading_scan(header: str, size: int) -> None:
    data = f"From: a@example.com\n{header}\n\nhttp://body.example/\n".encode()
    list(scan_message(checked_parse(data, Origin())[0]))


LONG_HEADINGS = {
    # RFC 2047 words, many on one line (decode_header pops them off the front of a list)
    "encoded words": lambda n: _heading_scan("Subject: " + "=?utf-8?q?http=3A//x.example/a?= " * (n // 33), n),
    "encoded word starts": lambda n: _heading_scan("Subject: " + "=?a?q?" * (n // 6), n),
    # a multipart's parameters (the parser's get_boundary slices the rest of the value for each)
    "many parameters": lambda n: _heading_scan("Content-Type: multipart/mixed; boundary=b" + "; a=b" * (n // 5), n),
    "folded parameters": lambda n: _heading_scan("Content-Type: text/plain" + ";\n a*0=b" * (n // 8), n),
    "nested delimiters": lambda n: _heading_scan("Content-Base: " + "<" * (n // 2) + ">" * (n // 2), n),
    "folded base": lambda n: _heading_scan("Content-Location: " + "\n  " * (n // 3) + "http://x/", n),
    "one long list header": lambda n: _heading_scan("List-Archive: " + "<http://l.example/a>, " * (n // 22), n),
    "folded list header": lambda n: _heading_scan("List-Archive: " + "<http://l.example/a>,\n " * (n // 23), n),
    # fields the parser is spared (issue 24): many, and one folded many times
    "many trace fields": lambda n: _heading_scan("Received: from a.example by b.example\n" * (n // 38), n),
    "folded trace field": lambda n: _heading_scan("Received: from a.example" + "\n\tby b.example" * (n // 14), n),
    # headings the single-part reading builds itself, or reads to their end and leaves to the parser
    "many kept fields": lambda n: _heading_scan("X-A: http://a.example/\n" * (n // 23), n),
    "a lone CR after many fields": lambda n: _heading_scan("X-A: b\n" * (n // 7) + "X-B: c\r", n),
}


@pytest.mark.parametrize("name", sorted(LONG_HEADINGS))
def test_long_headings_cost_linear_time(name: str) -> None:
    assert_linear(LONG_HEADINGS[name], 100_000, 400_000)


def test_a_long_content_type_keeps_what_the_scan_reads() -> None:
    data = (b'From: a@example.com\nContent-Type: multipart/mixed; boundary="b"' + b"; a=b" * 2000
            + b'; charset="x"\n\n--b\nContent-Type: text/plain\n\nhttp://part.example/\n--b--\n')
    assert _items(data) == [
        (DefectKind.BROKEN_MIME, "a Content-Type value of 10042 characters (more than 8192): only its type and its "
                                 "boundary, charset, format, delsp parameters were read", 20),
        ("http://part.example/", "http://part.example/", "1", 1, 1)]
    message, _ = checked_parse(data, Origin())
    assert message["Content-Type"] == 'multipart/mixed; boundary="b"; charset="x"'


# -- mbox ---------------------------------------------------------------------------------

ENVELOPE = b"From a@b Mon Jan  1 00:00:00 2024\n"


def test_messages_without_a_blank_line_are_split_in_linear_time() -> None:
    # each heading's blank line was looked for through the rest of the
    # archive (20,000 such messages took 56 s)
    def split(n: int) -> None:
        assert sum(1 for _ in split_mbox(io.BytesIO((ENVELOPE + b"Subject: x\nhttp://x.example/\n") * (n // 64)))) \
            == n // 64

    assert_linear(split)
    assert [(m.message, m.offset, m.data) for m in split_mbox(io.BytesIO((ENVELOPE + b"Subject: x\n") * 2))] == [
        (0, 0, b"Subject: x"), (1, 45, b"Subject: x\n")]


def test_a_later_messages_content_length_is_not_read_as_this_ones() -> None:
    # message 0 has no blank line: its heading runs to the next envelope, and
    # the Content-Length of message 1 is message 1's (it swallowed message 1)
    mbox = ENVELOPE + b"A: b\n" + ENVELOPE + b"Content-Length: 3\n\nabc\n"
    assert [(m.message, m.offset, m.data) for m in split_mbox(io.BytesIO(mbox), chunk_size=7)] == [
        (0, 0, b"A: b"), (1, 39, b"Content-Length: 3\n\nabc")]  # and no empty message after it


def test_a_parameter_pythons_codecs_refuse_costs_one_message_not_the_archive() -> None:
    # RFC 2231 (boundary*=charset'lang'value) with a NUL in the charset: the
    # parser's get_boundary raised ValueError and the rest of the archive was lost
    mbox = (ENVELOPE + b"Subject: one\n\nhttp://one.example/\n\n" + ENVELOPE
            + b"Content-Type: multipart/mixed; boundary*=a\x00''x\n\n--x\n\nhttp://nul.example/\n--x--\n\n"
            + ENVELOPE + b"Subject: three\n\nhttp://three.example/\n")
    items = [i for i in scan_mbox(io.BytesIO(mbox)) if not _stdlib_3_11_2(i)]
    assert [(i.origin.message, i.uri, i.origin.part, i.line) if isinstance(i, Record)
            else (i.origin.message, i.kind, i.detail) for i in items] == [
        (0, "http://one.example/", "1", 1),
        (1, DefectKind.BROKEN_MIME, "the MIME parser failed on this message (ValueError: embedded null character): "
                                    "its heading was read, and its whole body as text"),
        (1, "http://nul.example/", "1", 3),
        (2, "http://three.example/", "1", 1)]


def test_a_charset_parameter_pythons_codecs_refuse_is_no_charset() -> None:
    data = b"Content-Type: text/plain; charset*=a\x00''x\n\nhttp://a.example/\n"
    assert _items(data) == [("http://a.example/", "http://a.example/", "1", 1, 1)]


@pytest.mark.parametrize("label", ["quoted-printable", "base64", "rot13"])
def test_a_charset_that_names_a_codec_but_no_charset_is_unknown(label: str) -> None:
    # Python has codecs by these names, but no text encodings: bytes.decode
    # raised LookupError out of the scan (one such part cost the archive)
    data = f"Content-Type: text/plain; charset={label}\n\nhttp://a.example/\n".encode()
    assert _items(data) == [
        (DefectKind.UNKNOWN_CHARSET, f"declared charset {label!r} is not one Python can decode; detected instead",
         None),
        ("http://a.example/", "http://a.example/", "1", 1, 1)]


# -- the fields the parser is spared (issue 24) ----------------------------------------------------

def test_unread_fields_are_those_no_step_reads() -> None:
    from urisift.readers.mail.header_uris import _kind

    names = [name.lower() for name in nesting.UNREAD_FIELDS]
    assert [name for name in names if _kind(name)] == []
    assert [name for name in names if name.startswith("content-") or name in ("message-id", "subject")] == []


def test_unread_fields_leave_the_heading_as_written_otherwise() -> None:
    data = (b"Received: from a\n\tby b\nSubject: s\nRECEIVED: c\nX-Mailer: m\n  folded\n"
            b"Date: d\nReceived-By: kept\nTo: x\n\nReceived: in the body\n")
    assert nesting.without_unread_fields(data) == (b"Subject: s\nX-Mailer: m\n  folded\nReceived-By: kept\n\n"
                                                   b"Received: in the body\n")
    crlf = b"Received: a\r\n b\r\nSubject: s\r\nTo: t\r\n\r\nbody\r\n"
    assert nesting.without_unread_fields(crlf) == b"Subject: s\r\n\r\nbody\r\n"
    # left whole: a lone CR (the parser's line ends), a "From " line ending the heading
    for whole in (b"Subject: s\rReceived: a\n\nbody\n", b"Received: a\nFrom b\nTo: c\n\nbody\n"):
        assert nesting.without_unread_fields(whole) == whole
    # a line that is no field ends the heading: what follows is body, kept
    assert nesting.without_unread_fields(b"To: a\nnot a field\nTo: b\n\n") == b"not a field\nTo: b\n\n"


_LINES = st.sampled_from([
    "Received: from a", "received: b", "To: t", "Subject: http://s.example/", "Content-Type: text/plain",
    "Content-Type: multipart/mixed; boundary=b", "\tfolded", " folded http://f.example/", "From x", ":no name",
    "X-Mailer: m", "not a field", "", "--b", "Content-Base: http://base.example/", "Date: d"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=14), st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_the_parser_makes_the_same_of_what_is_left(lines: list[str], end: str, tail: bool) -> None:
    data = (end.join(lines) + (end if tail else "")).encode()
    unread = {name.lower() for name in nesting.UNREAD_FIELDS}

    def shape(message: Message, drop: bool) -> list[object]:
        return [([(k, v) for k, v in part._headers if not (drop and part is message and k.lower() in unread)],
                 [type(d).__name__ for d in part.defects], part.get_unixfrom(), part.get_content_type(),
                 part._payload if isinstance(part._payload, str) else None) for part in message.walk()]

    whole = email.message_from_bytes(data, policy=compat32)
    spared = email.message_from_bytes(nesting.without_unread_fields(data), policy=compat32)
    assert shape(spared, True) == shape(whole, True)
    assert [h for h in spared._headers if h not in whole._headers] == []
