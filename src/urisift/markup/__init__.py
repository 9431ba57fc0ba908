"""Documents with a link syntax of their own (Markdown, notebooks ...): each kind's
links as its renderer makes them (``a``/``href``, ``img``/``src``), the
URLs in its prose found by the text scanner, and those in its code told
apart by the ``code`` flag.  Their raw HTML is handed back to the scan as
nested HTML content, read by the HTML reader."""

from .markdown import read_markdown
from .notebook import read_notebook
from .wikitext import read_wikitext

__all__ = ["read_markdown", "read_notebook", "read_wikitext"]
