"""The players view: filter, flag toggles through services with undo, the draw, the model."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.services.registration import list_players
from app.ui.main_window import MainWindow
from app.ui.models.players import PlayerFilter, PlayerTableModel, column_of, pinyin_initials
from app.ui.views.players import PlayersView

GROUP = "公开组"


def test_pinyin_initials() -> None:
    assert pinyin_initials("张三") == "zs"
    assert pinyin_initials("欧阳修") == "oyx"


@pytest.fixture
def players_view(qtbot, event_file: Path) -> tuple[MainWindow, PlayersView]:
    w = MainWindow()
    qtbot.addWidget(w)
    assert w.open_file(event_file)
    w.show()
    view = w.show_view("players")
    assert isinstance(view, PlayersView)
    return w, view


def test_filter_as_you_type_by_name_initials_team_and_number(qtbot, players_view) -> None:
    _window, view = players_view
    assert view.proxy.rowCount() == 120
    first = view.model.player(0)
    qtbot.keyClicks(view.search, pinyin_initials(first.name))
    names = {view.proxy.index(r, 1).data() for r in range(view.proxy.rowCount())}
    assert first.name in names and len(names) < 120
    view.search.clear()
    view.search.insert("兰州石化")  # typed through an input method: QTest cannot send CJK keys
    assert 3 <= view.proxy.rowCount() <= 5
    assert all(view.proxy.index(r, 4).data() == "兰州石化" for r in range(view.proxy.rowCount()))
    view.search.clear()
    qtbot.keyClicks(view.search, "17")
    assert view.proxy.rowCount() == 1 and view.proxy.index(0, 0).data() == "17"
    assert view.count_label.text() == "显示 1 / 120 人"


def test_toggle_fee_through_the_service_and_undo(qtbot, players_view) -> None:
    window, view = players_view
    assert window.document is not None
    db = window.document.db
    col = column_of("fee_paid")
    index = view.proxy.index(0, col)
    player_id = index.data(Qt.ItemDataRole.UserRole + 0) or view.proxy.index(0, 0).data(
        Qt.ItemDataRole.UserRole
    )
    assert index.data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked
    assert view.proxy.setData(index, Qt.CheckState.Unchecked.value, Qt.ItemDataRole.CheckStateRole)
    paid = {p.id: p.fee_paid for p in list_players(db, GROUP)}
    assert paid[player_id] is False
    assert view.proxy.index(0, col).data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Unchecked
    window.document.undo_stack.undo()
    assert {p.id: p.fee_paid for p in list_players(db, GROUP)}[player_id] is True
    assert view.proxy.index(0, col).data(Qt.ItemDataRole.CheckStateRole) == Qt.CheckState.Checked


def test_draw_is_refused_once_round_one_is_paired(players_view) -> None:
    window, view = players_view
    assert not view.draw_numbers_with(7)
    assert "首轮已编排" in view.message.text()
    window.group_box.setCurrentText("天水本地组")
    assert view.message.text() == ""  # the other group's message does not follow


def test_player_models(qtmodeltester, event_file: Path) -> None:
    from app.services.tournaments import open_tournament

    db = open_tournament(event_file)
    model = PlayerTableModel()
    model.set_players(list_players(db, GROUP))
    qtmodeltester.check(model)
    proxy = PlayerFilter()
    proxy.setSourceModel(model)
    proxy.set_text("zs")
    qtmodeltester.check(proxy)
    db.close()


def test_the_empty_registration_form_is_exported_with_the_groups(qtbot, event_file, tmp_path) -> None:
    import openpyxl

    from app.ui.main_window import MainWindow
    from app.ui.views.players import PlayersView

    window = MainWindow()
    qtbot.addWidget(window)
    assert window.open_file(event_file)
    view = window.show_view("players")
    assert isinstance(view, PlayersView) and view.buttons["template"].isEnabled()
    written = view.export_template(tmp_path / "报名表.xlsx")
    assert written is not None
    sheet = openpyxl.load_workbook(written).active
    headers = {str(c.value) for row in sheet.iter_rows(max_row=5) for c in row if c.value}
    assert {"姓名", "身份证号", "组别"} <= headers
    lists = " ".join(str(dv.formula1) for dv in sheet.data_validations.dataValidation)
    assert "公开组" in lists and "天水本地组" in lists
