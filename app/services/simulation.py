"""Random results for a paired round: for the demo event, screenshots, tests and the self-test.

Results follow the players' ratings (unrated players count as 1600) with about a third drawn; the
same seed gives the same results. Only pending boards are filled; everything goes through
:func:`app.services.results.enter_results` (one transaction, audit-logged).
"""

from __future__ import annotations

import random

from app.db.session import Database
from app.engine.simulation import random_result
from app.engine.types import GameResult
from app.services import audit
from app.services.results import ResultEntry, enter_results
from app.services.rounds import group_state, round_view


def play_random_results(
    db: Database,
    group: str,
    round_number: int,
    seed: int,
    *,
    forfeit_rate: float = 0.0,
    who: str = audit.DEFAULT_ARBITER,
) -> int:
    """Fill every pending Swiss board of the round with a random result; returns how many."""
    rng = random.Random(f"{seed}:{group}:{round_number}")
    rating = {e.no: e.rating or 1600 for e in group_state(db, group).entrants}
    view = round_view(db, group, round_number)
    entries = [
        ResultEntry(b.board, random_result(rng, rating[b.red.no], rating[b.black.no], forfeit_rate))
        for b in view.boards
        if b.result is GameResult.PENDING and b.match is None
    ]
    return enter_results(db, group, round_number, entries, who=who) if entries else 0
