"""Documents with a link syntax of their own (Markdown, notebooks ...): each kind's
links as its renderer makes them (``a``/``href``, ``img``/``src``), the
URLs in its prose found by the text scanner, and those in its code told
apart by the ``code`` flag.  Their raw HTML is handed back to the scan as
nested HTML content, read by the HTML reader."""

from .asciidoc import read_asciidoc
from .latex import read_bibtex, read_latex
from .markdown import read_markdown
from .notebook import read_notebook
from .org import read_org
from .rst import read_rst
from .wikitext import read_wikitext

__all__ = ["read_asciidoc", "read_bibtex", "read_latex", "read_markdown", "read_notebook", "read_org", "read_rst",
           "read_wikitext"]
