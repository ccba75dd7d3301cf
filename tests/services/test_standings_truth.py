"""Truthful standings: after the last round with every result in, saying which; the final ranking
explained against the next player in the final order; provisional prize lists and team rankings."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from app.engine.types import UserError
from app.services import exports
from app.services.demo import create_demo
from app.services.results import ResultEntry
from app.services.rounds import pair_next_round, round_view
from app.services.standings import (
    complete_through,
    final_standings,
    group_standings,
    prize_list,
    team_standings,
    why_above,
)
from app.services.tournaments import open_tournament
from tests.factories import copy_event

OPEN, LOCAL = "公开组", "天水本地组"


@pytest.fixture(scope="module")
def midway(tmp_path_factory: pytest.TempPathFactory, midway_demo_file: Path):
    """公开组 rounds 1–3 closed, round 4 paired with 4 results; 天水本地组 into round 10."""
    db = open_tournament(copy_event(midway_demo_file, tmp_path_factory.mktemp("truth") / "mid.xqt"))
    yield db
    db.close()


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory, played_demo_file: Path):
    db = open_tournament(copy_event(played_demo_file, tmp_path_factory.mktemp("truth") / "end.xqt"))
    yield db
    db.close()


def test_standings_are_after_the_last_complete_round_and_say_so(midway) -> None:
    view = group_standings(midway, OPEN)
    assert (view.after_round, view.latest_round, view.pending) == (3, 4, 0)
    assert view.title_zh == "第 3 轮后名次"
    assert "第 4 轮尚未全部结束" in view.note_zh and "round 4 is not complete" in view.note_en
    three = group_standings(midway, OPEN, 3)
    assert [(x.no, x.score, x.opponent_score) for x in view.lines] == [
        (x.no, x.score, x.opponent_score) for x in three.lines
    ]
    # round 4 asked for explicitly: shown, but marked with the boards still open
    four = group_standings(midway, OPEN, 4)
    assert four.pending == len(round_view(midway, OPEN, 4).pending_boards) > 0
    assert "暂列" in four.title_zh and f"{four.pending} 台未录入" in four.title_zh
    # the unplayed round-4 games would have changed places: the default must not count them
    assert [x.no for x in four.lines] != [x.no for x in view.lines]


def test_complete_through_needs_every_earlier_round_complete(midway) -> None:
    from app.services.rounds import group_state

    state = group_state(midway, OPEN)
    assert complete_through(state.rounds) == 3
    assert complete_through(group_state(midway, LOCAL).rounds) == 9


def test_before_any_complete_round_there_is_no_round_zero(tmp_path: Path) -> None:
    db = create_demo(tmp_path / "fresh.xqt", seed=5)
    try:
        view = group_standings(db, OPEN)
        assert view.after_round == 0 and "第 0 轮" not in view.title_zh and "赛前" in view.title_zh
        pair_next_round(db, OPEN, seed=1)
        assert group_standings(db, OPEN).after_round == 0  # round 1 paired, not played
        with pytest.raises(UserError) as refused:
            exports.document(db, "standings", group=OPEN)
        assert "第 1 轮的成绩尚未录齐" in refused.value.zh
        with pytest.raises(UserError) as refused:
            exports.document(db, "crosstable", group=OPEN, round_number=0)
        assert "第 0 轮" in refused.value.zh
        # the prize list of a group that has not played is provisional, and says it is no ranking
        prizes = prize_list(db)
        assert not prizes.basis[LOCAL].final and prizes.basis[LOCAL].after_round == 0
        assert "不是名次" in prizes.basis[LOCAL].zh
        listed = exports.prize_list_model(db)
        assert all(line.table.endswith("（暂列）") for line in listed.lines)
        assert any(note.startswith("天水本地组：") and "不是名次" in note for note in listed.notes)
        assert "第 1 轮" not in team_standings(db, OPEN).basis.zh  # type: ignore[union-attr]
        board_results = [ResultEntry(b.board, b.result) for b in round_view(db, OPEN, 1).boards]
        assert board_results  # nothing entered yet
    finally:
        db.close()


def test_printed_standings_and_crosstable_say_after_which_round(midway) -> None:
    printed = exports.document(midway, "standings", group=OPEN)
    assert printed.header.round_text == "第3轮后"  # type: ignore[attr-defined]
    assert [r.no for r in printed.rows] == [x.no for x in group_standings(midway, OPEN, 3).lines]  # type: ignore[attr-defined]
    asked = exports.document(midway, "standings", group=OPEN, round_number=4)
    assert asked.header.round_text.startswith("第4轮后（暂列")  # type: ignore[attr-defined]
    cross = exports.document(midway, "crosstable", group=OPEN)
    assert cross.rounds == 3 and cross.header.round_text == "第3轮后"  # type: ignore[attr-defined]
    teams = exports.document(midway, "teams", group=OPEN)
    assert teams.header.round_label == "（暂列：按第 3 轮后名次）"  # type: ignore[attr-defined]


def test_the_final_ranking_explains_each_place_against_the_next_one(finished) -> None:
    final = final_standings(finished, OPEN)
    lines = final.lines
    assert [x.rank for x in lines] == list(range(1, len(lines) + 1))
    codes = [x.separated_by for x in lines]
    assert codes[0] == "knockout_match:F" and lines[0].separated_by_zh == "决赛胜出"
    assert codes[2] == "knockout_match:3RD" and lines[2].separated_by_zh == "第3、4名决赛胜出"
    assert codes[1] == "knockout_places" and "决赛负" in lines[1].separated_by_zh
    assert codes[7] == "knockout_entry" and "淘汰赛" in lines[7].separated_by_zh
    # places 9 …: the chain over every round, against the next player in the final order — which is
    # often not the player next to them in the Swiss standings (the knockout players are between)
    swiss = group_standings(finished, OPEN)
    swiss_sep = {x.no: x.separated_by_zh for x in swiss.lines}
    moved = 0
    for upper, lower in itertools.pairwise(lines[8:]):
        expected = why_above(finished, OPEN, upper.no, lower.no).split("：", 1)[1]
        assert upper.separated_by_zh == expected
        moved += swiss_sep[upper.no] != expected
    assert moved > 0  # the old copy of the Swiss column would have been wrong here
    assert lines[-1].separated_by is None


def test_why_above_in_the_final_ranking(finished) -> None:
    lines = final_standings(finished, OPEN).lines
    eighth, ninth = lines[7].no, lines[8].no
    text = why_above(finished, OPEN, ninth, eighth, final=True)
    assert text.startswith(f"{eighth} 号排在 {ninth} 号之前（最终名次）")
    assert "进入前 8 名淘汰赛" in text
    champion, runner_up = lines[0].no, lines[1].no
    assert why_above(finished, OPEN, runner_up, champion, final=True).endswith("决赛胜出")
    english = why_above(finished, OPEN, eighth, ninth, final=True, language="en")
    assert english.startswith(f"No. {eighth} ranks above no. {ninth} (final ranking)")
    with pytest.raises(UserError):
        why_above(finished, OPEN, eighth, eighth, final=True)


def test_the_final_ranking_is_refused_before_the_last_round(midway) -> None:
    with pytest.raises(UserError) as refused:
        final_standings(midway, LOCAL)
    assert "最终名次在最后一轮结束后产生" in refused.value.zh
    assert not team_standings(midway, OPEN).final
