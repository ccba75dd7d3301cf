"""Absence and re-entry: who has no game in a round, and what that round gives them.

Three ways a player of the event is not paired in a round without forfeiting it:

- **Excused absence (请假)**: the arbiter excuses a player for one round before it is paired. The
  player is left out of that round's pairing, scores 0 for it, and it is not a forfeit (it breaks a
  run of forfeits, it is no violation, and it is not a bye: H4 is untouched).
- **Late entry (后报名)**: a player registered after round ``k`` was paired starts in round ``k + 1``.
  Each round before gives the regulation's compensation — 0 by default (docs/rules.md §2), or with
  ``late_entry_bye_compensation`` a bye's or a draw's points (``late_entry_points``). Compensation is
  points only: no opponent (对手分), no win, no colour, not a bye for H4.
- **Re-entry after withdrawal (恢复参赛)**: the arbiter lets a withdrawn player play again from a
  round on. Rounds missed while withdrawn score nothing, and a run of forfeits completed before the
  re-entry (the usual cause of the withdrawal) no longer withdraws them again.

>>> from app.engine.regulations import PairingRules, Points
>>> from app.engine.types import Game, GameResult
>>> r1 = RoundRecord(1, (Game(1, 1, 2, GameResult.DRAW),))
>>> r2 = RoundRecord(2, (Game(1, 1, 3, GameResult.RED_WIN),))
>>> late = [Attendance(3, late_entry_round=2), Attendance(2, excused_rounds=frozenset({2}))]
>>> rounds = with_absences([r1, r2], late, PairingRules(late_entry_bye_compensation=True), Points())
>>> [(a.no, a.kind.value, a.points) for r in rounds for a in r.absent]
[(3, 'late_entry', 2), (2, 'excused', 0)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from app.engine.records import frozen, replace
from app.engine.regulations import PairingRules, Points
from app.engine.types import Absence, AbsenceKind, RoundRecord

__all__ = ["Attendance", "attendances", "with_absences"]


@frozen
class Attendance:
    """What the ranking must know of a player's presence: a late entry's first round, excused rounds."""

    no: int
    late_entry_round: int | None = None  # the first round the player could be paired in
    excused_rounds: frozenset[int] = frozenset()


def attendances(late_entry: Mapping[int, int | None], excused: Iterable[tuple[int, int]]) -> list[Attendance]:
    """The players whose presence the ranking must know: a late entry's first round (``late_entry``:
    sequence number → first round, None for none) and the excused ``(no, round)`` absences.

    >>> attendances({1: None, 2: 3}, [(1, 2)])
    [Attendance(no=1, late_entry_round=None, excused_rounds=frozenset({2})), Attendance(no=2, late_entry_round=3, excused_rounds=frozenset())]
    """
    rounds: dict[int, set[int]] = {}
    for no, number in excused:
        rounds.setdefault(no, set()).add(number)
    return [
        Attendance(no, first, frozenset(rounds.get(no, ())))
        for no, first in late_entry.items()
        if first is not None or no in rounds
    ]


def with_absences(
    rounds: Sequence[RoundRecord], players: Iterable[Attendance], rules: PairingRules, points: Points
) -> tuple[RoundRecord, ...]:
    """``rounds`` with each player's absences (excused, late entry) filled in as :class:`Absence` values.

    A player who has a game or a bye in a round is never absent from it (a wrong flag cannot give
    points twice). Rounds keep any absences they already hold.
    """
    compensation = rules.late_entry_round_points(points)
    people = list(players)
    out: list[RoundRecord] = []
    for record in rounds:
        present = {no for g in record.games for no in (g.red, g.black)} | set(record.byes)
        present |= {a.no for a in record.absent}
        added: list[Absence] = []
        for p in people:
            if p.no in present:
                continue
            if record.number in p.excused_rounds:
                added.append(Absence(p.no, AbsenceKind.EXCUSED, 0))
            elif p.late_entry_round is not None and record.number < p.late_entry_round:
                added.append(Absence(p.no, AbsenceKind.LATE_ENTRY, compensation))
        out.append(replace(record, absent=record.absent + tuple(added)) if added else record)
    return tuple(out)
