#!/usr/bin/env python3
"""Run one fuzz target under atheris (coverage-guided, libFuzzer) for a while.

    python fuzz/run.py --seconds 600 html
    python fuzz/run.py --reproduce crash-1234abcd html

The target's seed corpus is built first (``fuzz/seeds.py``) and the inputs
the fuzzer finds worth keeping go to ``WORKDIR/corpus/TARGET``; a failing
input is written as ``WORKDIR/artifacts/TARGET-crash-<sha1>`` (libFuzzer's
naming); ``--minimize FILE`` shrinks it (libFuzzer's ``-minimize_crash``)
and ``--reproduce FILE`` runs it once, uninstrumented, for its traceback.

Failures: an exception or a broken record contract (``fuzz/targets.py``); a
hang, which is an input that takes more than one second of CPU time per
100 KB (one second at least: ``budget``), timed twice before it counts so
that a busy machine is no reason to fail, with libFuzzer's own ``-timeout``
as the backstop for an input that never returns; and a memory blow-up, the
process growing past ``--rss-limit-mb`` (libFuzzer's ``-rss_limit_mb``).
"""

from __future__ import annotations

import argparse
import base64
import math
import os
import pkgutil
import re
import sys
import time
from collections.abc import Callable
from importlib import import_module
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from seeds import TARGETS, build  # noqa: E402 - fuzz/ is a directory of scripts, not a package

#: the hang rule: CPU seconds an input may take per 100 KB of it, and at least
SECONDS_PER_100KB = 1.0
MIN_SECONDS = 1.0


#: the flag that names the target on the libFuzzer command line: to minimize
#: a crash, libFuzzer runs this script again with its own flags, passing on
#: those it does not know (and warning about them)
TARGET_FLAG = "-urisift_target="
# (its value base64-encoded: libFuzzer hands the command line to a shell unquoted)
TOLERATE_FLAG = "-urisift_tolerate="


class Hang(Exception):
    """An input that took longer than its budget, twice."""


def budget(size: int) -> float:
    """CPU seconds an input of ``size`` bytes may take."""
    return max(MIN_SECONDS, SECONDS_PER_100KB * size / 100_000)


def guarded(target: Callable[[bytes], None], tolerate: str | None = None) -> Callable[[bytes], None]:
    """``target`` with the hang rule: an input over its budget is run again,
    and fails when it is over budget again (another process on the machine
    can steal the CPU once; a super-linear path takes the time every time).

    ``tolerate``: a failure already reported, as a regular expression that
    ``"<exception type>: <message>"`` matches; it is counted on standard
    error rather than raised, so that a long run goes on looking for others.
    """
    pattern = re.compile(tolerate) if tolerate else None
    tolerated = 0

    def one_input(data: bytes) -> None:
        nonlocal tolerated
        limit = budget(len(data))
        for attempt in (1, 2):
            start = time.process_time()
            try:
                target(data)
            except Exception as exc:
                if pattern is None or not pattern.search(f"{type(exc).__name__}: {exc}"):
                    raise
                tolerated += 1
                if tolerated & (tolerated - 1) == 0:  # 1, 2, 4, 8 ...: a count, not a flood
                    print(f"tolerated failure #{tolerated} ({tolerate}): {type(exc).__name__}: {str(exc)[:200]}",
                          file=sys.stderr)
                return
            spent = time.process_time() - start
            if spent <= limit:
                return
            if attempt == 2:
                raise Hang(f"{len(data)}-byte input took {spent:.2f} s of CPU, over its {limit:.2f} s budget")

    return one_input


def instrumented_target(name: str) -> Callable[[bytes], None]:
    """The target ``name``, with urisift and the readers it builds on
    (warcio, the standard library's email package) instrumented for
    coverage.  urisift loads its modules when first used (PEP 562), so every
    one is imported here, inside the instrumenting block."""
    import atheris  # type: ignore[import-untyped]  # no stubs; an optional extra (fuzz)

    with atheris.instrument_imports(include=["urisift", "warcio", "email"]):
        import urisift

        for module in pkgutil.walk_packages(urisift.__path__, "urisift."):
            if module.name.startswith("urisift.spark"):
                continue  # the Spark job: neither reached by a target nor importable without pyspark
            import_module(module.name)
        import targets
    return targets.TARGETS[name]


def fuzz(target: str, argv: list[str], tolerate: str | None) -> None:
    """Fuzz ``target`` with the libFuzzer command line ``argv``; returns when
    its time or runs are up, exits the process on a failure."""
    import atheris  # type: ignore[import-untyped]  # no stubs; an optional extra (fuzz)

    atheris.Setup(argv, guarded(instrumented_target(target), tolerate))
    atheris.Fuzz()


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    named = [arg for arg in argv if arg.startswith(TARGET_FLAG)]
    if named:  # libFuzzer running the script again (-minimize_crash, -fork)
        tolerated = [base64.urlsafe_b64decode(arg[len(TOLERATE_FLAG):]).decode()
                     for arg in argv if arg.startswith(TOLERATE_FLAG)]
        fuzz(named[0][len(TARGET_FLAG):], [sys.argv[0], *argv], tolerated[0] if tolerated else None)
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("target", choices=TARGETS)
    parser.add_argument("--seconds", type=int, default=60, help="how long to fuzz (default 60)")
    parser.add_argument("--runs", type=int, default=-1, help="stop after this many inputs (default: no limit)")
    parser.add_argument("--max-len", type=int, default=65536, help="bytes an input at most (default 65536)")
    parser.add_argument("--rss-limit-mb", type=int, default=2048, help="memory ceiling (default 2048)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/urisift-fuzz"))
    parser.add_argument("--no-seeds", action="store_true", help="start from the work corpus alone")
    parser.add_argument("--reproduce", nargs="+", type=Path, metavar="FILE",
                        help="run the target once on each FILE, uninstrumented, and exit")
    parser.add_argument("--minimize", type=Path, metavar="FILE",
                        help="shrink the failing input FILE (libFuzzer's -minimize_crash) for --seconds, "
                             "into FILE.min")
    parser.add_argument("--tolerate", metavar="REGEX",
                        help="count rather than raise a failure already reported, when REGEX matches "
                             "'<exception type>: <message>'")
    parser.add_argument("--libfuzzer", nargs=argparse.REMAINDER, default=[],
                        help="further libFuzzer flags, e.g. --libfuzzer -minimize_crash=1 -runs=1000")
    args = parser.parse_args(argv)

    if args.reproduce:
        import targets

        one_input = guarded(targets.TARGETS[args.target], args.tolerate)
        for path in args.reproduce:
            one_input(path.read_bytes())  # raises with its traceback
            print(f"{path}: no failure")
        return 0

    seeds = args.workdir / "seeds"
    corpus = args.workdir / "corpus" / args.target
    artifacts = args.workdir / "artifacts"
    for directory in (corpus, artifacts):
        directory.mkdir(parents=True, exist_ok=True)
    dirs = [str(corpus)]
    if args.minimize:
        dirs = [str(args.minimize)]
    elif not args.no_seeds:
        count = build(seeds, args.target, args.max_len)
        print(f"{args.target}: {count} seeds in {seeds / args.target}", file=sys.stderr)
        dirs.append(str(seeds / args.target))

    # libFuzzer's -timeout (wall clock, whole seconds) catches an input that
    # never returns, which the CPU-time rule above cannot: ten times the
    # longest input's budget, since wall time on a shared machine runs ahead
    timeout = 10 * math.ceil(budget(args.max_len))
    flags = [
        TARGET_FLAG + args.target,
        *([TOLERATE_FLAG + base64.urlsafe_b64encode(args.tolerate.encode()).decode()] if args.tolerate else []),
        f"-max_total_time={args.seconds}",
        f"-runs={args.runs}",
        f"-max_len={args.max_len}",
        f"-timeout={timeout}",
        f"-rss_limit_mb={args.rss_limit_mb}",
        f"-artifact_prefix={artifacts}/{args.target}-",
        "-print_final_stats=1",
        *(["-minimize_crash=1", f"-exact_artifact_path={args.minimize}.min"] if args.minimize else []),
        *args.libfuzzer,
    ]
    print(f"fuzzing {args.target} for {args.seconds} s, pid {os.getpid()}: {' '.join(flags)}", file=sys.stderr)
    fuzz(args.target, [sys.argv[0], *flags, *dirs], args.tolerate)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
