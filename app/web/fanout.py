"""The refresh stream (``GET /events``, server-sent events): every phone told of each new version.

A phone's page holds one stream; when the file changes the server sends ``event: v`` with the new
version and the page fetches its ``<main>`` part again. A full hall holds a thousand streams, so a
stream costs little: no task of its own besides the response, no timer (one ping round every
``ping_seconds`` for all of them), and an announcement is one small write.

Announcements are *paced*: a new version is told to the streams in a random order, ``batch`` of them
every ``interval`` seconds (2,500 a second by default: 200 phones in 0.08 s, 1,000 in 0.4 s), so that the
phones' requests for the new page arrive spread over a fraction of a second instead of all in the same
millisecond, and a page asked for meanwhile does not wait behind a thousand refreshes. The page script
fetches at once when told (the server spreads, not the phones).

A stream that falls behind (its write still under way when a newer version comes) is sent only the
newest version. Closing the hub ends every stream (before the server stops: open streams would hold it).
"""

from __future__ import annotations

import asyncio
import contextlib
import random

from starlette.responses import Response
from starlette.types import Receive, Scope, Send

PING, VERSION, END = "ping", "version", "end"

HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache"),
    (b"x-accel-buffering", b"no"),
]
BUSY = b"busy"


class _Stream:
    __slots__ = ("gone", "sent", "wake")

    def __init__(self, sent: int) -> None:
        self.wake: asyncio.Future[str] | None = None
        self.sent = sent
        self.gone = False  # the phone went away


class Hub:
    """The open refresh streams of one server and the paced announcement of each new version."""

    def __init__(
        self,
        *,
        max_streams: int = 4000,
        batch: int = 25,
        interval: float = 0.01,
        ping_seconds: float = 25.0,
    ) -> None:
        self.version = 0
        self.max_streams = max_streams
        self.batch, self.interval, self.ping_seconds = batch, interval, ping_seconds
        self.streams: set[_Stream] = set()
        self.closing = False
        self._wanted: str | None = None  # the round of wake-ups asked for (VERSION outranks PING)
        self._runner: asyncio.Task[None] | None = None
        self._ping: asyncio.TimerHandle | None = None
        self.rounds = 0  # announcement rounds made (for tests)

    # ------------------------------------------------------------------ the event loop's side

    def publish(self, version: int) -> None:
        """A new version is ready (call in the server's event loop)."""
        if version == self.version:
            return
        self.version = version
        self._start(VERSION)

    def close(self) -> None:
        """End every stream now (call in the server's event loop)."""
        self.closing = True
        if self._ping is not None:
            self._ping.cancel()
        for stream in list(self.streams):
            _wake(stream, END)

    def _start(self, kind: str) -> None:
        if self._wanted != VERSION:
            self._wanted = kind
        if self._runner is None or self._runner.done():
            self._runner = asyncio.get_running_loop().create_task(self._announce())

    def _schedule_ping(self) -> None:
        if self._ping is None and not self.closing:
            loop = asyncio.get_running_loop()
            self._ping = loop.call_later(self.ping_seconds, self._pinged)

    def _pinged(self) -> None:
        self._ping = None
        if self.streams and not self.closing:
            self._start(PING)
            self._schedule_ping()

    async def _announce(self) -> None:
        while self._wanted is not None and not self.closing:
            kind, self._wanted = self._wanted, None
            self.rounds += 1
            order = list(self.streams)
            random.shuffle(order)
            for start in range(0, len(order), self.batch):
                if self.closing:
                    return
                if start:
                    await asyncio.sleep(self.interval)
                for stream in order[start : start + self.batch]:
                    _wake(stream, kind)

    # ------------------------------------------------------------------ one stream

    async def serve(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The ASGI response of ``GET /events``."""
        if self.closing or len(self.streams) >= self.max_streams:
            await send(
                {
                    "type": "http.response.start",
                    "status": 503,
                    "headers": [(b"content-type", b"text/plain"), (b"retry-after", b"10")],
                }
            )
            await send({"type": "http.response.body", "body": BUSY})
            return
        stream = _Stream(self.version)
        self.streams.add(stream)
        self._schedule_ping()
        watcher = asyncio.get_running_loop().create_task(_watch_disconnect(receive, stream))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
            await send(
                {
                    "type": "http.response.body",
                    "body": f"retry: 5000\nevent: v\ndata: {stream.sent}\n\n".encode(),
                    "more_body": True,
                }
            )
            while not self.closing and not stream.gone:
                if self.version != stream.sent:
                    stream.sent = self.version
                    body = f"event: v\ndata: {stream.sent}\n\n".encode()
                    await send({"type": "http.response.body", "body": body, "more_body": True})
                    continue
                stream.wake = asyncio.get_running_loop().create_future()
                kind = await stream.wake
                stream.wake = None
                if kind == END:
                    break
                if kind == PING and self.version == stream.sent:
                    await send({"type": "http.response.body", "body": b": ping\n\n", "more_body": True})
            if not stream.gone:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self.streams.discard(stream)
            watcher.cancel()


def _wake(stream: _Stream, kind: str) -> None:
    if stream.wake is not None and not stream.wake.done():
        stream.wake.set_result(kind)


async def _watch_disconnect(receive: Receive, stream: _Stream) -> None:
    """Wake the stream with END when the phone goes away."""
    with contextlib.suppress(Exception):
        while (await receive())["type"] != "http.disconnect":
            pass
    stream.gone = True
    _wake(stream, END)


class StreamResponse(Response):
    """A Starlette response that hands the request to :meth:`Hub.serve`."""

    def __init__(self, hub: Hub) -> None:
        super().__init__(status_code=200)
        self.hub = hub

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.hub.serve(scope, receive, send)
