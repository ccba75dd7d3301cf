"""Rows to engine values: one read of a group gives the :class:`GroupState` every rule needs."""

from __future__ import annotations

import sqlite3

from sqlalchemy.orm import Session

from app.db.lite import read_group_state as lite_group_state
from app.db.models import Group
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
    session: Session,
    group: Group,
    regulations: Regulations,
    through: int | None = None,
    *,
    state: GroupState | None = None,
) -> RunningScores:
    """Every player's score after every round of the group (its scored rounds) up to ``through``
    (``None``: the last), kept inside :meth:`Database.one_reading` (a list of every round reads the
    scores before each: the first asks for the rounds it needs, the next for all of them).

    ``state``: the group's state the caller has just read in the same session (not read again)."""
    memo = kept(session)
    key = ("running_scores", group.id)
    if memo is not None and key in memo:
        limit, found = memo[key]
        if limit is None or (through is not None and through <= limit):
            return found  # type: ignore[no-any-return]
        through = None
    if state is None:
        state = load_group_state(session, group, regulations)
    rounds = [r for r in state.scored_rounds if through is None or r.number <= through]
    running = running_scores(rounds, regulations.points)
    if memo is not None:
        memo[key] = (through, running)
    return running


def read_group_state(session: Session, group: Group, regulations: Regulations) -> GroupState:
    """The group's state read from the file now (never kept), by :func:`app.db.lite.read_group_state` on
    the session's own connection: the same queries as the command line's sqlite3 reading, without
    SQLAlchemy's row handling (a third of the time at 5,000 players). Pending changes are flushed
    first, as a query through the session would (its autoflush)."""
    if session.autoflush:
        session.flush()
    con = session.connection().connection.driver_connection
    if not isinstance(con, sqlite3.Connection):  # every engine is SQLite's (app.db.session.make_engine)
        raise TypeError(f"not a SQLite connection: {con!r}")
    return lite_group_state(con, group.id, group.name, regulations)
