"""Jupyter notebooks: each cell read as its kind and named in ``part``, code
told apart, outputs as Jupyter shows them, a broken notebook a defect."""

from __future__ import annotations

import json
from pathlib import Path

from .conftest import run_cli as run

NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {},
         "source": ["# Title\n", "See [docs](docs/index.md) and ![plot](attachment:plot.png)\n"],
         "attachments": {"plot.png": {"image/png": "iVBORw0KGgo="}}},
        {"cell_type": "code", "execution_count": 1, "metadata": {},
         "source": "import requests\nrequests.get('https://api.example/v1')",
         "outputs": [
             {"output_type": "execute_result", "execution_count": 1, "metadata": {},
              "data": {"text/html": ["<a href=\"https://out.example/\">x</a>"], "text/plain": ["https://out.example/"]}},
             {"output_type": "stream", "name": "stdout", "text": ["fetched https://stream.example/\n"]},
             {"output_type": "error", "ename": "E", "evalue": "", "traceback": ["see https://trace.example/"]}]},
        {"cell_type": "raw", "metadata": {}, "source": "raw https://raw.example/"},
    ],
    "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
}


def test_each_cell_is_read_as_its_kind_and_named(tmp_path: Path) -> None:
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(NOTEBOOK))
    code, out, err = run(["--format", "jsonl", "--fields", "uri,part,flags,element,where,line,column", str(path)])
    assert (code, err) == (0, "")
    assert [tuple(json.loads(line).values()) for line in out.splitlines()] == [
        ("docs/index.md", "0", [], "a", "markdown", 2, 12),
        ("attachment:plot.png", "0", [], "img", "markdown", 2, 39),
        ("https://api.example/v1", "1", ["trimmed", "unbalanced", "code"], None, "text", 2, 15),
        ("https://out.example/", "1/out/0", [], "a", "html", 1, 10),
        ("https://stream.example/", "1/out/1", [], None, "text", 1, 9),
        ("https://trace.example/", "1/out/2", [], None, "text", 1, 5),
        ("https://raw.example/", "2", [], None, "text", 1, 5),
    ]
    assert run(["-H", str(path)])[1].splitlines()[2] == f"{path}:1/2:15:https://api.example/v1"


def test_code_cells_can_be_left_out(tmp_path: Path) -> None:
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(NOTEBOOK))
    assert "https://api.example/v1" not in run(["--no-code", str(path)])[1]
    assert run(["--no-code", str(path)])[1].count("\n") == 6


def test_a_notebook_of_nbformat_3_is_read(tmp_path: Path) -> None:
    path = tmp_path / "old.ipynb"
    path.write_text(json.dumps({"nbformat": 3, "worksheets": [{"cells": [
        {"cell_type": "markdown", "source": ["[a](a.md)"]},
        {"cell_type": "code", "input": "open('http://in.example/')", "outputs": [
            {"output_type": "pyout", "text": ["http://pyout.example/"]}]}]}]}))
    assert run([str(path)])[1] == "a.md\nhttp://in.example/\nhttp://pyout.example/\n"


def test_a_broken_notebook_is_a_defect_and_the_next_input_is_read(tmp_path: Path) -> None:
    bad = tmp_path / "bad.ipynb"
    bad.write_text('{"cells": 3')
    after = tmp_path / "z.txt"
    after.write_text("http://after.example/\n")
    code, out, err = run([str(bad), str(after)])
    assert (code, out) == (0, "http://after.example/\n")
    assert err == (f"urisift: {bad} at byte 11: broken-document: not a notebook: its JSON does not parse "
                   "(Expecting ',' delimiter: line 1 column 12 (char 11))\n")
