"""The rounds view's widgets and where they sit: round tabs, buttons, the entry box, the pairing
table, the records owed and the deputies' entries waiting. No behaviour: :class:`RoundsView`
(``view.py``) connects the widgets and acts; the board menu lives in ``board_actions.py``.

The strings are the rounds view's (translation context ``RoundsView``).
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QContextMenuEvent, QKeyEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTabBar,
    QTableView,
    QTreeWidget,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import GameResult
from app.ui.document import TournamentDocument
from app.ui.i18n import tr
from app.ui.models.pairings import NAME_COLUMNS, RESULT_COLUMN, PairingTableModel, result_name
from app.ui.views.pending import PendingPanel
from app.ui.widgets.message_line import MessageLine
from app.ui.widgets.result_entry import Reading, ResultEntry


def typed_text(event: QKeyEvent) -> bool:
    """A key that types text (digits, result keys, letters) without Ctrl or Alt."""
    modifiers = event.modifiers() & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)
    text = event.text()
    return not modifiers and bool(text) and text.isprintable()


class PairingTable(QTableView):
    """The pairing table. Typed keys are passed on (``typed``) to the entry box, never entered here."""

    typed = Signal(object)  # a copy of the QKeyEvent, for the entry box
    clear_requested = Signal(int)  # board whose result the arbiter asked to clear (Delete)
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
        if index.isValid() and self.model().index(index.row(), 0).data(Qt.ItemDataRole.UserRole) is not None:
            self.menu_requested.emit(index.row(), event.globalPos())  # a board (a bye has no menu)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if typed_text(event):
            self.typed.emit(QKeyEvent(event.type(), event.key(), event.modifiers(), event.text()))
            return
        index = self.currentIndex()
        plain = not event.modifiers() & (
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
        )
        if plain and index.isValid() and event.key() in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            board = self.model().index(index.row(), 0).data(Qt.ItemDataRole.UserRole)
            if board is not None:  # a bye or an excused player has no result to clear
                self.clear_requested.emit(int(board))
            return
        super().keyPressEvent(event)


class RoundsLayout(QWidget):
    """Builds the rounds view's widgets as attributes of the view; the view gives the behaviour.

    ``_boards`` and ``_describe`` (what the entry box reads) are the view's.
    """

    def __init__(self, document: TournamentDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = PairingTableModel(self)

        self.tabs = QTabBar(self)
        self.tabs.setExpanding(False)
        self.pair_button = self._button(tr("RoundsView", "编排下一轮"))
        self.unpair_button = self._button(tr("RoundsView", "撤销本轮编排"))
        self.unpair_button.setToolTip(tr("RoundsView", "只在本轮尚未录入任何成绩时可用"))
        self.close_button = self._button(tr("RoundsView", "结束本轮"))
        self.actions_button = self._button(tr("RoundsView", "本台操作…"))
        self.actions_button.setToolTip(tr("RoundsView", "调整编排、判负、犯规（也可在表格中按右键或菜单键）"))

        self.entry_box = ResultEntry(self._boards, self._describe, self)
        self.entry = self.entry_box.edit
        self.by_board_button = self._button(tr("RoundsView", "逐台录入 F4"))
        self.by_board_button.setCheckable(True)
        self.by_board_button.setToolTip(
            tr("RoundsView", "按结果键直接录入光标所在台，然后移到下一台（不输台次）；F4 或 Esc 退出")
        )
        self.next_label = QLabel(self)
        self.message = MessageLine(self)
        self.keys = QLabel(
            tr(
                "RoundsView",
                "1 红胜　0 黑胜　= 或 5 和　+ 黑弃权　- 红弃权　* 双弃权　↑↓ 换台　F4 逐台录入　Ctrl+Z 撤销",
            ),
            self,
        )
        self.keys.setStyleSheet("color: #555")

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
        header.setMinimumSectionSize(40)
        header.setSectionResizeMode(RESULT_COLUMN, QHeaderView.ResizeMode.Fixed)
        header.resizeSection(RESULT_COLUMN, self._result_width())
        # The names and units share the width left over (no empty band on the right).
        for column in NAME_COLUMNS:
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)

        self.owed = QTreeWidget(self)
        self.owed.setRootIsDecorated(False)
        self.owed.setHeaderLabels(
            [tr("RoundsView", "台次"), tr("RoundsView", "录谱人"), tr("RoundsView", "原因")]
        )
        self.owed.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        owed_header = self.owed.header()
        owed_header.setStretchLastSection(True)
        for column in (0, 1):
            owed_header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.owed_box = QGroupBox(tr("RoundsView", "本轮待交棋谱"), self)
        owed_layout = QVBoxLayout(self.owed_box)
        owed_layout.addWidget(self.owed)
        # The records owed follow the results; refreshed once after a run of entries, off the keystroke.
        self.owed_timer = QTimer(self)
        self.owed_timer.setSingleShot(True)
        self.owed_timer.setInterval(300)
        # deputies' results from the hall network wait under the records owed (shown only when some do)
        self.pending = PendingPanel(document, self)

        top = QHBoxLayout()
        top.addWidget(self.pair_button)
        top.addWidget(self.unpair_button)
        top.addWidget(self.close_button)
        top.addWidget(self.actions_button)
        top.addSpacing(16)
        top.addWidget(self.next_label)
        top.addStretch(1)
        entry_row = QHBoxLayout()
        entry_row.addWidget(QLabel(tr("RoundsView", "录入成绩："), self))
        entry_row.addWidget(self.entry_box, 1)
        entry_row.addWidget(self.by_board_button)
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
        layout.addLayout(entry_row)
        layout.addWidget(self.keys)
        layout.addWidget(self.message)
        layout.addWidget(splitter, 1)

    def _button(self, text: str) -> QPushButton:
        """A button reached by Tab, never by a click: a click (or Space) leaves the keyboard where it was."""
        button = QPushButton(text, self)
        button.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        return button

    def _result_width(self) -> int:
        metrics = self.table.fontMetrics()
        return max(72, *(metrics.horizontalAdvance(result_name(r)) + 20 for r in GameResult))

    # what the entry box reads: given by the view

    def _boards(self) -> list[int]:
        raise NotImplementedError

    def _describe(self, reading: Reading) -> str:
        raise NotImplementedError
