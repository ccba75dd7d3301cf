"""The window for the formats: a player outside the group's conditions accepted with a reason in the player
dialog, a player made unranked from the players view, the settings table showing the rounds of a
round robin, the standings naming a player's pool."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from app.engine.eligibility import Eligibility
from app.engine.formats import legacy_stages
from app.engine.regulations import GroupFormat, preset
from app.services.audit import audit_log
from app.services.format_demo import GROUP, create_format_demo
from app.services.registration import list_players
from app.services.simulation import play_group_to_end
from app.services.tournaments import create_tournament
from app.ui.dialogs.player import PlayerDialog
from app.ui.document import TournamentDocument
from tests.idnumbers import make_id

JUNIORS = "少儿组"


@pytest.fixture
def juniors(tmp_path: Path) -> Iterator[TournamentDocument]:
    base = preset("tianshui-2024")
    group = GroupFormat(JUNIORS, False, legacy_stages(7, 7, 0), Eligibility(born_from=date(2007, 1, 1)))
    reg = dataclasses.replace(
        base,
        groups=(base.groups[0], group),
        prizes=tuple(t for t in base.prizes if t.group == base.groups[0].name),
    )
    path = tmp_path / "t.xqt"
    create_tournament(path, regulations=reg).close()
    doc = TournamentDocument.open(path)
    yield doc
    doc.close()


def test_the_player_dialog_asks_for_a_reason_only_outside_the_conditions(
    qtbot: Any, juniors: TournamentDocument
) -> None:
    dialog = PlayerDialog(juniors, None)
    qtbot.addWidget(dialog)
    dialog.group.setCurrentText(JUNIORS)
    dialog.name.setText("小棋手")
    dialog.phone.setText("13912345678")
    dialog.id_number.setText(make_id(date(2009, 5, 5), serial=3))
    late = dialog.late  # the preset's deadline is in the past: its reason field is there anyway
    assert dialog.form.isRowVisible(dialog.reason) == late
    dialog.id_number.setText(make_id(date(1990, 5, 5), serial=3))  # an adult
    assert "不符合少儿组的参赛资格" in dialog.problems.text() and not dialog.ok_button.isEnabled()
    assert dialog.form.isRowVisible(dialog.reason)
    dialog.reason.setText("组委会特批")
    assert dialog.problems.text() == "" and dialog.ok_button.isEnabled()
    dialog.accept()
    [player] = list_players(juniors.db, JUNIORS)
    assert player.name == "小棋手"
    assert any(a.action == "eligibility_override" and a.reason == "组委会特批" for a in audit_log(juniors.db))


def test_the_player_editor_takes_a_rating_list_rank_and_an_edit_outside_needs_a_reason(
    qtbot: Any, tmp_path: Path
) -> None:
    """精英组 admits the first 32 of the rating list: the rank typed in the editor is checked live; an
    edit to rank 40 is refused with the rule named until a reason is given, then stored and logged."""
    from PySide6.QtCore import Qt

    from app.engine.registration import PlayerEntry
    from app.services.registration import add_player

    base = preset("tianshui-2024")
    group = GroupFormat("精英组", False, legacy_stages(7, 7, 0), Eligibility(max_rank=32))
    reg = dataclasses.replace(
        base,
        groups=(base.groups[0], group),
        prizes=tuple(t for t in base.prizes if t.group == base.groups[0].name),
    )
    path = tmp_path / "elite.xqt"
    db = create_tournament(path, regulations=reg)
    entry = PlayerEntry("名将", make_id(date(1980, 1, 1), serial=5), "13912345678", "精英组", rating_rank=8)
    add_player(db, entry, override_reason="补报")
    db.close()
    doc = TournamentDocument.open(path)
    try:
        [player] = list_players(doc.db, "精英组")
        dialog = PlayerDialog(doc, player)
        qtbot.addWidget(dialog)
        assert dialog.rating_rank.value() == 8 and dialog.ok_button.isEnabled()
        dialog.rating_rank.setFocus()
        dialog.rating_rank.selectAll()
        qtbot.keyClicks(dialog.rating_rank, "40")
        qtbot.keyClick(dialog.rating_rank, Qt.Key.Key_Tab)
        assert dialog.rating_rank.value() == 40
        assert "等级分排名须在前 32 名以内（排名第 40 名）" in dialog.problems.text()
        assert not dialog.ok_button.isEnabled() and dialog.form.isRowVisible(dialog.reason)
        dialog.reason.insert("排名表更新前已报名")  # (key events carry ASCII only in QtTest)
        assert dialog.problems.text() == "" and dialog.ok_button.isEnabled()
        dialog.accept()
        [after] = list_players(doc.db, "精英组")
        assert after.rating_rank == 40
        logged = [a for a in audit_log(doc.db) if a.action == "eligibility_override"]
        assert [a.reason for a in logged][-1] == "排名表更新前已报名"
    finally:
        doc.close()


def test_a_player_is_made_unranked_and_ranked_again_from_the_players_view(qtbot: Any, tmp_path: Path) -> None:
    from app.ui.views.players import PlayersView

    create_format_demo(tmp_path / "rr.xqt", "round-robin", players=5, seed=2).close()
    doc = TournamentDocument.open(tmp_path / "rr.xqt")
    view = PlayersView(doc)
    qtbot.addWidget(view)
    view.show()
    target = next(p for p in list_players(doc.db, GROUP) if p.no == 2)
    view.select_player(target.id)
    view.toggle_ranked("")  # a reason is needed
    assert "理由" in view.message.text()
    view.toggle_ranked("特邀棋手")
    assert not next(p for p in list_players(doc.db, GROUP) if p.no == 2).ranked
    row = next(r for r in range(view.model.rowCount()) if view.model.player(r).no == 2)
    status = next(
        view.model.index(row, c).data()
        for c in range(view.model.columnCount())
        if "不计名次" in str(view.model.index(row, c).data())
    )
    assert status == "正常（不计名次）"
    view.select_player(target.id)
    view.toggle_ranked("弄错了")
    assert next(p for p in list_players(doc.db, GROUP) if p.no == 2).ranked
    doc.close()


def test_settings_show_a_round_robins_rounds_and_standings_name_the_pool(qtbot: Any, tmp_path: Path) -> None:
    from PySide6.QtWidgets import QSpinBox

    from app.ui.views.settings import SettingsView
    from app.ui.views.standings import StandingsView

    db = create_format_demo(tmp_path / "gk.xqt", "groups-then-knockout", players=12, seed=5)
    play_group_to_end(db, GROUP, seed=5, last=5)  # the pools' five rounds
    db.close()
    doc = TournamentDocument.open(tmp_path / "gk.xqt")
    settings = SettingsView(doc)
    qtbot.addWidget(settings)
    settings.show()
    spin = settings.groups_table.cellWidget(0, 2)
    assert isinstance(spin, QSpinBox)
    assert spin.value() == 7 and not spin.isEnabled()  # 2 pools of 6: 5 rounds, then 2 knockout rounds
    view = StandingsView(doc)
    qtbot.addWidget(view)
    view.show()
    ranks = [view.model.index(r, 0).data() for r in range(view.model.rowCount())]
    assert ranks[:6] == [f"A组 {k}" for k in range(1, 7)] and ranks[6:] == [f"B组 {k}" for k in range(1, 7)]
    doc.close()
