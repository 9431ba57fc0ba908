"""HTML trees, walked the same way whichever parser built them.

urisift parses with lexbor (through selectolax): an HTML5 tree builder, the
tree a browser builds (``<base>`` after ``</html>`` lands in body, template
contents are a fragment of their own, RCDATA and foreign content are
placed by the WHATWG rules), and the fastest measured.  A
BeautifulSoup object a user already has is walked through bs4's own API.

Both walks yield the same items, in tree order: the elements that have
attributes (or are ``<style>``), and the text nodes that may hold a
reference (or style sheets).  Neither parser says which namespace an
element is in, so it is worked out as the tree builder decides it
(WHATWG §13.2.6.5, "the rules for parsing tokens in foreign content"):
``<svg>`` and ``<math>`` open SVG and MathML; their children stay there,
except below an HTML integration point (SVG ``foreignObject``, ``desc``,
``title``; MathML ``annotation-xml`` with an HTML encoding) or a MathML
text integration point (``mi``, ``mo``, ``mn``, ``ms``, ``mtext``).

Scripting is off, as in a crawler: ``<noscript>`` in ``<head>`` is parsed
as markup, and a ``<base>`` inside it counts (a browser running scripts
would read it as text).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from enum import StrEnum
from typing import Any, NamedTuple

from ...stages.delimit import may_hold_reference


class Namespace(StrEnum):
    HTML = "html"
    SVG = "svg"
    MATHML = "math"


class Element(NamedTuple):
    """An element with attributes (or a ``<style>``): its local name in lower
    case, its attributes as written (entities decoded; None for one with no
    value), its namespace, and whether it is inside a template's contents."""

    tag: str
    attributes: Mapping[str, str | None]
    namespace: Namespace
    in_template: bool
    node: Any


class Text(NamedTuple):
    """A text node that may hold a reference (or a style sheet): its text,
    its parent element's tag ("" at the top), whether it is a comment, the
    href of the ``<a>`` around it (None when there is none), and its parent
    node (where on the page it stands: :mod:`.region`)."""

    text: str
    parent: str
    comment: bool
    link: str | None
    node: Any = None


_HTML_INTEGRATION = frozenset({"foreignobject", "desc", "title"})
_MATHML_TEXT_INTEGRATION = frozenset({"mi", "mo", "mn", "ms", "mtext"})
_HTML_ENCODINGS = frozenset({"text/html", "application/xhtml+xml"})
#: elements whose text is never running text: the tree builder's raw text
RAW = frozenset({"script", "style"})
_NONE: Mapping[str, str | None] = {}
#: how far up a text node's parents to look for the <a> it is in, and for code around it
_LINK_DEPTH = 8
#: the elements whose text is code, or text shown as written (lychee's verbatim elements, less
#: <textarea>, a form's field): a URL in them is found with the ``code`` flag
CODE_ELEMENTS = frozenset({"code", "pre", "kbd", "samp", "tt", "listing", "xmp", "plaintext"})
_new_element = tuple.__new__


def _tag_ids() -> dict[str, int]:
    """lexbor's ids of the tags the walk tells apart, read from lexbor itself
    (they are its enumeration, which a new version may renumber)."""
    from selectolax.lexbor import LexborHTMLParser

    root = LexborHTMLParser("<a></a><style></style><template></template><svg></svg><math></math>x<!---->").root
    assert root is not None
    ids = {node.tag: node.tag_id for node in root.traverse(include_text=True)}
    return {name: ids[name] for name in ("a", "style", "template", "svg", "math", "-text", "-comment")}


_IDS = _tag_ids()
_TEXT_ID, _COMMENT_ID = _IDS["-text"], _IDS["-comment"]
#: lexbor numbers the kinds of node that are not elements (undefined, text,
#: document, comment, doctype ...) before its first tag, "a"; a custom
#: element's id comes after its last
_FIRST_ELEMENT_ID = _IDS["a"]


def first_base(items: list[Element | Text]) -> Element | None:
    """The first ``base`` element with an ``href`` in tree order, in the HTML
    namespace and not in a template's contents (WHATWG §2.4.1)."""
    for item in items:
        if (type(item) is Element and item.tag == "base" and item.namespace is Namespace.HTML
                and not item.in_template and "href" in item.attributes):
            return item
    return None


def child_namespace(namespace: Namespace, tag: str, attributes: Mapping[str, str | None], child: str
                    ) -> Namespace:
    """The namespace of an element ``child`` whose parent is ``tag`` in ``namespace``."""
    if namespace is Namespace.HTML or integration_point(namespace, tag, attributes, child):
        if child == "svg":
            return Namespace.SVG
        if child == "math":
            return Namespace.MATHML
        return Namespace.HTML
    return namespace


def integration_point(namespace: Namespace, tag: str, attributes: Mapping[str, str | None], child: str) -> bool:
    """Whether a start tag ``child`` under the foreign element ``tag`` is read by the HTML
    rules: an HTML integration point, or a MathML text integration point (WHATWG HTML §13.2.6,
    the tree construction dispatcher)."""
    if namespace is Namespace.SVG:
        return tag in _HTML_INTEGRATION
    if tag in _MATHML_TEXT_INTEGRATION:
        return child not in ("mglyph", "malignmark")
    if tag == "annotation-xml":
        return (attributes.get("encoding") or "").strip().lower() in _HTML_ENCODINGS
    return False


# -- lexbor ---------------------------------------------------------------------------------

class LexborTree:
    """A document parsed by lexbor.  Its tag names are lower case but for
    SVG's camel-case ones (``foreignObject``), which no rule here names."""

    def __init__(self, parser: Any) -> None:
        self.parser = parser

    @staticmethod
    def _mark_foreign(root: Any, foreign: dict[int, Namespace]) -> None:
        """Record the namespace of ``root`` (an ``<svg>`` or ``<math>`` met by
        the walk) and of every element below it that stays in SVG or MathML:
        few pages have any, so this is done when one is met, not for every node."""
        namespace = Namespace.SVG if root.tag == "svg" else Namespace.MATHML
        stack = [(root, namespace)]
        while stack:
            node, namespace = stack.pop()
            foreign[node.mem_id] = namespace
            tag = node.tag.lower()
            attributes = node.attributes if tag == "annotation-xml" else _NONE  # only its encoding matters
            for child in node.iter():
                name = child.tag
                if name is None:
                    continue  # a processing instruction in foreign content: lexbor's node of no name
                inner = child_namespace(namespace, tag, attributes, name.lower())
                if inner is not Namespace.HTML:
                    stack.append((child, inner))

    def items(self, names: frozenset[str], comments: bool = False, refang: bool = False) -> list[Element | Text]:
        """The elements with an attribute in ``names`` (and every ``<style>``),
        the text nodes that may hold a reference, in tree order (``refang``:
        any with a "." may, a defanged host's ``evil[.]example``)."""
        out: list[Element | Text] = []
        root = self.parser.root
        if root is not None:
            self._walk(root, names, comments, out, refang)
        return out

    def _walk(self, root: Any, names: frozenset[str], comments: bool, out: list[Element | Text],
              refang: bool = False) -> None:
        # The hot loop of HTML: every node of the page passes here, so it
        # appends to a list (no generator), tells nodes apart by lexbor's tag
        # id (an int: the tag's name is a new str each time it is read, and
        # is read only for the elements kept), and leaves white-space-only
        # text to lexbor (skip_empty: most text nodes, none of which can hold
        # a reference).  A template's contents are a fragment of their own,
        # walked where the template stands: its traversal goes on a stack,
        # not into a call, so templates nested however deep cost no recursion.
        html = Namespace.HTML
        disjoint = names.isdisjoint
        append = out.append
        new_element = _new_element
        text_id, style_id, template_id = _TEXT_ID, _IDS["style"], _IDS["template"]
        svg_math = (_IDS["svg"], _IDS["math"])
        foreign: dict[int, Namespace] = {}
        walks = [iter(root.traverse(include_text=True, skip_empty=True))]
        while walks:
            in_template = len(walks) > 1
            for node in walks[-1]:
                tag_id = node.tag_id
                if tag_id == text_id:
                    text = node.text_content
                    # most text nodes are words: a reference needs a ":" or
                    # "www."/"ftp.", a style sheet's url() a ":" (or "@import")
                    holds = ":" in text or ("." in text and (refang or may_hold_reference(text)))
                    if not holds and "@" not in text:
                        continue
                    parent = node.parent
                    parent_tag = parent.tag if parent is not None else None  # a fragment's tag is None
                    parent_tag = parent_tag.lower() if parent_tag and parent_tag[0] != "-" else ""
                    if parent_tag == "style":
                        append(Text(text, parent_tag, False, None, parent))
                    elif holds and parent_tag not in RAW:
                        append(Text(text, parent_tag, False, _link_around(parent), parent))
                    continue
                if tag_id < _FIRST_ELEMENT_ID:  # a comment, the document, a template's fragment
                    if tag_id == _COMMENT_ID and comments:
                        text = node.comment_content or ""
                        if may_hold_reference(text):
                            append(Text(text, "", True, None, node.parent))
                    continue
                if tag_id in svg_math and node.mem_id not in foreign:
                    self._mark_foreign(node, foreign)
                attributes = node.attributes
                if (attributes and not disjoint(attributes)) or tag_id == style_id:
                    namespace = foreign.get(node.mem_id, html) if foreign else html
                    append(new_element(Element, (node.tag.lower(), attributes, namespace, in_template, node)))
                if tag_id == template_id:
                    fragments = node.template_fragments()
                    if fragments:
                        walks.append(iter(fragments[0].traverse(include_text=True, skip_empty=True)))
                        break  # on into the contents; this walk resumes after them
            else:
                walks.pop()

    @staticmethod
    def anchor_text(node: Any) -> str:
        return str(node.text(deep=True))

    @staticmethod
    def in_code(node: Any) -> bool:
        """Whether ``node`` (a text node's parent) is or stands in a :data:`CODE_ELEMENTS` element."""
        for _ in range(_LINK_DEPTH):
            if node is None:
                return False
            if node.tag in CODE_ELEMENTS:
                return True
            node = node.parent
        return False


def _link_around(node: Any) -> str | None:
    """The href of the nearest ``<a>`` at or above ``node`` (lexbor)."""
    for _ in range(_LINK_DEPTH):
        if node is None:
            return None
        if node.tag == "a":
            href = node.attributes.get("href")
            return None if href is None else str(href)
        node = node.parent
    return None


# -- BeautifulSoup ------------------------------------------------------------------------------

class SoupTree:
    """A BeautifulSoup object, from any of its builders, walked through bs4's API."""

    def __init__(self, soup: Any) -> None:
        self.soup = soup

    def items(self, names: frozenset[str], comments: bool = False, refang: bool = False
              ) -> Iterator[Element | Text]:
        from bs4.element import Comment, NavigableString, PreformattedString, Tag

        html = Namespace.HTML
        # the namespace and template state each element gives its children, by id
        context: dict[int, tuple[Namespace, bool]] = {id(self.soup): (html, False)}
        for node in self.soup.descendants:
            if isinstance(node, Tag):
                parent = node.parent
                namespace_of_parent, in_template = context.get(id(parent), (html, False))
                tag = (node.name or "").lower()
                parent_tag = (parent.name or "").lower() if isinstance(parent, Tag) and parent is not self.soup else ""
                attributes = _joined(node.attrs)
                if parent_tag:
                    namespace = child_namespace(namespace_of_parent, parent_tag,
                                                _joined(parent.attrs), tag)  # type: ignore[union-attr]
                else:
                    namespace = child_namespace(html, "", {}, tag)
                context[id(node)] = (namespace, in_template or (tag == "template" and namespace is html))
                if (attributes and not names.isdisjoint(attributes)) or tag == "style":
                    yield Element(tag, attributes, namespace, in_template, node)
            elif isinstance(node, Comment):
                if comments and may_hold_reference(node):
                    yield Text(str(node), "", True, None, node.parent)
            elif isinstance(node, NavigableString) and not isinstance(node, PreformattedString):
                parent = node.parent
                parent_tag = (parent.name or "").lower() if parent is not None and parent is not self.soup else ""
                if parent_tag == "style" or (parent_tag not in RAW and (may_hold_reference(node)
                                                                       or (refang and "." in node))):
                    yield Text(str(node), parent_tag, False, _soup_link_around(parent), parent)

    @staticmethod
    def anchor_text(node: Any) -> str:
        return str(node.get_text())

    @staticmethod
    def in_code(node: Any) -> bool:
        """Whether ``node`` (a text node's parent) is or stands in a :data:`CODE_ELEMENTS` element."""
        for _ in range(_LINK_DEPTH):
            if node is None:
                return False
            if getattr(node, "name", None) in CODE_ELEMENTS:
                return True
            node = node.parent
        return False


def _joined(attrs: Mapping[str, Any]) -> dict[str, str | None]:
    """bs4 splits multi-valued attributes (class, rel ...) into lists."""
    return {str(name): " ".join(value) if isinstance(value, list) else value for name, value in attrs.items()}


def _soup_link_around(node: Any) -> str | None:
    for _ in range(_LINK_DEPTH):
        if node is None:
            return None
        if getattr(node, "name", None) == "a":
            href = node.get("href")
            return None if href is None else str(href)
        node = node.parent
    return None
