"""Move notation: ICCS (``h2e2``), WXF (``C2=5``) and Chinese vertical-line notation (``炮二平五``).

Files are counted from the mover's right: Red writes Chinese numerals 一..九, Black digits
(full-width ``１``..``９`` as xqbase writes them, or ASCII on request; both are read).
``进``/``退`` give the ranks moved for the straight movers (帅车炮兵) and the destination file for
the diagonal ones (仕相马); ``平`` gives the destination file.

Disambiguation follows the CXA rules (象棋竞赛规则 1999, kept in 2011/2020) as xqbase writes them:

* two like pieces (车马炮兵) on one file: ``前车进一`` / ``后车平四`` (WXF ``R+=4`` / ``R-+1``);
  仕相 never take 前/后, the direction tells them apart (both are read, though);
* pawns, only one file with several: two → 前/后, three → 前/中/后, four or five → 一二三四五
  counted from the front (``中兵平四``, ``二兵平四``);
* pawns on two files with several each: the file number replaces the piece character
  (``前七平六``, ``后３进１``, ``中五平四``).

WXF has no agreed form beyond two tandem pieces; this module writes (and reads) an extension
that mirrors the Chinese: three or more pawns on a file take ``a``..``e`` front to back in the
designator place (``Pb=4`` = 中兵平四 / 二兵平四), and with several files of tandem pawns the
file digit follows the designator (``P+7=6`` = 前七平六, ``Pb5+1`` = 中五进一).

>>> from app.engine.xiangqi.board import Board
>>> board = Board()
>>> move = parse_chinese(board, "炮二平五")
>>> move.iccs, format_wxf(board, move)
('h2e2', 'C2=5')
>>> board.push(move)
>>> format_chinese(board, parse_wxf(board, "H8+7"))
'马８进７'
"""

from __future__ import annotations

import enum
import re

from app.engine.types import Colour, UserError
from app.engine.xiangqi.board import Board, Move, PieceType, square_file, square_rank

RED_NUMERALS = "一二三四五六七八九"
FULLWIDTH_DIGITS = "１２３４５６７８９"
ASCII_DIGITS = "123456789"

RED_NAMES: dict[PieceType, str] = {
    PieceType.KING: "帅",
    PieceType.ADVISOR: "仕",
    PieceType.ELEPHANT: "相",
    PieceType.HORSE: "马",
    PieceType.CHARIOT: "车",
    PieceType.CANNON: "炮",
    PieceType.PAWN: "兵",
}
BLACK_NAMES: dict[PieceType, str] = {
    PieceType.KING: "将",
    PieceType.ADVISOR: "士",
    PieceType.ELEPHANT: "象",
    PieceType.HORSE: "马",
    PieceType.CHARIOT: "车",
    PieceType.CANNON: "炮",
    PieceType.PAWN: "卒",
}
WXF_LETTERS: dict[PieceType, str] = {
    PieceType.KING: "K",
    PieceType.ADVISOR: "A",
    PieceType.ELEPHANT: "E",
    PieceType.HORSE: "H",
    PieceType.CHARIOT: "R",
    PieceType.CANNON: "C",
    PieceType.PAWN: "P",
}

_CHINESE_PIECES: dict[str, PieceType] = {
    **{c: PieceType.KING for c in "帅帥将將"},
    **{c: PieceType.ADVISOR for c in "仕士"},
    **{c: PieceType.ELEPHANT for c in "相象"},
    **{c: PieceType.HORSE for c in "马馬傌"},
    **{c: PieceType.CHARIOT for c in "车車俥"},
    **{c: PieceType.CANNON for c in "炮砲包"},
    **{c: PieceType.PAWN for c in "兵卒"},
}
_WXF_PIECES: dict[str, PieceType] = {
    "K": PieceType.KING,
    "G": PieceType.KING,
    "A": PieceType.ADVISOR,
    "E": PieceType.ELEPHANT,
    "B": PieceType.ELEPHANT,
    "H": PieceType.HORSE,
    "N": PieceType.HORSE,
    "R": PieceType.CHARIOT,
    "C": PieceType.CANNON,
    "P": PieceType.PAWN,
}
_NUMBERS: dict[str, int] = {}
for _i in range(9):
    _NUMBERS[RED_NUMERALS[_i]] = _i + 1
    _NUMBERS[FULLWIDTH_DIGITS[_i]] = _i + 1
    _NUMBERS[ASCII_DIGITS[_i]] = _i + 1
_ACTIONS = {"进": 1, "進": 1, "退": -1, "平": 0}
_STRAIGHT = (PieceType.KING, PieceType.CHARIOT, PieceType.CANNON, PieceType.PAWN)
_POSITION_WORDS = "前中后"
_ORDINALS = "一二三四五"


class NotationProblem(enum.Enum):
    """Why a move text was refused."""

    UNREADABLE = "unreadable"  # 无法识别
    ILLEGAL = "illegal"  # 不合法
    AMBIGUOUS = "ambiguous"  # 有歧义


class NotationError(UserError):
    """A move text that cannot be read, names no legal move, or names several."""

    def __init__(self, problem: NotationProblem, zh: str, en: str) -> None:
        self.problem = problem
        super().__init__(zh, en)


def _unreadable(text: str, what: str = "") -> NotationError:
    return NotationError(
        NotationProblem.UNREADABLE,
        f"无法识别的{what and what + ' '}着法“{text}”",
        f"cannot read {what and what + ' '}move {text!r}",
    )


# --- the geometry shared by every notation ------------------------------------------------------


def _file_number(colour: Colour, sq: int) -> int:
    """File number 1..9 counted from the mover's right."""
    f = square_file(sq)
    return 9 - f if colour is Colour.RED else f + 1


def _forwardness(colour: Colour, sq: int) -> int:
    r = square_rank(sq)
    return r if colour is Colour.RED else 9 - r


def _same_kind_on_file(board: Board, sq: int) -> list[int]:
    """Squares of pieces like the one on ``sq`` on its file, front first (for their owner)."""
    piece = board.piece_at(sq)
    assert piece is not None
    f = square_file(sq)
    squares = [r * 9 + f for r in range(10) if board.piece_at(r * 9 + f) == piece]
    return sorted(squares, key=lambda s: -_forwardness(piece.colour, s))


def _tandem_pawn_files(board: Board, colour: Colour) -> int:
    """How many files hold two or more of ``colour``'s pawns."""
    counts = [0] * 9
    for sq, piece in board.pieces().items():
        if piece.kind is PieceType.PAWN and piece.colour is colour:
            counts[square_file(sq)] += 1
    return sum(1 for c in counts if c >= 2)


class _Designation:
    """How a move names its piece: by file, or by its place among like pieces on a file."""

    __slots__ = ("file", "index", "kind", "several_files", "total")

    def __init__(
        self, kind: PieceType, file: int, index: int | None, total: int, several_files: bool
    ) -> None:
        self.kind = kind
        self.file = file
        self.index = index  # 0 = front, None = named by file
        self.total = total
        self.several_files = several_files


def _designate(board: Board, move: Move) -> _Designation:
    piece = board.piece_at(move.from_square)
    if piece is None:
        raise UserError("起点没有棋子", f"no piece on {move.iccs[:2]}")
    file = _file_number(piece.colour, move.from_square)
    if piece.kind in (PieceType.KING, PieceType.ADVISOR, PieceType.ELEPHANT):
        return _Designation(piece.kind, file, None, 1, False)
    same = _same_kind_on_file(board, move.from_square)
    if len(same) < 2:
        return _Designation(piece.kind, file, None, 1, False)
    several = piece.kind is PieceType.PAWN and _tandem_pawn_files(board, piece.colour) >= 2
    return _Designation(piece.kind, file, same.index(move.from_square), len(same), several)


def _action(board: Board, move: Move) -> tuple[int, int]:
    """(direction +1 进 / -1 退 / 0 平, number) as the notation writes it."""
    piece = board.piece_at(move.from_square)
    assert piece is not None
    colour = piece.colour
    dr = _forwardness(colour, move.to_square) - _forwardness(colour, move.from_square)
    if dr == 0:
        return 0, _file_number(colour, move.to_square)
    direction = 1 if dr > 0 else -1
    if piece.kind in _STRAIGHT:
        return direction, abs(dr)
    return direction, _file_number(colour, move.to_square)


# --- Chinese ------------------------------------------------------------------------------------


def _position_word(index: int, total: int) -> str:
    if total <= 2:
        return "前后"[index]
    if total == 3:
        return _POSITION_WORDS[index]
    return _ORDINALS[index]


def format_chinese(board: Board, move: Move, *, ascii_digits: bool = False) -> str:
    """The move in Chinese vertical-line notation (the move must be legal on ``board``).

    Black's numbers are full-width (``马８进７``) unless ``ascii_digits``.
    """
    piece = board.piece_at(move.from_square)
    if piece is None:
        raise UserError("起点没有棋子", f"no piece on {move.iccs[:2]}")
    red = piece.colour is Colour.RED
    digits = RED_NUMERALS if red else (ASCII_DIGITS if ascii_digits else FULLWIDTH_DIGITS)
    name = (RED_NAMES if red else BLACK_NAMES)[piece.kind]
    d = _designate(board, move)
    if d.index is None:
        head = name + digits[d.file - 1]
    elif d.several_files:
        head = _position_word(d.index, d.total) + digits[d.file - 1]
    else:
        head = _position_word(d.index, d.total) + name
    direction, number = _action(board, move)
    return head + "进平退"[1 - direction] + digits[number - 1]


def _normalise_chinese(text: str) -> str:
    t = re.sub(r"\s+", "", text)
    return t.replace("後", "后").replace("進", "进")


def parse_chinese(board: Board, text: str) -> Move:
    """Read a move in Chinese notation (simplified or traditional, any digits) on ``board``.

    Raises UserError when the text is malformed, names no legal move, or is ambiguous.
    """
    t = _normalise_chinese(text)
    if len(t) != 4 or t[2] not in _ACTIONS or t[3] not in _NUMBERS:
        raise _unreadable(text)
    a, b = t[0], t[1]
    kind: PieceType | None
    file: int | None = None
    position: str | None = None
    if a in _CHINESE_PIECES and b in _NUMBERS:
        kind, file = _CHINESE_PIECES[a], _NUMBERS[b]
    elif (a in _POSITION_WORDS or a in _ORDINALS) and b in _CHINESE_PIECES:
        kind, position = _CHINESE_PIECES[b], a
    elif (a in _POSITION_WORDS or a in _ORDINALS) and b in _NUMBERS:
        kind, position, file = PieceType.PAWN, a, _NUMBERS[b]
    else:
        raise _unreadable(text)
    return _resolve(board, text, kind, file, position, _ACTIONS[t[2]], _NUMBERS[t[3]])


def _position_index(word: str, total: int) -> int | None:
    """Index (front = 0) that a 前/中/后/一..五 word names among ``total`` like pieces."""
    if word == "前":
        return 0
    if word == "后":
        return total - 1
    if word == "中":
        return 1 if total == 3 else None
    i = _ORDINALS.find(word)
    return i if 0 <= i < total else None


def _resolve(
    board: Board,
    text: str,
    kind: PieceType,
    file: int | None,
    position: str | None,
    direction: int,
    number: int,
) -> Move:
    colour = board.turn
    found: list[Move] = []
    for move in board.legal_moves():
        piece = board.piece_at(move.from_square)
        assert piece is not None
        if piece.kind is not kind:
            continue
        if file is not None and _file_number(colour, move.from_square) != file:
            continue
        if position is not None:
            same = _same_kind_on_file(board, move.from_square)
            if len(same) < 2 or _position_index(position, len(same)) != same.index(move.from_square):
                continue
        if _action(board, move) != (direction, number):
            continue
        found.append(move)
    if len(found) == 1:
        return found[0]
    side = colour.zh + "方"
    if not found:
        raise NotationError(
            NotationProblem.ILLEGAL,
            f"{side}着法“{text}”在当前局面下不合法",
            f"{colour.value} move {text!r} is not legal here",
        )
    raise NotationError(
        NotationProblem.AMBIGUOUS,
        f"{side}着法“{text}”有歧义（{'、'.join(m.iccs for m in found)}）",
        f"{colour.value} move {text!r} is ambiguous ({', '.join(m.iccs for m in found)})",
    )


# --- WXF ----------------------------------------------------------------------------------------

_WXF_RE = re.compile(r"^([KGAEBHNRCP])([1-9]|[+\-a-e][1-9]?)([+\-=.])([1-9])$")


def format_wxf(board: Board, move: Move) -> str:
    """The move in WXF notation (``C2=5``, ``H8+7``, tandem ``R+=4``; see the module notes)."""
    piece = board.piece_at(move.from_square)
    if piece is None:
        raise UserError("起点没有棋子", f"no piece on {move.iccs[:2]}")
    d = _designate(board, move)
    if d.index is None:
        designator = str(d.file)
    else:
        designator = "+-"[d.index] if d.total <= 2 else "abcde"[d.index]
        if d.several_files:
            designator += str(d.file)
    direction, number = _action(board, move)
    return f"{WXF_LETTERS[piece.kind]}{designator}{'=+-'[direction]}{number}"


def parse_wxf(board: Board, text: str) -> Move:
    """Read a WXF move (``C2=5``, ``C2.5``, ``H8+7``, ``R+=4``, ``+R=4``) on ``board``."""
    t = text.strip()
    if len(t) >= 2 and t[0] in "+-" and t[1].upper() in _WXF_PIECES:
        t = t[1] + t[0] + t[2:]  # +R=4 written with the designator first
    m = _WXF_RE.match(t[0].upper() + t[1:] if t else t)
    if not m:
        raise _unreadable(text, "WXF")
    kind = _WXF_PIECES[m.group(1)]
    des = m.group(2)
    file: int | None = None
    position: str | None = None
    if des.isdigit():
        file = int(des)
    else:
        mark = des[0]
        position = {"+": "前", "-": "后"}.get(mark) or _ORDINALS["abcde".index(mark)]
        if len(des) == 2:
            file = int(des[1])
    direction = {"+": 1, "-": -1, "=": 0, ".": 0}[m.group(3)]
    return _resolve(board, text, kind, file, position, direction, int(m.group(4)))


# --- ICCS and any notation ----------------------------------------------------------------------

_ICCS_RE = re.compile(r"^[a-iA-I][0-9]-?[a-iA-I][0-9]$")


def parse_iccs(board: Board, text: str) -> Move:
    """Read an ICCS move (``h2e2``, ``H2-E2``) and check it is legal on ``board``."""
    if not _ICCS_RE.match(text.strip()):
        raise _unreadable(text, "ICCS")
    move = Move.from_iccs(text)
    if not board.is_legal(move):
        colour = board.turn
        raise NotationError(
            NotationProblem.ILLEGAL,
            f"{colour.zh}方着法“{text}”在当前局面下不合法",
            f"{colour.value} move {text!r} is not legal here",
        )
    return move


def format_iccs(move: Move, *, xqbase: bool = False) -> str:
    """ICCS text: ``h2e2``, or ``H2-E2`` as xqbase PGN files write it."""
    if xqbase:
        return f"{move.iccs[:2].upper()}-{move.iccs[2:].upper()}"
    return move.iccs


def parse_move(board: Board, text: str) -> Move:
    """Read a move in any of the three notations, recognised by its shape."""
    t = text.strip()
    if _ICCS_RE.match(t):
        return parse_iccs(board, t)
    if t and t[0].isascii():
        return parse_wxf(board, t)
    return parse_chinese(board, t)
