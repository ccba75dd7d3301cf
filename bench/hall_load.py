"""A bounded load test of the hall server: many simulated phones on 127.0.0.1, latencies measured.

Each simulated phone keeps the refresh stream (``/events``) open like the page script does, and on a
second keep-alive connection opens pages (mostly its group's current round, then standings, a board,
the index, a search) with a random pause between them; when the stream announces a new version it
fetches the page's ``<main>`` part after a random wait of up to 1.5 s, as the page script does.

Bounded: only a loopback address is accepted, every phone stops at the deadline or after its request
budget, and every read has a timeout. Used by ``bench/bench_hall.py`` (JSON figures) and, small, by
``tests/web/test_load.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import statistics
import time
from dataclasses import dataclass, field
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


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # seconds, page requests
    refresh_latencies: list[float] = field(default_factory=list)  # the ?part=main fetches after an event
    errors: list[str] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    streams_opened: int = 0
    events: int = 0
    versions: set[str] = field(default_factory=set)
    bytes: int = 0


async def _request(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, host: str, path: str
) -> tuple[int, int]:
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept-Encoding: gzip\r\nUser-Agent: hall-load\r\n\r\n".encode()
    )
    await writer.drain()
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), READ_TIMEOUT)
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.lower() == "content-length":
            length = int(value.strip())
    if length:
        await asyncio.wait_for(reader.readexactly(length), READ_TIMEOUT)
    return status, length


async def _phone(
    index: int,
    host: str,
    port: int,
    deadline: float,
    budget: int,
    think: float,
    mix: tuple[tuple[str, int], ...],
    boards: int,
    tally: Tally,
) -> None:
    rng = random.Random(index)
    paths = [p for p, _ in mix]
    weights = [w for _, w in mix]
    refresh = asyncio.Event()
    version: list[str] = []

    async def stream() -> None:
        try:
            reader, writer = await asyncio.open_connection(host, port)
        except OSError as exc:
            tally.errors.append(f"stream connect: {exc}")
            return
        try:
            writer.write(
                f"GET /events HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode()
            )
            await writer.drain()
            await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), READ_TIMEOUT)
            tally.streams_opened += 1
            while time.monotonic() < deadline:
                line = await asyncio.wait_for(reader.readline(), max(0.1, deadline - time.monotonic()))
                if not line:
                    return
                text = line.decode("utf-8", "replace").strip()
                if text.startswith("data:"):
                    value = text[5:].strip()
                    tally.events += 1
                    tally.versions.add(value)
                    if version and value != version[0]:
                        refresh.set()
                    version[:] = [value]
        except (TimeoutError, asyncio.IncompleteReadError, ConnectionError):
            return
        finally:
            writer.close()

    streamer = asyncio.create_task(stream())
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as exc:
        tally.errors.append(f"connect: {exc}")
        streamer.cancel()
        return
    current = "/g/1/"
    try:
        for _ in range(budget):
            if time.monotonic() >= deadline:
                break
            pause = rng.expovariate(1 / think) if think > 0 else 0.0
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(refresh.wait(), min(pause, max(0.0, deadline - time.monotonic())))
            if time.monotonic() >= deadline:
                break
            if refresh.is_set():
                refresh.clear()
                await asyncio.sleep(rng.random() * 1.5)
                path, bucket = (
                    current + ("&" if "?" in current else "?") + "part=main",
                    tally.refresh_latencies,
                )
            else:
                current = rng.choices(paths, weights)[0].replace("{b}", str(rng.randint(1, boards)))
                path, bucket = current, tally.latencies
            started = time.perf_counter()
            try:
                status, length = await _request(reader, writer, f"{host}:{port}", path)
            except (TimeoutError, asyncio.IncompleteReadError, ConnectionError) as exc:
                tally.errors.append(f"{path}: {exc!r}")
                break
            bucket.append(time.perf_counter() - started)
            tally.statuses[status] = tally.statuses.get(status, 0) + 1
            tally.bytes += length
            if status != 200:
                tally.errors.append(f"{path}: HTTP {status}")
    finally:
        writer.close()
        streamer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await streamer


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


async def run_load(
    url: str,
    *,
    clients: int,
    duration: float,
    think: float = 1.0,
    budget: int = 1000,
    boards: int = 60,
    mix: tuple[tuple[str, int], ...] = DEFAULT_MIX,
) -> dict[str, object]:
    """Run ``clients`` phones against ``url`` (loopback only) for at most ``duration`` seconds."""
    parts = urlsplit(url)
    host, port = parts.hostname or "", parts.port or 80
    if not is_loopback(host):
        raise ValueError(f"the load test only targets this machine's loopback address, not {host!r}")
    if not (1 <= clients <= 1000 and 0 < duration <= 600 and 1 <= budget <= 100_000):
        raise ValueError("clients 1–1000, duration ≤ 600 s, budget ≤ 100,000 per phone")
    tally = Tally()
    started = time.monotonic()
    deadline = started + duration
    await asyncio.gather(
        *(_phone(i, host, port, deadline, budget, think, mix, boards, tally) for i in range(clients))
    )
    elapsed = time.monotonic() - started
    ms = [x * 1000 for x in tally.latencies]
    refresh_ms = [x * 1000 for x in tally.refresh_latencies]
    return {
        "clients": clients,
        "seconds": round(elapsed, 2),
        "think_mean_s": think,
        "requests": len(ms) + len(refresh_ms),
        "requests_per_s": round((len(ms) + len(refresh_ms)) / elapsed, 1),
        "p50_ms": round(percentile(ms, 50), 2),
        "p95_ms": round(percentile(ms, 95), 2),
        "p99_ms": round(percentile(ms, 99), 2),
        "max_ms": round(max(ms), 2) if ms else None,
        "mean_ms": round(statistics.fmean(ms), 2) if ms else None,
        "refreshes": len(refresh_ms),
        "refresh_p95_ms": round(percentile(refresh_ms, 95), 2) if refresh_ms else None,
        "streams_opened": tally.streams_opened,
        "events": tally.events,
        "versions_seen": len(tally.versions),
        "statuses": {str(k): v for k, v in sorted(tally.statuses.items())},
        "errors": len(tally.errors),
        "first_errors": tally.errors[:5],
        "megabytes": round(tally.bytes / 1e6, 2),
    }
