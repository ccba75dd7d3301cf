"""Rows to engine values: one read of a group gives the :class:`GroupState` every rule needs."""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.models import Absence, Bye, GameRow, Group, Player, Round, Team, Violation
from app.db.session import kept
from app.engine.attendance import Attendance, with_absences
from app.engine.event import Entrant, GroupState, ViolationFact
from app.engine.regulations import Regulations
from app.engine.types import Game, GameResult, PlayerStatus, RoundRecord, RoundStage


def load_group_state(session: Session, group: Group, regulations: Regulations) -> GroupState:
    """One read of a group: column queries only (no ORM objects), as it runs on every result entered.

    Inside :meth:`Database.one_reading` the state is read once per group and then reused.
    """
    memo = kept(session)
    if memo is None:
        return read_group_state(session, group, regulations)
    key = ("group_state", group.id)
    if key not in memo:
        memo[key] = read_group_state(session, group, regulations)
    state: GroupState = memo[key]
    return state


def read_group_state(session: Session, group: Group, regulations: Regulations) -> GroupState:
    """The group's state read from the file now (never kept)."""
    teams = dict(session.execute(select(Team.id, Team.name).where(Team.group_id == group.id)).all())
    players = session.execute(
        select(
            Player.id,
            Player.no,
            Player.name,
            Player.team_id,
            Player.unit,
            Player.rating,
            Player.status,
            Player.status_round,
            Player.fee_paid,
            Player.checked_in,
            Player.dq_games,
            Player.region,
            Player.late_entry_round,
            Player.reentry_round,
        ).where(Player.group_id == group.id)
    ).all()
    no_of = {p.id: p.no for p in players}
    entrants = tuple(
        sorted(
            (
                Entrant(
                    no=p.no,
                    name=p.name,
                    team=teams.get(p.team_id) if p.team_id else None,
                    unit=(teams.get(p.team_id) if p.team_id else None) or p.unit,
                    rating=p.rating,
                    status=PlayerStatus(p.status),
                    status_round=p.status_round,
                    fee_paid=p.fee_paid,
                    checked_in=p.checked_in,
                    annul_games=p.dq_games == "annul",
                    region=p.region,
                    late_entry_round=p.late_entry_round,
                    reentry_round=p.reentry_round,
                )
                for p in players
                if p.no is not None
            ),
            key=lambda e: e.no,
        )
    )
    rounds = session.execute(
        select(Round.id, Round.number, Round.stage, Round.closed_at)
        .where(Round.group_id == group.id)
        .order_by(Round.number)
    ).all()
    round_ids = [r.id for r in rounds]
    games: dict[int, list[Game]] = defaultdict(list)
    for round_id, board, red, black, result in session.execute(
        select(GameRow.round_id, GameRow.board, GameRow.red_id, GameRow.black_id, GameRow.result)
        .where(GameRow.round_id.in_(round_ids), GameRow.kind == "swiss")
        .order_by(GameRow.round_id, GameRow.board)
    ):
        games[round_id].append(
            Game(board=board, red=no_of[red], black=no_of[black], result=GameResult(result))
        )
    byes: dict[int, list[int]] = defaultdict(list)
    for round_id, player_id in session.execute(
        select(Bye.round_id, Bye.player_id).where(Bye.round_id.in_(round_ids))
    ):
        byes[round_id].append(no_of[player_id])
    excused = tuple(
        sorted(
            (no_of[player_id], number)
            for player_id, number in session.execute(
                select(Absence.player_id, Absence.round_number).where(Absence.player_id.in_(list(no_of)))
            )
            if no_of[player_id] is not None
        )
    )
    records = with_absences(
        [
            RoundRecord(number=r.number, games=tuple(games[r.id]), byes=tuple(sorted(byes[r.id])))
            for r in rounds
        ],
        _attendance(entrants, excused),
        regulations.pairing,
        regulations.points,
    )
    violations = tuple(
        ViolationFact(no=no_of[player_id], round=number, kind=kind)
        for player_id, number, kind in session.execute(
            select(Violation.player_id, Violation.round_number, Violation.kind)
            .where(Violation.player_id.in_(list(no_of)))
            .order_by(Violation.player_id, Violation.id)
        )
        if no_of[player_id] is not None
    )
    return GroupState(
        name=group.name,
        format=regulations.group(group.name),
        entrants=entrants,
        rounds=records,
        stages=tuple(RoundStage(r.stage) for r in rounds),
        closed=tuple(r.closed_at is not None for r in rounds),
        violations=violations,
        excused=excused,
    )


def _attendance(entrants: tuple[Entrant, ...], excused: tuple[tuple[int, int], ...]) -> list[Attendance]:
    rounds: dict[int, set[int]] = defaultdict(set)
    for no, number in excused:
        rounds[no].add(number)
    return [
        Attendance(e.no, e.late_entry_round, frozenset(rounds.get(e.no, ())))
        for e in entrants
        if e.late_entry_round is not None or e.no in rounds
    ]
