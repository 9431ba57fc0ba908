"""Does urisift find every link that each Outlook format's own library finds?  (issue 54's check)

For each sample of ``../shared/corpora/outlook-kept-mail/`` the format's own reader gives the
bodies and the attachments' bytes: python-oxmsg for ``.msg`` (its RTF body de-encapsulated by
RTFDE, as extract-msg does), tnefparse for TNEF, pypff for PST.  The URIs in them are taken with
one plain pattern, ``&amp;`` unescaped, and each is looked for among urisift's records of the same
file (``uri`` or ``target``).  Prints, a file a line, how many the peer found and which of them
urisift missed; exits 1 when any is missed.

    pip install python-oxmsg tnefparse rtfde libpff-python
    python bench/compare_outlook.py [../shared/corpora/outlook-kept-mail]

The peers are measured, never imported by urisift (tnefparse and RTFDE are LGPL).
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator

_URI = re.compile(r"""(?:https?|ftp|mailto|cid|tel):[^\s"'<>()\\]+""", re.IGNORECASE)
# an XML namespace's name is no reference (Namespaces in XML 1.0 §2.2: "not intended to be retrieved"),
# which urisift does not report and a plain pattern finds in every Word-made HTML body
_NAMESPACE = re.compile(r"""xmlns(?::[\w.-]+)?\s*=\s*(?:"[^"]*"|'[^']*')""")


def _uris(text: str | bytes | None) -> set[str]:
    if not text:
        return set()
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace") if b"\x00" not in text[:200] else text.decode("utf-16-le", "replace")
    return {html.unescape(m.group()).rstrip(".,;:") for m in _URI.finditer(_NAMESPACE.sub("", text))}


def _rtf_html(rtf: bytes | None) -> str | None:
    if not rtf:
        return None
    from RTFDE.deencapsulate import DeEncapsulator  # type: ignore[import-not-found]

    try:
        found = DeEncapsulator(rtf)
        found.deencapsulate()
        return found.html or found.text
    except Exception:  # noqa: BLE001 - a peer's failure is no link
        return None


def _textual(data: bytes | None) -> bytes | None:
    """An attachment's bytes when they are text a scanner reads (not an image, a program)."""
    if not data or b"\x00" in data[:4096] or data.startswith(b"%PDF"):
        return None  # (a PDF's links are its annotations', not its bytes': XMP's namespaces are none)
    return data


def msg_peer(path: str) -> set[str]:
    from oxmsg import Message  # type: ignore[import-not-found]

    found: set[str] = set()
    message = Message.load(path)
    found |= _uris(message.html_body) | _uris(message.body)
    rtf = getattr(message, "rtf_body", None)
    if isinstance(rtf, (bytes, bytearray)):
        found |= _uris(_rtf_html(bytes(rtf)))
    for attachment in message.attachments:
        found |= _uris(_textual(attachment.file_bytes))
    return found


def tnef_peer(path: str) -> set[str]:
    import tnefparse  # type: ignore[import-not-found]

    with open(path, "rb") as f:
        tnef = tnefparse.TNEF(f.read())
    found = _uris(getattr(tnef, "htmlbody", None)) | _uris(getattr(tnef, "body", None))
    rtf = getattr(tnef, "rtfbody", None)
    if rtf:
        found |= _uris(_rtf_html(rtf))
    for attachment in tnef.attachments:
        found |= _uris(_textual(attachment.data))
    return found


def pst_peer(path: str) -> set[str]:
    import pypff  # type: ignore[import-not-found]

    pst = pypff.file()
    pst.open(path)
    found: set[str] = set()
    pending = [pst.get_root_folder()]
    while pending:
        folder = pending.pop()
        for message in folder.sub_messages:
            found |= _uris(message.html_body) | _uris(message.plain_text_body)
            found |= _uris(_rtf_html(message.rtf_body))
            for attachment in message.attachments:
                size = attachment.get_size()
                found |= _uris(_textual(attachment.read_buffer(size) if size else None))
        pending.extend(folder.sub_folders)
    return found


def _files(root: str) -> Iterator[tuple[str, str]]:
    for folder, _, names in sorted(os.walk(root)):
        for name in sorted(names):
            extension = os.path.splitext(name)[1].lower()
            if extension in (".msg", ".tnef", ".pst"):
                yield os.path.join(folder, name), extension


def urisift_uris(path: str) -> set[str]:
    run = subprocess.run([sys.executable, "-m", "urisift", "--format", "jsonl", path], capture_output=True, text=True,
                         check=False)
    found = set()
    for line in run.stdout.splitlines():
        record = json.loads(line)
        for key in ("uri", "target"):
            if record.get(key):
                found.add(record[key])
    return found


def main(argv: list[str]) -> int:
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpora",
                                                      "outlook-kept-mail")
    peers = {".msg": msg_peer, ".tnef": tnef_peer, ".pst": pst_peer}
    missed_any = False
    for path, extension in _files(root):
        try:
            peer = peers[extension](path)
        except Exception as exc:  # noqa: BLE001 - a file the peer cannot read
            print(f"{os.path.relpath(path, root)}: the peer cannot read it ({type(exc).__name__}: {exc})")
            continue
        ours = urisift_uris(path)
        missed = sorted(uri for uri in peer if uri not in ours)
        missed_any = missed_any or bool(missed)
        print(f"{os.path.relpath(path, root)}: peer {len(peer)}, urisift {len(ours)}, missed {len(missed)}"
              + (f": {missed}" if missed else ""))
    return 1 if missed_any else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
