"""The fast path's description of the tables it writes is the ORM models' own, and its inserts follow it."""

from __future__ import annotations

import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import JSON, Boolean, Date, DateTime, Integer, MetaData, String, Table, Text, create_engine
from sqlalchemy import Column as SAColumn

from app.db.integrity import SCHEMA_COLUMNS
from app.db.lite import insert_rows
from app.db.models import Base
from app.db.tables import AUTO, REQUIRED, TABLES, Column


def _columns(table: Table) -> tuple[Column, ...]:
    """(column, storage, default) of every column, read from the model's ``__table__``."""
    single_key = len(table.primary_key.columns) == 1
    out = []
    for c in table.columns:
        storage = (
            "datetime" if isinstance(c.type, DateTime) else "json" if isinstance(c.type, JSON) else "value"
        )
        default: object
        if c.primary_key and single_key and isinstance(c.type, Integer):
            default = AUTO
        elif c.default is not None:
            assert c.default.is_scalar, f"{table.name}.{c.name}: a computed default the fast path cannot copy"
            default = c.default.arg  # type: ignore[attr-defined]
        elif c.nullable:
            default = None
        else:
            default = REQUIRED
        out.append((c.name, storage, default))
    return tuple(out)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_each_table_the_fast_path_writes_is_described_as_its_model(name: str) -> None:
    expected = _columns(Base.metadata.tables[name])
    assert TABLES[name] == expected, f"app/db/tables.py must read:\n    {name!r}: {expected!r},"


def test_a_changed_model_is_noticed() -> None:
    # the comparison can fail: the same table with one more column (a default of its own) differs
    byes = Table(
        "byes",
        MetaData(),
        SAColumn("round_id", Integer, primary_key=True),
        SAColumn("player_id", Integer, primary_key=True),
    )
    assert _columns(byes) == TABLES["byes"]
    byes.append_column(SAColumn("note", String(8), default=""))
    assert _columns(byes) != TABLES["byes"]


def _kind(column: SAColumn[object]) -> str:
    """A column's kind as the value check reads it, from its SQLAlchemy type."""
    for cls, kind in (
        (Boolean, "boolean"),
        (DateTime, "datetime"),
        (Date, "date"),
        (JSON, "json"),
        (Integer, "integer"),
        (String, "text"),
        (Text, "text"),
    ):
        if isinstance(column.type, cls):
            return kind
    return "any"


def _checked_columns(table: Table) -> tuple[tuple[str, str, bool], ...]:
    return tuple((c.name, _kind(c), not (c.nullable or c.primary_key)) for c in table.columns)


def test_the_value_checks_description_of_every_table_is_the_models() -> None:
    """The value and structure checks read the schema without SQLAlchemy (app.db.integrity)."""
    expected = {t.name: _checked_columns(t) for t in Base.metadata.sorted_tables}
    for name, columns in expected.items():
        assert SCHEMA_COLUMNS.get(name) == columns, f"SCHEMA_COLUMNS must read:\n    {name!r}: {columns!r},"
    assert list(SCHEMA_COLUMNS) == list(expected)  # the same tables, in the models' order


def test_a_changed_model_is_noticed_by_the_value_checks_description() -> None:
    byes = Table(
        "byes",
        MetaData(),
        SAColumn("round_id", Integer, primary_key=True),
        SAColumn("player_id", Integer, primary_key=True),
    )
    assert _checked_columns(byes) == SCHEMA_COLUMNS["byes"]
    byes.append_column(SAColumn("note", String(8), nullable=False))
    assert _checked_columns(byes) != SCHEMA_COLUMNS["byes"]


@pytest.fixture
def con(tmp_path: Path) -> sqlite3.Connection:
    path = tmp_path / "t.sqlite"
    engine = create_engine(f"sqlite:///{path}")
    Base.metadata.create_all(engine, tables=[Base.metadata.tables["audit_log"]])
    engine.dispose()
    return sqlite3.connect(path)


def test_insert_rows_fills_the_models_defaults_and_stores_datetimes_as_the_orm(
    con: sqlite3.Connection,
) -> None:
    at = datetime(2026, 12, 1, 9, 30)
    last = insert_rows(
        con, "audit_log", [{"at": at, "who": "裁判长", "action": "a"}, {"at": at, "who": "x", "action": "b"}]
    )
    rows = con.execute("SELECT id, at, who, action, entity, before, after, reason FROM audit_log").fetchall()
    assert rows == [
        (1, "2026-12-01 09:30:00.000000", "裁判长", "a", "", "", "", ""),
        (2, "2026-12-01 09:30:00.000000", "x", "b", "", "", "", ""),
    ]
    assert last == 2


def test_insert_rows_refuses_a_missing_value_or_an_unknown_column(con: sqlite3.Connection) -> None:
    with pytest.raises(KeyError, match=r"audit_log\.who"):
        insert_rows(con, "audit_log", [{"at": datetime(2026, 1, 1), "action": "a"}])
    with pytest.raises(KeyError, match="no column"):
        insert_rows(con, "audit_log", [{"at": datetime(2026, 1, 1), "who": "x", "action": "a", "typo": 1}])
    assert con.execute("SELECT COUNT(*) FROM audit_log").fetchone() == (0,)
