"""Writes this folder's office samples (urisift's corpus; run from the
project's root: python tests/sample_makers/office.py): the smallest
packages Word, Excel and LibreOffice open, each with external links."""

from __future__ import annotations

import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[2] / "corpora" / "office"
TYPES = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
         '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
         '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
         '<Default Extension="xml" ContentType="application/xml"/>{overrides}</Types>')
RELS = ('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{}</Relationships>')
R = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


def _write(path: Path, members: list[tuple[str, str]]) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in members:
            info = zipfile.ZipInfo(name, date_time=(2024, 5, 3, 12, 0, 0))
            info.compress_type = zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED
            z.writestr(info, text)


def docx() -> None:
    document = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        f'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="{R}"><w:body>'
        '<w:p><w:r><w:t xml:space="preserve">Invoice: </w:t></w:r>'
        '<w:hyperlink r:id="rId2"><w:r><w:t>pay here</w:t></w:r></w:hyperlink></w:p>'
        '<w:p><w:fldSimple w:instr=" HYPERLINK &quot;https://fields.example.com/simple&quot; "><w:r><w:t>simple field'
        '</w:t></w:r></w:fldSimple></w:p>'
        '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK '
        '\\o "tip" "https://fields.example.com/complex?a=1" </w:instrText></w:r><w:r><w:fldChar '
        'w:fldCharType="separate"/></w:r><w:r><w:t>complex field</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/>'
        '</w:r></w:p>'
        '<w:p><w:r><w:instrText> HYPERLINK \\l "bookmark" </w:instrText></w:r></w:p>'
        '</w:body></w:document>')
    _write(HERE / "invoice.docx", [
        ("[Content_Types].xml", TYPES.format(overrides='<Override PartName="/word/document.xml" ContentType="'
                                             'application/vnd.openxmlformats-officedocument.wordprocessingml.'
                                             'document.main+xml"/>')),
        ("_rels/.rels", RELS.format(f'<Relationship Id="rId1" Type="{R}/officeDocument" Target="word/document.xml"/>')),
        ("word/document.xml", document),
        ("word/_rels/document.xml.rels", RELS.format(
            f'<Relationship Id="rId2" Type="{R}/hyperlink" Target="https://pay.example.net/invoice?id=42" '
            'TargetMode="External"/>'
            f'<Relationship Id="rId3" Type="{R}/image" Target="http://images.example.org/logo.png" '
            'TargetMode="External"/>'
            f'<Relationship Id="rId4" Type="{R}/styles" Target="styles.xml"/>'
            f'<Relationship Id="rId5" Type="{R}/attachedTemplate" Target="file:///C:/Templates/invoice.dotm" '
            'TargetMode="External"/>')),
    ])


def xlsx() -> None:
    _write(HERE / "sheet.xlsx", [
        ("[Content_Types].xml", TYPES.format(overrides='')),
        ("_rels/.rels", RELS.format(f'<Relationship Id="rId1" Type="{R}/officeDocument" Target="xl/workbook.xml"/>')),
        ("xl/workbook.xml", '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>'),
        ("xl/worksheets/sheet1.xml", '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>'),
        ("xl/worksheets/_rels/sheet1.xml.rels", RELS.format(
            f'<Relationship Id="rId1" Type="{R}/hyperlink" Target="https://data.example.com/source.csv" '
            'TargetMode="External"/>'
            f'<Relationship Id="rId2" Type="{R}/hyperlink" Target="mailto:finance@example.com" '
            'TargetMode="External"/>')),
    ])


def odt() -> None:
    content = (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:xlink="http://www.w3.org/1999/xlink" '
        'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" office:version="1.3"><office:body>'
        '<office:text><text:p>Read <text:a xlink:type="simple" xlink:href="https://odf.example.org/spec">'
        'the spec</text:a> or <text:a xlink:type="simple" xlink:href="../notes/draft.odt">the draft</text:a>, '
        'section <text:a xlink:href="#Intro">one</text:a>.</text:p>'
        '<draw:frame><draw:image xlink:href="https://img.example.org/chart.png" xlink:type="simple"/></draw:frame>'
        '</office:text></office:body></office:document-content>')
    _write(HERE / "notes.odt", [
        ("mimetype", "application/vnd.oasis.opendocument.text"),
        ("content.xml", content),
        ("META-INF/manifest.xml", '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:'
                                  'manifest:1.0"/>'),
    ])


if __name__ == "__main__":
    docx()
    xlsx()
    odt()
