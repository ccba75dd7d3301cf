"""Random results for a paired round: for the demo event, screenshots, tests and the self-test.

Results follow the players' ratings (unrated players count as 1600) with about a third drawn; the
same seed gives the same results. Only pending boards are filled; everything goes through
:func:`app.services.results.enter_results` (one transaction, audit-logged).
"""

from __future__ import annotations

import random

from app.db.session import Database
from app.engine.event import GroupState
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
    rating = _ratings(group_state(db, group))
    return _play_random_results(
        db, group, round_number, seed=seed, forfeit_rate=forfeit_rate, who=who, rating=rating
    )


def _play_random_results(
    db: Database,
    group: str,
    round_number: int,
    *,
    seed: int,
    forfeit_rate: float,
    who: str,
    rating: dict[int, int],
) -> int:
    rng = random.Random(f"{seed}:{group}:{round_number}")
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

    Results follow a seeded choice among red win / draw / black win (draws bring the next steps of the
    ladder); lots a later step waits for are drawn, and a player who must choose takes Red. Returns the
    games entered.
    """
    from app.engine.knockout import ColourState
    from app.engine.types import Colour
    from app.services.knockout import (
        bracket_of,
        choose_deciding_colour,
        draw_round_colours,
        enter_match_result,
    )

    rng = random.Random(f"{seed}:{group}:{round_number}:knockout")
    entered = 0
    while True:
        bracket = bracket_of(db, group)
        due = () if bracket is None else bracket.due_games(round_number)
        if not due:
            return entered
        if any(d.colours is ColourState.LOT_NEEDED for d in due):
            draw_round_colours(db, group, round_number, seed=seed + round_number, who=DEMO_ARBITER)
            continue
        choices = [d for d in due if d.colours is ColourState.CHOICE_NEEDED]
        for d in choices:
            choose_deciding_colour(db, group, d.code, Colour.RED, who=DEMO_ARBITER)
        if choices:
            continue
        for d in due:
            # the game the match needs next is the one on its board (what entering the board's result
            # reaches, through the round's games): entered by its match and number, as that does
            enter_match_result(db, group, d.code, d.number, rng.choice(_KNOCKOUT_CYCLE), who=DEMO_ARBITER)
            entered += 1


def play_group_to_end(
    db: Database,
    group: str,
    *,
    seed: int = 2024,
    forfeit_rate: float = 0.0,
    last: int | None = None,
    who: str = "演示",
) -> int:
    """Play a group round by round to its end (or through round ``last``), whatever its format: each round
    paired (a stage beginning when its first round is; the knockout created when its stage comes, its lots
    drawn), random results, knockout games until every match of the round is decided, the round closed.
    Returns the last round played."""
    from app.engine.formats import StageKind
    from app.engine.knockout import ColourState
    from app.services.knockout import bracket_of, create_knockout, draw_round_colours
    from app.services.rounds import close_round, pair_next_round, rounds_of
    from app.services.stages import plan_of
    from app.services.standings import over_and_state

    number = max((r.number for r in rounds_of(db, group) if r.closed), default=0)
    ratings: dict[int, int] | None = None  # the entrants' ratings (they do not change while playing)
    while True:
        over, state = over_and_state(db, group)  # the state read once: for the end and for the round
        if over or (last is not None and number >= last):
            break
        number += 1
        if number > 200:  # pragma: no cover - a format that never ends is a defect
            raise AssertionError(f"{group} does not end")
        if ratings is None:
            ratings = _ratings(state)
        plans = [p for p in plan_of(state) if p.covers(number)]
        knockout = any(p.stage.kind is StageKind.KNOCKOUT for p in plans)
        points = any(p.stage.kind is not StageKind.KNOCKOUT for p in plans)
        if knockout:
            bracket = bracket_of(db, group)
            if bracket is None:
                create_knockout(db, group, seed=seed + 700, who=who)
                bracket = bracket_of(db, group)
            lots = bracket is not None and any(
                d.colours is ColourState.LOT_NEEDED for d in bracket.due_games(number)
            )
            if lots:
                draw_round_colours(db, group, number, seed=seed + 900 + number, who=who)
        if points:
            paired = any(r.number == number and r.boards for r in rounds_of(db, group))
            if not (paired and _point_games_in(db, group, number)):
                pair_next_round(db, group, seed=seed + number, who=who)  # round ``number`` exists now
            _play_random_results(
                db, group, number, seed=seed + number, forfeit_rate=forfeit_rate, who=who, rating=ratings
            )
        if knockout:
            play_knockout_round(db, group, number, seed=seed)
        if points or any(r.number == number for r in rounds_of(db, group)):
            close_round(db, group, number, who=who)
    return number


def _ratings(state: GroupState) -> dict[int, int]:
    """Each entrant's rating for the random results (unrated: 1600)."""
    return {e.no: e.rating or 1600 for e in state.entrants}


def _point_games_in(db: Database, group: str, number: int) -> bool:
    """Whether the round already has its Swiss / round-robin games (paired before)."""
    view = round_view(db, group, number)
    return any(b.match is None for b in view.boards) or bool(view.byes)


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
    """The demo event played to its end in every group, every round closed: the Swiss rounds, the split,
    the knockout with its rapid and deciding games, and the continuing Swiss — for the documents'
    tests, the benchmarks and the samples of a finished event (any format: see
    :func:`play_group_to_end`)."""
    play_demo_to(db, None, seed=seed, forfeit_rate=forfeit_rate)


def play_demo_to(
    db: Database, last_round: int | None, *, seed: int = 2024, forfeit_rate: float = 0.02
) -> dict[str, int]:
    """Play every group of the demo event through the services up to round ``last_round`` (None: to
    the end), each round paired, its results entered and closed, whatever the group's format (see
    :func:`play_group_to_end`). A group with fewer rounds is played to its end. Returns the last round
    closed per group."""
    from app.services.tournaments import tournament_info

    info = tournament_info(db)
    played: dict[str, int] = {}
    for group in (g.name for g in info.groups if g.players):
        played[group] = play_group_to_end(
            db, group, seed=seed, forfeit_rate=forfeit_rate, last=last_round, who=DEMO_ARBITER
        )
    return played
