"""The Xiangqi board: squares, pieces, FEN, legal moves, make/unmake, mate and perft.

Squares are numbered ``rank * 9 + file`` with files ``a``..``i`` (0..8) from Red's left and
ranks ``0``..``9`` from Red's back rank, as in ICCS: Red's right cannon starts on ``h2``.
Move generation works on a flat list of 90 cells with precomputed tables (rays, horse legs,
elephant eyes, palace steps), and checks legality by making the move in place and asking
whether the mover's general is attacked (flying general included).

>>> board = Board()
>>> len(board.legal_moves())
44
>>> board.push(Move.from_iccs("h2e2"))
>>> board.fen()
'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b'
>>> perft(Board(), 2)
1920
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from app.engine.types import Colour, UserError

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w"

FILES = "abcdefghi"


class PieceType(enum.IntEnum):
    """The seven kinds of piece; the value is the cell code (Red positive, Black negative)."""

    KING = 1  # 帅/将
    ADVISOR = 2  # 仕/士
    ELEPHANT = 3  # 相/象
    HORSE = 4  # 马
    CHARIOT = 5  # 车
    CANNON = 6  # 炮
    PAWN = 7  # 兵/卒

    @property
    def letter(self) -> str:
        """The FEN letter (upper case)."""
        return "KABNRCP"[self.value - 1]


_K, _A, _B, _N, _R, _C, _P = 1, 2, 3, 4, 5, 6, 7

_FEN_LETTERS: dict[str, int] = {
    "K": _K,
    "A": _A,
    "B": _B,
    "E": _B,
    "N": _N,
    "H": _N,
    "R": _R,
    "C": _C,
    "P": _P,
}


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece: its kind and colour.

    >>> Piece(PieceType.CANNON, Colour.BLACK).symbol
    'c'
    """

    kind: PieceType
    colour: Colour

    @property
    def symbol(self) -> str:
        letter = self.kind.letter
        return letter if self.colour is Colour.RED else letter.lower()

    @property
    def code(self) -> int:
        return int(self.kind) if self.colour is Colour.RED else -int(self.kind)

    @classmethod
    def from_code(cls, code: int) -> Piece:
        return cls(PieceType(abs(code)), Colour.RED if code > 0 else Colour.BLACK)


def square(file: int, rank: int) -> int:
    """The square number of a file (0..8, ``a``..``i``) and rank (0..9).

    >>> square(7, 2)
    25
    """
    return rank * 9 + file


def square_file(sq: int) -> int:
    return sq % 9


def square_rank(sq: int) -> int:
    return sq // 9


def square_name(sq: int) -> str:
    """ICCS name of a square.

    >>> square_name(25)
    'h2'
    """
    return f"{FILES[sq % 9]}{sq // 9}"


def parse_square(text: str) -> int:
    """Parse an ICCS square name (``h2``, case-insensitive)."""
    t = text.strip().lower()
    if len(t) != 2 or t[0] not in FILES or not t[1].isdigit():
        raise UserError(f"无效的棋盘坐标“{text}”", f"invalid square {text!r}")
    return square(FILES.index(t[0]), int(t[1]))


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A move from one square to another; ``iccs`` gives its ICCS text.

    >>> Move.from_iccs("H2-E2")
    Move(from_square=25, to_square=22)
    >>> Move(25, 22).iccs
    'h2e2'
    """

    from_square: int
    to_square: int

    @property
    def iccs(self) -> str:
        return square_name(self.from_square) + square_name(self.to_square)

    @classmethod
    def from_iccs(cls, text: str) -> Move:
        t = text.strip().replace("-", "")
        if len(t) != 4:
            raise UserError(f"无效的 ICCS 着法“{text}”", f"invalid ICCS move {text!r}")
        return cls(parse_square(t[:2]), parse_square(t[2:]))

    def __str__(self) -> str:
        return self.iccs


# --- precomputed tables -------------------------------------------------------------------------


def _on_board(f: int, r: int) -> bool:
    return 0 <= f < 9 and 0 <= r < 10


def _in_palace(f: int, r: int) -> bool:
    return 3 <= f <= 5 and (r <= 2 or r >= 7)


def _red_half(r: int) -> bool:
    return r <= 4


def _build_tables() -> tuple[
    tuple[tuple[tuple[int, ...], ...], ...],
    tuple[tuple[tuple[int, int], ...], ...],
    tuple[tuple[tuple[int, int], ...], ...],
    tuple[tuple[tuple[int, int], ...], ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]],
    tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]],
]:
    rays: list[tuple[tuple[int, ...], ...]] = []
    horse: list[tuple[tuple[int, int], ...]] = []
    horse_from: list[tuple[tuple[int, int], ...]] = []
    eleph: list[tuple[tuple[int, int], ...]] = []
    advisor: list[tuple[int, ...]] = []
    king: list[tuple[int, ...]] = []
    pawn_red: list[tuple[int, ...]] = []
    pawn_black: list[tuple[int, ...]] = []
    for sq in range(90):
        f, r = sq % 9, sq // 9
        # rays: up (towards Black), down, right, left; the first two are the file.
        dirs = ((0, 1), (0, -1), (1, 0), (-1, 0))
        rs = []
        for df, dr in dirs:
            ray = []
            nf, nr = f + df, r + dr
            while _on_board(nf, nr):
                ray.append(square(nf, nr))
                nf, nr = nf + df, nr + dr
            rs.append(tuple(ray))
        rays.append(tuple(rs))
        hm = []
        hf = []
        for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
            nf, nr = f + df, r + dr
            if not _on_board(nf, nr):
                continue
            # leg is next to the horse along the long leg
            leg = square(f, r + dr // 2) if abs(dr) == 2 else square(f + df // 2, r)
            hm.append((leg, square(nf, nr)))
            # a horse on (nf, nr) attacking sq: its leg is next to it along its long leg
            aleg = square(nf, nr - dr // 2) if abs(dr) == 2 else square(nf - df // 2, nr)
            hf.append((square(nf, nr), aleg))
        horse.append(tuple(hm))
        horse_from.append(tuple(hf))
        em = []
        for df, dr in ((2, 2), (2, -2), (-2, 2), (-2, -2)):
            nf, nr = f + df, r + dr
            if _on_board(nf, nr) and _red_half(nr) == _red_half(r):
                em.append((square(f + df // 2, r + dr // 2), square(nf, nr)))
        eleph.append(tuple(em))
        am = []
        km = []
        if _in_palace(f, r):
            for df, dr in ((1, 1), (1, -1), (-1, 1), (-1, -1)):
                nf, nr = f + df, r + dr
                if _on_board(nf, nr) and _in_palace(nf, nr) and _red_half(nr) == _red_half(r):
                    am.append(square(nf, nr))
            for df, dr in dirs:
                nf, nr = f + df, r + dr
                if _on_board(nf, nr) and _in_palace(nf, nr) and _red_half(nr) == _red_half(r):
                    km.append(square(nf, nr))
        advisor.append(tuple(am))
        king.append(tuple(km))
        pr = []
        if r + 1 <= 9:
            pr.append(square(f, r + 1))
        if r >= 5:
            pr += [square(f + d, r) for d in (-1, 1) if 0 <= f + d < 9]
        pawn_red.append(tuple(pr))
        pb = []
        if r - 1 >= 0:
            pb.append(square(f, r - 1))
        if r <= 4:
            pb += [square(f + d, r) for d in (-1, 1) if 0 <= f + d < 9]
        pawn_black.append(tuple(pb))
    # pawn attackers: squares from which a pawn of a colour reaches sq
    att_red: list[list[int]] = [[] for _ in range(90)]
    att_black: list[list[int]] = [[] for _ in range(90)]
    for sq in range(90):
        for t in pawn_red[sq]:
            att_red[t].append(sq)
        for t in pawn_black[sq]:
            att_black[t].append(sq)
    return (
        tuple(rays),
        tuple(horse),
        tuple(horse_from),
        tuple(eleph),
        tuple(advisor),
        tuple(king),
        (tuple(pawn_red), tuple(pawn_black)),
        (tuple(tuple(a) for a in att_red), tuple(tuple(a) for a in att_black)),
    )


(
    _RAYS,
    _HORSE_MOVES,
    _HORSE_ATTACKERS,
    _ELEPHANT_MOVES,
    _ADVISOR_MOVES,
    _KING_MOVES,
    _PAWN_MOVES,
    _PAWN_ATTACKERS,
) = _build_tables()


# --- the board ----------------------------------------------------------------------------------


class Board:
    """A position with the side to move, and a stack of made moves for unmaking.

    The board is mutable like python-chess's: ``push`` makes a move, ``pop`` takes it back.
    ``copy`` gives an independent board. Stalemate (困毙) is a loss for the side to move.
    """

    __slots__ = ("_cells", "_kings", "_red_to_move", "_stack")

    def __init__(self, fen: str = START_FEN) -> None:
        self._cells: list[int] = [0] * 90
        self._kings: list[int] = [-1, -1]  # index 0 red, 1 black
        self._red_to_move = True
        self._stack: list[tuple[int, int, int]] = []  # (from, to, captured code)
        self.set_fen(fen)

    # -- FEN --

    def set_fen(self, fen: str) -> None:
        """Set up a position from FEN; accepts ``w``/``r``/``b`` and ignores ``- - 0 1`` tails."""
        parts = fen.split()
        if not parts:
            raise UserError("FEN 为空", "empty FEN")
        rows = parts[0].split("/")
        if len(rows) != 10:
            raise UserError(f"FEN 应有 10 行：{fen}", f"FEN must have 10 ranks: {fen!r}")
        cells = [0] * 90
        for i, row in enumerate(rows):
            rank = 9 - i
            f = 0
            for ch in row:
                if ch.isdigit():
                    f += int(ch)
                elif ch.upper() in _FEN_LETTERS:
                    if f >= 9:
                        break
                    code = _FEN_LETTERS[ch.upper()]
                    cells[square(f, rank)] = code if ch.isupper() else -code
                    f += 1
                else:
                    raise UserError(f"FEN 中有无效字符“{ch}”", f"invalid character {ch!r} in FEN")
            if f != 9:
                raise UserError(
                    f"FEN 第 {i + 1} 行不是 9 列：{row}", f"FEN rank {i + 1} is not 9 files: {row!r}"
                )
        side = parts[1].lower() if len(parts) > 1 else "w"
        if side not in ("w", "r", "b"):
            raise UserError(f"FEN 行棋方无效：{side}", f"invalid side to move {side!r} in FEN")
        kings = [-1, -1]
        for sq, code in enumerate(cells):
            if abs(code) == _K:
                idx = 0 if code > 0 else 1
                f, r = sq % 9, sq // 9
                if kings[idx] != -1:
                    raise UserError("FEN 中一方有两个将帅", "a side has two generals in the FEN")
                if not _in_palace(f, r) or _red_half(r) != (idx == 0):
                    raise UserError("将帅不在九宫内", "a general stands outside its palace")
                kings[idx] = sq
        if -1 in kings:
            raise UserError("FEN 中缺少将或帅", "the FEN lacks a general")
        self._cells = cells
        self._kings = kings
        self._red_to_move = side != "b"
        self._stack = []

    def fen(self) -> str:
        """The position in FEN, board and side only (``w`` or ``b``)."""
        rows = []
        for rank in range(9, -1, -1):
            row = ""
            empty = 0
            for f in range(9):
                code = self._cells[square(f, rank)]
                if code == 0:
                    empty += 1
                    continue
                if empty:
                    row += str(empty)
                    empty = 0
                letter = "KABNRCP"[abs(code) - 1]
                row += letter if code > 0 else letter.lower()
            if empty:
                row += str(empty)
            rows.append(row)
        return "/".join(rows) + (" w" if self._red_to_move else " b")

    def copy(self) -> Board:
        """An independent board with the same position and move stack."""
        other = Board.__new__(Board)
        other._cells = list(self._cells)
        other._kings = list(self._kings)
        other._red_to_move = self._red_to_move
        other._stack = list(self._stack)
        return other

    # -- queries --

    @property
    def turn(self) -> Colour:
        return Colour.RED if self._red_to_move else Colour.BLACK

    def piece_at(self, sq: int) -> Piece | None:
        code = self._cells[sq]
        return Piece.from_code(code) if code else None

    def pieces(self) -> dict[int, Piece]:
        """Every occupied square and its piece."""
        return {sq: Piece.from_code(c) for sq, c in enumerate(self._cells) if c}

    def king_square(self, colour: Colour) -> int:
        return self._kings[0 if colour is Colour.RED else 1]

    @property
    def move_stack(self) -> list[Move]:
        return [Move(f, t) for f, t, _ in self._stack]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._cells == other._cells and self._red_to_move == other._red_to_move

    def __hash__(self) -> int:
        return hash((tuple(self._cells), self._red_to_move))

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"

    def __str__(self) -> str:
        lines = []
        for rank in range(9, -1, -1):
            cells = []
            for f in range(9):
                code = self._cells[square(f, rank)]
                cells.append(Piece.from_code(code).symbol if code else ".")
            lines.append(f"{rank} " + " ".join(cells))
        lines.append("  " + " ".join(FILES))
        return "\n".join(lines)

    # -- attack and move generation --

    def _attacked(self, sq: int, by: int) -> bool:
        """Whether side ``by`` (+1 Red, -1 Black) attacks ``sq`` (a general's square)."""
        b = self._cells
        rook, cannon, king = _R * by, _C * by, _K * by
        for d, ray in enumerate(_RAYS[sq]):
            screened = False
            for t in ray:
                p = b[t]
                if p:
                    if screened:
                        if p == cannon:
                            return True
                        break
                    if p == rook or (p == king and d < 2):
                        return True
                    screened = True
        horse = _N * by
        for h, leg in _HORSE_ATTACKERS[sq]:
            if b[h] == horse and not b[leg]:
                return True
        pawn = _P * by
        return any(b[t] == pawn for t in _PAWN_ATTACKERS[0 if by > 0 else 1][sq])

    def _pseudo_moves(self) -> list[tuple[int, int]]:
        b = self._cells
        side = 1 if self._red_to_move else -1
        out: list[tuple[int, int]] = []
        append = out.append
        pawn_moves = _PAWN_MOVES[0 if side > 0 else 1]
        for fr in range(90):
            p = b[fr] * side
            if p <= 0:
                continue
            if p == _R:
                for ray in _RAYS[fr]:
                    for t in ray:
                        q = b[t]
                        if q == 0:
                            append((fr, t))
                        else:
                            if q * side < 0:
                                append((fr, t))
                            break
            elif p == _C:
                for ray in _RAYS[fr]:
                    screened = False
                    for t in ray:
                        q = b[t]
                        if not screened:
                            if q == 0:
                                append((fr, t))
                            else:
                                screened = True
                        elif q:
                            if q * side < 0:
                                append((fr, t))
                            break
            elif p == _N:
                for leg, t in _HORSE_MOVES[fr]:
                    if not b[leg] and b[t] * side <= 0:
                        append((fr, t))
            elif p == _P:
                for t in pawn_moves[fr]:
                    if b[t] * side <= 0:
                        append((fr, t))
            elif p == _B:
                for eye, t in _ELEPHANT_MOVES[fr]:
                    if not b[eye] and b[t] * side <= 0:
                        append((fr, t))
            elif p == _A:
                for t in _ADVISOR_MOVES[fr]:
                    if b[t] * side <= 0:
                        append((fr, t))
            else:  # king
                for t in _KING_MOVES[fr]:
                    if b[t] * side <= 0:
                        append((fr, t))
        return out

    def _legal_pairs(self) -> list[tuple[int, int]]:
        b = self._cells
        side = 1 if self._red_to_move else -1
        ksq = self._kings[0 if side > 0 else 1]
        attacked = self._attacked
        legal = []
        for fr, to in self._pseudo_moves():
            cap = b[to]
            moving = b[fr]
            b[to] = moving
            b[fr] = 0
            ok = not attacked(to if moving * side == _K else ksq, -side)
            b[fr] = moving
            b[to] = cap
            if ok:
                legal.append((fr, to))
        return legal

    def legal_moves(self) -> list[Move]:
        """Every legal move of the side to move."""
        return [Move(f, t) for f, t in self._legal_pairs()]

    def is_legal(self, move: Move) -> bool:
        return (move.from_square, move.to_square) in self._legal_pairs()

    def is_check(self) -> bool:
        """Whether the side to move is in check (将军), flying general included."""
        side = 1 if self._red_to_move else -1
        return self._attacked(self._kings[0 if side > 0 else 1], -side)

    def has_legal_move(self) -> bool:
        return bool(self._legal_pairs())

    def is_checkmate(self) -> bool:
        return self.is_check() and not self.has_legal_move()

    def is_stalemate(self) -> bool:
        """No legal move and not in check (困毙) — a loss in Xiangqi."""
        return not self.is_check() and not self.has_legal_move()

    def winner(self) -> Colour | None:
        """The winner if the side to move has no legal move (mate or stalemate), else None."""
        return None if self.has_legal_move() else self.turn.other

    def is_capture(self, move: Move) -> bool:
        return self._cells[move.to_square] != 0

    def gives_check(self, move: Move) -> bool:
        """Whether the (legal) move checks the opponent's general."""
        self.push(move)
        try:
            return self.is_check()
        finally:
            self.pop()

    # -- make / unmake --

    def push(self, move: Move) -> None:
        """Make a legal move; raises UserError for an illegal one."""
        if not self.is_legal(move):
            raise UserError(f"着法 {move.iccs} 不合法", f"illegal move {move.iccs}")
        self._make(move.from_square, move.to_square)

    def push_unchecked(self, move: Move) -> None:
        """Make a move known to be legal (from ``legal_moves``) without checking it again."""
        self._make(move.from_square, move.to_square)

    def _make(self, fr: int, to: int) -> None:
        b = self._cells
        moving = b[fr]
        self._stack.append((fr, to, b[to]))
        b[to] = moving
        b[fr] = 0
        if moving == _K:
            self._kings[0] = to
        elif moving == -_K:
            self._kings[1] = to
        self._red_to_move = not self._red_to_move

    def pop(self) -> Move:
        """Take back the last move and return it."""
        if not self._stack:
            raise UserError("没有可以悔的着法", "no move to take back")
        fr, to, cap = self._stack.pop()
        b = self._cells
        moving = b[to]
        b[fr] = moving
        b[to] = cap
        if moving == _K:
            self._kings[0] = fr
        elif moving == -_K:
            self._kings[1] = fr
        self._red_to_move = not self._red_to_move
        return Move(fr, to)


def perft(board: Board, depth: int) -> int:
    """Count the leaf positions ``depth`` plies deep (bulk-counted at the last ply).

    >>> perft(Board(), 1)
    44
    """
    if depth <= 0:
        return 1
    pairs = board._legal_pairs()
    if depth == 1:
        return len(pairs)
    total = 0
    make = board._make
    for fr, to in pairs:
        make(fr, to)
        total += perft(board, depth - 1)
        board.pop()
    return total
