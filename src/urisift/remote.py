"""Inputs in object stores and on the web (issue 22), through fsspec:
``s3://``, ``gs://``/``gcs://``, ``az://``/``abfs://``, ``hdfs://``,
``http(s)://``; globs (``s3://bucket/crawl/*.warc.gz``) and prefixes are
listed by the store.  Each backend is an optional extra (``urisift[s3]``
...); a missing one is a one-line message naming it, before any input is read.

- Reads stream: a file is opened for reading and read as it is scanned,
  never downloaded whole first; a large mbox or WARC is cut into ranges as a
  local one is, each range read with range requests (fsspec's files seek).
- Credentials come from each backend's own chain (environment, profile,
  instance role; ``FSSPEC_S3_ENDPOINT_URL`` and the like for a private
  endpoint); nothing here reads or prints them, and a URL with userinfo is
  shown without it (:func:`shown`) in records, defects and messages.
- A read that fails midway is retried at the same offset with back-off
  (:data:`RETRIES`), then is an ``OSError`` naming the reason: the scan
  makes it an ``unreadable`` defect for that input, and the others go on.
"""

from __future__ import annotations

import io
import re
import time
from typing import Any, BinaryIO

#: URL schemes read through fsspec, and the extra that brings each backend
BACKENDS = {"s3": ("s3fs", "s3"), "s3a": ("s3fs", "s3"), "gs": ("gcsfs", "gcs"), "gcs": ("gcsfs", "gcs"),
            "az": ("adlfs", "azure"), "abfs": ("adlfs", "azure"), "abfss": ("adlfs", "azure"),
            "hdfs": ("pyarrow", "hdfs"), "http": ("aiohttp", "http"), "https": ("aiohttp", "http")}
#: attempts of a read that fails, and the first pause between them (doubled each time)
RETRIES = 4
BACKOFF = 0.5
_URL = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")
_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)[^/@?#]*@")
_GLOB = re.compile(r"[*?\[]")
# what a listing said of each object's size (a path -> bytes): a small object then costs
# one request (its GET), not three (a HEAD for the plan, a HEAD on open, the GET)
_SIZES: dict[str, int] = {}
_SIZES_KEPT = 1 << 20


def scheme_of(path: str) -> str | None:
    m = _URL.match(path)
    return None if m is None else m.group(1).lower()


def is_remote(path: str) -> bool:
    """Whether ``path`` names an object store's or a web server's file."""
    return scheme_of(path) in BACKENDS


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
        return None
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

    fs, inner = url_to_fs(path)
    return fs, inner


def expand(path: str) -> list[str]:
    """The files a remote path names: itself, what a glob matches, or what
    is under a prefix ending in ``/``, sorted, as URLs."""
    fs, inner = _filesystem(path)
    scheme = scheme_of(path) or ""
    if scheme in ("http", "https"):
        return [path]  # a web server lists nothing
    if _GLOB.search(inner):
        listed = fs.glob(inner, detail=True)
    elif path.endswith("/") or fs.isdir(inner):
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


def size(path: str) -> int:
    known = _SIZES.get(path)
    if known is not None:
        return known
    fs, inner = _filesystem(path)
    return int(fs.size(inner) or 0)


class Retrying(io.RawIOBase):
    """A remote file read with retries: a read that fails is tried again at
    the same offset (the file reopened), with back-off, before it fails."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        self.position = 0
        self._file: Any = self._open()

    def _open(self) -> Any:
        fs, inner = _filesystem(self.path)
        known = _SIZES.get(self.path)
        if known is not None:
            try:
                return fs.open(inner, "rb", size=known)  # the listing's size: no HEAD first
            except TypeError:
                pass  # a backend whose open takes no size
        return fs.open(inner, "rb")

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        self.position = self._attempt(lambda: self._file.seek(offset, whence))
        return self.position

    def readinto(self, buffer: Any) -> int:
        data = self._attempt(lambda: self._file.read(len(buffer)))
        n = len(data)
        buffer[:n] = data
        self.position += n
        return n

    def _attempt(self, step: Any) -> Any:
        pause = BACKOFF
        for attempt in range(RETRIES):
            try:
                return step()
            except (OSError, RuntimeError, ValueError) as exc:
                reason = exc
                if attempt + 1 == RETRIES or isinstance(exc, FileNotFoundError):
                    break
                time.sleep(pause)
                pause *= 2
                try:
                    self._file.close()
                    self._file = self._open()
                    self._file.seek(self.position)
                except (OSError, RuntimeError, ValueError) as again:
                    reason = again
        message = getattr(reason, "strerror", None) or str(reason) or type(reason).__name__
        raise OSError(f"{shown(self.path)}: {message} (after {RETRIES} attempts)") from reason

    def close(self) -> None:
        try:
            self._file.close()
        finally:
            super().close()


def open_remote(path: str) -> BinaryIO:
    """A remote file opened for streaming reads (buffered, seekable by range requests)."""
    try:
        raw = Retrying(path)
    except (RuntimeError, ValueError) as exc:
        raise OSError(f"{shown(path)}: {exc}") from exc
    return io.BufferedReader(raw, buffer_size=1 << 20)
