"""The 赛制 dialog edits a group's stages field by field, by the keyboard: what it returns is what the
regulation file's loader reads from the same stages written as text; a bad setting is named and OK stays
off; stages that have begun are locked."""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSpinBox, QWidget

from app.engine.format_presets import format_stages
from app.engine.formats import (
    ROUND_ROBIN_CHAIN,
    ColourRule,
    DecidingDraw,
    Elimination,
    Entrants,
    GameKind,
    MatchScope,
    Stage,
    StageKind,
    Tiebreak,
    TimeControl,
)
from app.engine.regulations import GroupFormat, Regulations, preset
from app.ui.dialogs.stages import StagesDialog, stages_from_text, stages_text

REG: Regulations = preset("tianshui-2024")


def _dialog(qtbot: Any, stages: tuple[Stage, ...], begun: int = 0) -> StagesDialog:
    group: GroupFormat = dataclasses.replace(REG.groups[0], stages=stages)
    dialog = StagesDialog(group, REG, 16, None, begun=begun)
    qtbot.addWidget(dialog)
    dialog.show()
    return dialog


def _type_number(qtbot: Any, spin: QSpinBox, text: str) -> None:
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, text)
    qtbot.keyClick(spin, Qt.Key.Key_Tab)


def _ok(dialog: StagesDialog) -> bool:
    return dialog.buttons.button(dialog.buttons.StandardButton.Ok).isEnabled()


def _focus_key(qtbot: Any, widget: QWidget, key: Qt.Key) -> None:
    widget.setFocus()
    qtbot.keyClick(widget, key)


def test_a_swiss_becomes_a_double_round_robin_with_fides_swap_by_keys(qtbot: Any) -> None:
    dialog = _dialog(qtbot, (Stage(StageKind.SWISS, rounds=7),))
    form = dialog.form
    _type_number(qtbot, form.rounds, "9")
    assert dialog.stages == (Stage(StageKind.SWISS, rounds=9),) and _ok(dialog)
    _focus_key(qtbot, form.kind, Qt.Key.Key_Down)  # 积分编排 → 循环赛
    assert form.kind.currentData() is StageKind.ROUND_ROBIN
    assert form.form.isRowVisible(form.cycles) and not form.form.isRowVisible(form.rounds)
    _type_number(qtbot, form.cycles, "2")
    _focus_key(qtbot, form.swap_last_rounds, Qt.Key.Key_Space)
    expected = (Stage(StageKind.ROUND_ROBIN, cycles=2, swap_last_rounds=True),)
    assert dialog.stages == expected and _ok(dialog)
    # one source of truth: the text tab holds the same stages, read back by the regulation loader
    assert "swap_last_rounds = true" in dialog.text.toPlainText()
    assert stages_from_text(dialog.text.toPlainText(), dialog.group, REG) == expected
    _type_number(qtbot, form.cycles, "1")  # the swap is for a double round robin only
    assert "只用于双循环" in dialog.message.text() and not _ok(dialog)
    assert dialog.stages == expected  # the last good stages are kept, not the bad ones
    _type_number(qtbot, form.cycles, "2")
    assert _ok(dialog) and dialog.message.text() == ""


def test_a_knockout_ladder_is_edited_step_by_step(qtbot: Any) -> None:
    dialog = _dialog(qtbot, (Stage(StageKind.KNOCKOUT),))
    form = dialog.form
    ladders = form.ladders
    assert dialog.stages[0].matches == () and ladders.none_note.isVisibleTo(dialog)
    _focus_key(qtbot, ladders.add_ladder, Qt.Key.Key_Space)  # a ladder: 2 slow, 2 rapid, a deciding game
    minutes = ladders.steps.cellWidget(0, 3)
    assert isinstance(minutes, QSpinBox)
    _type_number(qtbot, minutes, "90")
    _focus_key(qtbot, ladders.deciding_draw, Qt.Key.Key_Down)  # 和棋黑胜 → 换先重赛
    _focus_key(qtbot, ladders.scope, Qt.Key.Key_Down)  # 各场 → 决赛
    [match] = dialog.stages[0].matches
    assert (match.scope, match.deciding_draw) == (MatchScope.FINAL, DecidingDraw.REPEAT)
    assert [(s.kind, s.games, s.colours) for s in match.steps] == [
        (GameKind.SLOW, 2, ColourRule.LOT),
        (GameKind.RAPID, 2, ColourRule.SWAP),
        (GameKind.DECIDING, 1, ColourRule.HIGHER_SEED_CHOOSES),
    ]
    assert match.steps[0].time == TimeControl(90, 30) and _ok(dialog)
    assert stages_from_text(stages_text(dialog.stages), dialog.group, REG) == dialog.stages
    last_games = ladders.steps.cellWidget(2, 1)
    assert isinstance(last_games, QSpinBox)
    _type_number(qtbot, last_games, "2")  # the last step must be one deciding game
    assert "最后一个阶段须为一局决胜局" in dialog.message.text() and not _ok(dialog)
    _type_number(qtbot, last_games, "1")
    _focus_key(qtbot, form.elimination, Qt.Key.Key_Down)  # 单败 → 双败: the grand-final reset shows
    assert dialog.stages[0].elimination is Elimination.DOUBLE
    assert form.form.isRowVisible(form.grand_final_reset) and _ok(dialog)
    assert dialog.stages[0].matches == (match,)  # the ladder stays with the stage


def test_stages_are_added_and_begun_stages_are_locked(qtbot: Any) -> None:
    stages = format_stages("swiss-knockout", 16)
    dialog = _dialog(qtbot, stages, begun=1)
    form = dialog.form
    assert form.stage_list.currentRow() == 0
    assert not form.kind.isEnabled() and not form.rounds.isEnabled() and not form.remove_button.isEnabled()
    assert form.locked_note.isVisibleTo(dialog)
    _focus_key(qtbot, form.stage_list, Qt.Key.Key_Down)  # to stage 2, the knockout
    assert form.stage_list.currentRow() == 1 and form.kind.isEnabled() and not form.up_button.isEnabled()
    _type_number(qtbot, form.count, "4")
    assert dialog.stages[1].entrants is Entrants.TOP and dialog.stages[1].count == 4 and _ok(dialog)
    # the text tab cannot change a stage that has begun either
    dialog.tabs.setCurrentIndex(1)
    dialog.text.setPlainText(dialog.text.toPlainText().replace("rounds = 8", "rounds = 9", 1))
    assert "第1阶段已开始" in dialog.message.text() and not _ok(dialog)
    dialog.text.setPlainText(stages_text(dialog.stages))
    assert _ok(dialog)
    dialog.tabs.setCurrentIndex(0)
    form.stage_list.setCurrentRow(2)
    _focus_key(qtbot, form.add_button, Qt.Key.Key_Space)  # a fourth stage: the top 8 into a knockout
    assert len(dialog.stages) == 3  # refused (a second knockout): named, the last good stages kept
    assert "最多一个淘汰赛阶段" in dialog.message.text() and not _ok(dialog)
    _focus_key(qtbot, form.kind, Qt.Key.Key_Up)  # the new stage as a round robin of the top 8
    assert _ok(dialog) and dialog.stages[3].kind is StageKind.ROUND_ROBIN and dialog.stages[3].count == 8


def test_the_text_tab_and_the_fields_show_the_same_stages(qtbot: Any) -> None:
    dialog = _dialog(qtbot, (Stage(StageKind.SWISS, rounds=7),))
    dialog.tabs.setCurrentIndex(1)
    dialog.text.setPlainText('[[stages]]\nkind = "round_robin"\ncycles = 2\npools = 2\n')
    assert _ok(dialog)
    dialog.tabs.setCurrentIndex(0)  # the fields follow the text
    assert dialog.form.kind.currentData() is StageKind.ROUND_ROBIN
    assert (dialog.form.cycles.value(), dialog.form.pools.value()) == (2, 2)
    dialog.accept()
    assert dialog.stages == (Stage(StageKind.ROUND_ROBIN, cycles=2, pools=2),)


def test_a_round_robins_tiebreak_chain_is_edited_by_keys(qtbot: Any) -> None:
    dialog = _dialog(qtbot, (Stage(StageKind.ROUND_ROBIN, cycles=2),))
    chain = dialog.form.chain
    assert chain.isVisibleTo(dialog) and chain.chain() == ()  # the default, shown as the rulebook's
    assert [chain.items.item(i).text() for i in range(chain.items.count())][:2] == ["1. 直胜", "2. 小分"]
    assert chain.available.count() == 0  # every criterion of a round robin is in the default already
    _focus_key(qtbot, chain.items, Qt.Key.Key_Delete)  # 直胜 out
    assert dialog.stages[0].tiebreaks == ROUND_ROBIN_CHAIN[1:] and _ok(dialog)
    qtbot.keyClick(chain.items, Qt.Key.Key_Down)  # to 胜局 (row 2)
    qtbot.keyClick(chain.items, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)  # before 小分
    assert dialog.stages[0].tiebreaks[:2] == (Tiebreak.WINS, Tiebreak.SONNEBORN_BERGER)
    qtbot.keyClick(chain.items, Qt.Key.Key_Insert)  # to the criteria that may be added: 直胜
    assert dialog.focusWidget() is chain.available and chain.available.currentData() is Tiebreak.HEAD_TO_HEAD
    _focus_key(qtbot, chain.add_button, Qt.Key.Key_Space)
    expected = (
        Tiebreak.WINS,
        Tiebreak.SONNEBORN_BERGER,
        Tiebreak.BLACK_GAMES,
        Tiebreak.BLACK_WINS,
        Tiebreak.VIOLATIONS,
        Tiebreak.LOT,
        Tiebreak.HEAD_TO_HEAD,
    )
    assert dialog.stages[0].tiebreaks == expected and _ok(dialog)
    # one source of truth: the text holds the chain, and the loader reads the same stage back
    assert 'tiebreaks = [\n    "wins",' in dialog.text.toPlainText()
    assert stages_from_text(dialog.text.toPlainText(), dialog.group, REG)[0].tiebreaks == expected
    # the text may give a chain the loader refuses: named, OK off, and the fields keep the last good one
    dialog.tabs.setCurrentIndex(1)
    dialog.text.setPlainText(
        dialog.text.toPlainText().replace('"wins",', '"previous_rounds",\n    "wins",', 1)
    )
    assert "只能放在" in dialog.message.text() and not _ok(dialog)
    assert dialog.stages[0].tiebreaks == expected
    dialog.text.setPlainText(stages_text(dialog.stages))
    dialog.tabs.setCurrentIndex(0)
    _focus_key(qtbot, chain.default_button, Qt.Key.Key_Space)  # back to the rulebook's chain
    assert dialog.stages[0].tiebreaks == () and "tiebreaks" not in dialog.text.toPlainText()


def test_a_begun_stages_chain_is_locked_and_a_knockout_has_none(qtbot: Any) -> None:
    own = (Tiebreak.SONNEBORN_BERGER, Tiebreak.HEAD_TO_HEAD)
    stages = (
        Stage(StageKind.ROUND_ROBIN, pools=2, tiebreaks=own),
        Stage(StageKind.KNOCKOUT, entrants=Entrants.POOL_TOP, count=2),
    )
    dialog = _dialog(qtbot, stages, begun=1)
    chain = dialog.form.chain
    assert chain.isVisibleTo(dialog) and not chain.isEnabled()
    _focus_key(qtbot, chain.items, Qt.Key.Key_Delete)  # nothing happens on a begun stage
    assert dialog.stages[0].tiebreaks == own and chain.items.count() == 2
    _focus_key(qtbot, dialog.form.stage_list, Qt.Key.Key_Down)
    assert not chain.isVisibleTo(dialog)  # a knockout places by its bracket


def test_a_swiss_offers_the_chain_of_the_round_robin_it_may_become(qtbot: Any) -> None:
    dialog = _dialog(qtbot, (Stage(StageKind.SWISS, rounds=7),))
    form = dialog.form
    assert not form.chain.isVisibleTo(dialog)  # a Swiss ranks by the regulation's [tiebreaks]
    _type_number(qtbot, form.round_robin_up_to, "8")
    assert form.chain.isVisibleTo(dialog)
    _focus_key(qtbot, form.chain.items, Qt.Key.Key_Delete)
    assert dialog.stages[0].tiebreaks == ROUND_ROBIN_CHAIN[1:] and _ok(dialog)


def test_a_change_of_system_starts_from_that_systems_chain(qtbot: Any) -> None:
    own = (Tiebreak.WINS, Tiebreak.HEAD_TO_HEAD)
    dialog = _dialog(qtbot, (Stage(StageKind.ROUND_ROBIN, tiebreaks=own),))
    form = dialog.form
    _focus_key(qtbot, form.kind, Qt.Key.Key_Up)  # 循环赛 → 积分编排: the chain is the Swiss's own (none)
    assert dialog.stages[0].kind is StageKind.SWISS and dialog.stages[0].tiebreaks == ()
    _type_number(qtbot, form.rounds, "5")  # a later edit does not bring the round robin's chain back
    assert dialog.stages[0].tiebreaks == () and form.chain.chain() == ()
