"""The tiebreaks round robins and the Swiss options need, as named functions of the ranking input:
直胜 (with a mini-table for three or more), 小分 (Sonneborn–Berger), 抽签 and 去除前轮得分 — each
checked on a hand-worked example where it changes the order."""

from __future__ import annotations

from datetime import date

from app.engine.formats import Tiebreak
from app.engine.regulations import Regulations
from app.engine.standings import Criterion, Entrant, standings
from app.engine.types import Game, GameResult, RoundRecord

REG = Regulations("循环赛", date(2025, 5, 1), date(2025, 5, 3))
R, D, B = GameResult.RED_WIN, GameResult.DRAW, GameResult.BLACK_WIN

# Five players, one round robin (rests are not byes: a rest gives nothing). By hand (win 2, draw 1):
#   1 beats 2 and 3, loses to 4 and 5                      → 4 points
#   2 beats 3 and 4, loses to 1 and 5                      → 4 points
#   3 beats 4 and 5, loses to 1 and 2                      → 4 points
#   4 beats 1, draws 5, loses to 2 and 3                   → 3 points
#   5 beats 1 and 2, draws 4, loses to 3                   → 5 points
# Among 1, 2, 3 (the mini-table): 1 has 4, 2 has 2, 3 has 0.
# 小分 (opponent's score for a win, half of it for a draw): 1: 4 + 4 = 8; 2: 4 + 3 = 7; 3: 3 + 5 = 8.
FIVE = (  # the rulebook's table for five (the number meeting 6 rests)
    RoundRecord(1, (Game(1, 2, 5, B), Game(2, 3, 4, R))),
    RoundRecord(2, (Game(1, 5, 3, B), Game(2, 1, 2, R))),
    RoundRecord(3, (Game(1, 3, 1, B), Game(2, 4, 5, D))),
    RoundRecord(4, (Game(1, 1, 4, B), Game(2, 2, 3, R))),
    RoundRecord(5, (Game(1, 4, 2, B), Game(2, 5, 1, R))),
)
PLAYERS = [Entrant(n) for n in range(1, 6)]


def test_head_to_head_of_three_is_the_mini_table() -> None:
    table = standings(PLAYERS, FIVE, REG, chain=(Tiebreak.HEAD_TO_HEAD, Tiebreak.SONNEBORN_BERGER))
    assert [(r.no, r.score) for r in table.rows] == [(5, 5), (1, 4), (2, 4), (3, 4), (4, 3)]
    assert [r.head_to_head for r in table.rows[1:4]] == [4, 2, 0]
    sep = table.why(2, 3)
    assert (sep.criterion, sep.upper_value, sep.lower_value) == (Criterion.HEAD_TO_HEAD, 2, 0)
    assert table.rows[1].separated_by is not None and table.rows[1].separated_by.zh == "直胜 4 > 2"


def test_sonneborn_berger_alone_orders_them_otherwise() -> None:
    table = standings(PLAYERS, FIVE, REG, chain=(Tiebreak.SONNEBORN_BERGER,))
    assert [r.no for r in table.rows] == [5, 1, 3, 2, 4]  # 1 and 3 both 8: the sequence number
    assert [r.sonneborn_berger for r in table.rows[1:4]] == [8, 8, 7]
    assert table.why(1, 3).criterion is Criterion.SEQUENCE_NUMBER
    assert table.why(3, 2).criterion is Criterion.SONNEBORN_BERGER


def test_sonneborn_berger_keeps_a_half_point() -> None:
    # 1 draws 2 (who ends on 1 point + 2 = 3), 1 beats 3 (0): 小分 = 3 / 2 + 0 = 1.5
    rounds = (RoundRecord(1, (Game(1, 1, 2, D),)), RoundRecord(2, (Game(1, 3, 1, B), Game(2, 2, 4, R))))
    table = standings([Entrant(n) for n in range(1, 5)], rounds, REG, chain=(Tiebreak.SONNEBORN_BERGER,))
    assert table.row(1).sonneborn_berger == 1.5
    assert table.row(1).tiebreak_values()["sonneborn_berger"] == 1.5


def test_a_lot_decides_only_when_everything_else_is_equal() -> None:
    rounds = (RoundRecord(1, (Game(1, 1, 2, D), Game(2, 3, 4, D))),)
    players = [Entrant(n) for n in range(1, 5)]
    table = standings(players, rounds, REG, chain=(Tiebreak.LOT,), lots={1: 4, 2: 2, 3: 1, 4: 3})
    assert [r.no for r in table.rows] == [3, 2, 4, 1]
    assert table.why(3, 2).criterion is Criterion.LOT and table.rows[0].lot == 1


def test_dropping_the_first_round_is_not_comparing_the_previous_round() -> None:
    # 1 wins round 1 and loses round 2; 2 loses round 1 and wins round 2: both 2 points.
    rounds = (
        RoundRecord(1, (Game(1, 1, 3, R), Game(2, 2, 4, B))),
        RoundRecord(2, (Game(1, 4, 1, R), Game(2, 2, 3, R))),
    )
    players = [Entrant(n) for n in range(1, 5)]
    dropped = standings(players, rounds, REG, chain=(Tiebreak.DROP_FIRST_ROUNDS,))
    assert [r.no for r in dropped.rows] == [4, 2, 1, 3]
    sep = dropped.why(2, 1)
    assert (sep.criterion, sep.dropped, sep.upper_value, sep.lower_value) == (
        Criterion.DROP_FIRST_ROUNDS,
        1,
        2,
        0,
    )
    assert sep.zh == "去除前 1 轮得分后积分 2 > 0" and sep.code == "drop_first_rounds:1"
    previous = standings(players, rounds, REG, chain=(Tiebreak.PREVIOUS_ROUNDS,))
    assert [r.no for r in previous.rows] == [4, 1, 2, 3]
