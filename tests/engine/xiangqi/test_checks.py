"""Record checks on constructed games: the 25-move draw rule and the natural move limit."""

from app.engine.types import Colour, GameResult
from app.engine.xiangqi import GameRecord, Move, RecordFindingKind, check_record

SHUFFLE = ("b0c2", "b9c7", "c2b0", "c7b9")  # four quiet plies that come back to the start


def shuffle(moves: int) -> list[Move]:
    """``moves`` full moves (回合) of horses going out and back, no capture, no check."""
    return [Move.from_iccs(SHUFFLE[i % 4]) for i in range(2 * moves)]


def kinds(record: GameRecord) -> list[RecordFindingKind]:
    return [f.kind for f in check_record(record).findings]


def test_move_count_and_short_draw() -> None:
    drawn_24 = GameRecord(moves=tuple(shuffle(24)), result=GameResult.DRAW)
    report = check_record(drawn_24)
    assert report.full_moves == 24 and report.plies == 48
    assert kinds(drawn_24) == [RecordFindingKind.SHORT_DRAW]
    assert report.findings[0].move_number == 24
    assert kinds(GameRecord(moves=tuple(shuffle(25)), result=GameResult.DRAW)) == []
    assert kinds(GameRecord(moves=tuple(shuffle(24)), result=GameResult.RED_WIN)) == []
    # Red's 25th move alone makes 25 回合
    assert check_record(GameRecord(moves=tuple(shuffle(25))[:-1], result=GameResult.DRAW)).full_moves == 25
    assert kinds(GameRecord(moves=tuple(shuffle(30)), result=GameResult.DRAW)) == []
    assert check_record(drawn_24, min_draw_moves=20).findings == ()


def test_natural_limit_reached_after_forty_quiet_moves() -> None:
    report = check_record(GameRecord(moves=tuple(shuffle(40))))
    assert report.longest_quiet_moves == 40
    assert report.natural_limit_reached_at == 40
    finding = report.findings[0]
    assert finding.kind is RecordFindingKind.NATURAL_LIMIT and finding.colour is Colour.BLACK
    assert check_record(GameRecord(moves=tuple(shuffle(40))[:-1])).natural_limit_reached_at is None


def test_a_capture_starts_the_count_again() -> None:
    # 30 quiet moves, then 炮二进七 takes the horse h9 and 车９平８ takes the cannon, then 30 more.
    moves = [*shuffle(30), Move.from_iccs("h2h9"), Move.from_iccs("i9h9"), *shuffle(30)]
    report = check_record(GameRecord(moves=tuple(moves)))
    assert report.full_moves == 61
    assert report.longest_quiet_moves == 30
    assert report.natural_limit_reached_at is None and report.findings == ()


def test_checking_moves_are_not_counted() -> None:
    # 车一进九 checks along rank 9; the general steps down; the chariot goes back; the general returns.
    # Each 4-ply cycle counts 3 quiet plies: the 80th quiet ply is the 3rd of cycle 27 = Red's move 54.
    # (Counting checks too, the limit would fall at move 40.)
    cycle = ("a0a9", "e9e8", "a9a0", "e8e9")
    moves = tuple(Move.from_iccs(cycle[i % 4]) for i in range(4 * 27))
    report = check_record(GameRecord(moves=moves, fen="4k4/9/9/9/9/9/9/9/9/R2K5 w"))
    assert report.natural_limit_reached_at == 54
    assert report.findings[0].colour is Colour.RED
    assert report.longest_quiet_moves == 40.5
