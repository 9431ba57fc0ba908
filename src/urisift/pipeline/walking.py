"""The walk of the paths a run names: each file, each directory's files in
sorted order (hidden ones only when asked), each object a store lists
under a prefix or glob; what cannot be walked a defect; a binary file met
in a directory passed over.  Each input found in a directory knows its
path under it (:attr:`~urisift.pipeline.sources.Input.under`), so that a tree
walked under ``--base`` gives each file its own retrieval URI."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator, Sequence
from fnmatch import fnmatchcase

from ..model import Defect, DefectKind, Kind, Origin
from ..stages.sniff import binary, is_image, kind_by_name
from .remote import expand, is_remote, key_under, local_path, shown
from .sources import Input, printable_name, unreadable

#: the first bytes of a walked file that tell whether it is binary (ripgrep reads its first buffer)
BINARY_SAMPLE = 8192


def _hidden(name: str) -> bool:
    return name.startswith(".") and name not in (".", "..")


#: a name filter of the walk, as GNU grep's: ("include" or "exclude", GLOB), in the order given
NameFilter = tuple[str, str]


def _suffixes(path: str) -> Iterator[str]:
    """A path's name suffixes, as GNU grep matches ``--exclude`` against them: the whole
    path, and each trailing part that starts just after a slash."""
    path = path.rstrip("/") or path
    yield path
    at = path.find("/")
    while at != -1:
        yield path[at + 1:]
        at = path.find("/", at + 1)


def _matches(path: str, glob: str) -> bool:
    return any(fnmatchcase(suffix, glob) for suffix in _suffixes(path))


def wanted(path: str, filters: Sequence[NameFilter]) -> bool:
    """Whether a file passes ``--include`` and ``--exclude`` (GNU grep's rule): the
    last filter whose glob matches a name suffix of the path decides; when none
    matches, the file is read unless the first filter is an ``--include``."""
    for kind, glob in reversed(filters):
        if _matches(path, glob):
            return kind == "include"
    return not filters or filters[0][0] != "include"


def walk(paths: list[str], *, hidden: bool = False, maildir: bool = False, follow: bool = False,
         binary: list[str] | None = None, names: Sequence[NameFilter] = (),
         exclude_dirs: Sequence[str] = (), images: bool = False) -> Iterator[Input | Defect]:
    """The inputs the paths name, in order; defects for what cannot be walked.
    A Maildir's messages (in ``cur/`` and ``new/``, as maildir(5) lays
    them out; ``tmp/`` is skipped) are known to be mail; with
    ``maildir``, every file under the paths is taken for a message.

    A symbolic link to a directory is walked only with ``follow`` (as
    ``find -L`` and ``rg -L`` do), each directory once however many links
    lead to it (a link to a directory above it would loop); without
    ``follow`` it is skipped with a ``not-a-file`` defect that says so.

    A binary file met in a directory (an image, a font, a NUL byte in its
    first bytes: :func:`~urisift.stages.sniff.binary`) is passed over without a
    word, as ripgrep passes over it, and its path added to ``binary``; one
    named is read.  With ``images`` (``--qr``), an image (by its signature or its
    name) is read for the codes drawn in it instead of passed over.

    ``names`` are ``--include`` and ``--exclude`` (:func:`wanted`), applied to
    every file, named or walked, and ``exclude_dirs`` are ``--exclude-dir``'s
    globs: a directory, named or met in a walk, whose name suffix matches one is
    not walked (GNU grep's rules; a store's objects are filtered by their key).
    """
    posix = os.sep == "/"
    for path in paths:
        if is_remote(path):
            try:
                # globs and prefixes, listed by the store: each object's key under them is its path there
                yield from (Input(url, None, key_under(path, url)) for url in expand(path)
                            if not names or wanted(key_under(path, url) or url, names))
            except (OSError, RuntimeError, ValueError) as exc:
                yield Defect(DefectKind.UNREADABLE, f"cannot list it: {exc}", Origin(file=shown(path)))
            continue
        path = local_path(path)  # file:///abs/path, as cluster jobs name local files
        if path == "-" or not os.path.isdir(path):
            if path == "-" or not names or wanted(path if posix else path.replace(os.sep, "/"), names):
                yield Input(path)
            continue
        if exclude_dirs and any(_matches(path if posix else path.replace(os.sep, "/"), g) for g in exclude_dirs):
            continue
        errors: list[OSError] = []
        prefix = path if path.endswith(os.sep) else path + os.sep  # (what os.walk puts before every path)
        walked: set[tuple[int, int]] = set()  # (device, inode) of the directories walked
        for root, dirs, files in os.walk(path, onerror=errors.append, followlinks=follow):
            while errors:
                error = errors.pop(0)
                yield unreadable(str(error.filename or root), error)
            if not hidden:
                dirs[:] = [d for d in dirs if not _hidden(d)]
            if {"cur", "new", "tmp"} <= set(dirs):
                dirs.remove("tmp")  # a Maildir: tmp/ holds messages still being delivered
            if exclude_dirs:
                dirs[:] = [d for d in dirs if not any(fnmatchcase(d, glob) for glob in exclude_dirs)]
            dirs.sort()
            skipped = _linked_dirs(root, dirs, walked, follow)
            parent = os.path.dirname(root)
            in_maildir = maildir or os.path.basename(root) in ("cur", "new") and all(
                os.path.isdir(os.path.join(parent, d)) for d in ("cur", "new", "tmp"))
            for name in sorted(files):
                if not hidden and _hidden(name):
                    continue
                if names and not wanted(name, names):
                    continue
                full = os.path.join(root, name)
                problem = _not_regular(full)
                if problem is not None:
                    yield problem
                elif not in_maildir and _binary(full, images):
                    if binary is not None:
                        binary.append(full)
                else:
                    # (a cut, not relpath: 3 µs a file, and os.walk's paths all start with the prefix)
                    under = full[len(prefix):] if full.startswith(prefix) else os.path.relpath(full, path)
                    under = under.replace(os.sep, "/") if os.sep != "/" else under
                    yield Input(full, Kind.MAIL if in_maildir else None, under)
            yield from skipped
        for error in errors:
            yield unreadable(str(error.filename or path), error)


def _binary(path: str, images: bool = False) -> bool:
    """Whether the file at ``path`` is binary by its first bytes (one that
    cannot be read is not: its reading will say why); with ``images``, an
    image is not (it is read for its codes)."""
    try:
        # (a descriptor, not a file object: a third of the time, on a tree of small files)
        fd = os.open(path, os.O_RDONLY)
        try:
            head = os.read(fd, BINARY_SAMPLE)
        finally:
            os.close(fd)
    except OSError:
        return False
    if images and (is_image(head) or kind_by_name(path) is Kind.IMAGE):
        return False
    return binary(head, path)


def _linked_dirs(root: str, dirs: list[str], walked: set[tuple[int, int]], follow: bool) -> list[Defect]:
    """Take out of ``dirs`` what is not to be walked: symbolic links to
    directories unless ``follow``; with it, a directory walked already (a
    loop, or a second link to it).  The defects saying so."""
    try:
        here = os.stat(root)
        walked.add((here.st_dev, here.st_ino))
    except OSError:
        pass
    defects = []
    for name in list(dirs):
        full = os.path.join(root, name)
        link = os.path.islink(full)
        if not follow:
            if link:
                dirs.remove(name)
                defects.append(Defect(DefectKind.NOT_A_FILE, "a symbolic link to a directory; not walked "
                                      "(--follow walks it)", Origin(file=printable_name(full))))
            continue
        try:
            target = os.stat(full)
        except OSError:
            continue  # os.walk reports what it cannot list
        if (target.st_dev, target.st_ino) in walked:
            dirs.remove(name)
            what = "a symbolic link to a directory" if link else "a directory"
            defects.append(Defect(DefectKind.NOT_A_FILE, f"{what} walked already (a loop, or a second way to it); "
                                  "not walked again", Origin(file=printable_name(full))))
        else:
            walked.add((target.st_dev, target.st_ino))
    return defects


def _not_regular(path: str) -> Defect | None:
    """A defect for what a directory walk must not open: FIFOs, sockets, devices."""
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        return unreadable(path, exc)
    if stat.S_ISREG(mode):
        return None
    what = ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
    return Defect(DefectKind.NOT_A_FILE, f"{what}; skipped (name it explicitly to read it)", Origin(file=path))


# -- compressed inputs (decoded in :mod:`.compressed`) ---------------------------------
