"""The records urisift emits (DESIGN §2, a contract): one per URI reference, and
one per defect found in the input.  Frozen dataclasses; ``to_json`` gives the
stable key order that the JSONL and CSV writers use.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any

from .risk import Risk


class Style(StrEnum):
    """How a reference was delimited or found."""

    ANGLE = "angle"  # <http://...>
    ANGLE_URL = "angle-url"  # <URL:...>
    QUOTE = "quote"  # "http://..."
    BARE = "bare"  # whitespace-delimited
    ABBREVIATED = "abbreviated"  # www.example.com, ftp.example.com (seed 002 Appendix F)
    ATTRIBUTE = "attribute"
    SRCSET = "srcset"
    META_REFRESH = "meta-refresh"
    CSS = "css"
    HEADER = "header"


class Where(StrEnum):
    TEXT = "text"
    HTML = "html"
    HEADER = "header"


class Flag(StrEnum):
    WRAPPED = "wrapped"  # whitespace inside the delimiters was removed
    HYPHEN_BREAK = "hyphen-break"  # a line break right after a hyphen (seed 001/002 Appendix E)
    TRIMMED = "trimmed"  # trailing punctuation left out
    UNBALANCED = "unbalanced"  # an unbalanced closing bracket left out
    QUOTE_MARKERS = "quote-markers"  # mail quote markers removed from continuation lines


class BaseSource(StrEnum):
    HTML_BASE = "html-base"
    CONTENT_BASE = "content-base"
    CONTENT_LOCATION = "content-location"
    RETRIEVAL = "retrieval"
    DEFAULT = "default"


class CharsetSource(StrEnum):
    BOM = "bom"
    DECLARED = "declared"
    META = "meta"
    DETECTED = "detected"
    DEFAULT = "default"


#: JSON keys of a :class:`Record`, in output order (DESIGN §2; never renamed).
RECORD_KEYS = (
    "uri", "target", "alternatives", "base", "base_source", "style", "where", "element", "attribute",
    "header", "file", "message", "message_id", "part", "span", "line", "column", "flags", "charset",
    "charset_source", "risks",
)


@dataclass(frozen=True, slots=True)
class Record:
    """One URI reference found in the input."""

    uri: str
    target: str | None
    style: Style
    span: tuple[int, int]
    line: int
    column: int
    alternatives: tuple[str, ...] = ()
    flags: tuple[Flag, ...] = ()
    base: str | None = None
    base_source: BaseSource | None = None
    where: Where = Where.TEXT
    element: str | None = None
    attribute: str | None = None
    header: str | None = None
    file: str | None = None
    message: int | None = None
    message_id: str | None = None
    part: str | None = None
    charset: str | None = None
    charset_source: CharsetSource | None = None
    risks: tuple[Risk, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key in RECORD_KEYS:
            value = getattr(self, key)
            if isinstance(value, Enum):
                value = value.value
            elif key == "flags":
                value = [f.value for f in value]
            elif key in ("alternatives", "span"):
                value = list(value)
            elif key == "risks":
                value = [r.to_json() for r in value]
            out[key] = value
        return out


@dataclass(frozen=True, slots=True)
class Defect:
    """Something wrong with the input that did not stop the scan: a byte
    sequence that is not in the charset, a broken MIME part, ...

    ``position`` is a byte offset into the file (or part) when the defect is
    about bytes, a code-point offset into the decoded text otherwise, as
    ``unit`` says.
    """

    kind: str
    detail: str
    file: str | None = None
    position: int | None = None
    unit: str = "byte"
    message: int | None = None
    part: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "defect": self.kind,
            "detail": self.detail,
            "file": self.file,
            "position": self.position,
            "unit": self.unit,
            "message": self.message,
            "part": self.part,
        }

    def __str__(self) -> str:
        where = self.file or "<input>"
        if self.message is not None:
            where += f" message {self.message}"
        if self.part is not None:
            where += f" part {self.part}"
        if self.position is not None:
            where += f" at {self.unit} {self.position}"
        return f"{where}: {self.kind}: {self.detail}"


def dumps(item: Record | Defect) -> str:
    """One JSON line."""
    return json.dumps(item.to_json(), ensure_ascii=False)
