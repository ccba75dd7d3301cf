"""Benchmark: standings of a group (one JSON object per case on stdout).

Histories are simulated Swiss-like: each round players are sorted by score (random order inside a
score group) and paired neighbour with neighbour, the odd one out gets a bye; results are random
with a few forfeits; violations are sprinkled. Timing covers building the crosstable and ranking.
"""

from __future__ import annotations

import json
import random
import sys
import time
import tracemalloc
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.engine.regulations import Points, Regulations
from app.engine.standings import Entrant, Violation, standings
from app.engine.types import Game, GameResult, RoundRecord

RESULTS = [GameResult.RED_WIN] * 40 + [GameResult.DRAW] * 25 + [GameResult.BLACK_WIN] * 30
RESULTS += [GameResult.RED_FORFEIT, GameResult.BLACK_FORFEIT, GameResult.DOUBLE_FORFEIT]


def simulate(
    players: int, rounds: int, seed: int, results: list[GameResult] = RESULTS
) -> tuple[list[Entrant], list[RoundRecord], list[Violation]]:
    rng = random.Random(seed)
    points = Points()
    score = dict.fromkeys(range(1, players + 1), 0)
    records = []
    for number in range(1, rounds + 1):
        order = sorted(score, key=lambda no: (-score[no], rng.random()))
        byes: tuple[int, ...] = (order.pop(),) if len(order) % 2 else ()
        games = []
        for b in range(len(order) // 2):
            red, black = order[2 * b], order[2 * b + 1]
            if rng.random() < 0.5:
                red, black = black, red
            result = rng.choice(results)
            games.append(Game(b + 1, red, black, result))
            r, k = points.for_result(result)
            score[red] += r
            score[black] += k
        for no in byes:
            score[no] += points.bye
        records.append(RoundRecord(number, tuple(games), byes))
    violations = [Violation(rng.randint(1, players), rng.randint(1, rounds)) for _ in range(players // 20)]
    return [Entrant(no) for no in range(1, players + 1)], records, violations


def run(players: int, rounds: int, goal: float, repeats: int, all_draws: bool = False) -> dict[str, object]:
    results = [GameResult.DRAW] if all_draws else RESULTS
    entrants, records, violations = simulate(players, rounds, players * 100 + rounds, results)
    reg = Regulations("bench", date(2024, 7, 26), date(2024, 7, 28))
    best = best_cpu = float("inf")
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        table = standings(entrants, records, reg, violations)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
    tracemalloc.start()
    standings(entrants, records, reg, violations)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    previous = sum(1 for s in table.rows if s.separated_by is not None and s.separated_by.previous_round)
    return {
        "case": "standings, every game drawn (worst case for ties)" if all_draws else "standings",
        "players": players,
        "rounds": rounds,
        "seconds": round(best, 4),
        "cpu_seconds": round(best_cpu, 4),  # less disturbed by other processes on a busy machine
        "goal_seconds": goal,
        "within_goal_cpu": best_cpu <= goal,
        "peak_memory_mb": round(peak / 2**20, 2),
        "separated_by_previous_round": previous,
        "separated_by_sequence_number": sum(
            1 for s in table.rows if s.separated_by is not None and s.separated_by.code == "sequence_number"
        ),
    }


def main() -> None:
    for players, rounds, goal, repeats, all_draws in (
        (160, 8, 0.020, 20, False),
        (5000, 11, 1.0, 3, False),
        (5000, 11, 1.0, 3, True),
    ):
        print(json.dumps(run(players, rounds, goal, repeats, all_draws)), flush=True)


if __name__ == "__main__":
    main()
