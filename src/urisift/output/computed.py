"""What a record was not asked to compute (pay only for what is
asked: ARCHITECTURE.md, Pushdown): a field the scan left ``False`` is refused by every writer of it,
never written as a null or an empty list that would read as "none"."""

from __future__ import annotations

from collections.abc import Collection

from ..model import Record


class NotComputed(ValueError):
    """A key written that the scan was not asked to compute (ScanOptions.fields)."""

    def __init__(self, key: str) -> None:
        super().__init__(f"the record's {key!r} was not computed: ask for it (ScanOptions.fields, --fields)")


def not_computed(record: Record, keys: Collection[str] | None = None) -> str | None:
    """The first key of ``record`` (of ``keys``, when given) that was not computed, if any."""
    for key, value in (("risks", record.risks), ("span", record.span), ("line", record.line),
                       ("column", record.column), ("unwrapped", record.unwrapped), ("wrapper", record.wrapper),
                       ("points_to", record.points_to), ("text", record.found.place.text)):
        if value is False and (keys is None or key in keys):
            return key
    if keys is not None and "region" in keys and record.found.place.region is False:
        return "region"  # (a key added when asked: not one of every record's)
    return None


__all__ = ["NotComputed", "not_computed"]
