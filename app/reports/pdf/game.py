"""One game record on paper (棋谱): the players and result, a board diagram, the moves in two columns.

The diagram is drawn with reportlab shapes: the 9 × 10 grid with the river (楚河 汉界) and the palace
diagonals, pieces as circles with their characters (帅仕相马车炮兵 red, 将士象马车炮卒 black), the files
numbered for Black (１…９, top) and Red (九…一, bottom). It shows the final position, or the
position after a given ply. Moves that do not fit under the diagram go on to further pages, two
columns of :data:`ROWS_LATER` lines each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from app.engine.types import Colour, GameResult, UserError
from app.engine.xiangqi import Board, GameRecord, MoveFormat, Piece, PieceType
from app.engine.xiangqi.record import PGN_RESULTS, move_number
from app.reports.model import EventHeader
from app.reports.pdf.base import BOTTOM, FONT, MARGIN_X, RED, TOP, Output, PageDecor, draw_pages, shrink_to

PAGE_W, PAGE_H = A4
CELL = 10 * mm  # one square of the diagram
LEADING = 14.0  # move list line height (pt)
MOVE_SIZE = 10.0
# Move list rows per column: under the diagram on the first page, and on every later page.
CONTENT_TOP = PAGE_H - TOP
DIAGRAM_TOP = CONTENT_TOP - 46  # below the two title lines
GRID_TOP = DIAGRAM_TOP - 30  # room for the frame and Black's file numbers
GRID_BOTTOM = GRID_TOP - 9 * CELL
LIST_TOP_FIRST = GRID_BOTTOM - 58  # below the frame, Red's file numbers and the caption
ROWS_FIRST = int((LIST_TOP_FIRST - BOTTOM) // LEADING)
ROWS_LATER = int((CONTENT_TOP - 8 - BOTTOM) // LEADING)

PIECE_NAMES: dict[Colour, dict[PieceType, str]] = {
    Colour.RED: dict(zip(PieceType, "帅仕相马车炮兵", strict=True)),
    Colour.BLACK: dict(zip(PieceType, "将士象马车炮卒", strict=True)),
}
RESULT_WORDS: dict[GameResult, str] = {
    GameResult.RED_WIN: "红胜",
    GameResult.BLACK_WIN: "黑胜",
    GameResult.DRAW: "和棋",
    GameResult.BLACK_FORFEIT: "黑方弃权",
    GameResult.RED_FORFEIT: "红方弃权",
    GameResult.DOUBLE_FORFEIT: "双方弃权",
    GameResult.PENDING: "未完",
}
_RED_FILES = "九八七六五四三二一"
_BLACK_FILES = "１２３４５６７８９"
_PIECE_FILL = colors.HexColor("#fbf3dc")


@dataclass(frozen=True, slots=True)
class GameSheet:
    """The read model of a game page: the page header, the record, and the ply the diagram shows
    (``None``: the final position; ``0``: the start)."""

    header: EventHeader
    record: GameRecord
    ply: int | None = None


def move_lines(record: GameRecord) -> list[str]:
    """The numbered move pairs as the page lists them (``1. 炮二平五 马８进７``)."""
    texts = record.notation(MoveFormat.CHINESE)
    first = record.first_mover
    lines: list[str] = []
    ply = 0
    if first is Colour.BLACK and texts:
        lines.append(f"1. …… {texts[0]}")
        ply = 1
    while ply < len(texts):
        lines.append(f"{move_number(ply, first)}. {' '.join(texts[ply : ply + 2])}")
        ply += 2
    return lines


def position_at(record: GameRecord, ply: int | None) -> Board:
    board = Board(record.fen)
    count = len(record.moves) if ply is None else ply
    if not 0 <= count <= len(record.moves):
        raise UserError(
            f"棋谱只有 {len(record.moves)} 步，无法显示第 {count} 步后的局面",
            f"the record has {len(record.moves)} plies, not {count}",
        )
    for move in record.moves[:count]:
        board.push_unchecked(move)
    return board


def _line(c: Canvas, x: float, y: float, text: str, size: float, width: float, centred: bool = False) -> None:
    s = shrink_to(text, width, size, 4.0)
    c.setFont(FONT, s)
    if centred:
        c.drawCentredString(x + width / 2, y, text)
    else:
        c.drawString(x, y, text)


def draw_diagram(c: Canvas, board: Board, left: float, bottom: float, cell: float = CELL) -> None:
    """The board with its pieces; ``left``/``bottom`` is Red's left back corner (file a, rank 0)."""
    c.saveState()
    right, top = left + 8 * cell, bottom + 9 * cell
    c.setStrokeColor(colors.black)
    c.setLineWidth(1.6)
    edge = cell * 0.5
    c.rect(left - edge, bottom - edge, 8 * cell + 2 * edge, 9 * cell + 2 * edge)
    c.setLineWidth(0.7)
    for rank in range(10):
        c.line(left, bottom + rank * cell, right, bottom + rank * cell)
    for file in range(9):
        x = left + file * cell
        if file in (0, 8):
            c.line(x, bottom, x, top)
        else:  # broken at the river
            c.line(x, bottom, x, bottom + 4 * cell)
            c.line(x, bottom + 5 * cell, x, top)
    for base in (0, 7):  # palace diagonals
        y0, y1 = bottom + base * cell, bottom + (base + 2) * cell
        c.line(left + 3 * cell, y0, left + 5 * cell, y1)
        c.line(left + 5 * cell, y0, left + 3 * cell, y1)
    c.setFont(FONT, cell * 0.5)
    river_y = bottom + 4.5 * cell - cell * 0.18
    c.drawCentredString(left + 2 * cell, river_y, "楚 河")
    c.drawCentredString(left + 6 * cell, river_y, "汉 界")
    c.setFont(FONT, cell * 0.38)
    for file in range(9):
        x = left + file * cell
        c.drawCentredString(x, top + edge + 4, _BLACK_FILES[file])
        c.drawCentredString(x, bottom - edge - 4 - cell * 0.38, _RED_FILES[file])
    for sq, piece in board.pieces().items():
        _draw_piece(c, piece, left + (sq % 9) * cell, bottom + (sq // 9) * cell, cell)
    c.restoreState()


def _draw_piece(c: Canvas, piece: Piece, x: float, y: float, cell: float) -> None:
    ink = RED if piece.colour is Colour.RED else colors.black
    c.setFillColor(_PIECE_FILL)
    c.setStrokeColor(ink)
    c.setLineWidth(1.0)
    c.circle(x, y, cell * 0.44, stroke=1, fill=1)
    c.setLineWidth(0.4)
    c.circle(x, y, cell * 0.37, stroke=1, fill=0)
    c.setFillColor(ink)
    size = cell * 0.5
    c.setFont(FONT, size)
    c.drawCentredString(x, y - size * 0.36, PIECE_NAMES[piece.colour][piece.kind])


def _title(c: Canvas, sheet: GameSheet) -> None:
    record = sheet.record
    usable = PAGE_W - 2 * MARGIN_X
    red, black = record.header("Red") or "", record.header("Black") or ""
    red_team, black_team = record.header("RedTeam"), record.header("BlackTeam")
    red_text = f"红方 {red}" + (f"（{red_team}）" if red_team else "")
    black_text = f"黑方 {black}" + (f"（{black_team}）" if black_team else "")
    _line(c, MARGIN_X, CONTENT_TOP - 18, f"{red_text}　对　{black_text}", 14, usable, centred=True)
    facts = [f"结果：{RESULT_WORDS[record.result]} {PGN_RESULTS[record.result]}", f"{record.full_moves} 回合"]
    if record.header("Round"):
        facts.append(f"第 {record.header('Round')} 轮")
    if record.header("Board"):
        facts.append(f"第 {record.header('Board')} 台")
    if record.header("Date"):
        facts.append(f"日期：{record.header('Date')}")
    _line(c, MARGIN_X, CONTENT_TOP - 36, "　".join(facts), 10, usable, centred=True)


def _caption(record: GameRecord, ply: int | None) -> str:
    count = len(record.moves) if ply is None else ply
    if count == 0:
        return "开局局面"
    colour = record.first_mover if count % 2 == 1 else record.first_mover.other
    number = move_number(count - 1, record.first_mover)
    last = "（终局）" if count == len(record.moves) else ""
    return f"第 {number} 回合{colour.zh}方走后局面{last}"


def _columns(c: Canvas, lines: list[str], top: float, rows: int) -> None:
    width = (PAGE_W - 2 * MARGIN_X) / 2 - 6 * mm
    for i, text in enumerate(lines):
        column, row = divmod(i, rows)
        x = MARGIN_X + column * ((PAGE_W - 2 * MARGIN_X) / 2) + 6 * mm
        _line(c, x, top - (row + 1) * LEADING, text, MOVE_SIZE, width)


def game_pages(sheet: GameSheet) -> list[Callable[[Canvas], None]]:
    """The page drawers of one game: the first with the diagram, then as many as the moves need."""
    board = position_at(sheet.record, sheet.ply)
    lines = move_lines(sheet.record)
    first, rest = lines[: 2 * ROWS_FIRST], lines[2 * ROWS_FIRST :]

    def first_page(c: Canvas) -> None:
        _title(c, sheet)
        draw_diagram(c, board, (PAGE_W - 8 * CELL) / 2, GRID_BOTTOM)
        c.setFont(FONT, 9)
        c.drawCentredString(PAGE_W / 2, GRID_BOTTOM - 44, _caption(sheet.record, sheet.ply))
        _columns(c, first, LIST_TOP_FIRST, ROWS_FIRST)

    pages: list[Callable[[Canvas], None]] = [first_page]
    per_page = 2 * ROWS_LATER
    for start in range(0, len(rest), per_page):
        chunk = rest[start : start + per_page]
        pages.append(partial(_columns, lines=chunk, top=CONTENT_TOP - 8, rows=ROWS_LATER))
    return pages


def render_game(sheet: GameSheet, out: Output, printed_at: datetime) -> None:
    """One game record as a PDF (one page, more for long games)."""
    decor = PageDecor(header=sheet.header, title="棋谱", printed_at=printed_at)
    draw_pages(out, decor, game_pages(sheet))


__all__ = ["GameSheet", "draw_diagram", "game_pages", "move_lines", "position_at", "render_game"]
