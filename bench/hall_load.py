"""A bounded load test of the hall server: many simulated phones on this machine, latencies measured.

Each simulated phone does what the page script does in a phone's browser:

- it holds the refresh stream (``GET /events``, server-sent events) open on its own connection;
- on a second keep-alive connection it opens pages (mostly its group's current round, then standings, a
  board, the index, a search) at random moments — a Poisson process of mean ``think`` seconds between
  pages, *open loop*: the moment a page is wanted does not wait for the server, and a page's latency is
  counted from the moment it was wanted (a slow server is not hidden by phones that wait for it);
- when the stream announces a new version it fetches its page's ``<main>`` part again (after a random
  wait of up to ``jitter`` seconds, as the page script does), sending ``If-None-Match`` like a browser;
- a connection the server closed while idle (keep-alive timeout) is reopened, as a browser does.

The phones arrive over ``ramp`` seconds (a thousand phones connecting in the same millisecond is not a
hall: they come in over minutes); the figures count the pages wanted, and the results committed, from
``settle`` seconds after the end of the ramp on (``measured_from_s``), and the whole run's page p95 and
the p95 of every 5 s are reported beside them.

Every phone connects from its own loopback address (127.0.x.y, as every phone has its own address on the
hall's Wi-Fi), so the server's per-address limits see what they would see in the hall; ``same_address``
puts them all on 127.0.0.1 (where other loopback addresses cannot be bound).

The load client is written on asyncio *protocols* (no stream objects, no HTTP library) so that it costs
the machine far less than the server it measures; its own CPU time and how late it sent requests are
reported, so a run where the client itself was the bottleneck can be recognised.

Bounded: only a loopback address is accepted, every phone stops at the deadline or after its request
budget, and every wait has a timeout. Used by ``bench/bench_hall.py`` (JSON figures) and, small, by
``tests/web/test_load.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from app.services.hall import is_loopback

#: (path, weight) of what a phone opens; "{b}" is a random board of the current round.
DEFAULT_MIX = (
    ("/g/1/", 50),
    ("/g/1/standings", 12),
    ("/g/1/r/4/b/{b}", 15),
    ("/", 10),
    ("/g/2/", 6),
    ("/find?q=%E7%8E%8B", 4),  # 王
    ("/g/1/crosstable", 3),
)
READ_TIMEOUT = 30.0
MAX_CLIENTS = 5000


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # seconds, pages opened (from the moment wanted)
    wanted: list[float] = field(default_factory=list)  # when each of those pages was wanted
    refresh_latencies: list[float] = field(default_factory=list)  # the ?part=main fetches after an event
    late: list[float] = field(default_factory=list)  # how late the client itself sent a page request
    errors: list[str] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    streams_opened: int = 0
    events: int = 0
    versions: set[str] = field(default_factory=set)
    bytes: int = 0
    reconnects: int = 0
    # per phone: (monotonic time, version) of every response that carried a version
    seen: list[list[tuple[float, int]]] = field(default_factory=list)
    cpu: float = 0.0  # the load client's own CPU seconds

    def to_json(self) -> dict[str, object]:
        return {
            "latencies": self.latencies,
            "wanted": self.wanted,
            "refresh_latencies": self.refresh_latencies,
            "late": self.late,
            "errors": self.errors[:50],
            "error_count": len(self.errors),
            "statuses": {str(k): v for k, v in self.statuses.items()},
            "streams_opened": self.streams_opened,
            "events": self.events,
            "versions": sorted(self.versions),
            "bytes": self.bytes,
            "reconnects": self.reconnects,
            "seen": self.seen,
            "cpu": self.cpu,
        }

    def add(self, data: dict[str, Any]) -> None:
        """Add what another load process counted (see :meth:`to_json`)."""
        self.latencies += data["latencies"]
        self.wanted += data["wanted"]
        self.refresh_latencies += data["refresh_latencies"]
        self.late += data["late"]
        self.errors += data["errors"] + [""] * (data["error_count"] - len(data["errors"]))
        for k, v in data["statuses"].items():
            self.statuses[int(k)] = self.statuses.get(int(k), 0) + v
        self.streams_opened += data["streams_opened"]
        self.events += data["events"]
        self.versions |= set(data["versions"])
        self.bytes += data["bytes"]
        self.reconnects += data["reconnects"]
        self.seen += [[(t, v) for t, v in log] for log in data["seen"]]
        self.cpu += data["cpu"]


class HttpConnection(asyncio.Protocol):
    """One HTTP/1.1 keep-alive connection; one request at a time (as a browser uses a connection)."""

    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.waiter: asyncio.Future[tuple[int, dict[bytes, bytes], int]] | None = None
        self.closed = asyncio.get_running_loop().create_future()
        self.head: tuple[int, dict[bytes, bytes], int] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.transport = None
        if not self.closed.done():
            self.closed.set_result(None)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(ConnectionResetError("closed by the server"))

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while self.waiter is not None and not self.waiter.done():
            if self.head is None:
                end = self.buffer.find(b"\r\n\r\n")
                if end < 0:
                    return
                lines = bytes(self.buffer[:end]).split(b"\r\n")
                del self.buffer[: end + 4]
                status = int(lines[0].split()[1])
                headers = {}
                for line in lines[1:]:
                    name, _, value = line.partition(b":")
                    headers[name.strip().lower()] = value.strip()
                self.head = (status, headers, int(headers.get(b"content-length", b"0")))
            status, headers, length = self.head
            if len(self.buffer) < length:
                return
            del self.buffer[:length]
            self.head = None
            self.waiter.set_result((status, headers, length))

    async def request(self, raw: bytes) -> tuple[int, dict[bytes, bytes], int]:
        if self.transport is None or self.transport.is_closing():
            raise ConnectionResetError("closed")
        self.waiter = asyncio.get_running_loop().create_future()
        self.transport.write(raw)
        return await asyncio.wait_for(self.waiter, READ_TIMEOUT)

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


class EventStream(asyncio.Protocol):
    """The refresh stream: calls ``on_version`` with each announced version."""

    def __init__(self, on_version: Callable[[str], None], on_open: Callable[[], None]) -> None:
        self.on_version, self.on_open = on_version, on_open
        self.buffer = bytearray()
        self.opened = False
        self.transport: asyncio.Transport | None = None
        self.closed = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(None)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if not self.opened:
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            if not self.buffer.startswith(b"HTTP/1.1 200"):
                if self.transport is not None:
                    self.transport.close()
                return
            self.opened = True
            self.on_open()
            del self.buffer[: end + 4]
        while True:
            end = self.buffer.find(b"\n\n")
            if end < 0:
                return
            event = bytes(self.buffer[:end])
            del self.buffer[: end + 2]
            for line in event.split(b"\n"):
                # chunked framing: the chunk-size lines carry no colon-prefixed field
                if line.startswith(b"data:"):
                    self.on_version(line[5:].strip().decode("ascii", "replace"))

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


def source_address(index: int, same: bool) -> str | None:
    """Phone ``index``'s own loopback address (127.0.1.1, 127.0.1.2, …), or None for the default."""
    if same:
        return None
    return f"127.0.{1 + index // 250}.{1 + index % 250}"


class Phone:
    index: int

    def __init__(
        self,
        index: int,
        host: str,
        port: int,
        deadline: float,
        budget: int,
        think: float,
        jitter: float,
        mix: tuple[tuple[str, int], ...],
        boards: int,
        tally: Tally,
        same_address: bool,
    ) -> None:
        self.index, self.host, self.port = index, host, port
        self.deadline, self.budget, self.think, self.jitter = deadline, budget, think, jitter
        self.rng = random.Random(index)
        self.paths = [p for p, _ in mix]
        self.weights = [w for _, w in mix]
        self.boards, self.tally = boards, tally
        self.local = source_address(index, same_address)
        self.authority = f"{host}:{port}"
        self.conn: HttpConnection | None = None
        self.stream: EventStream | None = None
        self.version: str | None = None
        self.refresh = asyncio.Event()
        self.current = "/g/1/"
        self.etags: dict[str, bytes] = {}
        self.lock = asyncio.Lock()  # one request at a time on the page connection
        self.seen: list[tuple[float, int]] = []
        tally.seen.append(self.seen)

    async def _connect(self, protocol: Callable[[], asyncio.Protocol]) -> asyncio.Protocol:
        loop = asyncio.get_running_loop()
        local = (self.local, 0) if self.local else None
        _, proto = await asyncio.wait_for(
            loop.create_connection(protocol, self.host, self.port, local_addr=local), READ_TIMEOUT
        )
        return proto

    def _on_version(self, value: str) -> None:
        self.tally.events += 1
        self.tally.versions.add(value)
        if self.version is not None and value != self.version:
            self.refresh.set()
        self.version = value

    def _on_open(self) -> None:
        self.tally.streams_opened += 1

    async def open_stream(self) -> None:
        try:
            proto = await self._connect(lambda: EventStream(self._on_version, self._on_open))
        except (OSError, TimeoutError) as exc:
            self.tally.errors.append(f"stream connect: {exc!r}")
            return
        assert isinstance(proto, EventStream)
        self.stream = proto
        proto.transport.write(  # type: ignore[union-attr]
            f"GET /events HTTP/1.1\r\nHost: {self.authority}\r\nAccept: text/event-stream\r\n"
            "User-Agent: hall-load\r\n\r\n".encode()
        )

    async def get(self, path: str) -> tuple[int, int]:
        """One GET on the page connection (reopened when the server closed it while idle)."""
        async with self.lock:
            etag = self.etags.get(path)
            raw = (
                f"GET {path} HTTP/1.1\r\nHost: {self.authority}\r\nAccept-Encoding: gzip, deflate\r\n"
                "Accept: text/html,*/*\r\nUser-Agent: hall-load\r\n"
                + (f"If-None-Match: {etag.decode()}\r\n" if etag else "")
                + "\r\n"
            ).encode()
            for attempt in (0, 1):
                if self.conn is None or self.conn.transport is None:
                    if self.conn is not None:
                        self.tally.reconnects += 1
                    proto = await self._connect(HttpConnection)
                    assert isinstance(proto, HttpConnection)
                    self.conn = proto
                try:
                    status, headers, length = await self.conn.request(raw)
                    break
                except ConnectionResetError:
                    # closed by the server between two requests: a browser retries a GET once
                    self.conn = None
                    if attempt:
                        raise
            if b"etag" in headers:
                self.etags[path] = headers[b"etag"]
            version = headers.get(b"x-hall-version")
            if version is not None and version.isdigit():
                self.seen.append((time.monotonic(), int(version)))
            return status, length

    def _record(self, path: str, status: int, length: int) -> None:
        t = self.tally
        t.statuses[status] = t.statuses.get(status, 0) + 1
        t.bytes += length
        if status not in (200, 304):
            t.errors.append(f"{path}: HTTP {status}")

    async def refresher(self) -> None:
        while time.monotonic() < self.deadline:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.refresh.wait(), max(0.01, self.deadline - time.monotonic()))
            if not self.refresh.is_set() or time.monotonic() >= self.deadline:
                return
            self.refresh.clear()
            if self.jitter > 0:
                await asyncio.sleep(self.rng.random() * self.jitter)
            path = self.current + ("&" if "?" in self.current else "?") + "part=main"
            started = time.monotonic()
            try:
                status, length = await self.get(path)
            except (OSError, TimeoutError) as exc:
                self.tally.errors.append(f"{path}: {exc!r}")
                return
            self.tally.refresh_latencies.append(time.monotonic() - started)
            self._record(path, status, length)

    async def browse(self) -> None:
        wanted = time.monotonic()
        for _ in range(self.budget):
            wanted += self.rng.expovariate(1 / self.think) if self.think > 0 else 0.0
            if wanted >= self.deadline:
                return
            await asyncio.sleep(max(0.0, wanted - time.monotonic()))
            self.tally.late.append(time.monotonic() - wanted)
            path = self.rng.choices(self.paths, self.weights)[0].replace(
                "{b}", str(self.rng.randint(1, self.boards))
            )
            if "part=" not in path:
                self.current = path
            try:
                status, length = await self.get(path)
            except (OSError, TimeoutError) as exc:
                self.tally.errors.append(f"{path}: {exc!r}")
                return
            self.tally.latencies.append(time.monotonic() - wanted)
            self.tally.wanted.append(wanted)
            self._record(path, status, length)

    async def run(self, delay: float = 0.0) -> None:
        await asyncio.sleep(delay)
        await self.open_stream()
        refresher = asyncio.create_task(self.refresher())
        try:
            await self.browse()
            remaining = self.deadline - time.monotonic()
            if remaining > 0:  # the budget is spent: keep listening until the deadline
                await asyncio.sleep(remaining)
        finally:
            refresher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await refresher
            if self.conn is not None:
                self.conn.close()
            if self.stream is not None:
                self.stream.close()


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, math.ceil(p / 100 * len(ordered)) - 1))
    return ordered[k]


def delivery(
    seen: list[list[tuple[float, int]]], commits: list[tuple[int, float]], end: float, *, window: float = 3.0
) -> dict[str, object]:
    """How long each committed change took to reach each phone.

    ``commits`` are (version, monotonic time of the commit) from the server's side (CLOCK_MONOTONIC is
    shared by the processes of one machine); a phone *has* version v from its first response carrying a
    version ≥ v. Changes committed less than ``window`` seconds before ``end`` are not counted; a phone
    that never got a counted change counts as not reached.
    """
    delays: list[float] = []
    missed = 0
    counted = [(v, t) for v, t in commits if t <= end - window]
    for log in seen:
        for v, t in counted:
            first = next((at for at, version in log if version >= v and at >= t), None)
            if first is None:
                missed += 1
            else:
                delays.append(first - t)
    ms = [d * 1000 for d in delays]
    return {
        "changes_counted": len(counted),
        "deliveries": len(delays),
        "not_reached": missed,
        "result_p50_ms": round(percentile(ms, 50), 1) if ms else None,
        "result_p95_ms": round(percentile(ms, 95), 1) if ms else None,
        "result_max_ms": round(max(ms), 1) if ms else None,
    }


def check(url: str, clients: int, duration: float, budget: int, ramp: float) -> tuple[str, int]:
    parts = urlsplit(url)
    host, port = parts.hostname or "", parts.port or 80
    if not is_loopback(host):
        raise ValueError(f"the load test only targets this machine's loopback address, not {host!r}")
    if not (1 <= clients <= MAX_CLIENTS and 0 < duration <= 600 and 1 <= budget <= 100_000):
        raise ValueError(f"clients 1–{MAX_CLIENTS}, duration ≤ 600 s, budget ≤ 100,000 per phone")
    if not 0 <= ramp < duration:
        raise ValueError("the ramp must end before the run")
    return host, port


async def run_phones(
    url: str,
    *,
    clients: int,
    duration: float,
    think: float = 1.0,
    jitter: float = 0.0,
    budget: int = 1000,
    boards: int = 60,
    mix: tuple[tuple[str, int], ...] = DEFAULT_MIX,
    same_address: bool | None = None,
    ramp: float = 0.0,
    first: int = 0,
    total: int | None = None,
    started: float | None = None,
) -> tuple[Tally, float]:
    """Phones ``first`` … ``first + clients - 1`` of ``total`` (their addresses and their moments of
    arrival over the ramp follow their number, so that several load processes make one hall).
    Returns the tally and the moment (monotonic) the run ended."""
    host, port = check(url, clients, duration, budget, ramp)
    if same_address is None:  # other loopback addresses than 127.0.0.1 exist on Linux only
        same_address = not sys.platform.startswith("linux") or host != "127.0.0.1"
    total = total or clients
    tally = Tally()
    cpu0 = time.process_time()
    started = time.monotonic() if started is None else started
    deadline = started + duration
    phones = [
        Phone(first + i, host, port, deadline, budget, think, jitter, mix, boards, tally, same_address)
        for i in range(clients)
    ]
    await asyncio.gather(
        *(p.run(max(0.0, started + ramp * p.index / total - time.monotonic())) for p in phones)
    )
    tally.cpu = time.process_time() - cpu0
    return tally, time.monotonic()


def figures_of(
    tally: Tally,
    *,
    started: float,
    ended: float,
    ramp: float,
    clients: int,
    think: float,
    jitter: float,
    settle: float = 0.0,
) -> dict[str, object]:
    """The figures of a run from its tally (pages counted from ``settle`` seconds after the ramp on)."""
    elapsed = ended - started
    steady = started + ramp + settle
    every_ms = [x * 1000 for x in tally.latencies]
    ms = [x * 1000 for x, w in zip(tally.latencies, tally.wanted, strict=True) if w >= steady]
    refresh_ms = [x * 1000 for x in tally.refresh_latencies]
    late_ms = [x * 1000 for x in tally.late]
    requests = len(every_ms) + len(refresh_ms)
    return {
        "clients": clients,
        "seconds": round(elapsed, 2),
        "ramp_s": ramp,
        "measured_from_s": ramp + settle,
        "think_mean_s": round(think, 3),
        "refresh_jitter_s": jitter,
        "requests": requests,
        "requests_per_s": round(requests / elapsed, 1),
        "pages": len(ms),
        "p95_ms_whole_run": round(percentile(every_ms, 95), 2),
        "p95_ms_by_5_s": [
            round(percentile(window, 95), 1) if window else None
            for window in (
                [
                    x * 1000
                    for x, w in zip(tally.latencies, tally.wanted, strict=True)
                    if a <= w - started < a + 5
                ]
                for a in range(0, int(elapsed), 5)
            )
        ],
        "p50_ms": round(percentile(ms, 50), 2),
        "p95_ms": round(percentile(ms, 95), 2),
        "p99_ms": round(percentile(ms, 99), 2),
        "max_ms": round(max(ms), 2) if ms else None,
        "mean_ms": round(statistics.fmean(ms), 2) if ms else None,
        "refreshes": len(refresh_ms),
        "refresh_p50_ms": round(percentile(refresh_ms, 50), 2) if refresh_ms else None,
        "refresh_p95_ms": round(percentile(refresh_ms, 95), 2) if refresh_ms else None,
        "streams_opened": tally.streams_opened,
        "events": tally.events,
        "versions_seen": len(tally.versions),
        "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
        "errors": len(tally.errors),
        "first_errors": [e for e in tally.errors if e][:5],
        "reconnects": tally.reconnects,
        "megabytes": round(tally.bytes / 1e6, 2),
        "client_cpu_s": round(tally.cpu, 2),
        "client_cpu_us_per_request": round(1e6 * tally.cpu / requests, 1) if requests else None,
        "client_late_p95_ms": round(percentile(late_ms, 95), 2) if late_ms else None,
    }


async def run_load(
    url: str,
    *,
    clients: int,
    duration: float,
    think: float = 1.0,
    jitter: float = 0.0,
    budget: int = 1000,
    boards: int = 60,
    mix: tuple[tuple[str, int], ...] = DEFAULT_MIX,
    same_address: bool | None = None,
    ramp: float = 0.0,
    settle: float = 0.0,
) -> tuple[dict[str, object], Tally, float, float]:
    """Run ``clients`` phones against ``url`` (loopback only) for at most ``duration`` seconds, the
    phones arriving over ``ramp`` seconds, in this process.

    Returns the figures, the raw tally, the moment (monotonic) the measuring began (``settle`` seconds
    after the ramp) and the run ended.
    """
    check(url, clients, duration, budget, ramp)
    started = time.monotonic()
    tally, ended = await run_phones(
        url,
        clients=clients,
        duration=duration,
        think=think,
        jitter=jitter,
        budget=budget,
        boards=boards,
        mix=mix,
        same_address=same_address,
        ramp=ramp,
        started=started,
    )
    figures = figures_of(
        tally,
        started=started,
        ended=ended,
        ramp=ramp,
        clients=clients,
        think=think,
        jitter=jitter,
        settle=settle,
    )
    return figures, tally, started + ramp + settle, ended


def main() -> int:
    """One load process of several (``bench/bench_hall.py --client-processes``): its tally as JSON."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--clients", type=int, required=True)
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--total", type=int, required=True)
    parser.add_argument("--started", type=float, required=True, help="monotonic time of the start")
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--jitter", type=float, default=0.0)
    parser.add_argument("--ramp", type=float, default=0.0)
    parser.add_argument("--same-address", action="store_true")
    args = parser.parse_args()
    tally, ended = asyncio.run(
        run_phones(
            args.url,
            clients=args.clients,
            duration=args.seconds,
            think=args.think,
            jitter=args.jitter,
            ramp=args.ramp,
            same_address=args.same_address or None,
            first=args.first,
            total=args.total,
            started=args.started,
        )
    )
    json.dump({"tally": tally.to_json(), "ended": ended}, sys.stdout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
