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
