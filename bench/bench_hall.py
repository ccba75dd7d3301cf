"""Benchmark: the hall server under a full hall of phones on 127.0.0.1 (prints JSON).

The server runs in its own process, as in the hall: the demo event mid-tournament (160 players, 公开组
round 4 being entered), served by uvicorn in a background thread, with a "chief" entering one result
every few seconds through the owner (each change rebuilds the pages and is announced to every phone,
which then fetches its page again). A third process (a Python busy loop) keeps one core busy
(``--no-busy`` to skip), as another program on the arbiter's laptop would. The load client is
:mod:`bench.hall_load`: each phone from its own loopback address, holding the refresh stream and opening
pages at random (open loop).

Figures: page latency (from the moment a phone wanted the page), the time from a result's commit to
the moment each phone has a page carrying it ("result_p95_ms"), errors, and the CPU time of the server
process and of the load client (so that a run where the client was the bottleneck shows: its
"client_late_p95_ms" is how late it sent the pages it meant to). The phones are split over
``--client-processes`` load processes (2 by default: a single Python thread, like the server's event
loop, then does not stand for a whole hall alone).

    .venv/bin/python bench/bench_hall.py [--clients 1000] [--seconds 30] [--think 3]
    .venv/bin/python bench/bench_hall.py --knee      # p95 against the request rate, 1,000 phones
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def serve(path: Path, change_every: float, same_address: bool) -> int:
    """The server process: serve ``path`` on a free loopback port, enter a result every few seconds.
    With every phone on one address (``same_address``, or where only 127.0.0.1 exists) the limits per
    address are lifted: they would refuse the whole simulated hall."""
    from app.engine.types import GameResult
    from app.services import hall
    from app.services.results import enter_result
    from app.services.rounds import round_view
    from app.services.tournaments import open_tournament
    from app.web.app import ThreadOwner
    from app.web.limits import Limits
    from app.web.server import HallServer

    db = open_tournament(path)
    owner = ThreadOwner()
    one_address = same_address or not sys.platform.startswith("linux")
    lifted = Limits(per_address=100_000, requests=(1e6, 10**6), application_requests=(1e6, 10**6))
    server = HallServer(db, owner, port=0, limits=lifted if one_address else None)
    url = server.start()
    print("READY", url, flush=True)
    stop = threading.Event()
    commits: list[tuple[int, float]] = []

    def enter(board: int) -> tuple[int, float]:
        enter_result(db, "公开组", 4, board, GameResult.DRAW)
        return hall.change_stamp(db), time.monotonic()

    announced: list[float] = []  # from a commit to the new version being announced to the streams

    def chief() -> None:
        pending = [b.board for b in round_view(db, "公开组", 4).boards if b.result is GameResult.PENDING]
        for board in pending:
            if stop.wait(change_every):
                return
            version, at = owner.submit(lambda board=board: enter(board)).result()
            commits.append((version, at))
            server.changed()
            hub = getattr(server.hall, "hub", None)  # (the server before the hub: not measured)
            if hub is not None:
                while hub.version < version and not stop.wait(0.002):
                    pass
                announced.append(time.monotonic() - at)

    if change_every > 0:
        threading.Thread(target=chief, daemon=True).start()
    sys.stdin.read()  # the parent closes stdin when it is done
    stop.set()
    server.stop()
    owner.close()
    db.close()
    print(json.dumps({"commits": commits, "announced": announced}), flush=True)
    return 0


def load_in_processes(
    url: str,
    processes: int,
    *,
    clients: int,
    seconds: float,
    think: float,
    jitter: float,
    ramp: float,
    settle: float,
    same_address: bool,
) -> tuple[dict[str, object], Any, float, float]:
    """The phones split over several load processes (each a single thread, as the server's event loop
    is): figures, the merged tally, the end of the ramp and the end of the run."""
    from bench.hall_load import Tally, figures_of

    started = time.monotonic() + 2.0  # all processes started and ready by then
    shares = [clients // processes + (k < clients % processes) for k in range(processes)]
    running = []
    first = 0
    for share in shares:
        command = [
            sys.executable,
            "-m",
            "bench.hall_load",
            "--url",
            url,
            "--clients",
            str(share),
            "--first",
            str(first),
            "--total",
            str(clients),
            "--started",
            repr(started),
            "--seconds",
            str(seconds),
            "--think",
            str(think),
            "--jitter",
            str(jitter),
            "--ramp",
            str(ramp),
            *(["--same-address"] if same_address else []),
        ]
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        running.append(subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env))
        first += share
    tally, ended = Tally(), started
    for process in running:
        out, _ = process.communicate(timeout=seconds + 120)
        data = json.loads(out)
        tally.add(data["tally"])
        ended = max(ended, data["ended"])
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
    figures["client_processes"] = processes
    return figures, tally, started + ramp + settle, ended


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of process ``pid`` (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def load_average() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--think", type=float, default=3.0, help="mean pause between a phone's pages (s)")
    parser.add_argument(
        "--jitter", type=float, default=0.0, help="a phone's random wait before a refresh (s)"
    )
    parser.add_argument("--change-every", type=float, default=3.0, help="a result entered every … s")
    parser.add_argument("--no-busy", action="store_true", help="do not load a core with another process")
    parser.add_argument("--same-address", action="store_true", help="every phone on 127.0.0.1")
    parser.add_argument("--ramp", type=float, default=10.0, help="the phones arrive over … s")
    parser.add_argument("--settle", type=float, default=5.0, help="measured from … s after the ramp")
    parser.add_argument(
        "--client-processes", type=int, default=2, help="load processes the phones are split over"
    )
    parser.add_argument(
        "--knee",
        nargs="*",
        type=float,
        metavar="RATE",
        help="step the page rate (requests/s over all phones) and report p95 at each step",
    )
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve(args.serve, args.change_every, args.same_address)

    from app.services.demo import create_demo
    from app.services.simulation import play_demo_midway
    from bench.hall_load import delivery, run_load

    work = Path(tempfile.mkdtemp(prefix="xq-bench-hall-"))
    path = work / "demo.xqt"
    db = create_demo(path, seed=2024)
    play_demo_midway(db, seed=2024)
    db.close()

    load_before = load_average()
    busy = None if args.no_busy else subprocess.Popen([sys.executable, "-c", "while True: pass"])
    server = subprocess.Popen(
        [
            sys.executable,
            __file__,
            "--serve",
            str(path),
            "--change-every",
            str(args.change_every),
            *(["--same-address"] if args.same_address else []),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    runs: list[dict[str, Any]] = []
    try:
        assert server.stdout is not None and server.stdin is not None
        ready = server.stdout.readline().split()
        if not ready or ready[0] != "READY":
            raise SystemExit(f"the server did not start: {ready}")
        url = ready[1]
        time.sleep(0.5)
        steps = [None] if args.knee is None else (args.knee or [300, 600, 900, 1200, 1600, 2000])
        for rate in steps:
            think = args.think if rate is None else args.clients / rate
            cpu0 = cpu_seconds(server.pid)
            if args.client_processes > 1:
                figures, tally, steady, ended = load_in_processes(
                    url,
                    args.client_processes,
                    clients=args.clients,
                    seconds=args.seconds,
                    think=think,
                    jitter=args.jitter,
                    ramp=args.ramp,
                    settle=args.settle,
                    same_address=args.same_address,
                )
            else:
                figures, tally, steady, ended = asyncio.run(
                    run_load(
                        url,
                        clients=args.clients,
                        duration=args.seconds,
                        think=think,
                        jitter=args.jitter,
                        same_address=args.same_address or None,
                        ramp=args.ramp,
                        settle=args.settle,
                    )
                )
            cpu1 = cpu_seconds(server.pid)
            if cpu0 is not None and cpu1 is not None:
                figures["server_cpu_s"] = round(cpu1 - cpu0, 2)
                requests = int(figures["requests"])  # type: ignore[call-overload]
                figures["server_cpu_us_per_request"] = round(1e6 * (cpu1 - cpu0) / max(1, requests), 1)
            figures["_tally"], figures["_steady"], figures["_ended"] = tally, steady, ended
            runs.append(figures)
        server.stdin.close()
        tail = server.stdout.read().strip().splitlines()
        told = json.loads(tail[-1]) if tail else {"commits": [], "announced": []}
        commits = [tuple(c) for c in told["commits"]]
        announced = sorted(told["announced"])
    finally:
        if server.poll() is None:
            server.terminate()
        server.wait(10)
        if busy is not None:
            busy.kill()
            busy.wait()
    for figures in runs:
        tally, steady, ended = figures.pop("_tally"), figures.pop("_steady"), figures.pop("_ended")
        mine = [(v, t) for v, t in commits if steady <= t <= ended]
        figures.update(delivery(tally.seen, mine, ended))  # type: ignore[arg-type]

    common = {
        "benchmark": "hall_server",
        "event": "demo mid-tournament, 160 players, 公开组 round 4 (60 boards) being entered",
        "busy_core": busy is not None,
        "cores": os.cpu_count(),
        "load_average_before": load_before,
        "http": "httptools" if importlib.util.find_spec("httptools") else "h11",
        "client_processes": args.client_processes,
        "result_every_s": args.change_every,
        "announced_p50_ms": round(1000 * announced[len(announced) // 2], 1) if announced else None,
        "announced_max_ms": round(1000 * announced[-1], 1) if announced else None,
        "goal": "p95 ≤ 100 ms, result on every phone ≤ 1 s (p95), 0 errors",
    }
    if args.knee is None:
        print(json.dumps({**common, **runs[0]}, ensure_ascii=False))
        return 0
    table = [
        {
            k: f[k]
            for k in (
                "think_mean_s",
                "requests_per_s",
                "p50_ms",
                "p95_ms",
                "p99_ms",
                "result_p95_ms",
                "errors",
                "server_cpu_us_per_request",
                "client_cpu_us_per_request",
                "client_late_p95_ms",
            )
            if k in f
        }
        for f in runs
    ]
    # the knee: between the last step whose p95 was under 1 s and the first one over it
    under = [f["requests_per_s"] for f in runs if float(f["p95_ms"]) <= 1000]  # type: ignore[arg-type]
    over = [f["requests_per_s"] for f in runs if float(f["p95_ms"]) > 1000]  # type: ignore[arg-type]
    knee = [max(under) if under else None, min(over) if over else None]
    print(
        json.dumps(
            {**common, "clients": args.clients, "steps": table, "knee_between_requests_per_s": knee},
            ensure_ascii=False,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
