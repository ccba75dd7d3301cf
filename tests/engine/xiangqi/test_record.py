"""Game records: the real game 柳大华–杨官璘 (1982 全国赛) through PGN, GBK, DhtmlXQ; import errors."""

from pathlib import Path

import pytest

from app.engine.types import Colour, GameResult, UserError
from app.engine.xiangqi import (
    GameRecord,
    Move,
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

DATA = Path(__file__).parent / "data"
REAL_GAME = DATA / "liu_dahua_yang_guanlin_1982.pgn"
# The final position of this game as published with it (xiangqi.js documentation).
REAL_FINAL_FEN = "3akc3/9/4ba3/r7p/P1bC5/9/8P/3AB1N2/4K1nR1/2B6 b"


def real_text() -> str:
    return REAL_GAME.read_text(encoding="utf-8")


def test_real_game_imports_replays_and_exports_identically() -> None:
    record = parse_pgn(real_text())
    assert record.header("Red") == "柳大华" and record.header("Black") == "杨官璘"
    assert record.result is GameResult.DRAW
    assert len(record.moves) == 125 and record.full_moves == 63
    assert record.moves[0] == Move.from_iccs("b2e2")  # 炮八平五
    assert record.final_fen == REAL_FINAL_FEN
    assert export_pgn(record) == real_text()


def test_real_game_through_iccs_wxf_and_gbk() -> None:
    record = parse_pgn(real_text())
    for style in MoveFormat:
        again = parse_pgn(export_pgn(record, style))
        assert again == record
    iccs = export_pgn(record, MoveFormat.ICCS)
    assert '[Format "ICCS"]' in iccs and "\n1. B2-E2 B9-C7\n" in iccs
    assert parse_pgn_bytes(real_text().encode("gbk")) == (record,)
    assert parse_pgn_bytes(b"\xef\xbb\xbf" + real_text().encode("utf-8")) == (record,)


def test_decode_gbk_and_utf8() -> None:
    assert decode_record_bytes("红方 马８进７".encode("gbk")) == "红方 马８进７"
    assert decode_record_bytes("红方 马８进７".encode()) == "红方 马８进７"


def test_dhtmlxq_export() -> None:
    record = parse_pgn(real_text())
    text = export_dhtmlxq(record)
    assert text.startswith("[DhtmlXQ]\n") and text.endswith("[/DhtmlXQ]\n")
    assert (
        "[DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]"
        in text
    )
    assert "[DhtmlXQ_result]和棋[/DhtmlXQ_result]" in text
    moves = text.split("[DhtmlXQ_movelist]")[1].split("[/DhtmlXQ_movelist]")[0]
    assert len(moves) == 4 * 125
    # b2e2 = x1 y7 -> x4 y7; b9c7 = x1 y0 -> x2 y2
    assert moves.startswith("17471022")


def test_illegal_move_reported_with_its_number_and_side() -> None:
    # Move 10 for Black was 车９平８ (i9h9); 车９平７ would land on Black's own elephant g9.
    text = real_text().replace("10. 车一平二 车９平８", "10. 车一平二 车９平７")
    with pytest.raises(RecordError) as info:
        parse_pgn(text)
    assert info.value.move_number == 10 and info.value.colour is Colour.BLACK
    assert "第 10 回合黑方" in info.value.zh and "不合法" in info.value.zh


def test_ambiguous_move_reported() -> None:
    text = '[Game "Chinese Chess"]\n[FEN "3k5/9/1r7/7R1/9/1r7/7R1/9/9/4K4 w - - 0 1"]\n\n1. 车二进二 *\n'
    with pytest.raises(RecordError) as info:
        parse_pgn(text)
    assert info.value.move_number == 1 and info.value.colour is Colour.RED
    assert "歧义" in info.value.zh and "ambiguous" in info.value.en


def test_moves_after_mate_are_refused() -> None:
    text = '[Game "Chinese Chess"]\n[FEN "R2k5/R8/9/9/9/9/9/9/9/4K4 b"]\n\n1. ... 将６进１ 1-0\n'
    with pytest.raises(RecordError, match="已经结束"):
        parse_pgn(text)


def test_comments_variations_and_black_first() -> None:
    text = (
        '[Game "Chinese Chess"]\n[Red "甲"]\n[Result "0-1"]\n'
        '[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1"]\n\n'
        "1. ... 马８进７ {屏风马} 2. 马二进三 (2. 马八进七 车９平８) 车９平８ 0-1\n"
    )
    record = parse_pgn(text)
    assert [m.iccs for m in record.moves] == ["h9g7", "h0g2", "i9h9"]
    assert record.first_mover is Colour.BLACK and record.full_moves == 2
    out = export_pgn(record)
    assert "\n1. ... 马８进７\n2. 马二进三 车９平８\n0-1\n" in out
    assert parse_pgn(out) == record


def test_several_games_in_one_file() -> None:
    one = parse_pgn(real_text())
    short = GameRecord((("Red", "乙"),), (Move.from_iccs("h2e2"),), GameResult.PENDING)
    games = parse_pgn_games(export_pgn_games([one, short]))
    assert games == (one, short)


def test_record_refuses_illegal_moves_and_own_headers() -> None:
    with pytest.raises(RecordError):
        GameRecord(moves=(Move.from_iccs("h2h8"),))
    with pytest.raises(UserError):
        GameRecord(headers=(("Result", "1-0"),))


def test_fen_tail_is_normalised_and_written_back() -> None:
    fen = "3k5/9/1r7/7R1/9/1r7/7R1/9/9/4K4 w"
    with_tail = GameRecord(moves=(Move.from_iccs("h6h8"),), fen=fen + " - - 0 1")
    assert with_tail == GameRecord(moves=(Move.from_iccs("h6h8"),), fen=fen)
    text = export_pgn(with_tail)
    assert f'[FEN "{fen} - - 0 1"]' in text and "\n1. 前车进二\n*\n" in text
