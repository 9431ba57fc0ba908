"""The ``mail`` case of bench.py: scan_mbox against urlscan and a bare floor on
the first 30 MB of the linux-mips archive (issue 10).

- floor: split the archive at ``From `` lines, parse each message with the
  stdlib's ``compat32`` policy, decode its text parts (what any mail reader
  does before it can look for URLs);
- urlscan: each message parsed with the stdlib's default policy and passed to
  ``urlscan.msgurls`` (how urlscan reads a message);
- urisift: ``scan_mbox`` (split, MIME walk, bases, headers, text and HTML scanners, records).
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import io
import lzma
import re
from collections.abc import Callable
from pathlib import Path

ARCHIVE = "corpora/linux-mips-1996-2007/linux-mips-1996-2007.mboxrd.xz"
SIZE = 30 << 20
_FROM = re.compile(rb"^From ", re.MULTILINE)


def load(shared: Path) -> bytes:
    with lzma.open(shared / ARCHIVE) as f:
        head = f.read(SIZE)
    return head[: head.rindex(b"\nFrom ") + 1]


def _messages(data: bytes) -> list[bytes]:
    starts = [m.start() for m in _FROM.finditer(data)] + [len(data)]
    return [data[a:b] for a, b in zip(starts, starts[1:], strict=False)]


def _floor(data: bytes) -> Callable[[], object]:
    def run() -> int:
        n = 0
        for raw in _messages(data):
            message = email.message_from_bytes(raw.split(b"\n", 1)[1], policy=email.policy.compat32)
            for part in message.walk():
                if part.get_content_maintype() == "text":
                    payload = part.get_payload(decode=True)
                    if isinstance(payload, bytes):
                        try:
                            n += len(payload.decode(part.get_content_charset() or "latin-1", "replace"))
                        except LookupError:  # a charset Python does not know
                            n += len(payload.decode("latin-1"))
        return n
    return run


def _urlscan(data: bytes) -> Callable[[], object] | None:
    try:
        from urlscan import urlscan
    except ImportError:
        return None

    def run() -> int:
        n = 0
        for raw in _messages(data):
            message = email.message_from_bytes(raw.split(b"\n", 1)[1], policy=email.policy.default)
            with contextlib.suppress(Exception):  # the peer raises on some messages; count what it did
                n += sum(1 for _ in urlscan.msgurls(message))
        return n
    return run


def _urisift(data: bytes) -> Callable[[], object]:
    from urisift import scan_mbox

    return lambda: sum(1 for _ in scan_mbox(io.BytesIO(data)))


def bench_mail(rounds: int, shared: Path, timeit: Callable[[Callable[[], object], int], float],
               table: Callable[..., None]) -> None:
    if not (shared / ARCHIVE).exists():
        print(f"\n## mail: skipped, no {shared / ARCHIVE}")
        return
    data = load(shared)
    size = len(data) / 1e6
    ours = "urisift scan_mbox"
    rows: list[tuple[str, float | None, str]] = [(ours, timeit(_urisift(data), rounds), "")]
    rows.append(("floor: split + compat32 parse + decode text parts", timeit(_floor(data), rounds), ""))
    peer = _urlscan(data)
    rows.append(("urlscan: default policy + msgurls", None if peer is None else timeit(peer, max(1, rounds // 2)),
                 "not installed"))
    table(f"mail: the first {size:.0f} MB of linux-mips ({len(_messages(data)):,} messages)", "MB", size, rows, ours)
    print("\n(targets of issue 10: urisift >= 8x urlscan, and >= 0.5x the floor)")
