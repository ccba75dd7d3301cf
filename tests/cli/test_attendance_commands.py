"""excuse / cancel-excuse / absences / reenter from the command line."""

import json
from pathlib import Path

from app.cli import main
from app.services.snapshot import import_snapshot
from tests.factories import player, snapshot

G = "公开组"


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_excuse_pair_list_and_reenter(tmp_path: Path, capsys) -> None:
    path = tmp_path / "t.xqt"
    import_snapshot(snapshot([player(i, f"棋手{i}") for i in range(1, 8)]), path).close()
    code, out, _ = run(
        capsys, "excuse", str(path), "--group", G, "--player", "3", "--round", "1", "--reason", "考试"
    )
    assert code == 0 and "请假" in out
    assert run(capsys, "pair", str(path), "--group", G, "--seed", "1")[0] == 0
    code, out, _ = run(capsys, "pairings", str(path), "--group", G, "--json")
    seated = {x for g in json.loads(out)["games"] for x in (g["red"], g["black"])}
    assert 3 not in seated and len(seated) == 6
    code, out, _ = run(capsys, "absences", str(path), "--group", G, "--json")
    assert json.loads(out) == [
        {"group": G, "no": 3, "name": "棋手3", "round": 1, "kind": "excused", "points": 0, "reason": "考试"}
    ]
    code, _, err = run(capsys, "cancel-excuse", str(path), "--group", G, "--player", "3", "--round", "1")
    assert code == 2 and "不能再取消" in err
    code, _, err = run(capsys, "reenter", str(path), "--group", G, "--player", "4", "--reason", "回来")
    assert code == 2 and "不是退赛状态" in err
    assert run(capsys, "withdraw", str(path), "--group", G, "--player", "4", "--reason", "身体不适")[0] == 0
    code, out, _ = run(capsys, "reenter", str(path), "--group", G, "--player", "4", "--reason", "已康复")
    assert code == 0 and "第 2 轮起" in out
    code, _, err = run(
        capsys, "excuse", str(path), "--group", G, "--player", "3", "--round", "99", "--reason", "x"
    )
    assert code == 2 and "1—11" in err


def test_avoid_list_pair_and_unavoid(tmp_path: Path, capsys) -> None:
    path = tmp_path / "a.xqt"
    import_snapshot(snapshot([player(i, f"棋手{i}") for i in range(1, 9)]), path).close()
    code, out, _ = run(capsys, "avoid", str(path), "1", "5", "--group", G, "--reason", "父子")
    assert code == 0 and "绝对回避" in out
    code, _, err = run(capsys, "avoid", str(path), "5", "1", "--group", G, "--weak")
    assert code == 2 and "已设回避" in err
    code, out, _ = run(capsys, "avoidances", str(path), "--group", G, "--json")
    assert json.loads(out)["pairs"] == [
        {
            "group": G,
            "first": 1,
            "second": 5,
            "strength": "absolute",
            "from_round": 1,
            "to_round": 0,
            "reason": "父子",
        }
    ]
    assert run(capsys, "pair", str(path), "--group", G, "--seed", "1")[0] == 0
    code, out, _ = run(capsys, "why", str(path), "--group", G, "--round", "1", "--player", "1")
    assert "指定回避（父子）绝对回避" in out
    assert run(capsys, "unavoid", str(path), "1", "5", "--group", G, "--reason", "误设")[0] == 0
    code, out, _ = run(capsys, "avoidances", str(path), "--group", G)
    assert "没有同队回避以外的回避设置" in out
