"""An image's bytes → the two-dimensional codes drawn in it, decoded by zxing-cpp (the ``qr`` extra).

The symbologies read are those a link is put in: QR Code (ISO/IEC 18004:2015, Model 2 and Model 1), Micro QR
(ISO/IEC 18004 §6), rMQR (ISO/IEC 23941:2022), Aztec (ISO/IEC 24778:2008), Data Matrix (ISO/IEC 16022:2006,
ECC 200) and PDF417 (ISO/IEC 15438:2015).  Linear barcodes (EAN, Code 128 ...) carry no links, and are not
looked for: each format looked for is time spent on every image.

- Pillow decodes the image; zxing-cpp finds every code in it, in both polarities (dark on light and light on
  dark: ``try_invert``), rotated, and at the scales it tries itself.  Its first binarizer (a local average,
  which copes with uneven light and blur) finds most codes; where it finds none, a second (a global histogram,
  which copes with codes drawn thin on a flat ground) is tried.
- Budgets: an image whose header claims more than :data:`MAX_PIXELS` pixels is not decoded (Pillow reads the
  header alone to know: a 20,000 × 20,000 PNG bomb costs its header); an animated or multi-page image is read
  for its first :data:`MAX_FRAMES` frames (an animation's later frames are passed over without a word: a
  spinner of a hundred frames is no bomb); an image is given :data:`SECONDS` between frames and binarizers,
  and at most :data:`MAX_CODES` codes are taken from it.
- What cannot be decoded (a truncated file, bytes that are no image, a format Pillow lacks) is a problem
  named in words, for the reader to make a defect of.
"""

from __future__ import annotations

import io
import math
import time
import warnings
from collections.abc import Iterator
from typing import Any, NamedTuple

#: the most pixels an image may claim to be decoded (a 6,000 × 6,000 scan; a page of A4 at 600 dpi is 35 M)
MAX_PIXELS = 40_000_000
#: the frames of an animated (GIF, APNG, WebP) or multi-page (TIFF) image looked at
MAX_FRAMES = 8
#: seconds one image may take, looked at between its frames and binarizers
SECONDS = 2.0
#: the codes taken from one image (a sheet of labels holds dozens; more is a bomb of codes)
MAX_CODES = 64
#: a frame with a side under this many pixels is tried twice as large too, where nothing is found in it
SMALL = 300
#: a frame of at most this many pixels is tried inverted, enlarged and turned too, where nothing is found in it
FALLBACK = 1000 * 1000
#: the degrees (anticlockwise) a frame is turned by, in turn, where nothing is found in it
TURNS = (45, -10, 10, -20, 20, -30, 30)
#: the names records give the symbologies (the ``element`` key)
NAMES = {"QRCode": "qr-code", "QRCodeModel1": "qr-code", "QRCodeModel2": "qr-code", "MicroQRCode": "micro-qr-code",
         "RMQRCode": "rmqr-code", "Aztec": "aztec", "AztecCode": "aztec", "DataMatrix": "data-matrix",
         "PDF417": "pdf417", "CompactPDF417": "pdf417"}


class Code(NamedTuple):
    """One code found in an image: its symbology's name (:data:`NAMES`), its payload as text, its corners
    in the image's pixels (top left, top right, bottom right, bottom left, as the code is read: a code drawn
    upside down has its top left at the image's bottom right), and the frame it is in (1-based)."""

    symbology: str
    text: str
    corners: tuple[tuple[int, int], tuple[int, int], tuple[int, int], tuple[int, int]]
    frame: int


class Decoded(NamedTuple):
    """What an image gave: its codes, and the problems met (a sentence each), in order."""

    codes: list[Code]
    problems: list[tuple[str, str]]  # (the defect kind's value, the sentence)


def _formats(zxingcpp: Any) -> Any:
    format_ = zxingcpp.BarcodeFormat
    wanted = (format_.QRCode, format_.MicroQRCode, format_.RMQRCode, format_.Aztec, format_.DataMatrix,
              format_.PDF417)
    return zxingcpp.BarcodeFormats(list(wanted))


def decode_image(data: bytes, *, seconds: float = SECONDS, max_pixels: int = MAX_PIXELS) -> Decoded:
    """The codes in the image ``data`` (see the module doc).  Raises ImportError without the ``qr`` extra."""
    import zxingcpp
    from PIL import Image, UnidentifiedImageError

    codes: list[Code] = []
    problems: list[tuple[str, str]] = []
    start = time.monotonic()
    with warnings.catch_warnings():
        # (Pillow warns of a large image before it refuses one; the bound here is ours, said as a defect)
        warnings.simplefilter("ignore")
        try:
            image = Image.open(io.BytesIO(data))
        except Image.DecompressionBombError as exc:
            return Decoded(codes, [("bomb", f"the image is past Pillow's decompression-bomb guard ({_said(exc)}): "
                                    "not decoded")])
        except UnidentifiedImageError:
            return Decoded(codes, [("broken-document", "not an image: its bytes are of no image format Pillow "
                                    "decodes")])
        except (OSError, ValueError, SyntaxError) as exc:
            return Decoded(codes, [("broken-document", f"not an image that can be decoded ({_said(exc)})")])
        with image:
            width, height = image.size
            if width * height > max_pixels:
                return Decoded(codes, [("bomb", f"the image claims {width} × {height} pixels (bound: {max_pixels}"
                                        "): not decoded")])
            seen: set[tuple[str, str]] = set()
            formats = _formats(zxingcpp)
            # (frame by frame up to the bound, never n_frames: Pillow counts a GIF's frames by reading them all)
            for frame in range(MAX_FRAMES):
                if time.monotonic() - start > seconds:
                    problems.append(("bomb", f"the image took over {seconds:g} s: its frames from {frame + 1} on "
                                     "are not read"))
                    break
                try:
                    if frame:
                        image.seek(frame)
                    gray = _gray(image, Image)
                except EOFError:
                    break  # its last frame was read
                except (OSError, ValueError, SyntaxError, Image.DecompressionBombError) as exc:
                    problems.append(("broken-document", f"the image cannot be decoded ({_said(exc)})"
                                     + (f" after frame {frame}" if frame else "")))
                    break
                # (in reading order, top to bottom and left to right: zxing gives them by symbology)
                for found in sorted(_read(zxingcpp, gray, formats, start, seconds),
                                    key=lambda c: (min(y for _, y in c.corners), min(x for x, _ in c.corners))):
                    key = (found.symbology, found.text)
                    if key in seen:
                        continue
                    seen.add(key)
                    if len(codes) >= MAX_CODES:
                        problems.append(("bomb", f"the image holds more than {MAX_CODES} codes: the first "
                                         f"{MAX_CODES} are read"))
                        return Decoded(codes, problems)
                    codes.append(found._replace(frame=frame + 1))
    return Decoded(codes, problems)


def _read(zxingcpp: Any, gray: Any, formats: Any, start: float, seconds: float) -> Iterator[Code]:
    """The codes of one frame: the passes of :func:`_passes` in turn, up to the first that finds any."""
    read = pixels = view = None
    for image, binarizer, scale, turn, every in _passes(zxingcpp, gray):
        if image is not read:
            # zxing-cpp given a view of the pixels' bytes, taken once an image: given the image, it takes them
            # through Pillow's array interface on each pass, which costs a pass on a page a fifth of its time.
            # (The view holds no reference to the bytes: ``pixels`` keeps them alive while it is read.)
            read, pixels = image, image.tobytes()
            view = zxingcpp.ImageView(pixels, image.width, image.height, zxingcpp.ImageFormat.Lum)
        barcodes = zxingcpp.read_barcodes(view, formats=formats, try_rotate=every, try_downscale=every,
                                          try_invert=every, binarizer=binarizer)
        if barcodes:
            for barcode in barcodes:
                yield _code(barcode, scale, turn, gray.size)
            return
        if time.monotonic() - start > seconds:
            return


def _passes(zxingcpp: Any, gray: Any) -> Iterator[tuple[Any, Any, int, int, bool]]:
    """The images and binarizers tried, each only where those before found nothing: the frame with the first
    binarizer, then with the second; then, for a frame of at most :data:`FALLBACK` pixels (a code alone, as
    attachments are), the frame inverted (zxing's PDF417 reader looks at one polarity), twice as large where
    a side is under :data:`SMALL` pixels (a code drawn at two pixels a module), and turned by each angle of
    :data:`TURNS` (zxing's detectors of PDF417 and rMQR find a code at 90° steps and some 5° either side).
    Each as (image, binarizer, its scale, the degrees it is turned by, whether zxing tries it inverted, turned
    by 90° steps and downscaled as well).

    On a larger frame (a page), the second binarizer reads it once as it is: the first pass has tried every
    polarity, turn and scale, and a page is most often an image with no code at all, which pays for each pass
    (in the generated set, every code the second binarizer finds, it finds so)."""
    from PIL import Image, ImageOps

    binarizer = zxingcpp.Binarizer
    width, height = gray.size
    small = width * height <= FALLBACK
    yield gray, binarizer.LocalAverage, 1, 0, True
    yield gray, binarizer.GlobalHistogram, 1, 0, small
    if not small:
        return
    yield ImageOps.invert(gray), binarizer.LocalAverage, 1, 0, True
    if min(width, height) < SMALL:
        yield gray.resize((width * 2, height * 2), Image.Resampling.BICUBIC), binarizer.LocalAverage, 2, 0, True
    # (turned dark on light: a code drawn light on a dark ground is inverted first)
    upright = gray if _ground(gray) else ImageOps.invert(gray)
    for turn in TURNS:
        yield upright.rotate(turn, resample=Image.Resampling.BILINEAR, expand=True, fillcolor=255), \
            binarizer.LocalAverage, 1, turn, True


def _ground(gray: Any) -> int:
    """The frame's ground: the shade of most of its border (a code inverted keeps its polarity when turned)."""
    width, height = gray.size
    border = [gray.getpixel((x, y)) for x, y in ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1),
                                                 (width // 2, 0), (0, height // 2), (width - 1, height // 2),
                                                 (width // 2, height - 1))]
    return 255 if sum(1 for v in border if v >= 128) * 2 >= len(border) else 0


def _code(barcode: Any, scale: int, turn: int, size: tuple[int, int]) -> Code:
    """A code found, its corners in the frame's own pixels (found in a frame enlarged or turned, they are
    mapped back)."""
    position = barcode.position
    points = [(p.x / scale, p.y / scale) for p in (position.top_left, position.top_right, position.bottom_right,
                                                   position.bottom_left)]
    if turn:
        points = [_unturned(x, y, size, turn) for x, y in points]
    corners = tuple((round(x), round(y)) for x, y in points)
    name = getattr(barcode.format, "name", None) or str(barcode.format).rpartition(".")[2]
    return Code(NAMES.get(name, name.lower()), barcode.text, corners, 1)  # type: ignore[arg-type]


def _unturned(x: float, y: float, size: tuple[int, int], turn: int) -> tuple[float, float]:
    """A point of the frame turned ``turn`` degrees anticlockwise (Pillow's rotate, expanded), in the frame
    before it turned."""
    width, height = size
    angle = math.radians(turn)
    cos, sin = abs(math.cos(angle)), abs(math.sin(angle))
    turned_w, turned_h = width * cos + height * sin, width * sin + height * cos  # (as Pillow expands it)
    dx, dy = x - turned_w / 2, y - turned_h / 2
    cos, sin = math.cos(angle), math.sin(angle)
    return cos * dx - sin * dy + width / 2, sin * dx + cos * dy + height / 2


def _gray(image: Any, module: Any) -> Any:
    """The frame as 8-bit gray, transparency laid on white (a code drawn in black on a transparent ground
    would be black on black: transparent pixels' colour is often black)."""
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        rgba = image.convert("RGBA")
        ground = module.new("RGBA", rgba.size, (255, 255, 255, 255))
        ground.alpha_composite(rgba)
        return ground.convert("L")
    if image.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        return image.point(lambda v: v / 256).convert("L") if image.mode != "F" else image.convert("L")
    return image.convert("L")


def _said(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if len(text) <= 200 else text[:200] + "…"


__all__ = ["MAX_CODES", "MAX_FRAMES", "MAX_PIXELS", "NAMES", "SECONDS", "Code", "Decoded", "decode_image"]
