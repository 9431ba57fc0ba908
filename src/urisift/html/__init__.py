"""Reading HTML (DESIGN §1 ``html/``, issue 9): so far the ``<meta>`` prescan
that finds the charset a document declares (:mod:`.prescan`), the ``sniff``
step of the charset chain for HTML."""

from .prescan import prescan

__all__ = ["prescan"]
