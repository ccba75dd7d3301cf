"""``xqarbiter standings`` without SQLAlchemy: the group read with :mod:`sqlite3`, ranked as the services rank it.

Importing SQLAlchemy and the ORM models costs ~0.3 s and reading a 5,000-player group through the ORM
~0.25 s more, half of the command at 5,000 players. This path opens the file for reading with
:mod:`app.db.lite`, checked as the services check a file opened for viewing (the version guard,
SQLite's quick check and every value of every row, unless exactly these bytes were found good
before — and then remembered, as they remember them), reads the group's state and its bracket with the same queries and
the same assembly of the rows as the ORM's readers (:mod:`app.db.group_rows`,
:mod:`app.db.bracket_rows`), and computes the standings with the same code
(:mod:`app.services.standings_core`). It returns None — the caller then uses the full services, which
say what is wrong in their own words — for anything else: a file at another schema (an older file is
read from an upgraded copy there), a file failing a check, no tournament or no such group, any
refusal (:class:`UserError`) and any value it cannot read. Tests compare its views with the
services' over many kinds of events.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from app.db.lite import LiteFile, read_bracket, read_group_state
from app.engine.event import GroupState
from app.engine.knockout import Bracket
from app.engine.regulations import Regulations
from app.engine.types import UserError
from app.services.collector import collection_paused
from app.services.standings_core import StandingsView, final_view, group_view


class LiteGroup:
    """One group read through :mod:`sqlite3`: its state and bracket read once, every value kept (one
    reading of one state of the file, as inside :meth:`app.db.session.Database.one_reading`)."""

    def __init__(self, con: sqlite3.Connection, group_id: int, name: str, reg: Regulations) -> None:
        self.con = con
        self.key = group_id
        self.name = name
        self.reg = reg
        self._state: GroupState | None = None
        self._bracket: tuple[Bracket | None] | None = None
        self._memo: dict[object, Any] = {}

    def state(self) -> GroupState:
        if self._state is None:
            self._state = read_group_state(self.con, self.key, self.name, self.reg)
        return self._state

    def bracket(self) -> Bracket | None:
        if self._bracket is None:
            self._bracket = (read_bracket(self.con, self.key, self.name, self.reg),)
        return self._bracket[0]

    def memo(self) -> dict[object, Any] | None:
        return self._memo


@collection_paused()
def standings_lite(
    path: Path | str, group: str, after_round: int | None = None, *, final: bool = False
) -> StandingsView | None:
    """What ``final_standings`` (``final``) or ``standings_view`` would show, or None (use them)."""
    lite = LiteFile.open_for_reading(path)
    if lite is None:
        return None
    with lite:
        try:
            reg = lite.regulations()
            group_id = lite.group_id(group)
            if reg is None or group_id is None:
                return None  # the full service says what is missing
            src = LiteGroup(lite.con, group_id, group, reg)
            if final:
                return final_view(src)
            if after_round is None:  # as standings_view: the final ranking once the group is over
                try:
                    return final_view(src)
                except UserError:  # not over yet, as final_if_over
                    pass
            return group_view(src, after_round)
        except (sqlite3.DatabaseError, ValueError, KeyError, TypeError, UnicodeDecodeError, AttributeError):
            return None  # a refusal or a value it cannot read: the full path checks every value and says it
