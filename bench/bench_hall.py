"""Benchmark: the hall server under 200 phones on 127.0.0.1 (prints JSON).

The server runs in its own process, as in the hall: the demo event mid-tournament (160 players, 公开组
round 4 being entered), served by uvicorn in a background thread, with a "chief" entering one result
every few seconds through the owner (each change rebuilds the pages and is announced to every phone,
which then fetches its page again). A third process keeps one core busy (``--no-busy`` to skip), as
another program on the arbiter's laptop would. The load client is :mod:`bench.hall_load`.

    .venv/bin/python bench/bench_hall.py [--clients 200] [--seconds 30] [--think 1.0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def serve(path: Path, change_every: float) -> int:
    """The server process: serve ``path`` on a free loopback port, enter a result every few seconds."""
    from app.engine.types import GameResult
    from app.services.results import enter_result
    from app.services.rounds import round_view
    from app.services.tournaments import open_tournament
    from app.web.app import ThreadOwner
    from app.web.server import HallServer

    db = open_tournament(path)
    owner = ThreadOwner()
    server = HallServer(db, owner, port=0)
    url = server.start()
    print("READY", url, flush=True)
    stop = threading.Event()
    changes = [0]

    def chief() -> None:
        pending = [b.board for b in round_view(db, "公开组", 4).boards if b.result is GameResult.PENDING]
        for board in pending:
            if stop.wait(change_every):
                return
            owner.submit(lambda board=board: enter_result(db, "公开组", 4, board, GameResult.DRAW)).result()
            server.changed()
            changes[0] += 1

    if change_every > 0:
        threading.Thread(target=chief, daemon=True).start()
    sys.stdin.readline()  # the parent closes stdin when it is done
    stop.set()
    server.stop()
    owner.close()
    db.close()
    print(json.dumps({"changes": changes[0]}), flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean pause between a phone's pages (s)")
    parser.add_argument("--change-every", type=float, default=3.0, help="a result entered every … s")
    parser.add_argument("--no-busy", action="store_true", help="do not load a core with another process")
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        return serve(args.serve, args.change_every)

    from app.services.demo import create_demo
    from app.services.simulation import play_demo_midway
    from bench.hall_load import run_load

    work = Path(tempfile.mkdtemp(prefix="xq-bench-hall-"))
    path = work / "demo.xqt"
    db = create_demo(path, seed=2024)
    play_demo_midway(db, seed=2024)
    db.close()

    busy = None if args.no_busy else subprocess.Popen([sys.executable, "-c", "while True: pass"])
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(path), "--change-every", str(args.change_every)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert server.stdout is not None and server.stdin is not None
        ready = server.stdout.readline().split()
        if not ready or ready[0] != "READY":
            raise SystemExit(f"the server did not start: {ready}")
        url = ready[1]
        time.sleep(0.5)
        figures = asyncio.run(run_load(url, clients=args.clients, duration=args.seconds, think=args.think))
        server.stdin.close()
        tail = server.stdout.read().strip().splitlines()
        changes = json.loads(tail[-1])["changes"] if tail else None
    finally:
        if server.poll() is None:
            server.terminate()
        server.wait(10)
        if busy is not None:
            busy.kill()
            busy.wait()
    import importlib.util

    result = {
        "benchmark": "hall_server",
        "event": "demo mid-tournament, 160 players, 公开组 round 4 (60 boards) being entered",
        "busy_core": busy is not None,
        "cores": os.cpu_count(),
        "http": "httptools" if importlib.util.find_spec("httptools") else "h11",
        "results_entered_during_run": changes,
        **figures,
        "goal_p95_ms": 100,
    }
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
