"""Inputs in object stores and on the web: ``s3://``,
``gs://``/``gcs://``, ``az://``/``abfs://``, ``hdfs://`` through fsspec,
``http(s)://`` through :mod:`urisift.pipeline.web`; globs
(``s3://bucket/crawl/*.warc.gz``) and prefixes are listed by the store.
Each store's backend is an optional extra (``urisift[s3]`` ...); a missing
one is a one-line message naming it, before any input is read.

- Reads stream: a file is opened for reading and read as it is scanned,
  never downloaded whole first; a large mbox or WARC is cut into ranges as a
  local one is, each range read with range requests (the files seek).
- Credentials come from each backend's own chain (environment, profile,
  instance role; ``FSSPEC_S3_ENDPOINT_URL`` and the like for a private
  endpoint); nothing here reads or prints them, and a URL with userinfo is
  shown without it (:func:`shown`) in records, defects and messages.
- Every wait is bounded (a server that never answers must not hang the run): :func:`configure` sets the timeout
  (``--timeout``) of the web's reads (:mod:`urisift.pipeline.web`) and of S3's
  connections and reads; the backends' own retries are off, so that the
  policy here is the only one.
- A call that fails is an ``OSError`` whose text says why, in words (no
  credentials, no such host, connection refused, the HTTP status, a
  timeout: :func:`failure`), never a backend's traceback.  One that may
  pass (a timeout while reading, a connection cut, a 5xx or 429 answer,
  throttling) is tried again at the same offset with back-off
  (:data:`RETRIES` attempts in all); one that will not (no credentials, no
  such host or object, refused, denied) is not.  The scan makes it an
  ``unreadable`` defect for that input, and the others go on.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from typing import Any, BinaryIO

from ..uri import patterns

#: URL schemes read through fsspec, and the extra that brings each backend
BACKENDS = {"s3": ("s3fs", "s3"), "s3a": ("s3fs", "s3"), "gs": ("gcsfs", "gcs"), "gcs": ("gcsfs", "gcs"),
            "az": ("adlfs", "azure"), "abfs": ("adlfs", "azure"), "abfss": ("adlfs", "azure"),
            "hdfs": ("pyarrow", "hdfs")}
#: URL schemes read through the standard library (:mod:`urisift.pipeline.web`)
WEB = frozenset({"http", "https"})
#: attempts of a call that fails for a reason that may pass, and the first pause between them (doubled each time)
RETRIES = 4
BACKOFF = 0.5
#: the default of --timeout: seconds to connect, for an answer, and for each stretch of a body (urisift.pipeline.web)
TIMEOUT = 30.0
_settings = {"timeout": TIMEOUT}
_URL = patterns.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_USERINFO = patterns.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^/@?#]*@")
_GLOB = patterns.compile(r"[*?\[]")
_URL_ROOT = patterns.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://[^/?#]*")
# what a listing said of each object's size (a path -> bytes): a small object then costs
# one request (its GET), not three (a HEAD for the plan, a HEAD on open, the GET)
_SIZES: dict[str, int] = {}
_SIZES_KEPT = 1 << 20


def scheme_of(path: str) -> str | None:
    m = _URL.match(path)
    return None if m is None else m.group(1).lower()


def is_remote(path: str) -> bool:
    """Whether ``path`` names an object store's or a web server's file."""
    scheme = scheme_of(path)
    return scheme in BACKENDS or scheme in WEB


def configure(timeout: float) -> None:
    """This process's network limit (``--timeout``; :class:`~urisift.pipeline.scan.ScanOptions` ``timeout``):
    set by the command, and by each unit's scan (a worker's, a Spark task's)."""
    _settings["timeout"] = timeout


def local_path(path: str) -> str:
    """A ``file://`` URL as the local path it names (others unchanged)."""
    if path.lower().startswith("file://"):
        rest = path[7:]
        return rest if rest.startswith("/") else "/" + rest.partition("/")[2]
    return path


def shown(path: str) -> str:
    """``path`` as records and messages show it: a URL without its userinfo."""
    return _USERINFO.sub(r"\1", path) if "@" in path else path


def missing_backend(path: str) -> str | None:
    """The one-line message for a URL whose backend is not installed; None when it is."""
    scheme = scheme_of(path)
    if scheme not in BACKENDS:
        return None  # (the web needs no backend: urisift.pipeline.web)
    module, extra = BACKENDS[scheme]
    try:
        __import__("fsspec")
        __import__(module)
    except ImportError:
        return f"reading {scheme}:// inputs needs fsspec and {module}: pip install 'urisift[{extra}]'"
    return None


def _filesystem(path: str) -> tuple[Any, str]:
    """The backend's filesystem (fsspec caches one per set of options) and the path in it (no glob expanded)."""
    from fsspec.core import url_to_fs

    options: dict[str, Any] = {}
    if scheme_of(path) in ("s3", "s3a"):
        # botocore's limits, and no retries of its own (s3fs's are switched off below): ours are the policy
        import fsspec.config

        timeout = _settings["timeout"]
        configured = fsspec.config.conf.get("s3", {}).get("config_kwargs", {})
        options["config_kwargs"] = {"connect_timeout": timeout, "read_timeout": timeout,
                                    "retries": {"max_attempts": 1}, **configured}
    fs, inner = url_to_fs(path, **options)
    if hasattr(fs, "retries"):
        fs.retries = 1
    return fs, inner


def expand(path: str) -> list[str]:
    """The files a remote path names: itself, what a glob matches, or what
    is under a prefix ending in ``/``, sorted, as URLs; OSError naming why
    the store could not list them."""
    if scheme_of(path) in WEB:
        return [path]  # a web server lists nothing
    urls: list[str] = _attempt(lambda: _expand(path), retry=None)
    return urls


def key_under(path: str, url: str) -> str | None:
    """The path of ``url`` under the prefix or glob ``path`` it was listed
    from (what follows the prefix, or the glob's directory), as a file's
    path under a directory walked; None for the object ``path`` names itself."""
    head = _GLOB.split(path, maxsplit=1)[0]
    root = head.rstrip("/") + "/" if head == path else head.rpartition("/")[0] + "/"
    return url[len(root):] if url != path and url.startswith(root) else None


def _expand(path: str) -> list[str]:
    fs, inner = _filesystem(path)
    scheme = scheme_of(path) or ""
    if _GLOB.search(inner):
        listed = fs.glob(inner, detail=True)
    elif path.endswith("/") or _isdir(fs, inner):
        listed = fs.find(inner, detail=True)
    else:
        return [path]
    if len(_SIZES) > _SIZES_KEPT:
        _SIZES.clear()
    urls = []
    for name, info in sorted(listed.items()):
        if info.get("type") == "directory":
            continue
        url = f"{scheme}://{name}"
        if isinstance(info.get("size"), int):
            _SIZES[url] = info["size"]
        urls.append(url)
    return urls


def _isdir(fs: Any, inner: str) -> bool:
    """Whether a path with no glob and no trailing "/" names a prefix; when the
    store cannot say, it is taken for a file, whose reading says why."""
    try:
        return bool(fs.isdir(inner))
    except Exception:  # noqa: BLE001 - a backend raises its own kinds
        return False


def size(path: str) -> int:
    """The size of a remote file in bytes (0: not known); OSError naming why it could not be asked."""
    known = _SIZES.get(path)
    if known is not None:
        return known
    _SIZES[path] = 0  # asked once: a store or server that fails is not asked again by each caller
    if scheme_of(path) in WEB:
        found = _attempt(lambda: _web_size(path), retry=None) or 0
    else:
        fs, inner = _attempt(lambda: _filesystem(path), retry=None)
        found = int(_attempt(lambda: fs.size(inner), retry=None) or 0)
    _SIZES[path] = found
    return found


def _web_size(path: str) -> int | None:
    from .web import WebFile

    with WebFile(path, _settings["timeout"]) as f:
        return f.size


def failure(exc: BaseException) -> tuple[str, bool]:
    """Why a backend call failed, in words (never a traceback), and whether a
    second attempt may do better.  The backends' exceptions are told apart
    by their class names along the chain of causes, so that none of their
    packages is imported here."""
    from .web import WebError  # (imported by the first web input: http.client and ssl cost a run's start)

    if isinstance(exc, WebError):
        return exc.reason, exc.transient
    chain: list[BaseException] = []
    cause: BaseException | None = exc
    while cause is not None and len(chain) < 8:
        chain.append(cause)
        cause = cause.__cause__ or cause.__context__
    names = {base.__name__ for c in chain for base in type(c).__mro__}
    root = chain[-1]
    said = " ".join(str(exc).split())[:300]
    if names & {"NoCredentialsError", "PartialCredentialsError", "DefaultCredentialsError",
                "ClientAuthenticationError", "CredentialRetrievalError"}:
        return ("no credentials: the store's backend found none (its environment variables, profile or instance "
                f"role; {said})", False)
    if "EndpointConnectionError" in names or "ConnectTimeoutError" in names:
        import socket  # (only here: a run that reads no store spares the module's import)

        why = ("no such host" if isinstance(root, socket.gaierror) else "connection refused"
               if isinstance(root, ConnectionRefusedError) else "timed out" if "ConnectTimeoutError" in names
               else getattr(root, "strerror", None) or type(root).__name__)
        endpoint = getattr(exc, "kwargs", {}).get("endpoint_url") or ""
        m = _URL_ROOT.match(endpoint)
        return f"cannot connect to the store's endpoint{' ' + m.group() if m else ''} ({why})", False
    if names & {"ReadTimeoutError", "TimeoutError", "FSTimeoutError", "ServerTimeoutError"}:
        return f"timed out: nothing came for {_settings['timeout']:g} s (--timeout)", True
    if "ClientError" in names:
        response = getattr(exc, "response", None) or {}
        status = response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0
        code = response.get("Error", {}).get("Code", "")
        return said, status >= 500 or status == 429 or code in ("SlowDown", "Throttling", "RequestTimeout")
    if isinstance(exc, FileNotFoundError):
        return "no such file or object", False
    if isinstance(exc, PermissionError):
        return f"access denied ({said})" if said else "access denied", False
    if isinstance(exc, OSError):
        return exc.strerror or said or type(exc).__name__, True
    return f"{type(exc).__name__}: {said}" if said else type(exc).__name__, False


def _attempt(step: Callable[[], Any], retry: Callable[[], None] | None) -> Any:
    """``step()``; when it fails for a reason that may pass, again, with
    back-off, :data:`RETRIES` attempts in all (``retry`` readies the next
    one: reopen, seek); then an OSError saying why.  ``retry=None``: one
    attempt of a listing or a size, whose caller reports it."""
    pause = BACKOFF
    attempts = RETRIES if retry is not None else 1
    for attempt in range(attempts):
        try:
            return step()
        except Exception as exc:  # noqa: BLE001 - a backend raises its own kinds: each one becomes a reason
            reason, transient = failure(exc)
            error = exc
            if not transient or attempt + 1 == attempts:
                break
            time.sleep(pause)
            pause *= 2
            try:
                assert retry is not None
                retry()
            except Exception as again:  # noqa: BLE001 - the same
                reason, transient = failure(again)
                error = again
                if not transient:
                    break
    raise OSError(f"{reason} (after {attempt + 1} attempts)" if attempt else reason) from error


class Retrying(io.RawIOBase):
    """A remote file read with retries: a read that fails is tried again at
    the same offset (the file reopened), with back-off, before it fails."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        self.position = 0
        self._file: Any = None
        self._file = _attempt(self._open, lambda: None)  # (each attempt opens it anew)

    def _again(self) -> None:
        if self._file is not None:
            self._file.close()
        self._file = self._open()
        self._file.seek(self.position)

    def _open(self) -> Any:
        if scheme_of(self.path) in WEB:
            from .web import WebFile

            return WebFile(self.path, _settings["timeout"])
        fs, inner = _filesystem(self.path)
        known = _SIZES.get(self.path)
        if known:  # (0: empty, or not known: the backend asks)
            try:
                return fs.open(inner, "rb", size=known)  # the listing's size: no HEAD first
            except TypeError:
                pass  # a backend whose open takes no size
        return fs.open(inner, "rb")

    @property
    def url(self) -> str:
        """Where the bytes come from: a web input's URL after its redirects
        (the last answer's), else the path it was opened by."""
        return getattr(self._file, "url", self.path) if scheme_of(self.path) in WEB else self.path

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self.position = _attempt(lambda: self._file.seek(offset, whence), self._again)
        return self.position

    def readinto(self, buffer: Any) -> int:
        data = _attempt(lambda: self._file.read(len(buffer)), self._again)
        n = len(data)
        buffer[:n] = data
        self.position += n
        return n

    def close(self) -> None:
        try:
            if self._file is not None:
                self._file.close()
        finally:
            super().close()


def retrieved(stream: object) -> str | None:
    """The URL a web input (``http(s)://``) that :func:`open_remote` opened
    reads from, after its redirects and without its userinfo (:func:`shown`):
    where the page was published, its retrieval URI (RFC 3986 §5.1.3).  None
    for any other stream: a local file's, and an object store's, whose URL
    (``s3://bucket/key``) names where the bytes are kept, as a file's path
    does, not where they were published (``//cdn/x`` against it would be
    ``s3://cdn/x``); ``--base`` maps a store's prefix as it maps a directory."""
    raw = getattr(stream, "raw", None)
    return shown(raw.url) if isinstance(raw, Retrying) and scheme_of(raw.path) in WEB else None


def open_remote(path: str) -> BinaryIO:
    """A remote file opened for streaming reads (buffered, seekable by range requests)."""
    return io.BufferedReader(Retrying(path), buffer_size=1 << 20)
