"""Which registered schemes make a URI without ``//``.

A registered scheme name is not evidence enough on its own: in the RFC corpus
most hits on ``scheme:`` without ``//`` are XML qualified names
(``DAV:allprop``, ``type="wifi:ssidType"``), SDP attributes (``a=mid:v1``),
YANG types (``snmp:identifier``), labels (``Fax:(248) 555-0100``,
``Service:Call-waiting``) and table cells (``message:string``).  So a scheme
without ``//`` makes a URI only when it is one of the schemes below and what
follows its colon has that scheme's own syntax (its RFC's, simplified to what
can be checked at a glance); every other scheme needs ``//``.  ``urn:`` has a
rule of its own (rfc2141bis-urn-03 §2.5.3).

Each pattern is matched once, anchored after the colon, and is a sequence of
possessive or bounded classes: linear.
"""

from __future__ import annotations

import re

from ...uri import patterns

_ADDRESS = r"[^\s@<>()\[\],;:\"]++@[\w-]++(?>(?:\.[\w-]++)+)"  # user@host.domain
_HOST = r"[\w-]++(?>(?:\.[\w-]++)+)"  # a dotted host name
# RFC 6068 §2: mailto takes any addr-spec; its domain may have no dot
# ("root@localhost", "user@intranet") or be a literal ("postmaster@[192.0.2.1]")
_MAILBOX = r"[^\s@<>()\[\],;:\"]++@(?:[\w-]++(?>(?:\.[\w-]++)*)|\[[0-9A-Fa-f:.]++\])"

#: scheme -> the syntax the text after its colon must start with
OPAQUE_SYNTAX: dict[str, re.Pattern[str]] = {
    scheme: patterns.compile(pattern)
    for schemes, pattern in (
        # RFC 6068: an address (any domain), or only header fields
        (("mailto",), rf"{_MAILBOX}|\?[\w-]++="),
        # RFC 3966 and kin: a global number starts with "+", a local one with a digit
        (("tel", "fax", "modem", "sms", "callto"), r"\+?+[0-9][0-9().\-]*+"),
        # RFC 3261: an address or a host, which examples write as one word
        # ("sip:id1@ua", "sip:diverting_user1_addr"); SIP labels have a space after the colon
        (("sip", "sips"), rf"{_ADDRESS}|[^\s@<>()\[\],;:\"]++@[\w-]|[\w-]"),
        # RFC 5122, RFC 7565, RFC 3859, RFC 3860, RFC 6501: an address or a host
        (("xmpp", "acct", "pres", "im", "xcon", "xcon-userid"), rf"{_ADDRESS}|{_HOST}"),
        # RFC 5456, RFC 7064, RFC 7065: a host
        (("iax", "stun", "stuns", "turn", "turns"), _HOST),
        # RFC 6120 §4.8: the XMPP namespace names (jabber:client, jabber:iq:roster)
        (("jabber",), r"[a-z]++(?>(?::[a-z-]++)*)\b"),
        # RFC 2392: "cid:" names a body part; mail writes any token there
        # ("cid:logo.jpg", "cid:part1", hex ids).  "mid:" names a message: an
        # address or a dotted id, while SDP's "a=mid:v1" has neither
        (("cid",), r"[\w.$%+=-]"),
        (("mid",), rf"{_ADDRESS}|[^\s@<>()\[\],;:\".]++\.[\w]"),
        # RFC 2397: [mediatype][;parameters],data
        (("data",), r"(?>(?:[\w.+-]++/[\w.+-]++)?)(?>(?:;[\w.+-]++(?>(?:=[\w.+-]++)?))*),"),
        # RFC 5538: a newsgroup (with dots), "*", or a message id
        (("news",), rf"{_ADDRESS}|[\w+-]++(?>(?:\.[\w+-]++)+)|\*"),
        # RFC 5870: latitude,longitude
        (("geo",), r"-?+[0-9]++(?>(?:\.[0-9]++)?),-?+[0-9]"),
        # RFC 4151: authority,date
        (("tag",), rf"(?:{_ADDRESS}|{_HOST}),[0-9]{{4}}"),
        (("magnet",), r"\?"),  # BEP 9: parameters only
        (("about",), r"(?:blank|srcdoc)\b"),  # RFC 6694 §3, the two the HTML standard uses
        (("file",), r"/[^/\s]"),  # RFC 8089: file:/path, no authority
        (("info",), r"[a-z]++/"),  # RFC 4452: namespace/identifier
        (("ipn",), r"[0-9]++\.[0-9]"),  # RFC 9171: node.service
        (("dtn",), r"none\b"),  # RFC 9171: the null endpoint
        (("did",), r"[a-z0-9]++:[\w.%-]"),  # W3C DID: method:identifier
        (("pkcs11",), r"[a-z-]++="),  # RFC 7512: attributes
        (("swh",), r"[0-9]:[a-z]{3}:[0-9a-f]"),  # Software Heritage identifiers
    )
    for scheme in schemes
}


def opaque_uri(scheme: str, text: str, after: int, end: int) -> bool:
    """Whether ``scheme:`` followed by ``text[after:end]`` (no ``//``) is a URI."""
    syntax = OPAQUE_SYNTAX.get(scheme)
    return syntax is not None and syntax.match(text, after, end) is not None
