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
from collections.abc import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QContextMenuEvent, QKeyEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMenu,
    QMessageBox,
    QProgressDialog,
    QPushButton,
    QSplitter,
    QTabBar,
    QTableView,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import GameResult, UserError, ViolationKind
from app.services import discipline, records
from app.services import rounds as rounds_service
from app.services.overrides import OverridePreview, SetPair, SwapColours, SwapPlayers, preview_override
from app.services.registration import list_players
from app.services.rounds import RoundView, Seat
from app.ui.document import TournamentDocument
from app.ui.i18n import current_language, tr, translate_noop
from app.ui.models.pairings import NAME_COLUMNS, RESULT_COLUMN, PairingTableModel
from app.ui.undo import (
    Change,
    DisqualifyCommand,
    EnterResultCommand,
    GameDecisionCommand,
    OverrideCommand,
    PairRoundCommand,
    ServiceCommand,
    UnpairRoundCommand,
    ViolationCommand,
    WithdrawCommand,
    perform,
)
from app.ui.views.pending import PendingPanel

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
_ROUND_AND_BOARD = re.compile(r"^第\s*\d+\s*轮第\s*\d+\s*台[：:]\s*")
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
    menu_requested = Signal(int, QPoint)  # row, global position (mouse or the Menu key)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._reveal_pending = False

    def reveal_current(self) -> None:
        """Show the top of the table with the cursor row in view (it fits unless far down the round).

        A round just opened shows boards 1, 2, 3 … even when the cursor waits on board 4; scrolling
        only as far as needed for the cursor. Before the table has its real size (a view not shown
        yet) this waits for the resize that gives it one.
        """
        self._reveal_pending = True
        self._reveal()

    def _reveal(self) -> None:
        if not self.isVisible() or self.viewport().height() < self.verticalHeader().defaultSectionSize():
            return
        self._reveal_pending = False
        self.scrollToTop()
        if self.currentIndex().isValid():
            self.scrollTo(self.currentIndex(), QAbstractItemView.ScrollHint.EnsureVisible)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self._reveal_pending:
            self._reveal()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._reveal_pending:
            self._reveal()

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        if event.reason() == QContextMenuEvent.Reason.Mouse:
            index = self.indexAt(event.pos())
            if index.isValid():
                self.setCurrentIndex(index)
        else:
            index = self.currentIndex()
        if index.isValid():
            self.menu_requested.emit(index.row(), event.globalPos())

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


#: Violations the arbiter may record with 记犯规 (the others have their own actions).
VIOLATION_CHOICES = (
    ViolationKind.OTHER,
    ViolationKind.REFUSED_RECORD,
    ViolationKind.SHORT_DRAW_RECORD,
    ViolationKind.LATE,
    ViolationKind.LEFT_TABLE,
    ViolationKind.PHONE,
)
_VIOLATION_NAMES = {
    ViolationKind.OTHER: translate_noop("Violations", "其他犯规"),
    ViolationKind.REFUSED_RECORD: translate_noop("Violations", "拒不录谱"),
    ViolationKind.SHORT_DRAW_RECORD: translate_noop("Violations", "和棋录谱不足回合"),
    ViolationKind.LATE: translate_noop("Violations", "迟到"),
    ViolationKind.LEFT_TABLE: translate_noop("Violations", "擅自离席"),
    ViolationKind.PHONE: translate_noop("Violations", "手机带入赛场"),
}


def violation_name(kind: ViolationKind) -> str:
    return tr("Violations", _VIOLATION_NAMES[kind]) if kind in _VIOLATION_NAMES else kind.zh


def _fill(text: str, *values: object) -> str:
    for i, value in enumerate(values, start=1):
        text = text.replace(f"%{i}", str(value))
    return text


class OverrideDialog(QDialog):
    """The pairing after a manual change, the rules it breaks, and the arbiter's reason.

    The reason is required when a rule breaks (the service refuses otherwise); OK stays disabled
    until one is typed.
    """

    def __init__(self, title: str, lines: Sequence[str], breaks: Sequence[str], parent: QWidget) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("改动后的对阵："), self))
        layout.addWidget(QLabel("\n".join(lines) or "—", self))
        self.needs_reason = bool(breaks)
        if breaks:
            warning = QLabel(
                "<span style='color:#b22222'>"
                + self.tr("此改动违反编排规则：")
                + "<br>"
                + "<br>".join(f"• {b}" for b in breaks)
                + "</span>",
                self,
            )
            warning.setWordWrap(True)
            layout.addWidget(warning)
        self.reason = QLineEdit(self)
        self.reason.setPlaceholderText(
            self.tr("理由（违反规则时必填）") if breaks else self.tr("理由（可不填）")
        )
        layout.addWidget(self.reason)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText(self.tr("确认改动"))
        self.reason.textChanged.connect(self._reason_changed)
        self._reason_changed("")
        layout.addWidget(buttons)

    def _reason_changed(self, text: str) -> None:
        self.ok.setEnabled(not self.needs_reason or bool(text.strip()))


class RoundsView(QWidget):
    """The round tabs, the pairing table, keyboard result entry, pairing edits and discipline.

    Pairing runs in the GUI thread behind a busy dialog and a wait cursor, not in a ``QThread``:
    every action must be a synchronous ``QUndoCommand.redo`` (redo of a pairing pairs again with
    the same seed), the database session is opened and committed inside the service call, and the
    measured pairing of 160 players takes well under a second.

    Dialogs go through the ``ask_*``/``confirm_*`` methods so tests can answer them.
    """

    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self.round_number = 0
        self.view: RoundView | None = None
        self.model = PairingTableModel(self)

        self.tabs = QTabBar(self)
        self.tabs.setExpanding(False)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.pair_button = QPushButton(self.tr("编排下一轮"), self)
        self.pair_button.clicked.connect(self.pair_next_round)
        self.unpair_button = QPushButton(self.tr("撤销本轮编排"), self)
        self.unpair_button.setToolTip(self.tr("只在本轮尚未录入任何成绩时可用"))
        self.unpair_button.clicked.connect(self.unpair_round)
        self.close_button = QPushButton(self.tr("结束本轮"), self)
        self.close_button.clicked.connect(self.close_round)
        self.actions_button = QPushButton(self.tr("本台操作…"), self)
        self.actions_button.setToolTip(self.tr("调整编排、判负、犯规（也可在表格中按右键或菜单键）"))
        self.actions_button.clicked.connect(self._menu_for_current_row)

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
        # The names and units share the width left over (no empty band on the right).
        for column in NAME_COLUMNS:
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
        self.table.result_key.connect(self.enter)
        self.table.menu_requested.connect(self._show_menu)

        self.owed = QTreeWidget(self)
        self.owed.setRootIsDecorated(False)
        self.owed.setHeaderLabels([self.tr("台次"), self.tr("录谱人"), self.tr("原因")])
        self.owed.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        owed_header = self.owed.header()
        owed_header.setStretchLastSection(True)
        for column in (0, 1):
            owed_header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.owed_box = QGroupBox(self.tr("本轮待交棋谱"), self)
        owed_layout = QVBoxLayout(self.owed_box)
        owed_layout.addWidget(self.owed)
        # The records owed follow the results; refreshed once after a run of entries, off the keystroke.
        self.owed_timer = QTimer(self)
        self.owed_timer.setSingleShot(True)
        self.owed_timer.setInterval(300)
        self.owed_timer.timeout.connect(self._update_owed)

        top = QHBoxLayout()
        top.addWidget(self.pair_button)
        top.addWidget(self.unpair_button)
        top.addWidget(self.close_button)
        top.addWidget(self.actions_button)
        top.addSpacing(16)
        top.addWidget(QLabel(self.tr("录入成绩："), self))
        top.addWidget(self.entry)
        top.addWidget(self.next_label)
        top.addStretch(1)
        # deputies' results from the hall network wait under the records owed (shown only when some do)
        self.pending = PendingPanel(document, self)
        side = QSplitter(Qt.Orientation.Vertical, self)
        side.addWidget(self.owed_box)
        side.addWidget(self.pending)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self.table)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 4)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([820, 340])
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addLayout(top)
        layout.addWidget(keys)
        layout.addWidget(self.message)
        layout.addWidget(splitter, 1)

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
            self.view = None
            self.model.set_round(None)
            self._update_controls()
            self.pending.set_round(0)

    def _tab_changed(self, index: int) -> None:
        if index >= 0:
            self.show_round(index + 1)

    def show_round(self, number: int) -> None:
        self.round_number = number
        self.view = rounds_service.round_view(self.document.db, self.document.group, number)
        self.model.set_round(self.view)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().resizeSection(RESULT_COLUMN, 72)
        self._move_to_next_empty(after=0)
        self.table.reveal_current()
        self._update_controls()
        self.pending.set_round(number)

    def refresh(self) -> None:
        """After any change: new rounds get tabs, the shown round's results are updated in place."""
        count = len(rounds_service.rounds_of(self.document.db, self.document.group))
        if count != self.tabs.count():
            self.reload()
            return
        if self.round_number:
            self.view = rounds_service.round_view(self.document.db, self.document.group, self.round_number)
            self.model.update_round(self.view)
        self._update_controls()

    def _update_controls(self) -> None:
        has_round = self.round_number > 0
        self.entry.setEnabled(has_round)
        self.close_button.setEnabled(has_round)
        self.actions_button.setEnabled(has_round and self.model.rowCount() > 0)
        pending = [
            self.model.line(r).board
            for r in range(self.model.rowCount())
            if self.model.line(r).result.is_pending
        ]
        swiss = [b for b in self.view.boards if b.match is None] if self.view else []
        self.unpair_button.setEnabled(
            self.view is not None
            and not self.view.closed
            and self.round_number == self.tabs.count()
            and bool(swiss or self.view.byes)
            and all(b.result.is_pending for b in swiss)
        )
        if not has_round:
            self.next_label.setText(self.tr("尚未编排"))
        elif pending:
            self.next_label.setText(self.tr("未录入 %1 台").replace("%1", str(len(pending))))
        else:
            self.next_label.setText(self.tr("本轮成绩已全部录入"))
        self.owed_timer.start()

    def _update_owed(self) -> None:
        self.owed.clear()
        if not self.round_number:
            self.owed_box.setTitle(self.tr("本轮待交棋谱"))
            return
        try:
            owed = records.records_owed(self.document.db, self.document.group, self.round_number)
        except UserError:
            owed = []
        for line in owed:
            # "第4轮第1台：" repeats the round and the board shown beside it; the tooltip has it all
            reason = _ROUND_AND_BOARD.sub("", line.reason)
            item = QTreeWidgetItem([str(line.board), f"{line.recorder_no} {line.recorder_name}", reason])
            item.setToolTip(2, line.reason)
            item.setData(0, Qt.ItemDataRole.UserRole, line.board)
            self.owed.addTopLevelItem(item)
        self.owed_box.setTitle(self.tr("本轮待交棋谱（%1）").replace("%1", str(len(owed))))

    # ------------------------------------------------------------------ dialogs (tests answer these)

    def ask_text(self, title: str, label: str) -> str | None:
        text, ok = QInputDialog.getText(self, title, label)
        return text.strip() if ok else None

    def ask_number(self, title: str, label: str) -> int | None:
        value, ok = QInputDialog.getInt(self, title, label, 1, 1, 9999)
        return value if ok else None

    def ask_choice(self, title: str, label: str, items: Sequence[str]) -> int | None:
        chosen, ok = QInputDialog.getItem(self, title, label, list(items), 0, False)
        return list(items).index(chosen) if ok else None

    def confirm_override(self, title: str, preview: OverridePreview) -> str | None:
        """The reason for the change, or ``None`` when the arbiter cancels."""
        names = self._names()
        lines = [
            _fill(
                self.tr("第 %1 台：%2 %3 — %4 %5"),
                board,
                red,
                names.get(red, ""),
                black,
                names.get(black, ""),
            )
            for board, red, black in preview.games
            if board in preview.changed_boards
        ]
        lines += [_fill(self.tr("轮空：%1 %2"), no, names.get(no, "")) for no in preview.byes]
        english = current_language() == "en"
        dialog = OverrideDialog(title, lines, [b.en if english else b.zh for b in preview.breaks], self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.reason.text().strip()

    def confirm_refusals(self, lines: Sequence[str]) -> bool:
        answer = QMessageBox.question(
            self,
            self.tr("结束本轮"),
            self.tr("以下棋谱未交，结束本轮将记为拒不录谱（犯规）：") + "\n" + "\n".join(lines),
        )
        return answer == QMessageBox.StandardButton.Yes

    def inform(self, title: str, text: str) -> None:
        QMessageBox.information(self, title, text)

    # ------------------------------------------------------------------ actions

    def pair_next_round(self) -> None:
        busy = QProgressDialog(self.tr("正在编排……"), "", 0, 0, self)
        busy.setCancelButton(None)
        busy.setWindowModality(Qt.WindowModality.WindowModal)
        busy.setMinimumDuration(0)
        busy.show()
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        QApplication.processEvents()
        command = PairRoundCommand(self.document, self.document.group)
        try:
            perform(self.document, command)
        except UserError as error:
            self.show_error(error)
            return
        finally:
            QApplication.restoreOverrideCursor()
            busy.close()
            busy.deleteLater()
            self.window().activateWindow()  # the busy dialog took the activation (and the shortcuts)
        outcome = command.outcome
        assert outcome is not None
        parts = [
            _fill(self.tr("第 %1 轮已编排：%2 台，随机种子 %3"), outcome.number, outcome.boards, outcome.seed)
        ]
        if outcome.bye is not None:
            parts.append(_fill(self.tr("轮空：%1 号"), outcome.bye))
        if outcome.withdrawn:
            parts.append(
                _fill(self.tr("因连续弃权退赛：%1 号"), "、".join(str(no) for no in outcome.withdrawn))
            )
        text = "；".join(parts)
        if outcome.backup_warning:
            text += f"<br><span style='color:#b22222'>{outcome.backup_warning}</span>"
        self.message.setText(text)

    def unpair_round(self) -> None:
        if not self.round_number:
            return
        command = UnpairRoundCommand(self.document, self.document.group, self.round_number)
        number = self.round_number
        try:
            perform(self.document, command)
        except UserError as error:
            self.show_error(error)
            return
        self.message.setText(_fill(self.tr("第 %1 轮编排已撤销（Ctrl+Z 恢复）"), number))

    def close_round(self) -> None:
        group, number = self.document.group, self.round_number
        try:
            if not any(self.model.line(r).result.is_pending for r in range(self.model.rowCount())):
                refusals = records.refusals_at_close(self.document.db, group, number)
                if refusals:
                    names = self._names()
                    lines = [
                        _fill(
                            self.tr("第 %1 台 %2 %3：%4"),
                            v.board,
                            v.player_no,
                            names.get(v.player_no, ""),
                            v.reason,
                        )
                        for v in refusals
                    ]
                    if not self.confirm_refusals(lines):
                        return
                    records.confirm_refusals(self.document.db, group, number)
            warning = rounds_service.close_round(self.document.db, group, number)
        except UserError as error:
            self.show_error(error)
            return
        text = self.tr("第 %1 轮已结束").replace("%1", str(number))
        if warning:
            text += f"<br><span style='color:#b22222'>{warning}</span>"
        self.message.setText(text)
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
            if not self._perform(command):
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

    # ------------------------------------------------------------------ the board's menu

    def _names(self) -> dict[int, str]:
        names: dict[int, str] = {}
        if self.view is not None:
            for line in self.view.boards:
                names[line.red.no], names[line.black.no] = line.red.name, line.black.name
            for seat in self.view.byes:
                names[seat.no] = seat.name
        return names

    def _menu_for_current_row(self) -> None:
        index = self.table.currentIndex()
        if index.isValid():
            rect = self.table.visualRect(index)
            self._show_menu(index.row(), self.table.viewport().mapToGlobal(rect.center()))

    def _show_menu(self, row: int, where: QPoint) -> None:
        self.board_menu(row).exec(where)

    def board_menu(self, row: int) -> QMenu:
        """The actions on one board: pairing edits, explanations and discipline for Red and Black."""
        line = self.model.line(row)
        menu = QMenu(self)
        swiss = line.match is None
        open_round = self.view is not None and not self.view.closed

        def add(target: QMenu, name: str, text: str, slot: Callable[[], None], enabled: bool = True) -> None:
            action = QAction(text, target)
            action.setObjectName(name)
            action.setEnabled(enabled)
            action.triggered.connect(lambda _checked=False: slot())
            target.addAction(action)

        add(
            menu,
            "swap_colours",
            self.tr("交换先后手"),
            lambda: self.swap_colours(line.board),
            swiss and open_round,
        )
        add(
            menu,
            "agreed_result",
            self.tr("协商结果（双方弃权）…"),
            lambda: self.agreed_result(line.board),
            open_round,
        )
        for side, seat in (("red", line.red), ("black", line.black)):
            label = self.tr("红方") if side == "red" else self.tr("黑方")
            sub = menu.addMenu(f"{label}：{seat.no} {seat.name}")
            sub.setObjectName(side)
            add(
                sub,
                f"{side}:why",
                self.tr("为什么是这个对手/这个颜色"),
                lambda s=seat: self.explain(s.no),
                swiss,
            )
            sub.addSeparator()
            add(
                sub,
                f"{side}:swap",
                self.tr("交换两名棋手…"),
                lambda s=seat: self.swap_players(s.no),
                swiss and open_round,
            )
            add(
                sub,
                f"{side}:set_pair",
                self.tr("指定对阵…"),
                lambda s=seat: self.set_pair(s.no),
                swiss and open_round,
            )
            sub.addSeparator()
            for kind, text in (
                (ViolationKind.LATE, self.tr("迟到判负…")),
                (ViolationKind.LEFT_TABLE, self.tr("离席判负…")),
                (ViolationKind.PHONE, self.tr("手机判负…")),
            ):
                add(
                    sub,
                    f"{side}:{kind.value}",
                    text,
                    lambda s=seat, k=kind: self.forfeit(s, line.board, k),
                    open_round,
                )
            add(sub, f"{side}:violation", self.tr("记犯规…"), lambda s=seat: self.record_violation(s))
            sub.addSeparator()
            add(sub, f"{side}:withdraw", self.tr("退赛…"), lambda s=seat: self.withdraw(s))
            add(sub, f"{side}:disqualify", self.tr("取消成绩…"), lambda s=seat: self.disqualify(s))
        return menu

    # ------------------------------------------------------------------ pairing edits

    def edit_pairing(self, change: Change, text: str) -> bool:
        """Preview ``change``, show the pairing after it and any broken rules, apply it on OK (undoable)."""
        group, number = self.document.group, self.round_number
        try:
            preview = preview_override(self.document.db, group, number, change)
        except UserError as error:
            self.show_error(error)
            return False
        reason = self.confirm_override(text, preview)
        if reason is None:
            return False
        command = OverrideCommand(
            self.document, group, number, change, text, reason=reason, confirm=bool(preview.breaks)
        )
        if not self._perform(command):
            return False
        self.message.setText(
            _fill(self.tr("%1：已改动第 %2 台"), text, "、".join(map(str, preview.changed_boards)))
        )
        return True

    def swap_colours(self, board: int) -> bool:
        return self.edit_pairing(SwapColours(board), _fill(self.tr("第 %1 台交换先后手"), board))

    def swap_players(self, no: int) -> bool:
        other = self.ask_number(self.tr("交换两名棋手"), _fill(self.tr("与 %1 号交换位置的棋手序号："), no))
        if other is None:
            return False
        return self.edit_pairing(SwapPlayers(no, other), _fill(self.tr("交换 %1 号与 %2 号"), no, other))

    def set_pair(self, no: int) -> bool:
        other = self.ask_number(self.tr("指定对阵"), _fill(self.tr("%1 号的对手（序号）："), no))
        if other is None:
            return False
        return self.edit_pairing(SetPair(no, other), _fill(self.tr("指定 %1 号对 %2 号"), no, other))

    def explain(self, no: int) -> None:
        try:
            text = rounds_service.pairing_explanation(
                self.document.db, self.document.group, self.round_number, no
            )
        except UserError as error:
            self.show_error(error)
            return
        self.inform(self.tr("编排说明"), f"{no} {self._names().get(no, '')}\n{text}")

    def _perform(self, command: ServiceCommand) -> bool:
        """Run an undoable action; a refusal is shown below the table and nothing is pushed."""
        try:
            perform(self.document, command)
        except UserError as error:
            self.show_error(error)
            return False
        return True

    # ------------------------------------------------------------------ discipline

    def _decide_game(self, board: int, action: Callable[[], object], text: str) -> bool:
        command = GameDecisionCommand(
            self.document, self.document.group, self.round_number, board, action, text
        )
        if not self._perform(command):
            return False
        self.message.setText(text)
        return True

    def forfeit(self, seat: Seat, board: int, kind: ViolationKind) -> bool:
        reason = self.ask_text(
            violation_name(kind), _fill(self.tr("%1 号 %2 判负的理由："), seat.no, seat.name)
        )
        if reason is None:
            return False
        group, number, db = self.document.group, self.round_number, self.document.db
        text = _fill(self.tr("第 %1 轮 %2 号 %3：%4判负"), number, seat.no, seat.name, violation_name(kind))
        return self._decide_game(
            board, lambda: discipline.forfeit(db, group, number, seat.no, kind, reason), text
        )

    def agreed_result(self, board: int) -> bool:
        reason = self.ask_text(
            self.tr("协商结果（双方弃权）"), _fill(self.tr("第 %1 台判双方弃权的理由："), board)
        )
        if reason is None:
            return False
        group, number, db = self.document.group, self.round_number, self.document.db
        text = _fill(self.tr("第 %1 轮第 %2 台：双方弃权"), number, board)
        return self._decide_game(
            board, lambda: discipline.agreed_result(db, group, number, board, reason), text
        )

    def record_violation(self, seat: Seat) -> bool:
        """记犯规: counted where its kind counts; undoable (undo removes it, logged)."""
        chosen = self.ask_choice(
            self.tr("记犯规"),
            _fill(self.tr("%1 号 %2 的犯规类型："), seat.no, seat.name),
            [violation_name(k) for k in VIOLATION_CHOICES],
        )
        if chosen is None:
            return False
        kind = VIOLATION_CHOICES[chosen]
        reason = self.ask_text(self.tr("记犯规"), self.tr("犯规的理由："))
        if reason is None:
            return False
        text = _fill(self.tr("已记录 %1 号 %2 犯规：%3"), seat.no, seat.name, violation_name(kind))
        command = ViolationCommand(
            self.document, self.document.group, seat.no, self.round_number, kind.value, reason, text
        )
        if not self._perform(command):
            return False
        self.message.setText(text)
        return True

    def _player_id(self, no: int) -> int | None:
        for player in list_players(self.document.db, self.document.group):
            if player.no == no:
                return player.id
        return None

    def withdraw(self, seat: Seat) -> bool:
        reason = self.ask_text(self.tr("退赛"), _fill(self.tr("%1 号 %2 退赛的理由："), seat.no, seat.name))
        if reason is None:
            return False
        player_id = self._player_id(seat.no)
        if player_id is None:
            return False
        text = _fill(self.tr("%1 号 %2 退赛"), seat.no, seat.name)
        if not self._perform(WithdrawCommand(self.document, player_id, reason, text)):
            return False
        self.message.setText(text)
        return True

    def disqualify(self, seat: Seat) -> bool:
        """取消成绩 with the arbiter's choice for the games played; undoable (undo lifts it, logged)."""
        choices = [self.tr("已赛对局成绩有效"), self.tr("已赛对局作废（对手按弃权胜计）")]
        chosen = self.ask_choice(
            self.tr("取消成绩"),
            _fill(self.tr("取消 %1 号 %2 的成绩："), seat.no, seat.name),
            choices,
        )
        if chosen is None:
            return False
        reason = self.ask_text(self.tr("取消成绩"), self.tr("取消成绩的理由："))
        if reason is None:
            return False
        text = _fill(self.tr("已取消 %1 号 %2 的成绩"), seat.no, seat.name)
        command = DisqualifyCommand(
            self.document, self.document.group, seat.no, ("stand", "annul")[chosen], reason, text
        )
        if not self._perform(command):
            return False
        self.message.setText(text)
        return True
