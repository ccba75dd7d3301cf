"""ICCS, WXF and Chinese notation: hand-worked cases and round trips over random positions."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.types import UserError
from app.engine.xiangqi import (
    Board,
    Move,
    NotationError,
    NotationProblem,
    format_chinese,
    format_wxf,
    parse_chinese,
    parse_iccs,
    parse_move,
    parse_wxf,
)


def check(fen: str, iccs: str, chinese: str, wxf: str) -> None:
    board = Board(fen)
    move = Move.from_iccs(iccs)
    assert format_chinese(board, move) == chinese
    assert format_wxf(board, move) == wxf
    assert parse_chinese(board, chinese) == move
    assert parse_wxf(board, wxf) == move


def test_opening_moves() -> None:
    board = Board()
    check(board.fen(), "h2e2", "炮二平五", "C2=5")
    check(board.fen(), "h0g2", "马二进三", "H2+3")
    check(board.fen(), "i0i1", "车一进一", "R1+1")
    check(board.fen(), "g3g4", "兵三进一", "P3+1")
    check(board.fen(), "c0e2", "相七进五", "E7+5")
    check(board.fen(), "f0e1", "仕四进五", "A4+5")
    board.push(Move.from_iccs("h2e2"))
    check(board.fen(), "h9g7", "马８进７", "H8+7")
    check(board.fen(), "b7e7", "炮２平５", "C2=5")
    check(board.fen(), "e9e8", "将５进１", "K5+1")


def test_black_digits_ascii_fullwidth_and_traditional() -> None:
    board = Board()
    board.push(Move.from_iccs("h2e2"))
    move = Move.from_iccs("h9g7")
    assert format_chinese(board, move, ascii_digits=True) == "马8进7"
    for text in ("马８进７", "马8进7", "馬８進７", "馬8進7"):
        assert parse_chinese(board, text) == move
    assert parse_wxf(board, "N8+7") == move
    assert parse_move(board, "H9-G7") == move


TWO_CHARIOTS = "3k5/9/1r7/7R1/9/1r7/7R1/9/9/4K4 w"


def test_two_chariots_on_a_file() -> None:
    # Red chariots h6 (front) and h3 on file 二; Black chariots b4 (front for Black) and b7 on file 2.
    check(TWO_CHARIOTS, "h6h8", "前车进二", "R++2")
    check(TWO_CHARIOTS, "h3d3", "后车平六", "R-=6")
    check(TWO_CHARIOTS, "h3h5", "后车进二", "R-+2")
    black = TWO_CHARIOTS.replace(" w", " b")
    check(black, "b4b1", "前车进３", "R++3")
    check(black, "b7b8", "后车退１", "R--1")


def test_file_number_with_two_candidates_is_ambiguous() -> None:
    board = Board(TWO_CHARIOTS)
    with pytest.raises(UserError, match="歧义"):
        parse_chinese(board, "车二进二")  # h3h5 and h6h8
    with pytest.raises(UserError, match="歧义"):
        parse_wxf(board, "R2=1")  # h3i3 and h6i6


def test_three_and_four_pawns_on_a_file() -> None:
    three = "3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w"  # pawns c7 c6 c5 on file 七
    check(three, "c7c8", "前兵进一", "Pa+1")
    check(three, "c6d6", "中兵平六", "Pb=6")
    check(three, "c5b5", "后兵平八", "Pc=8")
    four = "3k5/2P6/2P6/2P6/2P6/9/9/9/9/4K4 w"  # c8 c7 c6 c5: 一 二 三 四 from the front
    check(four, "c8c9", "一兵进一", "Pa+1")
    check(four, "c6d6", "三兵平六", "Pc=6")
    check(four, "c5b5", "四兵平八", "Pd=8")
    assert parse_chinese(Board(four), "前兵进一") == Move.from_iccs("c8c9")
    assert parse_chinese(Board(four), "后兵平八") == Move.from_iccs("c5b5")


def test_two_files_with_two_pawns_each() -> None:
    red = "3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w"  # c6 c5 on file 七, g6 g5 on file 三
    check(red, "c6c7", "前七进一", "P+7+1")
    check(red, "c5b5", "后七平八", "P-7=8")
    check(red, "g6g7", "前三进一", "P+3+1")
    check(red, "g5h5", "后三平二", "P-3=2")
    with pytest.raises(UserError, match="歧义"):
        parse_chinese(Board(red), "前兵进一")  # c6c7 or g6g7
    black = "3k5/9/9/9/9/2p3p2/2p3p2/9/9/4K4 b"  # c3 c4 on file 3, g3 g4 on file 7
    check(black, "c3c2", "前３进１", "P+3+1")
    check(black, "g4f4", "后７平６", "P-7=6")


def test_three_pawns_on_one_file_and_two_on_another() -> None:
    fen = "3k5/9/2P6/2P3P2/2P3P2/9/9/9/9/4K4 w"  # c7 c6 c5 on file 七, g6 g5 on file 三
    check(fen, "c7c8", "前七进一", "Pa7+1")
    check(fen, "c6d6", "中七平六", "Pb7=6")
    check(fen, "c5b5", "后七平八", "Pc7=8")
    check(fen, "g5h5", "后三平二", "P-3=2")


def test_problems_are_told_apart() -> None:
    board = Board(TWO_CHARIOTS)
    for text, problem in (
        ("车二进", NotationProblem.UNREADABLE),
        ("车二进九", NotationProblem.ILLEGAL),
        ("车二进二", NotationProblem.AMBIGUOUS),
        ("R2+2", NotationProblem.AMBIGUOUS),
        ("h3h9", NotationProblem.ILLEGAL),
    ):
        with pytest.raises(NotationError) as info:
            parse_move(board, text)
        assert info.value.problem is problem, text


def test_advisors_on_one_file_take_no_front_or_rear() -> None:
    fen = "3k5/9/9/9/9/9/9/3A5/5K3/3A5 w"  # advisors d2 and d0, general f1
    check(fen, "d0e1", "仕六进五", "A6+5")
    check(fen, "d2e1", "仕六退五", "A6-5")


def test_unreadable_and_illegal_text() -> None:
    board = Board()
    for text in ("炮二平", "炮十平五", "xyz", "C2?5"):
        with pytest.raises(UserError):
            parse_move(board, text)
    with pytest.raises(UserError, match="不合法"):
        parse_chinese(board, "车一平二")  # blocked by the horse
    with pytest.raises(UserError, match="不合法"):
        parse_iccs(board, "a0a5")


def random_position(seed: int) -> Board:
    rng = random.Random(seed)
    board = Board()
    for _ in range(rng.randrange(0, 160)):
        moves = board.legal_moves()
        if not moves:
            break
        board.push_unchecked(rng.choice(moves))
    return board


@settings(max_examples=40)
@given(st.integers(min_value=0, max_value=2**32))
def test_round_trips_over_every_legal_move(seed: int) -> None:
    board = random_position(seed)
    moves = board.legal_moves()
    chinese = [format_chinese(board, m) for m in moves]
    assert len(set(chinese)) == len(moves)  # every legal move has its own text
    for move, text in zip(moves, chinese, strict=True):
        assert parse_chinese(board, text) == move
        assert parse_chinese(board, format_chinese(board, move, ascii_digits=True)) == move
        assert parse_wxf(board, format_wxf(board, move)) == move
        assert parse_move(board, move.iccs) == move
