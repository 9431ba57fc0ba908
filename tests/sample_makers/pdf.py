"""Writes this folder's PDF samples (urisift's corpus; run from the project's
root: python tests/sample_makers/pdf.py).  reportlab draws the text layer,
pypdf adds the link annotations and the catalog's /URI /Base."""

from __future__ import annotations

import io
from pathlib import Path

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, FloatObject, NameObject, NumberObject, TextStringObject
from reportlab.pdfgen import canvas

HERE = Path(__file__).resolve().parents[2] / "corpora" / "pdf"


def _text_pages(lines_per_page: list[list[str]]) -> bytes:
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=(595, 842), invariant=1)
    for lines in lines_per_page:
        y = 800
        for line in lines:
            c.drawString(72, y, line)
            y -= 20
        c.showPage()
    c.save()
    return out.getvalue()


def _link(rect: tuple[int, int, int, int], action: DictionaryObject) -> DictionaryObject:
    return DictionaryObject({
        NameObject("/Type"): NameObject("/Annot"), NameObject("/Subtype"): NameObject("/Link"),
        NameObject("/Rect"): ArrayObject([FloatObject(v) for v in rect]),
        NameObject("/Border"): ArrayObject([NumberObject(0), NumberObject(0), NumberObject(0)]),
        NameObject("/A"): action,
    })


def _uri(value: str) -> DictionaryObject:
    return DictionaryObject({NameObject("/S"): NameObject("/URI"), NameObject("/URI"): TextStringObject(value)})


def links_pdf() -> bytes:
    text = _text_pages([
        ["Harbour report, page one.", "Charts are at https://charts.example.com/tides and", "www.example.org/report."],
        ["Page two: see <https://archive.example.net/2024/report.pdf>."],
    ])
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(text)))
    writer._root_object[NameObject("/URI")] = DictionaryObject(
        {NameObject("/Base"): TextStringObject("https://reports.example.com/2024/")})
    one, two = writer.pages
    one[NameObject("/Annots")] = ArrayObject([
        writer._add_object(_link((72, 700, 300, 720), _uri("summary.html"))),  # relative: against /Base
        writer._add_object(_link((72, 680, 300, 700), _uri("https://absolute.example.org/page"))),
        writer._add_object(_link((72, 660, 300, 680), DictionaryObject({
            NameObject("/S"): NameObject("/Launch"),
            NameObject("/F"): DictionaryObject({NameObject("/Type"): NameObject("/Filespec"),
                                                NameObject("/F"): TextStringObject("tools/run.exe"),
                                                NameObject("/UF"): TextStringObject("tools/run.exe")})}))),
    ])
    two[NameObject("/Annots")] = ArrayObject([
        writer._add_object(_link((72, 780, 300, 800), DictionaryObject({
            NameObject("/S"): NameObject("/GoToR"), NameObject("/F"): TextStringObject("../annex.pdf"),
            NameObject("/D"): ArrayObject([NumberObject(0), NameObject("/Fit")])}))),
    ])
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


if __name__ == "__main__":
    (HERE / "links-and-base.pdf").write_bytes(links_pdf())
