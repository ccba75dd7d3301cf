"""Record duty (录谱): who records, short draws, refusals at the close of a round."""

from __future__ import annotations

import pytest

from app.engine import record_duty
from app.engine.record_duty import (
    RecordDuty,
    Violation,
    check_record,
    close_round_violations,
    outstanding_records,
    record_duties,
)
from app.engine.regulations import RecordDutyRules, ShortDrawViolation, preset
from app.engine.types import Colour, Game, GameResult, UserError, ViolationKind
from tests.doctests import run_doctests

RULES = preset("tianshui-2024").record_duty
R, D, B = GameResult.RED_WIN, GameResult.DRAW, GameResult.BLACK_WIN


def _round(results: list[GameResult]) -> list[Game]:
    """Board k: Red is player 100 + k, Black is player 200 + k."""
    return [Game(k, 100 + k, 200 + k, res) for k, res in enumerate(results, start=1)]


def test_doctests() -> None:
    assert run_doctests(record_duty).failed == 0


def test_rounds_one_to_three_only_designated_games() -> None:
    games = _round([R, B, R, D, D, B])
    assert record_duties(2, games, RULES) == ()  # nothing designated: nothing owed
    duties = record_duties(3, games, RULES, designated_boards={2, 5})
    assert [(d.round, d.board, d.recorder_no) for d in duties] == [(3, 2, 202), (3, 5, 205)]
    assert "指定" in duties[0].reason and "和棋由黑方录谱" in duties[1].reason


def test_from_round_four_the_winners_on_the_top_ten_boards() -> None:
    results = [
        R,
        B,
        GameResult.RED_FORFEIT,
        D,
        GameResult.PENDING,
        R,
        R,
        B,
        GameResult.DOUBLE_FORFEIT,
        R,
        R,
        B,
    ]
    duties = record_duties(4, _round(results), RULES)
    assert [(d.board, d.recorder_no) for d in duties] == [
        (1, 101),
        (2, 202),
        # board 3 forfeited, board 5 without result, board 9 double forfeit: nothing owed
        (4, 204),  # draw → Black
        (6, 106),
        (7, 107),
        (8, 208),
        (10, 110),
    ]  # boards 11 and 12 owe nothing
    assert all(d.round == 4 for d in duties)
    extra = record_duties(4, _round(results), RULES, designated_boards={12})
    assert [(d.board, d.recorder_no) for d in extra][-1] == (12, 212)


def test_settings_top_boards_designated_rounds_and_draw_recorder() -> None:
    rules = RecordDutyRules(designated_rounds=1, top_boards=2, draw_recorder=Colour.RED)
    duties = record_duties(2, _round([D, B, R]), rules)
    assert [(d.board, d.recorder_no) for d in duties] == [(1, 101), (2, 202)]


def test_bad_input_is_refused() -> None:
    with pytest.raises(UserError):
        record_duties(2, _round([R, R]), RULES, designated_boards={3})
    with pytest.raises(UserError):
        record_duties(4, [Game(1, 1, 2, R), Game(1, 3, 4, R)], RULES)
    with pytest.raises(UserError):
        check_record(4, Game(1, 1, 2, D), -1, RULES)


def test_short_draw_is_a_violation_for_both_players() -> None:
    game = Game(3, 17, 8, D)
    violations = check_record(5, game, 24, RULES)
    assert [(v.player_no, v.round, v.kind, v.board) for v in violations] == [
        (17, 5, ViolationKind.SHORT_DRAW_RECORD, 3),
        (8, 5, ViolationKind.SHORT_DRAW_RECORD, 3),
    ]
    assert violations[0].reason == "第5轮第3台和棋录谱仅24回合，不足25回合"
    assert check_record(5, game, 25, RULES) == ()
    assert check_record(5, Game(3, 17, 8, R), 12, RULES) == ()  # a short win is fine


def test_short_draw_black_only_setting() -> None:
    rules = RecordDutyRules(short_draw_charged=ShortDrawViolation.BLACK_ONLY, min_draw_moves=30)
    violations = check_record(6, Game(1, 17, 8, D), 29, rules)
    assert [v.player_no for v in violations] == [8]


def test_refusal_violations_at_the_close_of_the_round() -> None:
    duties = record_duties(4, _round([R, B, D, R]), RULES)
    assert [d.recorder_no for d in outstanding_records(duties, {1, 3})] == [202, 104]
    violations = close_round_violations(duties, {1, 3})
    assert violations == (
        Violation(202, 4, ViolationKind.REFUSED_RECORD, "第4轮第2台拒不录谱", 2),
        Violation(104, 4, ViolationKind.REFUSED_RECORD, "第4轮第4台拒不录谱", 4),
    )
    assert close_round_violations(duties, {1, 2, 3, 4}) == ()
    with pytest.raises(UserError):
        close_round_violations([RecordDuty(4, 1, 5, ""), RecordDuty(5, 1, 6, "")], set())


def test_violation_kinds_have_chinese_names() -> None:
    assert ViolationKind.REFUSED_RECORD.zh == "拒不录谱"
    assert ViolationKind("short_draw_record") is ViolationKind.SHORT_DRAW_RECORD
    assert len({k.zh for k in ViolationKind}) == len(ViolationKind)
