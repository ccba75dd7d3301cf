"""Seconds of pair_round with pairing constraints, one JSON line per case.

python bench/bench_constraints.py [players ...]

After 5 rounds of a simulated event: the round paired without constraints, then with a weak
same-unit rule (units of about 8 players, drawn at random), an absolute same-region rule (regions of
about 40 players) for round 6 only, and 2% of the players in named pairs kept absolutely apart. With
constraints that change the pairing the engine pairs twice (the unconstrained pairing is its
reference for ``why``): the figure is the whole call. ``proved_optimal``: the engine's proof covers the
whole round (S1, W, S2, S3, S4), as for pairings without constraints (``bench_pairing.py``).
"""

from __future__ import annotations

import json
import random
import sys
import time

from app.engine.pairing import pair_round
from app.engine.pairing.constraints import ConstraintFacts, NamedAvoidance, round_constraints
from app.engine.regulations import AvoidanceBasis, AvoidanceRule, AvoidanceStrength
from app.engine.simulation import SimulatedEvent

HISTORY = 5


def run(players: int) -> list[dict[str, object]]:
    event = SimulatedEvent(players, seed=players, teams=True)
    for _ in range(HISTORY):
        event.play_round()
    pool = event.pool()
    rng = random.Random(players)
    facts = [
        ConstraintFacts(
            p.no,
            unit=f"单位{rng.randrange(max(players // 8, 1))}",
            region=f"地区{rng.randrange(max(players // 40, 1))}",
        )
        for p in pool
    ]
    nos = [p.no for p in pool]
    rng.shuffle(nos)
    named = [
        NamedAvoidance(nos[i], nos[i + 1], AvoidanceStrength.ABSOLUTE) for i in range(0, players // 50 * 2, 2)
    ]
    rules = (
        AvoidanceRule(AvoidanceBasis.UNIT, AvoidanceStrength.WEAK),
        AvoidanceRule(AvoidanceBasis.REGION, AvoidanceStrength.ABSOLUTE, HISTORY + 1, HISTORY + 1),
    )
    constraints = round_constraints(rules, facts, named, HISTORY + 1)
    out = []
    for case, c in (("unconstrained", None), ("constrained", constraints)):
        t = time.perf_counter()
        pairing = pair_round(pool, HISTORY + 1, event.rules, seed=1, constraints=c)
        seconds = time.perf_counter() - t
        broken = sum(1 for g in pairing.games if constraints.forbidden(g.red, g.black))
        weak = sum(len(constraints.weak(g.red, g.black)) for g in pairing.games)
        out.append(
            {
                "case": case,
                "players": players,
                "rounds": HISTORY,
                "seconds": round(seconds, 4),
                "absolute_pairs_made": broken,
                "weak_pairs_made": weak,
                "proved_optimal": pairing.quality is not None and pairing.quality.exact,
                "bounded_players": 0 if pairing.quality is None else pairing.quality.bounded_players,
            }
        )
    return out


if __name__ == "__main__":
    for n in [int(a) for a in sys.argv[1:]] or [160, 1000, 5000]:
        for case in run(n):
            print(json.dumps(case), flush=True)
