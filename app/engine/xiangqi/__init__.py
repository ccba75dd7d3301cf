"""Xiangqi (象棋) rules: board and legal moves, notation, game records and record checks.

Pure Python, standard library only. See ``board`` (squares, FEN, moves, perft), ``notation``
(ICCS, WXF, Chinese), ``record`` (GameRecord, PGN, DhtmlXQ) and ``checks`` (record rules).
"""

from app.engine.xiangqi.board import START_FEN, Board, Move, Piece, PieceType, perft, square, square_name
from app.engine.xiangqi.checks import RecordCheck, RecordFinding, RecordFindingKind, check_record
from app.engine.xiangqi.notation import (
    NotationError,
    NotationProblem,
    format_chinese,
    format_iccs,
    format_wxf,
    parse_chinese,
    parse_iccs,
    parse_move,
    parse_wxf,
)
from app.engine.xiangqi.record import (
    GameRecord,
    MoveFormat,
    RecordError,
    decode_record_bytes,
    export_dhtmlxq,
    export_pgn,
    export_pgn_games,
    parse_pgn,
    parse_pgn_bytes,
    parse_pgn_games,
)

__all__ = [
    "START_FEN",
    "Board",
    "GameRecord",
    "Move",
    "MoveFormat",
    "NotationError",
    "NotationProblem",
    "Piece",
    "PieceType",
    "RecordCheck",
    "RecordError",
    "RecordFinding",
    "RecordFindingKind",
    "check_record",
    "decode_record_bytes",
    "export_dhtmlxq",
    "export_pgn",
    "export_pgn_games",
    "format_chinese",
    "format_iccs",
    "format_wxf",
    "parse_chinese",
    "parse_iccs",
    "parse_move",
    "parse_pgn",
    "parse_pgn_bytes",
    "parse_pgn_games",
    "parse_wxf",
    "perft",
    "square",
    "square_name",
]
