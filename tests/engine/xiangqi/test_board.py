"""Board, FEN, legal moves and perft; expected counts are hand-worked in the comments."""

import pytest

from app.engine.types import Colour, UserError
from app.engine.xiangqi import START_FEN, Board, Move, perft


def iccs_set(board: Board) -> set[str]:
    return {m.iccs for m in board.legal_moves()}


@pytest.mark.parametrize(("depth", "nodes"), [(1, 44), (2, 1920), (3, 79666)])
def test_perft_start_position(depth: int, nodes: int) -> None:
    assert perft(Board(), depth) == nodes


@pytest.mark.slow
@pytest.mark.heavy(lighter="test_perft_start_position")
def test_perft_start_position_depth_4() -> None:
    assert perft(Board(), 4) == 3_290_240


def test_fen_round_trip_and_tails() -> None:
    assert Board().fen() == START_FEN
    assert Board(START_FEN + " - - 0 1").fen() == START_FEN
    assert Board(START_FEN.replace(" w", " r")).turn is Colour.RED
    black = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 0 1"
    assert Board(black).fen() == black.split(" - ")[0]


@pytest.mark.parametrize(
    "fen",
    [
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w",  # nine ranks
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBA1ABNR w",  # no red general
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",  # bad letter
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/K8/RNBA1ABNR w",  # general out of palace
    ],
)
def test_bad_fen_is_a_user_error(fen: str) -> None:
    with pytest.raises(UserError):
        Board(fen)


def test_flying_general_forbids_facing() -> None:
    # Red 帅 e0, 仕 e1, Black 将 d9. The advisor has d0 f0 d2 f2; the general has f0 only:
    # d0 would face the black general on the open d-file, e1 is taken.
    board = Board("3k5/9/9/9/9/9/9/9/4A4/4K4 w")
    assert iccs_set(board) == {"e1d0", "e1f0", "e1d2", "e1f2", "e0f0"}


def test_piece_pinned_between_generals_cannot_move() -> None:
    # The red horse on e1 is the only piece between the generals (e0, e9): it may not leave.
    board = Board("4k4/9/9/9/9/9/9/9/4N4/4K4 w")
    assert iccs_set(board) == {"e0d0", "e0f0"}


def test_cannon_moves_and_captures_over_one_screen() -> None:
    # Cannon e1: up e2 e3 then the black pawn e4 is the screen and it takes the rook e8;
    # down e0; left d1..a1; right f1..i1 = 12. General d0: d1, e0 = 2.
    board = Board("5k3/4r4/9/9/9/4p4/9/9/4C4/3K5 w")
    moves = iccs_set(board)
    assert len(moves) == 14
    assert "e1e8" in moves and "e1e4" not in moves and "e1e5" not in moves


def test_blocked_horse_legs() -> None:
    # Horse e4: f6/d6 blocked by the pawn on e5, c5/c3 by the red pawn on d4; f2 d2 g5 g3 remain.
    # Pawn d4 (not across the river): d5. General e0: d0, e1 (f0 faces the black general on f9).
    board = Board("5k3/9/9/9/4p4/3PN4/9/9/9/4K4 w")
    assert iccs_set(board) == {"e4f2", "e4d2", "e4g5", "e4g3", "d4d5", "e0d0", "e0e1"}


def test_elephant_eye_and_river() -> None:
    # Elephant g4: e2 blocked at its eye f3, e6/i6 across the river; i2 remains.
    # General e0: f0, e1 (d0 faces the black general on d9).
    board = Board("3k5/9/9/9/9/6B2/5p3/9/9/4K4 w")
    assert iccs_set(board) == {"g4i2", "e0f0", "e0e1"}


def test_check_must_be_answered() -> None:
    # Rook e8 checks along the e-file: step aside (d0, f0) or interpose the rook a3 on e3.
    board = Board("4k4/4r4/9/9/9/9/R8/9/9/4K4 w")
    assert board.is_check()
    assert iccs_set(board) == {"e0d0", "e0f0", "a3e3"}


def test_checkmate_and_stalemate_are_losses() -> None:
    mate = Board("R2k5/R8/9/9/9/9/9/9/9/4K4 b")
    assert mate.is_checkmate() and not mate.is_stalemate()
    assert mate.winner() is Colour.RED
    # 困毙: Black's general on d9 is not in check but d8 (rook a8) and e9 (flying general) are covered.
    stale = Board("3k5/R8/9/9/9/9/9/9/9/4K4 b")
    assert stale.is_stalemate() and not stale.is_checkmate()
    assert stale.winner() is Colour.RED
    assert Board().winner() is None


def test_push_pop_restores_the_position() -> None:
    board = Board()
    for text in ("h2e2", "h9g7", "e2e6"):  # the cannon takes the pawn e6 over the screen e3
        board.push(Move.from_iccs(text))
    assert board.fen() == "rnbakab1r/9/1c4nc1/p1p1C1p1p/9/9/P1P1P1P1P/1C7/9/RNBAKABNR b"
    while board.move_stack:
        board.pop()
    assert board.fen() == START_FEN


def test_illegal_push_is_refused() -> None:
    board = Board()
    with pytest.raises(UserError):
        board.push(Move.from_iccs("h2h8"))  # a cannon cannot pass its screen without taking
    with pytest.raises(UserError):
        board.push(Move.from_iccs("b0b2"))  # a horse does not move straight
