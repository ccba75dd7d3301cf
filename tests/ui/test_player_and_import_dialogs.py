"""The player dialog's live checks and the Excel import preview (row, column; all-or-nothing; valid only)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest
from openpyxl import load_workbook
from PySide6.QtCore import Qt

from app.reports.excel_template import FORM_COLUMNS, HEADER_ROW, write_registration_template
from app.services.audit import audit_log
from app.services.registration import list_players
from app.services.tournaments import create_tournament
from app.ui.dialogs.import_preview import ImportPreviewDialog
from app.ui.dialogs.player import PlayerDialog
from app.ui.document import TournamentDocument
from tests.idnumbers import make_id

GROUP = "公开组"
GOOD_ID = make_id(date(1985, 3, 14), serial=7)
# the same number with a wrong check character
BAD_CHECK = GOOD_ID[:17] + ("0" if GOOD_ID[17] != "0" else "1")


@pytest.fixture
def document(tmp_path: Path) -> Iterator[TournamentDocument]:
    path = tmp_path / "event.xqt"
    create_tournament(path, "tianshui-2024").close()
    doc = TournamentDocument.open(path)
    yield doc
    doc.close()


@pytest.fixture
def edit_document(event_file: Path) -> Iterator[TournamentDocument]:
    doc = TournamentDocument.open(event_file)
    yield doc
    doc.close()


def test_edit_dialog_shows_the_failed_rule_live_and_saves_through_the_service(
    qtbot, edit_document: TournamentDocument
) -> None:
    db = edit_document.db
    player = list_players(db, GROUP)[0]
    other = list_players(db, GROUP)[1]
    dialog = PlayerDialog(edit_document, player)
    qtbot.addWidget(dialog)
    assert dialog.problems.text() == "" and dialog.ok_button.isEnabled()

    dialog.id_number.setText(player.id_number[:-1] + ("0" if player.id_number[-1] != "0" else "1"))
    assert "校验码不符" in dialog.problems.text()
    assert not dialog.ok_button.isEnabled()
    dialog.id_number.setText(player.id_number[:15])
    assert "15 位旧身份证号" in dialog.problems.text() and not dialog.ok_button.isEnabled()
    dialog.id_number.setText(other.id_number)  # another player's number
    assert dialog.problems.text() != "" and not dialog.ok_button.isEnabled()
    dialog.id_number.setText(player.id_number)  # fixed: OK again
    assert dialog.problems.text() == "" and dialog.ok_button.isEnabled()

    dialog.phone.clear()
    qtbot.keyClicks(dialog.phone, "13912345678")
    assert dialog.ok_button.isEnabled()
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == PlayerDialog.DialogCode.Accepted
    saved = next(p for p in list_players(db, GROUP) if p.id == player.id)
    assert saved.phone == "13912345678" and saved.id_number == player.id_number
    # logged under the player's group, number and name (not an internal id), the phone masked
    [line] = [x for x in audit_log(db, action="edit_player") if player.name in x.entity]
    assert f"{GROUP} {player.no}号 {player.name}" == line.entity and "13912345678" not in line.after


def test_new_player_after_the_deadline_needs_a_reason(qtbot, document: TournamentDocument) -> None:
    dialog = PlayerDialog(document, None)
    qtbot.addWidget(dialog)
    dialog.name.insert("张三")
    qtbot.keyClicks(dialog.id_number, BAD_CHECK)
    qtbot.keyClicks(dialog.phone, "13812345678")
    assert "校验码不符" in dialog.problems.text()
    dialog.id_number.setText(GOOD_ID)
    assert "校验码" not in dialog.problems.text()
    assert "已过报名截止时间" in dialog.problems.text()  # the preset's deadline is 2024-07-23 18:00
    assert dialog.late and not dialog.ok_button.isEnabled()
    dialog.reason.insert("组委会同意补报")
    assert dialog.problems.text() == "" and dialog.ok_button.isEnabled()
    qtbot.mouseClick(dialog.ok_button, Qt.MouseButton.LeftButton)
    (added,) = list_players(document.db, GROUP)
    assert added.name == "张三" and added.birth_date == date(1985, 3, 14)
    (late,) = audit_log(document.db, action="deadline_override")
    assert (
        late.reason == "组委会同意补报" and late.entity == f"{added.group} {added.name}"
    )  # named, no number yet


def registration_form(path: Path, rows: list[dict[str, str]]) -> Path:
    write_registration_template(path, [GROUP, "天水本地组"])
    wb = load_workbook(path)
    ws = wb.active
    column = {c.field: i for i, c in enumerate(FORM_COLUMNS, start=1)}
    for i, values in enumerate(rows):
        for field, value in values.items():
            ws.cell(row=HEADER_ROW + 1 + i, column=column[field], value=value)
    wb.save(path)
    return path


@pytest.fixture
def form_with_a_bad_row(tmp_path: Path) -> Path:
    """Rows 4 and 6 are good; row 5 has an ID number with a wrong check character (column D)."""
    rows = [
        {"name": "李四", "id_number": make_id(date(1990, 5, 1), 1), "phone": "13800000001", "group": GROUP},
        {"name": "王五", "id_number": BAD_CHECK, "phone": "13800000002", "group": GROUP},
        {"name": "赵六", "id_number": make_id(date(1991, 6, 2), 2), "phone": "13800000003", "group": GROUP},
    ]
    assert FORM_COLUMNS[3].field == "id_number"  # column D
    return registration_form(tmp_path / "form.xlsx", rows)


def preview_dialog(qtbot, document: TournamentDocument, path: Path) -> ImportPreviewDialog:
    dialog = ImportPreviewDialog(document, path)
    qtbot.addWidget(dialog)
    assert dialog.preview is not None, dialog.error_text
    dialog.reason.insert("报名表迟交")
    dialog.recheck()
    return dialog


def test_import_preview_shows_the_bad_row_and_column(qtbot, document, form_with_a_bad_row) -> None:
    dialog = preview_dialog(qtbot, document, form_with_a_bad_row)
    cells = [[dialog.table.item(r, c).text() for c in range(4)] for r in range(dialog.table.rowCount())]
    assert [row[:2] for row in cells] == [["4", "李四"], ["5", "王五"], ["6", "赵六"]]
    assert cells[0][3] == "✓" and cells[2][3] == "✓"
    assert cells[1][3].startswith("D5 身份证号: ") and "校验码不符" in cells[1][3]
    assert "共 3 行：2 行无误，1 行有问题" in dialog.summary.text()
    assert not dialog.all_button.isEnabled()
    assert dialog.valid_button.isEnabled() and "2" in dialog.valid_button.text()
    assert list_players(document.db) == []  # the preview wrote nothing


def test_all_or_nothing_writes_nothing(qtbot, document, form_with_a_bad_row) -> None:
    dialog = preview_dialog(qtbot, document, form_with_a_bad_row)
    assert not dialog.run_import("all_or_nothing")
    assert "未导入任何选手" in dialog.status.text() and "第 5 行" in dialog.status.text()
    assert list_players(document.db) == []
    assert audit_log(document.db, action="import_players") == []


def test_valid_only_writes_the_good_rows(qtbot, document, form_with_a_bad_row) -> None:
    dialog = preview_dialog(qtbot, document, form_with_a_bad_row)
    qtbot.mouseClick(dialog.valid_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == ImportPreviewDialog.DialogCode.Accepted and dialog.imported == 2
    assert sorted(p.name for p in list_players(document.db)) == ["李四", "赵六"]
    (logged,) = audit_log(document.db, action="import_players")
    assert logged.reason == "报名表迟交"


def test_before_the_reason_every_row_is_refused_for_lateness(qtbot, document, form_with_a_bad_row) -> None:
    dialog = ImportPreviewDialog(document, form_with_a_bad_row)
    qtbot.addWidget(dialog)
    assert dialog.late
    assert all("已过报名截止时间" in dialog.table.item(r, 3).text() for r in range(3))
    assert not dialog.all_button.isEnabled() and not dialog.valid_button.isEnabled()
