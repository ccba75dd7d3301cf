"""Snapshot: export then import gives back an identical snapshot; bad snapshots change nothing."""

import copy
import json
from pathlib import Path

import pytest

from app.engine.types import UserError
from app.services.snapshot import export_snapshot, import_snapshot, read_snapshot_file, write_snapshot_file
from tests.factories import player, snapshot, swiss_round


def _rich_snapshot() -> dict:
    players = [player(i, f"棋手{i}", team="甲队" if i <= 4 else None) for i in range(1, 8)]
    players.append(player(1, "本地一", group="天水本地组", unit="麦积区"))
    players.append(player(None, "未抽签", group="天水本地组", checked_in=False, fee_paid=False))
    players[6]["status"] = "withdrawn"
    players[6]["status_round"] = 2
    rounds = [
        swiss_round(1, [(1, 5, "red_win"), (6, 2, "draw"), (3, 7, "black_forfeit")], byes=[4]),
        swiss_round(2, [(5, 3, "double_forfeit"), (2, 1, "pending"), (4, 6, "red_forfeit")], byes=[7]),
    ]
    rounds[0]["closed_at"] = "2024-07-26T11:00:00"
    rounds[0]["explanation"] = {"1": "同分"}
    data = snapshot(players, rounds)
    data["violations"] = [
        {
            "player": 2,
            "group": "公开组",
            "round": 1,
            "kind": "phone",
            "reason": "手机带入赛场",
            "source": "arbiter",
            "board": 2,
            "created_at": "2024-07-26T10:00:00",
        },
    ]
    data["records"] = [
        {
            "group": "公开组",
            "round": 1,
            "board": 1,
            "game_no": 1,
            "recorder": 1,
            "designated": True,
            "received": True,
            "moves": 41,
            "pgn": '[Game "Chinese Chess"]',
            "received_at": "2024-07-26T11:30:00",
        },
    ]
    data["players"][4]["region"] = "甘肃天水"
    data["players"][3]["reentry_round"] = 2
    data["players"][2]["rating_rank"] = 57  # 等级分排名
    data["absences"] = [
        {
            "group": "公开组",
            "player": 6,
            "round": 3,
            "reason": "家中有事",
            "created_at": "2024-07-26T12:00:00",
        }
    ]
    data["paperwork"] = {
        "officials": [
            {"role": "裁判长", "name": "高福荣", "signs": True},
            {"role": "仲裁委员会主任", "name": "李明", "signs": False},
        ],
        "organiser": "天水市总工会　天水市体育局",
        "seal": "竞赛组委会（盖章）",
        "certificate": {
            "title": "荣誉证书",
            "body": "{姓名}荣获{奖项}{名次}",
            "signature": "{主办单位}",
            "date": "{日期}",
        },
    }
    data["pair_avoidances"] = [
        {
            "group": "公开组",
            "first": 2,
            "second": 5,
            "strength": "weak",
            "from_round": 1,
            "to_round": 3,
            "reason": "父子",
            "created_at": "2024-07-25T09:00:00",
        }
    ]
    data["audit"] = [
        {
            "at": "2024-07-26T09:00:00",
            "who": "裁判长",
            "action": "enter_result",
            "entity": "公开组 第1轮 第1台",
            "before": "pending",
            "after": "red_win",
            "reason": "",
        },
    ]
    return data


def test_export_then_import_gives_an_identical_snapshot(tmp_path: Path) -> None:
    original = _rich_snapshot()
    db = import_snapshot(copy.deepcopy(original), tmp_path / "a.xqt")
    exported = export_snapshot(db)
    assert exported == original
    write_snapshot_file(db, tmp_path / "a.json")
    db2 = import_snapshot(read_snapshot_file(tmp_path / "a.json"), tmp_path / "b.xqt")
    assert export_snapshot(db2) == original


def test_snapshot_has_the_documented_shape(tmp_path: Path) -> None:
    db = import_snapshot(_rich_snapshot(), tmp_path / "a.xqt")
    data = export_snapshot(db)
    assert (data["format"], data["version"]) == ("xqarbiter-snapshot", 1)
    assert {"name", "preset", "start_date", "settings"} <= set(data["tournament"])
    assert {
        "no",
        "name",
        "group",
        "team",
        "id_number",
        "phone",
        "rating",
        "fee_paid",
        "checked_in",
        "status",
    } <= set(data["players"][0])
    r1 = data["rounds"][0]
    assert (r1["group"], r1["round"], r1["byes"]) == ("公开组", 1, [4])
    assert r1["games"][2] == {
        "board": 3,
        "red": 3,
        "black": 7,
        "result": "black_forfeit",
        "game_no": 1,
        "kind": "swiss",
        "match": None,
    }
    assert data["violations"][0]["player"] == 2


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d.update(version=99), "99"),
        (lambda d: d["rounds"][0]["games"][0].update(red=42), "42"),
        (lambda d: d["rounds"][0]["games"][0].update(result="win"), "结果"),
        (lambda d: d["players"][0].pop("name"), "name"),
        (lambda d: d["players"][1].update(no=1), "重复"),
        (lambda d: d["tournament"]["settings"]["points"].update(win=-1.5), "points.win"),
        (lambda d: d["players"][0].update(group="少年组"), "少年组"),
        (lambda d: d["players"][2].update(rating_rank=0), r"players\[2\]\.rating_rank"),
        (lambda d: d["players"][2].update(rating_rank="第3名"), r"players\[2\]\.rating_rank"),
    ],
)
def test_bad_snapshot_is_refused_and_leaves_no_file(tmp_path: Path, edit, message: str) -> None:
    data = _rich_snapshot()
    edit(data)
    target = tmp_path / "x.xqt"
    with pytest.raises(UserError, match=message):
        import_snapshot(data, target)
    assert not target.exists()


def test_unreadable_snapshot_files(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(UserError, match="JSON"):
        read_snapshot_file(bad)
    bad.write_text(json.dumps([1, 2]), encoding="utf-8")
    with pytest.raises(UserError, match="快照"):
        read_snapshot_file(bad)
    with pytest.raises(UserError, match="找不到"):
        read_snapshot_file(tmp_path / "missing.json")


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("absences", [{"group": "公开组", "player": 1, "round": "二"}], r"absences\[0\]\.round"),
        (
            "absences",
            [{"group": "公开组", "player": 42, "round": 2}],
            r"absences\[0\]\.player：公开组没有 42 号",
        ),
        (
            "absences",
            [{"group": "公开组", "player": 1, "round": 12}],
            r"absences\[0\]\.round：公开组只有 11 轮",
        ),
        (
            "absences",
            [{"group": "公开组", "player": 1, "round": 2}] * 2,
            r"absences\[1\]：1 号第 2 轮的请假重复",
        ),
        (
            "absences",
            [{"group": "公开组", "player": 1, "round": 2, "reason": "家\u202e事"}],
            r"absences\[0\]\.reason.*U\+202E",
        ),
        ("absences", {"player": 1}, r"absences：.*(list|列表)"),
        (
            "pair_avoidances",
            [{"group": "公开组", "first": 1, "second": 2, "strength": "strong"}],
            r"pair_avoidances\[0\]\.strength",
        ),
        (
            "pair_avoidances",
            [{"group": "公开组", "first": 1, "second": 2, "to_round": -1}],
            r"pair_avoidances\[0\]\.to_round",
        ),
        (
            "pair_avoidances",
            [{"group": "公开组", "first": 2, "second": 2}],
            r"pair_avoidances\[0\]\.second：回避须是两名不同的棋手",
        ),
        (
            "pair_avoidances",
            [{"group": "公开组", "first": 1, "second": 2, "from_round": 3, "to_round": 2}],
            r"pair_avoidances\[0\]\.to_round",
        ),
        (
            "pair_avoidances",
            [{"group": "公开组", "first": 1, "second": 2}, {"group": "公开组", "first": 2, "second": 1}],
            r"pair_avoidances\[1\]：1 号与 2 号的回避重复",
        ),
        ("paperwork", {"officials": [{"role": "", "name": "甲"}]}, r"paperwork\.officials\[0\]\.role"),
        (
            "paperwork",
            {"officials": [{"role": "裁判长", "name": "高\u200b福荣"}]},
            r"paperwork\.officials\[0\]\.name.*U\+200B",
        ),
        ("paperwork", {"certificate": {"title": "{nickname}"}}, r"paperwork\.certificate\.title.*nickname"),
        ("paperwork", {"seal": "盖" * 101}, r"paperwork\.seal"),
        ("paperwork", {"organiser": "主办", "extra": 1}, r"paperwork\.extra"),
    ],
)
def test_bad_absence_avoidance_and_paperwork_keys_are_named_and_leave_no_file(
    tmp_path: Path, key: str, value: object, message: str
) -> None:
    data = snapshot([player(i, f"棋手{i}") for i in range(1, 4)])
    data[key] = value
    with pytest.raises(UserError, match=message):
        import_snapshot(data, tmp_path / "bad.xqt")
    assert not (tmp_path / "bad.xqt").exists()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("region", "甘\u202e肃", r"players\[0\]\.region.*U\+202E"),
        ("region", "地" * 51, r"players\[0\]\.region"),
        ("region", 7, r"players\[0\]\.region"),
        ("reentry_round", 0, r"players\[0\]\.reentry_round"),
        ("reentry_round", 12, r"players\[0\]\.reentry_round：公开组只有 11 轮"),
        ("reentry_round", "3", r"players\[0\]\.reentry_round"),
    ],
)
def test_bad_region_and_reentry_fields_are_named(
    tmp_path: Path, field: str, value: object, message: str
) -> None:
    data = snapshot([player(i, f"棋手{i}") for i in range(1, 4)])
    data["players"][0][field] = value
    with pytest.raises(UserError, match=message):
        import_snapshot(data, tmp_path / "bad.xqt")
    assert not (tmp_path / "bad.xqt").exists()


def test_paperwork_given_in_part_takes_the_defaults_for_the_rest(tmp_path: Path) -> None:
    from app.engine.paperwork import Paperwork
    from app.services.paperwork import load_paperwork

    data = snapshot([player(i, f"棋手{i}") for i in range(1, 4)])
    data["paperwork"] = {"organiser": "天水市体育局"}
    db = import_snapshot(data, tmp_path / "p.xqt")
    try:
        assert load_paperwork(db) == Paperwork(organiser="天水市体育局")
    finally:
        db.close()


@pytest.mark.parametrize(
    "explanation",
    [
        {"rests": [4], "games": ["1"], "overridden": 1, "bye": "4"},
        {"rests": "4", "games": {"1": "同分"}, "overridden": None},
        {"games": {"1": ["同分"], "2": 2}, "overridden": [1]},
    ],
)
def test_a_round_explanation_of_another_shape_is_read_without_a_traceback(
    tmp_path: Path, explanation: dict
) -> None:
    """A snapshot keeps a round's explanation as given (any JSON object): the round's boards and each
    player's "why this pairing" read what has the shape the program writes and pass over the rest."""
    from app.services.rounds import pairing_explanation, round_view

    players = [player(i, f"棋手{i}") for i in range(1, 6)]
    rnd = swiss_round(1, [(1, 2, "red_win"), (3, 5, "draw")], byes=[4])
    rnd["explanation"] = explanation
    db = import_snapshot(snapshot(players, [rnd]), tmp_path / "a.xqt")
    view = round_view(db, "公开组", 1)
    assert [(b.board, b.red.no, b.black.no) for b in view.boards] == [(1, 1, 2), (2, 3, 5)]
    assert [s.no for s in view.byes] == [4]
    if explanation.get("overridden") == [1]:  # the list of boards changed by hand, as the program writes it
        assert "手工调整" in pairing_explanation(db, "公开组", 1, 1)
    else:
        with pytest.raises(UserError, match="编排说明"):
            pairing_explanation(db, "公开组", 1, 1)
    assert "手工调整" in pairing_explanation(db, "公开组", 1, 4)  # the bye, not the engine's: set by hand
    with pytest.raises(UserError, match="编排说明"):  # board 2 has no explanation of the program's shape
        pairing_explanation(db, "公开组", 1, 3)
