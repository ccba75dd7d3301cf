"""Seconds per round and peak memory of pair_round after 5 rounds of history (one JSON line per case).

python bench/bench_pairing.py [players ...]
"""

from __future__ import annotations

import json
import sys
import time
import tracemalloc

from app.engine.pairing import pair_round
from app.engine.simulation import SimulatedEvent

HISTORY = 5


def run(players: int) -> dict[str, object]:
    event = SimulatedEvent(players, seed=players, teams=True)
    history_seconds = []
    for _ in range(HISTORY):
        t = time.perf_counter()
        event.play_round()
        history_seconds.append(time.perf_counter() - t)
    pool = event.pool()
    t = time.perf_counter()
    pair_round(pool, HISTORY + 1, event.rules, seed=1)
    seconds = time.perf_counter() - t
    tracemalloc.start()
    pair_round(pool, HISTORY + 1, event.rules, seed=1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "case": "pair_round",
        "players": players,
        "rounds": HISTORY,
        "seconds": round(seconds, 4),
        "peak_memory_mb": round(peak / 2**20, 2),
        "history_rounds_seconds": [round(s, 4) for s in history_seconds],
    }


if __name__ == "__main__":
    sizes = [int(a) for a in sys.argv[1:]] or [160, 1000, 5000]
    for n in sizes:
        print(json.dumps(run(n)), flush=True)
