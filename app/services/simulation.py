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


_KNOCKOUT_CYCLE = (GameResult.RED_WIN, GameResult.DRAW, GameResult.BLACK_WIN, GameResult.DRAW)


def play_knockout_round(db: Database, group: str, round_number: int, seed: int) -> int:
    """Enter the knockout games of a round board by board until every match is decided.

    Results follow a seeded choice among red win / draw / black win (draws bring the rapid and the
    deciding games); the higher seed chooses Red for a deciding game. Returns the games entered.
    """
    from app.engine.knockout import ColourState
    from app.engine.types import Colour
    from app.services.knockout import bracket_of, choose_deciding_colour
    from app.services.results import enter_result

    rng = random.Random(f"{seed}:{group}:{round_number}:knockout")
    entered = 0
    while True:
        bracket = bracket_of(db, group)
        due = () if bracket is None else bracket.due_games(round_number)
        if not due:
            return entered
        boards = {b.match: b.board for b in round_view(db, group, round_number).boards if b.match}
        for d in due:
            if d.colours is ColourState.CHOICE_NEEDED:
                choose_deciding_colour(db, group, d.code, Colour.RED, who=DEMO_ARBITER)
                continue
            enter_result(
                db, group, round_number, boards[d.code], rng.choice(_KNOCKOUT_CYCLE), who=DEMO_ARBITER
            )
            entered += 1


DEMO_ARBITER = "演示"


def play_demo_midway(db: Database, *, seed: int = 2024) -> None:
    """The demo event mid-tournament, for screenshots and sample documents.

    公开组: rounds 1–3 played and closed, round 4 paired with a few results entered (one a forfeit).
    天水本地组: played past the split — the knockout created, round 9 played (Swiss and knockout),
    round 10's colours drawn and the continuing Swiss paired.
    """
    from app.services.knockout import create_knockout, draw_round_colours
    from app.services.results import enter_result
    from app.services.rounds import close_round, pair_next_round

    open_group, local = "公开组", "天水本地组"
    for number in range(1, 5):
        pair_next_round(db, open_group, seed=seed + number, who=DEMO_ARBITER)
        if number < 4:
            play_random_results(db, open_group, number, seed=seed + number, who=DEMO_ARBITER)
            close_round(db, open_group, number, who=DEMO_ARBITER)
    for board, code in ((1, "1-0"), (2, "="), (3, "0-1"), (5, "+-")):
        enter_result(db, open_group, 4, board, GameResult.from_code(code), who=DEMO_ARBITER)
    for number in range(1, 11):
        if number == 9:
            create_knockout(db, local, who=DEMO_ARBITER)
        if number > 8:
            draw_round_colours(db, local, number, seed=seed + 900 + number, who=DEMO_ARBITER)
        pair_next_round(db, local, seed=seed + number, who=DEMO_ARBITER)
        if number < 10:
            play_random_results(db, local, number, seed=seed + number, who=DEMO_ARBITER)
            if number > 8:
                play_knockout_round(db, local, number, seed=seed)
            close_round(db, local, number, who=DEMO_ARBITER)


def play_demo_to_end(db: Database, *, seed: int = 2024, forfeit_rate: float = 0.02) -> None:
    """The demo event played to its end in both groups, every round closed: the Swiss rounds, the split,
    the knockout with its rapid and deciding games, and the continuing Swiss — for the documents'
    tests, the benchmarks and the samples of a finished event."""
    play_demo_to(db, None, seed=seed, forfeit_rate=forfeit_rate)


def play_demo_to(
    db: Database, last_round: int | None, *, seed: int = 2024, forfeit_rate: float = 0.02
) -> dict[str, int]:
    """Play every group of the demo event through the services up to round ``last_round`` (None: to
    the end), each round paired, its results entered and closed — from round ``split + 1`` on with the
    knockout (its colours drawn, every game to the deciding one) beside the continuing Swiss. A group
    with fewer rounds is played to its end. Returns the last round closed per group."""
    from app.services.knockout import create_knockout, draw_round_colours
    from app.services.rounds import close_round, pair_next_round
    from app.services.tournaments import tournament_info

    info = tournament_info(db)
    played: dict[str, int] = {}
    for group in (g.name for g in info.groups if g.players):
        fmt = info.regulations.group(group)
        last = fmt.rounds if last_round is None else min(last_round, fmt.rounds)
        for number in range(1, last + 1):
            knockout_round = bool(fmt.knockout_size) and number > fmt.swiss_rounds
            if knockout_round and number == fmt.swiss_rounds + 1:
                create_knockout(db, group, who=DEMO_ARBITER)
            if knockout_round:
                draw_round_colours(db, group, number, seed=seed + 900 + number, who=DEMO_ARBITER)
            pair_next_round(db, group, seed=seed + number, who=DEMO_ARBITER)
            play_random_results(
                db, group, number, seed=seed + number, forfeit_rate=forfeit_rate, who=DEMO_ARBITER
            )
            if knockout_round:
                play_knockout_round(db, group, number, seed=seed)
            close_round(db, group, number, who=DEMO_ARBITER)
        played[group] = last
    return played
