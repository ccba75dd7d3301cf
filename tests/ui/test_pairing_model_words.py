"""The pairing table's words are made once per row, and follow every change of the row and the language."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from PySide6.QtCore import Qt

from app.engine.types import GameResult
from app.services.rounds import round_view
from app.services.tournaments import open_tournament
from app.ui.i18n import install_language
from app.ui.models.pairings import RESULT_COLUMN, PairingTableModel, result_label

GROUP = "公开组"
DISPLAY = Qt.ItemDataRole.DisplayRole


def test_a_rows_words_follow_its_result_its_players_and_the_language(qapp, event_file: Path) -> None:
    db = open_tournament(event_file)
    try:
        view = round_view(db, GROUP, 2)
        played = round_view(db, GROUP, 1)
    finally:
        db.close()
    model = PairingTableModel()
    model.set_round(view)
    first = model.index(0, RESULT_COLUMN)
    assert first.data(DISPLAY) == ""  # pending
    name = model.index(0, 2).data(DISPLAY)
    assert name == view.boards[0].red.name

    # a result entered: the row (and only the row) says it at once
    entered = dataclasses.replace(view.boards[0], result=GameResult.RED_WIN)
    model.update_round(dataclasses.replace(view, boards=(entered, *view.boards[1:])))
    assert first.data(DISPLAY) == "红胜"
    assert model.index(1, RESULT_COLUMN).data(DISPLAY) == ""

    # another round shown: its players, not the last round's words
    model.set_round(played)
    assert model.index(0, 2).data(DISPLAY) == played.boards[0].red.name
    assert model.index(0, RESULT_COLUMN).data(DISPLAY) == result_label(played.boards[0].result) != ""

    # the language switched while the model lives: the words are made again in it
    words = model.index(0, RESULT_COLUMN).data(DISPLAY)
    install_language("en")
    try:
        english = model.index(0, RESULT_COLUMN).data(DISPLAY)
        assert english != words and english in {"Red wins", "Black wins", "Draw"}
    finally:
        install_language("zh")
    assert model.index(0, RESULT_COLUMN).data(DISPLAY) == words
