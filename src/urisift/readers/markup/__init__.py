"""Documents with a link syntax of their own (Markdown, notebooks ...): each kind's
links as its renderer makes them (``a``/``href``, ``img``/``src``), the
URLs in its prose found by the text scanner, and those in its code told
apart by the ``code`` flag.  Their raw HTML is handed back to the scan as
nested HTML content, read by the HTML reader."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .asciidoc import read_asciidoc
    from .latex import read_bibtex, read_latex
    from .markdown import read_markdown
    from .notebook import read_notebook
    from .org import read_org
    from .rst import read_rst
    from .wikitext import read_wikitext

# each reader's module, imported when the reader is first asked for (PEP 562): a run of AsciiDoc files
# does not load Markdown's parser, nor the HTML reader it hands raw HTML to
_MODULE_OF = {"read_asciidoc": ".asciidoc", "read_bibtex": ".latex", "read_latex": ".latex",
              "read_markdown": ".markdown", "read_notebook": ".notebook", "read_org": ".org", "read_rst": ".rst",
              "read_wikitext": ".wikitext"}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)


__all__ = ["read_asciidoc", "read_bibtex", "read_latex", "read_markdown", "read_notebook", "read_org", "read_rst",
           "read_wikitext"]
