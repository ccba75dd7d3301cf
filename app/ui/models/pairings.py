"""The pairing table of one round: board, Red (number, name, unit, score), result, Black."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor

from app.engine.knockout import short_title_zh
from app.engine.types import GameResult
from app.services.rounds import BoardLine, RoundView
from app.ui.i18n import current_language, tr, translate_noop
from app.ui.models.base import FixedColumnsModel, Index

RESULT_COLUMN = 5
NAME_COLUMNS = (2, 3, 7, 8)  # 红方 单位 … 黑方 单位: the columns that take the spare width
_RED = QColor("#b22222")
_ROLES = frozenset(
    {
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.TextAlignmentRole,
        Qt.ItemDataRole.ForegroundRole,
        Qt.ItemDataRole.BackgroundRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.UserRole,
    }
)


_RESULT_NAMES = {
    GameResult.RED_WIN: translate_noop("GameResult", "红胜"),
    GameResult.BLACK_WIN: translate_noop("GameResult", "黑胜"),
    GameResult.DRAW: translate_noop("GameResult", "和"),
    GameResult.BLACK_FORFEIT: translate_noop("GameResult", "黑弃权"),
    GameResult.RED_FORFEIT: translate_noop("GameResult", "红弃权"),
    GameResult.DOUBLE_FORFEIT: translate_noop("GameResult", "双弃权"),
    GameResult.PENDING: translate_noop("GameResult", "未录入"),
}


def result_name(result: GameResult) -> str:
    """The result in words, in the interface language."""
    return tr("GameResult", _RESULT_NAMES[result])


def result_label(result: GameResult) -> str:
    """The result as the printed documents say it (红胜, 和, 黑弃权 …; English in the English
    window), empty when pending: one vocabulary for the window and the paper."""
    return "" if result.is_pending else result_name(result)


_GAME_KINDS = {
    "slow": translate_noop("GameKind", "慢棋"),
    "rapid": translate_noop("GameKind", "快棋"),
    "deciding": translate_noop("GameKind", "附加赛"),
}


def game_label(line: BoardLine) -> str:
    """Which game of a knockout match a board is playing: 决赛 第 2 局 快棋 ("" for a Swiss game)."""
    if line.match is None:
        return ""
    english = current_language() == "en"
    match = line.match if english else short_title_zh(line.match)
    kind = tr("GameKind", _GAME_KINDS.get(line.kind, line.kind))
    return (
        tr("GameKind", "%1 第 %2 局 %3")
        .replace("%1", match)
        .replace("%2", str(line.game_no))
        .replace("%3", kind)
    )


def score_label(score: int) -> str:
    return str(score)


class PairingTableModel(FixedColumnsModel):
    COLUMNS = (
        translate_noop("PairingTableModel", "台次"),
        translate_noop("PairingTableModel", "序号"),
        translate_noop("PairingTableModel", "红方"),
        translate_noop("PairingTableModel", "单位"),
        translate_noop("PairingTableModel", "积分"),
        translate_noop("PairingTableModel", "结果"),
        translate_noop("PairingTableModel", "积分"),
        translate_noop("PairingTableModel", "黑方"),
        translate_noop("PairingTableModel", "单位"),
        translate_noop("PairingTableModel", "序号"),
    )

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: tuple[BoardLine, ...] = ()

    def set_round(self, view: RoundView | None) -> None:
        self.beginResetModel()
        self._rows = view.boards if view is not None else ()
        self.endResetModel()

    def update_round(self, view: RoundView) -> None:
        """Refresh results in place (same boards): cheaper than a reset and keeps the cursor."""
        if [b.board for b in view.boards] != [b.board for b in self._rows]:
            self.set_round(view)
            return
        changed = [i for i, (a, b) in enumerate(zip(self._rows, view.boards, strict=True)) if a != b]
        self._rows = view.boards
        for row in changed:
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.COLUMNS) - 1))

    def line(self, row: int) -> BoardLine:
        return self._rows[row]

    def row_of_board(self, board: int) -> int | None:
        for row, line in enumerate(self._rows):
            if line.board == board:
                return row
        return None

    def header_extra(self, section: int, orientation: Qt.Orientation, role: int) -> Any:
        red_header = orientation == Qt.Orientation.Horizontal and section == 2
        return QBrush(_RED) if red_header and role == Qt.ItemDataRole.ForegroundRole else None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ROLES:  # fonts, size hints …: most of the calls a repaint makes
            return None
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        line = self._rows[index.row()]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            values = (
                line.board,
                line.red.no,
                line.red.name,
                line.red.unit,
                score_label(line.red.score),
                result_label(line.result),
                score_label(line.black.score),
                line.black.name,
                line.black.unit,
                line.black.no,
            )
            return str(values[col])
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if col in (2, 3, 7, 8):
                return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col == 2:
            return QBrush(_RED)
        if role == Qt.ItemDataRole.BackgroundRole and col == RESULT_COLUMN and line.result.is_pending:
            return QBrush(QColor("#fff6d5"))
        if role == Qt.ItemDataRole.ToolTipRole and col == RESULT_COLUMN and not line.result.is_pending:
            return result_name(line.result)
        if role == Qt.ItemDataRole.UserRole:
            return line.board
        return None
