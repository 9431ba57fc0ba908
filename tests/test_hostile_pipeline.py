"""The guarantees before and around the readers: the kind sniffer, the
decompression of an input or a payload, and the budgets the pipeline
enforces whatever the reader.  Each class with the input, record or link
after it still found; each run as the command in a child process with a
timeout, since what it guards against is a hang."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

SRC = str(ROOT / "src")


def _run(args: list[str], stdin: bytes = b"", timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    """The command on ``args``, this tree's package; a hang fails the test at ``timeout``."""
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-m", "urisift", *args], input=stdin, capture_output=True, env=env,
                          timeout=timeout, check=False)


# -- the kind sniffer ----------------------------------------------------------------------

#: an RSS feed whose licence comment does not close within the sniffer's first 4 KiB
_FEED = (b'<?xml version="1.0"?>\n<!-- licence ' + b"x" * 5000 + b" -->\n"
         b"<rss><channel><link>http://feed.example/</link></channel></rss>\n")
#: a markup declaration first, then a comment that does not close within the first 4 KiB
_DECLARED = b"<!DOCTYPE x>\n<!-- " + b" " * 5000 + b"\n http://stdin.example/ -->\n"


@pytest.mark.parametrize("name", ["feed.rss", "feed"])
def test_sniffer_ends_on_a_comment_open_past_its_sample(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(_FEED)
    done = _run([str(path)], timeout=30)
    assert done.stdout.decode() == "http://feed.example/\n"
    assert done.returncode == 0


def test_sniffer_ends_on_standard_input_opening_with_a_declaration() -> None:
    done = _run([], stdin=_DECLARED, timeout=30)
    assert done.stdout.decode() == "http://stdin.example/\n"
    assert b"uncertain-kind" in done.stderr


def test_sniffer_ends_on_an_xml_declaration_on_standard_input() -> None:
    done = _run([], stdin=_FEED, timeout=30)
    # no name, and a root past the sample: read as text, its link still found
    assert done.stdout.decode() == "http://feed.example/\n"


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_directory_walk_reads_the_file_after_one_the_sniffer_cannot_place(tmp_path: Path, jobs: str) -> None:
    (tmp_path / "a.rss").write_bytes(_FEED)
    (tmp_path / "b").write_bytes(_DECLARED)
    (tmp_path / "c.txt").write_bytes(b"see http://later.example/ ok\n")
    done = _run(["-j", jobs, str(tmp_path)], timeout=30)
    assert done.stdout.decode().splitlines() == ["http://feed.example/", "http://stdin.example/",
                                                 "http://later.example/"]
