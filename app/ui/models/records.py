"""The boards of a round as the records view lists them: players, result, who records, the record."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor

from app.services.game_records import BoardRecord
from app.ui.i18n import tr, translate_noop
from app.ui.models.base import FixedColumnsModel, Index
from app.ui.models.pairings import result_label

RECORD_COLUMN = 5


class BoardRecordsModel(FixedColumnsModel):
    COLUMNS = (
        translate_noop("BoardRecordsModel", "台次"),
        translate_noop("BoardRecordsModel", "红方"),
        translate_noop("BoardRecordsModel", "结果"),
        translate_noop("BoardRecordsModel", "黑方"),
        translate_noop("BoardRecordsModel", "录谱人"),
        translate_noop("BoardRecordsModel", "棋谱"),
    )

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[BoardRecord] = []

    def set_lines(self, lines: list[BoardRecord]) -> None:
        self.beginResetModel()
        self._rows = list(lines)
        self.endResetModel()

    def line(self, row: int) -> BoardRecord:
        return self._rows[row]

    def row_of_board(self, board: int, game_no: int = 1) -> int | None:
        for row, line in enumerate(self._rows):
            if (line.board, line.game_no) == (board, game_no):
                return row
        return None

    def _record_text(self, line: BoardRecord) -> str:
        if line.received:
            return tr("BoardRecordsModel", "%1 回合").replace("%1", str(line.moves or 0))
        if line.recorder:
            return tr("BoardRecordsModel", "待交")
        return ""

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        line = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            board = str(line.board) if line.game_no == 1 else f"{line.board}-{line.game_no}"
            values = (board, line.red, result_label(line.result), line.black, line.recorder, "")
            return self._record_text(line) if col == RECORD_COLUMN else values[col]
        if role == Qt.ItemDataRole.ToolTipRole and col == 4 and line.reason:
            return line.reason
        if role == Qt.ItemDataRole.BackgroundRole and col == RECORD_COLUMN:
            if line.received:
                return QBrush(QColor("#e3f4e1"))
            if line.recorder:
                return QBrush(QColor("#fff6d5"))
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if col in (1, 3, 4):
                return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.UserRole:
            return line.board
        return None
