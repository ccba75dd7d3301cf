"""编排 Rounds: one tab per round, pairing the next round, and result entry from the keyboard.

Result entry: in the entry box type the board number and the result, e.g. ``12 1`` or ``121`` then
Enter (board 12, red wins); ``7=`` / ``7+`` / ``7-`` / ``7*`` are taken at once. A result key alone
(``1``) with Enter goes to the board under the cursor. In the table itself the result keys act on the
current row. After each result the cursor moves to the next board without one.

Keys: ``1`` red wins, ``0`` black wins, ``=`` or ``5`` draw, ``+`` black forfeits (red wins by
forfeit), ``-`` red forfeits, ``*`` both forfeit, Delete clears (in the table).
"""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QProgressDialog,
    QPushButton,
    QTabBar,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import GameResult, UserError
from app.services import rounds as rounds_service
from app.ui.document import TournamentDocument
from app.ui.models.pairings import RESULT_COLUMN, PairingTableModel
from app.ui.undo import EnterResultCommand, perform

RESULT_KEYS: dict[str, GameResult] = {
    "1": GameResult.RED_WIN,
    "0": GameResult.BLACK_WIN,
    "=": GameResult.DRAW,
    "5": GameResult.DRAW,
    "+": GameResult.BLACK_FORFEIT,
    "-": GameResult.RED_FORFEIT,
    "*": GameResult.DOUBLE_FORFEIT,
}
_AT_ONCE = re.compile(r"^\s*(\d+)\s*([=+\-*])\s*$|^\s*(\d+)[\s./]+([105])\s*$")
_ON_ENTER = re.compile(r"^\s*(\d*)[\s./]*([105=+\-*])\s*$")


def parse_entry(text: str, *, at_once: bool = False) -> tuple[int | None, GameResult] | None:
    """Read ``board`` + result key from the entry box; ``None`` board means the cursor's board.

    >>> parse_entry("121")
    (12, <GameResult.RED_WIN: 'red_win'>)
    >>> parse_entry("7+", at_once=True)
    (7, <GameResult.BLACK_FORFEIT: 'black_forfeit'>)
    >>> parse_entry("12", at_once=True) is None
    True
    """
    if at_once:
        m = _AT_ONCE.match(text)
        if not m:
            return None
        board, key = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        return int(board), RESULT_KEYS[key]
    m = _ON_ENTER.match(text)
    if not m:
        return None
    return (int(m.group(1)) if m.group(1) else None), RESULT_KEYS[m.group(2)]


class PairingTable(QTableView):
    """The pairing table; result keys on the current row enter that board's result."""

    result_key = Signal(int, object)  # board, GameResult

    def keyPressEvent(self, event: QKeyEvent) -> None:
        text = event.text()
        index = self.currentIndex()
        if index.isValid() and not event.modifiers() & (
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
        ):
            board = int(self.model().index(index.row(), 0).data(Qt.ItemDataRole.UserRole))
            if text in RESULT_KEYS:
                self.result_key.emit(board, RESULT_KEYS[text])
                return
            if event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
                self.result_key.emit(board, GameResult.PENDING)
                return
        super().keyPressEvent(event)


class RoundsView(QWidget):
    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.round_number = 0
        self.model = PairingTableModel(self)

        self.tabs = QTabBar(self)
        self.tabs.setExpanding(False)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.pair_button = QPushButton(self.tr("编排下一轮"), self)
        self.pair_button.clicked.connect(self.pair_next_round)
        if getattr(rounds_service, "pair_next_round", None) is None:
            self.pair_button.setEnabled(False)
            self.pair_button.setToolTip(self.tr("编排服务尚未安装"))
        self.close_button = QPushButton(self.tr("结束本轮"), self)
        self.close_button.clicked.connect(self.close_round)

        self.entry = QLineEdit(self)
        self.entry.setPlaceholderText(self.tr("台次+结果，如 12 1 回车"))
        self.entry.setClearButtonEnabled(True)
        self.entry.setMinimumWidth(240)
        self.entry.setMaximumWidth(280)
        self.entry.textEdited.connect(self._entry_edited)
        self.entry.returnPressed.connect(self._entry_committed)
        self.entry.installEventFilter(self)
        self.next_label = QLabel(self)
        self.message = QLabel(self)
        self.message.setWordWrap(True)
        keys = QLabel(
            self.tr("1 红胜　0 黑胜　= 或 5 和　+ 黑弃权　- 红弃权　* 双弃权　↑↓ 换台　Ctrl+Z 撤销"), self
        )
        keys.setStyleSheet("color: #555")

        self.table = PairingTable(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.setAlternatingRowColors(True)
        header = self.table.horizontalHeader()
        # Sized once per round shown (ResizeToContents would re-measure every row on each result).
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setMinimumSectionSize(48)
        header.setSectionResizeMode(RESULT_COLUMN, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(RESULT_COLUMN, 72)
        self.table.result_key.connect(self.enter)

        top = QHBoxLayout()
        top.addWidget(self.pair_button)
        top.addWidget(self.close_button)
        top.addSpacing(16)
        top.addWidget(QLabel(self.tr("录入成绩："), self))
        top.addWidget(self.entry)
        top.addWidget(self.next_label)
        top.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addLayout(top)
        layout.addWidget(keys)
        layout.addWidget(self.message)
        layout.addWidget(self.table, 1)

        document.changed.connect(self.refresh)
        document.group_changed.connect(lambda _name: self.reload())
        self.reload()

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        """Rebuild the round tabs for the current group and show its latest round."""
        summaries = rounds_service.rounds_of(self.document.db, self.document.group)
        self.tabs.blockSignals(True)
        while self.tabs.count():
            self.tabs.removeTab(0)
        for s in summaries:
            self.tabs.addTab(self.tr("第 %1 轮").replace("%1", str(s.number)))
        self.tabs.blockSignals(False)
        if summaries:
            self.tabs.setCurrentIndex(len(summaries) - 1)
            self.show_round(summaries[-1].number)
        else:
            self.round_number = 0
            self.model.set_round(None)
            self._update_controls()

    def _tab_changed(self, index: int) -> None:
        if index >= 0:
            self.show_round(index + 1)

    def show_round(self, number: int) -> None:
        self.round_number = number
        self.model.set_round(rounds_service.round_view(self.document.db, self.document.group, number))
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().resizeSection(RESULT_COLUMN, 72)
        self._move_to_next_empty(after=0)
        self._update_controls()

    def refresh(self) -> None:
        """After any change: new rounds get tabs, the shown round's results are updated in place."""
        count = len(rounds_service.rounds_of(self.document.db, self.document.group))
        if count != self.tabs.count():
            self.reload()
            return
        if self.round_number:
            self.model.update_round(
                rounds_service.round_view(self.document.db, self.document.group, self.round_number)
            )
        self._update_controls()

    def _update_controls(self) -> None:
        has_round = self.round_number > 0
        self.entry.setEnabled(has_round)
        self.close_button.setEnabled(has_round)
        pending = [
            self.model.line(r).board
            for r in range(self.model.rowCount())
            if self.model.line(r).result.is_pending
        ]
        if not has_round:
            self.next_label.setText(self.tr("尚未编排"))
        elif pending:
            self.next_label.setText(self.tr("未录入 %1 台").replace("%1", str(len(pending))))
        else:
            self.next_label.setText(self.tr("本轮成绩已全部录入"))

    # ------------------------------------------------------------------ actions

    def pair_next_round(self) -> None:
        pair = getattr(rounds_service, "pair_next_round", None)
        if pair is None:
            return
        busy = QProgressDialog(self.tr("正在编排……"), "", 0, 0, self)
        busy.setCancelButton(None)
        busy.setWindowModality(Qt.WindowModality.WindowModal)
        busy.setMinimumDuration(0)
        busy.show()
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        QApplication.processEvents()
        try:
            pair(self.document.db, self.document.group)
        except UserError as error:
            self.show_error(error)
        finally:
            QApplication.restoreOverrideCursor()
            busy.close()
        self.document.notify()
        self.reload()

    def close_round(self) -> None:
        try:
            rounds_service.close_round(self.document.db, self.document.group, self.round_number)
        except UserError as error:
            self.show_error(error)
            return
        self.message.setText(self.tr("第 %1 轮已结束").replace("%1", str(self.round_number)))
        self.document.notify()

    def enter(self, board: int, result: GameResult) -> bool:
        """Enter ``result`` on ``board`` of the shown round (undoable); moves to the next empty board."""
        row = self.model.row_of_board(board)
        if row is None:
            self.show_error(
                UserError(
                    self.tr("本轮没有第 %1 台").replace("%1", str(board)),
                )
            )
            return False
        before = self.model.line(row).result
        if before is result:
            self._move_to_next_empty(after=board)
            return True
        command = EnterResultCommand(self.document, self.document.group, self.round_number, board, result)
        try:
            perform(self.document, command)
        except UserError as error:
            if before.is_pending:
                self.show_error(error)
                return False
            reason, ok = QInputDialog.getText(
                self, self.tr("更正成绩"), self.tr("更正第 %1 台成绩的理由：").replace("%1", str(board))
            )
            if not ok or not reason.strip():
                self.show_error(error)
                return False
            command = EnterResultCommand(
                self.document, self.document.group, self.round_number, board, result, reason
            )
            try:
                perform(self.document, command)
            except UserError as again:
                self.show_error(again)
                return False
        self.message.setText("")
        self._move_to_next_empty(after=board)
        return True

    def _move_to_next_empty(self, *, after: int) -> None:
        rows = self.model.rowCount()
        if not rows:
            return
        start = self.model.row_of_board(after)
        start = -1 if start is None else start
        for step in range(1, rows + 1):
            row = (start + step) % rows
            if self.model.line(row).result.is_pending:
                break
        else:
            row = min(start + 1, rows - 1)
        index = self.model.index(row, RESULT_COLUMN)
        self.table.setCurrentIndex(index)
        self.table.scrollTo(index)

    def current_board(self) -> int | None:
        index = self.table.currentIndex()
        return self.model.line(index.row()).board if index.isValid() else None

    def _entry_edited(self, text: str) -> None:
        parsed = parse_entry(text, at_once=True)
        if parsed is not None:
            self._commit_entry(parsed)

    def _entry_committed(self) -> None:
        text = self.entry.text()
        if not text.strip():
            return
        parsed = parse_entry(text)
        if parsed is None:
            self.show_error(UserError(self.tr("无法识别“%1”：请输入台次和结果，如 12 1").replace("%1", text)))
            self.entry.selectAll()
            return
        self._commit_entry(parsed)

    def _commit_entry(self, parsed: tuple[int | None, GameResult]) -> None:
        board, result = parsed
        if board is None:
            board = self.current_board()
            if board is None:
                return
        if self.enter(board, result):
            self.entry.clear()
        else:
            self.entry.selectAll()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Up/Down in the entry box move the table's cursor, so the arbiter never leaves the box."""
        if watched is self.entry and event.type() == QEvent.Type.KeyPress:
            key = QKeyEvent(event).key() if not isinstance(event, QKeyEvent) else event.key()
            if key in (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
                QApplication.sendEvent(
                    self.table, QKeyEvent(event.type(), key, Qt.KeyboardModifier.NoModifier)
                )
                return True
        return super().eventFilter(watched, event)

    def show_error(self, error: UserError) -> None:
        from app.ui.i18n import current_language

        text = error.en if current_language() == "en" else error.zh
        self.message.setText(f"<span style='color:#b22222'>{text}</span>")

    def focus_entry(self) -> None:
        self.entry.setFocus()
