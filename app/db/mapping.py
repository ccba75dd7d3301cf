"""Rows to engine values: one read of a group gives the :class:`GroupState` every rule needs."""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import select
from sqlalchemy.orm import Session, selectinload

from app.db.models import Group, Player, Round, Team, Violation
from app.engine.event import Entrant, GroupState, ViolationFact
from app.engine.regulations import Regulations
from app.engine.types import Game, GameResult, PlayerStatus, RoundRecord, RoundStage


def load_group_state(session: Session, group: Group, regulations: Regulations) -> GroupState:
    players = list(session.scalars(select(Player).where(Player.group_id == group.id)))
    teams = {t.id: t.name for t in session.scalars(select(Team).where(Team.group_id == group.id))}
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
                )
                for p in players
                if p.no is not None
            ),
            key=lambda e: e.no,
        )
    )
    rounds = list(
        session.scalars(
            select(Round)
            .where(Round.group_id == group.id)
            .order_by(Round.number)
            .options(selectinload(Round.games), selectinload(Round.byes))
        )
    )
    records: list[RoundRecord] = []
    for r in rounds:
        games = tuple(
            Game(board=g.board, red=no_of[g.red_id], black=no_of[g.black_id], result=GameResult(g.result))
            for g in sorted(r.games, key=lambda g: (g.board, g.game_no))
            if g.kind == "swiss"
        )
        byes = tuple(sorted(no_of[b.player_id] for b in r.byes))
        records.append(RoundRecord(number=r.number, games=games, byes=byes))
    violations: dict[int, list[ViolationFact]] = defaultdict(list)
    ids = [p.id for p in players]
    for v in session.scalars(select(Violation).where(Violation.player_id.in_(ids)).order_by(Violation.id)):
        no = no_of[v.player_id]
        if no is not None:
            violations[no].append(ViolationFact(no=no, round=v.round_number, kind=v.kind))
    return GroupState(
        name=group.name,
        format=regulations.group(group.name),
        entrants=entrants,
        rounds=tuple(records),
        stages=tuple(RoundStage(r.stage) for r in rounds),
        closed=tuple(r.closed_at is not None for r in rounds),
        violations=tuple(v for vs in violations.values() for v in vs),
    )
