"""TRF text: the 001 columns, red = w / black = b, forfeits, byes, the scoring records, round trip."""

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine.regulations import Points
from app.engine.trf import TrfError, TrfEvent, TrfPlayer, read_trf, write_trf
from app.engine.types import Game, GameResult, RoundRecord

R = GameResult
PLAYERS = (
    TrfPlayer(1, "王天一", 2650, "m", date(1989, 5, 11)),
    TrfPlayer(2, "郑惟桐", 2600, "m"),
    TrfPlayer(3, "唐丹", 2400, "w"),
    TrfPlayer(4, "许银川"),
    TrfPlayer(5, "赵鑫鑫", 2500),
)
ROUNDS = (
    RoundRecord(1, (Game(1, 1, 3, R.RED_WIN), Game(2, 4, 2, R.DRAW)), (5,)),
    RoundRecord(2, (Game(1, 5, 1, R.BLACK_FORFEIT), Game(2, 2, 3, R.DOUBLE_FORFEIT)), (4,)),
    RoundRecord(3, (Game(1, 3, 5, R.PENDING),)),
)
EVENT = TrfEvent("天水邀请赛", "公开组", PLAYERS, ROUNDS, start_date=date(2024, 7, 26))


def _line(text: str, code: str, no: int | None = None) -> str:
    for line in text.splitlines():
        if line.startswith(code) and (no is None or int(line[4:8]) == no):
            return line
    raise AssertionError(code)


def test_001_line_columns_by_hand() -> None:
    text = write_trf(EVENT)
    line = _line(text, "001", 1)
    assert line[4:8] == "   1"
    assert line[9] == "m"
    assert line[14:47].rstrip() == "王天一"
    assert line[48:52] == "2650"
    assert line[69:79] == "1989/05/11"
    # round 1: red win over 3 → 2; round 2: black against 5 and forfeited (black_forfeit) → 0;
    # round 3 not paired. Ranks by points: 5 (4.0), 4 (3.0), 1 (2.0), 2 (1.0), 3 (0.0)
    assert line[80:84] == " 2.0"
    assert line[85:89] == "   3"
    assert line[89:] == "     3 w 1     5 b -  0000 - Z"


def test_every_kind_of_entry() -> None:
    text = write_trf(EVENT)
    # 5: bye in round 1 (U, 2 points), won by forfeit as red in round 2 (+, 2), pending in round 3
    assert _line(text, "001", 5)[80:] == " 4.0    1  0000 - U     1 w +     3 b"
    assert _line(text, "001", 3)[80:] == " 0.0    5     1 b 0     2 b -     5 w"
    # 2: draw as black, double forfeit as red → 1 point
    line2 = _line(text, "001", 2)
    assert line2[80:84] == " 1.0"
    assert line2[89:] == "     4 b =     3 w -  0000 - Z"
    assert _line(text, "001", 4)[89:] == "     2 w =  0000 - U  0000 - Z"
    # TRF-2026: codes in columns 6, 15, 24, 33, 42, each followed by the points in the next four columns
    record = _line(text, "162")
    assert [record[c - 1] for c in (6, 15, 24, 33)] == ["W", "D", "L", "P"]  # A 0.0 is the default: left out
    assert [record[c : c + 4] for c in (6, 15, 24, 33)] == [" 2.0", " 1.0", " 0.0", " 2.0"]
    assert len(record) == 37  # nothing after the last points
    assert _line(text, "142") == "142 3" and _line(text, "XXR") == "XXR 3"
    assert "XQS" not in text  # 2/1/0 needs no extension
    assert _line(text, "BBW") == "BBW  2.0" and _line(text, "BBU") == "BBU  2.0"
    assert _line(text, "012") == "012 天水邀请赛（公开组）"


def test_ranks_given_by_the_standings_are_written() -> None:
    text = write_trf(EVENT, ranks={1: 2, 2: 5, 3: 4, 4: 1, 5: 3})
    assert _line(text, "001", 4)[85:89] == "   1"


def test_round_trip_reads_back_the_same_event_and_text() -> None:
    text = write_trf(EVENT)
    back = read_trf(text)
    assert back.rounds == EVENT.rounds
    assert back.players == EVENT.players
    assert (back.name, back.group, back.points) == ("天水邀请赛", "公开组", Points())
    assert write_trf(back) == text
    assert back.scores[1] == (2.0, 3)


def test_colour_dependent_draw_points_round_trip() -> None:
    event = TrfEvent("e", "g", PLAYERS, ROUNDS, points=Points(red_draw=0, black_draw=1))
    text = write_trf(event)
    assert _line(text, "XQS") == "XQS 2 0 1 0 2 2 0"  # TRF-2026 has one draw value: the exact points
    assert read_trf(text).points == event.points
    plain = "\n".join(line for line in text.splitlines() if not line.startswith("XQS"))
    assert read_trf(plain).points == Points(red_draw=0, black_draw=0)  # a plain reader sees Red's draw


def test_mismatched_game_is_refused() -> None:
    text = write_trf(EVENT).replace("     3 w 1", "     4 w 1", 1)
    with pytest.raises(TrfError):
        read_trf(text)


@given(st.data())
def test_random_rounds_round_trip(data: st.DataObject) -> None:
    n = data.draw(st.integers(2, 12))
    rounds = []
    for r in range(1, data.draw(st.integers(1, 5)) + 1):
        order = data.draw(st.permutations(range(1, n + 1)))
        games = tuple(
            Game(b + 1, order[2 * b], order[2 * b + 1], data.draw(st.sampled_from(list(GameResult))))
            for b in range(n // 2)
        )
        rounds.append(RoundRecord(r, games, (order[-1],) if n % 2 else ()))
    event = TrfEvent("e", "g", tuple(TrfPlayer(i, f"p{i}") for i in range(1, n + 1)), tuple(rounds))
    back = read_trf(write_trf(event))
    assert back.rounds == event.rounds
