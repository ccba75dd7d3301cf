"""待确认: deputies' results from the hall network, waiting in the rounds view for the chief arbiter.

One line per entry: board, result, deputy, time; entries for one board that differ (or differ from
the result already recorded) are marked 冲突. In the list, **Enter** confirms the selected entry (the
result is entered, undoable like a typed one, and the board's other entries are set aside) and
**Delete** sets it aside. F8 in the rounds view moves the keyboard to the list. A key typed anywhere
else confirms nothing. The panel shows itself only while something waits.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import QGroupBox, QHeaderView, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from app.engine.types import UserError
from app.services import hall
from app.ui.document import TournamentDocument
from app.ui.models.pairings import result_name
from app.ui.undo import ServiceCommand, perform


class ConfirmPendingCommand(ServiceCommand):
    """Confirm a deputy's result; undo puts the board's result back and the entries waiting again."""

    def __init__(self, document: TournamentDocument, line: hall.PendingLine, text: str) -> None:
        super().__init__(document, text)
        self.entry_id = line.id
        self.done: hall.Confirmation | None = None

    def apply(self) -> None:
        self.done = hall.confirm_pending_result(self.document.db, self.entry_id)

    def revert(self) -> None:
        assert self.done is not None
        hall.undo_confirmation(self.document.db, self.done)


class RejectPendingCommand(ServiceCommand):
    def __init__(self, document: TournamentDocument, line: hall.PendingLine, text: str) -> None:
        super().__init__(document, text)
        self.entry_id = line.id

    def apply(self) -> None:
        hall.reject_pending_result(self.document.db, self.entry_id)

    def revert(self) -> None:
        hall.reopen_pending_results(self.document.db, (self.entry_id,), reason="撤销 (undo)")


class PendingList(QTreeWidget):
    """The entries; Enter confirms the current one, Delete sets it aside."""

    confirm_key = Signal(int)
    reject_key = Signal(int)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        item = self.currentItem()
        if item is not None and not event.modifiers() & (
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
        ):
            entry = int(item.data(0, Qt.ItemDataRole.UserRole))
            if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.confirm_key.emit(entry)
                return
            if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
                self.reject_key.emit(entry)
                return
        super().keyPressEvent(event)


class PendingPanel(QGroupBox):
    """The waiting entries of the round shown in the rounds view."""

    def __init__(self, document: TournamentDocument, view: QWidget) -> None:
        super().__init__(view)
        self.document = document
        self.round_number = 0
        self.lines: list[hall.PendingLine] = []
        self.list = PendingList(self)
        self.list.setRootIsDecorated(False)
        self.list.setHeaderLabels(
            [self.tr("台次"), self.tr("结果"), self.tr("副裁判"), self.tr("时间"), self.tr("标记")]
        )
        self.list.header().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.list.setToolTip(self.tr("回车：确认　Delete：退回"))
        self.list.confirm_key.connect(self.confirm)
        self.list.reject_key.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        shortcut = QShortcut(QKeySequence("F8"), view)
        shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        shortcut.activated.connect(self.focus_list)
        document.changed.connect(self.refresh)
        self.setVisible(False)

    def set_round(self, number: int) -> None:
        self.round_number = number
        self.refresh()

    def refresh(self) -> None:
        try:
            lines = (
                hall.pending_results(self.document.db, self.document.group, self.round_number)
                if self.round_number
                else []
            )
        except UserError:
            lines = []
        current = self.list.currentItem()
        keep = int(current.data(0, Qt.ItemDataRole.UserRole)) if current is not None else None
        self.lines = lines
        self.list.clear()
        for line in lines:
            mark = self.tr("冲突") if line.conflict else (self.tr("已一致") if line.agrees else "")
            item = QTreeWidgetItem(
                [
                    str(line.board),
                    result_name(line.result),
                    line.deputy,
                    f"{line.submitted_at:%H:%M:%S}",
                    mark,
                ]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, line.id)
            item.setToolTip(2, line.device)
            if line.conflict:
                for column in range(5):
                    item.setForeground(column, QBrush(QColor("#b22222")))
            self.list.addTopLevelItem(item)
            if line.id == keep:
                self.list.setCurrentItem(item)
        first = self.list.topLevelItem(0)
        if self.list.currentItem() is None and first is not None:
            self.list.setCurrentItem(first)
        self.setTitle(self.tr("待确认（%1）").replace("%1", str(len(lines))))
        self.setVisible(bool(lines))

    def focus_list(self) -> None:
        if self.isVisible():
            self.list.setFocus()

    def _line(self, entry_id: int) -> hall.PendingLine | None:
        return next((x for x in self.lines if x.id == entry_id), None)

    def confirm(self, entry_id: int) -> bool:
        line = self._line(entry_id)
        if line is None:
            return False
        text = (
            self.tr("确认第 %1 台：%2（%3）")
            .replace("%1", str(line.board))
            .replace("%2", result_name(line.result))
            .replace("%3", line.deputy)
        )
        try:
            perform(self.document, ConfirmPendingCommand(self.document, line, text))
        except UserError as error:
            self.document.report(error)
            return False
        self.list.setFocus()
        return True

    def reject(self, entry_id: int) -> bool:
        line = self._line(entry_id)
        if line is None:
            return False
        text = self.tr("退回第 %1 台（%2）").replace("%1", str(line.board)).replace("%2", line.deputy)
        try:
            perform(self.document, RejectPendingCommand(self.document, line, text))
        except UserError as error:
            self.document.report(error)
            return False
        return True
