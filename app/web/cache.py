"""The hall's answers kept as sent, per version of the file, in front of the application.

The pages of one version of the file are rendered once (:mod:`app.web.site`); this layer keeps the
*answer* to each page request — status, headers (the security headers included) and the compressed or
plain body — so that the next phone asking for the same page gets those bytes straight away: no routing,
no page lookup, no header building. When the file changes (a new version) everything kept is dropped.
A request that carries the ``If-None-Match`` of the kept answer gets 304 with no body.

Only what the application marks as shareable is kept: a 200 with a ``Content-Length``, no ``no-store``
and either the current ``X-Hall-Version`` (a page) or a ``max-age`` (the stylesheet and script).
Deputies' pages (``no-store``) and anything with a cookie go through to the application every time.
What is kept is bounded (entries and bytes; answers to a query other than ``?part=main`` — searches —
have a smaller budget of their own, so that random searches cannot crowd the pages out), and so is the
work a single address can cause:

- every request counts against its address's bucket (``rate`` a second, ``burst`` at once: a phone
  opening pages as fast as a thumb can tap stays far below it);
- a request that reaches the application (a page not yet rendered, a search) counts against a second,
  smaller bucket, since it may need a page rendered in the server's worker thread.

Beyond either: 429 with ``Retry-After``.

**The fast path.** With uvicorn's httptools protocol, a kept answer is sent from the protocol itself
(:class:`FastPathMixin`): as soon as a request's headers are parsed, the kept bytes — status line,
headers, the date of the second, body — are written in one piece, without a task, an ASGI cycle or any
header being built again. The answer is the same as through the application (a test compares them);
everything not kept takes the ordinary way.
"""

from __future__ import annotations

import http
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.web.app import SECURITY_HEADERS, RateLimiter

PAGE_QUERIES = (b"", b"part=main")  # a page and its <main>; any other query is a search
MAX_QUERY_BYTES = 200
NOT_MODIFIED_DROPS = (b"content-length", b"content-type", b"content-encoding")
TOO_MANY = "请求过于频繁，请稍后再试 (too many requests; try again shortly)".encode()


@dataclass(frozen=True, slots=True)
class Kept:
    start: Message  # http.response.start, as the application sent it
    body: Message  # http.response.body
    not_modified: Message  # the 304 for a matching If-None-Match
    etag: bytes | None
    size: int
    raw: bytes  # the status line and headers, as written (without the date and the blank line)
    raw_not_modified: bytes


def _raw_head(status: int, headers: list[tuple[bytes, bytes]]) -> bytes:
    phrase = http.HTTPStatus(status).phrase.encode()
    lines = [b"HTTP/1.1 %d %s\r\n" % (status, phrase)]
    lines += [name.lower() + b": " + value + b"\r\n" for name, value in headers]
    return b"".join(lines)


TOO_MANY_RAW = (
    _raw_head(
        429,
        [
            (b"content-type", b"text/plain; charset=utf-8"),
            (b"content-length", str(len(TOO_MANY)).encode()),
            (b"retry-after", b"5"),
            (b"cache-control", b"no-store"),
            *SECURITY_HEADERS,
        ],
    )
    + b"\r\n"
    + TOO_MANY
)


class PageCache:
    """ASGI middleware: kept answers per version (see the module's text)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        version: Callable[[], int | None],
        host_allowed: Callable[[str], bool],
        max_entries: int = 5000,
        max_searches: int = 1000,
        max_bytes: int = 64 * 1024 * 1024,
        rate: tuple[float, int] = (20.0, 120),
        miss_rate: tuple[float, int] = (5.0, 40),
    ) -> None:
        self.app = app
        self.current_version = version
        self.host_allowed = host_allowed
        self.max_entries, self.max_searches, self.max_bytes = max_entries, max_searches, max_bytes
        self.searches = 0  # kept answers to a search
        self.requests = RateLimiter(rate=rate[0], burst=rate[1])
        self.misses = RateLimiter(rate=miss_rate[0], burst=miss_rate[1])
        self.entries: dict[tuple[str, bytes, bool], Kept] = {}
        self.version: int | None = None
        self.size = 0
        self._hosts: dict[bytes, bool] = {}
        self.hits = self.passed = self.refused = 0

    def _clear(self, version: int | None) -> None:
        self.entries.clear()
        self.size = self.searches = 0
        self.version = version

    def _host_ok(self, host: bytes) -> bool:
        ok = self._hosts.get(host)
        if ok is None:
            ok = self.host_allowed(host.decode("latin-1"))
            if len(self._hosts) > 256:
                self._hosts.clear()
            self._hosts[host] = ok
        return ok

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope["client"][0] if scope.get("client") else "?"
        if not self.requests.allow(client):
            await self._too_many(send)
            return
        version = self.current_version()
        if version != self.version:
            self._clear(version)
        method, query = scope["method"], scope["query_string"]
        shareable = (method == "GET" or method == "HEAD") and len(query) <= MAX_QUERY_BYTES
        if shareable:
            host = match = None
            gzip = False
            for name, value in scope["headers"]:
                if name == b"host":
                    host = value
                elif name == b"accept-encoding":
                    gzip = b"gzip" in value
                elif name == b"if-none-match":
                    match = value
            key = (scope["path"], query, gzip)
            kept = self.entries.get(key)
            if kept is not None and host is not None and self._host_ok(host):
                self.hits += 1
                if match is not None and match == kept.etag:
                    await send(kept.not_modified)
                    await send({"type": "http.response.body", "body": b""})
                else:
                    await send(kept.start)
                    await send(kept.body)
                return
        if not self.misses.allow(client):
            await self._too_many(send)
            return
        self.passed += 1
        if not shareable or method != "GET" or version is None:
            await self.app(scope, receive, send)
            return
        await self.app(scope, receive, self._keeper(send, key, version))

    def _keeper(self, send: Send, key: tuple[str, bytes, bool], version: int) -> Send:
        """A ``send`` that keeps a shareable answer (held back until its body, then sent whole)."""
        held: list[Message] = []
        passing = [False]

        async def keeping(message: Message) -> None:
            if passing[0]:
                await send(message)
            elif message["type"] == "http.response.start":
                if self._shareable(message, version):
                    held.append(message)
                else:
                    passing[0] = True
                    await send(message)
            else:
                passing[0] = True
                start = held.pop()
                if not message.get("more_body", False) and self.current_version() == version:
                    self._keep(key, start, message)
                await send(start)
                await send(message)

        return keeping

    def _shareable(self, start: Message, version: int) -> bool:
        if start["status"] != 200:
            return False
        headers: dict[bytes, bytes] = dict(start.get("headers", []))
        control = headers.get(b"cache-control", b"")
        if b"content-length" not in headers or b"set-cookie" in headers or b"no-store" in control:
            return False
        stamp = headers.get(b"x-hall-version")
        if stamp is not None:
            return stamp == str(version).encode()
        return b"max-age" in control

    def _keep(self, key: tuple[str, bytes, bool], start: Message, body: Message) -> None:
        data = bytes(body.get("body", b""))
        search = key[1] not in PAGE_QUERIES
        if (
            key in self.entries
            or len(self.entries) >= self.max_entries
            or self.size + len(data) > self.max_bytes
            or (search and self.searches >= self.max_searches)
        ):
            return
        self.searches += search
        headers = list(start.get("headers", []))
        etag = dict(headers).get(b"etag")
        unmodified = [(k, v) for k, v in headers if k not in NOT_MODIFIED_DROPS]
        kept = Kept(
            start={"type": "http.response.start", "status": 200, "headers": headers},
            body={"type": "http.response.body", "body": data},
            not_modified={"type": "http.response.start", "status": 304, "headers": unmodified},
            etag=etag,
            size=len(data),
            raw=_raw_head(200, headers),
            raw_not_modified=_raw_head(304, unmodified),
        )
        self.entries[key] = kept
        self.size += kept.size

    async def _too_many(self, send: Send) -> None:
        self.refused += 1
        await send(
            {
                "type": "http.response.start",
                "status": 429,
                "headers": [
                    (b"content-type", b"text/plain; charset=utf-8"),
                    (b"content-length", str(len(TOO_MANY)).encode()),
                    (b"retry-after", b"5"),
                    (b"cache-control", b"no-store"),
                    *SECURITY_HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": TOO_MANY})

    # ------------------------------------------------------------------ the fast path

    def answer(
        self,
        url: bytes,
        headers: list[tuple[bytes, bytes]],
        client: str,
        date: list[tuple[bytes, bytes]],
    ) -> bytes | None:
        """The whole answer to ``GET url`` when it is kept (or refused: 429); None to take the ordinary
        way. ``headers`` are the request's (names in lower case), ``date`` uvicorn's default headers."""
        path, _, query = url.partition(b"?")
        if len(query) > MAX_QUERY_BYTES or b"%" in path:
            return None
        version = self.current_version()
        if version != self.version:
            self._clear(version)
        host = match = None
        gzip = False
        for name, value in headers:
            if name == b"host":
                host = value
            elif name == b"accept-encoding":
                gzip = b"gzip" in value
            elif name == b"if-none-match":
                match = value
        kept = self.entries.get((path.decode("latin-1"), query, gzip))
        if kept is None or host is None or not self._host_ok(host):
            return None
        if not self.requests.allow(client):
            self.refused += 1
            return TOO_MANY_RAW
        self.hits += 1
        stamp = b"".join([name + b": " + value + b"\r\n" for name, value in date])
        if match is not None and match == kept.etag:
            return kept.raw_not_modified + stamp + b"\r\n"
        return b"".join((kept.raw, stamp, b"\r\n", kept.body["body"]))


class FastPathMixin:
    """Sends kept answers from uvicorn's httptools protocol (the base after this mixin) as soon as a
    request's headers are parsed (see the module's text)."""

    page_cache: PageCache
    cycle: Any
    pipeline: Any
    parser: Any
    url: bytes
    headers: list[tuple[bytes, bytes]]
    client: tuple[str, int] | None
    transport: Any
    server_state: Any
    _xq_fast = False
    _xq_served = 0
    _xq_idle: float | None = None

    def on_headers_complete(self) -> None:
        parser = self.parser
        if (
            parser.get_method() == b"GET"
            and (self.cycle is None or self.cycle.response_complete)
            and not self.pipeline
            and parser.should_keep_alive()
            and parser.get_http_version() == "1.1"
            and not parser.should_upgrade()
        ):
            raw = self.page_cache.answer(
                self.url,
                self.headers,
                self.client[0] if self.client else "?",
                self.server_state.default_headers,
            )
            if raw is not None:
                self._xq_fast = True
                self._xq_served += 1
                self.transport.write(raw)
                # what uvicorn's on_response_complete does, but no keep-alive timer for each answer:
                # the connection guard's sweep closes the connection once it has been idle too long
                self.server_state.total_requests += 1
                self._xq_idle = time.monotonic()
                return
        super().on_headers_complete()  # type: ignore[misc]

    def on_body(self, body: bytes) -> None:
        if not self._xq_fast:
            super().on_body(body)  # type: ignore[misc]

    def on_message_complete(self) -> None:
        if self._xq_fast:
            self._xq_fast = False
            return
        super().on_message_complete()  # type: ignore[misc]
