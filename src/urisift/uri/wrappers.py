"""The table of link wrappers :mod:`urisift.uri.unwrap` knows: data, a row a
service (its hosts, its paths, how it carries the target), each row's
forms named with where they come from, and each with a test built from them
(``tests/test_unwrap.py``).  The ways a target is carried:

- ``query``: a query parameter, percent-encoded; ``query-base64``: a query
  parameter holding the URL in base64 (Sophos's ``u``); ``bing``: Bing's ``u``,
  ``a1`` and the URL in base64url;
- ``segment``: a path segment after the row's path, percent-encoded (AWS SES's
  ``/L0/<url>/...``, Cisco's ``/<token>/<url>``); ``yahoo``: the ``RU=`` segment;
- ``amp``: an AMP viewer's or cache's path (``/amp/s/<host>/<path>``: ``s/`` is https);
- ``proofpoint-v2``, ``proofpoint-v3``, ``replay``, ``opaque``: see :mod:`urisift.uri.unwrap`.

URI core: no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

_PROOFPOINT = r"urldefense(?:\.proofpoint)?\.com|urldefense\.us"


@dataclass(frozen=True, slots=True)
class Wrapper:
    """One row of the table: the service's name, the hosts (a pattern
    matched against the whole lower-case host), the path (a pattern matched
    at its start), how the target is carried, and the query parameters that
    may carry it, in the order they are tried: the first whose value is an
    absolute URL is the target (:func:`_carried`).  ``after``: parameters
    the service always writes after the target's; when none of them
    follows it, the link was cut short (at a line break of quoted mail),
    and what the target parameter holds is the start of a URL, not one."""

    service: str
    hosts: str
    path: str
    carried: str
    parameters: tuple[str, ...] = ()
    after: tuple[str, ...] = ()


#: the wrappers urisift knows, each with a test built from the service's published format;
#: the comment above a row says where its forms come from
WRAPPERS: tuple[Wrapper, ...] = (
    # Microsoft Defender for Office 365 Safe Links: <region>.safelinks.protection.outlook.com/?url=,
    # and /ap/<x>-<hex>/?url= for links to Office documents; the government and national clouds'
    # hosts (GCC High office365.us, DoD apps.mil, 21Vianet partner.outlook.cn) (observed); the
    # target is always followed by data= (the tenant's token), then sdata= and reserved=0
    Wrapper("safelinks", r"(?:[a-z0-9-]+\.)?safelinks\.protection\."
            r"(?:outlook\.com|office365\.us|apps\.mil|partner\.outlook\.cn)", "/", "query", ("url",),
            ("data", "sdata", "reserved")),
    # Safe Links for Microsoft Teams (generally available since 2021: Microsoft Tech Community,
    # "Announcing general availability of Safe Links for Microsoft Teams"): the Teams CDN's page
    Wrapper("safelinks", r"statics(?:int)?\.teams\.cdn\.office\.net",
            r"/evergreen-assets/safelinks/\d+/atp-safelinks\.html$", "query", ("url",)),
    # Proofpoint URL Defense: its own decoder (URLDefenseDecode.py, v3.0.1) reads v1, v2 and v3 on
    # urldefense.proofpoint.com and urldefense.com alike; urldefense.us serves v3 (observed)
    # (v1's u is followed by k, r, m and s; v2's by d, c, r, m, s and e, in URLDefenseDecode's samples)
    Wrapper("proofpoint-v1", _PROOFPOINT, "/v1/url", "query", ("u",), ("k", "r", "m", "s")),
    Wrapper("proofpoint-v2", _PROOFPOINT, "/v2/url", "proofpoint-v2", ("u",), ("d", "c", "r", "m", "s", "e")),
    Wrapper("proofpoint-v3", _PROOFPOINT, "/v3/__", "proofpoint-v3"),
    # Barracuda Link Protection: linkprotect.cudasvc.com/url?a=<url>&c=...
    Wrapper("barracuda", r"linkprotect\.cudasvc\.com", r"/url$", "query", ("a",), ("c", "typo")),
    # Trend Micro Email Security time-of-click protection: <product>-ctp.trendmicro.com and
    # <product>-urlprotect.trendmicro.com, /wis/clicktime/v1/query and /v2/clickthrough (observed)
    # (the target is followed by umid= and auth=)
    Wrapper("trendmicro", r"(?:[a-z0-9-]+\.)*trendmicro\.com", r"/wis/clicktime/v\d+/(?:query|clickthrough)$",
            "query", ("url",), ("umid", "auth")),
    # Google's redirector /url on its search, Maps, Images and Custom Search hosts: the target in
    # url (search results: q is then the query, often empty) or in q (Gmail, Docs, the basic page)
    Wrapper("google", r"(?:(?:www|maps|images|cse)\.)?google\.[a-z.]{2,6}", r"/url$", "query", ("url", "q")),
    # Facebook's link shim, l.php?u= on l., lm. (mobile), m. and www.facebook.com, and Messenger's
    Wrapper("facebook", r"(?:l|lm|m|www)\.facebook\.com|l\.messenger\.com", r"/l\.php$", "query", ("u",)),
    # LinkedIn: /redir/redirect?url= (posts, profiles), the warning pages /redir/<kind>-page?url=
    # and /safety/go?url= (messages, job posts), each with or without a final "/" (observed)
    Wrapper("linkedin", r"(?:www\.)?linkedin\.com", r"/(?:redir/[a-z-]+|safety/go)/?$", "query", ("url",)),
    # YouTube's /redirect?q= (descriptions, comments), on www. and m.youtube.com
    Wrapper("youtube", r"(?:www\.|m\.)?youtube\.com", r"/redirect$", "query", ("q",)),
    Wrapper("slack", r"slack-redir\.net", r"/link$", "query", ("url",)),
    # the Wayback Machine (web.archive.org, and wayback.archive.org that older pages name) and
    # Archive-It (wayback.archive-it.org/<collection or all>/)
    Wrapper("wayback", r"web\.archive\.org|wayback\.archive(?:-it)?\.org", "/", "replay"),
    # Amazon SES click tracking: <id>.r.<region>.awstrack.me/L0/<the URL percent-encoded>/<n>/<message id>/<sig>
    # (SES Developer Guide, "Configuring custom domains for open and click tracking"; observed)
    Wrapper("aws-ses", r"(?:[a-z0-9-]+\.)*awstrack\.me", r"/L0/", "segment"),
    # Cisco Secure Email (IronPort) URL rewriting: secure-web.cisco.com/<token>/<the URL percent-encoded>
    # (Cisco Secure Email user guide, "URL Filtering"; observed)
    Wrapper("cisco", r"secure-web\.cisco\.com", r"/[^/]+/", "segment"),
    # Sophos Email time-of-click: <region>.protection.sophos.com?d=<domain>&u=<the URL in base64>&i=&t=&h=
    # (observed; the path is empty or "/")
    Wrapper("sophos", r"(?:[a-z0-9-]+\.)?protection\.sophos\.com", r"/?$", "query-base64", ("u",)),
    # Trellix (FireEye) Email Security: protect2.fireeye.com/v1/url?k=<key>&q=&e=&u=<the URL> (and /url?)
    Wrapper("fireeye", r"protect2?\.fireeye\.com", r"/(?:v1/)?url$", "query", ("u",)),
    # Google's AMP viewer, www.google.<tld>/amp/[s/]<host>/<path>, and the AMP cache,
    # <host with dashes>.cdn.ampproject.org/<c|v|i>/[s/]<host>/<path> (AMP's "AMP Cache URL format")
    Wrapper("google-amp", r"(?:www\.)?google\.[a-z.]{2,6}", r"/amp/", "amp"),
    Wrapper("google-amp", r"(?:[a-z0-9-]+\.)?cdn\.ampproject\.org", r"/[cvi]/", "amp"),
    # Bing's result links, www.bing.com/ck/a?!&&p=<...>&u=a1<the URL in base64url>&ntb=1 (observed)
    Wrapper("bing", r"(?:www\.)?bing\.com", r"/ck/a$", "bing", ("u",)),
    # Yahoo search's r.search.yahoo.com/<...>/RU=<the URL percent-encoded>/RK=<n>/RS=<sig> (observed)
    Wrapper("yahoo", r"r\.search\.yahoo\.com", r"/", "yahoo"),
    # DuckDuckGo's HTML results, duckduckgo.com/l/?uddg=<the URL>&rut=<sig> (observed)
    Wrapper("duckduckgo", r"(?:html\.|lite\.)?duckduckgo\.com", r"/l/?$", "query", ("uddg",)),
    # Steam's link filter, steamcommunity.com/linkfilter/?url= (and ?u= in its newer pages)
    Wrapper("steam", r"steamcommunity\.com", r"/linkfilter/?$", "query", ("url", "u")),
    # Instagram's link shim l.instagram.com/?u=, VK's away.php?to=, Tumblr's t.umblr.com/redirect?z=,
    # Symantec (Broadcom) Email Security click-time clicktime.symantec.com/<token>?u= (observed)
    Wrapper("instagram", r"l\.instagram\.com", r"/?$", "query", ("u",)),
    Wrapper("vk", r"(?:m\.)?vk\.com|away\.vk\.com", r"/away\.php$", "query", ("to",)),
    Wrapper("tumblr", r"t\.umblr\.com", r"/redirect$", "query", ("z",)),
    Wrapper("symantec", r"clicktime\.symantec\.com", r"/", "query", ("u",)),
    # X (Twitter) wraps every link as t.co/<token>: the target is the service's alone
    Wrapper("t.co", r"t\.co", r"/[A-Za-z0-9]+$", "opaque"),
    # Mimecast URL Protect: protect-<region>.mimecast.com/s/<token> and, in its newer form,
    # url.<region>.m.mimecastprotect.com/s/<token> (observed)
    Wrapper("mimecast", r"(?:[a-z0-9-]+\.)?protect-[a-z]{2,3}\.mimecast\.com|url\.[a-z]{2,3}\.m\.mimecastprotect\.com",
            "/s/", "opaque"),
)
