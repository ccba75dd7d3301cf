"""The hall server under hostile clients, with real sockets against a real server (bounded in time).

Every client here connects from its own loopback address (127.0.x.y, as phones have their own
addresses on the hall's Wi-Fi), which Linux allows; elsewhere these tests are skipped.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.engine.types import GameResult
from app.services.results import enter_result
from app.web.app import ThreadOwner
from app.web.limits import Limits
from app.web.server import HallServer

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="binds loopback addresses other than 127.0.0.1"
)


def connect(port: int, source: str, timeout: float = 5.0) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(timeout)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    return sock


def request(sock: socket.socket, path: str, extra: str = "") -> bytes:
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode())
    return read_response(sock)


def read_response(sock: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        body += chunk
    return head


def status(head: bytes) -> int:
    return int(head.split(b" ", 2)[1])


def closed_within(sock: socket.socket, seconds: float) -> float | None:
    """Seconds until the server closed ``sock`` (reading whatever it sent), or None if it stayed open."""
    started = time.monotonic()
    sock.settimeout(0.05)
    while time.monotonic() - started < seconds:
        try:
            if sock.recv(65536) == b"":
                return time.monotonic() - started
        except TimeoutError:
            continue
        except OSError:  # reset: closed without a word
            return time.monotonic() - started
    return None


def get(port: int, source: str, path: str = "/g/1/") -> tuple[int, float]:
    started = time.monotonic()
    with connect(port, source) as sock:
        head = request(sock, path)
    return status(head), time.monotonic() - started


@pytest.fixture
def serve(db: Any, owner: ThreadOwner) -> Iterator[Any]:
    servers: list[HallServer] = []

    def start(limits: Limits) -> tuple[HallServer, int]:
        server = HallServer(db, owner, port=0, poll_seconds=0.2, limits=limits)
        server.start()
        servers.append(server)
        return server, server.port

    yield start
    for server in servers:
        server.stop()


FAST = {"sweep_seconds": 0.1}


def test_an_idle_connection_and_trickled_headers_are_closed_in_time(serve: Any) -> None:
    server, port = serve(Limits(header_seconds=0.6, idle_seconds=0.6, **FAST))  # the product's: 10 s and 15 s
    idle = connect(port, "127.0.1.1")
    assert 0.45 < (closed_within(idle, 4) or 99) < 2.0
    trickle = connect(port, "127.0.1.2")
    started = time.monotonic()
    trickle.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    shut = None
    while time.monotonic() - started < 4 and shut is None:  # one header line every 0.1 s
        with contextlib.suppress(OSError):
            trickle.sendall(b"X-Slow: a\r\n")
        shut = closed_within(trickle, 0.1)
    assert shut is not None and time.monotonic() - started < 2.0  # trickling does not extend the time
    prompt = connect(port, "127.0.1.3")
    time.sleep(0.3)  # a phone that asks within the time is answered
    assert status(request(prompt, "/g/1/")) == 200
    assert 0.45 < (closed_within(prompt, 4) or 99) < 2.0  # then idle between requests: closed too
    assert server.guard is not None and server.guard.counts.header_timeouts == 2


def test_a_kept_answer_counts_as_a_request_for_the_header_deadline(serve: Any) -> None:
    server, port = serve(Limits(header_seconds=0.5, idle_seconds=1.5, **FAST))
    sock = connect(port, "127.0.1.4")
    assert status(request(sock, "/g/1/standings")) == 200
    assert status(request(sock, "/g/1/standings")) == 200  # sent as kept, by the fast path
    assert server.cache is not None and server.cache.hits == 1
    shut = closed_within(sock, 6)
    assert shut is not None and 1.2 < shut < 3.5  # the keep-alive time, not the header deadline


def test_too_many_connections_from_one_address_are_refused_and_others_served(serve: Any) -> None:
    server, port = serve(Limits(per_address=8, **FAST))
    held = [connect(port, "127.0.2.1") for _ in range(20)]
    time.sleep(0.3)
    still_open = [s for s in held if closed_within(s, 0.1) is None]
    assert len(still_open) == 8
    assert status(request(still_open[0], "/g/1/")) == 200  # the admitted ones are served
    assert get(port, "127.0.2.2")[0] == 200  # another phone is served
    assert server.guard is not None and server.guard.counts.per_address == 12
    for s in held:
        s.close()


def test_a_full_hall_makes_room_by_closing_a_waiting_connection_never_a_stream(
    serve: Any, db: Any, owner: ThreadOwner
) -> None:
    server, port = serve(Limits(total=12, **FAST))
    streams = []
    for i in range(10):
        s = connect(port, f"127.0.3.{i + 1}")
        s.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert b"retry:" in s.recv(4096)
        streams.append(s)
    waiting = [connect(port, "127.0.3.100"), connect(port, "127.0.3.101")]
    time.sleep(0.2)
    assert get(port, "127.0.3.200")[0] == 200  # a waiting connection was closed to make room
    assert sum(closed_within(s, 0.5) is not None for s in waiting) >= 1
    # the hall full of streams: a newcomer is refused, the streams stay
    more = [connect(port, f"127.0.3.{50 + i}") for i in range(2)]
    for s in more:
        s.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        s.settimeout(5)
        assert b"retry:" in s.recv(4096)
    newcomer = connect(port, "127.0.3.201")
    assert closed_within(newcomer, 2) is not None
    owner.submit(lambda: enter_result(db, "公开组", 4, 9, GameResult.DRAW)).result()
    server.changed()
    for s in [*streams, *more]:  # every stream still open, and told of the change
        s.settimeout(5)
        data = b""
        while data.count(b"event: v") < 1:
            data += s.recv(4096)
        assert b"data:" in data
    assert server.guard is not None and server.guard.counts.full >= 1


def test_headers_too_large_get_431(serve: Any) -> None:
    _, port = serve(Limits(**FAST))
    with connect(port, "127.0.4.1") as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 40_000 + b"\r\n\r\n")
        assert status(read_response(sock)) == 431


def test_a_number_of_five_thousand_digits_is_404_with_nothing_logged(
    serve: Any, caplog: pytest.LogCaptureFixture
) -> None:
    _, port = serve(Limits(**FAST))
    nines = "9" * 5000
    for path in (f"/g/1/r/2/b/{nines}", f"/g/{nines}/", f"/g/1/r/{nines}/", f"/g/{nines}/standings"):
        with connect(port, "127.0.5.1") as sock:
            assert status(request(sock, path)) == 404, path
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL") or r.exc_info]


# --------------------------------------------------------------------------- the flood, as reported


def serve_cli(event: Path, port: int, open_files: int) -> subprocess.Popen[str]:
    """``xqarbiter serve`` in its own process, under a low open-file limit."""

    def preexec() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, open_files))

    return subprocess.Popen(
        [sys.executable, "-m", "app.cli", "serve", str(event), "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"},
        preexec_fn=preexec,
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
def test_a_flood_of_idle_connections_leaves_the_pages_answering_and_the_log_quiet(
    midway_template: Path, tmp_path: Path
) -> None:
    """Hundreds of connections that send nothing (or headers a byte at a time), from many addresses,
    against ``xqarbiter serve`` limited to 512 open files: phones are still answered at once, the
    server's stderr stays (nearly) empty, and it stops cleanly."""
    event = tmp_path / "event.xqt"
    event.write_bytes(midway_template.read_bytes())
    port = free_port()
    process = serve_cli(event, port, open_files=512)
    attackers: list[socket.socket] = []
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line or "按 Ctrl+C 停止" in line:
                break
        assert get(port, "127.0.6.250")[0] == 200
        for a in range(40):  # 40 addresses × 25 connections = 1,000, twice the open-file limit
            for _ in range(25):
                with contextlib.suppress(OSError):
                    sock = connect(port, f"127.0.6.{a + 1}", timeout=2)
                    if a % 4 == 0:  # some dribble the start of a request
                        sock.sendall(b"GET / HTT")
                    attackers.append(sock)
        times = []
        for i in range(10):  # a phone opening pages while the connections are held
            code, seconds = get(port, f"127.0.7.{i + 1}")
            assert code == 200
            times.append(seconds)
        assert max(times) < 3.0, times
        process.send_signal(signal.SIGINT)
        assert process.wait(30) == 0
    finally:
        for sock in attackers:
            sock.close()
        if process.poll() is None:
            process.kill()
            process.wait(10)
    assert process.stderr is not None
    errors = process.stderr.read()
    assert "Traceback" not in errors and "Too many open files" not in errors, errors[:3000]
    assert len(errors.splitlines()) <= 10, errors[:3000]
