"""Which input is the file the run writes (``-o t.txt t.txt`` would empty t.txt and
read nothing; ``urisift . > links.txt`` would read its own output as it grows): the
output's identity, and whether an input is that file, as GNU grep tells it."""

from __future__ import annotations

import io
import os
import stat
from typing import IO

from ..pipeline.remote import is_remote


def output_identity(path: str | None, out: IO[str]) -> tuple[int, int] | None:
    """The (device, inode) of the file the run writes: ``--output``'s, or
    standard output's when it is a regular file (``urisift . > links.txt``);
    None when it is not a file there is (yet), a pipe or a terminal."""
    try:
        found = os.stat(path) if path is not None and path != "-" else os.fstat(out.fileno())
    except (OSError, ValueError, io.UnsupportedOperation, AttributeError):
        return None
    return (found.st_dev, found.st_ino) if stat.S_ISREG(found.st_mode) else None


def same_file(path: str, identity: tuple[int, int]) -> bool:
    """Whether the local input ``path`` is the file ``identity`` names."""
    if path == "-" or is_remote(path):
        return False
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return False
    return (found.st_dev, found.st_ino) == identity
