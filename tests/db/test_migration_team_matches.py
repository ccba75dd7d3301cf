"""Migration 0008 (team matches): an old file gains the team columns and tables with defaults, keeps
its games, records and violations, and a team match's boards cascade with it."""

import shutil
import sqlite3
from datetime import datetime
from pathlib import Path

from sqlalchemy import inspect, select

from app.db.models import GameRow, Player, Round, Team, TeamLineup, TeamLineupBoard, TeamMatch
from app.db.session import current_revision, head_revision, open_database

DATA = Path(__file__).parent / "data"


def test_an_old_file_gains_the_team_columns_and_keeps_its_rows(tmp_path: Path) -> None:
    old = tmp_path / "old.xqt"
    shutil.copy(DATA / "schema_0001.xqt", old)
    with sqlite3.connect(old) as con:
        games_before = con.execute("SELECT count(*) FROM games").fetchone()
    db = open_database(old)
    assert current_revision(db.engine) == head_revision()
    tables = set(inspect(db.engine).get_table_names())
    assert {"team_matches", "team_lineups", "team_lineup_boards"} <= tables
    foreign = inspect(db.engine).get_foreign_keys("games")
    assert any(fk["referred_table"] == "team_matches" for fk in foreign)
    with db.session() as s:
        player = s.scalars(select(Player)).one()
        assert (player.team_order, player.reserve) == (None, False)
        assert s.execute(select(GameRow.id)).all().__len__() == games_before[0]
    db.close()


def test_a_team_match_takes_its_boards_with_it(tmp_path: Path) -> None:
    old = tmp_path / "old.xqt"
    shutil.copy(DATA / "schema_0001.xqt", old)
    db = open_database(old)
    with db.session() as s:
        player = s.scalars(select(Player)).one()
        home = Team(group_id=player.group_id, name="甲队", no=1, captain="张三", seed_rank=2)
        away = Team(group_id=player.group_id, name="乙队", no=2)
        rnd = Round(group_id=player.group_id, number=1, stage="team", paired_at=datetime(2024, 7, 26))
        s.add_all([home, away, rnd])
        s.flush()
        match = TeamMatch(round_id=rnd.id, number=1, home_team_id=home.id, away_team_id=away.id)
        s.add(match)
        s.flush()
        s.add(
            GameRow(
                round_id=rnd.id,
                board=1,
                red_id=player.id,
                black_id=player.id,
                kind="board",
                team_match_id=match.id,
            )
        )
        lineup = TeamLineup(
            round_id=rnd.id, team_id=home.id, handed_in_at=datetime(2024, 7, 26), handed_in_by="张三"
        )
        lineup.boards.append(TeamLineupBoard(board=1, player_id=player.id))
        lineup.boards.append(TeamLineupBoard(board=2, player_id=None))
        s.add(lineup)
    with db.session() as s:
        assert [(b.board, b.player_id is None) for b in s.scalars(select(TeamLineupBoard))] == [
            (1, False),
            (2, True),
        ]
        s.delete(s.scalars(select(TeamMatch)).one())
    with db.session() as s:
        assert s.scalars(select(GameRow).where(GameRow.kind == "board")).all() == []
    db.close()
