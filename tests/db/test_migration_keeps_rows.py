"""A migration that rebuilds a table (SQLite's batch mode copies it and drops the old one) keeps every
row that refers to it: with foreign keys enforced, dropping the old ``players`` would delete each
violation of a player (ON DELETE CASCADE) or refuse to open a file with a knockout match or a game
(ON DELETE RESTRICT). The upgrade runs with the keys off and checks them after."""

import shutil
import sqlite3
from pathlib import Path

from sqlalchemy import func, select

from app.db.models import KnockoutMatch, Violation
from app.db.session import current_revision, head_revision, open_database

DATA = Path(__file__).parent / "data"


def test_upgrading_an_old_file_keeps_the_rows_that_refer_to_its_players(tmp_path: Path) -> None:
    old = tmp_path / "old.xqt"
    shutil.copy(DATA / "schema_0001.xqt", old)
    with sqlite3.connect(old) as con:
        con.execute("PRAGMA foreign_keys=ON")
        group_id, player_id = con.execute("SELECT group_id, id FROM players").fetchone()
        con.execute(
            "INSERT INTO violations (player_id, round_number, game_id, kind, reason, source, created_at) "
            "VALUES (?, 1, NULL, 'late', '迟到', 'arbiter', '2024-07-26 09:00:00')",
            (player_id,),
        )
        con.execute(
            "INSERT INTO knockout_matches (group_id, code, round_number, high_id, low_id, colour_method, "
            "colour_seed, first_red_id, deciding_red_id, winner_id) VALUES (?, 'QF1', 9, ?, NULL, 'lot', 7, ?, "
            "NULL, NULL)",
            (group_id, player_id, player_id),
        )
    db = open_database(old)
    assert current_revision(db.engine) == head_revision()
    with db.session() as s:
        assert s.scalar(select(func.count()).select_from(Violation)) == 1
        assert s.scalar(select(func.count()).select_from(KnockoutMatch)) == 1
        assert s.execute(select(Violation.player_id)).scalar_one() == player_id
    with sqlite3.connect(old) as con:
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        assert con.execute("PRAGMA foreign_keys").fetchone() == (0,)  # a plain connection's default
    with db.engine.connect() as connection:  # the program's connections enforce the keys again
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    db.close()
