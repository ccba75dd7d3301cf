"""The 赛制 dialog and a Swiss stage's own chain: kept while the Swiss may become a round robin
(人数不多于此时改为单循环), dropped when it no longer can (the chain would rank nothing), and refused,
named, in the stage text (as in a regulation file)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from app.engine.formats import ROUND_ROBIN_CHAIN, Stage, StageKind
from tests.ui.test_stages_dialog import _dialog, _focus_key, _ok, _type_number


def test_the_swiss_chain_goes_with_its_round_robin(qtbot: Any) -> None:
    dialog = _dialog(qtbot, (Stage(StageKind.SWISS, rounds=7),))
    form = dialog.form
    _type_number(qtbot, form.round_robin_up_to, "8")
    _focus_key(qtbot, form.chain.items, Qt.Key.Key_Delete)
    assert dialog.stages[0].tiebreaks == ROUND_ROBIN_CHAIN[1:] and _ok(dialog)
    _type_number(qtbot, form.round_robin_up_to, "0")  # 不改: it stays a Swiss, ranked by [tiebreaks]
    assert dialog.stages == (Stage(StageKind.SWISS, rounds=7),) and _ok(dialog)
    assert "tiebreaks" not in dialog.text.toPlainText()


def test_the_stage_text_with_an_unused_swiss_chain_is_refused(qtbot: Any) -> None:
    dialog = _dialog(qtbot, (Stage(StageKind.SWISS, rounds=7),))
    dialog.tabs.setCurrentIndex(1)
    dialog.text.setPlainText('[[stages]]\nkind = "swiss"\nrounds = 7\ntiebreaks = ["wins"]\n')
    assert "第1阶段（积分编排）" in dialog.message.text() and "round_robin_up_to" in dialog.message.text()
    assert not _ok(dialog)
    dialog.text.setPlainText(
        '[[stages]]\nkind = "swiss"\nrounds = 7\nround_robin_up_to = 8\ntiebreaks = ["wins"]\n'
    )
    assert dialog.message.text() == "" and _ok(dialog)
