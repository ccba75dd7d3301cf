"""The hall server's defences against hostile or broken clients, below the application.

A phone on the hall's Wi-Fi opens a connection, sends a request's headers at once (a few hundred
bytes, one packet) and reads the answer; its browser keeps at most six connections to one server. What
it never does is hold connections open without sending anything, dribble its headers a byte at a
time, send megabytes of headers or stop reading an answer. Those are what an attacker does to exhaust
the laptop's connections and files, and so what is limited here:

- **Header-read and idle timeouts.** From the moment a connection is made, or the first byte of its
  next request arrives, the request's headers must be complete within ``header_seconds`` (counted
  once: trickling bytes does not extend it). Between two requests a connection may stay idle for
  ``idle_seconds`` (uvicorn's keep-alive timeout). A response the client has not taken for
  ``stall_seconds`` (while the server had more to send) ends the connection.
- **Header size.** More than ``max_header_bytes`` before the end of a request's headers: 431, closed.
- **Connections per address.** At most ``per_address`` connections from one client address (the
  refresh stream and a few page connections per tab; two browsers and a deputy's tab on one phone
  stay far below it). More are closed at once, without a word.
- **Connections in all.** At most ``total``, below the process's open-file limit (whose soft value is
  raised to the hard one where the system allows, see :func:`raise_open_file_limit`); when the hall
  is full, a connection that is waiting for a request (never a page being sent or a refresh stream)
  is closed to make room, the one waiting longest first; when none is waiting, the new one is closed.
- **A quiet log.** The same warning or traceback is written once a minute at most, then a count of
  those left out (:class:`QuietLog`); refusals are summed up once a minute.

The protocol classes are uvicorn's own (httptools or h11), subclassed by :func:`guarded_protocol`: only
``connection_made``, ``connection_lost`` and ``data_received`` are wrapped, and the request cycle
(``self.cycle``) is only read. Every response is also written in one piece (:class:`CorkedTransport`):
uvicorn writes the status line and headers, then the body; coalesced, an answer is one packet on the
hall's Wi-Fi instead of two, and one system call.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("xqarbiter.hall")

#: Connections never allowed, whatever the open-file limit (two per phone for a hall of 2,000).
MAX_TOTAL = 4096
#: What the open-file limit is raised to where the hard limit allows it.
WANTED_OPEN_FILES = 8192
#: Connections the event loop accepts in one go (asyncio's accept loop); the kernel's queue of
#: connections waiting to be accepted is longer (:data:`LISTEN_QUEUE`).
ACCEPT_BURST = 64
LISTEN_QUEUE = 2048


@dataclass(frozen=True, slots=True)
class Limits:
    """What one client may hold (see the module's text)."""

    header_seconds: float = 10.0
    idle_seconds: float = 15.0
    stall_seconds: float = 60.0
    max_header_bytes: int = 16 * 1024
    per_address: int = 32
    total: int | None = None  # None: from the open-file limit (:func:`total_for`)
    sweep_seconds: float = 1.0
    # requests per address (see app.web.cache): all of them, and those that reach the application
    requests: tuple[float, int] = (20.0, 120)  # a second, at once
    application_requests: tuple[float, int] = (5.0, 40)


def raise_open_file_limit(wanted: int = WANTED_OPEN_FILES) -> int | None:
    """Raise the soft open-file limit towards ``wanted`` (never above the hard one); the soft limit in
    force afterwards, or None where there is no such limit (Windows: sockets are not counted)."""
    try:
        import resource
    except ImportError:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        for value in (target, 10240, 4096):  # macOS refuses more than OPEN_MAX (10240)
            if soft < value <= target:
                try:
                    resource.setrlimit(resource.RLIMIT_NOFILE, (value, hard))
                except (ValueError, OSError):
                    continue
                break
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return None if soft == resource.RLIM_INFINITY else int(soft)


def total_for(open_files: int | None) -> int:
    """Connections allowed under an open-file limit. Left free: 128 files for the tournament file, its
    journal, backups, the log and the window's own files, and two accept bursts (connections accepted
    and not yet judged, and connections closed to make room and not yet gone) — or an eighth of the
    limit if that is more."""
    if open_files is None:
        return MAX_TOTAL
    return max(16, min(MAX_TOTAL, open_files - max(128 + 2 * ACCEPT_BURST, open_files // 8)))


def address_key(peer: Any) -> str:
    """The client address a connection counts against (an IPv4 address inside IPv6 as IPv4)."""
    host = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
    if ":" in host:
        try:
            mapped = ipaddress.IPv6Address(host.split("%", 1)[0]).ipv4_mapped
        except ValueError:
            return host
        if mapped is not None:
            return str(mapped)
    return host


class CorkedTransport:
    """A transport whose writes made in one turn of the event loop leave in one piece."""

    __slots__ = ("_loop", "_pending", "_scheduled", "_transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []
        self._scheduled = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            return
        self._pending.append(bytes(data))
        if not self._scheduled:
            self._scheduled = True
            self._loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        if not self._pending:
            return
        data = self._pending[0] if len(self._pending) == 1 else b"".join(self._pending)
        self._pending.clear()
        if not self._transport.is_closing():
            self._transport.write(data)

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def abort(self) -> None:
        self._pending.clear()
        self._transport.abort()

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + sum(len(p) for p in self._pending)

    # what uvicorn asks of every connection, without the detour through __getattr__
    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


TOO_LARGE = (
    b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 0\r\nconnection: close\r\n\r\n"
)


@dataclass
class Counts:
    """What the guard refused or closed (since the start, and since the last summary)."""

    per_address: int = 0  # connections refused: too many from one address
    full: int = 0  # connections refused: the hall full and none waiting
    evicted: int = 0  # waiting connections closed to make room
    header_timeouts: int = 0  # no complete request headers in time (idle or trickling)
    oversized: int = 0  # headers too large
    stalled: int = 0  # a response not taken
    addresses: Counter[str] = field(default_factory=Counter)  # refusals per address (the last minute)

    def total(self) -> int:
        return (
            self.per_address + self.full + self.evicted + self.header_timeouts + self.oversized + self.stalled
        )


class ConnectionGuard:
    """The connection limits of one server (one event loop): admission, deadlines and the counts."""

    def __init__(self, limits: Limits, *, open_files: int | None = None) -> None:
        self.limits = limits
        self.total = limits.total if limits.total is not None else total_for(open_files)
        self.connections: dict[Any, None] = {}  # the guarded protocols, oldest first
        self.by_address: Counter[str] = Counter()  # connections and accepted ones not yet made
        self.pending: dict[Any, tuple[str, float]] = {}  # accepted: peer → (address, when)
        self.counts = Counts()  # since the start
        self._recent = Counts()  # since the last summary
        self._sweeping = False
        self._rounds = 0
        self._last_summary = time.monotonic()
        self.closed = False

    # ------------------------------------------------------------------ admission

    def _room(self, key: str) -> bool:
        if self.by_address[key] >= self.limits.per_address:
            self._count("per_address", key)
            return False
        # full and none waiting to close: refused, unless the hall is held by connections accepted in
        # this burst and not yet made (they may be closed for the next ones; at most a burst more)
        if (
            len(self.connections) + len(self.pending) >= self.total
            and not self._evict_one()
            and (len(self.connections) >= self.total or len(self.pending) >= ACCEPT_BURST)
        ):
            self._count("full", key)
            return False
        return True

    def accept(self, peer: Any) -> bool:
        """At ``accept()`` (see :class:`GuardedSocket`): whether to keep a new connection. A refused one is
        closed there and then, so that a flood never holds more files than the limits allow."""
        key = address_key(peer)
        if not self._room(key):
            return False
        self.by_address[key] += 1
        self.pending[peer] = (key, time.monotonic())
        return True

    def admit(self, conn: Any, key: str, peer: Any) -> bool:
        """At ``connection_made``: a connection accepted by :meth:`accept` is admitted already; one that
        was not (an event loop that accepts by itself, as on Windows) is judged now."""
        if self.pending.pop(peer, None) is None:
            if not self._room(key):
                return False
            self.by_address[key] += 1
        self.connections[conn] = None
        return True

    def release(self, conn: Any, key: str) -> None:
        if conn in self.connections:  # not when it was closed to make room (already released)
            del self.connections[conn]
            self._forget(key)

    def _forget(self, key: str) -> None:
        self.by_address[key] -= 1
        if self.by_address[key] <= 0:
            del self.by_address[key]

    def _evict_one(self) -> bool:
        for conn in self.connections:
            if conn._xq_waiting():
                self._count("evicted", conn._xq_key)
                conn._xq_close()
                del self.connections[conn]  # its slot is free now; release() finds it gone
                self._forget(conn._xq_key)
                return True
        return False

    def _count(self, what: str, key: str) -> None:
        for counts in (self.counts, self._recent):
            setattr(counts, what, getattr(counts, what) + 1)
        self._recent.addresses[key] += 1

    # ------------------------------------------------------------------ the sweep

    def start_sweeping(self, loop: asyncio.AbstractEventLoop) -> None:
        if not self._sweeping and not self.closed:
            self._sweeping = True
            loop.call_later(self.limits.sweep_seconds, self._sweep, loop)

    def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        if self.closed:
            self._sweeping = False
            return
        now = time.monotonic()
        for peer, (key, when) in list(self.pending.items()):
            if now - when > 10:  # accepted but never made (the event loop dropped it)
                del self.pending[peer]
                self._forget(key)
        self._rounds += 1
        stalls = self._rounds % 10 == 0  # a stall is looked for every ten rounds (it takes a minute)
        for conn in list(self.connections):
            verdict = conn._xq_check(now, stalls)
            if verdict:
                self._count(verdict, conn._xq_key)
        if now - self._last_summary >= 60:
            self.summarise(now)
        loop.call_later(self.limits.sweep_seconds, self._sweep, loop)

    def summarise(self, now: float | None = None) -> None:
        """Log what was refused or closed since the last summary (one line; nothing when nothing)."""
        recent, self._recent = self._recent, Counts()
        self._last_summary = time.monotonic() if now is None else now
        if recent.total() == 0:
            return
        top = ", ".join(f"{a} ×{n}" for a, n in recent.addresses.most_common(3))
        log.warning(
            "hall: refused or closed %d connections in the last minute (too many from one address %d, "
            "hall full %d, idle ones closed to make room %d, no request in time %d, headers too large %d, "
            "answer not taken %d); most from %s",
            recent.total(),
            recent.per_address,
            recent.full,
            recent.evicted,
            recent.header_timeouts,
            recent.oversized,
            recent.stalled,
            top,
        )

    def close(self) -> None:
        self.closed = True
        self.summarise()


class GuardedMixin:
    """Wraps a uvicorn HTTP protocol class (the base after this mixin in the class's bases)."""

    guard: ConnectionGuard
    cycle: Any
    transport: Any

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        guard = self.guard
        now = time.monotonic()
        peer = transport.get_extra_info("peername")
        self._xq_key = address_key(peer)
        self._xq_admitted = guard.admit(self, self._xq_key, peer)
        if not self._xq_admitted:
            transport.abort()  # type: ignore[attr-defined]
            return
        loop = asyncio.get_running_loop()
        guard.start_sweeping(loop)
        self._xq_deadline: float | None = now + guard.limits.header_seconds
        self._xq_head = 0
        self._xq_served = 0  # answers sent by a fast path below (not through a request cycle)
        self._xq_idle: float | None = None  # since when idle after a fast-path answer
        self._xq_stalled: float | None = None
        assert isinstance(transport, asyncio.Transport)
        super().connection_made(CorkedTransport(transport, loop))  # type: ignore[misc]

    def connection_lost(self, exc: Exception | None) -> None:
        if not self._xq_admitted:
            return
        self.guard.release(self, self._xq_key)
        super().connection_lost(exc)  # type: ignore[misc]

    def data_received(self, data: bytes) -> None:
        if not self._xq_admitted or self.transport.is_closing():
            return
        cycle = self.cycle
        self._xq_idle = None
        if self._xq_deadline is None and (cycle is None or cycle.response_complete):
            # the first bytes of the next request on a kept-alive connection
            self._xq_deadline = time.monotonic() + self.guard.limits.header_seconds
            self._xq_head = 0
        if self._xq_deadline is not None:
            self._xq_head += len(data)
            if self._xq_head > self.guard.limits.max_header_bytes:
                self.guard._count("oversized", self._xq_key)
                self.transport.write(TOO_LARGE)
                self.transport.close()
                return
        served = self._xq_served
        super().data_received(data)  # type: ignore[misc]
        if self.cycle is not cycle or self._xq_served != served:  # a request's headers are complete
            self._xq_deadline = None

    # ------------------------------------------------------------------ for the guard

    def _xq_waiting(self) -> bool:
        """Waiting for a request (no request being answered): may be closed to make room."""
        cycle = self.cycle
        return cycle is None or bool(cycle.response_complete)

    def _xq_close(self) -> None:
        if not self.transport.is_closing():
            self.transport.close()

    def _xq_check(self, now: float, stalls: bool = True) -> str:
        """Close the connection if a deadline has passed; what was wrong, or ""."""
        deadline, idle = self._xq_deadline, self._xq_idle
        if deadline is not None and now > deadline:
            if not self.transport.is_closing():
                self.transport.abort()
                return "header_timeouts"
            return ""
        if idle is not None and now - idle > self.guard.limits.idle_seconds:
            # kept alive after an answer of the fast path (which arms no timer): as uvicorn would
            self._xq_idle = None
            self._xq_close()
            return ""
        if not stalls or self.transport.is_closing():
            return ""
        if self.transport.get_write_buffer_size() > 0:
            if self._xq_stalled is None:
                self._xq_stalled = now
            elif now - self._xq_stalled > self.guard.limits.stall_seconds:
                self.transport.abort()
                return "stalled"
        else:
            self._xq_stalled = None
        return ""


class GuardedSocket(socket.socket):
    """A listening socket whose ``accept()`` closes at once what the guard refuses (the selector event
    loops call it; asyncio then makes a transport only for what it returns)."""

    guard: ConnectionGuard

    @classmethod
    def wrap(cls, sock: socket.socket, guard: ConnectionGuard) -> GuardedSocket:
        guarded = cls(sock.family, sock.type, sock.proto, fileno=sock.detach())
        guarded.guard = guard
        return guarded

    def accept(self) -> tuple[socket.socket, Any]:
        while True:
            conn, peer = super().accept()  # BlockingIOError when no more are waiting
            if self.guard.accept(peer):
                return conn, peer
            conn.close()


def guarded_protocol(
    base: type[asyncio.Protocol], guard: ConnectionGuard, *mixins: type, **attributes: Any
) -> type[asyncio.Protocol]:
    """uvicorn's protocol class ``base`` with the limits of ``guard`` (and ``mixins`` between them)."""
    return type(f"Guarded{base.__name__}", (GuardedMixin, *mixins, base), {"guard": guard, **attributes})


def http_protocol_base() -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol where httptools is installed, else its h11 protocol."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:
        from uvicorn.protocols.http.h11_impl import H11Protocol

        return H11Protocol
    return HttpToolsProtocol


# --------------------------------------------------------------------------- the log


class QuietLog(logging.Filter):
    """Let the same message (logger, text, exception type) through once per ``window`` seconds; the
    next one that passes says how many were left out in between."""

    def __init__(self, window: float = 60.0) -> None:
        super().__init__("xqarbiter-quiet")
        self.window = window
        self._seen: dict[tuple[str, str, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        key = (record.name, str(record.msg), exc)
        now = time.monotonic()
        last = self._seen.get(key)
        if last is not None and now - last[0] < self.window:
            self._seen[key] = (last[0], last[1] + 1)
            return False
        if len(self._seen) > 1000:
            self._seen.clear()
        left_out = last[1] if last is not None else 0
        self._seen[key] = (now, 0)
        if left_out:
            record.msg = f"{record.msg} [{left_out} more like this in the last minute were not logged]"
        return True


#: The loggers a hostile client can make talk: uvicorn's, asyncio's (accept errors) and the hall's.
NOISY_LOGGERS = ("uvicorn", "uvicorn.error", "asyncio", "xqarbiter.hall")


def install_quiet_log() -> None:
    """Put one :class:`QuietLog` on each of :data:`NOISY_LOGGERS` (once per process)."""
    for name in NOISY_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, QuietLog) for f in logger.filters):
            logger.addFilter(QuietLog())


# --------------------------------------------------------------------------- numbers in paths


class BoundedInt:
    """Starlette's ``int`` path convertor with at most 9 digits and no leading zero: ``/g/1/r/2/b/999…``
    (thousands of digits, which ``int()`` refuses) and ``/g/01/`` do not match any page (404)."""

    regex = "0|[1-9][0-9]{0,8}"

    def convert(self, value: str) -> int:
        return int(value)

    def to_string(self, value: int) -> str:
        if not 0 <= value < 10**9:
            raise ValueError("a path number is 0–999999999")
        return str(value)


def is_small_number(text: str, digits: int = 5) -> bool:
    """ASCII digits only (``isdigit`` also accepts ``①`` and ``²``, which ``int()`` refuses), at most
    ``digits`` of them."""
    return 0 < len(text) <= digits and text.isascii() and text.isdigit()
