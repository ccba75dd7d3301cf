"""待确认: deputies' results from the hall network, waiting in the rounds view for the chief arbiter.

One line per entry: board, result, deputy, time; entries for one board that differ (or differ from
the result already recorded) are marked 冲突. In the list, **Enter** confirms the selected entry (the
result is entered, undoable like a typed one, and the board's other entries are set aside) and
**Delete** sets it aside. F8 in the rounds view moves the keyboard to the list. A key typed anywhere
else confirms nothing. The panel shows itself only while something waits.

An entry marked 冲突 is not taken on one key: Enter asks first (it would replace the chief's own
result, or choose between deputies who disagree), and the question's default is No. After each
confirmation or setting aside, the list discards keys for a moment
(:data:`app.ui.widgets.key_guard.GUARD_MS`): Enter Enter confirms one entry, not two. What was stored
is read back in full (group, round, board, both names, result) through :attr:`PendingPanel.said`.
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
from app.ui.widgets.key_guard import ask_guarded, guard_keys


def _fill(text: str, *values: object) -> str:
    for i, value in enumerate(values, start=1):
        text = text.replace(f"%{i}", str(value))
    return text


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

    said = Signal(str)  # what was done, in full, for the view's message line

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

    def _board_words(self, line: hall.PendingLine) -> str:
        """公开组 第 2 轮 第 7 台 张三 — 李四 (the names from the round as the service shows it)."""
        from app.services.rounds import round_view

        names = ("", "")
        try:
            view = round_view(self.document.db, self.document.group, self.round_number)
            board = next((b for b in view.boards if b.board == line.board), None)
            if board is not None:
                names = (board.red.name, board.black.name)
        except UserError:
            pass
        return (
            self.tr("%1 第 %2 轮 第 %3 台 %4 — %5")
            .replace("%1", self.document.group)
            .replace("%2", str(self.round_number))
            .replace("%3", str(line.board))
            .replace("%4", names[0])
            .replace("%5", names[1])
        )

    def confirm(self, entry_id: int) -> bool:
        line = self._line(entry_id)
        if line is None:
            return False
        words = self._board_words(line)
        if line.conflict and not self.ask_conflict(line, words):
            self.said.emit(
                _fill(self.tr("未确认：%1（%2 报送 %3）"), words, line.deputy, result_name(line.result))
            )
            self.list.setFocus()
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
        if line.recorded.is_pending:
            said = _fill(self.tr("已确认：%1：%2（%3 报送）"), words, result_name(line.result), line.deputy)
        else:
            said = _fill(
                self.tr("已确认：%1：%2 → %3（%4 报送）"),
                words,
                result_name(line.recorded),
                result_name(line.result),
                line.deputy,
            )
        self.said.emit(said)
        self.list.setFocus()
        guard_keys()  # Enter Enter confirms one entry: the next line is looked at before it is taken
        return True

    def ask_conflict(self, line: hall.PendingLine, words: str) -> bool:
        """An entry marked 冲突: replace the recorded result / choose this deputy's? Default: no."""
        if not line.recorded.is_pending and line.recorded is not line.result:
            question = (
                self.tr("%1 已录入 %2。改为 %3 报送的 %4 吗？")
                .replace("%1", words)
                .replace("%2", result_name(line.recorded))
                .replace("%3", line.deputy)
                .replace("%4", result_name(line.result))
            )
        else:
            question = (
                self.tr("%1：副裁判报送的结果不一致。确认 %2 报送的 %3 吗？（同台其他报送将作废）")
                .replace("%1", words)
                .replace("%2", line.deputy)
                .replace("%3", result_name(line.result))
            )
        return ask_guarded(self, self.tr("确认副裁判报送的成绩"), question, yes=self.tr("确认改动(&Y)"))

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
        self.said.emit(text)
        guard_keys()  # Delete Delete sets one entry aside, not two
        return True
