"""Migration 0007 (formats as stages): an old file's regulation is rewritten in stage terms, meaning
exactly the old format; the new columns and tables arrive with defaults; an old deciding-game colour
choice moves to the ladder's colour choices."""

import json
import shutil
import sqlite3
from datetime import datetime
from pathlib import Path

from sqlalchemy import inspect, select

from app.db.models import GroupStage, KnockoutMatch, Player, StageEntry, Tournament
from app.db.session import current_revision, head_revision, open_database
from app.engine.regulations import legacy_group, preset, regulations_from_dict

DATA = Path(__file__).parent / "data"


def test_an_old_file_is_read_in_stage_terms_with_the_same_format(tmp_path: Path) -> None:
    old = tmp_path / "old.xqt"
    shutil.copy(DATA / "schema_0001.xqt", old)
    with sqlite3.connect(old) as con:
        before = json.loads(con.execute("SELECT regulations FROM tournament").fetchone()[0])
    assert "stages" not in before["groups"][0] and before["groups"][0]["knockout_size"] == 8
    db = open_database(old)
    assert current_revision(db.engine) == head_revision()
    with db.session() as s:
        stored = s.execute(select(Tournament)).scalar_one()
        groups = stored.regulations["groups"]
        assert all("rounds" not in g and "knockout_size" not in g for g in groups)
        assert groups[0]["stages"] == [
            {"kind": "swiss", "rounds": 8},
            {"kind": "knockout", "entrants": "top", "count": 8},
            {"kind": "swiss", "entrants": "rest", "alongside": True, "rounds": 3},
        ]
        reg = regulations_from_dict(stored.regulations)
        assert reg.groups[0] == legacy_group("公开组", True, 11, 8, 8) == preset("tianshui-2024").groups[0]
        assert [g.legacy for g in reg.groups] == [(11, 8, 8), (11, 8, 8)]
        player = s.scalars(select(Player)).one()
        assert (player.ranked, player.eligibility_override) == (True, "")
    tables = set(inspect(db.engine).get_table_names())
    assert {"group_stages", "stage_entries"} <= tables
    db.close()


def test_a_deciding_colour_choice_moves_to_the_ladder_choices(tmp_path: Path) -> None:
    old = tmp_path / "old.xqt"
    shutil.copy(DATA / "schema_0001.xqt", old)
    with sqlite3.connect(old) as con:
        group_id, player_id = con.execute("SELECT group_id, id FROM players").fetchone()
        con.execute(
            "INSERT INTO knockout_matches (group_id, code, round_number, high_id, low_id, colour_method, "
            "colour_seed, first_red_id, deciding_red_id, winner_id) VALUES (?, 'QF1', 9, ?, NULL, 'lot', 7, ?, ?, NULL)",
            (group_id, player_id, player_id, player_id),
        )
    db = open_database(old)
    with db.session() as s:
        match = s.scalars(select(KnockoutMatch)).one()
        assert (match.deciding_red_id, match.colour_choices) == (None, {"2": player_id})
        stage = GroupStage(
            group_id=group_id, stage=0, kind="swiss", seed=None, started_at=datetime(2024, 7, 26)
        )
        s.add(stage)
        s.flush()
        s.add(StageEntry(stage_id=stage.id, player_id=player_id, pool=0, number=1, lot=1))
    with db.session() as s:
        assert [(e.pool, e.number, e.lot) for e in s.scalars(select(StageEntry))] == [(0, 1, 1)]
    db.close()
