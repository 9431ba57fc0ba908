"""The JSON Schema shipped for the records (issue 12), checked against real
output of every kind of input, with the optional keys too."""

from __future__ import annotations

import io
import json

import pytest

from urisift.cli.command import main
from urisift.output import DEFECT_KEYS, RECORD_KEYS, record_schema

from .conftest import ROOT

jsonschema = pytest.importorskip("jsonschema")


def test_the_schema_names_every_key_in_contract_order() -> None:
    schema = record_schema()
    # browser_target is written only where it was computed (issue 25): the one key not required
    assert tuple(schema["$defs"]["record"]["required"]) == tuple(k for k in RECORD_KEYS if k != "browser_target")
    assert tuple(schema["$defs"]["record"]["properties"])[:len(RECORD_KEYS)] == RECORD_KEYS
    assert tuple(schema["$defs"]["defect"]["required"]) == DEFECT_KEYS
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("extra", [[], ["--context", "12", "--normalize", "syntax"]])
def test_real_output_of_every_kind_is_valid(extra: list[str]) -> None:
    out, err = io.StringIO(), io.StringIO()
    corpora = ROOT / "corpora"
    paths = [str(p) for kind in ("text", "html", "mail", "warc") for p in sorted((corpora / kind).iterdir())
             if not p.name.endswith((".jsonl", ".py"))]
    assert main(["--format", "jsonl", "--jobs", "1", *extra, *paths], stdout=out, stderr=err) == 0
    validator = jsonschema.Draft202012Validator(record_schema())
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    kinds = {("defect" if "defect" in line else line["where"]) for line in lines}
    assert kinds == {"text", "html", "header", "defect"}
    for line in lines:
        validator.validate(line)
    if extra:
        assert all("context" in line and "normalized" in line for line in lines if "defect" not in line)


def test_wikitext_a_dump_and_unknown_xml_give_valid_records() -> None:
    out, err = io.StringIO(), io.StringIO()
    paths = [str(ROOT / "corpora" / p) for p in ("wiki/article.wiki", "wiki/pages-articles.xml",
                                                 "xml/catalog-unknown-vocabulary.xml")]
    assert main(["--format", "jsonl", "--jobs", "1", *paths], stdout=out, stderr=err) == 0
    validator = jsonschema.Draft202012Validator(record_schema())
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert {line["where"] for line in lines} == {"wikitext", "xml"}
    assert {line["base_source"] for line in lines} == {"siteinfo", None}
    for line in lines:
        validator.validate(line)
