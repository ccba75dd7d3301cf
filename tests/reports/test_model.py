"""Read-model helpers: crosstable cells from the player's side, number formatting, privacy by shape."""

from __future__ import annotations

import dataclasses

import pytest

from app.engine.types import Colour, GameResult
from app.reports import model
from app.reports.model import CrossCell, fmt_num


@pytest.mark.parametrize(
    ("colour", "result", "text"),
    [
        (Colour.RED, GameResult.RED_WIN, "7红胜"),
        (Colour.BLACK, GameResult.RED_WIN, "7黑负"),
        (Colour.BLACK, GameResult.DRAW, "7黑和"),
        (Colour.RED, GameResult.RED_FORFEIT, "7红弃负"),
        (Colour.BLACK, GameResult.RED_FORFEIT, "7黑弃胜"),
        (Colour.RED, GameResult.DOUBLE_FORFEIT, "7红双弃"),
        (Colour.RED, GameResult.PENDING, "7红"),
    ],
)
def test_cross_cell_from_the_players_side(colour: Colour, result: GameResult, text: str) -> None:
    assert CrossCell.from_game(7, colour, result).text == text


def test_bye_cell_and_numbers() -> None:
    assert CrossCell.bye().text == "轮空"
    assert [fmt_num(v) for v in (6, 6.0, 7.5, None, "—")] == ["6", "6", "7.5", "", "—"]


def test_only_internal_models_carry_personal_data() -> None:
    carriers = set()
    for name in dir(model):
        obj = getattr(model, name)
        if dataclasses.is_dataclass(obj) and isinstance(obj, type):
            fields = {f.name for f in dataclasses.fields(obj)}
            if fields & {"id_number", "phone"}:
                carriers.add(name)
    assert carriers == {"PayoutLine", "InternalEntryLine"}
