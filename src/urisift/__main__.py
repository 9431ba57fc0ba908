"""``python -m urisift`` and the ``urisift`` command: the command line.

:func:`entry` imports the command inside its own guard, so that Ctrl-C in
the first fraction of a second (while the modules load) ends the run with
status 130 and no traceback, as it does later; the package's ``__init__``
loads nothing heavy until a name is asked for, for the same reason.
"""

from __future__ import annotations

import sys


def entry() -> None:
    try:
        from .cli import run
    except KeyboardInterrupt:
        sys.exit(130)
    run()


if __name__ == "__main__":
    entry()
