"""Discipline rules that change results (docs/rules.md §4, §8), as pure functions on rounds.

>>> from app.engine.regulations import DisciplineRules, Points
>>> r1 = RoundRecord(1, (Game(1, 1, 2, GameResult.RED_FORFEIT), Game(2, 3, 4, GameResult.DRAW)))
>>> r2 = RoundRecord(2, (Game(1, 4, 1, GameResult.BLACK_FORFEIT),), byes=(3,))
>>> consecutive_forfeits([r1, r2], DisciplineRules())
(ForfeitStreak(no=1, rounds=(1, 2)),)
>>> scores([r1, r2], Points())
{1: 0, 2: 2, 3: 3, 4: 3}
>>> annul_games([r1], 2)[0].games[0].result
<GameResult.DOUBLE_FORFEIT: 'double_forfeit'>
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping

from app.engine.records import frozen, replace
from app.engine.regulations import DisciplineRules, Points
from app.engine.types import Colour, Game, GameResult, RoundRecord

__all__ = [
    "ForfeitStreak",
    "RunningScores",
    "annul_games",
    "consecutive_forfeits",
    "forfeited",
    "points_by_round",
    "running_scores",
    "scores",
]


def forfeited(game: Game, no: int) -> bool:
    """Whether player ``no`` forfeited ``game`` (弃权: late, absent, left; a double forfeit counts for both)."""
    if game.result is GameResult.DOUBLE_FORFEIT:
        return no in (game.red, game.black)
    if game.result is GameResult.RED_FORFEIT:
        return no == game.red
    if game.result is GameResult.BLACK_FORFEIT:
        return no == game.black
    return False


def points_by_round(rounds: Iterable[RoundRecord], points: Points) -> dict[int, dict[int, int]]:
    """Points each player earned in each round: ``{no: {round: points}}`` (a bye gives ``points.bye``).

    Players appear only for the rounds they were paired, had a bye or were absent in (an absence gives
    its ``points``: 0 when excused, a late entry's compensation); pending games give 0.
    """
    out: dict[int, dict[int, int]] = {}
    for record in rounds:
        for game in record.games:
            red, black = points.for_result(game.result)
            out.setdefault(game.red, {})[record.number] = red
            out.setdefault(game.black, {})[record.number] = black
        for no in record.byes:
            out.setdefault(no, {})[record.number] = points.bye
        for absence in record.absent:
            out.setdefault(absence.no, {})[record.number] = absence.points
    return out


def scores(rounds: Iterable[RoundRecord], points: Points, after_round: int | None = None) -> dict[int, int]:
    """Each player's score (积分) after ``after_round`` (default: all rounds), sorted by sequence number."""
    by_round = points_by_round(
        (r for r in rounds if after_round is None or r.number <= after_round),
        points,
    )
    return {no: sum(by_round[no].values()) for no in sorted(by_round)}


@frozen
class RunningScores:
    """Each player's score after every round, from one reading of the rounds: ``after(n)`` is
    ``scores(rounds, points, n)`` for any ``n`` (a list of every round reads it once per round)."""

    numbers: tuple[int, ...]  # the rounds anyone scored in (or was paired in), ascending
    totals: tuple[dict[int, int], ...]  # the scores after each of them, by sequence number

    def after(self, after_round: int | None = None) -> dict[int, int]:
        k = len(self.numbers) if after_round is None else bisect.bisect_right(self.numbers, after_round)
        return dict(self.totals[k - 1]) if k else {}


def running_scores(rounds: Iterable[RoundRecord], points: Points) -> RunningScores:
    """The scores after every round, as :func:`scores` gives them (from :func:`points_by_round`).

    >>> from app.engine.regulations import Points
    >>> r1 = RoundRecord(1, (Game(1, 1, 2, GameResult.RED_WIN),), byes=(3,))
    >>> r2 = RoundRecord(2, (Game(1, 3, 1, GameResult.DRAW),))
    >>> running = running_scores([r1, r2], Points())
    >>> running.after(0), running.after(1), running.after(2) == scores([r1, r2], Points())
    ({}, {1: 2, 2: 0, 3: 2}, True)
    """
    gained: dict[int, list[tuple[int, int]]] = {}
    for no, per_round in points_by_round(rounds, points).items():
        for number, got in per_round.items():
            gained.setdefault(number, []).append((no, got))
    numbers = tuple(sorted(gained))
    total: dict[int, int] = {}
    totals = []
    for number in numbers:
        for no, got in gained[number]:
            total[no] = total.get(no, 0) + got
        totals.append({no: total[no] for no in sorted(total)})
    return RunningScores(numbers, tuple(totals))


@frozen
class ForfeitStreak:
    """Player ``no`` forfeited ``rounds`` in a row: withdraw them from pairing (连续弃权)."""

    no: int
    rounds: tuple[int, ...]


def consecutive_forfeits(
    rounds: Iterable[RoundRecord], rules: DisciplineRules, reentered: Mapping[int, int] | None = None
) -> tuple[ForfeitStreak, ...]:
    """Players who forfeited ``rules.consecutive_forfeits_withdraw`` rounds in a row (0 = never).

    Rounds are taken in number order; a round in which the player did not forfeit (played, had a
    bye, was not paired or excused, or the result is still pending) breaks the run. For each player
    the first run reaching the threshold is reported, ordered by the round it completed, then
    sequence number. ``reentered`` maps a player who re-entered after a withdrawal to the round they
    play again from: only rounds from then on count for them.

    >>> r1 = RoundRecord(1, (Game(1, 1, 2, GameResult.RED_FORFEIT),))
    >>> r2 = RoundRecord(2, (Game(1, 1, 3, GameResult.RED_FORFEIT),))
    >>> consecutive_forfeits([r1, r2], DisciplineRules(), reentered={1: 3})
    ()
    """
    needed = rules.consecutive_forfeits_withdraw
    if needed <= 0:
        return ()
    since = reentered or {}
    run: dict[int, list[int]] = {}
    found: dict[int, ForfeitStreak] = {}
    order: list[tuple[int, int]] = []
    for record in sorted(rounds, key=lambda r: r.number):
        forfeiting = {
            no
            for game in record.games
            for no in (game.red, game.black)
            if forfeited(game, no) and record.number >= since.get(no, 0)
        }
        for no in list(run):
            if no not in forfeiting:
                del run[no]
        for no in sorted(forfeiting):
            streak = run.setdefault(no, [])
            streak.append(record.number)
            if len(streak) == needed and no not in found:
                found[no] = ForfeitStreak(no, tuple(streak))
                order.append((record.number, no))
    return tuple(found[no] for _, no in sorted(order))


def annul_games(rounds: Iterable[RoundRecord], no: int, *, from_round: int = 1) -> tuple[RoundRecord, ...]:
    """A disqualified player's games annulled (取消成绩): each opponent's result becomes a forfeit win.

    Every game of player ``no`` in round ``from_round`` and later becomes a forfeit by ``no``. If the
    opponent had themselves forfeited that game, it becomes a double forfeit (an absent opponent gains
    nothing). Byes are left as they are. Other games are untouched.
    """
    out: list[RoundRecord] = []
    for record in rounds:
        if record.number < from_round:
            out.append(record)
            continue
        games = tuple(_annulled(game, no) for game in record.games)
        out.append(record if games == record.games else replace(record, games=games))
    return tuple(out)


def _annulled(game: Game, no: int) -> Game:
    if no == game.red:
        colour = Colour.RED
    elif no == game.black:
        colour = Colour.BLACK
    else:
        return game
    opponent = game.black if colour is Colour.RED else game.red
    if forfeited(game, opponent):
        return replace(game, result=GameResult.DOUBLE_FORFEIT)
    result = GameResult.RED_FORFEIT if colour is Colour.RED else GameResult.BLACK_FORFEIT
    return replace(game, result=result)
