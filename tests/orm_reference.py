"""References for the tests: the group's state as SQLAlchemy's column queries read it."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.group_rows import PLAYER_COLUMNS, group_state_from_rows
from app.db.models import Absence, Bye, GameRow, Group, GroupStage, Player, Round, StageEntry, Team, Violation
from app.engine.event import GroupState
from app.engine.regulations import Regulations


def orm_read_group_state(session: Session, group: Group, regulations: Regulations) -> GroupState:
    """The group's state read through SQLAlchemy's queries (the services' reader before it ran the
    sqlite3 one on the session's connection): the reference the sqlite3 reading must equal — the
    same rows, with the ORM's conversions of their values."""
    teams = dict(session.execute(select(Team.id, Team.name).where(Team.group_id == group.id)).all())
    players = session.execute(
        select(*(getattr(Player, c) for c in PLAYER_COLUMNS)).where(Player.group_id == group.id)
    ).all()
    player_ids = [p[0] for p in players]
    rounds = session.execute(
        select(Round.id, Round.number, Round.stage, Round.closed_at)
        .where(Round.group_id == group.id)
        .order_by(Round.number)
    ).all()
    round_ids = [r.id for r in rounds]
    games = session.execute(
        select(GameRow.round_id, GameRow.board, GameRow.red_id, GameRow.black_id, GameRow.result)
        .where(GameRow.round_id.in_(round_ids), GameRow.kind == "swiss")
        .order_by(GameRow.round_id, GameRow.board)
    ).all()
    byes = session.execute(select(Bye.round_id, Bye.player_id).where(Bye.round_id.in_(round_ids))).all()
    absences = session.execute(
        select(Absence.player_id, Absence.round_number).where(Absence.player_id.in_(player_ids))
    ).all()
    violations = session.execute(
        select(Violation.player_id, Violation.round_number, Violation.kind)
        .where(Violation.player_id.in_(player_ids))
        .order_by(Violation.player_id, Violation.id)
    ).all()
    stages = session.execute(
        select(GroupStage.id, GroupStage.stage, GroupStage.kind, GroupStage.seed).where(
            GroupStage.group_id == group.id
        )
    ).all()
    entries = session.execute(
        select(
            StageEntry.stage_id, StageEntry.player_id, StageEntry.pool, StageEntry.number, StageEntry.lot
        ).where(StageEntry.stage_id.in_([st.id for st in stages]))
    ).all()
    return group_state_from_rows(
        group.name, regulations, teams, players, rounds, games, byes, absences, violations, stages, entries
    )
