"""URLs in office documents' field codes and formulas.

- WordprocessingML fields (ECMA-376 Part 1 §17.16): a simple field's
  ``w:instr`` (§17.16.19), or a complex field's instruction text, which Word
  may split over many ``w:instrText`` runs between the ``w:fldChar`` marks
  ``begin`` and ``separate`` (or ``end``; §17.16.18), fields nesting inside
  fields.  ``HYPERLINK``, ``INCLUDEPICTURE`` and ``INCLUDETEXT`` name a URL
  (§17.16.5.25, .27, .28) as their first argument, quoted or not; a
  ``HYPERLINK`` with ``\\l`` names a bookmark of the document, not a URL.
- Spreadsheet formulas, OOXML's (§18.17.7.149) and ODF's ``of:=`` ones
  (OpenFormula §6.16.34): each ``HYPERLINK("literal"...)`` call's first
  argument, when it is a string literal (``""`` an escaped quote).
"""

from __future__ import annotations

import re
from typing import Any

from ...uri import patterns
from .vocabulary import WORDML

_FIELD = patterns.compile(r'^\s*(HYPERLINK|INCLUDEPICTURE|INCLUDETEXT)\b((?:\s+\\[A-Za-z*](?:\s+"[^"]*")?)*)'
                    r'\s+(?:"([^"]+)"|([^\s"\\]+))', re.IGNORECASE)
_FORMULA = patterns.compile(r'HYPERLINK\s*\(\s*"((?:[^"]|""){1,8192})"', re.IGNORECASE)
_W_TYPE = f"{{{WORDML}}}fldCharType"
_W_INSTR = f"{{{WORDML}}}instr"
#: instruction text kept for one field at most (a field code is a line or two)
_CODE_LIMIT = 1 << 14


def field_url(code: str) -> str | None:
    """The URL a field code names, or None (see the module doc)."""
    m = _FIELD.match(code)
    if m is None:
        return None
    switches = m.group(2)
    if m.group(1).upper() == "HYPERLINK" and re.search(r"\\l\b", switches or ""):
        return None
    return m.group(3) or m.group(4)


def formula_urls(formula: str) -> list[str]:
    """The string literals given to ``HYPERLINK`` as its URL in a formula."""
    if "HYPERLINK" not in formula.upper():
        return []
    return [m.group(1).replace('""', '"') for m in _FORMULA.finditer(formula)]


class FieldCodes:
    """The complex fields of one WordprocessingML part, as the walk meets
    their marks: a stack of the instruction texts being gathered (None:
    past its ``separate``, gathering no more)."""

    def __init__(self) -> None:
        self.open: list[list[str] | None] = []

    def mark(self, element: Any) -> str | None:
        """A ``w:fldChar``: the URL of the field whose instruction text its
        ``separate`` or ``end`` completes, else None."""
        mark = element.get(_W_TYPE)
        if mark == "begin":
            self.open.append([])
            return None
        if mark not in ("separate", "end") or not self.open:
            return None
        gathered = self.open.pop() if mark == "end" else self.open[-1]
        if mark == "separate":
            self.open[-1] = None
        return None if gathered is None else field_url("".join(gathered))

    def gather(self, text: str) -> None:
        """A ``w:instrText`` run's text, part of the innermost open field's code."""
        if self.open and self.open[-1] is not None and sum(map(len, self.open[-1])) < _CODE_LIMIT:
            self.open[-1].append(text)


def simple_field(element: Any) -> str | None:
    """The URL of a simple field (``w:fldSimple/@w:instr``)."""
    return field_url(element.get(_W_INSTR) or "")


__all__ = ["FieldCodes", "field_url", "formula_urls", "simple_field"]
