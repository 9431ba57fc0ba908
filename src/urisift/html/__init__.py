"""Reading HTML (ARCHITECTURE.md, Readers).

- :mod:`.prescan`: the charset a document declares in its first bytes;
- :mod:`.tree` and :mod:`.parse`: the HTML5 tree (lexbor) or a BeautifulSoup object, walked alike;
- :mod:`.table`: which attributes hold URLs, how, and against which base;
- :mod:`.srcset`, :mod:`.refresh`, :mod:`.css`: the value syntaxes;
- :mod:`.document`: the document base URL and the walk that makes the records;
- :mod:`.locate`: where each value stands in the source.
"""

from .document import DocumentWalk
from .locate import Locator
from .parse import parse, tree_of
from .prescan import prescan

__all__ = ["DocumentWalk", "Locator", "parse", "prescan", "tree_of"]
