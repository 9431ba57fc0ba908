"""Codes drawn for the tests of --qr (tests/test_qr.py) and bench/qr_set.py: zxing-cpp writes them, Pillow
transforms them.  Not a test module."""

from __future__ import annotations

import base64
import io
from email.message import EmailMessage

import zxingcpp
from PIL import Image, ImageFilter, ImageOps

FORMATS = {"qr-code": "QRCode", "micro-qr-code": "MicroQRCode", "rmqr-code": "RMQRCode", "aztec": "Aztec",
           "data-matrix": "DataMatrix", "pdf417": "PDF417"}


def code_image(text: str, symbology: str = "qr-code", scale: int = 6) -> Image.Image:
    """One code, black on white with its quiet zone, as an 8-bit gray image."""
    barcode = zxingcpp.create_barcode(text, getattr(zxingcpp.BarcodeFormat, FORMATS[symbology]))
    drawn = zxingcpp.write_barcode_to_image(barcode, scale=scale)
    return Image.frombytes("L", (drawn.shape[1], drawn.shape[0]), bytes(drawn))


def transformed(image: Image.Image, *, rotate: float = 0, scale: float = 1.0, blur: float = 0,
                invert: bool = False) -> Image.Image:
    """``image`` rotated (on white), scaled, blurred and inverted, in that order."""
    if rotate:
        image = image.rotate(rotate, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)
    if scale != 1.0:
        image = image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))),
                             Image.Resampling.BILINEAR)
    if blur:
        image = image.filter(ImageFilter.GaussianBlur(blur))
    if invert:
        image = ImageOps.invert(image)
    return image


def page(images: list[Image.Image], size: tuple[int, int] = (1000, 1400)) -> Image.Image:
    """The images laid out on one white page, top to bottom and left to right."""
    sheet = Image.new("L", size, 255)
    x = y = 20
    row = 0
    for image in images:
        if image.width > size[0] - 40:  # (an image wider than the page is made to fit it)
            image = image.resize((size[0] - 40, max(1, image.height * (size[0] - 40) // image.width)),
                                 Image.Resampling.BILINEAR)
        if x + image.width > size[0] - 20:
            x, y = 20, y + row + 20
            row = 0
        sheet.paste(image, (x, y))
        x += image.width + 20
        row = max(row, image.height)
    return sheet


def encoded(image: Image.Image, form: str = "PNG", quality: int = 90) -> bytes:
    out = io.BytesIO()
    if form == "JPEG":
        image.convert("L").save(out, "JPEG", quality=quality)
    else:
        image.save(out, form)
    return out.getvalue()


def message(attached: list[tuple[str, bytes]] = (), inline: list[bytes] = (), data: list[bytes] = (),
            subject: str = "Invoice") -> bytes:
    """A message whose images are attachments, inline cid: images of its HTML, and data: images in it."""
    mail = EmailMessage()
    mail["From"] = "billing@example.org"
    mail["To"] = "you@example.org"
    mail["Subject"] = subject
    mail["Date"] = "Tue, 01 Dec 2026 10:00:00 +0000"
    mail.set_content("Scan the code to pay.\n")
    html = "<p>Scan to pay:</p>" + "".join(f'<img src="cid:code{i}@example.org">' for i in range(len(inline)))
    html += "".join(f'<img src="data:image/png;base64,{base64.b64encode(png).decode()}">' for png in data)
    mail.add_alternative(html, subtype="html")
    related = mail.get_payload()[1]
    for i, png in enumerate(inline):
        related.add_related(png, "image", "png", cid=f"<code{i}@example.org>")
    for name, png in attached:
        subtype = "jpeg" if png[:3] == b"\xff\xd8\xff" else "png"
        mail.add_attachment(png, maintype="image", subtype=subtype, filename=name)
    return bytes(mail)


def pdf(images: list[Image.Image]) -> bytes:
    """A PDF of one page an image (Pillow's PDF writer)."""
    out = io.BytesIO()
    first, *rest = [image.convert("RGB") for image in images]
    first.save(out, "PDF", save_all=True, append_images=rest, resolution=100)
    return out.getvalue()


def modules(text: str, symbology: str = "qr-code") -> list[list[int]]:
    """A code's modules, 1 dark, without its quiet zone."""
    barcode = zxingcpp.create_barcode(text, getattr(zxingcpp.BarcodeFormat, FORMATS[symbology]))
    drawn = zxingcpp.write_barcode_to_image(barcode, scale=1, add_quiet_zones=False)
    data = bytes(drawn)
    width = drawn.shape[1]
    return [[1 if data[y * width + x] < 128 else 0 for x in range(width)] for y in range(drawn.shape[0])]


def _quiet(grid: list[list[int]], zone: int) -> list[list[int]]:
    width = len(grid[0]) + 2 * zone
    return [[0] * width] * zone + [[0] * zone + r + [0] * zone for r in grid] + [[0] * width] * zone


def half_blocks(grid: list[list[int]], *, invert: bool = False, zone: int = 2) -> str:
    """The code drawn with half blocks, two modules a character (qrencode -t UTF8's form; ``invert``: light
    characters on a dark terminal, as qrencode draws it)."""
    grid = _quiet(grid, zone)
    if invert:
        grid = [[1 - v for v in r] for r in grid]
    if len(grid) % 2:
        grid.append([1 if invert else 0] * len(grid[0]))
    chars = {(1, 1): "█", (1, 0): "▀", (0, 1): "▄", (0, 0): " "}
    return "\n".join("".join(chars[grid[y][x], grid[y + 1][x]] for x in range(len(grid[0])))
                     for y in range(0, len(grid), 2))


def full_blocks(grid: list[list[int]], *, doubled: bool = True, zone: int = 1) -> str:
    """The code drawn with full blocks and spaces, a line a row, two characters a module when ``doubled``."""
    wide = 2 if doubled else 1
    return "\n".join("".join(("█" if v else " ") * wide for v in r) for r in _quiet(grid, zone))


def html_table(grid: list[list[int]], *, how: str = "bgcolor") -> str:
    """The code drawn as a table of black and white cells, by ``bgcolor`` or by a ``style`` background."""
    def cell(v: int) -> str:
        colour = "#000000" if v else "#ffffff"
        return f'<td bgcolor="{colour}"></td>' if how == "bgcolor" else \
            f'<td style="width:4px;height:4px;background-color:{"black" if v else "white"}"></td>'
    rows = "".join("<tr>" + "".join(cell(v) for v in r) + "</tr>\n" for r in _quiet(grid, 2))
    return f'<table cellpadding="0" cellspacing="0" border="0">\n{rows}</table>'


#: the transforms of the generated set, cycled through, each on every symbology: one change at a time
#: (rotation in degrees, scale, blur radius, JPEG quality or None for PNG, inverted), then two together
TRANSFORMS = [
    dict(rotate=0, scale=1.0, blur=0, quality=None, invert=False),
    dict(rotate=10, scale=1.0, blur=0, quality=None, invert=False),
    dict(rotate=25, scale=1.0, blur=0, quality=None, invert=False),
    dict(rotate=45, scale=1.0, blur=0, quality=None, invert=False),
    dict(rotate=0, scale=0.6, blur=0, quality=None, invert=False),
    dict(rotate=0, scale=0.3, blur=0, quality=None, invert=False),
    dict(rotate=0, scale=1.0, blur=1.0, quality=None, invert=False),
    dict(rotate=0, scale=1.0, blur=2.0, quality=None, invert=False),
    dict(rotate=0, scale=1.0, blur=0, quality=50, invert=False),
    dict(rotate=0, scale=1.0, blur=0, quality=20, invert=False),
    dict(rotate=0, scale=1.0, blur=0, quality=None, invert=True),
    dict(rotate=0, scale=0.5, blur=0, quality=30, invert=False),
    dict(rotate=15, scale=1.0, blur=0, quality=None, invert=True),
]
SYMBOLOGIES = list(FORMATS)
#: how big a module is drawn before the transforms (a scale of 0.3 leaves 2.4 pixels a module)
MODULE = 8


def generated(count: int, *, per_page: int = 1, start: int = 0) -> list[tuple[bytes, list[str], str]]:
    """``count`` codes, cycling through the symbologies and :data:`TRANSFORMS`, ``per_page`` to an image: each
    image's bytes, the URLs its codes hold, and what was done to it."""
    out: list[tuple[bytes, list[str], str]] = []
    for first in range(start, start + count, per_page):
        images, urls, how = [], [], ""
        for i in range(first, min(first + per_page, start + count)):
            symbology = SYMBOLOGIES[i % len(SYMBOLOGIES)]
            t = TRANSFORMS[(i // len(SYMBOLOGIES)) % len(TRANSFORMS)]
            url = f"https://set.example/c/{i}" if symbology != "micro-qr-code" else f"m{i}.example"
            image = code_image(url, symbology, MODULE)
            images.append(transformed(image, rotate=t["rotate"], scale=t["scale"], blur=t["blur"]))
            urls.append(url)
            how = (f"{symbology} rotate {t['rotate']} scale {t['scale']} blur {t['blur']} "
                   f"{'jpeg ' + str(t['quality']) if t['quality'] else 'png'}{' inverted' if t['invert'] else ''}")
        image = images[0] if per_page == 1 else page(images, (1000, 1400))
        if t["invert"]:
            image = ImageOps.invert(image)
        data = encoded(image, "JPEG", t["quality"]) if t["quality"] else encoded(image)
        out.append((data, urls, how if per_page == 1 else f"{len(images)} codes on a page"))
    return out


def without_codes(count: int) -> list[bytes]:
    """Images with no code in them: noise, gradients, stripes, text-like blocks, a checkerboard."""
    import random

    rng = random.Random(55)
    out = []
    for i in range(count):
        kind = i % 5
        size = (200 + 37 * i % 400, 200 + 53 * i % 400)
        if kind == 0:
            image = Image.frombytes("L", size, bytes(rng.randrange(256) for _ in range(size[0] * size[1])))
        elif kind == 1:
            image = Image.linear_gradient("L").resize(size)
        elif kind == 2:
            image = Image.new("L", size, 255)
            for x in range(0, size[0], 7 + i % 5):
                image.paste(0, (x, 0, x + 3, size[1]))
        elif kind == 3:
            image = Image.new("L", size, 255)
            for _ in range(300):
                x, y = rng.randrange(size[0] - 12), rng.randrange(size[1] - 6)
                image.paste(0, (x, y, x + rng.randrange(2, 12), y + rng.randrange(2, 6)))
        else:
            cell = 4 + i % 9
            image = Image.new("L", size, 255)
            for y in range(0, size[1], cell):
                for x in range((y // cell % 2) * cell, size[0], 2 * cell):
                    image.paste(0, (x, y, x + cell, y + cell))
        out.append(encoded(image, "JPEG", 60) if i % 2 else encoded(image))
    return out
