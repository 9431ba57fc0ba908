"""A documentation tree as its site generator publishes it (``--published-as``).

A tree of Markdown, reStructuredText, AsciiDoc or notebook sources is not what
readers fetch: mdBook, Sphinx and Jekyll publish ``guide/x.md`` as
``guide/x.html`` (``html``), MkDocs as ``guide/x/`` (``dir``), Docusaurus as
``guide/x`` (``bare``); an index page (``index.md``, ``README.md``) is its
folder's page (``index.html``, or the folder itself).  References are still
resolved against where the source stands (RFC 3986 §5.2, as the generators
resolve a source's links), and then what names another source of the tree is
named as published: the target of a relative reference whose base is the
tree's (the retrieval URI, RFC 3986 §5.1.3), and each source file's own
retrieval URI, the page its edges start from.
"""

from __future__ import annotations

import re

from ..model import BaseSource, Record

#: the ways a tree is published, as --published-as names them
MODES = ("html", "dir", "bare")
#: the names of the sources a generator turns into pages
SOURCE_SUFFIXES = (".md", ".markdown", ".rst", ".adoc", ".asciidoc", ".ipynb")
#: the source names that are their folder's own page
_INDEX = frozenset({"index", "readme"})
#: a reference with a scheme is absolute (RFC 3986 §4.3): it names no source of the tree
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:")


def is_source(path: str) -> bool:
    """Whether a file's name is that of a source the generators publish as a page."""
    return path.lower().endswith(SOURCE_SUFFIXES)


def published_uri(uri: str, mode: str) -> str:
    """``uri`` with a source as the last segment of its path named as ``mode``
    publishes it (its query and fragment kept); any other URI as it is."""
    end = len(uri)
    for mark in "?#":
        at = uri.find(mark)
        if at != -1:
            end = min(end, at)
    path, rest = uri[:end], uri[end:]
    folder, _, name = path.rpartition("/")
    if not is_source(name):
        return uri
    stem = name.rsplit(".", 1)[0]
    head = folder + "/" if _ else ""
    if stem.lower() in _INDEX:
        page = "index.html" if mode == "html" else ""
    else:
        page = stem + (".html" if mode == "html" else "/" if mode == "dir" else "")
    return head + page + rest


def published_record(record: Record, mode: str) -> Record:
    """The record with its target (and what a browser fetches) named as the tree
    is published, when its reference is relative and resolved against the tree's
    retrieval URI; any other record as it is."""
    target = record.target
    if (target is None or record.base_source is not BaseSource.RETRIEVAL or _SCHEME.match(record.uri)
            or not is_source(target.split("#", 1)[0].split("?", 1)[0])):
        return record
    browser = record.browser_target
    return record._replace(target=published_uri(target, mode),
                           browser_target=published_uri(browser, mode) if isinstance(browser, str) else browser)


__all__ = ["MODES", "SOURCE_SUFFIXES", "is_source", "published_record", "published_uri"]
