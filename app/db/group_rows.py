"""Rows of a group to its :class:`GroupState`, shared by both readers of the file.

:func:`app.db.mapping.read_group_state` (SQLAlchemy, every service) and
:func:`app.db.lite.read_group_state` (sqlite3 only, the command line's fast pairing) run the same
queries — the columns listed here, in this order — and hand the rows to :func:`group_state_from_rows`,
so that the two cannot read a group differently (absences, late entries and re-entries included).
No SQLAlchemy here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from app.engine.attendance import attendances, with_absences
from app.engine.event import BegunStage, Entrant, GroupState, StageEntrant, ViolationFact
from app.engine.formats import StageKind
from app.engine.regulations import Regulations
from app.engine.types import Game, GameResult, PlayerStatus, RoundRecord, RoundStage

#: the players' columns, in the order both readers select them
PLAYER_COLUMNS = (
    "id",
    "no",
    "name",
    "team_id",
    "unit",
    "rating",
    "status",
    "status_round",
    "fee_paid",
    "checked_in",
    "dq_games",
    "region",
    "late_entry_round",
    "reentry_round",
    "ranked",
)


#: the results by stored code (``GameResult(code)`` for each of 27,000 games costs ~0.1 s; an unknown
#: code still raises as it does)
_RESULTS = {r.value: r for r in GameResult}


def _result(code: str) -> GameResult:
    found = _RESULTS.get(code)
    return found if found is not None else GameResult(code)


def group_state_from_rows(
    name: str,
    regulations: Regulations,
    teams: Mapping[int, str],
    players: Iterable[Sequence[Any]],
    rounds: Sequence[Sequence[Any]],
    games: Iterable[Sequence[Any]],
    byes: Iterable[Sequence[Any]],
    absences: Iterable[Sequence[Any]],
    violations: Iterable[Sequence[Any]],
    stages: Iterable[Sequence[Any]] = (),
    stage_entries: Iterable[Sequence[Any]] = (),
) -> GroupState:
    """The state of group ``name`` from its rows.

    ``players``: :data:`PLAYER_COLUMNS`; ``rounds``: (id, number, stage, closed_at) by number;
    ``games``: (round_id, board, red_id, black_id, result) of the Swiss games by round and board;
    ``byes``: (round_id, player_id); ``absences``: (player_id, round_number) of the excused
    absences; ``violations``: (player_id, round_number, kind) by player and id; ``stages``: (id, stage,
    kind, seed) of the begun stages; ``stage_entries``: (stage_id, player_id, pool, number, lot).
    """
    people = list(players)
    no_of = {p[0]: p[1] for p in people}
    entrants = tuple(
        sorted(
            (
                Entrant(
                    no=no,
                    name=pname,
                    team=teams.get(team_id) if team_id else None,
                    unit=(teams.get(team_id) if team_id else None) or unit,
                    rating=rating,
                    status=PlayerStatus(status),
                    status_round=status_round,
                    fee_paid=bool(fee_paid),
                    checked_in=bool(checked_in),
                    annul_games=dq_games == "annul",
                    region=region,
                    late_entry_round=late,
                    reentry_round=reentry,
                    ranked=bool(ranked),
                )
                for (
                    _,
                    no,
                    pname,
                    team_id,
                    unit,
                    rating,
                    status,
                    status_round,
                    fee_paid,
                    checked_in,
                    dq_games,
                    region,
                    late,
                    reentry,
                    ranked,
                ) in people
                if no is not None
            ),
            key=lambda e: e.no,
        )
    )
    by_round: dict[int, list[Game]] = defaultdict(list)
    for round_id, board, red, black, result in games:
        by_round[round_id].append(
            Game(
                board=board,
                red=no_of[red],
                black=no_of[black],
                result=_result(result),
            )
        )
    bye_of: dict[int, list[int]] = defaultdict(list)
    for round_id, player_id in byes:
        bye_of[round_id].append(no_of[player_id])
    excused = tuple(
        sorted(
            (no_of[player_id], number) for player_id, number in absences if no_of.get(player_id) is not None
        )
    )
    records = with_absences(
        [
            RoundRecord(number=r[1], games=tuple(by_round[r[0]]), byes=tuple(sorted(bye_of[r[0]])))
            for r in rounds
        ],
        attendances({e.no: e.late_entry_round for e in entrants}, excused),
        regulations.pairing,
        regulations.points,
    )
    return GroupState(
        name=name,
        format=regulations.group(name),
        entrants=entrants,
        rounds=records,
        stages=tuple(RoundStage(r[2]) for r in rounds),
        closed=tuple(r[3] is not None for r in rounds),
        violations=tuple(
            ViolationFact(no=no_of[player_id], round=number, kind=kind)
            for player_id, number, kind in violations
            if no_of.get(player_id) is not None
        ),
        excused=excused,
        begun=_begun(stages, stage_entries, no_of),
    )


def _begun(
    stages: Iterable[Sequence[Any]], entries: Iterable[Sequence[Any]], no_of: Mapping[int, int | None]
) -> tuple[BegunStage, ...]:
    by_stage: dict[int, list[StageEntrant]] = defaultdict(list)
    for stage_id, player_id, pool, number, lot in entries:
        no = no_of.get(player_id)
        if no is not None:
            by_stage[stage_id].append(StageEntrant(no, pool, number, lot))
    return tuple(
        sorted(
            (
                BegunStage(
                    index,
                    StageKind(kind),
                    seed,
                    tuple(sorted(by_stage[sid], key=lambda e: (e.pool, e.number))),
                )
                for sid, index, kind, seed in stages
            ),
            key=lambda b: b.index,
        )
    )
