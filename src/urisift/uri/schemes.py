"""Facts about URI schemes, in one place: which are registered, which ports
are their defaults, which are web schemes and which speak line-based
protocols.  Pure data, no I/O beyond reading the package's own registry copy.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def registered_schemes() -> frozenset[str]:
    """IANA permanent and provisional URI schemes (lower case), plus the
    historical ones old text still uses (``data/iana-uri-schemes.txt``)."""
    text = resources.files("urisift").joinpath("data/iana-uri-schemes.txt").read_text("utf-8")
    return frozenset(line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#"))


#: Default ports of schemes that use the generic hostport syntax (their RFCs);
#: RFC 3986 §6.2.3 drops a port equal to the default when normalizing.
DEFAULT_PORTS: dict[str, str] = {
    "http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21", "gopher": "70",
    "telnet": "23", "tn3270": "23", "ldap": "389", "ldaps": "636", "nntp": "119", "news": "119",
    "snews": "563", "imap": "143", "pop": "110", "rtsp": "554", "rtsps": "322", "sip": "5060",
    "sips": "5061", "snmp": "161", "tftp": "69", "ssh": "22", "sftp": "22", "git": "9418",
    "smtp": "25", "coap": "5683", "coaps": "5684", "prospero": "1525", "wais": "210",
    "rsync": "873", "nfs": "2049", "ipp": "631", "ipps": "443", "dict": "2628", "vnc": "5900",
    "finger": "79", "irc": "6667", "ircs": "6697", "redis": "6379", "rediss": "6379",
    "mongodb": "27017", "xmpp": "5222", "msrp": "2855", "msrps": "2855", "stun": "3478",
    "stuns": "5349", "turn": "3478", "turns": "5349", "acap": "674", "mupdate": "3905",
    "iax": "4569", "vemmi": "575", "z39.50r": "210", "z39.50s": "210", "icap": "1344",
    "mtqp": "1038", "afp": "548", "smb": "445", "dns": "53", "http+unix": "80",
}

#: Web schemes: an empty path means "/" (RFC 9110 §4.2.3; RFC 6455 §3), and
#: userinfo is deprecated (RFC 9110 §4.2.4), so any of it is a §7.5 risk.
WEB = frozenset({"http", "https", "ws", "wss"})

#: Schemes whose protocols are line-based (a CR LF ends a command or header):
#: a percent-encoded CR or LF in them is a §7.2 risk.
LINE_BASED = frozenset({
    "http", "https", "ws", "wss", "ftp", "sftp", "smtp", "telnet", "tn3270", "gopher", "nntp",
    "news", "snews", "pop", "imap", "irc", "ircs", "irc6", "sip", "sips", "rtsp", "rtsps", "rtspu",
    "ldap", "ldaps", "dict", "finger", "redis", "rediss", "xmpp", "msrp", "msrps", "icap", "acap",
    "mupdate", "wais", "prospero",
})
