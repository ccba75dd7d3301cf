"""Seconds and peak memory of pair_round, one JSON line per case.

python bench/bench_pairing.py [--per-round N] [players ...]

For every size: ``pair_round`` after 5 rounds of history (case ``pair_round``), and — for sizes of
1,000 and more, where the early score groups are huge — each of rounds 1–N (default 5) on its own
(case ``pair_round_per_round``, ``round`` = the round being paired, ``rounds`` = rounds of history).
Beside the time, each case prints the pairing's quality: players who miss their due colour (S2),
the order cost (S3), floaters and long floats (S1), and whether the round was proved optimal.
"""

from __future__ import annotations

import json
import sys
import time
import tracemalloc

from app.engine.pairing import pair_round
from app.engine.pairing.model import PairingPlayer
from app.engine.regulations import PairingRules
from app.engine.simulation import SimulatedEvent

HISTORY = 5
PER_ROUND_FROM = 1000  # sizes from which each of rounds 1..HISTORY is reported too


def _measure(
    pool: list[PairingPlayer], round_number: int, rules: PairingRules
) -> tuple[float, float, dict[str, object]]:
    t = time.perf_counter()
    pairing = pair_round(pool, round_number, rules, seed=1)
    seconds = time.perf_counter() - t
    tracemalloc.start()
    pair_round(pool, round_number, rules, seed=1)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    q = pairing.quality
    quality: dict[str, object] = {}
    if q is not None:
        quality = {
            "missed_due_colours": q.missed_colours,
            "order_cost": q.order_cost,
            "floaters": sum(q.cuts),
            "long_floats": q.long_floats,
            "proved_optimal": q.exact,
            "bounded_players": q.bounded_players,
        }
    return seconds, peak / 2**20, quality


def run(players: int, per_round: int = HISTORY) -> list[dict[str, object]]:
    event = SimulatedEvent(players, seed=players, teams=True)
    cases: list[dict[str, object]] = []
    history_seconds = []
    for played in range(HISTORY):
        if players >= PER_ROUND_FROM and played < per_round:
            seconds, peak, quality = _measure(event.pool(), played + 1, event.rules)
            cases.append(
                {
                    "case": "pair_round_per_round",
                    "players": players,
                    "round": played + 1,
                    "rounds": played,
                    "seconds": round(seconds, 4),
                    "peak_memory_mb": round(peak, 2),
                    **quality,
                }
            )
        t = time.perf_counter()
        event.play_round()
        history_seconds.append(time.perf_counter() - t)
    seconds, peak, quality = _measure(event.pool(), HISTORY + 1, event.rules)
    cases.append(
        {
            "case": "pair_round",
            "players": players,
            "rounds": HISTORY,
            "seconds": round(seconds, 4),
            "peak_memory_mb": round(peak, 2),
            **quality,
            "history_rounds_seconds": [round(s, 4) for s in history_seconds],
        }
    )
    for played in range(HISTORY, per_round if players >= PER_ROUND_FROM else HISTORY):
        seconds, peak, quality = _measure(event.pool(), played + 1, event.rules)
        cases.append(
            {
                "case": "pair_round_per_round",
                "players": players,
                "round": played + 1,
                "rounds": played,
                "seconds": round(seconds, 4),
                "peak_memory_mb": round(peak, 2),
                **quality,
            }
        )
        event.play_round()
    return cases


if __name__ == "__main__":
    args = sys.argv[1:]
    per_round = HISTORY
    if args[:1] == ["--per-round"]:
        per_round, args = int(args[1]), args[2:]
    sizes = [int(a) for a in args] or [160, 240, 1000, 5000]
    for n in sizes:
        for case in run(n, per_round):
            print(json.dumps(case), flush=True)
