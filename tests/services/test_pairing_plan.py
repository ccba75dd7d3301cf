"""What both pairing paths ask before pairing a round: which round, and what must come first."""

from __future__ import annotations

import pytest

from app.engine.event import GroupState
from app.engine.regulations import legacy_group
from app.engine.types import Game, GameResult, RoundRecord, RoundStage, UserError
from app.services.pairing_plan import after_split, round_to_pair

FMT = legacy_group("公开组", rounds=3, swiss_rounds=2, knockout_size=2)


def _state(*rounds: RoundRecord) -> GroupState:
    return GroupState(
        "公开组", FMT, (), rounds, tuple(RoundStage.SWISS for _ in rounds), tuple(True for _ in rounds)
    )


def _round(number: int, *results: GameResult) -> RoundRecord:
    return RoundRecord(number, tuple(Game(b, 2 * b - 1, 2 * b, r) for b, r in enumerate(results, start=1)))


def test_the_next_round_once_nothing_stands_in_the_way() -> None:
    assert round_to_pair("公开组", _state(), FMT, []) == 1
    assert round_to_pair("公开组", _state(_round(1, GameResult.RED_WIN, GameResult.DRAW)), FMT, []) == 2


def test_what_must_come_first_is_named() -> None:
    pending = _state(_round(1, GameResult.PENDING, GameResult.DRAW, GameResult.PENDING))
    with pytest.raises(UserError, match="第 1 轮还有 2 台未录入成绩：1、3"):
        round_to_pair("公开组", pending, FMT, [])
    with pytest.raises(UserError, match="还有 2 名棋手没有序号（如 张三），请先抽签"):
        round_to_pair("公开组", _state(), FMT, ["张三", "李四"])
    done = _state(*(_round(n, GameResult.DRAW) for n in (1, 2, 3)))
    with pytest.raises(UserError, match="公开组共 3 轮，已全部编排"):
        round_to_pair("公开组", done, FMT, [])


def test_the_split_comes_after_the_swiss_rounds() -> None:
    assert [after_split(FMT, n) for n in (1, 2, 3)] == [False, False, True]
    assert not after_split(legacy_group("本地组", rounds=3, swiss_rounds=3, knockout_size=0), 3)
