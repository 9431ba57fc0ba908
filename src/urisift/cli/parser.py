"""The ``urisift`` command line's grammar: its options, their checks and its
help (a contract: ARCHITECTURE.md, The record contract).  The parser is the one source of ``--help``, the man page
and the shell completions (:mod:`urisift.cli.docs`)."""

from __future__ import annotations

import argparse
import os
import re

from .. import __version__
from ..model import Kind
from ..output.choice import RESOLUTIONS
from ..output.writers import FIELDS
from ..stages.containment import DOCUMENT_INFLATED, DOCUMENT_SECONDS
from ..stages.publishing import MODES as PUBLISHED
from .usage import OneLineParser

EXAMPLES = """\
examples:
  urisift notes.txt                          every URI in a text file, one target a line
  urisift --base https://example.org/a/ page.html   resolve a saved page's links against where it came from
  urisift --format jsonl archive.mbox        one JSON record a link, with message, part, base and position
  urisift --format csv --fields uri,target,file,file_line mail/   chosen columns of a Maildir's links
  urisift ~/archive/ --jobs 4 --stats        a directory of mbox, Maildir, HTML, WARC and notes, 4 processes
  urisift --format parquet -o links.parquet crawl.warc.gz    a crawl's links for an indexer
  urisift --format edges crawl.warc.gz | sort -u             a link graph: page<TAB>target
  urisift --scheme http,https --unique --normalize syntax notes/   distinct web links
  urisift --region main --format edges crawl.warc.gz         a link graph of the pages' own content only
  urisift --kind mbox --charset latin-1 < old.mbox           standard input, its kind and charset given
  tail -f app.log | urisift --with-location  links as log lines arrive, with file:line:column
  urisift -0 docs/ | xargs -0 -n1 curl -sI  NUL-terminated URLs, for xargs -0
  urisift --context 30 --format jsonl a.txt  each record with 30 characters around it
  urisift --defects count big.mbox           one line of defect counts at the end, not a line each

what it reads (--kind auto tells each input's kind): plain text, HTML and XHTML, mail (a message,
mbox, Maildir, MHTML), web archives (WARC, ARC), style sheets (CSS), the XML family (Atom, RSS,
sitemaps, OPML, SVG), robots.txt, PDF (pip install 'urisift[pdf]'), office files (OOXML .docx .xlsx
.pptx, ODF .odt .ods .odp), Markdown and notebooks, wikitext and MediaWiki dumps, XML of any other
vocabulary; gzip, bzip2 and xz around any of them; s3://, gs://, az://, hdfs:// and http(s):// inputs.

more commands:
  urisift audit WARC...                      what a crawl missed: each page's outlinks captured or not
                                             (urisift audit --help)
  urisift-spark ...                          the same scan as a Spark job (pip install 'urisift[spark]';
                                             urisift-spark --help)
  urisift --help-man, --completion SHELL     the manual page (man -l -), bash or zsh completion

exit status: 0 the run completed (defects in the input are reported, not errors); 1 an input could not
be read or the output not written; 2 the command line is wrong; 130 interrupted (Ctrl-C).
"""



_Parser = OneLineParser


class _NameFilter(argparse.Action):
    """--include and --exclude, kept in the order given: with GNU grep's rule, the
    last filter that matches a name decides (pipeline/walking.py, ``wanted``)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        filters = list(getattr(namespace, self.dest, None) or [])
        filters.append(("include" if option_string == "--include" else "exclude", str(values)))
        setattr(namespace, self.dest, filters)



def build() -> str:
    """Which build this is (setup.py): its hot modules compiled by mypyc and the
    guard's first pass in C, either, or pure Python."""
    import importlib.util
    from importlib.machinery import EXTENSION_SUFFIXES
    from pathlib import Path

    spec = importlib.util.find_spec("urisift.stages.found_to_record")
    origin = spec.origin if spec is not None else None
    # the kernel's file, looked for in the package's readers/html/ rather than found by
    # importlib, which would import urisift.readers.html (lexbor, ada-url) in every run
    html = Path(__file__).parent.parent / "readers" / "html"
    compiled = [name for name, there in (
        ("mypyc", origin is not None and not origin.endswith(".py")),
        ("C", any((html / f"shallow_kernel{suffix}").is_file() for suffix in EXTENSION_SUFFIXES))) if there]
    return f"compiled with {' and '.join(compiled)}" if compiled else "pure Python"

def parser() -> argparse.ArgumentParser:
    """The command's options (ARCHITECTURE.md, The record contract), in the groups --help shows."""
    p = _Parser(prog="urisift", formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXAMPLES,
                description="Find URI references in text, mail (messages, mbox, Maildir, MHTML), HTML, web "
                            "archives (WARC, ARC), style sheets, feeds and sitemaps, PDF and office files, and "
                            "documentation markup (Markdown and notebooks, reStructuredText, AsciiDoc, Org, LaTeX "
                            "and BibTeX, wikitext), and resolve each against the base that applies to it "
                            "(RFC 3986).")
    p.add_argument("paths", nargs="*", metavar="PATH",
                   help="files or directories (.gz, .bz2, .xz read transparently); none or '-': standard input")
    out = p.add_argument_group("output")
    out.add_argument("--format", choices=("text", "jsonl", "csv", "parquet", "edges", "graphml", "gexf"),
                     default="text",
                     help="text (default): one target a line (the reference when it has none); jsonl: one JSON "
                          "record a line, defects too; csv: the same keys, RFC 4180; parquet: the same columns, a "
                          "fixed Arrow schema, zstd (needs --output, pyarrow); edges: 'source<TAB>target'; "
                          "graphml, gexf: the link graph with each edge's count, for Gephi and networkx")
    out.add_argument("--graph", choices=("pages", "hosts"), default=None,
                     help="graphml/gexf: an edge from page to target (default), or from host to host")
    out.add_argument("--output", "-o", metavar="FILE",
                     help="write to FILE, not standard output ('-': standard output; parquet: a file, required)")
    out.add_argument("--fields", metavar="LIST", type=_fields,
                     help="jsonl/csv/parquet: only these keys, in this order (e.g. uri,target,file,line)")
    where = out.add_mutually_exclusive_group()
    where.add_argument("--with-location", "-H", dest="location", action="store_true", default=None,
                       help="text: 'file:line:column:' before each target (the default on a terminal with several "
                            "inputs or a directory, as grep does; never by default into a pipe or file, nor with -0)")
    where.add_argument("--no-location", "-n", dest="location", action="store_false", help="text: never the location")
    out.add_argument("--null", "-0", action="store_true",
                     help="text: end each line with NUL, not a line break (the URLs alone unless -H: for xargs -0)")
    out.add_argument("--context", type=_count, default=0, metavar="N",
                     help="add a 'context' key: N characters either side of the reference (jsonl/csv/parquet)")
    out.add_argument("--normalize", choices=("none", "syntax", "scheme"), default="none",
                     help="add a 'normalized' key: the target normalized at this level (RFC 3986 §6.2); text "
                          "output prints the normalized target")
    out.add_argument("--unique", action="store_true",
                     help="only the first record per normalized target (level: --normalize, else syntax)")
    out.add_argument("--scheme", metavar="LIST", type=_scheme_list,
                     help="only targets with these schemes, comma-separated (http,https,mailto)")
    out.add_argument("--region", metavar="LIST", type=_region_list,
                     help="HTML: only links in these regions of the page: main (its own content), nav, header, "
                          "footer, aside, comments, other; records then carry the 'region' key (the other inputs' "
                          "records have none, and are left out)")
    out.add_argument("--flags", action="store_true",
                     help="text: the risk flags after a tab: invalid (not RFC 3986 syntax), RFC 3986 §7's, "
                          "differs (a browser fetches another URL)")
    out.add_argument("--unwrap", action="store_true",
                     help="text output, --scheme, --normalize, --unique and edges use the URL behind a link-protection "
                          "service's, a redirector's or a web archive's wrapping (Safe Links, Proofpoint, Barracuda, "
                          "Google, Wayback ...), where it can be recovered; the records' 'unwrapped' key has it always")
    out.add_argument("--effective", action="store_true",
                     help="WARC: follow each target through the crawl's captured 3xx Location, meta refresh and "
                          "rel=canonical to where it ends (the effective_* keys; a first pass reads the captures); "
                          "text output, --unique and edges use it")
    out.add_argument("--resolve", choices=RESOLUTIONS, default="rfc",
                     help="which URL text output prints and --scheme/--normalize/--unique/edges use: rfc (default, "
                          "RFC 3986 resolution), browser (what the WHATWG URL parser gives: what a browser fetches), "
                          "both (text: the two, tab-separated); browser or both also computes browser_target for "
                          "text and mail (HTML and WARC records always carry it)")
    read = p.add_argument_group("reading")
    read.add_argument("--from-list", metavar="FILE",
                      help="read the inputs named in FILE too, one path or URL a line (gzip or not, local or remote, "
                           "or - for standard input, as tar -T - reads it: "
                           "Common Crawl's warc.paths.gz with each line prefixed by s3://commoncrawl/)")
    read.add_argument("--base", metavar="URI",
                      help="the retrieval URI of the inputs (RFC 3986 §5.1.3): an absolute URI (one that cannot "
                           "serve as a base is a usage error)")
    read.add_argument("--published-as", choices=PUBLISHED, metavar="{" + ",".join(PUBLISHED) + "}",
                      help="a documentation tree as its generator publishes it: each Markdown, rST, AsciiDoc or "
                           "notebook source, and each relative link to one, named as its page: html (x.md is "
                           "x.html: mdBook, Sphinx, Jekyll), dir (x/: MkDocs), bare (x: Docusaurus)")
    read.add_argument("--kind", choices=[k.value for k in Kind], default="auto", metavar="KIND",
                      help="what the inputs hold; auto (default): unmistakable content, then the file name, then "
                           "weaker signs; the kinds: " + ", ".join(k.value for k in Kind if k is not Kind.AUTO))
    read.add_argument("--charset", metavar="LABEL",
                      help="the inputs' charset, as a container would declare it (a byte-order mark still wins)")
    read.add_argument("--no-abbreviated", action="store_true", help="leave www./ftp. forms out")
    read.add_argument("--comments", action="store_true", help="HTML: scan the text of comments too")
    read.add_argument("--refang", action="store_true",
                      help="read defanged indicators back (hxxps://evil[.]example, 198.51.100[.]23, "
                           "abuse(at)example[.]org): uri as written, target the URI refanged, flag 'defanged'; "
                           "bare defanged hosts and addresses are found too")
    read.add_argument("--wikilinks", action="store_true",
                      help="Markdown: read wikilinks ([[Page]], [[Page#Heading|label]], ![[diagram.png]]) as "
                           "relative references to the page, spaces percent-encoded, flag 'wikilink' (never in code)")
    read.add_argument("--qr", action="store_true",
                      help="read images for the codes drawn in them (QR, Micro QR, rMQR, Aztec, DataMatrix, PDF417): "
                           "image files (a walk reads them instead of passing over them), mail attachments and "
                           "inline images, archive members, data: images, a PDF's page images, and codes drawn with "
                           "block characters in text or as an HTML table; needs the qr extra (pip install "
                           "'urisift[qr]')")
    read.add_argument("--no-code", dest="code", action="store_false",
                      help="leave out the URLs in code: HTML's <code>, <pre>, <kbd> and <samp>, Markdown's code "
                           "spans and blocks, notebooks' code cells, the code of reStructuredText, AsciiDoc, Org, "
                           "LaTeX and wikitext (found by default, with the 'code' flag)")
    read.add_argument("--content-location-base", action="store_true",
                      help="WARC: an HTTP response's Content-Location is the base of its body (RFC 2616 §14.14 "
                           "said so; RFC 7231 §3.1.4.2 took it back, so it is off by default)")
    read.add_argument("--include", dest="names", action=_NameFilter, metavar="GLOB",
                      help="read only the files whose name matches GLOB (as GNU grep's --include: with --exclude, "
                           "the last that matches decides); repeat it for more")
    read.add_argument("--exclude", dest="names", action=_NameFilter, metavar="GLOB",
                      help="skip the files whose name (or a trailing part of their path) matches GLOB, named or "
                           "met in a walk")
    read.add_argument("--exclude-dir", action="append", metavar="GLOB",
                      help="do not walk the directories whose name matches GLOB (e.g. --exclude-dir=node_modules)")
    read.add_argument("--hidden", action="store_true", help="walk hidden files and directories (.git, .venv) too")
    read.add_argument("--follow", "-L", action="store_true",
                      help="walk symbolic links to directories too (each directory once: no loops); without it they "
                           "are skipped, and said so on standard error")
    read.add_argument("--timeout", type=_seconds, default=30.0, metavar="SECONDS",
                      help="remote inputs: the most to wait to connect, for an answer, and (HTTP) for each stretch "
                           "of a body that brings less than 1 KB (default 30); then a retry, then an unreadable defect")
    read.add_argument("--time-budget", type=_seconds, default=DOCUMENT_SECONDS, metavar="SECONDS",
                      help="the most time one document may take (a page, a feed, a PDF, an office file, a part or "
                           f"a record's payload; default {DOCUMENT_SECONDS:g}): past it, a bomb defect says what "
                           "was left unread, and the next document is read")
    read.add_argument("--inflate-budget", type=_size, default=DOCUMENT_INFLATED, metavar="SIZE",
                      help="the most bytes one document may inflate out of compressed bytes (a .gz, .bz2 or .xz "
                           "input, a WARC payload's content coding, an office file's members, a PDF's streams; "
                           f"default {DOCUMENT_INFLATED >> 20}M; K, M, G suffixes): past it, a bomb defect names "
                           "what was not read")
    read.add_argument("--strict", action="store_true", help="stop at the first defect in the input (exit 1)")
    run_ = p.add_argument_group("running")
    run_.add_argument("--jobs", "-j", type=_jobs, default=os.cpu_count() or 1, metavar="N",
                      help="worker processes (default: the cores); files, and ranges of a large mbox, WARC or text "
                           "file, in parallel; "
                           "the output is --jobs 1's, in the same order")
    run_.add_argument("--stats", action="store_true",
                      help="counts at the end on standard error (inputs, messages, parts, records by style and base, "
                           "defects, time, MB/s); JSON with --format jsonl")
    run_.add_argument("--pick", action="store_true",
                      help="a terminal list of the links of one message or page: Enter opens one with $BROWSER, y "
                           "copies it, / searches (pip install 'urisift[pick]')")
    run_.add_argument("--pick-schemes", metavar="LIST", type=_scheme_list, default=None,
                      help="--pick: the schemes Enter opens (default http,https,mailto)")
    run_.add_argument("--defects", choices=("lines", "count", "none"), default="lines",
                      help="defects in the inputs on standard error: a line each (default), their counts in one "
                           "line at the end, or none (an input that cannot be read is always said; JSON lines "
                           "keep their defect lines)")
    run_.add_argument("--quiet", "-q", action="store_true", help="no progress bar, no note on reading a terminal")
    run_.add_argument("--version", "-V", action="version", version=f"urisift {__version__} ({build()})")
    run_.add_argument("--help-man", action="store_true", help="write the manual page (roff) and exit: man -l -")
    run_.add_argument("--completion", choices=("bash", "zsh"), metavar="SHELL",
                      help="write the completion script of SHELL (bash or zsh) and exit")
    return p


#: the options that apply to some formats only, and those formats
_FORMATS_OF = (
    ("fields", "--fields", ("jsonl", "csv", "parquet"), "chooses the keys of jsonl, csv and parquet records"),
    ("context", "--context", ("jsonl", "csv", "parquet"), "adds a key to jsonl, csv and parquet records"),
    ("graph", "--graph", ("graphml", "gexf"), "chooses the graph of graphml and gexf"),
    ("location", "--with-location", ("text",), "writes text output's file:line:column"),
    ("null", "--null", ("text",), "ends text output's lines"),
    ("flags", "--flags", ("text",), "adds the risks to text output (records have a risks key)"),
)


def inapplicable(args: argparse.Namespace) -> str | None:
    """The usage error of an option that asks for what the format cannot
    give (``--fields`` with text output, ``--graph hosts`` with edges,
    ``-H`` with JSON lines ...); None when every option given applies."""
    for name, option, formats, what in _FORMATS_OF:
        # (what asks for nothing the format lacks is no error: -n, --graph pages)
        value = getattr(args, name)
        if value not in (None, False, 0, "pages") and args.format not in formats and not (
                name == "context" and args.pick):
            return (f"{option} does not apply to --format {args.format}: it {what} "
                    f"(--format {' or '.join(formats)})")
    if args.output == "-" and args.format == "parquet":
        return "--format parquet writes a file, not standard output: give it with --output FILE"
    return None


def unknown_schemes(schemes: frozenset[str] | None, option: str) -> list[str]:
    """A note for each scheme of ``--scheme`` or ``--pick-schemes`` that is
    not registered (IANA's permanent, provisional and historical lists), with
    the registered one it may have meant; an unregistered scheme may still
    stand in the inputs (``git+ssh``), so it is a note, not an error."""
    if not schemes:
        return []
    from difflib import get_close_matches

    from ..uri.schemes import registered_schemes

    known = registered_schemes()
    notes = []
    for scheme in sorted(schemes - known):
        near = get_close_matches(scheme, sorted(known), n=1, cutoff=0.75)
        hint = f" (did you mean {near[0]}?)" if near else ""
        notes.append(f"urisift: note: {option} {scheme}: not a registered URI scheme{hint}; kept as given")
    return notes


def _jobs(value: str) -> int:
    jobs = int(value) if value.isdigit() else 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"expected a number of processes, 1 or more: {value!r}")
    return jobs


def _size(value: str) -> int:
    """A number of bytes, with an optional K, M or G (binary multiples)."""
    text = value.strip().upper().removesuffix("B")
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
    digits = text[:-1] if scale > 1 else text
    if not digits.isdigit() or int(digits) <= 0:
        raise argparse.ArgumentTypeError(f"expected a number of bytes above 0 (K, M, G suffixes): {value!r}")
    return int(digits) * scale


def _seconds(value: str) -> float:
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a number of seconds above 0: {value!r}")
    return seconds


def _count(value: str) -> int:
    if not value.isdigit():
        raise argparse.ArgumentTypeError(f"expected a number of characters: {value!r}")
    return int(value)


def _fields(value: str) -> tuple[str, ...]:
    fields = tuple(f.strip() for f in value.split(",") if f.strip())
    unknown = [f for f in fields if f not in FIELDS]
    if not fields:
        raise argparse.ArgumentTypeError("expected a comma-separated list of keys")
    if unknown:
        from difflib import get_close_matches

        near = get_close_matches(unknown[0], FIELDS, n=1, cutoff=0.6)
        hint = f" (did you mean {near[0]}?)" if near else f"; the fields are {', '.join(FIELDS)}"
        raise argparse.ArgumentTypeError(f"unknown field {unknown[0]!r}{hint}")
    return fields


def _region_list(value: str) -> frozenset[str]:
    """A comma-separated list of regions of a page."""
    from ..model import Region

    known = [r.value for r in Region]
    regions = frozenset(s.strip().lower() for s in value.split(",") if s.strip())
    unknown = sorted(regions - set(known))
    if not regions or unknown:
        raise argparse.ArgumentTypeError(f"no region {unknown[0]!r}; the regions are {', '.join(known)}" if unknown
                                         else "expected a comma-separated list of regions")
    return regions


def _scheme_list(value: str) -> frozenset[str]:
    schemes = frozenset(s.strip().lower().removesuffix(":") for s in value.split(",") if s.strip())
    if not schemes:
        raise argparse.ArgumentTypeError("expected a comma-separated list of schemes")
    for scheme in sorted(schemes):
        if not re.fullmatch(r"[a-z][a-z0-9+.-]*", scheme):  # RFC 3986 §3.1
            raise argparse.ArgumentTypeError(f"{scheme!r} is not a URI scheme (RFC 3986 §3.1: a letter, then "
                                             "letters, digits, '+', '-' or '.')")
    return schemes
