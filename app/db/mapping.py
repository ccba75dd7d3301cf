"""Rows to engine values: one read of a group gives the :class:`GroupState` every rule needs."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.orm import Session

from app.db.group_rows import PLAYER_COLUMNS, group_state_from_rows
from app.db.models import Absence, Bye, GameRow, Group, GroupStage, Player, Round, StageEntry, Team, Violation
from app.db.session import kept
from app.engine.discipline import RunningScores, running_scores
from app.engine.event import GroupState
from app.engine.regulations import Regulations


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


def load_running_scores(
    session: Session, group: Group, regulations: Regulations, through: int | None = None
) -> RunningScores:
    """Every player's score after every round of the group (its scored rounds) up to ``through``
    (``None``: the last), kept inside :meth:`Database.one_reading` (a list of every round reads the
    scores before each: the first asks for the rounds it needs, the next for all of them)."""
    memo = kept(session)
    key = ("running_scores", group.id)
    if memo is not None and key in memo:
        limit, found = memo[key]
        if limit is None or (through is not None and through <= limit):
            return found  # type: ignore[no-any-return]
        through = None
    state = load_group_state(session, group, regulations)
    rounds = [r for r in state.scored_rounds if through is None or r.number <= through]
    running = running_scores(rounds, regulations.points)
    if memo is not None:
        memo[key] = (through, running)
    return running


def read_group_state(session: Session, group: Group, regulations: Regulations) -> GroupState:
    """The group's state read from the file now (never kept); the rows go to
    :func:`app.db.group_rows.group_state_from_rows`, as the command line's sqlite3 reading does."""
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
