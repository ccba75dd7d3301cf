"""The tables the command line's fast path writes, as the ORM models declare them — without SQLAlchemy.

:mod:`app.db.lite` writes rows with :mod:`sqlite3` (importing SQLAlchemy costs ~0.25 s, more than a
160-player pairing). Its inserts are generated from this description of ``app.db.models``' tables:
every column in the model's order, how the ORM stores its value, and the model's default. A test
compares it with each model's ``__table__`` (and prints the entry to paste when they differ), so a
column added to a model cannot be left out of the fast path's rows.
"""

from __future__ import annotations

from typing import Final


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


REQUIRED: Final = _Marker("REQUIRED")  # NOT NULL without a default: the caller gives the value
AUTO: Final = _Marker("AUTO")  # the integer primary key: SQLite assigns it

#: (column, storage, default) per column: storage is "datetime" or "json" where the ORM converts the
#: value (see :func:`app.db.lite.stored_datetime` / :func:`~app.db.lite.stored_json`), else "value";
#: the default is the model's, None for a nullable column without one, or REQUIRED / AUTO.
Column = tuple[str, str, object]

TABLES: dict[str, tuple[Column, ...]] = {
    "rounds": (
        ("id", "value", AUTO),
        ("group_id", "value", REQUIRED),
        ("number", "value", REQUIRED),
        ("stage", "value", "swiss"),
        ("seed", "value", None),
        ("paired_at", "datetime", REQUIRED),
        ("closed_at", "datetime", None),
        ("explanation", "json", None),
    ),
    "games": (
        ("id", "value", AUTO),
        ("round_id", "value", REQUIRED),
        ("board", "value", REQUIRED),
        ("game_no", "value", 1),
        ("red_id", "value", REQUIRED),
        ("black_id", "value", REQUIRED),
        ("result", "value", "pending"),
        ("match_id", "value", None),
        ("kind", "value", "swiss"),
        ("team_match_id", "value", None),
    ),
    "byes": (
        ("round_id", "value", REQUIRED),
        ("player_id", "value", REQUIRED),
    ),
    "audit_log": (
        ("id", "value", AUTO),
        ("at", "datetime", REQUIRED),
        ("who", "value", REQUIRED),
        ("action", "value", REQUIRED),
        ("entity", "value", ""),
        ("before", "value", ""),
        ("after", "value", ""),
        ("reason", "value", ""),
    ),
}
