"""The command line's pairing without SQLAlchemy stores exactly what the full service stores."""

from __future__ import annotations

import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from app.db.lite import LiteFile, read_group_state
from app.services.backups import backups_folder
from app.services.demo import create_demo
from app.services.rounds import close_round, pair_next_round
from app.services.simulation import play_random_results
from app.services.tournaments import group_row, open_tournament, regulations_of
from tests.orm_reference import orm_read_group_state

OPEN, LOCAL = "公开组", "天水本地组"
STAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.000000$")


def _rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    con = sqlite3.connect(path)
    try:
        rounds = con.execute(
            "SELECT id, group_id, number, stage, seed, closed_at, explanation FROM rounds ORDER BY id"
        ).fetchall()
        stamps = [r[0] for r in con.execute("SELECT paired_at FROM rounds")]
        stamps += [r[0] for r in con.execute("SELECT at FROM audit_log")]
        assert all(STAMP.match(s) for s in stamps), stamps
        return {
            "rounds": rounds,
            "games": con.execute("SELECT * FROM games ORDER BY id").fetchall(),
            "byes": con.execute("SELECT * FROM byes ORDER BY round_id, player_id").fetchall(),
            "audit": con.execute(
                "SELECT id, who, action, entity, before, after, reason FROM audit_log ORDER BY id"
            ).fetchall(),
            "players": con.execute("SELECT * FROM players ORDER BY id").fetchall(),
        }
    finally:
        con.close()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """公开组 after three closed rounds with results (and forfeits); 天水本地组 one round short of the split."""
    path = tmp_path_factory.mktemp("fast") / "played.xqt"
    db = create_demo(path, seed=7)
    for number in range(1, 4):
        pair_next_round(db, OPEN, seed=number)
        play_random_results(db, OPEN, number, seed=number, forfeit_rate=0.05)
        close_round(db, OPEN, number)
    for number in range(1, 8):
        pair_next_round(db, LOCAL, seed=number)
        play_random_results(db, LOCAL, number, seed=number)
        close_round(db, LOCAL, number)
    db.close()
    return path


def _both_ways(source: Path, tmp_path: Path, group: str, seed: int) -> tuple[Path, Path]:
    """Pair copies of ``source`` by the fast path and by the full service: the same outcome, the same rows."""
    from app.services.fastpair import pair_next_round_lite

    fast, full = tmp_path / "fast.xqt", tmp_path / "full.xqt"
    shutil.copy(source, fast)
    shutil.copy(source, full)
    quick = pair_next_round_lite(fast, group, seed=seed)
    db = open_tournament(full)
    try:
        slow = pair_next_round(db, group, seed=seed)
    finally:
        db.close()
    assert quick is not None and quick == slow
    assert _rows(fast) == _rows(full)
    return fast, full


@pytest.mark.parametrize("group", [OPEN, LOCAL])
def test_both_ways_store_the_same_round(played: Path, tmp_path: Path, group: str) -> None:
    fast, full = _both_ways(played, tmp_path, group, 42)
    made = [f.name for f in backups_folder(fast).iterdir()]
    assert len(made) == len(list(backups_folder(full).iterdir()))
    assert any(f"paired-{group}-r" in name for name in made)


def test_round_one_with_team_avoidance_and_an_odd_pool(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.xqt"
    create_demo(fresh, seed=3).close()
    _both_ways(fresh, tmp_path, LOCAL, 5)


def test_anything_but_the_plain_case_goes_to_the_full_service(tmp_path: Path, midway_demo: Path) -> None:
    from app.services.fastpair import pair_next_round_lite

    path = midway_demo  # 公开组 round 4 half entered; 天水本地组 past the split
    before = _rows(path)
    assert pair_next_round_lite(path, OPEN, seed=1) is None  # round 4 has boards without a result
    assert pair_next_round_lite(path, LOCAL, seed=1) is None  # the knockout is under way
    assert pair_next_round_lite(path, "没有这个组", seed=1) is None  # the full service names the groups
    assert pair_next_round_lite(tmp_path / "missing.xqt", OPEN) is None
    assert _rows(path) == before


def test_the_lite_reading_of_a_group_is_the_orms(midway_demo: Path) -> None:
    path = midway_demo
    db = open_tournament(path)
    try:
        with db.session() as s:
            reg = regulations_of(s)
            expected = {name: orm_read_group_state(s, group_row(s, name), reg) for name in (OPEN, LOCAL)}
            ids = {name: group_row(s, name).id for name in (OPEN, LOCAL)}
    finally:
        db.close()
    lite = LiteFile.open(path)
    assert lite is not None
    with lite:
        for name in (OPEN, LOCAL):
            assert read_group_state(lite.con, ids[name], name, reg) == expected[name]


def test_the_command_line_pairs_without_loading_sqlalchemy(played: Path, tmp_path: Path) -> None:
    path = tmp_path / "cli.xqt"
    shutil.copy(played, path)
    code = (
        "import sys; from app.cli import main; rc = main(['pair', sys.argv[1], '--group', sys.argv[2], '--seed', '9']);"
        "sys.exit(rc if rc else 3 if any(m.split('.')[0] in ('sqlalchemy', 'alembic') for m in sys.modules) else 0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path), OPEN], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert "第 4 轮已编排" in done.stdout
    # and a refusal still comes from the full service, in its words
    again = subprocess.run(
        [sys.executable, "-c", code, str(path), OPEN], capture_output=True, text=True, check=False
    )
    assert again.returncode == 2 and "未录入成绩" in again.stderr


def test_a_value_the_fast_path_cannot_read_goes_to_the_full_path(played: Path, tmp_path: Path) -> None:
    """A damaged value inside a sound page (an unknown result code): no traceback, the full path
    refuses in its words, names the damage, and the file is unchanged."""
    from app.cli import main

    path = tmp_path / "damaged.xqt"
    shutil.copy(played, path)
    con = sqlite3.connect(path)
    con.execute("UPDATE games SET result = 'zombie' WHERE id = (SELECT min(id) FROM games)")
    con.commit()
    con.close()
    before = path.read_bytes()
    assert main(["pair", str(path), "--group", OPEN, "--seed", "9"]) == 2
    assert path.read_bytes() == before


# --------------------------------------------------------------------------- absences, late entries, re-entries, avoidances


@pytest.fixture(scope="module")
def arbiter_requests(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """公开组 after three rounds, with every kind of absence, late entry, re-entry and avoidance in force for round 4: a weak
    same-unit rule and an absolute same-region rule, late entries compensated with a bye's points,
    named pairs (absolute and weak), excused absences, a re-entry after a withdrawal."""
    import dataclasses
    from datetime import date

    from app.engine.registration import PlayerEntry
    from app.engine.regulations import AvoidanceBasis, AvoidanceRule, AvoidanceStrength
    from app.services.attendance import excuse_absence, reenter_player
    from app.services.constraints import add_pair_avoidance
    from app.services.registration import add_player, list_players, withdraw_player
    from app.services.tournaments import load_regulations, update_regulations
    from tests.idnumbers import make_id

    path = tmp_path_factory.mktemp("fast16") / "requests.xqt"
    db = create_demo(path, seed=11)
    reg = load_regulations(db)
    rules = (
        AvoidanceRule(AvoidanceBasis.UNIT, AvoidanceStrength.WEAK),
        AvoidanceRule(AvoidanceBasis.REGION, AvoidanceStrength.ABSOLUTE, 2, 6),
    )
    pairing = dataclasses.replace(reg.pairing, avoidances=rules, late_entry_bye_compensation=True)
    registration = dataclasses.replace(reg.registration, capacity=200)
    update_regulations(
        db, dataclasses.replace(reg, pairing=pairing, registration=registration), reason="本届规程"
    )
    ids = {p.no: p.id for p in list_players(db, OPEN)}
    for number in range(1, 4):
        pair_next_round(db, OPEN, seed=number)
        if number == 1:
            for k in range(2):
                add_player(
                    db,
                    PlayerEntry(
                        name=f"后报名{'甲乙'[k]}",
                        id_number=make_id(date(1991, 2, 3 + k), serial=60 + k),
                        phone=f"1390000006{k}",
                        group=OPEN,
                        unit="天水一中",
                        fee_paid=True,
                        checked_in=True,
                    ),
                    override_reason="报名截止后经组委会同意",
                )
        play_random_results(db, OPEN, number, seed=number, forfeit_rate=0.05)
        close_round(db, OPEN, number)
    withdraw_player(db, ids[9], reason="身体不适")
    reenter_player(db, ids[9], reason="已恢复，裁判长同意")
    for no in (3, 17, 40):
        excuse_absence(db, OPEN, no, 4, "家中有事")
    for a, b, strength in ((1, 2, "absolute"), (5, 6, "weak"), (10, 30, "absolute"), (11, 12, "weak")):
        add_pair_avoidance(db, OPEN, a, b, strength, reason="父子")
    db.close()
    con = sqlite3.connect(path)  # regions as the registration form gives them (地区)
    con.execute("UPDATE players SET region = '地区' || (no % 5) WHERE no IS NOT NULL")
    con.commit()
    con.close()
    return path


def test_the_lite_reading_of_a_group_with_absences_and_avoidances_is_the_orms(arbiter_requests: Path) -> None:
    db = open_tournament(arbiter_requests, read_only=True)
    try:
        with db.session() as s:
            reg = regulations_of(s)
            expected = orm_read_group_state(s, group_row(s, OPEN), reg)
            group_id = group_row(s, OPEN).id
    finally:
        db.close()
    assert expected.excused_in(4) == {3, 17, 40}
    assert any(e.reentry_round == 4 for e in expected.entrants)
    assert sum(1 for r in expected.rounds for a in r.absent if a.points) == 2  # late entries, round 1
    lite = LiteFile.open(arbiter_requests)
    assert lite is not None
    with lite:
        assert read_group_state(lite.con, group_id, OPEN, reg) == expected


def test_both_ways_store_the_same_round_with_absences(arbiter_requests: Path, tmp_path: Path) -> None:
    from app.services.constraints import round_constraints_of

    fast, full = _both_ways(arbiter_requests, tmp_path, OPEN, 42)
    db = open_tournament(full, read_only=True)
    try:
        constraints = round_constraints_of(db, OPEN, 4)
    finally:
        db.close()
    # the round really is one the data decide: the excused are not seated, no absolutely avoided pair,
    # and the constraints changed the pairing (its stored explanation names them)
    con = sqlite3.connect(fast)
    try:
        seated = {
            no
            for red, black in con.execute(
                "SELECT r.no, b.no FROM games g JOIN rounds x ON x.id = g.round_id "
                "JOIN players r ON r.id = g.red_id JOIN players b ON b.id = g.black_id WHERE x.number = 4"
            )
            for no in (red, black)
        }
        (explanation,) = con.execute(
            "SELECT explanation FROM rounds x JOIN groups g ON g.id = x.group_id WHERE x.number = 4 AND g.name = ?",
            (OPEN,),
        ).fetchone()
        pairs = con.execute(
            "SELECT r.no, b.no FROM games g JOIN rounds x ON x.id = g.round_id "
            "JOIN players r ON r.id = g.red_id JOIN players b ON b.id = g.black_id WHERE x.number = 4"
        ).fetchall()
    finally:
        con.close()
    assert not seated & {3, 17, 40} and 9 in seated
    assert not any(constraints.forbidden(a, b) for a, b in pairs)
    import json

    stored = json.dumps(json.loads(explanation), ensure_ascii=False)
    assert "回避" in stored and "avoidance" in stored


def test_a_damaged_avoidance_goes_to_the_full_path_which_names_it(
    arbiter_requests: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.cli import main

    path = tmp_path / "damaged.xqt"
    shutil.copy(arbiter_requests, path)
    con = sqlite3.connect(path)
    con.execute(
        "UPDATE pair_avoidances SET strength = 'zombie' WHERE id = (SELECT min(id) FROM pair_avoidances)"
    )
    con.commit()
    con.close()
    before = path.read_bytes()
    assert main(["pair", str(path), "--group", OPEN, "--seed", "9"]) == 2
    assert "pair_avoidances" in capsys.readouterr().err and path.read_bytes() == before
