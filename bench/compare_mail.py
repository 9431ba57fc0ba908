#!/usr/bin/env python3
"""Body URLs urisift finds in a mail corpus against an independent decode
(issue 10): each message parsed with the stdlib's default policy, each text
part taken with ``get_content()`` (transfer encoding and charset undone by the
stdlib), and ``http(s)://`` runs picked out of it with a plain regex, trailing
punctuation and entities trimmed.  Prints the counts and samples of what
differs, per message.

    python bench/compare_mail.py ../shared/corpora/spamassassin-2002
"""

from __future__ import annotations

import collections
import email
import email.policy
import html
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from urisift import Record, scan_message  # noqa: E402

_URL = re.compile(r"""https?://[^\s<>"'()\[\]{}]+""", re.IGNORECASE)


def independent(data: bytes) -> collections.Counter[str]:
    message = email.message_from_bytes(data, policy=email.policy.default)
    found: collections.Counter[str] = collections.Counter()
    for part in message.walk():
        if part.get_content_maintype() != "text":
            continue
        try:
            text = part.get_content()
        except (LookupError, ValueError, AssertionError):
            payload = part.get_payload(decode=True)
            text = payload.decode("latin-1") if isinstance(payload, bytes) else ""
        if part.get_content_subtype() == "html":
            text = html.unescape(text)
        for m in _URL.finditer(text):
            found[m.group().rstrip(".,;:!?*'")] += 1
    return found


def ours(data: bytes) -> collections.Counter[str]:
    found: collections.Counter[str] = collections.Counter()
    for r in scan_message(data):
        if isinstance(r, Record) and r.where.value != "header" and r.uri.lower().startswith(("http://", "https://")):
            found[r.uri] += 1
    return found


def main(folder: str) -> int:
    files = sorted(p for p in Path(folder).rglob("*") if p.is_file() and not p.name.endswith(".md"))
    both = only_ours = only_theirs = 0
    samples: dict[str, list[tuple[str, str]]] = {"ours": [], "theirs": []}
    for path in files:
        data = path.read_bytes()
        a, b = set(ours(data)), set(independent(data))
        both += len(a & b)
        only_ours += len(a - b)
        only_theirs += len(b - a)
        samples["ours"] += [(path.name, u) for u in sorted(a - b)][:2]
        samples["theirs"] += [(path.name, u) for u in sorted(b - a)][:2]
    print(f"{len(files)} messages; distinct body URLs per message: both {both}, "
          f"only urisift {only_ours}, only the independent decode {only_theirs}")
    for side in ("ours", "theirs"):
        print(f"\nonly {'urisift' if side == 'ours' else 'the independent decode'} (first 25):")
        for name, url in samples[side][:25]:
            print(f"  {name[:24]}  {url[:110]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "../shared/corpora/spamassassin-2002"))
