"""MkDocs hooks: the pages that must agree with the code are made from it at build time.

A page holds a marker, ``<!-- generated: NAME -->``, on a line of its own; ``on_page_markdown``
puts in its place what ``GENERATORS[NAME]`` renders:

- ``cli-options``: every option of the command, from ``urisift.cli.parser.parser()`` (the parser
  that ``--help``, ``--help-man`` and ``--completion`` are made from);
- ``record-keys``, ``defect-keys``: the record contract (``RECORD_KEYS``, ``EXTRA_KEYS``,
  ``DEFECT_KEYS``) with the types and descriptions of the JSON Schema the package ships;
- ``defect-kinds``: the members of ``DefectKind`` with the comments beside them in their source;
- ``plot-memory``, ``plot-speed``: figures drawn with matplotlib from ``docs/benchmarks.json``.

``on_files`` adds the figures and ``architecture.md``, the repository's ARCHITECTURE.md with its
links outside the site written as plain paths.  The rendering functions import neither mkdocs nor
matplotlib, so that the tests can call them without the docs extra.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent

MARKER = re.compile(r"^<!-- generated: ([\w-]+) -->$", re.M)


# --- the command ------------------------------------------------------------------------------

def _anchor(action: argparse.Action) -> str:
    return (max(action.option_strings, key=len) if action.option_strings else action.dest).lstrip("-")


def _groups_of(parser: argparse.ArgumentParser) -> list[tuple[str, list[argparse.Action]]]:
    """The parser's groups in --help's order, each with the options it shows (as the manual page has them)."""
    from urisift.cli.docs import option_groups

    return [(title or "", actions) for title, actions in option_groups(parser)]


def options(parser: argparse.ArgumentParser | None = None) -> list[argparse.Action]:
    """Every action the page describes (positional arguments included)."""
    if parser is None:
        from urisift.cli.parser import parser as build

        parser = build()
    return [a for _, actions in _groups_of(parser) for a in actions]


def render_cli(parser: argparse.ArgumentParser | None = None) -> str:
    """Every option of the command, group by group, as Markdown."""
    if parser is None:
        from urisift.cli.parser import parser as build

        parser = build()
    from urisift.cli.docs import option_value

    out = [f"```text\n{parser.format_usage().strip()}\n```", ""]
    for title, actions in _groups_of(parser):
        out += [f"## {title.capitalize()}", ""]
        for action in actions:
            value = option_value(action)
            if action.option_strings:
                forms = ", ".join(f"`{flag}{' ' + value if value else ''}`" for flag in action.option_strings)
            else:
                forms = f"`{action.metavar or action.dest}`"
            out.append(f"### {forms} {{ #{_anchor(action)} }}")
            out.append("")
            help_text = " ".join((action.help or "").split())
            out.append(help_text.replace("<", "&lt;"))
            if isinstance(action.choices, (list, tuple)) and action.option_strings:
                out += ["", "Values: " + ", ".join(f"`{c}`" for c in action.choices) + "."]
            shown = action.default not in (None, False, argparse.SUPPRESS, 0) and action.nargs != 0
            if shown and "default" not in help_text and action.dest != "jobs":
                out += ["", f"Default: `{action.default}`."]
            out.append("")
    out += ["## Examples", "", "The examples and notes that close `urisift --help`:", "",
            "```text", (parser.epilog or "").rstrip(), "```", ""]
    return "\n".join(out)


# --- the record contract ----------------------------------------------------------------------

def _schema() -> dict[str, Any]:
    from urisift.output import record_schema

    return record_schema()


def _type(prop: dict[str, Any], defs: dict[str, Any]) -> str:
    if "$ref" in prop:
        prop = {**defs[prop["$ref"].rsplit("/", 1)[1]], **{k: v for k, v in prop.items() if k != "$ref"}}
    if "enum" in prop:
        kinds = {"null" if v is None else type(v).__name__ for v in prop["enum"]}
        names = sorted((("string" if k == "str" else k) for k in kinds), key=lambda k: (k == "null", k))
        return " or ".join(names)
    types = prop.get("type", "any")
    types = [types] if isinstance(types, str) else list(types)
    if "array" in types:
        item = prop.get("items", {})
        inner = "objects" if item.get("type") == "object" else (
            "integers" if item.get("type") == "integer" else "strings")
        types = [f"list of {inner}" if t == "array" else t for t in types]
    return " or ".join(types)


def _values(prop: dict[str, Any]) -> str:
    enum = prop.get("enum") or prop.get("items", {}).get("enum")
    if not enum:
        return ""
    return "one of " + ", ".join(f"`{v}`" for v in enum if v is not None)


def _cell(*parts: str) -> str:
    text = ". ".join(part for part in parts if part)
    return " ".join(text.split()).replace("|", "\\|").replace("<", "&lt;")


def record_rows() -> list[tuple[str, str, str]]:
    """(key, type, description) for each key of a record line, in output order."""
    from urisift.output.records import EXTRA_KEYS, RECORD_KEYS

    schema = _schema()
    defs, props = schema["$defs"], schema["$defs"]["record"]["properties"]
    return [(key, _type(props[key], defs), _cell(props[key].get("description", ""), _values(props[key])))
            for key in (*RECORD_KEYS, *EXTRA_KEYS)]


def render_record_keys() -> str:
    lines = ["| key | type | what it holds |", "|---|---|---|"]
    lines += [f"| `{key}` | {kind} | {text} |" for key, kind, text in record_rows()]
    return "\n".join(lines) + "\n"


def render_defect_keys() -> str:
    from urisift.output.records import DEFECT_KEYS

    schema = _schema()
    defs, props = schema["$defs"], schema["$defs"]["defect"]["properties"]
    lines = ["| key | type | what it holds |", "|---|---|---|"]
    lines += [f"| `{key}` | {_type(props[key], defs)} | "
              f"{_cell(props[key].get('description', ''), _values(props[key]))} |" for key in DEFECT_KEYS]
    return "\n".join(lines) + "\n"


def defect_kinds() -> list[tuple[str, str]]:
    """(value, what it means) for each member of DefectKind, the meaning from its source's comments."""
    import inspect

    from urisift.model import DefectKind

    source = inspect.getsource(DefectKind)
    notes: dict[str, str] = {}
    pending: list[str] = []
    for line in source.splitlines():
        stripped = line.strip()
        if stripped.startswith("#"):
            pending.append(stripped.lstrip("# "))
            continue
        member = re.match(r"([A-Z_]+) = \"[^\"]+\"(?:\s*#\s*(.*))?$", stripped)
        if member:
            notes[member.group(1)] = " ".join([*pending, member.group(2) or ""]).strip()
        pending = []
    return [(kind.value, notes.get(kind.name, "")) for kind in DefectKind]


def render_defect_kinds() -> str:
    lines = ["| kind | what it means |", "|---|---|"]
    lines += [f"| `{value}` | {_cell(note)} |" for value, note in defect_kinds()]
    return "\n".join(lines) + "\n"


# --- figures ----------------------------------------------------------------------------------

def _bench() -> dict[str, Any]:
    return json.loads((DOCS / "benchmarks.json").read_text("utf-8"))


def plot_memory() -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    rows = _bench()["memory"]
    figure, axes = pyplot.subplots(figsize=(7, 4.2))
    for row in rows:
        axes.scatter(row["input_mb"], row["peak_mb"], s=40)
        axes.annotate(row["label"], (row["input_mb"], row["peak_mb"]), textcoords="offset points",
                      xytext=(row.get("dx", 6), row.get("dy", 4)), fontsize=8)
    right = max(r["input_mb"] for r in rows) * 1.25
    top = max(r["peak_mb"] for r in rows) * 1.1
    axes.plot([0, right], [0, right], linestyle=":", color="grey", linewidth=1, label="memory = input size")
    axes.set_xlabel("input (MB)")
    axes.set_ylabel("peak memory (MB)")
    axes.set_xlim(0, right)
    axes.set_ylim(0, top)
    axes.legend(loc="center right", fontsize=8)
    return _svg(figure, pyplot)


def plot_speed() -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    rows = _bench()["against"]
    figure, axes = pyplot.subplots(figsize=(7, 0.5 + 0.45 * len(rows)))
    labels = [r["label"] for r in rows]
    ratios = [r["ratio"] for r in rows]
    axes.barh(labels, ratios, color="#4a7ab8")
    axes.axvline(1, color="grey", linewidth=1)
    axes.set_xscale("log")
    axes.set_xlabel("times as fast as the alternative (log scale; below 1: slower)")
    axes.invert_yaxis()
    for y, ratio in enumerate(ratios):
        axes.annotate(f"{ratio:g}x", (ratio, y), textcoords="offset points", xytext=(4, -3), fontsize=8)
    return _svg(figure, pyplot)


def _svg(figure: Any, pyplot: Any) -> bytes:
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    pyplot.close(figure)
    return buffer.getvalue()


FIGURES = {"figures/memory.svg": plot_memory, "figures/speed.svg": plot_speed}

GENERATORS = {
    "cli-options": render_cli,
    "record-keys": render_record_keys,
    "defect-keys": render_defect_keys,
    "defect-kinds": render_defect_kinds,
}


def expand(markdown: str) -> str:
    """The page with each marker replaced by what it names."""
    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in GENERATORS:
            raise ValueError(f"no generator named {name!r} (markers: {', '.join(GENERATORS)})")
        return GENERATORS[name]().rstrip("\n")

    return MARKER.sub(one, markdown)


def architecture() -> str:
    """ARCHITECTURE.md as a page: a link into docs/ becomes the page's, any other relative link its path."""
    text = (ROOT / "ARCHITECTURE.md").read_text("utf-8")

    def link(match: re.Match[str]) -> str:
        label, target = match.group(1), match.group(2)
        if re.match(r"[a-z][a-z0-9+.-]*:|#", target):
            return match.group(0)
        if target.startswith("docs/"):
            return f"[{label}]({target.removeprefix('docs/')})"
        return f"{label} (`{target}` in the repository)"

    note = ("!!! note\n    This page is `ARCHITECTURE.md` from the repository's root, included when the "
            "site is built.\n\n")
    return note + re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", link, text)


# --- the hooks MkDocs calls -------------------------------------------------------------------

def on_config(config: Any) -> Any:
    # the package as installed (pip install -e '.[docs]'); the tree's src/ where it is not installed
    import importlib.util

    if importlib.util.find_spec("urisift") is None:
        sys.path.insert(0, str(ROOT / "src"))
    return config


def on_files(files: Any, config: Any) -> Any:
    from mkdocs.structure.files import File

    for path, draw in FIGURES.items():
        files.append(File.generated(config, path, content=draw()))
    files.append(File.generated(config, "architecture.md", content=architecture()))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    return expand(markdown)


#: a Sphinx role left in a rendered docstring (``:class:`Record```): mkdocstrings renders its name as code
ROLE = re.compile(r":(?:func|class|mod|meth|attr|data|exc|obj):<code>~?([\w.]+)</code>")


def roles(html: str) -> str:
    """The docstrings' roles without their markers; a name with an entry on the page links to it."""
    entries = set(re.findall(r'id="(urisift\.[\w.]+)"', html))

    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        short = name.removeprefix("urisift.")
        if f"urisift.{short}" in entries:
            return f'<a href="#urisift.{short}"><code>{short}</code></a>'
        return f"<code>{name}</code>"

    return ROLE.sub(one, html)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    return roles(html) if page.file.src_uri == "reference/api.md" else html
