"""The pairing table of one round: board, Red (number, name, unit, score), result, Black, and for a
knockout board the game it is playing (决赛 第 2 局 快棋).

The boards come first; after them, as on the printed 对阵表, one row for the bye (轮空) and one for
each player excused from the round (请假): a player's number, name, unit and score, the word in the
result column, nothing else. Those rows are no board: no result is entered there.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor

from app.engine.knockout import short_title_zh
from app.engine.types import GameResult
from app.services.rounds import BoardLine, RoundView, Seat
from app.ui.i18n import current_language, tr, translate_noop
from app.ui.models.base import FixedColumnsModel, Index

RESULT_COLUMN = 5
GAME_COLUMN = 10  # the knockout game of the board (hidden in a round without knockout boards)
NAME_COLUMNS = (2, 3, 7, 8)  # 红方 单位 … 黑方 单位: the columns that take the spare width
_RED = QColor("#b22222")
_DISPLAY = int(Qt.ItemDataRole.DisplayRole)
_ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
_FOREGROUND = int(Qt.ItemDataRole.ForegroundRole)
_BACKGROUND = int(Qt.ItemDataRole.BackgroundRole)
_TOOLTIP = int(Qt.ItemDataRole.ToolTipRole)
_USER = int(Qt.ItemDataRole.UserRole)
_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
_CENTRE = int(Qt.AlignmentFlag.AlignCenter)
_LEFT_COLUMNS = frozenset({2, 3, 7, 8, GAME_COLUMN})
_ROLES = frozenset({_DISPLAY, _ALIGNMENT, _FOREGROUND, _BACKGROUND, _TOOLTIP, _USER})


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
        translate_noop("PairingTableModel", "对局"),
    )

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._boards: tuple[BoardLine, ...] = ()
        self._seats: tuple[tuple[Seat, str], ...] = ()  # (player, 轮空 / 请假), after the boards
        self._rows: tuple[BoardLine | tuple[Seat, str], ...] = ()
        self._texts: dict[int, tuple[str, ...]] = {}  # row -> its cells' words (_row_texts)
        self._texts_language = ""

    @staticmethod
    def _seats_of(view: RoundView) -> tuple[tuple[Seat, str], ...]:
        bye, excused = tr("PairingTableModel", "轮空"), tr("PairingTableModel", "请假")
        return tuple((s, bye) for s in view.byes) + tuple((s, excused) for s in view.excused)

    def set_round(self, view: RoundView | None) -> None:
        self.beginResetModel()
        self._boards = view.boards if view is not None else ()
        self._seats = self._seats_of(view) if view is not None else ()
        self._rows = self._boards + self._seats
        self._texts.clear()
        self.endResetModel()

    def update_round(self, view: RoundView) -> None:
        """Refresh results in place (same boards): cheaper than a reset and keeps the cursor."""
        seats = self._seats_of(view)
        if [b.board for b in view.boards] != [b.board for b in self._boards] or seats != self._seats:
            self.set_round(view)
            return
        changed = [i for i, (a, b) in enumerate(zip(self._boards, view.boards, strict=True)) if a != b]
        self._boards = view.boards
        self._rows = self._boards + self._seats
        for row in changed:
            self._texts.pop(row, None)
        for row in changed:
            self.dataChanged.emit(self.index(row, 0), self.index(row, len(self.COLUMNS) - 1))

    @property
    def lines(self) -> tuple[BoardLine, ...]:
        """The boards of the round (the rows before the byes and the excused)."""
        return self._boards

    @property
    def has_knockout(self) -> bool:
        return any(b.match is not None for b in self._boards)

    def is_board(self, row: int) -> bool:
        return 0 <= row < len(self._boards)

    def line(self, row: int) -> BoardLine:
        """The board of a board row (an ``IndexError`` for a bye or an excused player)."""
        if not self.is_board(row):
            raise IndexError(f"row {row} is not a board")
        return self._boards[row]

    def seat(self, row: int) -> tuple[Seat, str] | None:
        """The player of a bye or excused row and its word (轮空 / 请假); ``None`` for a board."""
        return self._seats[row - len(self._boards)] if len(self._boards) <= row < len(self._rows) else None

    def row_of_board(self, board: int) -> int | None:
        for row, line in enumerate(self._boards):
            if line.board == board:
                return row
        return None

    def header_extra(self, section: int, orientation: Qt.Orientation, role: int) -> Any:
        red_header = orientation == Qt.Orientation.Horizontal and section == 2
        return QBrush(_RED) if red_header and role == Qt.ItemDataRole.ForegroundRole else None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ROLES:  # fonts, size hints …: most of the calls a repaint makes
            return None
        row = index.row()  # -1 for an invalid index
        if not 0 <= row < len(self._rows):
            return None
        col = index.column()
        if role == _DISPLAY:  # the call a repaint and a column's width make for every cell
            texts = self._texts.get(row)
            if texts is None or self._texts_language != current_language():
                texts = self._row_texts(row)
            return texts[col]
        item = self._rows[row]
        if not isinstance(item, BoardLine):
            return self._seat_data(col, role)
        line = item
        if role == _ALIGNMENT:
            return _LEFT if col in _LEFT_COLUMNS else _CENTRE
        if role == _FOREGROUND and col == 2:
            return QBrush(_RED)
        if role == _BACKGROUND and col == RESULT_COLUMN and line.result.is_pending:
            return QBrush(QColor("#fff6d5"))
        if role == _TOOLTIP and col == RESULT_COLUMN and not line.result.is_pending:
            return result_name(line.result)
        if role == _USER:
            return line.board
        return None

    def _row_texts(self, row: int) -> tuple[str, ...]:
        """The words of a row's cells, in the interface language: made once per row and round shown
        (a column's width and every repaint ask for each of them)."""
        language = current_language()
        if self._texts_language != language:
            self._texts.clear()
            self._texts_language = language
        item = self._rows[row]
        if isinstance(item, BoardLine):
            line = item
            values: tuple[object, ...] = (
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
                game_label(line),
            )
        else:
            seat, word = item
            cells = {1: seat.no, 2: seat.name, 3: seat.unit, 4: score_label(seat.score), RESULT_COLUMN: word}
            values = tuple(cells.get(col, "") for col in range(len(self.COLUMNS)))
        texts = tuple(str(v) for v in values)
        self._texts[row] = texts
        return texts

    @staticmethod
    def _seat_data(col: int, role: int) -> Any:
        """A bye's or an excused player's row (its words are in the row's texts, _row_texts)."""
        if role == _ALIGNMENT:
            return _LEFT if col in (2, 3) else _CENTRE
        if role == _FOREGROUND:
            return QBrush(QColor("#555555"))
        return None  # no board: no UserRole, nothing to enter
