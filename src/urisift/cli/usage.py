"""The command-line face shared by ``urisift``, ``urisift audit`` and
``urisift-spark``: a usage error is one line that names the program and
points at its ``--help``, and exits 2, before any input is read."""

from __future__ import annotations

import argparse
from typing import NoReturn

from ..uri.errors import ExitCode


class OneLineParser(argparse.ArgumentParser):
    """An argument parser whose usage error is one line and a hint, not the
    whole usage (argparse's default), with exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(ExitCode.USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")
