"""The README's examples are true, and its quickstart matches .ci/run."""

from __future__ import annotations

import doctest
import re

from .conftest import ROOT


def test_readme_examples_run() -> None:
    text = (ROOT / "README.md").read_text("utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for i, block in enumerate(blocks):
        runner.run(parser.get_doctest(block, {}, f"README block {i}", "README.md", 0))
    assert runner.failures == 0 and runner.tries > 0


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    ci = (ROOT / ".ci" / "run").read_text("utf-8")
    quickstart = re.search(r"## Quickstart.*?```sh\n(.*?)```", readme, re.S)
    assert quickstart is not None
    main_job, tests = quickstart.group(1).strip().splitlines()
    assert "urisift" in main_job and "corpora/" in main_job
    assert tests in ci.splitlines()



def test_the_readme_is_a_front_door() -> None:
    # the reference lives in docs/ (tests/test_docs.py checks it); the README stays short
    assert len((ROOT / "README.md").read_text("utf-8").splitlines()) <= 250
