"""A tournament file for one quick command, with :mod:`sqlite3` only (no SQLAlchemy, no ORM).

Importing SQLAlchemy and its ORM costs ~0.25 s, ten times a 160-player pairing. The command line's
``pair`` reads and writes through this module when the file is already at the program's schema;
everything else (an older file, a damaged one, any refusal) goes through :mod:`app.db.session`. The
same locking, version guard, integrity check and clean-up of a killed run's leftovers apply (a value
the fast path cannot read sends the command to the full path, which checks every value); a test keeps :func:`read_group_state` equal
to :func:`app.db.mapping.read_group_state`, and the rows written equal to the ORM's.
"""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

from app.db.integrity import integrity_problems
from app.db.leftovers import remove_leftovers
from app.db.lock import TournamentLock
from app.db.revisions import file_revision, head_revision
from app.engine.event import Entrant, GroupState, ViolationFact
from app.engine.regulations import Regulations, regulations_from_dict
from app.engine.types import Game, GameResult, PlayerStatus, RoundRecord, RoundStage

BUSY_TIMEOUT_MS = 10_000
PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",  # a power cut in the hall must not lose an entered result
    "PRAGMA foreign_keys=ON",
    f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
)


def stored_datetime(value: datetime) -> str:
    """A DATETIME column as SQLAlchemy stores it in SQLite."""
    return value.strftime("%Y-%m-%d %H:%M:%S.%f")


def stored_json(value: Any) -> str:
    """A JSON column as SQLAlchemy stores it (``json.dumps`` with its defaults)."""
    return json.dumps(value)


class LiteFile:
    """An open, locked tournament file at the newest schema; use as a context manager."""

    def __init__(self, path: Path, con: sqlite3.Connection, lock: TournamentLock) -> None:
        self.path = path
        self.con = con
        self.lock = lock

    @classmethod
    def open(cls, path: Path | str) -> LiteFile | None:
        """Lock and open ``path`` for writing; None when the file needs the full path (missing,
        empty, older or newer schema, failing its integrity check) — the caller then opens it
        with :func:`app.db.session.open_database`, which says what is wrong or migrates it.
        Raises like ``open_database`` when another program holds the lock."""
        path = Path(path)
        if not path.is_file() or path.stat().st_size == 0:
            return None
        lock = TournamentLock.acquire(path)
        try:
            remove_leftovers(path)
            # the value-by-value check (content_problems) needs the ORM's column types: instead, any
            # value the fast path cannot read sends the command to the full path, which checks them all
            if file_revision(path) != head_revision() or integrity_problems(path, writable=True):
                lock.release()
                return None
            con = sqlite3.connect(path, isolation_level=None)
            for pragma in PRAGMAS:
                con.execute(pragma)
        except BaseException:
            lock.release()
            raise
        return cls(path, con, lock)

    def close(self) -> None:
        self.con.close()
        self.lock.release()

    def __enter__(self) -> LiteFile:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def regulations(self) -> Regulations | None:
        row = self.con.execute("SELECT regulations FROM tournament WHERE id = 1").fetchone()
        return None if row is None else regulations_from_dict(json.loads(row[0]))

    def group_id(self, name: str) -> int | None:
        row = self.con.execute("SELECT id FROM groups WHERE name = ?", (name,)).fetchone()
        return None if row is None else int(row[0])


def read_group_state(
    con: sqlite3.Connection, group_id: int, name: str, regulations: Regulations
) -> GroupState:
    """The group's state, as :func:`app.db.mapping.read_group_state` reads it (same queries, sqlite3)."""
    teams = dict(con.execute("SELECT id, name FROM teams WHERE group_id = ?", (group_id,)).fetchall())
    players = con.execute(
        "SELECT id, no, name, team_id, unit, rating, status, status_round, fee_paid, checked_in, dq_games "
        "FROM players WHERE group_id = ?",
        (group_id,),
    ).fetchall()
    no_of = {p[0]: p[1] for p in players}
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
                )
                for _, no, pname, team_id, unit, rating, status, status_round, fee_paid, checked_in, dq_games in players
                if no is not None
            ),
            key=lambda e: e.no,
        )
    )
    rounds = con.execute(
        "SELECT id, number, stage, closed_at FROM rounds WHERE group_id = ? ORDER BY number", (group_id,)
    ).fetchall()
    ids = [r[0] for r in rounds]
    marks = ",".join("?" * len(ids))
    games: dict[int, list[Game]] = defaultdict(list)
    byes: dict[int, list[int]] = defaultdict(list)
    if ids:
        for round_id, board, red, black, result in con.execute(
            f"SELECT round_id, board, red_id, black_id, result FROM games "
            f"WHERE round_id IN ({marks}) AND kind = 'swiss' ORDER BY round_id, board",
            ids,
        ):
            games[round_id].append(
                Game(board=board, red=no_of[red], black=no_of[black], result=GameResult(result))
            )
        for round_id, player_id in con.execute(
            f"SELECT round_id, player_id FROM byes WHERE round_id IN ({marks})", ids
        ):
            byes[round_id].append(no_of[player_id])
    records = tuple(
        RoundRecord(number=number, games=tuple(games[rid]), byes=tuple(sorted(byes[rid])))
        for rid, number, _, _ in rounds
    )
    player_ids = list(no_of)
    violations: tuple[ViolationFact, ...] = ()
    if player_ids:
        pmarks = ",".join("?" * len(player_ids))
        violations = tuple(
            ViolationFact(no=no_of[player_id], round=number, kind=kind)
            for player_id, number, kind in con.execute(
                f"SELECT player_id, round_number, kind FROM violations WHERE player_id IN ({pmarks}) "
                "ORDER BY player_id, id",
                player_ids,
            )
            if no_of[player_id] is not None
        )
    return GroupState(
        name=name,
        format=regulations.group(name),
        entrants=entrants,
        rounds=records,
        stages=tuple(RoundStage(r[2]) for r in rounds),
        closed=tuple(r[3] is not None for r in rounds),
        violations=violations,
    )
