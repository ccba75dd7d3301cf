"""The tournament file: pragmas in force, migrations from the first schema, the version guard."""

import shutil
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest
from sqlalchemy import inspect, select, text

from app.db.models import Base, Player, Tournament
from app.db.session import DatabaseError, current_revision, head_revision, open_database

DATA = Path(__file__).parent / "data"


def test_pragmas_are_in_force_on_every_connection(tmp_path: Path) -> None:
    db = open_database(tmp_path / "t.xqt", create=True)
    for _ in range(2):  # a fresh connection each time from the pool
        with db.engine.connect() as c:
            assert c.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert c.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
            assert c.execute(text("PRAGMA foreign_keys")).scalar() == 1
            assert c.execute(text("PRAGMA busy_timeout")).scalar() >= 5000
        db.engine.dispose()


def test_new_file_is_at_head_and_matches_the_models(tmp_path: Path) -> None:
    db = open_database(tmp_path / "t.xqt", create=True)
    assert current_revision(db.engine) == head_revision()
    inspector = inspect(db.engine)
    for table in Base.metadata.sorted_tables:
        have = {c["name"] for c in inspector.get_columns(table.name)}
        assert have == {c.name for c in table.columns}, table.name
        want_ix = {ix.name for ix in table.indexes}
        have_ix = {ix["name"] for ix in inspector.get_indexes(table.name)}
        assert want_ix <= have_ix, table.name


def test_file_from_the_first_schema_is_upgraded_with_its_data(tmp_path: Path) -> None:
    old = tmp_path / "old.xqt"
    shutil.copy(DATA / "schema_0001.xqt", old)
    with sqlite3.connect(old) as con:
        assert con.execute("SELECT version_num FROM alembic_version").fetchone() == ("0001",)
        assert "ix_games_red_id" not in {r[0] for r in con.execute("SELECT name FROM sqlite_master")}
    db = open_database(old)
    assert current_revision(db.engine) == head_revision() != "0001"
    with db.session() as s:
        assert s.get(Tournament, 1).name == "旧版赛事"
        player = s.scalars(select(Player)).one()
        assert (player.name, player.id_number, player.no) == ("张三", "11010519491231002X", 1)
    names = {ix["name"] for ix in inspect(db.engine).get_indexes("games")}
    assert {"ix_games_red_id", "ix_games_black_id"} <= names


def test_file_newer_than_the_program_is_refused_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "new.xqt"
    open_database(path, create=True).close()
    with sqlite3.connect(path) as con:
        con.execute("UPDATE alembic_version SET version_num='9999'")
    before = path.read_bytes()
    with pytest.raises(DatabaseError, match="更新版本"):
        open_database(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "空文件"),
        (b"this is not a database at all" * 100, "损坏"),
        (b"PK\x03\x04 an xlsx perhaps", "损坏"),
    ],
)
def test_non_tournament_files_are_refused(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.xqt"
    path.write_bytes(content)
    with pytest.raises(DatabaseError, match=message):
        open_database(path)
    assert path.read_bytes() == content


def test_foreign_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.xqt"
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE songs(id INTEGER)")
    with pytest.raises(DatabaseError, match="不是象棋赛事文件"):
        open_database(path)


def test_session_rolls_back_the_whole_action_on_error(tmp_path: Path) -> None:
    db = open_database(tmp_path / "t.xqt", create=True)
    with pytest.raises(RuntimeError), db.session() as s:
        s.add(
            Tournament(
                id=1,
                name="x",
                start_date=datetime(2024, 1, 1).date(),
                regulations={},
                created_at=datetime.now(),
            )
        )
        s.flush()
        raise RuntimeError("boom")
    with db.session() as s:
        assert s.get(Tournament, 1) is None


def test_existing_file_cannot_be_created_again(tmp_path: Path) -> None:
    path = tmp_path / "t.xqt"
    open_database(path, create=True).close()
    with pytest.raises(DatabaseError, match="已存在"):
        open_database(path, create=True)


def test_read_only_open_refuses_writes(tmp_path: Path) -> None:
    path = tmp_path / "t.xqt"
    open_database(path, create=True).close()
    db = open_database(path, read_only=True)
    with pytest.raises(Exception, match=r"readonly|read-only|query_only|attempt to write"), db.session() as s:
        s.add(
            Tournament(
                id=1,
                name="x",
                start_date=datetime(2024, 1, 1).date(),
                regulations={},
                created_at=datetime.now(),
            )
        )


def test_the_revisions_read_without_alembic_are_alembics() -> None:
    from alembic.script import ScriptDirectory

    from app.db.session import _alembic_config, known_revisions, script_revisions

    scripts = ScriptDirectory.from_config(_alembic_config())
    assert head_revision() == scripts.get_current_head()
    assert known_revisions() == {s.revision for s in scripts.walk_revisions()}
    assert script_revisions() == {s.revision: s.down_revision for s in scripts.walk_revisions()}


def test_opening_a_current_file_does_not_load_alembic(tmp_path: Path) -> None:
    import subprocess
    import sys

    path = tmp_path / "t.xqt"
    open_database(path, create=True).close()
    code = (
        "import sys\nfrom app.db.session import open_database\n"
        f"open_database({str(path)!r}).close()\nprint('alembic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
