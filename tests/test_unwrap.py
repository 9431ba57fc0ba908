"""Issue 23: rewritten links unwrapped, a test per row of the table (samples
built as the services publish their formats), nested wrapping, broken
wrappers as flags; and deceptive link text."""

from __future__ import annotations

import io
import itertools

import pytest

from urisift import Record, scan_html, scan_text
from urisift.cli.command import main
from urisift.model import Risk
from urisift.uri.deceptive import deception, text_host
from urisift.uri.unwrap import WRAPPERS, BrokenWrapper, _one, may_be_wrapped, unwrap

SAFELINKS = ("https://nam12.safelinks.protection.outlook.com/?url=https%3A%2F%2Fwww.example.com%2Freport%3Fid%3D7"
             "&data=05%7C02%7Cuser%40contoso.com%7C6b1f0e3c%7C72f988bf86f141af91ab2d7cd011db47%7C1%7C0%7C63851"
             "%7CUnknown%7CTWFpbGZsb3d8eyJWIjoiMC4wLjAwMDAifQ%3D%3D%7C0%7C%7C%7C&sdata=Zx9aQ%2Bk%3D&reserved=0")
CASES = [
    ("safelinks", SAFELINKS, "https://www.example.com/report?id=7"),
    ("proofpoint-v1", "https://urldefense.proofpoint.com/v1/url?u=http://www.example.com/page.html"
                      "&k=8F5TVnBDKF32UabxXsxZiA%3D%3D%0A&r=abc&m=def&s=ghi", "http://www.example.com/page.html"),
    ("proofpoint-v2", "https://urldefense.proofpoint.com/v2/url?u=https-3A__www.example.com_docs_report-3Fid-3D7"
                      "-26lang-3Den&d=DwMFAg&c=euGZstcaTDllvimEN8b7jXrwqOf-v5A_CdpgnVfiiMM&r=abc&m=def&s=ghi&e=",
     "https://www.example.com/docs/report?id=7&lang=en"),
    ("proofpoint-v3", "https://urldefense.com/v3/__https://www.example.com/search?q=a*20b&x=1__;JQ!!OrgId!Ab12Cd$",
     "https://www.example.com/search?q=a%20b&x=1"),
    ("barracuda", "https://linkprotect.cudasvc.com/url?a=https%3a%2f%2fwww.example.com%2finvoice&c=E,1,AbCdEf,&typo=1",
     "https://www.example.com/invoice"),
    ("trendmicro", "https://imsva91-ctp.trendmicro.com:443/wis/clicktime/v1/query?url=https%3a%2f%2fwww.example.com"
                   "%2f&umid=4B2A3C&auth=0123abcd", "https://www.example.com/"),
    ("google", "https://www.google.com/url?q=https://www.example.com/page&sa=D&source=docs&ust=1714737600000000"
               "&usg=AOvVaw0x", "https://www.example.com/page"),
    ("google", "https://www.google.co.uk/url?sa=t&rct=j&url=https%3A%2F%2Fwww.example.com%2F&ved=2ahUKEw",
     "https://www.example.com/"),
    ("facebook", "https://l.facebook.com/l.php?u=https%3A%2F%2Fwww.example.com%2Fstory%3Fref%3Dfb&h=AT0abc",
     "https://www.example.com/story?ref=fb"),
    ("linkedin", "https://www.linkedin.com/redir/redirect?url=https%3A%2F%2Fwww%2Eexample%2Ecom%2Fjobs&urlhash=Ab1c"
                 "&trk=public_profile", "https://www.example.com/jobs"),
    ("youtube", "https://www.youtube.com/redirect?event=video_description&redir_token=QUFFLUhq&q=https%3A%2F%2F"
                "www.example.com%2Fshop&v=dQw4w9WgXcQ", "https://www.example.com/shop"),
    ("slack", "https://slack-redir.net/link?url=https%3A%2F%2Fwww.example.com%2Fdoc", "https://www.example.com/doc"),
    # issue 55's rows
    ("aws-ses", "https://abc123.r.us-east-1.awstrack.me/L0/https:%2F%2Fwww.example.com%2Fsale%3Fa=1%26b=2/1/"
                "0100018f5f1a2b3c-4d5e6f70-1a2b-4c3d-9e8f-0123456789ab-000000/AbCdEf0123456789=123",
     "https://www.example.com/sale?a=1&b=2"),
    ("cisco", "https://secure-web.cisco.com/1AbC_dEf-GhIjKlMnOpQrStUvWxYz0123456789/https%3A%2F%2Fwww.example.com"
              "%2Finvoice%3Fid%3D7", "https://www.example.com/invoice?id=7"),
    ("sophos", "https://eu-central-1.protection.sophos.com?d=example.com&u=aHR0cHM6Ly93d3cuZXhhbXBsZS5jb20vcGF5P3g9"
               "MSZ5PTI=&i=NWY4ZTA&t=dGVzdA==&h=0123abcd&s=AVNPUEhUT0NFTkNSWVBUSVbB", "https://www.example.com/pay?x=1&y=2"),
    ("sophos", "https://us-west-2.protection.sophos.com/?d=example.com&u=aHR0cHM6Ly93d3cuZXhhbXBsZS5jb20vPz8%2B&i=x",
     "https://www.example.com/??>"),
    ("fireeye", "https://protect2.fireeye.com/v1/url?k=31323334-50bba2bf-31323334-454455534531-f1b0e4d4fcf8f4a4&q=1"
                "&e=a1b2c3d4-0000-4000-8000-000000000000&u=https%3A%2F%2Fwww.example.com%2Fdoc", "https://www.example.com/doc"),
    ("google-amp", "https://www.google.com/amp/s/www.example.com/news/story.amp.html", "https://www.example.com/news/story.amp.html"),
    ("google-amp", "https://www-example-com.cdn.ampproject.org/c/s/www.example.com/news/story", "https://www.example.com/news/story"),
    ("google-amp", "https://www.google.co.uk/amp/www.example.com/plain", "http://www.example.com/plain"),
    ("bing", "https://www.bing.com/ck/a?!&&p=0123abcdJmltdHM9MTcxNDY5NDQwMA&ptn=3&ver=2&hsh=3&fclid=1a2b"
             "&u=a1aHR0cHM6Ly93d3cuZXhhbXBsZS5jb20vcGFnZT94PTE&ntb=1", "https://www.example.com/page?x=1"),
    ("yahoo", "https://r.search.yahoo.com/_ylt=AwrE;_ylu=Y29sbwNiZjEEcG9zAzEEdnRpZAMEc2VjA3Ny/RV=2/RE=1714700000/RO=10"
              "/RU=https%3a%2f%2fwww.example.com%2fpage%3fx%3d1/RK=2/RS=AbCdEf0123-", "https://www.example.com/page?x=1"),
    ("duckduckgo", "https://duckduckgo.com/l/?uddg=https%3A%2F%2Fwww.example.com%2Fpage%3Fx%3D1&rut=0123abcd",
     "https://www.example.com/page?x=1"),
    ("steam", "https://steamcommunity.com/linkfilter/?url=https://www.example.com/mod", "https://www.example.com/mod"),
    ("steam", "https://steamcommunity.com/linkfilter/?u=https%3A%2F%2Fwww.example.com%2Fmod", "https://www.example.com/mod"),
    ("instagram", "https://l.instagram.com/?u=https%3A%2F%2Fwww.example.com%2Fshop&e=AT0abc", "https://www.example.com/shop"),
    ("vk", "https://vk.com/away.php?to=https%3A%2F%2Fwww.example.com%2F&cc_key=", "https://www.example.com/"),
    ("tumblr", "https://t.umblr.com/redirect?z=https%3A%2F%2Fwww.example.com%2Fpost&t=YWJj&b=t%3A1&p=x&m=1",
     "https://www.example.com/post"),
    ("symantec", "https://clicktime.symantec.com/3AbCdEfGhIjK?u=https%3A%2F%2Fwww.example.com%2Freport",
     "https://www.example.com/report"),
]


@pytest.mark.parametrize(("service", "wrapped", "original"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_each_wrapper_gives_the_original(service: str, wrapped: str, original: str) -> None:
    assert unwrap(wrapped) == (original, (service,), None)


def test_every_row_of_the_table_has_a_test() -> None:
    tested = {c[0] for c in CASES} | {"wayback", "mimecast", "t.co"}
    assert {row.service for row in WRAPPERS} == tested


@pytest.mark.parametrize(("wrapped", "original", "wrapper"), [
    ("https://web.archive.org/web/20240503120000/https://www.example.com/", "https://www.example.com/",
     "wayback@2024-05-03T12:00:00Z"),
    ("https://web.archive.org/web/20240503120000im_/https://www.example.com/logo.png",
     "https://www.example.com/logo.png", "wayback@2024-05-03T12:00:00Z"),
    ("https://web.archive.org/web/2024/http:/www.example.com/a", "http://www.example.com/a", "wayback@2024"),
    ("https://webrecorder.example/my-archive/20240503120000mp_/https://www.example.com/", "https://www.example.com/",
     "pywb:my-archive@2024-05-03T12:00:00Z"),
])
def test_archive_replay_keeps_the_capture_time(wrapped: str, original: str, wrapper: str) -> None:
    assert unwrap(wrapped) == (original, (wrapper,), None)


def test_nested_wrappers_are_unwrapped_outermost_first() -> None:
    inner = "https://urldefense.proofpoint.com/v2/url?u=https-3A__www.google.com_url-3Fq-3Dhttps-3A__www.example.com" \
            "_x&d=DwMFAg&c=x&r=y&m=z&s=w&e="
    outer = ("https://eur01.safelinks.protection.outlook.com/?url=" + inner.replace("%", "%25").replace(":", "%3A")
             .replace("/", "%2F").replace("?", "%3F").replace("&", "%26").replace("=", "%3D") + "&data=x&reserved=0")
    assert unwrap(outer) == ("https://www.example.com/x", ("safelinks", "proofpoint-v2", "google"), None)


def test_an_opaque_wrapper_is_named_and_flagged_never_guessed() -> None:
    assert unwrap("https://protect-eu.mimecast.com/s/jYk3CVNlOfGn6vMhGmbnG?domain=example.com") == (
        None, ("mimecast",), Risk("opaque-wrapper", "7.5",
                                  "mimecast hides the target behind a token: where it goes is not in the URL"))


@pytest.mark.parametrize(("wrapped", "detail"), [
    ("https://urldefense.proofpoint.com/v2/url?u=https-3A__www.example.com-ZZ&d=x",
     "the proofpoint-v2 wrapper cannot be decoded: a '-' escape in 'https-3A__www.example.com-ZZ' is not followed "
     "by two hex digits"),
    ("https://urldefense.com/v3/__https://a.example/*x*y__;JQ!!o!t$",
     "the proofpoint-v3 wrapper cannot be decoded: its URL has more '*' than the 1 replacement characters given"),
    ("https://urldefense.com/v3/__https://a.example/*x__;!!!o!t$",
     "the proofpoint-v3 wrapper cannot be decoded: its URL has more '*' than the 0 replacement characters given"),
])
def test_a_broken_wrapper_is_a_flag_not_a_crash(wrapped: str, detail: str) -> None:
    result = unwrap(wrapped)
    assert result is not None and result.url is None
    assert result.risk == Risk("broken-wrapper", "7.5", detail)


@pytest.mark.parametrize("url", ["https://www.example.com/", "https://www.google.com/search?q=x",
                                 "https://web.archive.org/", "mailto:a@example.com", "https://archive.org/details/x"])
def test_what_is_not_wrapped_is_left_alone(url: str) -> None:
    assert unwrap(url) is None


def test_records_carry_the_unwrapped_url_and_unwrap_uses_it() -> None:
    (record,) = [r for r in scan_text(f"see {SAFELINKS} today") if isinstance(r, Record)]
    assert (record.unwrapped, record.wrapper) == ("https://www.example.com/report?id=7", ("safelinks",))
    out, err = io.StringIO(), io.StringIO()
    assert main(["--unwrap"], stdin=io.BytesIO(f"{SAFELINKS}\nhttps://www.example.com/report?id=7\n".encode()),
                stdout=out, stderr=err) == 0
    assert out.getvalue() == "https://www.example.com/report?id=7\n" * 2
    out = io.StringIO()
    assert main(["--unwrap", "--unique"], stdin=io.BytesIO(f"{SAFELINKS}\nhttps://www.example.com/report?id=7\n"
                                                           .encode()), stdout=out, stderr=err) == 0
    assert out.getvalue() == "https://www.example.com/report?id=7\n"


# -- deceptive link text --------------------------------------------------------------------

@pytest.mark.parametrize(("text", "host"), [
    ("www.paypal.com", "www.paypal.com"), ("https://Bank.example/login", "bank.example"),
    ("paypal.com/signin", "paypal.com"), ("Click here", None), ("v2.0", None), ("1.5 mm", None),
    # a host name ends in a top-level domain: a person's initials, a file, a library are none
    ("H.Moon", None), ("asm.js", None), ("Node.js", None), ("М.В.Николаевой", None), ("J.R.R.Tolkien", None),
    ("Walmart.com", "walmart.com"), ("пример.рф", "пример.рф"), ("tickets.xn--p1ai", "tickets.xn--p1ai"),
    ("www.bank.example", "www.bank.example"), ("intranet.internal/login", "intranet.internal"),
    # (a URL names its host whatever it ends in)
    ("http://intranet/login", "intranet"),
])
def test_the_host_a_links_text_names(text: str, host: str | None) -> None:
    assert text_host(text) == host


def test_a_link_whose_text_names_another_host_is_deceptive() -> None:
    page = (f'<a href="{SAFELINKS.replace("www.example.com", "evil.example")}">www.paypal.com</a>'
            '<a href="https://www.example.com/x">example.com</a><a href="https://mail.example.com/">example.com</a>'
            '<a href="https://bank.example.attacker.test/">https://bank.example/login</a><a href="/x">Click</a>')
    links = [r for r in scan_html(page, base="https://h.example/")
             if isinstance(r, Record) and r.element == "a" and r.attribute == "href"]
    assert [[k.detail for k in r.risks if k.flag == "deceptive-text"] for r in links] == [
        ["the link text names 'www.paypal.com'; the link goes to 'evil.example'"], [], [],
        ["the link text names 'bank.example'; the link goes to 'bank.example.attacker.test'"], []]
    assert deception("example.com", None) is None


_SCHEMES = ["https://", "HTTP://", "http://", "ftp://", "", "https:/"]
_HOSTS = ["l.facebook.com", "urldefense.com", "urldefense.proofpoint.com", "web.archive.org", "www.google.com",
          "GOOGLE.co.uk", "host.example:8080", "u@slack-redir.net", "protect-us.mimecast.com",
          "linkprotect.cudasvc.com", "x.safelinks.protection.outlook.com", "a.trendmicro.com:443",
          "www.youtube.com", "www.linkedin.com", "localhost", "wayback.archive-it.org", "lm.facebook.com.",
          # (issue 38's forms)
          "statics.teams.cdn.office.net", "l.messenger.com", "urldefense.us", "url.uk.m.mimecastprotect.com",
          "wayback.archive.org", "safelinks.protection.apps.mil", "m.youtube.com", "maps.google.com"]
_PATHS = ["/url", "/l.php", "/v1/url", "/v2/url", "/v3/__http://x.example/__;!!", "/s/abc", "/link", "/redirect",
          "/redir/redirect", "/wis/clicktime/v1/query", "/web/20240503120000/http://x.example/",
          "/coll/20240503120000id_/http://x.example/", "/coll/2024050312000/http://x", "/", "",
          "/evergreen-assets/safelinks/1/atp-safelinks.html", "/safety/go/", "/wis/clicktime/v2/clickthrough",
          "/all/20240503120000/http://x.example/"]
_QUERIES = ["", "?url=http://x.example/", "?u=http://x.example/", "?q=http%3A%2F%2Fx.example%2F",
            "?a=http://x.example/", "?u=https-3A__x.example_", "#f"]


def test_the_screen_passes_every_url_a_wrapper_reads() -> None:
    # may_be_wrapped is the cheap screen before unwrapping: a URL it turns
    # away must be one no row of the table (nor a pywb replay) unwraps
    wrapped = 0
    for parts in itertools.product(_SCHEMES, _HOSTS, _PATHS, _QUERIES):
        url = "".join(parts)
        if _one_or_broken(url):
            wrapped += 1
            assert may_be_wrapped(url), url
    assert wrapped == 1809  # of 19,950: the table's rows, each way of spelling them


def _one_or_broken(url: str) -> bool:
    try:
        return _one(url) is not None
    except BrokenWrapper:
        return True


def test_the_screen_lets_the_samples_through() -> None:
    for _, wrapped, _ in CASES:
        assert may_be_wrapped(wrapped)
    assert may_be_wrapped("http://localhost:8080/my-coll/20240503120000id_/http://example.com/")
    assert not may_be_wrapped("https://www.example.com/?u=https://urldefense.com/v3/__x")


def test_the_screen_answers_the_same_for_a_host_it_has_seen() -> None:
    # the host's answer is remembered by the host as written: asked again, in another case or another URL, the
    # same answer as the search of the host in lower case
    for _ in range(2):
        assert may_be_wrapped("https://T.CO/abc") and may_be_wrapped("https://t.co/") and not may_be_wrapped(
            "https://t.com/")
        assert may_be_wrapped("https://WWW.Google.COM/url?q=x") and not may_be_wrapped("https://www.example.com/p")
        assert may_be_wrapped("https://faceboo\u212a.com/x")  # (the Kelvin sign is "k" in lower case)
        assert not may_be_wrapped("https://l\u0131nkedin.com/x")  # (a dotless i is no "i")


# -- issue 38: the parameter that holds a URL, each service's forms, values that do not decode ---------

def _rows_with_choices() -> list[tuple[str, str, str, str]]:
    """(service, host, path, parameter) of each row that names more than one parameter."""
    samples = {"google": ("www.google.com", "/url"), "steam": ("steamcommunity.com", "/linkfilter/")}
    return [(row.service, *samples[row.service], name) for row in WRAPPERS if len(row.parameters) > 1
            for name in row.parameters]


@pytest.mark.parametrize(("service", "host", "path", "holder"), _rows_with_choices())
def test_the_target_is_the_parameter_that_holds_a_url(service: str, host: str, path: str, holder: str) -> None:
    # every other parameter the row names holds a search query, a word and a colon, a path
    row = next(r for r in WRAPPERS if r.service == service)
    others = [n for n in row.parameters if n != holder]
    for noise in ("tickets+to+lisbon", "define%3Awrapper", "%2Fsearch%3Fq%3Dx"):
        query = "&".join([*(f"{n}={noise}" for n in others), f"{holder}=ftp%3A%2F%2Ffiles.example%2Fa.txt", "sa=t"])
        assert unwrap(f"https://{host}{path}?{query}") == ("ftp://files.example/a.txt", (service,), None)
        # and in the other order in the query: the value decides, not where it stands
        query = "&".join([f"{holder}=ftp%3A%2F%2Ffiles.example%2Fa.txt", *(f"{n}={noise}" for n in others)])
        assert unwrap(f"https://{host}{path}?{query}") == ("ftp://files.example/a.txt", (service,), None)


def test_google_search_links_whose_q_is_the_query() -> None:
    assert unwrap("https://www.google.de/url?sa=t&rct=j&q=opening%20hours%20museum&esrc=s&source=web&cd=3"
                  "&url=https%3A%2F%2Fmuseum.example%2Fbesuch&ved=0ahUKE") == (
        "https://museum.example/besuch", ("google",), None)
    # q names a URL someone searched for; url is where the result goes
    assert unwrap("https://www.google.com/url?q=http://old.example/&url=https://new.example/&usg=x") == (
        "https://new.example/", ("google",), None)
    # no parameter holds a URL: a search of Google's, not a wrapper
    assert unwrap("https://www.google.com/url?q=lisbon+trams&sa=D") is None
    assert unwrap("https://www.google.com/urls?q=https://a.example/") is None


@pytest.mark.parametrize(("wrapped", "original", "service"), [
    # Safe Links: the Office-document path, the US government, DoD and China clouds, Teams' page
    ("https://eur03.safelinks.protection.outlook.com/ap/x-59584e83/?url=https%3A%2F%2Fcontoso.sharepoint.example"
     "%2F%3Ax%3A%2Fr%2Fbudget.xlsx&data=05%7C02", "https://contoso.sharepoint.example/:x:/r/budget.xlsx", "safelinks"),
    ("https://gcc02.safelinks.protection.office365.us/?url=http%3A%2F%2Fagency.example%2F&data=04", "http://agency.example/",
     "safelinks"),
    ("https://safelinks.protection.apps.mil/?url=https%3A%2F%2Fbase.example%2Fmenu&data=04", "https://base.example/menu",
     "safelinks"),
    ("https://can01.safelinks.protection.partner.outlook.cn/?url=https%3A%2F%2Fshop.example%2F&data=05", "https://shop.example/",
     "safelinks"),
    ("https://statics.teams.cdn.office.net/evergreen-assets/safelinks/2/atp-safelinks.html?url=https%3A%2F%2Fwiki.example"
     "%2Fonboarding&locale=en-gb&dest=https%3A%2F%2Fteams.microsoft.com", "https://wiki.example/onboarding",
     "safelinks"),
    # Proofpoint: v1 and v2 on urldefense.com; v3 on urldefense.us, its "//" collapsed as its decoder repairs it
    ("https://urldefense.com/v1/url?u=http://lab.example/run%3Fid%3D4&k=abc%0A&r=x&m=y&s=z", "http://lab.example/run?id=4",
     "proofpoint-v1"),
    ("https://urldefense.com/v2/url?u=http-3A__lab.example_notes.txt&d=DwIG&c=x", "http://lab.example/notes.txt",
     "proofpoint-v2"),
    ("https://urldefense.us/v3/__https:/lab.example/a*20b__;JQ!!G2kpM7!xyz$", "https://lab.example/a%20b",
     "proofpoint-v3"),
    # Trend Micro's v2 click-through
    ("https://ctp.trendmicro.com/wis/clicktime/v2/clickthrough?url=https%3a%2f%2freport.example%2fq3&umid=9&auth=1",
     "https://report.example/q3", "trendmicro"),
    # Google's redirector on Maps
    ("https://maps.google.com/url?q=https://cafe.example/menu&sa=D", "https://cafe.example/menu", "google"),
    # Facebook's link shim on www., m. and Messenger's
    ("http://www.facebook.com/l.php?u=http%3A%2F%2Fband.example%2Ftour&h=yAQ&s=1", "http://band.example/tour",
     "facebook"),
    ("https://m.facebook.com/l.php?u=https%3A%2F%2Fband.example%2F&h=AT2", "https://band.example/", "facebook"),
    ("https://l.messenger.com/l.php?u=https%3A%2F%2Fphotos.example%2Falbum%2F7&h=AT3", "https://photos.example/album/7",
     "facebook"),
    # LinkedIn: /safety/go (with and without the final "/"), /redir/redirect/ and a warning page
    ("https://www.linkedin.com/safety/go?url=https%3A%2F%2Fcareers.example%2Fjob%2F12&trk=flagship-messaging-web",
     "https://careers.example/job/12", "linkedin"),
    ("https://www.linkedin.com/safety/go/?url=https%3A%2F%2Fcerts.example%2Fc%2F9&urlhash=0t8r&isSdui=true",
     "https://certs.example/c/9", "linkedin"),
    ("https://www.linkedin.com/redir/redirect/?url=https%3A%2F%2Fblog.example%2F&urlhash=Zz", "https://blog.example/",
     "linkedin"),
    ("https://www.linkedin.com/redir/general-malware-page?url=https%3A%2F%2Fdb%2eexample%2F", "https://db.example/",
     "linkedin"),
    # YouTube's mobile host
    ("https://m.youtube.com/redirect?event=comments&q=https%3A%2F%2Fstore.example%2F&redir_token=Q", "https://store.example/",
     "youtube"),
])
def test_each_services_other_forms(wrapped: str, original: str, service: str) -> None:
    assert unwrap(wrapped) == (original, (service,), None)


@pytest.mark.parametrize(("wrapped", "original", "wrapper"), [
    ("http://wayback.archive.org/web/20110911111128/http://spec.example/bps/", "http://spec.example/bps/",
     "wayback@2011-09-11T11:11:28Z"),
    ("https://wayback.archive-it.org/all/20130930230459/http://dept.example.edu/", "http://dept.example.edu/",
     "wayback@2013-09-30T23:04:59Z"),
])
def test_the_wayback_machines_other_hosts_and_archive_it_across_collections(wrapped: str, original: str,
                                                                             wrapper: str) -> None:
    assert unwrap(wrapped) == (original, (wrapper,), None)


def test_mimecasts_newer_host_is_opaque_too() -> None:
    result = unwrap("https://url.za.m.mimecastprotect.com/s/EoS3C98BNNi2ZMRhofXTqRd1S?domain=github.com")
    assert result is not None and (result.url, result.wrappers, result.risk.flag if result.risk else None) == (
        None, ("mimecast",), "opaque-wrapper")


@pytest.mark.parametrize("url", [
    "https://www.linkedin.com/feed/?url=https%3A%2F%2Fa.example%2F", "https://www.linkedin.com/redir/",
    "https://statics.teams.cdn.office.net/other/?url=https%3A%2F%2Fa.example%2F",
    "https://community.mimecast.com/s/article/Managing-API-Applications", "https://www.facebook.com/l.phpx?u=https://a.example/",
    "https://slack-redir.net/linked?url=https://a.example/",
])
def test_a_services_other_pages_are_not_wrappers(url: str) -> None:
    assert unwrap(url) is None


@pytest.mark.parametrize(("wrapped", "detail"), [
    # a bad escape inside the value, and one the value's end cut off
    ("https://eur02.safelinks.protection.outlook.com/?url=https%3A%2F%2Fpay.example%2Fa%zzb&data=05",
     "the safelinks wrapper cannot be decoded: its url parameter has a '%' not followed by two hex digits at offset "
     "29 (a bad escape, or one cut off): 'https%3A%2F%2Fpay.example%2Fa%zzb'"),
    ("https://l.facebook.com/l.php?u=https%3A%2F%2Fpay.example%2Finvoice%3Fn%3D1%2",
     "the facebook wrapper cannot be decoded: its u parameter has a '%' not followed by two hex digits at offset 43 "
     "(a bad escape, or one cut off): 'https%3A%2F%2Fpay.example%2Finvoice%3Fn%3D1%2'"),
    # a value cut off after its scheme, or nothing at all
    ("https://slack-redir.net/link?url=https%3A%2F%2F",
     "the slack wrapper cannot be decoded: its url parameter holds a cut-off URL: 'https://'"),
    ("https://www.youtube.com/redirect?event=x&q=http%3A",
     "the youtube wrapper cannot be decoded: its q parameter holds a cut-off URL: 'http:'"),
    ("https://www.linkedin.com/safety/go?url=&trk=x",
     "the linkedin wrapper cannot be decoded: its url parameter is empty"),
    # a replay's or a v3 URL cut off after its scheme
    ("https://web.archive.org/web/20190102030405id_/ftp:/", "the wayback@2019-01-02T03:04:05Z wrapper cannot be "
     "decoded: its URL is cut off: 'ftp://'"),
    ("https://urldefense.com/v3/__https:**A__;Ly8!!OrgId!t$", "the proofpoint-v3 wrapper cannot be decoded: its URL "
     "is cut off: 'https://'"),
    # an escape of a UTF-8 sequence cut in two
    ("https://www.google.com/url?q=flights&url=https%3A%2F%2Fair.example%2F%E2%8",
     "the google wrapper cannot be decoded: its url parameter has a '%' not followed by two hex digits at offset 31 "
     "(a bad escape, or one cut off): "
     "'https%3A%2F%2Fair.example%2F%E2%8'"),
])
def test_a_value_that_does_not_decode_cleanly_is_a_broken_wrapper(wrapped: str, detail: str) -> None:
    result = unwrap(wrapped)
    assert result is not None and result.url is None and result.risk == Risk("broken-wrapper", "7.5", detail)


def test_octets_that_are_not_utf8_stay_escaped_never_replaced() -> None:
    # a Latin-1 "é" (%E9) beside a UTF-8 one (%C3%A9): the first stays an escape, no U+FFFD
    assert unwrap("https://linkprotect.cudasvc.com/url?a=https%3a%2f%2fcaf%c3%a9.example%2fmenu%2fcr%e8me&c=E,1,x") == (
        "https://café.example/menu/cr%E8me", ("barracuda",), None)


def test_a_broken_wrapper_in_a_record_has_no_unwrapped_url() -> None:
    page = ('<a href="https://nam04.safelinks.protection.outlook.com/?url=https%3A%2F%2Fbank.example%2Flogin%3'
            '&amp;data=05">sign in</a>')
    (record,) = [r for r in scan_html(page) if isinstance(r, Record)]
    # (the link itself is not a valid URI either: "%3&" is no escape)
    assert (record.unwrapped, record.wrapper, [k.flag for k in record.risks]) == (
        None, ("safelinks",), ["invalid", "broken-wrapper"])


# -- issue 38: deceptive text compares hosts as a browser reads them ------------------------------------

@pytest.mark.parametrize(("text", "target"), [
    ("münchen-tickets.example", "https://xn--mnchen-tickets-gsb.example/"),  # Unicode shown, ACE linked
    ("https://xn--mnchen-tickets-gsb.example/", "https://münchen-tickets.example/"),  # and the reverse
    ("München-Tickets.example/shop", "https://m%C3%BCnchen-tickets.example/shop"),  # a percent-encoded host
    ("ｍｕｓｅｕｍ．example", "https://museum.example/"),  # full-width letters and stop
    ("www.пример.example", "https://xn--e1afmkfd.example/"),  # Cyrillic, www. shown
    ("tickets.xn--p1ai", "https://мир.tickets.рф/"),  # an ACE top-level label; a subdomain linked
])
def test_the_same_host_in_unicode_and_ace_form_is_honest(text: str, target: str) -> None:
    assert deception(text, target) is None


@pytest.mark.parametrize(("text", "target", "detail"), [
    # a look-alike in another script is another host
    ("аррlе.example", "https://apple.example/",
     "the link text names 'аррlе.example'; the link goes to 'apple.example'"),
    ("münchen-tickets.example", "https://xn--mnchen-tickets-gsb.attacker.example/",
     "the link text names 'münchen-tickets.example'; the link goes to 'xn--mnchen-tickets-gsb.attacker.example'"),
    ("xn--mnchen-tickets-gsb.example", "https://munchen-tickets.example/",
     "the link text names 'xn--mnchen-tickets-gsb.example'; the link goes to 'munchen-tickets.example'"),
])
def test_another_host_in_either_form_is_deceptive(text: str, target: str, detail: str) -> None:
    assert deception(text, target) == Risk("deceptive-text", "7.5", detail)


def test_idn_link_texts_in_a_page() -> None:
    page = ('<a href="https://xn--bcherstube-9db.example/">bücherstube.example</a>'
            '<a href="https://buecherstube.example/">bücherstube.example</a>')
    links = [r for r in scan_html(page) if isinstance(r, Record)]
    assert [[k.detail for k in r.risks if k.flag == "deceptive-text"] for r in links] == [
        [], ["the link text names 'bücherstube.example'; the link goes to 'buecherstube.example'"]]


@pytest.mark.parametrize("text", [
    "京都。嵐山の紅葉",  # an ideographic full stop ends a sentence: no host
    "【札幌】雪まつり.会場マップ",  # brackets are no letters
    "おすすめ.カフェ❤",  # nor is a symbol
    "価格は1.980円",  # a number
])
def test_a_sentence_is_no_host(text: str) -> None:
    assert text_host(text) is None
    assert deception(text, "https://blog.example/entry/7") is None


def test_a_wrapper_with_no_target_in_it_is_flagged_and_one_that_does_not_decode_is_broken() -> None:
    """Issue 55: t.co carries a token only; Bing's u without its a1, or with bad base64, and an SES link
    whose URL is cut off after its scheme, are broken wrappers, never a half-decoded URL."""
    assert unwrap("https://t.co/AbCdEf1234") == (None, ("t.co",), Risk(
        "opaque-wrapper", "7.5", "t.co hides the target behind a token: where it goes is not in the URL"))
    assert unwrap("https://www.bing.com/ck/a?!&&p=x&u=a1!!!&ntb=1") == (None, ("bing",), Risk(
        "broken-wrapper", "7.5", "the bing wrapper cannot be decoded: its u parameter is not base64: '!!!'"))
    assert unwrap("https://www.bing.com/ck/a?u=zzaHR0cA&ntb=1") == (None, ("bing",), Risk(
        "broken-wrapper", "7.5", "the bing wrapper cannot be decoded: its u parameter does not start with 'a1': "
        "'zzaHR0cA'"))
    assert unwrap("https://a.r.eu-west-1.awstrack.me/L0/https:%2F%2F/1/x") == (None, ("aws-ses",), Risk(
        "broken-wrapper", "7.5", "the aws-ses wrapper cannot be decoded: its URL is cut off: 'https://'"))
    # no target where the row would carry one: no wrapper at all
    assert unwrap("https://www.google.com/amp/") is None
    assert unwrap("https://r.search.yahoo.com/search?p=x") is None


def test_the_new_wrappers_reach_the_records() -> None:
    [record] = [r for r in scan_text("Click https://abc.r.us-east-1.awstrack.me/L0/https:%2F%2Fshop.example%2F/1/"
                                     "0100-000000/x=1 now") if isinstance(r, Record)]
    assert (record.unwrapped, record.wrapper) == ("https://shop.example/", ("aws-ses",))
