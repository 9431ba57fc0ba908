"""Reference resolution: RFC 3986 §5.2 (rfc2396bis-01 as finalized) and the 1997
algorithm of draft-fielding-url-syntax-05 §5.2 (url-syntax-05, the RFC 2396 profile).

Undefined (``None``) and empty (``""``) components are kept apart in every step.
"""

from __future__ import annotations

from typing import Literal

from . import arguments as check
from . import patterns
from .errors import BaseUriError
from .reference import UriReference

Profile = Literal["rfc3986", "rfc2396"]

_parse = UriReference.parse


def remove_dot_segments(path: str) -> str:
    """RFC 3986 §5.2.4.

    The string-rewriting loop of the RFC, run with an index into the input
    instead of slicing it, and with the output buffer held as the list of
    moved segments (each with its leading "/"), so "remove the last segment"
    is a ``pop``.  Linear in ``len(path)``.  A test checks it against a
    literal transcription of the RFC's loop.
    """
    if type(path) is not str:
        check.text("remove_dot_segments", "path", path)
    if "/." not in path and not path.startswith("."):
        return path  # a dot segment starts the path or follows a "/": none here
    out: list[str] = []
    i = 0
    n = len(path)
    while i < n:
        c = path[i]
        if c == ".":
            # A. a prefix "../" or "./" is removed
            if path.startswith("../", i):
                i += 3
                continue
            if path.startswith("./", i):
                i += 2
                continue
            # D. an input that is exactly "." or ".." is removed
            if i + 1 == n or (i + 2 == n and path[i + 1] == "."):
                break
        elif c == "/" and i + 1 < n and path[i + 1] == ".":
            if i + 2 == n:  # B. "/." is replaced by "/"
                out.append("/")
                break
            c2 = path[i + 2]
            if c2 == "/":  # B. "/./" is replaced by "/"
                i += 2
                continue
            if c2 == "." and (i + 3 == n or path[i + 3] == "/"):
                # C. "/../" or "/.." is replaced by "/", and the last output
                #    segment (with its preceding "/") is removed
                if out:
                    out.pop()
                if i + 3 == n:
                    out.append("/")
                    break
                i += 3
                continue
        # E. move the first segment (with its leading "/", if any) to the output
        j = path.find("/", i + 1)
        if j == -1:
            j = n
        out.append(path[i:j])
        i = j
    return "".join(out)


def _merge(base: UriReference, ref_path: str) -> str:
    """RFC 3986 §5.2.3."""
    if base.authority is not None and base.path == "":
        return "/" + ref_path
    k = base.path.rfind("/")
    return base.path[: k + 1] + ref_path


def resolve(
    reference: str | UriReference,
    base: str | UriReference,
    *,
    strict: bool = True,
    profile: Profile = "rfc3986",
    remove_base_dot_segments: bool = False,
    keep_rootless: bool = False,
    guard_empty_first_segment: bool = True,
) -> UriReference:
    """Resolve ``reference`` against ``base``; ``str()`` of the result is the target.

    RFC 3986 §5.2.2 (the default, ``profile="rfc3986"``):

    - ``strict=False`` is the backward-compatible reading of §5.2.2, where a
      reference whose scheme equals the base's is treated as relative
      (``http:g`` → ``http://a/b/c/g``).
    - ``remove_base_dot_segments``: §5.2.1 allows normalizing the base first
      (its dot segments removed), which changes ``""``, ``?y``, ``#s`` against a
      base like ``http://a/b/./c``.
    - ``keep_rootless``: a rootless merged path (base ``foo:a/b``) stays
      rootless instead of gaining the "/" that §5.2.4's rule C leaves.
    - ``guard_empty_first_segment`` (on by default): a target without
      authority whose path would begin with "//" gets a "/." prefix, so that
      writing it back (§5.3) does not turn its first segment into a host:
      ``f:/a/`` + ``..//g`` gives ``f:/.//g``, as the WHATWG serializer
      writes it, where the literal algorithm gives ``f://g``, a URI whose
      host is ``g``.  ``False`` gives the literal algorithm.

    ``profile="rfc2396"`` is url-syntax-05's 1997 algorithm (§5.2 steps 1–7), whose
    Appendix C differs from RFC 3986: the query takes part in dot-segment
    removal, ``?y`` merges with the base directory, and unmatched ``..`` stays.

    Raises :class:`BaseUriError` when the base has no scheme (§5.1: a base URI
    must be absolute).
    """
    if type(reference) is not str:
        check.text("resolve", "reference", reference, also=(UriReference,), expected="a str or a UriReference")
    if type(base) is not str:
        check.text("resolve", "base", base, also=(UriReference,), expected="a str or a UriReference")
    if profile != "rfc3986":
        check.one_of("resolve", "profile", profile, ("rfc3986", "rfc2396"))
    if strict is not True or remove_base_dot_segments or keep_rootless or guard_empty_first_segment is not True:
        for name, value in (("strict", strict), ("remove_base_dot_segments", remove_base_dot_segments),
                            ("keep_rootless", keep_rootless), ("guard_empty_first_segment", guard_empty_first_segment)):
            check.flag("resolve", name, value)
    r = reference if isinstance(reference, UriReference) else _parse(reference)
    b = base if isinstance(base, UriReference) else _parse(base)
    base_scheme = b.scheme
    if base_scheme is None:
        raise BaseUriError(f"base URI {str(b)!r} has no scheme: a base must be an absolute URI (RFC 3986 §5.1)")
    if profile == "rfc2396":
        old = _resolve_2396(r, b)
        if guard_empty_first_segment and old.authority is None and old.path.startswith("//"):
            return old._replace(path="/." + old.path)  # the same guard (§5.3): a path never turns into a host
        return old
    if remove_base_dot_segments:
        b = b._replace(path=remove_dot_segments(b.path))

    scheme, authority, path, query, fragment = r
    if not strict and scheme is not None and scheme.lower() == base_scheme.lower():
        scheme = None
    if scheme is not None:
        path = remove_dot_segments(path)
    else:
        if authority is not None:
            path = remove_dot_segments(path)
        else:
            if path == "":
                path = b.path
                if query is None:
                    query = b.query
            else:
                if path.startswith("/"):
                    path = remove_dot_segments(path)
                else:
                    merged = _merge(b, path)
                    path = remove_dot_segments(merged)
                    if keep_rootless and not merged.startswith("/") and path.startswith("/"):
                        path = path[1:]
            authority = b.authority
        scheme = base_scheme
    if guard_empty_first_segment and authority is None and path.startswith("//"):
        path = "/." + path
    return tuple.__new__(UriReference, (scheme, authority, path, query, fragment))


# -- url-syntax-05 (1997) profile ------------------------------------------------------

# d) every "./" where "." is a complete segment (at the start or after "/")
_DOT_SLASH = patterns.compile(r"(?:^|(?<=/))\./")
# e) a trailing "." that is a complete segment
_TRAILING_DOT = patterns.compile(r"(?:^|(?<=/))\.$")


def _remove_segment_dotdot(buf: str) -> str:
    """url-syntax-05 §5.2 step 6 f) and g) in one left-to-right pass.

    f) removes, leftmost first and again until none is left, every
    "<segment>/../" whose segment is complete and not ".."; g) then removes
    one trailing "<segment>/..".  A stack of segments gives the same result
    in linear time (repeating a leftmost search would be quadratic).  A
    segment is what follows a "/" (empty ones included), or the start of a
    buffer that does not begin with "/"; the empty string before a leading
    "/" is no segment, so "/../g" stays as it is.
    """
    parts = buf.split("/")
    last = len(parts) - 1
    stack: list[str] = []
    # the empty string before a leading "/" is kept but can never be removed
    floor = 1 if parts[0] == "" and last > 0 else 0
    for i, part in enumerate(parts):
        if part == ".." and i < last and len(stack) > floor and stack[-1] != "..":
            stack.pop()  # f) "<segment>/../" -> "" (the "/" after ".." stays with what follows)
            continue
        stack.append(part)
    # g) a trailing "<segment>/.."
    if len(stack) >= 2 + floor and stack[-1] == ".." and stack[-2] != "..":
        del stack[-2:]
        return "/".join(stack) + ("/" if stack else "")
    return "/".join(stack)


def _resolve_2396(r: UriReference, b: UriReference) -> UriReference:
    """url-syntax-05 §5.2, steps 1–7, with the buffer rewritten exactly as described."""
    scheme, authority, path, query, fragment = r
    # 2) path empty, scheme/site/query undefined: the current document
    if path == "" and scheme is None and authority is None and query is None:
        return UriReference(b.scheme, b.authority, b.path, b.query, fragment)
    # 3) a scheme: absolute, done
    if scheme is not None:
        return r
    scheme = b.scheme
    # 4) a site: network path, skip to 7
    if authority is None:
        authority = b.authority
        # 5) an absolute path skips to 7; 6) otherwise merge in a buffer
        if not path.startswith("/"):
            k = b.path.rfind("/")
            # a), b); a base with an authority and an empty path merges as "/"
            # (RFC 3986 §5.2.3 says so; url-syntax-05 is silent, and "http://" +
            # "g" would otherwise make "g" the host)
            buf = ("/" if authority is not None and b.path == "" else b.path[: k + 1]) + path
            if query is not None:
                buf += "?" + query  # c)
            buf = _DOT_SLASH.sub("", buf)  # d)
            buf = _TRAILING_DOT.sub("", buf)  # e)
            buf = _remove_segment_dotdot(buf)  # f), g)
            path, qmark, q = buf.partition("?")  # h), i)
            query = q if qmark else None
    return UriReference(scheme, authority, path, query, fragment)
