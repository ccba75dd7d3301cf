"""Migration 0004 (the arbiters' requests, after 0003 the hall network): an old file gains the region and re-entry
columns and the absences and pair-avoidance tables, its data intact; new rows can be written at once."""

import shutil
import sqlite3
from datetime import datetime
from pathlib import Path

from sqlalchemy import inspect, select

from app.db.models import Absence, PairAvoidance, Player
from app.db.session import current_revision, head_revision, open_database

DATA = Path(__file__).parent / "data"


def test_one_chain_0001_to_0004() -> None:
    from alembic.script import ScriptDirectory

    from app.db.revisions import _revision_chain
    from app.db.session import _alembic_config

    assert _revision_chain()[:4] == ("0001", "0002", "0003", "0004")  # later ones follow in one chain
    scripts = ScriptDirectory.from_config(_alembic_config())
    assert scripts.get_revision("0004").down_revision == "0003"
    assert scripts.get_heads() == [head_revision()]


def test_the_first_schema_is_upgraded_with_defaults_for_the_new_columns(tmp_path: Path) -> None:
    old = tmp_path / "old.xqt"
    shutil.copy(DATA / "schema_0001.xqt", old)
    with sqlite3.connect(old) as con:
        columns = {r[1] for r in con.execute("PRAGMA table_info(players)")}
        assert "region" not in columns and "reentry_round" not in columns
    db = open_database(old)
    assert current_revision(db.engine) == head_revision()
    inspector = inspect(db.engine)
    assert {"absences", "pair_avoidances"} <= set(inspector.get_table_names())
    with db.session() as s:
        player = s.scalars(select(Player)).one()
        assert (player.name, player.region, player.reentry_round) == ("张三", "", None)
        s.add(Absence(player_id=player.id, round_number=2, reason="请假", created_at=datetime(2024, 7, 26)))
    with db.session() as s:
        assert [(a.round_number, a.reason) for a in s.scalars(select(Absence))] == [(2, "请假")]
        assert list(s.scalars(select(PairAvoidance))) == []
    # the hall network's tables (0003) came on the way
    assert {"deputy_tokens", "pending_results"} <= set(inspector.get_table_names())
