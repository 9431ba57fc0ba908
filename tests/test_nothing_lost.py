"""No data lost, and nothing said badly: an output that is also an input, a
missing extra, references with no text, and the command's uneven answers.
Each test failed on the code before its fix."""

from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

from urisift.cli.command import main
from urisift.cli.parser import parser

ROOT = Path(__file__).resolve().parents[1]
PDF = ROOT / "corpora" / "pdf" / "links-and-base.pdf"


def run(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def command(*argv: str, cwd: Path, blocked: str | None = None, stdout: object = subprocess.PIPE,
            entry: str = "urisift.cli.command") -> subprocess.CompletedProcess[str]:
    """The command in a process of its own; ``blocked``: a module it cannot import (an extra not installed)."""
    block = f"sys.modules[{blocked!r}] = None; " if blocked else ""
    code = f"import sys; {block}from {entry} import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *argv], cwd=cwd, stdout=stdout, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, text=True, timeout=120, start_new_session=True)


# -- an output that is also an input ---------------------------------------------------------------

def test_an_output_named_as_an_input_is_refused_before_it_is_opened(tmp_path: Path) -> None:
    notes = tmp_path / "t.txt"
    notes.write_text("see http://a.example/x\n")
    assert run(["-o", str(notes), str(notes)]) == (2, "", f"urisift: input file {str(notes)!r} is also the output\n")
    assert notes.read_text() == "see http://a.example/x\n"


def test_an_output_in_a_walked_directory_is_refused_before_it_is_emptied(tmp_path: Path) -> None:
    # (issue 52: it was emptied, then skipped, exit 0; a file named as both is a usage error too)
    (tmp_path / "a.txt").write_text("see http://a.example/x\n")
    (tmp_path / "z-links.txt").write_text("http://old.example/\n")
    done = command("-o", "z-links.txt", ".", cwd=tmp_path)
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "", "urisift: 'z-links.txt' is also an input: the walk meets it as './z-links.txt' (write the output "
               "elsewhere, or leave it out with --exclude)\n")
    assert (tmp_path / "z-links.txt").read_text() == "http://old.example/\n"
    done = command("-o", "z-links.txt", "--exclude=z-links.txt", ".", cwd=tmp_path)
    assert done.returncode == 0 and (tmp_path / "z-links.txt").read_text() == "http://a.example/x\n"


def test_standard_output_into_a_walked_directory_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("see http://a.example/x\n")
    with open(tmp_path / "out.txt", "w") as out:
        done = command(".", cwd=tmp_path, stdout=out)
    assert (done.returncode, done.stderr) == (0, "urisift: ./out.txt: input file is also the output; skipped\n")
    assert (tmp_path / "out.txt").read_text() == "http://a.example/x\n"


def test_an_output_that_cannot_be_opened_is_named(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("see http://a.example/x\n")
    missing = tmp_path / "no" / "x"
    assert run(["-o", str(missing), str(tmp_path / "a.txt")]) == (
        1, "", f"urisift: cannot write {missing}: No such file or directory\n")


# -- a missing extra ---------------------------------------------------------------------------------

@pytest.mark.parametrize("defects", ["lines", "count", "none"])
def test_a_pdf_without_its_extra_is_said_and_fails_the_run(tmp_path: Path, defects: str) -> None:
    (tmp_path / "a.txt").write_text("see http://a.example/x\n")
    done = command("--defects", defects, str(PDF), "a.txt", cwd=tmp_path, blocked="pypdf")
    assert (done.returncode, done.stdout, done.stderr) == (
        2, "http://a.example/x\n",
        f"urisift: {PDF}: missing-extra: reading PDF needs pypdf: pip install 'urisift[pdf]'\n")


def test_the_spark_job_without_pyspark_is_a_usage_error(tmp_path: Path) -> None:
    done = command("--output", str(tmp_path / "out"), str(PDF), cwd=tmp_path, blocked="pyspark",
                   entry="urisift.spark.driver")
    assert (done.returncode, done.stderr) == (
        2, "urisift-spark needs pyspark: pip install 'urisift[spark]' (and Java 17)\n")


# -- references with no text -----------------------------------------------------------------------

PAGE = b'<a href="">here</a> <a href="x.html">x</a> <img src="">'


def test_text_output_leaves_out_a_reference_with_no_text_and_counts_it(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(PAGE)
    code, out, err = run(["--stats", str(page)])
    assert (code, out) == (0, "x.html\n")
    assert "; 3 records (2 with no text to print left out of text output); 0 defects;" in err.splitlines()[0]
    assert run(["-0", str(page)])[1] == "x.html\0"
    assert run(["--resolve", "both", str(page)])[1] == "x.html\t\n"  # (a browser resolves nothing without a base)
    # with a base, the empty reference is the base itself (RFC 3986 §5.2.2), and printed
    assert run(["--base", "http://h.example/d/p.html", str(page)])[1] == (
        "http://h.example/d/p.html\nhttp://h.example/d/x.html\nhttp://h.example/d/p.html\n")


def test_json_lines_and_csv_keep_a_reference_with_no_text(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(PAGE)
    assert run(["--format", "jsonl", "--fields", "uri,target", str(page)])[1] == (
        '{"uri": "", "target": null}\n{"uri": "x.html", "target": null}\n{"uri": "", "target": null}\n')
    # the empty string quoted, null an empty cell: csv.QUOTE_NOTNULL reads them back apart (Python 3.13)
    table = run(["--format", "csv", "--fields", "uri,target", str(page)])[1]
    assert table == 'uri,target\r\n"",\r\nx.html,\r\n"",\r\n'
    if sys.version_info >= (3, 13):
        rows = list(csv.reader(io.StringIO(table, newline=""), quoting=csv.QUOTE_NOTNULL))  # type: ignore[attr-defined]
        assert rows[1:] == [["", None], ["x.html", None], ["", None]]


# -- said badly --------------------------------------------------------------------------------------

def test_pick_without_a_terminal_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("see http://a.example/x\n")
    done = command("--pick", "a.txt", cwd=tmp_path)  # a new session: no controlling terminal (cron, ssh -T)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith("urisift: --pick needs a terminal, and this run has none (/dev/tty: ")
    assert done.stderr.count("\n") == 1


def test_options_that_applied_to_nothing_read_get_a_note(tmp_path: Path) -> None:
    notes = tmp_path / "a.txt"
    notes.write_text("see http://a.example/x\n")
    page = tmp_path / "p.html"
    page.write_bytes(PAGE)
    other = tmp_path / "b.txt"
    other.write_text("http://b.example/\n")
    for jobs in ("1", "2"):
        code, out, err = run(["-j", jobs, "--comments", "--region", "main", "--effective",
                              "--content-location-base", str(notes), str(other)])
        assert (code, err) == (0, "urisift: note: --comments applies to HTML content, and none was read\n"
                                  "urisift: note: --region applies to HTML content, and none was read\n"
                                  "urisift: note: --effective applies to WARC or ARC content, and none was read\n"
                                  "urisift: note: --content-location-base applies to WARC or ARC content, and "
                                  "none was read\n")
    assert run(["--comments", str(page), str(notes)])[2] == ""
    assert run(["--pick-schemes", "http", str(notes)]) == (
        0, "http://a.example/x\n", "urisift: note: --pick-schemes chooses what --pick opens, and this run does "
                                   "not --pick\n")


def test_an_input_that_is_no_crawl_read_as_one_fails(tmp_path: Path) -> None:
    empty = tmp_path / "empty.warc"
    empty.write_bytes(b"")
    notes = tmp_path / "a.txt"
    notes.write_text("see http://a.example/x\n")
    assert run(["audit", str(empty)])[::2] == (
        1, f"urisift: {empty}: cannot read: not a WARC or ARC file: it is empty\n")
    assert run(["--kind", "warc", str(notes)]) == (
        1, "", f"urisift: {notes}: cannot read: not a WARC or ARC file: it begins 'see http://a.example/x?'\n")


def test_the_audits_usage_errors_are_the_commands_one_line() -> None:
    assert run(["audit"]) == (2, "", "urisift audit: the following arguments are required: WARC "
                                     "(see urisift audit --help)\n")
    assert run(["audit", "--jobs", "x", "a.warc"])[::2] == (
        2, "urisift audit: argument --jobs/-j: invalid int value: 'x' (see urisift audit --help)\n")


def test_help_says_what_the_options_do() -> None:
    text = " ".join(parser().format_help().split())
    assert "invalid (not RFC 3986 syntax), RFC 3986 §7's, differs (a browser fetches another URL)" in text
    assert "ranges of a large mbox, WARC or text file, in parallel" in text
    assert "text output prints the normalized target" in text


def test_stats_count_only_the_units_a_run_has(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_bytes(b'<a href="http://a.example/">a</a>')
    first = run(["--stats", str(page)])[2].splitlines()[0]
    assert first.startswith("urisift: 1 input, 0.0 MB; 1 record; 0 defects; ")


def test_a_file_name_with_a_line_break_stays_on_its_line(tmp_path: Path) -> None:
    odd = tmp_path / "new\nline.txt"
    odd.write_text("see http://n.example/\n")
    assert run(["-H", str(odd)])[1] == str(odd).replace("\n", "\\x0a") + ":1:5:http://n.example/\n"


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_progress_bar_counts_the_megabytes_stats_count() -> None:
    from urisift.cli.command import _progress

    screen = _Terminal()
    bar = _progress(lambda: 64_000_000, screen, quiet=False)
    bar.update(32_000_000)
    bar.refresh()
    bar.close()
    assert "32.0M/64.0M" in screen.getvalue()  # MB of 10^6, as --stats says (not 30.5M/61.0M: MiB)
