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
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.db.group_rows import PLAYER_COLUMNS, group_state_from_rows
from app.db.integrity import content_problems, integrity_problems, structure_problems
from app.db.leftovers import remove_leftovers
from app.db.lock import TournamentLock
from app.db.revisions import file_revision, head_revision
from app.db.tables import AUTO, REQUIRED, TABLES
from app.engine.event import GroupState
from app.engine.regulations import Regulations, regulations_from_dict
from app.engine.types import UserError
from app.files import hold_live, release_live

if TYPE_CHECKING:
    from app.engine.knockout import Bracket

BUSY_TIMEOUT_MS = 10_000
PRAGMAS = (
    "PRAGMA journal_mode=WAL",
    "PRAGMA synchronous=FULL",  # a power cut in the hall must not lose an entered result
    "PRAGMA foreign_keys=ON",
    f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
)
#: as :func:`app.db.session.make_engine` sets them for a file opened for viewing
READ_ONLY_PRAGMAS = (
    "PRAGMA foreign_keys=ON",
    f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}",
    "PRAGMA query_only=ON",
)


def stored_datetime(value: datetime) -> str:
    """A DATETIME column as SQLAlchemy stores it in SQLite."""
    return value.strftime("%Y-%m-%d %H:%M:%S.%f")


def stored_json(value: Any) -> str:
    """A JSON column as SQLAlchemy stores it (``json.dumps`` with its defaults)."""
    return json.dumps(value)


def insert_rows(con: sqlite3.Connection, table: str, rows: Sequence[Mapping[str, Any]]) -> int | None:
    """Insert ``rows`` into ``table`` as the ORM would and return the last row's id (None: no rows).

    The columns and their defaults come from the models' tables (:mod:`app.db.tables`): each row
    gives the required values and any others; every other column gets the model's default;
    datetimes and JSON are stored as SQLAlchemy stores them. A missing required value or an
    unknown column is a programming error (``KeyError``), never a silent NULL.
    """
    columns = [c for c in TABLES[table] if c[2] is not AUTO]
    names = {name for name, _, _ in columns}
    values = []
    for row in rows:
        unknown = set(row) - names
        if unknown:
            raise KeyError(f"{table} has no column {sorted(unknown)}")
        line = []
        for name, storage, default in columns:
            if name not in row:
                if default is REQUIRED:
                    raise KeyError(f"{table}.{name} needs a value")
                line.append(default)
                continue
            value = row[name]
            if value is not None and storage == "datetime":
                value = stored_datetime(value)
            elif value is not None and storage == "json":
                value = stored_json(value)
            line.append(value)
        values.append(tuple(line))
    if not values:
        return None
    sql = f"INSERT INTO {table} ({', '.join(n for n, _, _ in columns)}) VALUES ({', '.join('?' * len(columns))})"
    if len(values) == 1:
        return con.execute(sql, values[0]).lastrowid
    con.executemany(sql, values)
    return int(con.execute("SELECT last_insert_rowid()").fetchone()[0])


class LiteFile:
    """An open, locked tournament file at the newest schema; use as a context manager."""

    def __init__(self, path: Path, con: sqlite3.Connection, lock: TournamentLock | None) -> None:
        self.path = path
        self.con = con
        self.lock = lock
        self._live = hold_live(path)

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
            if (
                file_revision(path) != head_revision()
                or integrity_problems(path, writable=True)
                or structure_problems(path, limit=1)
            ):
                lock.release()
                return None
            con = sqlite3.connect(path, isolation_level=None)
            for pragma in PRAGMAS:
                con.execute(pragma)
        except BaseException:
            lock.release()
            raise
        return cls(path, con, lock)

    @classmethod
    def open_for_reading(cls, path: Path | str) -> LiteFile | None:
        """Open ``path`` for reading only, checked as :func:`app.db.session.open_database` checks a file
        opened for viewing (no lock; the version guard; SQLite's quick check and every value of every
        row — :func:`~app.db.integrity.content_problems` — unless exactly these bytes were found good
        before, and then remembered, :mod:`app.db.checked`). None when the file needs the full path:
        missing, empty, at another schema (an older file is read from an upgraded copy there, a newer
        one refused) or failing a check (the full path checks it again and says what is wrong)."""
        from app.db.checked import fingerprint, remember_checked, was_checked  # not on ``pair``'s path

        path = Path(path)
        try:
            if not path.is_file() or path.stat().st_size == 0:
                return None
            revision = file_revision(path)
            if revision is None or revision != head_revision():
                return None
            fp = fingerprint(path)
            if not was_checked(fp, revision, full=False):
                if integrity_problems(path, quick=True) or content_problems(path, limit=3):
                    return None
                remember_checked(path, fp, revision, full=False)
            con = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
        except (OSError, sqlite3.Error, UserError):
            return None  # a damaged, busy or unreadable file: the full path checks it and says so
        try:
            for pragma in READ_ONLY_PRAGMAS:
                con.execute(pragma)
        except sqlite3.Error:
            con.close()
            return None
        return cls(path, con, None)

    def close(self) -> None:
        self.con.close()
        if self._live:
            release_live(self._live)
            self._live = ""
        if self.lock is not None:
            self.lock.release()

    def __enter__(self) -> LiteFile:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def regulations(self) -> Regulations | None:
        row = self.con.execute("SELECT regulations FROM tournament WHERE id = 1").fetchone()
        return None if row is None else regulations_of_text(row[0])

    def group_id(self, name: str) -> int | None:
        row = self.con.execute("SELECT id FROM groups WHERE name = ?", (name,)).fetchone()
        return None if row is None else int(row[0])


#: the regulations last decoded, by their stored text (a regulation is immutable all the way down:
#: frozen records, tuples and enums — the same text always decodes to an equal value, so a kept one
#: can be handed out again; another text is decoded afresh). Decoding and checking one is ~1.5 ms.
_DECODED: dict[str, Regulations] = {}
_DECODED_KEPT = 8


def regulations_of_text(text: str) -> Regulations:
    """The regulations stored as ``text`` (the tournament row's JSON), decoded once per text."""
    found = _DECODED.get(text)
    if found is None:
        found = regulations_from_dict(json.loads(text))
        if len(_DECODED) >= _DECODED_KEPT:
            _DECODED.clear()
        _DECODED[text] = found
    return found


def read_group_state(
    con: sqlite3.Connection, group_id: int, name: str, regulations: Regulations
) -> GroupState:
    """The group's state, as :func:`app.db.mapping.read_group_state` reads it (the same queries with
    sqlite3; the same assembly of the rows, :func:`app.db.group_rows.group_state_from_rows`)."""
    teams = dict(con.execute("SELECT id, name FROM teams WHERE group_id = ?", (group_id,)).fetchall())
    players = con.execute(
        f"SELECT {', '.join(PLAYER_COLUMNS)} FROM players WHERE group_id = ?", (group_id,)
    ).fetchall()
    player_ids = [p[0] for p in players]
    rounds = con.execute(
        "SELECT id, number, stage, closed_at FROM rounds WHERE group_id = ? ORDER BY number", (group_id,)
    ).fetchall()
    ids = [r[0] for r in rounds]
    marks = ",".join("?" * len(ids))
    pmarks = ",".join("?" * len(player_ids))
    games = con.execute(
        f"SELECT round_id, board, red_id, black_id, result FROM games "
        f"WHERE round_id IN ({marks}) AND kind = 'swiss' ORDER BY round_id, board",
        ids,
    ).fetchall()
    byes = con.execute(f"SELECT round_id, player_id FROM byes WHERE round_id IN ({marks})", ids).fetchall()
    absences = con.execute(
        f"SELECT player_id, round_number FROM absences WHERE player_id IN ({pmarks})", player_ids
    ).fetchall()
    violations = con.execute(
        f"SELECT player_id, round_number, kind FROM violations WHERE player_id IN ({pmarks}) "
        "ORDER BY player_id, id",
        player_ids,
    ).fetchall()
    stages = con.execute(
        "SELECT id, stage, kind, seed FROM group_stages WHERE group_id = ?", (group_id,)
    ).fetchall()
    smarks = ",".join("?" * len(stages))
    entries = con.execute(
        f"SELECT stage_id, player_id, pool, number, lot FROM stage_entries WHERE stage_id IN ({smarks})",
        [st[0] for st in stages],
    ).fetchall()
    return group_state_from_rows(
        name, regulations, teams, players, rounds, games, byes, absences, violations, stages, entries
    )


def read_bracket(
    con: sqlite3.Connection, group_id: int, name: str, regulations: Regulations
) -> Bracket | None:
    """The group's knockout bracket (None before the split), as :func:`app.services.brackets.load_bracket`
    reads it (the same queries with sqlite3; the same assembly, :func:`app.db.bracket_rows.bracket_from_rows`).
    Imported here: the knockout's records would otherwise load on ``pair``'s path, which needs none."""
    from app.db.bracket_rows import MATCH_COLUMNS, MATCH_GAME_COLUMNS, begun_from_rows, bracket_from_rows

    matches = [
        (
            *row[:-1],
            None if row[-1] is None else json.loads(row[-1]),
        )  # colour_choices: JSON, as the ORM reads it
        for row in con.execute(
            f"SELECT {', '.join(MATCH_COLUMNS)} FROM knockout_matches WHERE group_id = ? ORDER BY id",
            (group_id,),
        )
    ]
    if not matches:
        return None
    no_of = {
        pid: no
        for pid, no in con.execute("SELECT id, no FROM players WHERE group_id = ?", (group_id,))
        if no is not None
    }
    stages = con.execute(
        "SELECT id, stage, kind FROM group_stages WHERE group_id = ?", (group_id,)
    ).fetchall()
    marks = ",".join("?" * len(stages))
    entries = (
        con.execute(
            f"SELECT stage_id, player_id, number FROM stage_entries WHERE stage_id IN ({marks})",
            [st[0] for st in stages],
        ).fetchall()
        if stages
        else []
    )
    games = con.execute(
        f"SELECT {', '.join('g.' + c for c in MATCH_GAME_COLUMNS)} FROM games g JOIN rounds r ON g.round_id = r.id "
        "WHERE r.group_id = ? AND g.match_id IS NOT NULL ORDER BY g.game_no",
        (group_id,),
    ).fetchall()
    return bracket_from_rows(name, regulations, matches, no_of, begun_from_rows(stages, entries), games)
