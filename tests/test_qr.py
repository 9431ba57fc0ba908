"""--qr (issue 55): the codes drawn in images, read wherever the other readers find images: image files,
mail attachments and inline images, archive members, data: images, a PDF's page images, and codes drawn
with block characters or as an HTML table."""

from __future__ import annotations

import io
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from urisift import Defect, Kind, Record, ScanOptions, iter_input
from urisift.stages.sniff import binary, sniff_kind

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "sample_makers"))
import qr_codes as samples  # noqa: E402

QR = ScanOptions(qr=True)


def _scan(path: Path | str, options: ScanOptions = QR) -> list[Record | Defect]:
    return [item for item in iter_input(str(path), options) if isinstance(item, (Record, Defect))]


def _found(items: list[Record | Defect]) -> list[tuple[object, ...]]:
    return [(r.uri, r.target, r.style.value, r.where.value, r.element, r.header, r.part) if isinstance(r, Record)
            else (r.kind.value, r.detail, r.origin.part) for r in items]


def _png(text: str, symbology: str = "qr-code", **how: object) -> bytes:
    return samples.encoded(samples.transformed(samples.code_image(text, symbology), **how))  # type: ignore[arg-type]


def test_an_image_file_named_gives_its_code_with_its_corners(tmp_path: Path) -> None:
    path = tmp_path / "code.png"
    path.write_bytes(_png("https://evil.example/login?x=1"))
    items = _scan(path)
    assert _found(items) == [("https://evil.example/login?x=1", "https://evil.example/login?x=1", "qr", "image",
                              "qr-code", None, None)]
    record = items[0]
    assert isinstance(record, Record)
    assert record.attribute == "24,24 174,24 174,174 24,174"  # (its corners: a quiet zone of 4 modules of 6 px)
    assert (record.span, record.line, record.column) == ((0, 30), 1, 1)
    assert sniff_kind(path.read_bytes()) is Kind.IMAGE


def test_without_qr_nothing_changes(tmp_path: Path) -> None:
    path = tmp_path / "code.png"
    path.write_bytes(_png("https://evil.example/"))
    assert [i.kind.value for i in _scan(path, ScanOptions()) if isinstance(i, Defect)] == ["binary-content"]
    assert binary(path.read_bytes()[:4096], str(path))
    mail = tmp_path / "m.eml"
    mail.write_bytes(samples.message(attached=[("code.png", path.read_bytes())]))
    assert _found(_scan(mail, ScanOptions())) == []
    with pytest.raises(ValueError, match="kind 'image' reads the codes drawn in images: give qr=True too"):
        ScanOptions(kind=Kind.IMAGE)


def test_every_symbology_and_the_payload_forms(tmp_path: Path) -> None:
    cases = [
        ("qr-code", "HTTPS://EXAMPLE.COM/A"), ("micro-qr-code", "x.example/a"), ("rmqr-code", "https://r.example/"),
        ("aztec", "https://aztec.example/p?q=1"), ("data-matrix", "https://dm.example/x"),
        ("pdf417", "see https://pdf417.example/doc ok"),
        ("qr-code", "MECARD:N:Doe,Jo;URL:www.mecard.example;EMAIL:jo@example.org;NOTE:at http://note.example/;;"),
        ("qr-code", "MATMSG:TO:help@example.org;SUB:Reset;BODY:go to https://reset.example/now;;"),
        ("qr-code", "WIFI:T:WPA;S:https://ssid.example/;P:secret;;"),
        ("qr-code", "SMSTO:+15550100:Your parcel: https://parcel.example/t"),
        ("qr-code", "URLTO:bookmark.example/page"),
        ("qr-code", "BEGIN:VCARD\nVERSION:3.0\nFN:Jo\nURL:https://card.example/jo\nEMAIL:jo@card.example\nEND:VCARD"),
    ]
    for i, (symbology, text) in enumerate(cases):
        (tmp_path / f"{i:02}.png").write_bytes(_png(text, symbology))
    assert [f[:6] for f in _found(_scan(tmp_path))] == [
        ("HTTPS://EXAMPLE.COM/A", "HTTPS://EXAMPLE.COM/A", "qr", "image", "qr-code", None),
        ("x.example/a", "http://x.example/a", "qr", "image", "micro-qr-code", None),
        ("https://r.example/", "https://r.example/", "qr", "image", "rmqr-code", None),
        ("https://aztec.example/p?q=1", "https://aztec.example/p?q=1", "qr", "image", "aztec", None),
        ("https://dm.example/x", "https://dm.example/x", "qr", "image", "data-matrix", None),
        ("https://pdf417.example/doc", "https://pdf417.example/doc", "qr", "image", "pdf417", None),
        ("www.mecard.example", "http://www.mecard.example", "qr", "image", "qr-code", "MECARD:URL"),
        ("jo@example.org", "mailto:jo@example.org", "qr", "image", "qr-code", "MECARD:EMAIL"),
        ("http://note.example/", "http://note.example/", "qr", "image", "qr-code", "MECARD:NOTE"),
        ("help@example.org", "mailto:help@example.org", "qr", "image", "qr-code", "MATMSG:TO"),
        ("https://reset.example/now", "https://reset.example/now", "qr", "image", "qr-code", "MATMSG:BODY"),
        ("https://ssid.example/", "https://ssid.example/", "qr", "image", "qr-code", "WIFI:S"),
        ("https://parcel.example/t", "https://parcel.example/t", "qr", "image", "qr-code", "SMSTO"),
        ("bookmark.example/page", "http://bookmark.example/page", "qr", "image", "qr-code", "URLTO"),
        ("https://card.example/jo", "https://card.example/jo", "qr", "image", "qr-code", "VCARD:URL"),
        ("jo@card.example", "mailto:jo@card.example", "qr", "image", "qr-code", "VCARD:EMAIL"),
    ]


def test_a_scheme_less_payload_is_a_host_only_when_its_last_label_is_a_domain(tmp_path: Path) -> None:
    for i, text in enumerate(["asm.js", "hello world", "evil.example", "Call 555-0100"]):
        (tmp_path / f"{i}.png").write_bytes(_png(text))
    assert [f[:2] for f in _found(_scan(tmp_path))] == [("evil.example", "http://evil.example")]


def test_mail_attachments_inline_and_data_images(tmp_path: Path) -> None:
    mail = tmp_path / "invoice.eml"
    mail.write_bytes(samples.message(attached=[("code.png", _png("https://attached.example/pay")),
                                               ("photo.jpg", samples.encoded(samples.code_image(
                                                   "https://jpeg.example/"), "JPEG", 40))],
                                     inline=[_png("https://inline.example/pay")]))
    assert [f for f in _found(_scan(mail)) if f[2] == "qr"] == [
        ("https://inline.example/pay", "https://inline.example/pay", "qr", "image", "qr-code", None, "1.2.2"),
        ("https://attached.example/pay", "https://attached.example/pay", "qr", "image", "qr-code", None, "2"),
        ("https://jpeg.example/", "https://jpeg.example/", "qr", "image", "qr-code", None, "3")]


def test_archive_members(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("scan/code.png", _png("https://zipped.example/"))
        z.writestr("notes.txt", "see https://text.example/")
    tarred = io.BytesIO()
    with tarfile.open(fileobj=tarred, mode="w") as t:
        data = _png("https://tarred.example/")
        info = tarfile.TarInfo("img/c.png")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))
    (tmp_path / "a.zip").write_bytes(buffer.getvalue())
    (tmp_path / "b.tar").write_bytes(tarred.getvalue())
    assert [(f[0], f[2], f[-1]) for f in _found(_scan(tmp_path))] == [
        ("https://zipped.example/", "qr", "scan/code.png"), ("https://text.example/", "bare", "notes.txt"),
        ("https://tarred.example/", "qr", "img/c.png")]
    assert [f[0] for f in _found(_scan(tmp_path, ScanOptions()))] == ["https://text.example/"]


def test_bad_images_are_defects_and_the_rest_is_read(tmp_path: Path) -> None:
    good = _png("https://good.example/")
    mail = tmp_path / "m.eml"
    mail.write_bytes(samples.message(attached=[("truncated.png", good[:300]), ("text.png", b"Hello, not a PNG\n"),
                                               ("good.png", good)]))
    assert _found(_scan(mail))[-3:] == [
        ("broken-document", "the image cannot be decoded (image file is truncated)", "2"),
        ("broken-document", "not an image: its bytes are of no image format Pillow decodes", "3"),
        ("https://good.example/", "https://good.example/", "qr", "image", "qr-code", None, "4")]


def test_junk_payload_gives_nothing(tmp_path: Path) -> None:
    import random

    junk = "".join(random.Random(55).choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 $%*+-./:") for _ in range(3000))
    (tmp_path / "junk.png").write_bytes(samples.encoded(samples.code_image(junk, scale=2)))
    (tmp_path / "z.png").write_bytes(_png("https://after.example/"))
    assert [f[0] for f in _found(_scan(tmp_path))] == ["https://after.example/"]


def test_a_pixel_bomb_is_refused_from_its_header(tmp_path: Path) -> None:
    import struct
    import zlib

    # a 20,000 x 20,000 PNG: its header and a stream of zeros that would inflate to 400 MB
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    row = b"\x00" + b"\x00" * 20_000
    packer = zlib.compressobj(9)
    stream = b"".join(packer.compress(row) for _ in range(2000)) + packer.flush()
    bomb = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 20_000, 20_000, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", stream) + chunk(b"IEND", b""))
    (tmp_path / "bomb.png").write_bytes(bomb)
    (tmp_path / "c.png").write_bytes(_png("https://after.example/"))
    found = _found(_scan(tmp_path))
    assert found == [
        ("bomb", "the image is past Pillow's decompression-bomb guard (Image size (400000000 pixels) exceeds limit "
                 "of 178956970 pixels, could be decompression bomb DOS attack.): not decoded", None),
        ("https://after.example/", "https://after.example/", "qr", "image", "qr-code", None, None)]


def test_the_command(tmp_path: Path) -> None:
    path = tmp_path / "code.png"
    path.write_bytes(_png("https://evil.example/"))
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}
    run = subprocess.run([sys.executable, "-m", "urisift", "--qr", str(path)], capture_output=True, text=True,
                         env=env, check=False)
    assert (run.returncode, run.stdout, run.stderr) == (0, "https://evil.example/\n", "")
    walked = subprocess.run([sys.executable, "-m", "urisift", str(tmp_path)], capture_output=True, text=True,
                            env=env, check=False)
    assert (walked.returncode, walked.stdout) == (0, "")
    walked = subprocess.run([sys.executable, "-m", "urisift", "--qr", "--format", "csv", "--fields", "uri,style",
                             str(tmp_path)], capture_output=True, text=True, env=env, check=False)
    assert walked.stdout.splitlines()[1:] == ["https://evil.example/,qr"]
    wrong = subprocess.run([sys.executable, "-m", "urisift", "--kind", "image", str(path)], capture_output=True,
                           text=True, env=env, check=False)
    assert (wrong.returncode, wrong.stderr) == (2, "urisift: --kind image reads the codes drawn in images: give --qr "
                                                   "too\n")


def test_without_the_extra_qr_is_a_missing_extra_defect(tmp_path: Path) -> None:
    path = tmp_path / "code.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n")
    code = ("import importlib.util, sys\n"
            "real = importlib.util.find_spec\n"
            "importlib.util.find_spec = lambda name, *a: None if name == 'zxingcpp' else real(name, *a)\n"
            "from urisift.cli.command import main\n"
            f"sys.exit(main(['--qr', {str(path)!r}]))\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"}, check=False)
    assert (run.returncode, run.stdout, run.stderr) == (
        2, "", "urisift: missing-extra: reading codes in images (--qr) needs zxing-cpp and Pillow: pip install "
               "'urisift[qr]'\n")


def test_html_data_images_and_pdf_page_images(tmp_path: Path) -> None:
    import base64

    png = _png("https://data.example/pay")
    encoded = base64.b64encode(png).decode()
    (tmp_path / "a.html").write_text(f'<p>Pay</p>\n<img alt="scan" src="data:image/png;base64,{encoded}">'
                                     '<img src="data:image/png;base64,bm90IGFuIGltYWdl">')
    (tmp_path / "b.pdf").write_bytes(samples.pdf([
        samples.page([samples.code_image("https://pdf.example/one"), samples.code_image("https://pdf.example/two",
                                                                                        "aztec")]),
        samples.page([samples.code_image("https://pdf.example/p2", "data-matrix")])]))
    found = [(r.uri, r.element, r.part, r.found.place.page) if isinstance(r, Record)
             else (r.kind.value, r.detail, r.origin.part)
             for r in _scan(tmp_path) if not isinstance(r, Record) or r.style.value == "qr"]
    assert found == [
        ("https://data.example/pay", "qr-code", "data:image/png#1", None),
        ("broken-document", "not an image: its bytes are of no image format Pillow decodes", "data:image/png#2"),
        # (in reading order: the Aztec code's top, without a quiet zone, is above the QR code's)
        ("https://pdf.example/two", "aztec", "image", 1), ("https://pdf.example/one", "qr-code", "image", 1),
        ("https://pdf.example/p2", "data-matrix", "image", 2)]
    assert [r.uri for r in _scan(tmp_path, ScanOptions()) if isinstance(r, Record) and r.style.value == "qr"] == []


def test_codes_drawn_with_block_characters_and_as_tables(tmp_path: Path) -> None:
    half = samples.half_blocks(samples.modules("https://half.example/a"))
    (tmp_path / "a.txt").write_text(f"Scan this:\n\n{half}\n\nthanks\n")
    inverted = samples.half_blocks(samples.modules("https://inverted.example/"), invert=True)
    quoted = samples.full_blocks(samples.modules("https://quoted.example/")).replace("\n", "\n> ")
    (tmp_path / "b.eml").write_bytes(samples.message(subject="drawn") .replace(
        b"Scan the code to pay.\n", (inverted + "\n\n> " + quoted + "\n").encode()))
    tables = samples.html_table(samples.modules("https://bgcolor.example/")) + samples.html_table(
        samples.modules("https://style.example/"), how="style")
    (tmp_path / "c.html").write_text(f"<p>Scan</p>\n{tables}")
    found = [(r.uri, r.part) for r in _scan(tmp_path) if isinstance(r, Record) and r.style.value == "qr"]
    assert found == [("https://half.example/a", "drawn:text@4:1"), ("https://inverted.example/", "1!/drawn:text@1:1"),
                     ("https://quoted.example/", "1!/drawn:text@18:3"), ("https://bgcolor.example/", "drawn:table@2:1"),
                     ("https://style.example/", "drawn:table@32:9")]
    assert [r for r in _scan(tmp_path, ScanOptions()) if isinstance(r, Record) and r.style.value == "qr"] == []


def test_the_rebuild_is_linear_and_bounded() -> None:
    import time

    from urisift.stages.drawn import MAX_DRAWINGS, table_drawings, text_drawings

    start = time.perf_counter()
    assert list(text_drawings(("█" * 100_000 + "\n") * 20)) == []  # lines too long to be a code
    assert len(list(text_drawings((("█ " * 20 + "\n") * 12 + "\nx\n") * 100))) == MAX_DRAWINGS
    assert list(table_drawings("<table>" + "<tr>" + '<td bgcolor="#000">' * 300_000)) == []
    assert list(table_drawings("<table bgcolor=black><tr><td>" * 50_000)) == []
    assert list(text_drawings(("█ " * 20 + "\n") * 100_000)) == []  # taller than any code: nothing kept
    assert list(table_drawings(("<table>" + ("<tr>" + "<td bgcolor=#000>" * 199 + "<td>" * 2) * 199) * 30)) == []
    assert time.perf_counter() - start < 5


def test_an_animation_is_read_for_its_first_frames_without_a_word(tmp_path: Path) -> None:
    from PIL import Image

    frames = []
    for i in range(20):  # (each frame its own: GIF writers merge the frames that are alike)
        frame = Image.new("L", (200, 200), 255)
        frame.paste(0, (i * 5, 190, i * 5 + 4, 194))
        frames.append(frame)
    frames[2] = samples.code_image("https://frame.example/3").resize((200, 200))
    frames[12] = samples.code_image("https://frame.example/13").resize((200, 200))
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    (tmp_path / "spinner.gif").write_bytes(out.getvalue())
    items = _scan(tmp_path)
    assert [(r.uri, r.attribute) if isinstance(r, Record) else r.detail for r in items] == [
        ("https://frame.example/3", "frame 3: 24,24 176,24 175,175 24,176")]


def test_the_library_functions_take_qr(tmp_path: Path) -> None:
    from urisift import scan_mbox, scan_message, scan_path

    mail = samples.message(attached=[("code.png", _png("https://library.example/"))])
    assert [r.uri for r in scan_message(mail, qr=True) if isinstance(r, Record) and r.style.value == "qr"] == [
        "https://library.example/"]
    assert [r.uri for r in scan_message(mail) if isinstance(r, Record) and r.style.value == "qr"] == []
    archive = b"From a@example.org Tue Dec  1 10:00:00 2026\n" + mail
    assert [r.message for r in scan_mbox(io.BytesIO(archive), qr=True) if isinstance(r, Record)
            and r.style.value == "qr"] == [0]
    (tmp_path / "c.png").write_bytes(_png("https://path.example/"))
    assert [r.uri for r in scan_path(tmp_path, qr=True) if isinstance(r, Record)] == ["https://path.example/"]
    with pytest.raises(TypeError, match="scan_path\\(\\): qr must be True or False"):
        list(scan_path(tmp_path, qr="yes"))  # type: ignore[arg-type]


def test_the_records_are_valid_against_the_schema(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from urisift.output import record_json, record_schema

    (tmp_path / "c.png").write_bytes(_png("MECARD:N:Jo;URL:https://schema.example/;EMAIL:jo@example.org;;"))
    records = [r for r in _scan(tmp_path) if isinstance(r, Record)]
    assert [(r.uri, r.header) for r in records] == [("https://schema.example/", "MECARD:URL"),
                                                    ("jo@example.org", "MECARD:EMAIL")]
    validator = jsonschema.Draft202012Validator(record_schema())
    for record in records:
        validator.validate(record_json(record))


def test_the_images_of_outlook_messages_and_tnef_are_read_with_qr(tmp_path: Path) -> None:
    # (the MAPI reader routes its attachments as a MIME part's are: an image is the image reader's)
    from .sample_makers.outlook import (
        ATTACH_DATA,
        ATTACH_TITLE,
        PT_BINARY,
        PT_UNICODE,
        REND_DATA,
        Attachment,
        Message,
        attribute,
        msg,
        tnef,
    )

    code = _png("https://qr-in-msg.example/pay")
    (tmp_path / "a.msg").write_bytes(msg(Message({(0x1000, PT_UNICODE): "see the code"}, [Attachment(
        {(0x3707, PT_UNICODE): "code.png", (0x370E, PT_UNICODE): "image/png", (0x3701, PT_BINARY): code})])))
    (tmp_path / "winmail.dat").write_bytes(tnef(
        attribute(2, REND_DATA, b"\x01\x00\xff\xff\xff\xff" + b"\x00" * 8),
        attribute(2, ATTACH_TITLE, b"code.png\x00"), attribute(2, ATTACH_DATA, code)))
    for name in ("a.msg", "winmail.dat"):
        records = [r for r in _scan(tmp_path / name) if isinstance(r, Record)]
        assert [(r.target, r.style.value, r.part) for r in records] == [
            ("https://qr-in-msg.example/pay", "qr", "attachment-1")], name
        assert not [r for r in _scan(tmp_path / name, ScanOptions()) if isinstance(r, Record)]


def test_a_page_s_code_only_the_second_binarizer_finds_is_found() -> None:
    from urisift.readers.image.decode import decode_image

    # a blurred rMQR code on a 1000 x 1400 page: the local-average binarizer finds nothing there, and the
    # global histogram, which reads a page once as it is (no inverting, turning or downscaling), finds it
    page = samples.encoded(samples.page([samples.transformed(samples.code_image("rmqr.example/a", "rmqr-code"),
                                                             blur=1.5)]))
    assert [(code.symbology, code.text) for code in decode_image(page).codes] == [("rmqr-code", "rmqr.example/a")]
