"""The command line's standings read through sqlite3 (no SQLAlchemy) show exactly what the services show."""

from __future__ import annotations

import itertools
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.db.integrity import CorruptFileError
from app.db.lite import LiteFile, read_bracket, read_group_state
from app.engine.pairing import NoLegalPairing
from app.engine.types import UserError
from app.services import audit
from app.services.brackets import load_bracket
from app.services.faststandings import standings_lite
from app.services.format_demo import GROUP, create_format_demo
from app.services.rounds import rounds_of
from app.services.simulation import play_group_to_end
from app.services.standings import final_standings, standings_view
from app.services.tournaments import group_row, open_tournament, regulations_of
from tests.conftest import built_once_file, fast_examples
from tests.factories import copy_event
from tests.orm_reference import orm_read_group_state

OPEN, LOCAL = "公开组", "天水本地组"
DATA = Path(__file__).parent.parent / "db" / "data"
_counter = itertools.count()

#: what a reading is asked: the final ranking (--final), the default view, the view after round n
Asked = tuple[str, int | None]


def _services(path: Path, group: str) -> dict[Asked, object]:
    """Every standing the command can show, as the full services make them (None: refused)."""
    db = open_tournament(path, read_only=True)
    out: dict[Asked, object] = {}
    try:
        latest = max((r.number for r in rounds_of(db, group)), default=0)
        asked: list[Asked] = [("final", None), ("view", None), *(("view", n) for n in range(latest + 1))]
        for kind, n in asked:
            try:
                out[(kind, n)] = (
                    final_standings(db, group) if kind == "final" else standings_view(db, group, n)
                )
            except UserError:
                out[(kind, n)] = None
    finally:
        db.close()
    return out


def _lite(path: Path, group: str, asked: list[Asked]) -> dict[Asked, object]:
    return {(kind, n): standings_lite(path, group, n, final=kind == "final") for kind, n in asked}


def assert_same_standings(path: Path, group: str) -> int:
    """The sqlite3 path gives every view the services give (and None only where they refuse); the
    number of views compared. The first reading runs before the file's bytes are known to be good."""
    first = standings_lite(path, group)  # the file not yet in the record of checked files
    expected = _services(path, group)
    got = _lite(path, group, list(expected))
    assert first == expected[("view", None)]
    for asked, view in expected.items():
        assert got[asked] == view, (path.name, group, asked)
    shown = sum(v is not None for v in expected.values())
    assert shown, "the services showed nothing: nothing was compared"
    return shown


def assert_same_reading(path: Path, group: str) -> None:
    """The group's state and bracket as sqlite3 reads them are the ORM's."""
    db = open_tournament(path, read_only=True)
    try:
        with db.session() as s:
            reg = regulations_of(s)
            g = group_row(s, group)
            state, bracket, gid = orm_read_group_state(s, g, reg), load_bracket(s, g, reg), g.id
    finally:
        db.close()
    lite = LiteFile.open_for_reading(path)
    assert lite is not None
    with lite:
        assert read_group_state(lite.con, gid, group, reg) == state
        assert read_bracket(lite.con, gid, group, reg) == bracket


@pytest.mark.parametrize("group", [OPEN, LOCAL])
def test_the_played_demo(played_demo: Path, group: str) -> None:
    assert_same_reading(played_demo, group)
    assert assert_same_standings(played_demo, group) >= 5
    assert standings_lite(played_demo, group, final=True) is not None  # both groups are over


@pytest.mark.parametrize("group", [OPEN, LOCAL])
def test_a_file_mid_event(midway_demo: Path, group: str) -> None:
    """公开组 with round 4 half entered; 天水本地组 with its knockout under way."""
    assert_same_reading(midway_demo, group)
    assert_same_standings(midway_demo, group)
    assert standings_lite(midway_demo, group, final=True) is None  # not over: the services refuse


def _played_to(tmp_path_factory: pytest.TempPathFactory, fmt: str, players: int, played_to: int) -> Path:
    """``fmt`` of ``players`` (seed 11) played to round ``played_to``, made once per run."""
    return built_once_file(
        tmp_path_factory,
        f"{fmt}-{players}-to-{played_to}",
        f"{fmt}.xqt",
        lambda path: create_format_demo(path, fmt, players=players, seed=11, played_to=played_to).close(),
    )


@pytest.mark.parametrize(
    ("fmt", "players", "played_to"),
    [
        ("round-robin", 7, "end"),
        ("double-round-robin", 5, 4),
        ("groups-then-knockout", 10, "end"),
        ("groups-then-knockout", 10, 4),
        ("knockout", 11, "end"),
        ("double-elimination", 7, "end"),
        ("swiss-knockout", 20, "end"),
        ("swiss-knockout", 20, 9),
    ],
)
def test_formats(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path, fmt: str, players: int, played_to: int | str
) -> None:
    path = tmp_path / f"{fmt}.xqt"
    halfway = {"groups-then-knockout": 4, "swiss-knockout": 9}.get(fmt)
    if played_to == "end" and halfway is not None:
        # the event played to the end is the one played to round ``halfway`` (the case below, made once
        # per run) played on from there: the same rounds with the same seeds
        copy_event(_played_to(tmp_path_factory, fmt, players, halfway), path)
        with open_tournament(path) as db:
            # a scratch copy: no backups (a backup only reads the file: what is compared is the same)
            db.keeps_backups = False
            play_group_to_end(db, GROUP, seed=11, who=audit.DEFAULT_ARBITER)
    elif played_to == halfway:
        copy_event(_played_to(tmp_path_factory, fmt, players, halfway), path)
    else:
        create_format_demo(path, fmt, players=players, seed=11, played_to=played_to).close()
    assert_same_reading(path, GROUP)
    assert_same_standings(path, GROUP)


def test_a_team_competition(tmp_path: Path) -> None:
    from app.services.team_demo import GROUP as TEAM_GROUP
    from app.services.team_demo import create_team_demo

    path = tmp_path / "teams.xqt"
    create_team_demo(path, "team-swiss", teams=6, seed=7, played_to=3).close()
    expected = _services(path, TEAM_GROUP)
    assert _lite(path, TEAM_GROUP, list(expected)) == expected


@settings(
    max_examples=fast_examples(12),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    fmt=st.sampled_from(["swiss", "swiss-knockout", "round-robin", "groups-then-knockout", "knockout"]),
    extra=st.integers(0, 8),
    seed=st.integers(1, 10_000),
    stop=st.sampled_from([None, 2, 5]),
)
def test_random_tournaments(
    tmp_path_factory: pytest.TempPathFactory, fmt: str, extra: int, seed: int, stop: int | None
) -> None:
    low = {"swiss": 8, "swiss-knockout": 20, "round-robin": 3, "groups-then-knockout": 6, "knockout": 3}[fmt]
    path = tmp_path_factory.mktemp("random") / f"random{next(_counter)}.xqt"
    db = create_format_demo(path, fmt, players=low + extra, seed=seed, rounds=5 if fmt == "swiss" else None)
    db.keeps_backups = False  # a scratch file: no backups (a backup only reads the file it copies)
    try:
        play_group_to_end(db, GROUP, seed=seed, last=stop, forfeit_rate=0.1)
    except NoLegalPairing:  # a small random field the engine cannot pair on: the file as it stands
        pass
    finally:
        db.close()
    assert_same_reading(path, GROUP)
    assert_same_standings(path, GROUP)


def test_random_swiss_events_with_teams_and_forfeits(tmp_path_factory: pytest.TempPathFactory) -> None:
    from tests.services.test_standings_properties import simulated_file

    @settings(max_examples=fast_examples(10), deadline=None, suppress_health_check=list(HealthCheck))
    @given(
        players=st.integers(min_value=6, max_value=30),
        rounds=st.integers(min_value=1, max_value=7),
        seed=st.integers(min_value=0, max_value=10_000),
        forfeit_rate=st.sampled_from([0.0, 0.05, 0.2]),
    )
    def one(players: int, rounds: int, seed: int, forfeit_rate: float) -> None:
        db = simulated_file(tmp_path_factory.mktemp("sim"), players, rounds, seed, forfeit_rate)
        path = db.path
        db.close()
        assert_same_reading(path, OPEN)
        assert_same_standings(path, OPEN)

    one()


def test_anything_it_cannot_serve_goes_to_the_services(played_demo: Path, tmp_path: Path) -> None:
    assert standings_lite(played_demo, "没有这个组") is None  # the services name the groups
    assert standings_lite(tmp_path / "missing.xqt", OPEN) is None
    (tmp_path / "empty.xqt").write_bytes(b"")
    assert standings_lite(tmp_path / "empty.xqt", OPEN) is None
    old = tmp_path / "old.xqt"
    shutil.copy(DATA / "schema_0001.xqt", old)
    assert standings_lite(old, OPEN) is None  # an older file: read from an upgraded copy there


def test_a_damaged_version_record_goes_to_the_services(played_demo: Path) -> None:
    import sqlite3

    con = sqlite3.connect(played_demo)
    con.execute("INSERT INTO alembic_version VALUES ('0001')")
    con.commit()
    con.close()
    assert standings_lite(played_demo, OPEN) is None  # the services refuse it, naming a good backup


def test_a_damaged_value_goes_to_the_services(played_demo: Path) -> None:
    import sqlite3

    con = sqlite3.connect(played_demo)
    con.execute("UPDATE games SET result = 'nonsense' WHERE id = (SELECT min(id) FROM games)")
    con.commit()
    con.close()
    assert standings_lite(played_demo, OPEN) is None
    # as the services refuse the whole file, not only the group holding the damaged value
    assert standings_lite(played_demo, LOCAL) is None
    with pytest.raises(CorruptFileError, match="games"):
        open_tournament(played_demo, read_only=True)


def test_a_file_is_checked_once_for_both_paths(played_demo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The bytes the fast path found good are remembered, as the services remember them (and the other
    way round): the next reading by either path does not check them again."""
    import sqlite3
    import uuid

    from app.db import lite, session

    con = sqlite3.connect(played_demo)  # bytes of its own, never remembered before
    con.execute("INSERT INTO settings (key, value) VALUES (?, ?)", ("test", uuid.uuid4().hex))
    con.commit()
    con.close()
    checks: list[str] = []
    real = lite.content_problems
    monkeypatch.setattr(lite, "content_problems", lambda *a, **k: checks.append("content") or real(*a, **k))
    monkeypatch.setattr(session, "content_problems", lambda *a, **k: checks.append("orm") or real(*a, **k))
    assert standings_lite(played_demo, OPEN) is not None
    assert standings_lite(played_demo, OPEN) is not None
    assert checks == ["content"]
    open_tournament(played_demo, read_only=True).close()  # the services find it checked too
    assert checks == ["content"]


def test_the_regulations_are_decoded_once_per_text(
    played_demo: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tournament's regulations are decoded and checked once for the same stored text (they are
    immutable), and afresh when the text changes: the next reading shows the changed regulation."""
    import json
    import sqlite3

    from app.db import lite

    decoded: list[str] = []
    real = lite.regulations_from_dict
    monkeypatch.setattr(lite, "regulations_from_dict", lambda d: decoded.append(d["event_name"]) or real(d))
    monkeypatch.setattr(lite, "_DECODED", {}, raising=False)  # none kept yet
    assert standings_lite(played_demo, OPEN) is not None
    assert standings_lite(played_demo, LOCAL, 3) is not None
    assert len(decoded) == 1
    con = sqlite3.connect(played_demo)
    (text,) = con.execute("SELECT regulations FROM tournament WHERE id = 1").fetchone()
    data = json.loads(text)
    data["event_name"] += "（改）"
    con.execute("UPDATE tournament SET regulations = ? WHERE id = 1", (json.dumps(data),))
    con.commit()
    con.close()
    reading = lite.LiteFile.open_for_reading(played_demo)
    assert reading is not None
    with reading:
        reg = reading.regulations()
    assert reg is not None and reg.event_name == data["event_name"]
    assert decoded == [decoded[0], data["event_name"]]


_NO_ORM = (
    "import sys; from app.cli import main; rc = main(sys.argv[1:]);"
    "sys.exit(rc if rc else 3 if any(m.split('.')[0] in ('sqlalchemy', 'alembic') for m in sys.modules) else 0)"
)


def _command(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _NO_ORM, *argv], capture_output=True, text=True, check=False, timeout=300
    )


def test_the_command_imports_no_sqlalchemy_and_prints_what_the_services_print(
    played_demo: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import app.services.faststandings as fast
    from app.cli import main

    monkeypatch.setattr(fast, "standings_lite", lambda *a, **k: None)  # this process: the services only
    for options in ([], ["--json"], ["--final"], ["--after-round", "3"]):
        done = _command("standings", str(played_demo), "--group", OPEN, *options)
        assert done.returncode == 0, (options, done.returncode, done.stderr)  # 3: SQLAlchemy was imported
        # the same command through the services (in this process, which has imported them)
        capsys.readouterr()
        assert main(["standings", str(played_demo), "--group", OPEN, *options]) == 0
        full = capsys.readouterr()
        assert done.stdout == full.out and done.stdout


def test_an_older_file_still_gets_its_standings_through_the_services(tmp_path: Path) -> None:
    old = tmp_path / "old.xqt"
    shutil.copy(DATA / "schema_0001.xqt", old)
    done = _command("standings", str(old), "--group", OPEN)
    assert done.returncode == 3, done.stderr  # it ran, through SQLAlchemy
    assert "张三" in done.stdout and "Traceback" not in done.stderr


def test_a_refusal_comes_from_the_services_in_their_words(played_demo: Path) -> None:
    done = _command("standings", str(played_demo), "--group", "没有这个组")
    assert done.returncode == 2
    assert "没有名为“没有这个组”的组别" in done.stderr
