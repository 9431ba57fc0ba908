"""The XML family (issue 21): feeds (Atom, RSS 2.0 and 1.0), sitemaps and
their extensions, OPML, SVG and any ``xlink:href``, each reference resolved
against the ``xml:base`` in scope (XML Base; RFC 3986 §5.1.1), and
robots.txt's ``Sitemap`` lines."""

from .reader import read_xml
from .robots import read_robots

__all__ = ["read_robots", "read_xml"]
