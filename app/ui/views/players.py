"""报名 Players: the list with filter-as-you-type, flag toggles, edit dialog, Excel import, the draw."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import UserError
from app.services import ranking_flags, registration
from app.ui import file_dialogs
from app.ui.dialogs.player import PlayerDialog
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language, tr, translate_noop
from app.ui.models.players import FLAGS, PlayerFilter, PlayerTableModel
from app.ui.undo import SetFlagCommand, perform
from app.ui.widgets.message_line import MessageLine

FLAG_SERVICES: dict[str, Callable[..., None]] = {
    "fee_paid": registration.set_fee_paid,
    "insurance": registration.set_insurance,
    "pledge": registration.set_pledge,
    "checked_in": registration.set_checked_in,
}
FLAG_NAMES = {
    "fee_paid": translate_noop("PlayersView", "缴费"),
    "insurance": translate_noop("PlayersView", "保险"),
    "pledge": translate_noop("PlayersView", "承诺书"),
    "checked_in": translate_noop("PlayersView", "报到"),
}
assert set(FLAG_SERVICES) == set(FLAGS)


def message_of(error: UserError) -> str:
    return error.en if current_language() == "en" else error.zh


class PlayersView(QWidget):
    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.roster_dialog: QWidget | None = None
        self.model = PlayerTableModel(self)
        self.model.flag_toggled.connect(self.toggle_flag)
        self.proxy = PlayerFilter(self)
        self.proxy.setSourceModel(self.model)

        self.search = QLineEdit(self)
        self.search.setPlaceholderText(self.tr("查找：姓名、拼音首字母（如 zs）、队伍、序号"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self._filter)
        self.count_label = QLabel(self)
        buttons = QHBoxLayout()
        self.buttons: dict[str, QPushButton] = {}
        for key, text, slot in (
            ("add", self.tr("新增棋手……"), self.add_player),
            ("edit", self.tr("修改……"), self.edit_current),
            ("import", self.tr("从 Excel 导入……"), self.import_excel),
            ("template", self.tr("导出报名表模板……"), self.export_template),
            ("draw", self.tr("抽签定序号……"), self.draw_numbers),
            ("attendance", self.tr("请假／恢复参赛……"), self.attendance),
            ("avoidances", self.tr("回避设置……"), self.avoidances),
            ("unranked", self.tr("计成绩不计名次……"), self.toggle_ranked),
            ("rosters", self.tr("队伍名单(F6)……"), self.edit_rosters),
        ):
            button = QPushButton(text, self)
            button.clicked.connect(lambda _checked=False, slot=slot: slot())
            buttons.addWidget(button)
            self.buttons[key] = button
        buttons.addStretch(1)
        buttons.addWidget(self.count_label)
        self.message = MessageLine(self)

        self.table = QTableView(self)
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # sized from the rows in view (not every row of a 160-player list on each change): fast first visit
        self.table.horizontalHeader().setResizeContentsPrecision(0)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.doubleClicked.connect(lambda _index: self.edit_current())

        layout = QVBoxLayout(self)
        layout.addWidget(self.search)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        layout.addWidget(self.table, 1)
        self._stale = True
        document.changed.connect(self.refresh)
        document.group_changed.connect(self._group_changed)
        self.refresh()

    def showEvent(self, event: QShowEvent) -> None:
        if self._stale:
            self._reload()
        super().showEvent(event)

    def _group_changed(self, _name: str) -> None:
        self.message.clear()  # e.g. the other group's draw seed
        self.refresh()

    def refresh(self) -> None:
        """Reload now if shown; otherwise when next shown (a result entry must not pay for this list)."""
        self._stale = True
        if self.isVisible():
            self._reload()

    def edit_rosters(self) -> None:
        """队伍名单 of a team competition: the roster editor of the 团体赛 view, over the registration."""
        from app.ui.dialogs.team_roster import open_roster_editor

        self.roster_dialog = open_roster_editor(self.document, self, self._roster_closed)

    def _roster_closed(self, dialog: QWidget) -> None:
        if self.roster_dialog is dialog:
            self.roster_dialog = None
        self.refresh()  # the team column follows the rosters
        self.table.setFocus()

    def _reload(self) -> None:
        self._stale = False
        from app.ui.dialogs.team_roster import roster_editor_available

        self.buttons["rosters"].setVisible(roster_editor_available(self.document))
        current = self.current_player_id()
        self.model.set_players(registration.list_players(self.document.db, self.document.group))
        self._count()
        if current is not None:
            self.select_player(current)

    def _filter(self, text: str) -> None:
        self.proxy.set_text(text)
        self._count()

    def _count(self) -> None:
        self.count_label.setText(
            self.tr("显示 %1 / %2 人")
            .replace("%1", str(self.proxy.rowCount()))
            .replace("%2", str(self.model.rowCount()))
        )

    def current_player_id(self) -> int | None:
        index = self.table.currentIndex()
        if not index.isValid():
            return None
        return int(self.proxy.mapToSource(index).siblingAtColumn(0).data(Qt.ItemDataRole.UserRole))

    def select_player(self, player_id: int) -> None:
        for row in range(self.proxy.rowCount()):
            index = self.proxy.index(row, 0)
            if index.data(Qt.ItemDataRole.UserRole) == player_id:
                self.table.setCurrentIndex(index)
                return

    def toggle_flag(self, player_id: int, flag: str, value: bool) -> None:
        name = next(
            p.name for p in (self.model.player(r) for r in range(self.model.rowCount())) if p.id == player_id
        )
        text = self.tr("%1：%2 %3").replace("%1", name).replace("%2", tr("PlayersView", FLAG_NAMES[flag]))
        text = text.replace("%3", "✓" if value else "✗")
        try:
            perform(self.document, SetFlagCommand(self.document, FLAG_SERVICES[flag], player_id, value, text))
        except UserError as error:
            self.message.setText(message_of(error))

    def toggle_ranked(self, reason: str | None = None) -> None:
        """The current player plays unranked (计成绩不计名次: a guest), or is ranked again; a reason is
        asked for and logged."""
        player_id = self.current_player_id()
        rows = (self.model.player(r) for r in range(self.model.rowCount()))
        player = next((p for p in rows if p.id == player_id), None)
        if player is None or player.no is None:
            self.message.setText(self.tr("请先选中一名已有序号的棋手"))
            return
        unranked = player.ranked
        if reason is None:
            question = (
                self.tr("%1 号 %2 计成绩不计名次的理由：")
                if unranked
                else self.tr("%1 号 %2 恢复计名次的理由：")
            )
            reason, ok = QInputDialog.getText(
                self,
                self.tr("计成绩不计名次"),
                question.replace("%1", str(player.no)).replace("%2", player.name),
            )
            if not ok:
                return
        try:
            ranking_flags.set_unranked(self.document.db, player.group, player.no, unranked, reason=reason)
        except UserError as error:
            self.message.setText(message_of(error))
            return
        done = self.tr("%1 号 %2：计成绩不计名次") if unranked else self.tr("%1 号 %2：恢复计名次")
        self.message.setText(done.replace("%1", str(player.no)).replace("%2", player.name))
        self.document.notify()

    def add_player(self) -> None:
        dialog = PlayerDialog(self.document, None, self)
        if dialog.exec():
            self.document.notify()

    def edit_current(self) -> None:
        player_id = self.current_player_id()
        if player_id is None:
            return
        player = next(
            p for p in (self.model.player(r) for r in range(self.model.rowCount())) if p.id == player_id
        )
        dialog = PlayerDialog(self.document, player, self)
        if dialog.exec():
            self.document.notify()

    def export_template(self, path: Path | None = None) -> Path | None:
        """The empty registration form (附件 2) with this tournament's groups, for organisers to fill in."""
        if path is None:
            name = file_dialogs.save_file_name(
                self, self.tr("导出报名表模板"), self.tr("报名表.xlsx"), self.tr("Excel 文件 (*.xlsx)")
            )
            if not name:
                return None
            path = Path(name)
        try:
            from app.services.excel_import import write_template  # openpyxl: loaded when needed

            written = write_template(self.document.db, path)
        except (UserError, OSError) as error:
            QMessageBox.warning(self, self.tr("无法导出"), str(error))
            return None
        self.message.setText(self.tr("报名表模板已导出：%1").replace("%1", str(written)))
        return written

    def import_excel(self, path: Path | None = None) -> None:
        if path is None:
            name = file_dialogs.open_file_name(
                self, self.tr("导入报名表"), "", self.tr("Excel 文件 (*.xlsx)")
            )
            if not name:
                return
            path = Path(name)
        from app.ui.dialogs.import_preview import ImportPreviewDialog  # openpyxl: loaded when needed

        dialog = ImportPreviewDialog(self.document, path, self)
        if dialog.preview is None:
            QMessageBox.warning(self, self.tr("无法导入"), dialog.error_text)
            return
        if dialog.exec():
            self.message.setText(self.tr("已导入 %1 名棋手").replace("%1", str(dialog.imported)))
            self.document.notify()

    def attendance(self) -> QWidget:
        """请假与恢复参赛 for the chosen group (non-modal: the list stays visible beside it)."""
        from app.ui.dialogs.attendance import AttendanceDialog

        dialog = AttendanceDialog(self.document, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def avoidances(self) -> QWidget:
        """回避设置: named pairs kept apart in the pairing (family members, the same coach …)."""
        from app.ui.dialogs.avoidances import AvoidancesDialog

        dialog = AvoidancesDialog(self.document, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.show()
        return dialog

    def draw_numbers(self) -> None:
        seed, ok = QInputDialog.getInt(
            self,
            self.tr("抽签定序号"),
            self.tr("%1：抽签种子（记录在案，可复核）").replace("%1", self.document.group),
            registration.new_seed(),
            1,
            999_999,
        )
        if not ok:
            return
        self.draw_numbers_with(seed)

    def draw_numbers_with(self, seed: int) -> bool:
        try:
            registration.draw_numbers(self.document.db, self.document.group, "lot", seed)
        except UserError as error:
            self.message.setText(message_of(error))
            return False
        self.message.setText(self.tr("序号已抽签产生（种子 %1）").replace("%1", str(seed)))
        self.document.notify()
        return True
