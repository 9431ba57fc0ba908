"""JSON lines of chosen keys (``--fields``): each key's JSON text
straight from the record, without the whole object being built first, by
one function made for the keys a run writes; a key the scan was not asked
to compute is refused (:class:`~.computed.NotComputed`), never written as a
null that would read as "none"."""

from __future__ import annotations

from json.encoder import encode_basestring
from typing import Any

from ..model import Record
from .computed import NotComputed
from .lines import ORIGIN_KEYS as _ORIGIN_KEYS
from .lines import dumps as _dumps
from .lines import number as _number
from .lines import string as _string
from .lines import strings as _list
from .records import file_place


def _value(value: object) -> str:
    """A scalar as json.dumps writes it (str, int, bool or None)."""
    if value is None:
        return "null"
    if type(value) is str:
        return encode_basestring(value)
    if value is True or value is False:
        return "true" if value else "false"
    return str(value)


def _effective_part(name: str) -> Any:
    return lambda r, n: "null" if r.effective is None else _value(getattr(r.effective, name))


def _place_part(name: str) -> Any:
    return lambda r, n: _value(getattr(r.found.place, name))


def _origin_part(name: str) -> Any:
    return lambda r, n: _value(getattr(r.origin, name))


#: each key's JSON text, from the record (and its normalized target): what
#: ``json.dumps`` writes for that key of :meth:`Layout.row` (a test holds the
#: two to each other on every record of the corpora)
_FIELD_JSON: dict[str, Any] = {
    "uri": lambda r, n: encode_basestring(r.found.reference),
    "target": lambda r, n: _string(r.target),
    "alternatives": lambda r, n: _list(r.found.alternatives),
    "base": lambda r, n: "null" if r.base_layer is None else encode_basestring(r.base_layer.uri),
    "base_source": lambda r, n: "null" if r.base_layer is None else encode_basestring(r.base_layer.source.value),
    "style": lambda r, n: encode_basestring(r.found.style.value),
    "where": lambda r, n: encode_basestring(r.found.place.where.value),
    **{key: _place_part(key) for key in ("element", "attribute", "header", "text", "page", "member", "region")},
    **{key: _origin_part(key) for key in _ORIGIN_KEYS},
    "rel": lambda r, n: "null" if r.found.place.rel is None else _list(r.found.place.rel),
    "span": lambda r, n: "null" if r.span is None else f"[{r.span[0]}, {r.span[1]}]",
    "line": lambda r, n: _number(r.line),
    "column": lambda r, n: _number(r.column),
    "flags": lambda r, n: _list(tuple(f.value for f in r.found.flags)),
    "charset": lambda r, n: "null" if r.decoding is None else encode_basestring(r.decoding.name),
    "charset_source": lambda r, n: "null" if r.decoding is None else encode_basestring(r.decoding.source.value),
    "risks": lambda r, n: _dumps([x.to_json() for x in r.risks]) if r.risks else "[]",
    "points_to": lambda r, n: _string(r.points_to),
    # (a row has every key it is asked for: not computed is null here, as in CSV and Parquet)
    "browser_target": lambda r, n: "null" if r.browser_target is False else _string(r.browser_target),
    "unwrapped": lambda r, n: _string(r.unwrapped),
    "wrapper": lambda r, n: _list(r.wrapper),
    "effective_target": _effective_part("target"),
    "effective_hops": _effective_part("hops"),
    "effective_status": _effective_part("status"),
    "effective_loop": _effective_part("loop"),
    "context": lambda r, n: _string(r.context),
    "normalized": lambda r, n: _string(n),
    "file_line": lambda r, n: _number(file_place(r)[0]),
    "file_column": lambda r, n: _number(file_place(r)[1]),
}


def _asked(key: str, text: Any) -> Any:
    """``text`` for a key whose value reads False when it was not computed."""
    attribute = {"span": "span", "line": "line", "column": "column", "risks": "risks", "points_to": "points_to",
                 "unwrapped": "unwrapped", "wrapper": "wrapper"}.get(key)

    def checked(record: Record, normalized: str | None) -> str:
        value = getattr(record, attribute) if attribute is not None else getattr(record.found.place, key)
        if value is False:
            raise NotComputed(key)
        return text(record, normalized)  # type: ignore[no-any-return]

    return checked


for _key in ("span", "line", "column", "risks", "points_to", "unwrapped", "wrapper", "text", "region"):
    _FIELD_JSON[_key] = _asked(_key, _FIELD_JSON[_key])


def _nullable(expression: str) -> str:
    # lines.string written out: a compiled function called from this generated
    # (interpreted) code pays its argument parsing, five times a line
    return f'"null" if (_v := {expression}) is None else _enc(_v)'


#: the keys whose JSON text is one expression over the record ``r`` (a string or
#: None), written inline in a line maker (:func:`_line_maker`): the commonest
#: --fields keys, a function call less each
_INLINE: dict[str, str] = {
    "uri": "_enc(r.found.reference)",
    "target": _nullable("r.target"),
    "element": _nullable("r.found.place.element"),
    "attribute": _nullable("r.found.place.attribute"),
    "header": _nullable("r.found.place.header"),
    **{key: _nullable(f"r.origin.{key}") for key in ("file", "message_id", "warc_record_id", "warc_target_uri",
                                                       "warc_date")},
}


def _line_maker(fields: tuple[str, ...], write: Any = None) -> Any:
    """A function of (record, normalized) giving the JSON line of ``fields``
    (with ``write``: writing it, and its line break): made once a run, with
    each key's text inline where it is one expression (:data:`_INLINE`) and
    a call to :data:`_FIELD_JSON` otherwise.  The keys are the contract's
    (checked before), never text from the input."""
    parts = []
    namespace: dict[str, Any] = {"_enc": encode_basestring}
    for i, key in enumerate(fields):
        if key not in _FIELD_JSON:
            raise ValueError(f"no record key {key!r}")
        prefix = ("{{" if i == 0 else ", ") + encode_basestring(key).replace("{", "{{").replace("}", "}}") + ": "
        expression = _INLINE.get(key)
        if expression is None:
            namespace[f"_f{i}"] = _FIELD_JSON[key]
            expression = f"_f{i}(r, n)"
        parts.append(prefix + "{(" + expression + ")}")
    line = "f'" + "".join(parts) + "}}'" if parts else "'{}'"
    if write is not None:
        namespace["_write"] = write
        source = f"def line(r, n=None):\n    _write({line[:-1]}\\n{line[-1]})\n"
    else:
        source = f"def line(r, n=None):\n    return {line}\n"
    exec(compile(source, "<urisift fields>", "exec"), namespace)  # noqa: S102 - keys of the contract only
    return namespace["line"]


class FieldLines:
    """Writes records as JSON lines of the keys ``fields`` names, in that
    order (``--fields``): each key's JSON text straight from the record,
    without the whole object being built first, in one function made for
    these keys (:func:`_line_maker`)."""

    def __init__(self, fields: tuple[str, ...]) -> None:
        self._line = _line_maker(fields)

    @staticmethod
    def writer(fields: tuple[str, ...], write: Any) -> Any:
        """A function of (record, normalized) writing the line of ``fields`` with ``write``."""
        return _line_maker(fields, write)

    def __call__(self, record: Record, normalized: str | None = None) -> str:
        line: str = self._line(record, normalized)
        return line


__all__ = ["FieldLines"]
