"""The pieces of the connection limits on their own: the open-file limit, the quiet log, the address
a connection counts against, the corked transport."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.web import limits
from app.web.limits import (
    ACCEPT_BURST,
    MAX_TOTAL,
    CorkedTransport,
    QuietLog,
    address_key,
    total_for,
)

ROOT = Path(__file__).resolve().parents[2]


def test_the_total_stays_below_the_open_file_limit() -> None:
    assert total_for(None) == MAX_TOTAL  # Windows: sockets are not counted against a file limit
    for limit in (256, 512, 1024, 4096, 8192, 1 << 20):
        total = total_for(limit)
        assert 16 <= total <= MAX_TOTAL
        if limit >= 512:  # room for the file, the log and two accept bursts
            assert total + 128 + 2 * ACCEPT_BURST <= limit
    assert total_for(1024) == 768


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_NOFILE is POSIX")
def test_the_soft_open_file_limit_is_raised_to_what_the_hard_one_allows() -> None:
    code = (
        "import resource; from app.web.limits import raise_open_file_limit; "
        "print(raise_open_file_limit(), resource.getrlimit(resource.RLIMIT_NOFILE)[0])"
    )

    def preexec() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (256, 3000))

    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=preexec,
        check=True,
        timeout=60,
    ).stdout.split()
    assert out == ["3000", "3000"]


def test_the_same_message_is_logged_once_a_minute_then_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr(limits.time, "monotonic", lambda: clock[0])
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record.getMessage())

    logger = logging.getLogger("test.quiet")
    monkeypatch.setattr(logger, "propagate", False)
    keep, quiet = Keep(), QuietLog(window=60.0)
    logger.addHandler(keep)
    logger.addFilter(quiet)
    try:
        for i in range(25_001):  # the flood as reported: 25,000 tracebacks
            if i == 25_000:
                logger.warning("something else")
                clock[0] += 61
            try:
                raise OSError(24, "Too many open files")
            except OSError:
                logger.exception("socket.accept() out of system resource")
    finally:
        logger.removeHandler(keep)
        logger.removeFilter(quiet)
    assert records == [
        "socket.accept() out of system resource",
        "something else",
        "socket.accept() out of system resource [24999 more like this in the last minute were not logged]",
    ]


def test_a_connection_counts_against_its_address() -> None:
    assert address_key(("192.168.1.23", 50000)) == "192.168.1.23"
    assert address_key(("::ffff:192.168.1.23", 50000, 0, 0)) == "192.168.1.23"
    assert address_key(("fe80::1%eth0", 50000, 0, 2)) == "fe80::1%eth0"  # each IPv6 address its own
    assert address_key(None) == "?"


def test_writes_in_one_turn_of_the_loop_leave_in_one_piece() -> None:
    class Recorder:
        def __init__(self) -> None:
            self.writes: list[bytes] = []
            self.closed = False

        def write(self, data: bytes) -> None:
            self.writes.append(data)

        def is_closing(self) -> bool:
            return self.closed

        def close(self) -> None:
            self.closed = True

        def get_write_buffer_size(self) -> int:
            return 0

        def get_extra_info(self, name: str, default: object = None) -> str:
            return f"info:{name}"

    async def run() -> Recorder:
        inner = Recorder()
        corked = CorkedTransport(inner, asyncio.get_running_loop())  # type: ignore[arg-type]
        corked.write(b"HTTP/1.1 200 OK\r\n\r\n")
        corked.write(b"body")
        assert inner.writes == [] and corked.get_write_buffer_size() == 23
        await asyncio.sleep(0)
        assert inner.writes == [b"HTTP/1.1 200 OK\r\n\r\nbody"]
        corked.write(b"last")
        corked.close()  # what is pending leaves before the close
        assert inner.writes[-1] == b"last" and inner.closed
        assert corked.get_extra_info("peername") == "info:peername"
        return inner

    asyncio.run(run())
