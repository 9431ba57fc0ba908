"""The ``qr`` case of bench.py (issue 55): what --qr costs an image, and its memory on a pixel bomb.

- A 1000×1400 page (A4 at 120 dpi, as a scanned invoice) as PNG, with one QR code, with six codes of the six
  symbologies, and with none: the image reader's decoding (Pillow's decode and zxing-cpp's passes) against
  zxing-cpp alone on the page already decoded (the floor); the target is 15 ms a page, with codes or none.
- A 20,000 × 20,000 PNG bomb (400 million pixels; its file a few hundred kilobytes): the peak RSS of a process
  that reads it with --qr, against the same process reading a small image.
"""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "sample_makers"))


def _bomb() -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    packer = zlib.compressobj(9)
    row = b"\x00" * 20_001
    stream = b"".join(packer.compress(row) for _ in range(20_000)) + packer.flush()
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 20_000, 20_000, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", stream) + chunk(b"IEND", b""))


def _peak_rss(path: Path) -> tuple[float, str]:
    """The peak RSS (MiB) of ``urisift --qr PATH`` in a process of its own, and what it wrote to stderr."""
    code = ("import resource, sys; from urisift.cli.command import main; status = main(['--qr', sys.argv[1]]); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, file=sys.stderr)")
    run = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=False)
    lines = run.stderr.strip().splitlines()
    return float(lines[-1]), " ".join(lines[:-1])


def bench_qr(rounds: int, timeit: Callable[..., float], table: Callable[..., None]) -> None:
    import qr_codes as samples
    import zxingcpp
    from PIL import Image

    from urisift.readers.image.decode import _formats, decode_image

    one = samples.encoded(samples.page([samples.code_image("https://invoice.example/pay?id=12345", scale=6)]))
    six = samples.encoded(samples.page([samples.code_image(f"six.example/{s[:2]}", s, 6) for s in samples.FORMATS]))
    none = samples.encoded(samples.page([]))
    formats = _formats(zxingcpp)
    for name, data, codes in (("one QR code", one, 1), ("six codes", six, 6), ("no code", none, 0)):
        assert len(decode_image(data).codes) == codes, name
        gray = Image.open(io.BytesIO(data)).convert("L")
        rows = [("urisift decode_image", timeit(lambda data=data: decode_image(data), rounds), ""),
                ("zxing-cpp read_barcodes on the decoded page", timeit(
                    lambda gray=gray: zxingcpp.read_barcodes(gray, formats=formats), rounds),
                 "the floor: one pass, no decode")]
        table(f"qr: a 1000x1400 PNG page, {name}", "pages", 1, rows, "urisift decode_image")
        print(f"\n{1000 * rows[0][1]:.1f} ms a page (target: 15 ms a page)")
    data = HERE / ".data"
    data.mkdir(exist_ok=True)
    bomb = data / "bomb-20000x20000.png"
    if not bomb.exists():
        bomb.write_bytes(_bomb())
    small = data / "small-qr.png"
    small.write_bytes(samples.encoded(samples.code_image("https://small.example/")))
    bomb_rss, said = _peak_rss(bomb)
    small_rss, _ = _peak_rss(small)
    print(f"\n## qr: a {bomb.stat().st_size / 1024:.0f} KiB PNG claiming 20,000 x 20,000 pixels\n")
    print(f"peak RSS {bomb_rss:.0f} MiB (a small QR image: {small_rss:.0f} MiB); the run said: {said}")


__all__ = ["bench_qr"]
