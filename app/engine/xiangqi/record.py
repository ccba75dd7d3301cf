"""Game records (棋谱): the GameRecord value, PGN as xqbase writes it, and DhtmlXQ export.

A PGN as xqbase tools write it::

    [Game "Chinese Chess"]
    [Event "1982年全国赛"]
    [Red "柳大华"]
    [Black "杨官璘"]
    [Result "1/2-1/2"]
    [Format "Chinese"]

    1. 炮八平五 马２进３
    2. 马八进七 车１平２
    ...

Moves are read in Chinese, WXF or ICCS (``h2e2`` or xqbase's ``H2-E2``), whatever the ``Format``
header says. Every move is replayed; an illegal or ambiguous one raises :class:`RecordError`
with its move number and side — a game is never silently cut short.

>>> record = parse_pgn('[Game "Chinese Chess"]\\n[Red "甲"]\\n[Black "乙"]\\n1. 炮二平五 马８进７ *')
>>> [m.iccs for m in record.moves], record.header("Red")
(['h2e2', 'h9g7'], '甲')
>>> print(export_pgn(record).splitlines()[-2])
1. 炮二平五 马８进７
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from app.engine.types import Colour, GameResult, UserError
from app.engine.xiangqi.board import START_FEN, Board, Move, PieceType, square_file, square_rank
from app.engine.xiangqi.notation import (
    NotationError,
    NotationProblem,
    format_chinese,
    format_iccs,
    format_wxf,
    parse_move,
)


class RecordError(UserError):
    """An import error tied to one move: its number (回合), the side, the text and the reason."""

    def __init__(self, move_number: int, colour: Colour, text: str, reason_zh: str, reason_en: str) -> None:
        self.move_number = move_number
        self.colour = colour
        self.text = text
        super().__init__(
            f"第 {move_number} 回合{colour.zh}方着法“{text}”：{reason_zh}",
            f"move {move_number} ({colour.value}) {text!r}: {reason_en}",
        )


class MoveFormat(enum.Enum):
    """How a PGN writes its moves (the ``Format`` header)."""

    CHINESE = "Chinese"
    ICCS = "ICCS"
    WXF = "WXF"


PGN_RESULTS: dict[GameResult, str] = {
    GameResult.RED_WIN: "1-0",
    GameResult.BLACK_WIN: "0-1",
    GameResult.DRAW: "1/2-1/2",
    GameResult.BLACK_FORFEIT: "1-0",
    GameResult.RED_FORFEIT: "0-1",
    GameResult.DOUBLE_FORFEIT: "*",
    GameResult.PENDING: "*",
}
_RESULT_BY_PGN: dict[str, GameResult] = {
    "1-0": GameResult.RED_WIN,
    "0-1": GameResult.BLACK_WIN,
    "1/2-1/2": GameResult.DRAW,
    "1/2": GameResult.DRAW,
    "=": GameResult.DRAW,
    "*": GameResult.PENDING,
}
# Headers that the record keeps elsewhere and writes itself.
_OWN_HEADERS = ("Game", "Format", "FEN", "Result")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A recorded game: headers in order (Event, Round, Board, Red, Black, Date, …), moves, result.

    The moves are checked on creation by replaying them from ``fen`` (kept as board and side,
    without the ``- - 0 1`` tail).

    >>> GameRecord(moves=(Move.from_iccs("h2e2"),)).full_moves
    1
    """

    headers: tuple[tuple[str, str], ...] = ()
    moves: tuple[Move, ...] = ()
    result: GameResult = GameResult.PENDING
    fen: str = START_FEN
    _final_fen: str = field(default="", init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for name, _ in self.headers:
            if name in _OWN_HEADERS:
                raise UserError(
                    f"棋谱头“{name}”由程序写出，请用对应字段", f"header {name!r} is set through its own field"
                )
        object.__setattr__(self, "fen", Board(self.fen).fen())  # board and side only
        object.__setattr__(self, "_final_fen", self.replay().fen())

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key == name:
                return value
        return None

    def with_header(self, name: str, value: str) -> GameRecord:
        """A copy with one header set (replaced in place, or added at the end)."""
        if any(k == name for k, _ in self.headers):
            headers = tuple((k, value if k == name else v) for k, v in self.headers)
        else:
            headers = (*self.headers, (name, value))
        return GameRecord(headers, self.moves, self.result, self.fen)

    @property
    def first_mover(self) -> Colour:
        return Board(self.fen).turn

    @property
    def full_moves(self) -> int:
        """The number of moves (回合) played: the number of the last move, 0 when empty."""
        if not self.moves:
            return 0
        return move_number(len(self.moves) - 1, self.first_mover)

    @property
    def final_fen(self) -> str:
        return self._final_fen

    def replay(self) -> Board:
        """The board after every move; raises RecordError at the first illegal move."""
        board = Board(self.fen)
        first = board.turn
        for i, move in enumerate(self.moves):
            if not board.is_legal(move):
                raise RecordError(
                    move_number(i, first), board.turn, move.iccs, "不合法的着法", "illegal move"
                )
            board.push_unchecked(move)
        return board

    def notation(self, style: MoveFormat = MoveFormat.CHINESE) -> tuple[str, ...]:
        """The moves written in a notation."""
        board = Board(self.fen)
        out = []
        for move in self.moves:
            if style is MoveFormat.CHINESE:
                out.append(format_chinese(board, move))
            elif style is MoveFormat.WXF:
                out.append(format_wxf(board, move))
            else:
                out.append(format_iccs(move, xqbase=True))
            board.push_unchecked(move)
        return tuple(out)


def move_number(ply: int, first: Colour = Colour.RED) -> int:
    """The move number (回合) of the 0-based ply ``ply``.

    >>> move_number(0), move_number(1), move_number(2), move_number(0, Colour.BLACK), move_number(1, Colour.BLACK)
    (1, 1, 2, 1, 2)
    """
    return (ply + (0 if first is Colour.RED else 1)) // 2 + 1


# --- decoding -----------------------------------------------------------------------------------


def decode_record_bytes(data: bytes) -> str:
    """Text of a record file: UTF-8 (with or without BOM), UTF-16 with BOM, else GBK (GB18030).

    >>> decode_record_bytes("炮二平五".encode("gbk"))
    '炮二平五'
    """
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("gb18030")
    except UnicodeDecodeError:
        raise UserError(
            "棋谱文件既不是 UTF-8 也不是 GBK 编码", "the record file is neither UTF-8 nor GBK text"
        ) from None


_PROBLEM_WORDS: dict[NotationProblem, tuple[str, str]] = {
    NotationProblem.UNREADABLE: ("无法识别", "unreadable"),
    NotationProblem.ILLEGAL: ("不合法", "illegal"),
    NotationProblem.AMBIGUOUS: ("有歧义", "ambiguous"),
}

# --- PGN import ---------------------------------------------------------------------------------

_HEADER_RE = re.compile(r'^\s*\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_MOVE_NUMBER_RE = re.compile(r"^\d+\s*\.+")
_RESULT_TOKENS = ("1-0", "0-1", "1/2-1/2", "*")


def _strip_comments(text: str) -> str:
    out = []
    depth = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "{":
            end = text.find("}", i)
            i = len(text) if end < 0 else end + 1
            continue
        if ch == ";" and depth == 0:
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
        i += 1
    return "".join(out)


def _split_games(text: str) -> list[tuple[list[str], str]]:
    games: list[tuple[list[str], str]] = []
    headers: list[str] = []
    body: list[str] = []
    for line in text.splitlines():
        if _HEADER_RE.match(line):
            if body and any(b.strip() for b in body):
                games.append((headers, "\n".join(body)))
                headers, body = [], []
            headers.append(line)
        else:
            body.append(line)
    if headers or any(b.strip() for b in body):
        games.append((headers, "\n".join(body)))
    return games


def parse_pgn_games(text: str) -> tuple[GameRecord, ...]:
    """Every game of a PGN text (one or many, each starting with its headers)."""
    return tuple(_parse_one(h, b) for h, b in _split_games(text.lstrip("\ufeff")))


def parse_pgn(text: str) -> GameRecord:
    """The one game of a PGN text; raises UserError if the text holds none or several."""
    games = parse_pgn_games(text)
    if len(games) != 1:
        raise UserError(
            f"应为一局棋谱，实际有 {len(games)} 局", f"expected one game, the text holds {len(games)}"
        )
    return games[0]


def parse_pgn_bytes(data: bytes) -> tuple[GameRecord, ...]:
    """Every game of a PGN file's bytes (UTF-8 or GBK)."""
    return parse_pgn_games(decode_record_bytes(data))


def _parse_one(header_lines: list[str], body: str) -> GameRecord:
    headers: list[tuple[str, str]] = []
    fen = START_FEN
    result_header: str | None = None
    for line in header_lines:
        m = _HEADER_RE.match(line)
        assert m is not None
        name, value = m.group(1), m.group(2).replace('\\"', '"').replace("\\\\", "\\")
        if name == "FEN":
            fen = value.strip() or START_FEN
        elif name == "Result":
            result_header = value.strip()
        elif name not in ("Game", "Format"):
            headers.append((name, value))
    board = Board(fen)
    first = board.turn
    moves: list[Move] = []
    result_token: str | None = None
    for raw in _strip_comments(body).split():
        token = _MOVE_NUMBER_RE.sub("", raw)
        if not token or set(token) <= {".", "…"}:
            continue
        if token in _RESULT_TOKENS:
            result_token = token
            continue
        if token.startswith("$"):
            continue
        token = token.rstrip("!?+#")  # annotation marks; every move ends in a number
        ply = len(moves)
        number, side = move_number(ply, first), board.turn
        if result_token is not None:
            raise RecordError(number, side, token, "着法出现在结果之后", "move after the result")
        if not board.has_legal_move():
            raise RecordError(
                number, side, token, "对局已经结束（已被将死或困毙）", "the game is already over"
            )
        try:
            move = parse_move(board, token)
        except NotationError as exc:
            zh, en = _PROBLEM_WORDS[exc.problem]
            raise RecordError(number, side, token, f"{zh}（{exc.zh}）", f"{en} ({exc.en})") from None
        board.push_unchecked(move)
        moves.append(move)
    code = result_header if result_header not in (None, "", "*") else result_token
    result = _RESULT_BY_PGN.get(code or "*")
    if result is None:
        raise UserError(f"无法识别的对局结果“{code}”", f"unknown PGN result {code!r}")
    return GameRecord(tuple(headers), tuple(moves), result, fen)


# --- PGN export ---------------------------------------------------------------------------------


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def export_pgn(record: GameRecord, style: MoveFormat = MoveFormat.CHINESE) -> str:
    """The record as xqbase-style PGN: ``[Game "Chinese Chess"]``, headers, ``Result``, ``FEN``
    when not the start, ``Format``, then one numbered move pair a line and the result.
    """
    result = PGN_RESULTS[record.result]
    lines = ['[Game "Chinese Chess"]']
    lines += [f'[{name} "{_quote(value)}"]' for name, value in record.headers]
    lines.append(f'[Result "{result}"]')
    if Board(record.fen) != Board(START_FEN):
        lines.append(f'[FEN "{record.fen} - - 0 1"]')
    lines.append(f'[Format "{style.value}"]')
    lines.append("")
    texts = record.notation(style)
    first = record.first_mover
    ply = 0
    if first is Colour.BLACK and texts:
        lines.append(f"1. ... {texts[0]}")
        ply = 1
    while ply < len(texts):
        pair = texts[ply : ply + 2]
        lines.append(f"{move_number(ply, first)}. {' '.join(pair)}")
        ply += 2
    lines.append(result)
    return "\n".join(lines) + "\n"


def export_pgn_games(records: Iterable[GameRecord], style: MoveFormat = MoveFormat.CHINESE) -> str:
    """Several records as one PGN text, a blank line between games."""
    return "\n".join(export_pgn(r, style) for r in records)


# --- DhtmlXQ export -----------------------------------------------------------------------------

_DHTML_RESULTS: dict[GameResult, str] = {
    GameResult.RED_WIN: "红胜",
    GameResult.BLACK_WIN: "黑胜",
    GameResult.DRAW: "和棋",
    GameResult.BLACK_FORFEIT: "红胜",
    GameResult.RED_FORFEIT: "黑胜",
}
_DHTML_TAGS = {
    "Event": "event",
    "Round": "round",
    "Board": "table",
    "Date": "date",
    "Site": "place",
    "Red": "red",
    "RedTeam": "redteam",
    "Black": "black",
    "BlackTeam": "blackteam",
    "Opening": "open",
}
# binit slots for each side: 车马相仕帅仕相马车炮炮兵兵兵兵兵
_BINIT_KINDS = (
    PieceType.CHARIOT,
    PieceType.HORSE,
    PieceType.ELEPHANT,
    PieceType.ADVISOR,
    PieceType.KING,
    PieceType.ADVISOR,
    PieceType.ELEPHANT,
    PieceType.HORSE,
    PieceType.CHARIOT,
    PieceType.CANNON,
    PieceType.CANNON,
    PieceType.PAWN,
    PieceType.PAWN,
    PieceType.PAWN,
    PieceType.PAWN,
    PieceType.PAWN,
)


def dhtmlxq_square(sq: int) -> str:
    """DhtmlXQ coordinates: x = file from Red's left, y = rank from Black's back rank.

    >>> dhtmlxq_square(25)  # h2
    '77'
    """
    return f"{square_file(sq)}{9 - square_rank(sq)}"


def dhtmlxq_binit(fen: str) -> str:
    """The 64-digit ``binit`` of a position (``99`` for a missing piece).

    >>> dhtmlxq_binit(START_FEN)[:20]
    '89796959493929190977'
    """
    board = Board(fen)
    out: list[str] = []
    for colour in (Colour.RED, Colour.BLACK):
        by_kind: dict[PieceType, list[int]] = {}
        for sq, piece in sorted(board.pieces().items()):
            if piece.colour is colour:
                by_kind.setdefault(piece.kind, []).append(sq)
        for kind, squares in by_kind.items():
            # right to left from the owner's view, as the start position's binit lists them
            squares.sort(
                key=lambda s: (
                    (-square_file(s), square_rank(s))
                    if colour is Colour.RED
                    else (square_file(s), -square_rank(s))
                )
            )
            if len(squares) > _BINIT_KINDS.count(kind):
                raise UserError(
                    "局面中的棋子超出 DhtmlXQ 可表示的数量", "too many pieces of a kind for DhtmlXQ"
                )
        for kind in _BINIT_KINDS:
            squares = by_kind.get(kind, [])
            out.append(dhtmlxq_square(squares.pop(0)) if squares else "99")
    return "".join(out)


def export_dhtmlxq(record: GameRecord) -> str:
    """The record as a DhtmlXQ block (东萍 format), moves as 4 digits each (``7747`` = h2e2)."""
    lines = ["[DhtmlXQ]"]
    red, black = record.header("Red") or "", record.header("Black") or ""
    lines.append(f"[DhtmlXQ_title]{red}（红）对{black}（黑）[/DhtmlXQ_title]")
    for name, tag in _DHTML_TAGS.items():
        value = record.header(name)
        if value:
            lines.append(f"[DhtmlXQ_{tag}]{value}[/DhtmlXQ_{tag}]")
    lines.append(f"[DhtmlXQ_result]{_DHTML_RESULTS.get(record.result, '未知')}[/DhtmlXQ_result]")
    lines.append(f"[DhtmlXQ_binit]{dhtmlxq_binit(record.fen)}[/DhtmlXQ_binit]")
    moves = "".join(dhtmlxq_square(m.from_square) + dhtmlxq_square(m.to_square) for m in record.moves)
    lines.append(f"[DhtmlXQ_movelist]{moves}[/DhtmlXQ_movelist]")
    lines.append("[/DhtmlXQ]")
    return "\n".join(lines) + "\n"
