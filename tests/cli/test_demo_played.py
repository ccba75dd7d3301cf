"""``xqarbiter demo FILE --played-to N|end``: the demo event played through the services.

A new user sees a finished event, and every check can start from one: round N closed in every group
(nothing of round N+1), or the whole event — the split, the knockout to its deciding games, the final
ranking with the knockout's places first, the prizes. The same seed gives the same event; a round the
event does not have, or a field too small to be played, is refused and leaves nothing behind.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main

GROUPS = ("公开组", "天水本地组")


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> object:
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_played_to_a_round_closes_that_round_in_every_group_and_no_more(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from app.services.audit import audit_log
    from app.services.rounds import rounds_of
    from app.services.tournaments import open_tournament

    path = tmp_path / "demo.xqt"
    assert main(["demo", str(path), "--played-to", "3", "--players", "60", "--absent", "4"]) == 0
    out = capsys.readouterr().out
    assert "公开组已赛完第 3 轮，天水本地组已赛完第 3 轮" in out
    db = open_tournament(path, read_only=True)
    try:
        for group in GROUPS:
            rounds = rounds_of(db, group)
            assert [(r.number, r.closed, r.pending) for r in rounds] == [
                (1, True, 0),
                (2, True, 0),
                (3, True, 0),
            ]
        entries = audit_log(db)
        assert {e.who for e in entries if e.action == "enter_result"} == {"演示"}
    finally:
        db.close()
    assert main(["standings", str(path), "--group", "公开组"]) == 0
    assert capsys.readouterr().out.startswith("公开组 第 3 轮后名次")


def test_the_same_seed_plays_the_same_event(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games = []
    for name in ("a.xqt", "b.xqt"):
        assert main(["demo", str(tmp_path / name), "--played-to", "2", "--players", "40", "--seed", "7"]) == 0
        capsys.readouterr()
        games.append(
            _json(capsys, "pairings", str(tmp_path / name), "--group", "公开组", "--round", "2", "--json")
        )
    assert games[0] == games[1]
    assert main(["demo", str(tmp_path / "c.xqt"), "--played-to", "2", "--players", "40", "--seed", "8"]) == 0
    capsys.readouterr()
    assert (
        _json(capsys, "pairings", str(tmp_path / "c.xqt"), "--group", "公开组", "--round", "2", "--json")
        != games[0]
    )


@pytest.mark.heavy(lighter="test_played_to_a_round_closes_that_round_in_every_group_and_no_more")
def test_played_to_the_end_decides_the_knockout_ranks_and_awards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "demo.xqt"
    assert main(["demo", str(path), "--played-to", "end"]) == 0
    assert "全部赛完，名次与奖金已可打印" in capsys.readouterr().out
    for group in GROUPS:
        bracket = _json(capsys, "bracket", str(path), "--group", group, "--json")
        final = next(m for m in bracket["matches"] if m["code"] == "F")  # type: ignore[index]
        assert final["winner"] is not None, final
        assert main(["standings", str(path), "--group", group, "--final"]) == 0
        table = capsys.readouterr().out.splitlines()
        assert f"{final['winner']}" == table[1].split()[1] and "决赛胜出" in table[1]
    prizes = _json(capsys, "prizes", str(path), "--json")
    individual = [t for t in prizes["tables"] if t["kind"] == "individual"]  # type: ignore[index]
    assert individual and all(t["awarded"] == t["total"] > 0 for t in individual), individual
    pdf = tmp_path / "book.pdf"
    assert main(["print", str(path), "results-book", "-o", str(pdf)]) == 0
    assert pdf.read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--played-to", "12"], "演示赛事共 11 轮"),
        (["--played-to", "0"], "应为轮次"),
        (["--played-to", "soon"], "应为轮次（如 5）或 end"),
        (["--players", "20", "--played-to", "end"], "20 名棋手的演示赛事无法赛完"),
    ],
)
def test_what_cannot_be_played_is_refused_and_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], said: str
) -> None:
    path = tmp_path / "demo.xqt"
    assert main(["demo", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == []
