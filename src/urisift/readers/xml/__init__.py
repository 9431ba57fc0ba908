"""The XML family: feeds (Atom, RSS 2.0 and 1.0),
sitemaps and their extensions, OPML, SVG, XHTML read as XML, any
``xlink:href``, MediaWiki export dumps (each revision's text read as
wikitext), XML of any other vocabulary (the URIs of its text and its
attributes that are absolute URIs), and office files (ZIP packages of XML parts), each
reference resolved against the ``xml:base`` in scope (XML Base; RFC 3986
§5.1.1); and robots.txt's ``Sitemap`` lines."""

from .office import read_office
from .reader import read_xml
from .robots import read_robots

__all__ = ["read_office", "read_robots", "read_xml"]
