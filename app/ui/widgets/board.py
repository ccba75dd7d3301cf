"""A Xiangqi board to enter a game: click a piece then its target, or type the move.

:class:`BoardWidget` paints the board (grid, river, palaces) and the pieces with the app font, Red at
the bottom. Clicking one of the mover's pieces selects it and marks its legal targets (from the
engine); clicking a marked target makes the move, any other square is refused. :class:`GameEditor`
puts the board next to a notation box (Chinese ``炮二平五``, WXF ``C2=5`` or ICCS ``h2e2``, with
completion of the legal moves in Chinese), the move list and an undo button.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, QStringListModel, Qt, Signal
from PySide6.QtGui import QColor, QFont, QMouseEvent, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import (
    QCompleter,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from app.engine.types import Colour, GameResult, UserError
from app.engine.xiangqi import START_FEN, Board, GameRecord, Move, PieceType, format_chinese, parse_move
from app.engine.xiangqi.record import move_number

PIECE_NAMES: dict[Colour, dict[PieceType, str]] = {
    Colour.RED: dict(zip(PieceType, "帅仕相马车炮兵", strict=True)),
    Colour.BLACK: dict(zip(PieceType, "将士象马车炮卒", strict=True)),
}
_WOOD = QColor("#e8c27a")
_LINE = QColor("#4a3010")
_RED = QColor("#c00000")
_FACE = QColor("#fbf3dc")
_SELECTED = QColor(40, 120, 220, 110)
_TARGET = QColor(40, 160, 60, 170)
_LAST = QColor(40, 120, 220, 60)


class BoardWidget(QWidget):
    """The board of one game being entered; ``moves_changed`` after every move made or taken back."""

    moves_changed = Signal()
    move_refused = Signal(str)  # why a click was refused

    def __init__(self, parent: QWidget | None = None, fen: str = START_FEN) -> None:
        super().__init__(parent)
        self.board = Board(fen)
        self.start_fen = self.board.fen()
        self.selected: int | None = None
        self.setMinimumSize(QSize(270, 300))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)

    # ------------------------------------------------------------------ the game

    @property
    def moves(self) -> tuple[Move, ...]:
        return tuple(self.board.move_stack)

    def set_game(self, moves: tuple[Move, ...] = (), fen: str = START_FEN) -> None:
        """Start again from ``fen`` and replay ``moves`` (checked by the engine)."""
        board = Board(fen)
        for move in moves:
            board.push(move)
        self.board, self.start_fen, self.selected = board, Board(fen).fen(), None
        self.update()
        self.moves_changed.emit()

    def record(self, result: GameResult = GameResult.PENDING) -> GameRecord:
        return GameRecord(moves=self.moves, result=result, fen=self.start_fen)

    def play(self, move: Move) -> bool:
        if not self.board.is_legal(move):
            return False
        self.board.push(move)
        self.selected = None
        self.update()
        self.moves_changed.emit()
        return True

    def undo(self) -> Move | None:
        if not self.board.move_stack:
            return None
        move = self.board.pop()
        self.selected = None
        self.update()
        self.moves_changed.emit()
        return move

    def targets(self, sq: int) -> list[int]:
        return [m.to_square for m in self.board.legal_moves() if m.from_square == sq]

    # ------------------------------------------------------------------ geometry

    def _cell(self) -> float:
        return min(self.width() / 9.4, self.height() / 10.4)

    def _origin(self) -> QPointF:
        """Centre of square a9 (Black's left corner as Red sees it, top left)."""
        cell = self._cell()
        return QPointF((self.width() - 8 * cell) / 2, (self.height() - 9 * cell) / 2)

    def square_center(self, sq: int) -> QPointF:
        o, cell = self._origin(), self._cell()
        return QPointF(o.x() + (sq % 9) * cell, o.y() + (9 - sq // 9) * cell)

    def square_at(self, pos: QPointF) -> int | None:
        o, cell = self._origin(), self._cell()
        file = round((pos.x() - o.x()) / cell)
        rank = 9 - round((pos.y() - o.y()) / cell)
        if 0 <= file < 9 and 0 <= rank < 10:
            return rank * 9 + file
        return None

    # ------------------------------------------------------------------ clicks

    def click_square(self, sq: int) -> None:
        piece = self.board.piece_at(sq)
        if self.selected is not None and sq in self.targets(self.selected):
            self.play(Move(self.selected, sq))
            return
        if piece is not None and piece.colour is self.board.turn:
            self.selected = sq
        else:
            if self.selected is not None:
                self.move_refused.emit(self.tr("不能走到这里"))
            self.selected = None
        self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            sq = self.square_at(event.position())
            if sq is not None:
                self.click_square(sq)
        elif event.button() == Qt.MouseButton.RightButton:
            self.selected = None
            self.update()

    # ------------------------------------------------------------------ painting

    def sizeHint(self) -> QSize:
        return QSize(470, 520)

    def paintEvent(self, _event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        cell = self._cell()
        o = self._origin()
        p.fillRect(QRectF(o.x() - 0.7 * cell, o.y() - 0.7 * cell, 9.4 * cell, 10.4 * cell), _WOOD)
        p.setPen(QPen(_LINE, 1.2))

        def at(file: float, rank: float) -> QPointF:
            return QPointF(o.x() + file * cell, o.y() + (9 - rank) * cell)

        for rank in range(10):
            p.drawLine(at(0, rank), at(8, rank))
        for file in range(9):
            if file in (0, 8):
                p.drawLine(at(file, 0), at(file, 9))
            else:
                p.drawLine(at(file, 0), at(file, 4))
                p.drawLine(at(file, 5), at(file, 9))
        for base in (0, 7):
            p.drawLine(at(3, base), at(5, base + 2))
            p.drawLine(at(5, base), at(3, base + 2))
        font = QFont(self.font())
        font.setPixelSize(max(8, int(cell * 0.45)))
        p.setFont(font)
        river = QRectF(at(0, 4.5).x(), at(0, 5).y(), 8 * cell, cell)
        p.drawText(
            QRectF(river.x(), river.y(), 4 * cell, cell), Qt.AlignmentFlag.AlignCenter, self.tr("楚 河")
        )
        p.drawText(
            QRectF(river.x() + 4 * cell, river.y(), 4 * cell, cell),
            Qt.AlignmentFlag.AlignCenter,
            self.tr("汉 界"),
        )
        stack = self.board.move_stack
        if stack:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(_LAST)
            for sq in (stack[-1].from_square, stack[-1].to_square):
                p.drawEllipse(self.square_center(sq), cell * 0.48, cell * 0.48)
        font.setPixelSize(max(8, int(cell * 0.5)))
        p.setFont(font)
        for sq, piece in self.board.pieces().items():
            ink = _RED if piece.colour is Colour.RED else Qt.GlobalColor.black
            centre = self.square_center(sq)
            p.setPen(QPen(ink, 1.5))
            p.setBrush(_FACE)
            p.drawEllipse(centre, cell * 0.43, cell * 0.43)
            p.drawEllipse(centre, cell * 0.36, cell * 0.36)
            box = QRectF(centre.x() - cell / 2, centre.y() - cell / 2, cell, cell)
            p.drawText(box, Qt.AlignmentFlag.AlignCenter, PIECE_NAMES[piece.colour][piece.kind])
        if self.selected is not None:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(_SELECTED)
            p.drawEllipse(self.square_center(self.selected), cell * 0.46, cell * 0.46)
            p.setBrush(_TARGET)
            for sq in self.targets(self.selected):
                p.drawEllipse(self.square_center(sq), cell * 0.14, cell * 0.14)
        p.end()


class GameEditor(QWidget):
    """The board, a notation box with completion, the move list and an undo button."""

    moves_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.board = BoardWidget(self)
        self.entry = QLineEdit(self)
        self.entry.setPlaceholderText(self.tr("着法，如 炮二平五、C2=5 或 h2e2，回车"))
        self.entry.setClearButtonEnabled(True)
        self.completions = QStringListModel(self)
        completer = QCompleter(self.completions, self)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        self.entry.setCompleter(completer)
        self.entry.returnPressed.connect(self.enter_text)
        self.undo_button = QPushButton(self.tr("悔一步"), self)
        self.undo_button.clicked.connect(self.board.undo)
        self.move_list = QListWidget(self)
        self.move_list.setMinimumWidth(190)
        self.message = QLabel(self)
        self.message.setWordWrap(True)

        row = QHBoxLayout()
        row.addWidget(self.entry, 1)
        row.addWidget(self.undo_button)
        left = QVBoxLayout()
        left.addWidget(self.board, 1)
        left.addLayout(row)
        left.addWidget(self.message)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(left, 3)
        layout.addWidget(self.move_list, 1)
        self.board.moves_changed.connect(self._moves_changed)
        self.board.move_refused.connect(self.show_message)
        self._moves_changed()

    def enter_text(self) -> bool:
        """Make the move typed in the box (Chinese, WXF or ICCS); a wrong one stays, with the reason."""
        text = self.entry.text().strip()
        if not text:
            return False
        try:
            move = parse_move(self.board.board, text)
        except UserError as error:
            self.show_message(_message(error))
            self.entry.selectAll()
            return False
        self.board.play(move)
        self.entry.clear()
        return True

    def show_message(self, text: str) -> None:
        self.message.setText(f"<span style='color:#b22222'>{text}</span>" if text else "")

    def _moves_changed(self) -> None:
        board = self.board.board
        self.completions.setStringList(sorted(format_chinese(board, m) for m in board.legal_moves()))
        self.undo_button.setEnabled(bool(board.move_stack))
        self.move_list.clear()
        replay = Board(self.board.start_fen)
        first = replay.turn
        for ply, move in enumerate(board.move_stack):
            text = format_chinese(replay, move)
            replay.push_unchecked(move)
            prefix = f"{move_number(ply, first)}. " if replay.turn is Colour.BLACK or ply == 0 else "    "
            self.move_list.addItem(prefix + text)
        self.move_list.scrollToBottom()
        if not board.has_legal_move():
            self.show_message(self.tr("对局结束：%1方无着可走").replace("%1", board.turn.zh))
        else:
            self.show_message("")
        self.moves_changed.emit()


def _message(error: UserError) -> str:
    from app.ui.i18n import current_language

    return error.en if current_language() == "en" else error.zh
