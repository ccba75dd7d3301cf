"""Running the hall server: uvicorn in a background thread, started and stopped by its owner.

The socket is bound in the caller's thread, so that a port already in use is a clear message at once,
not a failure in the background. Only loopback is bound unless the arbiter picks a network address.

Between the network and the application sit the connection limits (:mod:`app.web.limits`: timeouts,
connections per address and in all, under a raised open-file limit, a quiet log) and the kept answers
(:mod:`app.web.cache`: each page's answer built once per version of the file, requests per address
bounded).
"""

from __future__ import annotations

import contextlib
import errno
import socket
import sys
import threading
import time
from typing import Any

import uvicorn

from app.engine.types import UserError
from app.services.hall import is_loopback
from app.web.app import Hall, Owner, _host_allowed, create_app, hall_of
from app.web.cache import FastPathMixin, PageCache
from app.web.limits import (
    ACCEPT_BURST,
    LISTEN_QUEUE,
    ConnectionGuard,
    GuardedSocket,
    Limits,
    guarded_protocol,
    http_protocol_base,
    install_quiet_log,
    raise_open_file_limit,
)

DEFAULT_PORT = 8080
#: How long a thread holding the GIL keeps it when another wants it (Python's default: 5 ms). While the
#: worker thread renders a page, the event loop thread needs the GIL back after every system call; at
#: 5 ms a wait each time, a page render stalls every phone's answer (a "convoy"). Set when the hall
#: starts, for the whole process.
SWITCH_INTERVAL = 0.0005
LOOPBACK = "127.0.0.1"


def local_addresses() -> list[str]:
    """This computer's IPv4 addresses that phones on the hall's network could reach (loopback excluded).

    Read from the host name's addresses, without sending anything on the network.
    """
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET, socket.SOCK_STREAM)
    except OSError:
        infos = []
    for info in infos:
        address = str(info[4][0])
        if not is_loopback(address) and address not in found and not address.startswith("169.254."):
            found.append(address)
    return found


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port`` or a :class:`UserError` saying why not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        if hasattr(socket, "SO_EXCLUSIVEADDRUSE"):  # Windows: no second server on the same port
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_EXCLUSIVEADDRUSE, 1)
        else:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(LISTEN_QUEUE)
    except OSError as exc:
        sock.close()
        if exc.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", -1)):
            raise UserError(
                f"端口 {port} 已被其他程序占用，请换一个端口",
                f"port {port} is already in use; choose another",
            ) from None
        raise UserError(
            f"无法在 {host}:{port} 上启动赛场网络：{exc.strerror or exc}",
            f"cannot serve on {host}:{port}: {exc.strerror or exc}",
        ) from None
    sock.setblocking(False)
    return sock


def address_for(host: str) -> str:
    """The address phones use: the bound one, or for 0.0.0.0 the first of this computer's addresses."""
    if host in ("0.0.0.0", ""):
        addresses = local_addresses()
        return addresses[0] if addresses else LOOPBACK
    if host == "::":
        return "::1"
    return host


class HallServer:
    """The hall server of one open tournament, in a background thread."""

    def __init__(
        self,
        db: Any,
        owner: Owner | None,
        *,
        host: str = LOOPBACK,
        port: int = DEFAULT_PORT,
        poll_seconds: float = 1.0,
        limits: Limits | None = None,
        fast_path: bool = True,
    ) -> None:
        if not 0 <= port <= 65535:
            raise UserError(f"端口 {port} 无效（1–65535）", f"invalid port {port} (1–65535)")
        self.host, self.port = host, port
        self.app = create_app(db, owner, poll_seconds=poll_seconds)
        self.hall: Hall = hall_of(self.app)
        self.limits = limits or Limits()
        self.fast_path = fast_path  # kept answers sent by the protocol itself (httptools only)
        self.guard: ConnectionGuard | None = None
        self.cache: PageCache | None = None
        self.open_files: int | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    @property
    def url(self) -> str:
        address = address_for(self.host)
        shown = f"[{address}]" if ":" in address else address
        return f"http://{shown}:{self.port}"

    @property
    def loopback_only(self) -> bool:
        return is_loopback(self.host)

    @property
    def reachable_url(self) -> str:
        """The address phones can use, or "" when there is none (loopback, or no network address known):
        what may be printed as QR codes."""
        return "" if self.loopback_only or is_loopback(address_for(self.host)) else self.url

    def start(self, timeout: float = 15.0) -> str:
        """Bind, serve in the background and return the address once the server answers."""
        self.open_files = raise_open_file_limit()
        install_quiet_log()
        if sys.getswitchinterval() > SWITCH_INTERVAL:  # see SWITCH_INTERVAL
            sys.setswitchinterval(SWITCH_INTERVAL)
        self.guard = ConnectionGuard(self.limits, open_files=self.open_files)
        sock = GuardedSocket.wrap(bind(self.host, self.port), self.guard)
        self.port = sock.getsockname()[1]  # port 0: the one the system chose
        hall = self.hall

        def version() -> int | None:
            snap = hall.site.current
            return snap.version if snap is not None else None

        self.cache = PageCache(
            self.app,
            version=version,
            host_allowed=_host_allowed,
            rate=self.limits.requests,
            miss_rate=self.limits.application_requests,
        )
        base = http_protocol_base()
        fast = (FastPathMixin,) if self.fast_path and hasattr(base, "on_headers_complete") else ()
        config = uvicorn.Config(
            self.cache,
            log_level="warning",
            access_log=False,
            lifespan="on",
            http=guarded_protocol(base, self.guard, *fast, page_cache=self.cache),
            ws="none",
            loop="asyncio",
            timeout_graceful_shutdown=2,
            timeout_keep_alive=max(1, round(self.limits.idle_seconds)),
            server_header=False,
            backlog=ACCEPT_BURST,  # asyncio accepts this many at a time (and listens with it: see below)
        )
        self._server = uvicorn.Server(config)
        server = self._server

        def run() -> None:
            try:
                server.run(sockets=[sock])
            except BaseException as exc:  # reported by start()
                self._error = exc
            finally:
                sock.close()

        self._thread = threading.Thread(target=run, name="hall-server", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while self._thread.is_alive() and not server.started and time.monotonic() < deadline:
            time.sleep(0.02)
        if not server.started:
            self.stop()
            raise UserError(
                f"赛场网络未能启动：{self._error or '超时'}",
                f"the hall server did not start: {self._error or 'timeout'}",
            )
        with contextlib.suppress(OSError):  # the kernel's queue stays long (a hall reconnecting at once)
            sock.listen(LISTEN_QUEUE)
        return self.url

    def changed(self) -> None:
        """The owner changed the file: refresh the pages now."""
        self.hall.changed()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop serving (open refresh streams are closed first) and wait for the thread."""
        server, thread = self._server, self._thread
        if server is None or thread is None:
            return
        loop = self.hall.loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self.hall.end_streams)
        server.should_exit = True
        thread.join(timeout)
        self._server, self._thread = None, None
        if self.guard is not None:
            self.guard.close()
