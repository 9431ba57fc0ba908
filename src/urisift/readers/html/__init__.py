"""Reading HTML (ARCHITECTURE.md, readers/: the readers).

- :mod:`.prescan`: the charset a document declares in its first bytes;
- :mod:`.tree` and :mod:`.parse`: the HTML5 tree (lexbor) or a BeautifulSoup object, walked alike;
- :mod:`.table`: which attributes hold URLs, how, and against which base;
- :mod:`.srcset`, :mod:`.refresh`, :mod:`.css`: the value syntaxes;
- :mod:`.document`: the document base URL and the walk that makes the records;
- :mod:`.locate`: where each value stands in the source.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# (parse and prescan share their names with their modules: bound here, so that the function, never the
# module, is what the package gives, whichever is imported first)
from .parse import parse, tree_of
from .prescan import prescan

if TYPE_CHECKING:
    from .document import DocumentWalk
    from .locate import Locator

# the walk's module, imported when it is first asked for (PEP 562): a run that reads no HTML but uses
# the attribute table (Markdown's, for its raw HTML) does not load the walk and what it reads with
_MODULE_OF = {"DocumentWalk": ".document", "Locator": ".locate"}


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(module, __name__), name)


__all__ = ["DocumentWalk", "Locator", "parse", "prescan", "tree_of"]
