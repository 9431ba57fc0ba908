"""Calendars and contacts: iCalendar invites and vCards, unfolded, unescaped, each
URI-valued property a record that names it."""

from __future__ import annotations

import io
import re
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from urisift import Defect, Kind, Record, ScanOptions, iter_input
from urisift.stages.sniff import sniff_kind

INVITE = (
    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Example//EN\r\nBEGIN:VEVENT\r\nUID:1@example.org\r\n"
    "SUMMARY:Quarterly review\\, see https://summary.example/q3\r\n"
    'ORGANIZER;CN="Ann: Boss":mailto:ann@example.org\r\n'
    "ATTENDEE;RSVP=TRUE:mailto:bo@example.org\r\n"
    "URL:https://meet.example.org/a/very/long/path/that/gets/folded/at/seventy\r\n -five/octets/index.html\r\n"
    "DESCRIPTION:Join at https://join.example/abc\\nor dial in.\\nAgenda: https:/\r\n /agenda.example/doc\r\n"
    'X-ALT-DESC;FMTTYPE=text/html:<p><a href="https://html.example/desc">join</a></p>\r\n'
    "CONFERENCE;VALUE=URI;FEATURE=VIDEO:https://video.example/room\r\n"
    "ATTACH;FMTTYPE=text/html;ENCODING=BASE64;VALUE=BINARY:PGEgaHJlZj0iaHR0cHM6Ly9hdHRhY2hlZC5leGFtcGxlLyI+YTwvYT4=\r\n"
    "END:VEVENT\r\nEND:VCALENDAR\r\n")
CARD = ("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ann\r\nitem1.URL:https://ann.example/ho\r\n me\r\n"
        "EMAIL;TYPE=work:ann@example.org\r\nPHOTO;ENCODING=b;TYPE=JPEG:/9j/4AAQSkZJRgABAQ\r\n"
        "IMPP:xmpp:ann@example.org\r\nNOTE:see http://note.example/\r\nEND:VCARD\r\n")


def _records(path: Path | str, **options: object) -> list[tuple[object, ...]]:
    items = list(iter_input(str(path), ScanOptions(**options)))  # type: ignore[arg-type]
    assert not [i for i in items if isinstance(i, Defect)]
    return [(r.target, r.header, r.where.value, r.line, r.column) for r in items if isinstance(r, Record)]


EXPECTED_INVITE = [
    ("https://summary.example/q3", "SUMMARY", "text", 6, None),
    ("mailto:ann@example.org", "ORGANIZER", "text", 7, 26),
    ("mailto:bo@example.org", "ATTENDEE", "text", 8, 20),
    # folded at 75 octets: one URL, where it starts in the file
    ("https://meet.example.org/a/very/long/path/that/gets/folded/at/seventy-five/octets/index.html", "URL", "text",
     9, 5),
    ("https://join.example/abc", "DESCRIPTION", "text", 11, None),
    ("https://agenda.example/doc", "DESCRIPTION", "text", 11, None),  # folded inside the URL, unescaped
    ("https://html.example/desc", None, "html", 13, None),
    ("https://video.example/room", "CONFERENCE", "text", 14, 36),
    ("https://attached.example/", None, "html", 15, None),
]


def test_an_invites_properties_are_unfolded_unescaped_and_named(tmp_path: Path) -> None:
    (tmp_path / "invite.ics").write_text(INVITE, newline="")
    assert _records(tmp_path / "invite.ics") == EXPECTED_INVITE
    assert sniff_kind(INVITE.encode()) is Kind.CALENDAR and sniff_kind(CARD.encode()) is Kind.VCARD


def test_a_vcards_uris_and_its_email_as_mailto(tmp_path: Path) -> None:
    (tmp_path / "ann.vcf").write_text(CARD, newline="")
    assert _records(tmp_path / "ann.vcf") == [
        ("https://ann.example/home", "URL", "text", 4, 11),  # a group's property (item1.URL), folded
        ("mailto:ann@example.org", "EMAIL", "text", 6, 17),
        ("xmpp:ann@example.org", "IMPP", "text", 8, 6),  # (the inline PHOTO is no reference)
        ("http://note.example/", "NOTE", "text", 9, None)]


def test_an_invite_attached_to_a_message_is_read_as_a_calendar(tmp_path: Path) -> None:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "a@x.example", "b@x.example", "Invitation"
    message.set_content("You are invited.\n")
    message.add_attachment(INVITE.encode(), maintype="text", subtype="calendar", filename="invite.ics")
    (tmp_path / "invite.eml").write_bytes(bytes(message))
    items = [i for i in iter_input(str(tmp_path / "invite.eml")) if isinstance(i, Record)]
    assert [(r.target, r.header, r.origin.part) for r in items][:3] == [
        ("https://summary.example/q3", "SUMMARY", "2"), ("mailto:ann@example.org", "ORGANIZER", "2"),
        ("mailto:bo@example.org", "ATTENDEE", "2")]
    assert len(items) == len(EXPECTED_INVITE)


def test_on_standard_input_with_kind() -> None:
    items = list(iter_input("-", ScanOptions(kind=Kind.VCARD), stdin=io.BytesIO(CARD.encode())))
    assert len([i for i in items if isinstance(i, Record)]) == 4


def test_a_ten_megabyte_folded_line_and_many_properties_are_read_to_the_end(tmp_path: Path) -> None:
    url = "URL:https://long.example/" + "a" * 10_000_000
    folded = "\r\n ".join(url[i:i + 74] for i in range(0, len(url), 74))
    (tmp_path / "long.ics").write_text("BEGIN:VCALENDAR\r\n" + folded + "\r\nSUMMARY:after https://after.example/\r\n"
                                       "END:VCALENDAR\r\n", newline="")
    records = _records(tmp_path / "long.ics", fields=frozenset({"target", "header", "line"}))
    assert [(r[1], r[3]) for r in records] == [("URL", 2), ("SUMMARY", 135_138)]
    lines = "".join(f"ATTENDEE:mailto:p{n}@example.org\r\n" for n in range(100_000))
    (tmp_path / "many.ics").write_text(f"BEGIN:VCALENDAR\r\n{lines}END:VCALENDAR\r\n", newline="")
    many = _records(tmp_path / "many.ics", fields=frozenset({"target"}))
    assert len(many) == 100_000 and many[-1][0] == "mailto:p99999@example.org"


def test_a_vcard_2_1s_bare_parameters_and_www_url(tmp_path: Path) -> None:
    # as mailers attached them (linux-mips, 2000s): a parameter without a value, a URL with no scheme
    (tmp_path / "old.vcf").write_text("BEGIN:VCARD\r\nVERSION:2.1\r\nURL;WORK:www.exfo.com\r\n"
                                      "TEL;WORK;FAX:301-595-2637\r\nEND:VCARD\r\n", newline="")
    assert _records(tmp_path / "old.vcf") == [("http://www.exfo.com", "URL", "text", 3, 10)]


def test_folds_anywhere_and_every_line_break_keep_each_value_and_where_it_stands(tmp_path: Path) -> None:
    # a fold in a property's name and in a quoted parameter (the line is read unfolded), a tab for a fold, LF line
    # ends, a text property with nothing to find, and, last, CR line ends with a value that starts after a fold
    (tmp_path / "folded.ics").write_text(
        'BEGIN:VCALENDAR\r\nU\r\n RL;X-A="q:;\r\n v":https://a.exa\r\n\tmple/p\r\nSUMMARY:no link here\n'
        "LOCATION:room www.room.example\nCOMMENT:see evil[.]example\r\nORGANIZER:mailto:a@b%2\r\n"
        "ATTENDEE:mailto:bo@example.org\rURL:\r https://cr.example/\rEND:VCALENDAR", newline="")
    items = [i for i in iter_input(str(tmp_path / "folded.ics")) if isinstance(i, Record)]
    assert [(r.uri, r.target, r.header, r.span, r.line, r.column, [k.flag for k in r.risks]) for r in items[:4]] == [
        ("https://a.example/p", "https://a.example/p", "URL", (38, 60), 4, 5, []),
        ("www.room.example", "http://www.room.example", "LOCATION", None, 7, None, []),
        ("mailto:a@b%2", "mailto:a@b%2", "ORGANIZER", (152, 164), 9, 11, ["invalid"]),
        ("mailto:bo@example.org", "mailto:bo@example.org", "ATTENDEE", (175, 196), 10, 10, [])]
    assert [(r.uri, r.span) for r in items[4:]] == [("https://cr.example/", (203, 222))]
    # a defanged host holds no ":" and no www.: read back where asked
    refanged = [i for i in iter_input(str(tmp_path / "folded.ics"), ScanOptions(refang=True)) if isinstance(i, Record)]
    assert [(r.uri, r.target, r.header, r.line) for r in refanged if r.header == "COMMENT"] == [
        ("evil[.]example", "http://evil.example", "COMMENT", 8)]


#: one property of each way the reader takes a line: a URI value (with parameters, quoted ones), a mailto:, TEXT
#: with references, vCard's EMAIL, Outlook's HTML description, an inline ATTACH, a group's lower-case name, and a
#: property it does not read whose value holds a URL
PROPERTIES = [
    "URL;VALUE=URI:https://a.example/p", 'ORGANIZER;CN="Ann: Boss";X=a,"b;c":mailto:ann@example.org',
    "DESCRIPTION:see https://d.example/x\\, and\\nwww.w.example", "item1.EMAIL;TYPE=work: ann@example.org",
    'X-ALT-DESC;FMTTYPE=text/html:<a href="https://h.example/">x</a>', "x-g.url:  https://g.example/ ",
    "ATTACH;FMTTYPE=text/html;ENCODING=BASE64;VALUE=BINARY:PGEgaHJlZj0iaHR0cHM6Ly9hdHRhY2hlZC5leGFtcGxlLyI+YTwvYT4=",
    "DTSTART;X-URL=x:https://not-read.example/", "ATTENDEE:mailto:bo@example.org"]
_FOLD = re.compile(r"(?:\r\n|\n|\r)[ \t]")


def _read(calendar: str) -> list[tuple[object, ...]]:
    items = list(iter_input("-", ScanOptions(kind=Kind.CALENDAR), stdin=io.BytesIO(calendar.encode())))
    assert not [i for i in items if isinstance(i, Defect)]
    records = [r for r in items if isinstance(r, Record)]
    for r in records:  # a value's span, unfolded, is its value, and its line the one its value starts on
        if r.span is not None:
            assert _FOLD.sub("", calendar[r.span.start:r.span.end]) == r.uri  # (an EMAIL's too, folded in it)
            before = calendar[:r.span.start]  # (a CR alone is a line break too: a fold may be one)
            assert r.line == before.count("\n") + before.count("\r") - before.count("\r\n") + 1
    # (a record without a span stands on its property's first line)
    return [(r.uri, r.target, r.header, r.where.value, r.line if r.span is None else None,
             [k.flag for k in r.risks]) for r in records]


@settings(max_examples=400)
@given(st.sampled_from(PROPERTIES), st.integers(1, 120), st.sampled_from(["\r\n", "\n", "\r"]),
       st.sampled_from([" ", "\t"]), st.sampled_from(["\r\n", "\n"]))
@example("URL;VALUE=URI:https://a.example/p", 2, "\r\n", " ", "\r\n")  # (in the name)
@example("URL;VALUE=URI:https://a.example/p", 6, "\r\n", " ", "\r\n")  # (in a parameter)
@example("URL;VALUE=URI:https://a.example/p", 20, "\r\n", " ", "\r\n")  # (in the value)
@example("item1.EMAIL;TYPE=work: ann@example.org", 30, "\r\n", " ", "\r\n")  # (in an address: its span was cut)
def test_a_fold_anywhere_in_a_property_changes_no_record(property_line: str, at: int, fold: str, space: str,
                                                           end: str) -> None:
    # a fold in the name or the parameters has the line's head read in it unfolded; one after them, the head read
    # on the first physical line: the same records either way, as the line unfolded gives them
    at = at % (len(property_line) - 1) + 1
    folded = property_line[:at] + fold + space + property_line[at:]
    def calendar(line: str) -> str:
        return end.join(["BEGIN:VCALENDAR", line, "URL:https://after.example/", "END:VCALENDAR", ""])
    once = _read(calendar(property_line))
    assert once and once[-1][0] == "https://after.example/"
    assert _read(calendar(folded)) == once


@settings(max_examples=300)
@given(st.text(alphabet="URL:htps/.ab;=\"", min_size=2, max_size=30), st.lists(st.integers(1, 40), max_size=3),
       st.lists(st.sampled_from(["\r\n ", "\n ", "\r\t", "\r\n\t"]), min_size=3, max_size=3))
def test_a_folded_line_unfolds_to_its_pieces_each_where_it_stands(line: str, cuts: list[int], folds: list[str]
                                                                  ) -> None:
    # once folded (the commonest, taken at once) or more: the line unfolded, and each piece where the file has it
    from urisift.readers.calendar import _CONTENT_LINE, _unfolded

    text, at = "", 0
    for cut, fold in zip(sorted({c % len(line) or 1 for c in cuts}), folds, strict=False):
        text, at = text + line[at:cut] + fold, cut
    text = "X:y\r\n" + text + line[at:] + "\r\nEND:Z"
    match = _CONTENT_LINE.match(text, 5)
    assert match is not None
    if not match.group(4):
        return
    unfolded, where = _unfolded(match)
    assert unfolded == line and where[0] == (0, 5)
    for (offset, in_text), (following, _) in zip(where, [*where[1:], (len(line), 0)], strict=True):
        assert text[in_text:in_text + following - offset] == line[offset:following]


@pytest.mark.parametrize("end", ["\r", "\r\n", "\n"])
def test_a_record_s_line_and_column_count_a_lone_cr_as_a_line_break(end: str) -> None:
    # (old Mac writers end lines with CR alone: the records' lines were all 1, their columns the offset in the file)
    calendar = end.join(["BEGIN:VCALENDAR", "BEGIN:VEVENT", "URL:https://a.example/x", "ATTENDEE:mailto:b@example.org",
                         "DESCRIPTION:see https://d.example/", "END:VEVENT", "END:VCALENDAR", ""])
    items = list(iter_input("-", ScanOptions(kind=Kind.CALENDAR), stdin=io.BytesIO(calendar.encode())))
    assert [(r.uri, r.line, r.column) for r in items if isinstance(r, Record)] == [
        ("https://a.example/x", 3, 5), ("mailto:b@example.org", 4, 10), ("https://d.example/", 5, None)]
    mixed = "BEGIN:VCALENDAR\r\nURL:https://a.example/\rURL:https://b.example/\nURL:https://c.example/\r\n"
    items = list(iter_input("-", ScanOptions(kind=Kind.CALENDAR), stdin=io.BytesIO(mixed.encode())))
    assert [(r.uri, r.line, r.column) for r in items if isinstance(r, Record)] == [
        ("https://a.example/", 2, 5), ("https://b.example/", 3, 5), ("https://c.example/", 4, 5)]
