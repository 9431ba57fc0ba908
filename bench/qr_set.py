#!/usr/bin/env python3
"""The generated set of issue 55 for --qr: codes of all six symbologies, rotated to 45°, scaled down to 0.3,
blurred, saved as JPEG down to quality 20, inverted, several on a page; each code carried four ways (an image
attachment, an inline cid: image, a data: image in a mail's HTML, a PDF page), and images with no code.

    python bench/qr_set.py [--count 240] [--blank 60]

Prints the share decoded by carrier and by transform, what was decoded from the images without a code (it
must be nothing), and the seconds taken.  tests/test_qr_set.py runs a subset of it.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests" / "sample_makers"))

import qr_codes as samples  # noqa: E402
from PIL import Image  # noqa: E402

from urisift import Record, ScanOptions, iter_input  # noqa: E402

CARRIERS = ("attachment", "inline", "data", "pdf")


def carried(folder: Path, name: str, data: bytes, carrier: str) -> Path:
    """The image ``data`` carried one of the four ways (:data:`CARRIERS`), as a file in ``folder``."""
    is_jpeg = data[:3] == b"\xff\xd8\xff"
    if carrier == "pdf":
        path = folder / f"{name}-pdf.pdf"
        with Image.open(io.BytesIO(data)) as image:
            path.write_bytes(samples.pdf([image.copy()]))
        return path
    path = folder / f"{name}-{carrier}.eml"
    if carrier == "attachment":
        path.write_bytes(samples.message(attached=[(f"code.{'jpg' if is_jpeg else 'png'}", data)]))
    elif carrier == "inline":
        path.write_bytes(_with_jpeg(samples.message(inline=[b"X"]), data) if is_jpeg else
                         samples.message(inline=[data]))
    else:
        path.write_bytes(_with_jpeg(samples.message(data=[b"X"]), data, data_uri=True) if is_jpeg else
                         samples.message(data=[data]))
    return path


def build(folder: Path, count: int, blank: int) -> tuple[dict[str, list[tuple[list[str], str]]], list[str]]:
    """The files of the set in ``folder``: per carrier, the URLs each file's image holds and what was done."""
    singles = samples.generated(count - count // 5)
    pages = samples.generated(count // 5, per_page=4, start=count - count // 5)
    expected: dict[str, list[tuple[list[str], str]]] = {c: [] for c in CARRIERS}
    for i, (data, urls, how) in enumerate(singles + pages):
        for carrier in CARRIERS:
            carried(folder, f"{i:04}", data, carrier)
            expected[carrier].append((urls, how))
    blanks = []
    for i, data in enumerate(samples.without_codes(blank)):
        blanks.append(carried(folder, f"blank-{i:03}", data, "attachment").name)
    return expected, blanks


def _with_jpeg(message: bytes, data: bytes, data_uri: bool = False) -> bytes:
    """A message built around a stand-in image, its image then swapped for the JPEG ``data``."""
    import base64

    if data_uri:
        return message.replace(b"data:image/png;base64,WA==", b"data:image/jpeg;base64," + base64.b64encode(data))
    from email import message_from_bytes, policy

    mail = message_from_bytes(message, policy=policy.default)
    for part in mail.walk():
        if part.get_content_type() == "image/png":
            part.set_content(data, "image", "jpeg", cid=part["Content-ID"])
    return bytes(mail)


def decoded(path: Path) -> set[str]:
    return {r.uri for r in iter_input(str(path), ScanOptions(qr=True)) if isinstance(r, Record)
            and r.style.value == "qr"}


def run(count: int, blank: int, out: object = sys.stdout) -> tuple[float, int]:
    """Build and read the set; print its table; the share decoded and the codes found in blank images."""
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        start = time.perf_counter()
        expected, blanks = build(folder, count, blank)
        built = time.perf_counter() - start
        found = total = 0
        by_how: Counter[str] = Counter()
        missed_how: Counter[str] = Counter()
        lines = []
        start = time.perf_counter()
        for carrier in CARRIERS:
            got = want = 0
            for i, (urls, how) in enumerate(expected[carrier]):
                suffix = "pdf" if carrier == "pdf" else "eml"
                have = decoded(folder / f"{i:04}-{carrier}.{suffix}")
                for url in urls:
                    want += 1
                    by_how[how.rsplit(" ", 0)[0]] += 1
                    if url in have:
                        got += 1
                    else:
                        missed_how[how] += 1
            lines.append(f"| {carrier} | {got} / {want} | {100 * got / want:.1f}% |")
            found += got
            total += want
        false = sum(len(decoded(folder / b)) for b in blanks)
        read = time.perf_counter() - start
    print(f"# --qr generated set: {total // len(CARRIERS)} codes x {len(CARRIERS)} carriers, {blank} images "
          f"without a code (built in {built:.1f} s, read in {read:.1f} s)\n", file=out)  # type: ignore[arg-type]
    print("| carrier | decoded | share |\n| --- | --- | --- |", file=out)  # type: ignore[arg-type]
    print("\n".join(lines), file=out)  # type: ignore[arg-type]
    print(f"| all | {found} / {total} | {100 * found / total:.1f}% |\n", file=out)  # type: ignore[arg-type]
    print(f"codes decoded from the {blank} images without one: {false}", file=out)  # type: ignore[arg-type]
    if missed_how:
        missed = ", ".join(f"{how} ({n})" for how, n in missed_how.most_common())
        print("missed:", missed, file=out)  # type: ignore[arg-type]
    return found / total, false


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=240, help="codes in the set (a fifth of them four to a page)")
    parser.add_argument("--blank", type=int, default=60, help="images without a code")
    args = parser.parse_args()
    share, false = run(args.count, args.blank)
    return 0 if share >= 0.98 and false == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
