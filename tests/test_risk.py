"""Seed 002 §7 risk flags: each flag on a URI that deserves it, and a benign
look-alike that must not get it."""

from __future__ import annotations

import pytest

from urisift import record_json, risks, scan_text
from urisift.uri.risk import rare_ipv4


def flags(uri: str) -> list[str]:
    return [r.flag for r in risks(uri)]


@pytest.mark.parametrize("uri, expected", [
    # §7.5 semantic attack: the seed's own example, and the benign look-alikes
    ("http://www.example.com&story=breaking_news@10.0.0.1/top_story.htm", ["userinfo"]),
    ("ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm", ["userinfo"]),
    ("http://www.example.com/story@breaking_news/top_story.htm", []),  # "@" in the path
    ("ssh://deploy@build.example.net/srv", []),  # an ordinary user name
    ("mailto:joe@www.example.com", []),  # no authority at all
    # §7.4 password
    ("ftp://anonymous:secret@ftp.example.org/", ["password"]),
    ("ftp://anonymous:@ftp.example.org/", []),  # an empty password is no secret
    ("ftp://anonymous@ftp.example.org/", []),
    # §7.3 rare IPv4 forms
    ("http://0x7f.0.0.1/", ["rare-ip"]),
    ("http://0177.0.0.1/", ["rare-ip"]),
    ("http://127.1/", ["rare-ip"]),
    ("http://2130706433/", ["rare-ip"]),
    ("http://127.0.0.1/", []),
    ("http://127.0.0.1./", []),
    ("http://1.2.3.example/", []),
    ("http://0x7f.example/", []),
    # §7.2 reserved ports
    ("http://www.example.com:25/", ["reserved-port"]),
    ("gopher://www.example.com:25/", ["reserved-port"]),
    ("foo://www.example.com:25/", ["reserved-port"]),
    ("http://www.example.com:80/", []),
    ("https://www.example.com:443/", []),
    ("http://www.example.com:8080/", []),
    ("http://www.example.com:/", []),
    # §7.2 escaped CR/LF in a line-based protocol
    ("http://www.example.com/a%0D%0ASet-Cookie:x=1", ["encoded-crlf"]),
    ("telnet://host/%0a", ["encoded-crlf"]),
    ("data:text/plain,line1%0D%0Aline2", []),
    ("mailto:joe@example.com?body=line1%0D%0Aline2", []),
    ("http://www.example.com/a%0Bb", []),
    # several at once
    ("http://user:pw@0x7f.1:25/%0d", ["userinfo", "password", "rare-ip", "reserved-port", "encoded-crlf"]),
])
def test_risk_flags(uri: str, expected: list[str]) -> None:
    assert flags(uri) == expected


@pytest.mark.parametrize("host, dotted", [
    ("192.0.2.1", None), ("0300.0.2.1", "192.0.2.1"), ("0xC0.0.2.1", "192.0.2.1"), ("192.0.513", "192.0.2.1"),
    ("192.513", "192.0.2.1"), ("192.131073", "192.2.0.1"), ("3221225985", "192.0.2.1"), ("0xc0000201", "192.0.2.1"),
    ("256.1.1.1", None), ("1.2.3.4.5", None), ("1.2.3.256", None), ("4294967296", None), ("08.1.1.1", None),
    ("", None), ("1..2", None), ("example.com", None),
])
def test_rare_ipv4_values(host: str, dotted: str | None) -> None:
    assert rare_ipv4(host) == dotted


def test_details_say_what_was_found() -> None:
    (userinfo,) = risks("http://www.example.com&story=x@10.0.0.1/")
    assert str(userinfo) == "userinfo (§7.5): 'www.example.com&story=x' stands before '@'; the host is '10.0.0.1'"
    (rare,) = risks("http://0x7f.1/")
    assert rare.to_json() == {
        "flag": "rare-ip", "section": "7.3", "detail": "host '0x7f.1' is the IPv4 address 127.0.0.1"}


def test_records_carry_risks() -> None:
    (record,) = scan_text("see http://0x7f.1/ now")
    assert [r.flag for r in record.risks] == ["rare-ip"]
    assert record_json(record)["risks"] == [{"flag": "rare-ip", "section": "7.3",
                                          "detail": "host '0x7f.1' is the IPv4 address 127.0.0.1"}]
