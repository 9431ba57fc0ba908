"""Which base URI applies: the layers of url-syntax-05 §5.1 / rfc2396bis-01 §5.1 (ARCHITECTURE.md, Base URIs).

Precedence, innermost first:

1. a base embedded in the content (HTML ``<base href>``), §5.1.1;
2. the base of the encapsulating entity (a MIME heading's ``Content-Base``,
   else its ``Content-Location``, else the enclosing heading's, recursively
   through nested parts), §5.1.2;
3. the URI the content was retrieved from (``--base``, a WARC record's
   target URI), §5.1.3;
4. an application default, §5.1.4 (none unless asked for).

A :class:`BaseLayer` is the innermost layer, pointing at the one under it
(the outermost at the bottom of the chain).  Pushing a layer resolves its
value against the base in force below it (a relative ``Content-Location``
or ``<base href="sub/">``), and drops the fragment,
because a base URI never has one (RFC 3986 §5.1: the fragment of a base is
irrelevant to resolution).  A value that cannot serve as a base is a defect
naming it, and the layer below stays in force: nothing is resolved against a
broken base, and nothing is silently lost.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..model import NOWHERE, Base, BaseSource, Defect, DefectKind, Origin, Record, Unit
from ..uri import patterns
from ..uri.errors import UriError
from ..uri.joiner import Joiner
from ..uri.reference import UriReference, validate
from ..uri.resolution import resolve

#: the longest base URI a layer takes (a budget: ARCHITECTURE.md, Budgets): far past any URL a server
#: answers to, and short enough that a chain of bases, each resolved against
#: the one below, cannot grow quadratic (250 nested 40 KB xml:base values
#: took a minute and 1.3 GB)
MAX_BASE_LENGTH = 1 << 15


def shown(value: str, limit: int = 120) -> str:
    """``value`` quoted for a message, cut to ``limit`` characters when longer."""
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}... ({len(value)} characters)"


#: schemes no base may have, whatever layer it comes from (``--base``, ``<base
#: href>``, a MIME or HTTP header, ``xml:base``, a WARC target URI, the URL an
#: input was read from): a ``data:`` or ``javascript:`` URI names no place that
#: a relative reference could stand under, and resolved against one, a relative
#: reference becomes a script or a payload (``javascript:alert(1)//x``).  HTML
#: refuses both as a document base (WHATWG HTML §2.4.1, the fallback base URL).
REFUSED_SCHEMES = frozenset({"data", "javascript"})


class NoHierarchy(UriError):
    """A URI with no hierarchy (``cid:``, ``mailto:``), refused as a base by :func:`as_base`."""


def as_base(value: str, below: Base | None, *, opaque: bool = False) -> str:
    """``value`` as a base URI: resolved against ``below`` when relative, its
    fragment dropped, checked against RFC 3987's ``IRI`` production (a base
    may hold non-ASCII: it is only used to resolve, never sent).

    The one rule for every source of a base: raises :class:`UriError` with
    the reason when ``value`` cannot serve -- it does not parse; it is
    relative with nothing below; its scheme is one of
    :data:`REFUSED_SCHEMES`; or it has no hierarchy (no authority and a
    path not starting with "/", as ``mailto:a@b.example`` or
    ``urn:isbn:1``), so that the path merge of RFC 3986 §5.2.3 would glue a
    relative path onto an opaque one (``mailto:rel/x.html``).

    ``opaque``: a URI with no hierarchy is taken (a ``<base href>``, a
    ``Content-Base``: the content says so), for the one reference it can
    resolve, a fragment-only one (RFC 3986 §5.2.2 keeps the base's path and
    query; the WHATWG URL parser's "no scheme state" resolves "#x" against an
    opaque path and fails on anything else); the tail gives every other
    reference no target (:meth:`~urisift.stages.found_to_record.Tail.target`),
    and the scan a defect (:func:`unresolved`).  A retrieval URI (``--base``)
    is still refused: a page's links are not fragments alone.
    """
    target = _as_base(value, None if below is None else below.uri, True)
    if not opaque and not _hierarchical(target):
        raise NoHierarchy(f"a {target[:target.find(':')].lower()}: URI with no hierarchy (no authority, a path not "
                          "starting with '/') cannot be a base (RFC 3986 §5.2.3 would merge a relative path into an "
                          "opaque one)")
    return target


def absolute(value: str, below: Base | None) -> str:
    """``value`` made absolute as :func:`as_base` makes it, without the rule
    of what may serve as a base: for a value that names a resource rather
    than a base (a MIME part's ``Content-Location``, RFC 2557 §5, which may
    be ``mid:`` or ``urn:``).  Raises :class:`UriError` when it cannot."""
    return _as_base(value, None if below is None else below.uri, False)


# A mail archive's parts and a crawl's pages name the same few bases over and
# over (the retrieval URI, a site's <base href>, a list's Content-Base): a
# base's parse and its IRI check cost more than a small HTML part's records.
# The answer is a function of the three arguments alone; refusals (exceptions)
# are not kept, and are rare.
@lru_cache(maxsize=512)
def _as_base(value: str, below: str | None, serving: bool) -> str:
    if len(value) > MAX_BASE_LENGTH:
        raise UriError(f"it is {len(value)} characters long, longer than a base may be ({MAX_BASE_LENGTH})")
    if below is not None and _PLAIN_PATH.fullmatch(value) is not None and "/." not in value \
            and value[0] != "." and not value.startswith("//") and _hierarchical(below):
        # A relative path of path characters alone, with no dot segment and no
        # authority (an xml:base of "e7/" on each entry of a feed): §5.2.2's
        # merge is the base's directory and the path, as the joiner writes it,
        # and the base below is an IRI already, so the target is one too: the
        # parse, the resolution and the IRI check are spared (40 µs a base)
        target = _joiner_of(below).join(value)
        if len(target) > MAX_BASE_LENGTH:
            raise UriError(f"resolved, it grows to {len(target)} characters, longer than a base may be "
                           f"({MAX_BASE_LENGTH})")
        scheme = below[:below.find(":")].lower()
        if serving and scheme in REFUSED_SCHEMES:  # (a base below that served is hierarchical: so is this)
            raise UriError(f"a {scheme}: URI cannot be a base")
        return target
    ref = UriReference.parse(value)
    if ref.scheme is None:
        if below is None:
            raise UriError(f"{shown(value)} is relative and there is no base below it to resolve it against")
        if not _hierarchical(below) and not value.startswith("#"):
            # §5.2.3 would merge it into an opaque path: not a reference an opaque base resolves
            raise UriError(f"{shown(value)} is relative, and the base below it, {shown(below)}, has an opaque path")
        ref = resolve(ref, below)
    else:
        ref = resolve(ref, ref)  # §5.2.2: an absolute reference still loses its dot segments
    target = str(ref._replace(fragment=None))
    if len(target) > MAX_BASE_LENGTH:
        raise UriError(f"resolved, it grows to {len(target)} characters, longer than a base may be ({MAX_BASE_LENGTH})")
    validate(target, "IRI")
    if serving:
        scheme = (ref.scheme or "").lower()
        if scheme in REFUSED_SCHEMES:
            raise UriError(f"a {scheme}: URI cannot be a base")
    return target


def directory_base(base: str, path: str) -> str:
    """The retrieval URI of a file found at ``path`` (relative, "/" between
    its segments) under a directory whose retrieval URI is ``base``: the
    base taken as a directory (a "/" added to a path lacking one), joined
    with the path's segments, each percent-encoded (RFC 3986 §2.1; a name
    that is not UTF-8 keeps its bytes, as ``%XX``), as a web server maps a
    mirror's files to URLs.  Raises :class:`UriError` when ``base`` cannot
    serve (:func:`as_base`)."""
    root = as_base(base, None)
    ref = UriReference.parse(root)
    if not ref.path.endswith("/"):
        root = str(ref._replace(path=ref.path + "/", query=None))
    else:
        root = str(ref._replace(query=None))
    segments = "/".join(_encoded(segment) for segment in path.split("/") if segment not in ("", "."))
    return root + segments


def retrieval_uri(under: str | None, base: str | None, fetched: str | None) -> tuple[str | None, str]:
    """The retrieval URI of an input (RFC 3986 §5.1.3: the bottom layer of
    its bases, below what the content says) and where it comes from, for
    the base's detail.  With ``base`` (``--base``, ``ScanOptions.base``), a
    file found at ``under`` in a directory the walk went through gets that
    base joined with its path there (:func:`directory_base`), and any other
    input the base itself; without one, ``fetched``, the URL the bytes were
    read from (a web input's after its redirects; an object in a store has none, as a file has none);
    else none.  A base that cannot serve is returned as it is, for its
    layer to refuse with a defect naming it."""
    if base is not None and under is not None:
        try:
            return directory_base(base, under), "--base joined with the file's path under the directory"
        except UriError:
            return base, "--base"
    if base is not None:
        return base, "--base"
    if fetched is not None:
        return fetched, "the URL the input was read from"
    return None, "--base"


#: the characters of RFC 3986's ``pchar`` a file name keeps as they are (§3.3)
_PCHAR = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@")


def _encoded(segment: str) -> str:
    """A file name as a path segment: what ``pchar`` does not allow percent-encoded (UTF-8)."""
    data = segment.encode("utf-8", "surrogateescape")
    return "".join(chr(b) if chr(b) in _PCHAR else f"%{b:02X}" for b in data)


#: a relative path of unreserved characters, sub-delims, "@", "/" and percent-encodings (RFC 3986 §3.3's pchar
#: and "/", but ":": a colon before the first "/" could be taken for a scheme's)
_PLAIN_PATH = patterns.compile(r"(?:[A-Za-z0-9\-._~!$&'()*+,;=@/]|%[0-9A-Fa-f]{2})+")


@lru_cache(maxsize=64)
def _hierarchical(base: str) -> bool:
    """Whether a base has an authority or a path from the root: a path joined
    onto it is hierarchical too (one onto ``mailto:a@b`` is not, and is the
    slow path's to refuse)."""
    ref = UriReference.parse(base)
    return ref.authority is not None or ref.path.startswith("/")


@lru_cache(maxsize=64)
def _joiner_of(base: str) -> Joiner:
    """The joiner of a base already checked (a layer's): parsed once for all its children."""
    return Joiner(UriReference.parse(base))


@dataclass(frozen=True, slots=True)
class BaseLayer:
    """The bases in force for some content: the innermost layer, pointing at
    the layer under it (see the module doc).  A frozen value: pushing a
    layer returns a new chain and leaves this one as it was, so a reader
    hands each part the chain around it, and any order of iteration over
    suspended readers gives the same records.

    ``current`` is the base in force at this layer: its own value when it
    set one that could serve, else the one in force under it.
    """

    current: Base | None = None
    under: BaseLayer | None = None

    @property
    def below(self) -> Base | None:
        """The base in force under this layer: what its own value resolved against."""
        return None if self.under is None else self.under.current

    @classmethod
    def holding(cls, base: Base | None) -> BaseLayer:
        """A chain of one layer that is already a base (or None): what an
        HTML form action or a codebase resolves against."""
        return cls(base)

    def push(self, value: str | None, source: BaseSource, detail: str = "", *, origin: Origin = NOWHERE,
             position: int | None = None, unit: Unit = Unit.CHARACTER, naming: bool = False
             ) -> tuple[BaseLayer, Defect | None]:
        """The chain with a layer whose base is ``value`` on top (None: the
        layer sets none, and the one below stays in force), and the defect
        naming ``origin`` when ``value`` cannot serve (the layer below then
        stays in force: nothing is resolved against a broken base).  What may
        serve is one rule for every layer (:func:`as_base`).  ``naming``: the
        value names the content rather than setting its base (a MIME part's
        ``Content-Location``, RFC 2557 §4.2, may be ``cid:`` or ``mid:``):
        one with no hierarchy then leaves the layer below in force without
        a defect, as nothing in the input is wrong."""
        below = self.current
        if value is None:
            return BaseLayer(below, self), None
        try:
            # a layer the content sets may have an opaque path (it resolves a fragment); a retrieval URI may not
            uri = as_base(value, below, opaque=not naming and source is not BaseSource.RETRIEVAL)
        except UriError as exc:
            if naming and isinstance(exc, NoHierarchy):
                return BaseLayer(below, self), None
            where = f" ({detail})" if detail else ""
            keeps = f"{below.source} base {shown(below.uri)}" if below is not None else "no base"
            return BaseLayer(below, self), Defect(
                DefectKind.BAD_BASE,
                f"{source} {shown(value)}{where} cannot serve as a base: {exc}; {keeps} stays in force",
                origin, position, unit)
        return BaseLayer(Base(uri, source, detail), self), None


#: the chain with no base at all
NO_BASE = BaseLayer()


def unresolved(record: Record) -> Defect:
    """The defect of a record that has a base and no target: the base's path
    is opaque (``mailto:``, ``about:blank``), and the reference is not
    fragment-only, the one kind such a base resolves (RFC 3986 §5.2.2; the
    WHATWG URL parser fails on the rest).  Where it stands: its span's start
    in the text, when computed."""
    base = record.base_layer
    assert base is not None
    span = record.span
    return Defect(DefectKind.BAD_BASE,
                  f"{shown(record.found.reference)} has no target: the {base.source} base {shown(base.uri)} has an "
                  "opaque path, against which only a fragment-only reference resolves (RFC 3986 §5.2.2)",
                  record.origin, span.start if span else None, Unit.CHARACTER)


def retrieval_layers(retrieval: str | None, origin: Origin = NOWHERE, *, detail: str = "--base",
                     default: str | None = None) -> tuple[BaseLayer, list[Defect]]:
    """The default and retrieval layers (4 and 3), and the defects of those
    that cannot serve; ``detail`` says where the retrieval URI came from
    (``--base``, ``WARC-Target-URI``)."""
    layer, first = NO_BASE.push(default, BaseSource.DEFAULT, "the default base", origin=origin)
    layer, second = layer.push(retrieval, BaseSource.RETRIEVAL, detail, origin=origin)
    return layer, [d for d in (first, second) if d is not None]
