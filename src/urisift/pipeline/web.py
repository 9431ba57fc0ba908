"""HTTP(S) inputs: a URL read as a file, through the
standard library's ``http.client``, so that every wait on the server is
bounded and every failure says why.

- Limits (``timeout`` seconds, ``--timeout``): connecting (TCP, TLS) takes
  at most ``timeout``; an answer's status line and headers arrive within
  ``timeout`` of the request; its body brings at least :data:`FLOOR` bytes
  in every ``timeout`` seconds spent waiting for it (the low-speed limit of
  curl's ``--speed-limit``/``--speed-time``), so a server that accepts and
  never answers, or sends a byte a second, is cut off.  The wait for the
  next bytes is bounded by the socket's timeout; the rest by a watchdog
  thread that shuts the socket down when a limit passes (a blocked read
  then returns at once), since a trickle never lets a socket time out.
  Only time spent waiting on the server counts, not the scan's own.
- A file streams through one GET; a seek elsewhere asks for the rest from
  there (a ``Range`` request, RFC 9110 §14.2); a server that ignores
  ranges is read forward to the offset.  Redirects (301, 302, 303, 307,
  308) are followed, :data:`REDIRECTS` at most.  ``Accept-Encoding:
  identity``: the bytes are the resource's own (a ``.gz`` stays gzip, and
  the scan decompresses it as it does a local one).
- Failures are :class:`WebError` (an ``OSError``) with the reason in words
  (no such host, connection refused, the HTTP status, which limit passed)
  and whether it may pass on a second attempt (``transient``: a timeout
  on reading a body, a connection cut, a 5xx or 429 answer), which
  :mod:`urisift.pipeline.remote` retries; a server that cannot be reached, or that
  does not answer a request within the limit, is not asked again.  No proxy
  is used.
"""

from __future__ import annotations

import contextlib
import http.client
import io
import socket
import ssl
import threading
import time
from urllib.parse import urljoin, urlsplit

#: bytes a body must bring in every ``timeout`` seconds spent waiting for it
FLOOR = 1024
#: redirects followed before the answer is refused
REDIRECTS = 10
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
#: how often the watchdog looks (seconds)
_TICK = 0.1


class WebError(OSError):
    """An HTTP(S) input that could not be read: why, in words, and whether
    a second attempt may do better."""

    def __init__(self, reason: str, *, transient: bool = False) -> None:
        super().__init__(reason)
        self.reason = reason
        self.transient = transient

    def __str__(self) -> str:
        return self.reason


class _Watch:
    """The watchdog of one connection: counts the time spent waiting on the
    server (``busy``) and the bytes it brought, and shuts the socket down
    when a limit of the module doc passes."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.sock: socket.socket | None = None
        self.busy = False
        self.headers = True  # waiting for the status line and headers (else for the body)
        self.got = 0  # body bytes in this window
        self.waited = 0.0  # seconds spent waiting in this window
        self.expired: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="urisift-web-watch", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        last = time.monotonic()
        while not self._stop.wait(_TICK):
            now = time.monotonic()
            if self.busy:
                self.waited += now - last
                if self.waited >= self.timeout:
                    if self.headers:
                        self._expire(f"no answer within {self.timeout:g} s of the request (--timeout)")
                    elif not self.got:
                        self._expire(f"timed out: nothing came for {self.timeout:g} s (--timeout)")
                    elif self.got < FLOOR:
                        self._expire(f"too slow: less than {FLOOR} bytes in {self.timeout:g} s (--timeout)")
                    self.waited, self.got = 0.0, 0
            last = now

    def _expire(self, reason: str) -> None:
        self.expired = reason
        sock = self.sock
        if sock is not None:
            with contextlib.suppress(OSError):  # closed already
                sock.shutdown(socket.SHUT_RDWR)

    def stop(self) -> None:
        self._stop.set()


class WebFile:
    """An HTTP(S) resource read as a file (see the module doc): ``read``,
    ``seek``, ``tell``, ``close``, as the backends' files that
    :class:`urisift.pipeline.remote.Retrying` reads are."""

    def __init__(self, url: str, timeout: float) -> None:
        self.url = url
        self.timeout = timeout
        self.size: int | None = None
        self.position = 0
        self._response: http.client.HTTPResponse | None = None
        self._connection: http.client.HTTPConnection | None = None
        self._watch: _Watch | None = None
        self._left: int | None = None  # body bytes still to come, when the answer said
        self._request(0)

    def __enter__(self) -> WebFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_CUR:
            offset += self.position
        elif whence == io.SEEK_END:
            if self.size is None:
                raise WebError("the server gave no size: cannot seek from the end")
            offset += self.size
        if offset != self.position:
            self._hang_up()
            self.position = max(0, offset)
        return self.position

    def read(self, size: int = -1) -> bytes:
        """Up to ``size`` bytes (what one wait on the server brings); all that is left with -1."""
        if size >= 0:
            buffer = bytearray(size)
            return bytes(buffer[:self._into(buffer)])
        parts = []
        while part := self.read(1 << 16):
            parts.append(part)
        return b"".join(parts)

    def _into(self, buffer: bytearray) -> int:
        if not buffer:
            return 0
        if self._response is None:
            if self.size is not None and self.position >= self.size:
                return 0
            self._request(self.position)
        response, watch = self._response, self._watch
        assert response is not None and watch is not None
        if self._left == 0:
            return 0
        watch.busy = True
        try:
            data = response.read1(len(buffer))
        except (OSError, http.client.HTTPException) as exc:
            raise self._failure(exc, reading=True) from exc
        finally:
            watch.busy = False
        if watch.expired is not None:
            raise WebError(f"{watch.expired}, at byte {self.position}", transient=True)
        if not data and self._left:
            raise WebError(f"the connection closed {self._left} bytes before the end the answer gave "
                           f"(at byte {self.position})", transient=True)
        n = len(data)
        buffer[:n] = data
        watch.got += n
        self.position += n
        if self._left is not None:
            self._left -= n
        return n

    def close(self) -> None:
        self._hang_up()

    # -- requests

    def _hang_up(self) -> None:
        if self._watch is not None:
            self._watch.stop()
            self._watch = None
        if self._connection is not None:
            self._connection.close()
        self._connection = self._response = None

    def _request(self, start: int) -> None:
        """Ask for the resource from byte ``start`` on (following redirects)."""
        url = self.url
        for _ in range(REDIRECTS + 1):
            response = self._get(url, start)
            status = response.status
            if status in _REDIRECT_STATUSES and response.getheader("Location"):
                url = urljoin(url, response.getheader("Location", ""))
                self._hang_up()
                continue
            if status == 416 and start:  # a range past the end: nothing left
                self._left = 0
                return
            if status >= 400:
                self._hang_up()
                raise WebError(f"HTTP {status} {response.reason}".rstrip(), transient=status >= 500 or status == 429)
            if status not in (200, 206):
                self._hang_up()
                raise WebError(f"HTTP {status} {response.reason}: not the resource's bytes".rstrip())
            self.url = url  # later ranges go where the redirects ended
            self._left = response.length  # (None: chunked, or closed at the end)
            if status == 206:
                total = (response.getheader("Content-Range") or "").rpartition("/")[2]
                self.size = int(total) if total.isdigit() else self.size
            elif self._left is not None:
                self.size = self._left
            if status == 200 and start:  # the server ignores ranges: read forward to the offset
                self.position = 0
                while self.position < start:
                    if not self._into(bytearray(min(1 << 16, start - self.position))):
                        break
            return
        raise WebError(f"more than {REDIRECTS} redirects")

    def _get(self, url: str, start: int) -> http.client.HTTPResponse:
        parts = urlsplit(url)
        host = parts.hostname or ""
        secure = parts.scheme.lower() == "https"
        port = parts.port or (443 if secure else 80)
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        connection: http.client.HTTPConnection = (
            http.client.HTTPSConnection(host, port, timeout=self.timeout, context=ssl.create_default_context())
            if secure else http.client.HTTPConnection(host, port, timeout=self.timeout))
        self._connection = connection
        watch = self._watch = _Watch(self.timeout)
        try:
            connection.connect()
        except (OSError, http.client.HTTPException) as exc:
            self._hang_up()
            raise _connect_failure(exc, host, port, self.timeout) from exc
        watch.sock = connection.sock
        headers = {"Accept-Encoding": "identity", "User-Agent": "urisift"}
        if start:
            headers["Range"] = f"bytes={start}-"
        watch.busy = True
        try:
            connection.request("GET", target, headers=headers)
            response = connection.getresponse()
        except (OSError, http.client.HTTPException) as exc:
            failure = self._failure(exc, reading=False)
            self._hang_up()
            raise failure from exc
        finally:
            watch.busy = False
        if watch.expired is not None:
            self._hang_up()
            raise WebError(watch.expired)  # a server that did not answer once is not asked again
        watch.headers = False
        watch.waited = 0.0
        self._response = response
        return response

    def _failure(self, exc: BaseException, *, reading: bool) -> WebError:
        """What went wrong while waiting for an answer or its body."""
        watch = self._watch
        if watch is not None and watch.expired is not None:
            # no answer at all is not asked for again; a body that stalls or trickles is (a second
            # attempt reads on from where it stopped)
            return WebError(watch.expired + (f", at byte {self.position}" if reading else ""), transient=reading)
        where = f" at byte {self.position}" if reading else ""
        if isinstance(exc, TimeoutError) and not reading:  # (the socket's timeout, before the watchdog's)
            return WebError(f"no answer within {self.timeout:g} s of the request (--timeout)")
        if isinstance(exc, TimeoutError):
            return WebError(f"timed out: nothing came for {self.timeout:g} s{where} (--timeout)", transient=True)
        if isinstance(exc, ConnectionResetError):
            return WebError(f"the server reset the connection{where}", transient=True)
        if isinstance(exc, http.client.RemoteDisconnected):
            return WebError("the server closed the connection without an answer", transient=True)
        if isinstance(exc, http.client.IncompleteRead):
            return WebError(f"the answer was cut short{where}", transient=True)
        if isinstance(exc, http.client.HTTPException):
            return WebError(f"not an HTTP answer: {type(exc).__name__}: {exc}"[:200])
        return WebError(f"{exc.strerror or exc}{where}" if isinstance(exc, OSError) else str(exc), transient=True)


def _connect_failure(exc: BaseException, host: str, port: int, timeout: float) -> WebError:
    """Why a connection could not be made: DNS, refused, timed out, TLS."""
    if isinstance(exc, socket.gaierror):
        return WebError(f"no such host: {host} (DNS: {exc.strerror or exc})")
    if isinstance(exc, ConnectionRefusedError):
        return WebError(f"connection refused by {host}:{port}")
    if isinstance(exc, TimeoutError):
        return WebError(f"timed out connecting to {host}:{port} after {timeout:g} s (--timeout)")
    if isinstance(exc, ssl.SSLCertVerificationError):
        return WebError(f"TLS: the certificate of {host} cannot be trusted ({exc.verify_message})")
    if isinstance(exc, ssl.SSLError):
        return WebError(f"TLS with {host}:{port} failed ({exc.reason or exc})")
    if isinstance(exc, OSError):
        return WebError(f"cannot connect to {host}:{port} ({exc.strerror or exc})")
    return WebError(f"cannot connect to {host}:{port} ({type(exc).__name__}: {exc})")


def web_size(url: str, timeout: float) -> int | None:
    """The size of the resource at ``url`` (a GET whose body is not read:
    its Content-Length), or None when the server does not say."""
    with WebFile(url, timeout) as f:
        return f.size


__all__ = ["FLOOR", "REDIRECTS", "WebError", "WebFile", "web_size"]
