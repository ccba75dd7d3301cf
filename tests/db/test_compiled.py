"""One cache of compiled SQL for every file the process opens (app.db.compiled).

It must save the compilation on the second file, and never serve one file's rows for another:
across files open at once, files opened for viewing, a file of an older schema, and threads."""

from __future__ import annotations

import shutil
import threading
from collections.abc import Iterator
from datetime import date, datetime
from pathlib import Path

import pytest
from sqlalchemy import select, text
from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
from sqlalchemy.sql import compiler

from app.db import compiled
from app.db.compiled import COMPILED, ArbiterSQLite
from app.db.models import Group, Player, Tournament
from app.db.session import Database, make_engine, open_database

DATA = Path(__file__).parent / "data"


@pytest.fixture
def compilations(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The SQL of every statement this test's thread compiles from now on (a cache miss). Another
    thread of the process (a hall another test of this worker left serving, its refresh) compiles
    into the same shared cache and is not this test's doing."""
    made: list[str] = []
    real = compiler.SQLCompiler.__init__
    mine = threading.get_ident()

    def counting(self: compiler.SQLCompiler, *args: object, **kwargs: object) -> None:
        real(self, *args, **kwargs)  # type: ignore[arg-type]
        if threading.get_ident() == mine:
            made.append(self.string)

    monkeypatch.setattr(compiler.SQLCompiler, "__init__", counting)
    yield made


def _event(path: Path, name: str, players: list[str]) -> Database:
    db = open_database(path, create=True)
    with db.session() as s:
        s.add(
            Tournament(
                name=name, start_date=date(2026, 5, 1), regulations={}, created_at=datetime(2026, 5, 1)
            )
        )
        group = Group(name="公开组")
        s.add(group)
        s.flush()
        for no, player in enumerate(players, 1):
            s.add(
                Player(
                    group_id=group.id,
                    no=no,
                    name=player,
                    unit=f"{name}队",
                    id_number=f"{name}{no}",
                    phone="",
                    registered_at=datetime(2026, 4, 1),
                )
            )
    return db


def _read(db: Database) -> tuple[str, list[str], list[str]]:
    with db.session() as s:
        tournament = s.get(Tournament, 1)
        assert tournament is not None
        names = list(s.scalars(select(Player.name).order_by(Player.no)))
        units = [p.unit for p in s.scalars(select(Group)).one().players]
        return tournament.name, names, units


def test_a_second_file_reuses_the_first_files_compiled_statements(
    tmp_path: Path, compilations: list[str]
) -> None:
    COMPILED.clear()  # what earlier tests of this process compiled: the first file's queries compile
    with _event(tmp_path / "a.xqt", "甲赛", ["张三", "李四"]) as a:
        assert _read(a) == ("甲赛", ["张三", "李四"], ["甲赛队", "甲赛队"])
    first = len(compilations)
    assert any("FROM players" in sql for sql in compilations)  # the spy sees the ORM's statements
    with _event(tmp_path / "b.xqt", "乙赛", ["王五", "赵六"]) as b:
        assert _read(b) == ("乙赛", ["王五", "赵六"], ["乙赛队", "乙赛队"])
    # the same inserts (the mapper's cache) and queries (the engines' shared cache): none compiled again
    assert compilations[first:] == []


def test_files_open_at_once_each_read_their_own_rows(tmp_path: Path) -> None:
    a = _event(tmp_path / "a.xqt", "甲赛", ["张三", "李四"])
    b = _event(tmp_path / "b.xqt", "乙赛", ["王五"])
    try:
        for _ in range(3):
            assert _read(a) == ("甲赛", ["张三", "李四"], ["甲赛队", "甲赛队"])
            assert _read(b) == ("乙赛", ["王五"], ["乙赛队"])
        with b.session() as s:  # a change to one file is seen there, and only there
            s.scalars(select(Player)).one().name = "赵六"
        assert _read(a)[1] == ["张三", "李四"] and _read(b)[1] == ["赵六"]
    finally:
        a.close()
        b.close()
    viewing = open_database(tmp_path / "a.xqt", read_only=True)
    with viewing, open_database(tmp_path / "b.xqt") as writing:
        assert _read(viewing) == ("甲赛", ["张三", "李四"], ["甲赛队", "甲赛队"])
        assert _read(writing) == ("乙赛", ["赵六"], ["乙赛队"])


def test_a_file_of_an_older_schema_reads_its_own_rows_after_a_newer_file(tmp_path: Path) -> None:
    with _event(tmp_path / "new.xqt", "新赛", ["王五"]) as new:
        assert _read(new)[0] == "新赛"
        old = tmp_path / "old.xqt"
        shutil.copy(DATA / "schema_0001.xqt", old)
        viewed = tmp_path / "viewed.xqt"
        shutil.copy(DATA / "schema_0001.xqt", viewed)
        with open_database(viewed, read_only=True) as copy, open_database(old) as upgraded:
            for db in (copy, upgraded, new):  # Alembic's statements in between, the ORM's again after
                with db.session() as s:
                    tournament = s.get(Tournament, 1)
                    assert tournament is not None
                    players = [(p.name, p.no) for p in s.scalars(select(Player))]
                    expected = ("新赛", [("王五", 1)]) if db is new else ("旧版赛事", [("张三", 1)])
                    assert (tournament.name, players) == expected


def test_threads_reading_two_files_never_see_each_others_rows(tmp_path: Path) -> None:
    files = {
        "甲赛": _event(tmp_path / "a.xqt", "甲赛", [f"甲{i}" for i in range(12)]),
        "乙赛": _event(tmp_path / "b.xqt", "乙赛", [f"乙{i}" for i in range(7)]),
    }
    wrong: list[object] = []
    start = threading.Barrier(4)

    def read(name: str, db: Database) -> None:
        start.wait(timeout=30)
        for _ in range(40):
            got = _read(db)
            if (
                got[0] != name
                or any(not p.startswith(name[0]) for p in got[1])
                or set(got[2]) != {f"{name}队"}
            ):
                wrong.append(got)

    threads = [threading.Thread(target=read, args=item) for item in list(files.items()) * 2]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=120)
        assert not any(t.is_alive() for t in threads)
        assert wrong == []
    finally:
        for db in files.values():
            db.close()


def test_the_cache_is_bounded(tmp_path: Path) -> None:
    engine = make_engine(tmp_path / "t.xqt")
    try:
        with engine.connect() as c:
            for i in range(int(compiled.CAPACITY * 1.6)):  # as many distinct statements
                assert c.execute(text(f"SELECT {i}")).scalar() == i
        assert len(COMPILED) <= COMPILED.size_threshold
        assert COMPILED.capacity == compiled.CAPACITY
    finally:
        engine.dispose()


def test_dialects_are_equal_only_when_both_compile_alike(tmp_path: Path) -> None:
    a, b = make_engine(tmp_path / "a.xqt"), make_engine(tmp_path / "b.xqt", read_only=False)
    try:
        assert isinstance(a.dialect, ArbiterSQLite)
        assert a.dialect != b.dialect  # not connected yet: its settings unread, equal only to itself
        assert a.dialect == a.dialect
        with a.connect(), b.connect():
            assert a.dialect == b.dialect and hash(a.dialect) == hash(b.dialect)
        other = SQLiteDialect_pysqlite()  # SQLAlchemy's own: never mistaken for the program's
        assert a.dialect != other and other != a.dialect
        different = ArbiterSQLite(
            dbapi=ArbiterSQLite.import_dbapi(), paramstyle="named"
        )  # a setting that changes the SQL
        with a.connect() as c:
            different.initialize(c)
        assert different != a.dialect
    finally:
        a.dispose()
        b.dispose()
