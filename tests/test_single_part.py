"""mail.single_part: a plain single-part message built without the
feedparser is the message the feedparser builds (issue 24)."""

from __future__ import annotations

import email
from email.message import Message
from email.policy import compat32
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urisift.readers.mail.single_part import plain_parse

SHARED = Path(__file__).resolve().parents[2] / "shared" / "corpora"


def _state(message: Message) -> dict[str, object]:
    """Everything the parser leaves on a message (its policy is the one object)."""
    assert message.policy is compat32
    return {key: value for key, value in vars(message).items() if key != "policy"}


def _same_as_the_parser(data: bytes) -> bool:
    """Whether plain_parse took ``data``; when it did, its message is the parser's."""
    plain = plain_parse(data)
    if plain is None:
        return False
    assert _state(plain) == _state(email.message_from_bytes(data, policy=compat32))
    return True


def test_a_plain_message_is_the_parsers_message() -> None:
    data = (b"From someone@example.com Mon Jan  1 00:00:00 2001\n"
            b"Subject:   a subject\n\tfolded http://f.example/\nX-Empty:\nX-Blank: \n continued\n"
            b"Content-Type: text/plain; charset=\"iso-8859-1\"\nX-8bit: caf\xe9\n\nbody http://b.example/\n\n"
            b"Received: in the body\n")
    message = plain_parse(data)
    assert message is not None
    assert message.get_unixfrom() == "From someone@example.com Mon Jan  1 00:00:00 2001"
    assert message._headers == [  # type: ignore[attr-defined]
        ("Subject", "a subject\n\tfolded http://f.example/"), ("X-Empty", ""), ("X-Blank", "\n continued"),
        ("Content-Type", 'text/plain; charset="iso-8859-1"'), ("X-8bit", "caf\udce9")]
    assert message.get_payload() == "body http://b.example/\n\nReceived: in the body\n"
    assert _same_as_the_parser(data)
    crlf = b"Subject: s\r\n t\r\nX-A: b\r\n\r\nbody\r\n"
    assert _same_as_the_parser(crlf)
    assert plain_parse(crlf)._headers == [("Subject", "s\r\n t"), ("X-A", "b")]  # type: ignore[union-attr]


@pytest.mark.parametrize("data", [
    b"Subject: s\rX-A: b\n\nbody\n",  # a lone CR ends a line for the parser
    b"Subject: s\nContent-Type: multipart/mixed; boundary=b\n\n--b\n\nx\n--b--\n",
    b"Subject: s\nContent-Type: message/rfc822\n\nSubject: inner\n\nx\n",
    b"Content-Type: Message/Delivery-Status\n\nReporting-MTA: dns; x\n",
    b"Subject: s\nX-A: no blank line",
    b"Subject: s\nX-A: no blank line\n",
    b" folded first\nSubject: s\n\nbody\n",
    b":no name\n\nbody\n",
    b"Subject: s\nFrom someone\n\nbody\n",  # an envelope line after the first
    b"Subject: s\nnot a field\n\nbody\n",
    b"\nSubject: s\n\nbody\n",
    b"Subj\xe9ct: s\n\nbody\n",
])
def test_what_is_left_to_the_parser(data: bytes) -> None:
    assert plain_parse(data) is None


_FIELDS = st.sampled_from([
    "Subject: s", "subject:", "X-A: a http://a.example/", "X-Empty:", "X-Blank: \t", "\tfolded", " folded",
    " ", "From: f", "Content-Type: text/html", "Content-Type: multipart/alternative; boundary=b",
    "CONTENT-TYPE: MESSAGE/RFC822", "content-type: multipart", "Content-Type: text/plain; charset=utf-8",
    "X-Ctl: \x0b\x0c\x1c\x00", "X-8: \xe9\u00ff"])
#: lines that make the parser do something else: a defect, the body sooner, another line end
_ODD = st.sampled_from(["From x", ":no name", "not a field", "", "--b", "Subj\xe9ct: s", "X-A: a\rb"])


@settings(max_examples=500, deadline=None)
@given(st.booleans(), st.lists(_FIELDS, max_size=12), st.lists(st.tuples(st.integers(0, 12), _ODD), max_size=1),
       st.one_of(st.sampled_from([["\n"], ["\r\n"], ["\n", "\r\n"]]),
                 st.lists(st.sampled_from(["\n", "\r\n", "\r", "\n\r"]), min_size=1, max_size=3)),
       st.sampled_from([True, True, True, False]))
def test_whatever_it_takes_is_what_the_parser_makes(envelope: bool, lines: list[str], odd: list[tuple[int, str]],
                                                    ends: list[str], body: bool) -> None:
    for at, line in odd:
        lines.insert(at, line)
    if envelope:
        lines.insert(0, "From someone@example.com Mon Jan  1 00:00:00 2001")
    if body:
        lines += ["", "body http://b.example/", "", "Subject: not a field here"]
    text = "".join(line + ends[i % len(ends)] for i, line in enumerate(lines))
    _same_as_the_parser(text.encode("latin-1"))


def test_real_mail_is_parsed_the_same() -> None:
    folder = SHARED / "spamassassin-2002"
    if not folder.is_dir():
        pytest.skip("../shared is absent")
    taken = sum(_same_as_the_parser(path.read_bytes()) for path in sorted(folder.rglob("*.txt"))[:1500])
    assert taken > 1000  # most real messages are plain single parts
