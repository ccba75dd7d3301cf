"""Standings (docs/rules.md §6), worked out by hand.

Notation: ``R–B`` is Red against Black by sequence number; results ``1-0`` red wins, ``0-1`` black wins,
``=`` draw, ``+-`` Black forfeits (Red gets 2), ``-+`` Red forfeits, ``--`` double forfeit.
Points 2/1/0, bye 2, forfeit win 2.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

import app.engine.standings as standings_module
from app.engine.regulations import Points, Regulations, Tiebreak, TiebreakRules
from app.engine.standings import Criterion, Crosstable, Entrant, Violation, rank_group, standings
from app.engine.types import Game, GameResult, PlayerStatus, RoundRecord, UserError
from tests.doctests import run_doctests

REG = Regulations("test", date(2024, 7, 26), date(2024, 7, 28))


def rnd(number: int, *games: tuple[int, int, str], bye: int | None = None) -> RoundRecord:
    return RoundRecord(
        number,
        tuple(Game(b, r, k, GameResult.from_code(code)) for b, (r, k, code) in enumerate(games, start=1)),
        () if bye is None else (bye,),
    )


def separations(table: standings_module.Standings) -> list[tuple[int, int, str, int, int]]:
    out = []
    for s in table.rows[:-1]:
        sep = s.separated_by
        assert sep is not None
        out.append((sep.upper_no, sep.lower_no, sep.code, sep.upper_value, sep.lower_value))
    return out


# --------------------------------------------------------------------------- the 10-player example
#
# Player 10 withdraws after round 1 (stays ranked, results stand); from round 2 on 9 play, so a bye.
#
#   R1: 1–2 1-0 | 3–4 =   | 5–6 0-1 | 7–8 +- (8 forfeits) | 9–10 -- (double forfeit)
#   R2: 6–1 =   | 7–3 0-1 | 4–5 -+ (4 forfeits) | 2–8 1-0 | bye 9
#   R3: 3–6 0-1 | 1–7 =   | 9–5 =   | 8–4 0-1 | bye 2
#   R4: 6–2 =   | 4–1 0-1 | 5–3 1-0 | 7–9 0-1 | bye 8
#   Violations (犯规): player 7 in round 3, player 3 in round 4.
#
# Points per round (W win, D draw, L loss, F+ forfeit win, F- forfeit loss, FF double forfeit, B bye;
# r/b = colour), total after R3 | after R4:
#   1: W r 2, D b 1, D r 1, W b 2      -> 4 | 6   wins 2, black games R2,R4 = 2, black wins R4 = 1
#   2: L b 0, W r 2, B 2,   D b 1      -> 4 | 5   wins R2 + bye = 2, black games 2, black wins 0
#   3: D r 1, W b 2, L r 0, L b 0      -> 3 | 3   wins 1, black games R2,R4 = 2, black wins R2 = 1
#   4: D b 1, F- 0,  W b 2, L r 0      -> 3 | 3   wins 1, black games R1,R3 = 2 (R2 forfeit not), bw 1
#   5: L r 0, F+ 2,  D b 1, W r 2      -> 3 | 5   wins F+ and R4 = 2, black games R3 = 1, bw 0
#   6: W b 2, D r 1, W b 2, D r 1      -> 5 | 6   wins 2, black games 2, black wins 2
#   7: F+ 2,  L r 0, D b 1, L r 0      -> 3 | 3   wins 1 (the forfeit), black games R3 = 1, bw 0
#   8: F- 0,  L b 0, L r 0, B 2        -> 0 | 2   wins 1 (bye), black games R2 = 1, bw 0
#   9: FF 0,  B 2,   D r 1, W b 2      -> 3 | 5   wins bye + R4 = 2, black games R4 = 1, bw 1
#  10: FF 0                            -> 0 | 0
#
# After round 4: bye value = lowest score among players with points = 2 (player 8).
#   对手分 1 = 2(5)+6(6)+7(3)+4(3) = 17      6 = 5(5)+1(6)+3(3)+2(5) = 19
#          2 = 1(6)+8(2)+bye 2+6(6) = 16    5 = 6(6)+4(3)+9(5)+3(3) = 17    9 = 10(0)+bye 2+5(5)+7(3) = 10
#          3 = 4(3)+7(3)+6(6)+5(5) = 17     4 = 3(3)+5(5)+8(2)+1(6) = 16    7 = 8(2)+3(3)+1(6)+9(5) = 16
#          8 = 7(3)+2(5)+4(3)+bye 2 = 13    10 = 9(5) = 5
#   6 pts: 6 (19) > 1 (17)                          by 对手分
#   5 pts: 5 (17) > 2 (16) > 9 (10)                 by 对手分
#   3 pts: 3 (17) > 4 (16) = 7 (16); 4 and 7: 胜局 1 = 1 (7's is a forfeit win, counted),
#          犯规 4: 0 < 7: 1                          by 犯规
#   then 8 (2 pts), 10 (0 pts).
# Order: 6 1 5 2 9 3 4 7 8 10.
#
# After round 3: bye value = lowest positive score = 3.
#   6 (5 pts); 4 pts: 1 = 2(4)+6(5)+7(3) = 12 > 2 = 1(4)+8(0)+bye 3 = 7.
#   3 pts: 3 = 4(3)+7(3)+6(5) = 11, 5 = 6(5)+4(3)+9(3) = 11, 7 = 8(0)+3(3)+1(4) = 7,
#          4 = 3(3)+5(3)+8(0) = 6,  9 = 10(0)+bye 3+5(3) = 6.
#     3 vs 5: 胜局 1 = 1, 犯规 0 = 0 (3's violation is in round 4), 后走局数 1 = 1, 后走胜局 1 > 0.
#     4 vs 9: 胜局 1 = 1 (9's bye), 犯规 0 = 0, 后走局数 2 > 0.
#   0 pts: 8 = 7(3)+2(4)+4(3) = 10 > 10 = 9(3) = 3.
# Order: 6 1 2 3 5 7 4 9 8 10.

TEN_PLAYERS = [Entrant(no) for no in range(1, 10)] + [Entrant(10, PlayerStatus.WITHDRAWN)]
TEN_ROUNDS = [
    rnd(1, (1, 2, "1-0"), (3, 4, "="), (5, 6, "0-1"), (7, 8, "+-"), (9, 10, "--")),
    rnd(2, (6, 1, "="), (7, 3, "0-1"), (4, 5, "-+"), (2, 8, "1-0"), bye=9),
    rnd(3, (3, 6, "0-1"), (1, 7, "="), (9, 5, "="), (8, 4, "0-1"), bye=2),
    rnd(4, (6, 2, "="), (4, 1, "0-1"), (5, 3, "1-0"), (7, 9, "0-1"), bye=8),
]
TEN_VIOLATIONS = [Violation(7, 3), Violation(3, 4)]


def test_ten_players_after_round_4() -> None:
    table = standings(TEN_PLAYERS, TEN_ROUNDS, REG, TEN_VIOLATIONS)
    assert table.after_round == 4
    assert table.order == (6, 1, 5, 2, 9, 3, 4, 7, 8, 10)
    assert [s.rank for s in table.rows] == list(range(1, 11))
    got = {
        s.no: (s.score, s.opponent_score, s.wins, s.violations, s.black_games, s.black_wins)
        for s in table.rows
    }
    assert got == {
        1: (6, 17, 2, 0, 2, 1),
        2: (5, 16, 2, 0, 2, 0),
        3: (3, 17, 1, 1, 2, 1),
        4: (3, 16, 1, 0, 2, 1),
        5: (5, 17, 2, 0, 1, 0),
        6: (6, 19, 2, 0, 2, 2),
        7: (3, 16, 1, 1, 1, 0),
        8: (2, 13, 1, 0, 1, 0),
        9: (5, 10, 2, 0, 1, 1),
        10: (0, 5, 0, 0, 0, 0),
    }
    assert separations(table) == [
        (6, 1, "opponent_score", 19, 17),
        (1, 5, "score", 6, 5),
        (5, 2, "opponent_score", 17, 16),
        (2, 9, "opponent_score", 16, 10),
        (9, 3, "score", 5, 3),
        (3, 4, "opponent_score", 17, 16),
        (4, 7, "violations", 0, 1),
        (7, 8, "score", 3, 2),
        (8, 10, "score", 2, 0),
    ]
    assert table.row(10).status is PlayerStatus.WITHDRAWN
    assert not table.decided_by_sequence_number
    assert table.rows[6].separated_by is not None
    assert table.rows[6].separated_by.zh == "犯规 0 < 1"
    assert table.rows[-1].separated_by is None


def test_ten_players_after_round_3() -> None:
    table = standings(TEN_PLAYERS, TEN_ROUNDS, REG, TEN_VIOLATIONS, after_round=3)
    assert table.order == (6, 1, 2, 3, 5, 7, 4, 9, 8, 10)
    assert separations(table) == [
        (6, 1, "score", 5, 4),
        (1, 2, "opponent_score", 12, 7),
        (2, 3, "score", 4, 3),
        (3, 5, "black_wins", 1, 0),
        (5, 7, "opponent_score", 11, 7),
        (7, 4, "opponent_score", 7, 6),
        (4, 9, "black_games", 2, 0),
        (9, 8, "score", 3, 0),
        (8, 10, "opponent_score", 10, 3),
    ]
    assert table.row(3).violations == 0  # charged in round 4
    assert table.row(7).violations == 1
    assert table.row(9).opponent_score == 6  # the bye is worth 3 after round 3


def test_forfeit_wins_not_counted_setting() -> None:
    # 4 vs 7 after round 4: 4 won over the board in R3, 7's only win is R1's forfeit → 胜局 1 > 0.
    reg = replace(REG, tiebreaks=TiebreakRules(byes_and_forfeits_count_as_wins=False))
    table = standings(TEN_PLAYERS, TEN_ROUNDS, reg, TEN_VIOLATIONS)
    assert table.row(7).wins == 0
    assert table.row(8).wins == 0  # 8's only "win" is the bye
    assert table.why(4, 7).code == "wins"
    assert (table.why(4, 7).upper_value, table.why(4, 7).lower_value) == (1, 0)


def test_why_any_two_players() -> None:
    table = standings(TEN_PLAYERS, TEN_ROUNDS, REG, TEN_VIOLATIONS)
    sep = table.why(10, 6)  # asked the wrong way round: the answer names the higher player
    assert (sep.upper_no, sep.lower_no, sep.criterion, sep.upper_value, sep.lower_value) == (
        6,
        10,
        Criterion.SCORE,
        6,
        0,
    )
    sep = table.why(7, 3)  # not adjacent (4 between them): 对手分 17 > 16
    assert (sep.upper_no, sep.code, sep.upper_value, sep.lower_value) == (3, "opponent_score", 17, 16)
    with pytest.raises(UserError):
        table.why(3, 3)
    with pytest.raises(UserError):
        table.why(3, 11)


def test_disqualification_games_stand() -> None:
    # 6 disqualified, games stand: 6 leaves the ranking but still counts 6 points in 1's, 5's, 3's and
    # 2's 对手分; the bye value is still 2 (player 8). Ranking: 1 5 2 9 3 4 7 8 10.
    players = [replace(p, status=PlayerStatus.DISQUALIFIED) if p.no == 6 else p for p in TEN_PLAYERS]
    table = standings(players, TEN_ROUNDS, REG, TEN_VIOLATIONS)
    assert table.order == (1, 5, 2, 9, 3, 4, 7, 8, 10)
    assert table.disqualified == (6,)
    assert [s.rank for s in table.rows] == list(range(1, 10))
    assert table.row(1).opponent_score == 17
    with pytest.raises(UserError):
        table.why(6, 1)


def test_disqualification_games_annulled() -> None:
    # 6's games become forfeit wins for 5 (R1), 1 (R2), 3 (R3), 2 (R4); 6 keeps 0 points.
    #   1: 2+2+1+2 = 7   2: 0+2+2+2 = 6   3: 1+2+2+0 = 5   5: 2+2+1+2 = 7   others unchanged.
    #   bye value 2 (player 8).
    #   7 pts: 1 = 2(6)+6(0)+7(3)+4(3) = 12 < 5 = 6(0)+4(3)+9(5)+3(5) = 13  → 5, 1
    #   5 pts: 3 = 4(3)+7(3)+6(0)+5(7) = 13 > 9 = 10(0)+bye 2+5(7)+7(3) = 12 → 3, 9
    #   3 pts: 4 = 3(5)+5(7)+8(2)+1(7) = 21 > 7 = 8(2)+3(5)+1(7)+9(5) = 19 → 4, 7
    from app.engine.discipline import annul_games

    players = [replace(p, status=PlayerStatus.DISQUALIFIED) if p.no == 6 else p for p in TEN_PLAYERS]
    rounds = annul_games(TEN_ROUNDS, 6)
    table = standings(players, rounds, REG, TEN_VIOLATIONS)
    assert table.order == (5, 1, 2, 3, 9, 4, 7, 8, 10)
    assert (table.row(5).score, table.row(5).opponent_score) == (7, 13)
    assert (table.row(1).score, table.row(1).opponent_score) == (7, 12)
    # 2 = 1(7)+8(2)+bye 2+6(0) = 11
    assert (table.row(2).score, table.row(2).opponent_score) == (6, 11)
    assert (table.row(3).score, table.row(3).opponent_score) == (5, 13)
    assert (table.row(9).score, table.row(9).opponent_score) == (5, 12)
    assert (table.row(4).opponent_score, table.row(7).opponent_score) == (21, 19)
    assert table.row(1).wins == 3  # R1 win, R2 forfeit win, R4 win


# --------------------------------------------------------------------------- small examples


def test_tie_to_wins() -> None:
    # R1: 1–2 1-0, 3–4 =      R2: 3–1 1-0, 4–2 =
    # 3: D,W = 3; 1: W,L = 2; 4: D,D = 2; 2: L,D = 1.
    # 对手分 1 = 2(1)+3(3) = 4, 4 = 3(3)+2(1) = 4; 胜局 1: 1 > 4: 0.
    rounds = [rnd(1, (1, 2, "1-0"), (3, 4, "=")), rnd(2, (3, 1, "1-0"), (4, 2, "="))]
    table = standings([Entrant(n) for n in range(1, 5)], rounds, REG)
    assert table.order == (3, 1, 4, 2)
    assert separations(table) == [(3, 1, "score", 3, 2), (1, 4, "wins", 1, 0), (4, 2, "score", 2, 1)]


def test_tie_to_black_games_and_sequence_number() -> None:
    # R1: 1–2 =, 3–4 =. Everybody 1 point, 对手分 1, no wins; 2 and 4 played Black.
    # 2 vs 4 identical (only one round, nothing before it) → 序号 2 < 4; 4 > 1 by 后走局数; 1 vs 3 → 序号.
    table = standings([Entrant(n) for n in range(1, 5)], [rnd(1, (1, 2, "="), (3, 4, "="))], REG)
    assert table.order == (2, 4, 1, 3)
    assert separations(table) == [
        (2, 4, "sequence_number", 2, 4),
        (4, 1, "black_games", 1, 0),
        (1, 3, "sequence_number", 1, 3),
    ]
    assert table.decided_by_sequence_number


def test_tie_to_black_wins() -> None:
    # R1: 1–2 0-1, 3–4 1-0     R2: 2–4 0-1, 1–3 1-0   → everybody 2 points, one win, 对手分 4.
    # 后走局数: 1: 0, 2: 1 (R1), 3: 1 (R2), 4: 2.  后走胜局: 2: 1 (R1), 3: 0, 4: 1 (R2).
    # Order 4 (2 black games), 2 (1 game, 1 win), 3 (1 game, 0 wins), 1.
    rounds = [rnd(1, (1, 2, "0-1"), (3, 4, "1-0")), rnd(2, (2, 4, "0-1"), (1, 3, "1-0"))]
    table = standings([Entrant(n) for n in range(1, 5)], rounds, REG)
    assert table.order == (4, 2, 3, 1)
    assert separations(table) == [
        (4, 2, "black_games", 2, 1),
        (2, 3, "black_wins", 1, 0),
        (3, 1, "black_games", 1, 0),
    ]


def test_tie_to_previous_round() -> None:
    # R1: 1–2 1-0, 3–4 1-0     R2: 4–1 1-0, 2–3 1-0
    # After R2 everybody has 2 points, 对手分 4, one win, one Black game, no Black win: all tied.
    # After R1: 1 and 3 have 2, 2 and 4 have 0 → {1, 3} above {2, 4} by the R1 score.
    # 1 vs 3 after R1: 对手分 0 = 0, 胜局 1 = 1, 后走 0 = 0 → 序号.  2 vs 4: both lost as Black → 序号.
    rounds = [rnd(1, (1, 2, "1-0"), (3, 4, "1-0")), rnd(2, (4, 1, "1-0"), (2, 3, "1-0"))]
    table = standings([Entrant(n) for n in range(1, 5)], rounds, REG)
    assert table.order == (1, 3, 2, 4)
    assert separations(table) == [
        (1, 3, "sequence_number", 1, 3),
        (3, 2, "round_1:score", 2, 0),
        (2, 4, "sequence_number", 2, 4),
    ]
    sep = table.rows[1].separated_by
    assert sep is not None and sep.previous_round and sep.after_round == 1
    assert sep.zh == "前轮比较：第1轮后积分 2 > 0"
    # Without the previous-round link the four go by sequence number.
    reg = replace(REG, tiebreaks=TiebreakRules(chain=(Tiebreak.OPPONENT_SCORE, Tiebreak.WINS)))
    assert standings([Entrant(n) for n in range(1, 5)], rounds, reg).order == (1, 2, 3, 4)


def test_previous_round_decided_two_rounds_back() -> None:
    # R1: 1–2 1-0, 3–4 1-0     R2: 4–1 1-0, 2–3 1-0     R3: 1–2 =, 4–3 =
    # After R3 all have 3 points, 对手分 3+3+3 = 9, one win, no Black win.
    #   后走局数 1: R2 = 1, 2: R1,R3 = 2, 3: R2,R3 = 2, 4: R1 = 1 → {2, 3} above {1, 4}.
    # After R2 all four tie (2 points, 对手分 4, one win, one Black game, no Black win).
    # After R1: 3 (2) above 2 (0); 1 (2) above 4 (0).
    rounds = [
        rnd(1, (1, 2, "1-0"), (3, 4, "1-0")),
        rnd(2, (4, 1, "1-0"), (2, 3, "1-0")),
        rnd(3, (1, 2, "="), (4, 3, "=")),
    ]
    table = standings([Entrant(n) for n in range(1, 5)], rounds, REG)
    assert table.order == (3, 2, 1, 4)
    assert separations(table) == [
        (3, 2, "round_1:score", 2, 0),
        (2, 1, "black_games", 2, 1),
        (1, 4, "round_1:score", 2, 0),
    ]


def test_previous_round_back_to_round_1_then_sequence() -> None:
    # Six players, three rounds. 5 and 6 only meet each other-ish; watch 1 vs 3:
    # R1: 1–2 =, 3–4 =, 5–6 =      R2: 2–1 =, 4–3 =, 6–5 =      R3: 1–3 =?  (no: keep them apart)
    # Simpler: R3: 1–4 =, 3–2 =, 5–6 1-0.  1: D D D = 3, 3: D D D = 3; opponents 1: 2,2,4 and 3: 4,4,2.
    # Final scores 2: 3, 4: 3 → both 对手分 9; no wins; Black games 1: R2 = 1, 3: R2 = 1; tied after R3.
    # After R2: 1 opp 2(2)+2(2) = 4, 3 opp 4(2)+4(2) = 4; tied. After R1: tied too → 序号 1 < 3.
    rounds = [
        rnd(1, (1, 2, "="), (3, 4, "="), (5, 6, "=")),
        rnd(2, (2, 1, "="), (4, 3, "="), (6, 5, "=")),
        rnd(3, (1, 4, "="), (3, 2, "="), (5, 6, "1-0")),
    ]
    table = standings([Entrant(n) for n in range(1, 7)], rounds, REG)
    assert table.why(1, 3).code == "sequence_number"
    # 2 and 4 after R3: both 3 points, 对手分 9, Black in R1 and R3 → tied; same in R2 and R1 → 序号.
    assert table.why(2, 4).code == "sequence_number"
    # 5 (W in R3, Black in R2) above all 3-pointers by score 4 > 3; 6 last with 2.
    assert table.order[0] == 5 and table.order[-1] == 6


def test_progressive_in_chain() -> None:
    # R1: 1–2 1-0, 3–4 0-1     R2: 2–3 ... keep it small: R2: 1–4 0-1, 2–3 1-0
    # 1: 2,2 (W,L) → 累进 2+2 = 4;  4: 2,4 (W,W)... 4 has 4 points. 2: 0,2 → 0+2 = 2; 3: 0,0.
    # With the chain (累进分) only: 1 (score 2, prog 4) above 2 (score 2, prog 2).
    rounds = [rnd(1, (1, 2, "1-0"), (3, 4, "0-1")), rnd(2, (1, 4, "0-1"), (2, 3, "1-0"))]
    reg = replace(REG, tiebreaks=TiebreakRules(chain=(Tiebreak.PROGRESSIVE,)))
    table = standings([Entrant(n) for n in range(1, 5)], rounds, reg)
    assert table.order == (4, 1, 2, 3)
    assert table.row(1).progressive == 4 and table.row(2).progressive == 2
    assert table.why(1, 2).code == "progressive"
    assert standings([Entrant(n) for n in range(1, 5)], rounds, REG).row(1).progressive is None


def test_bye_value_lowest_score_among_players_with_points() -> None:
    # 5 players. R1: 1–2 1-0, 3–4 =, bye 5.   Scores 1: 2, 3: 1, 4: 1, 5: 2, 2: 0.
    # Lowest score among players with points = 1, so 5's 对手分 = 1 (2 has 0 and does not count).
    table = standings([Entrant(n) for n in range(1, 6)], [rnd(1, (1, 2, "1-0"), (3, 4, "="), bye=5)], REG)
    assert table.row(5).opponent_score == 1
    assert table.row(1).opponent_score == 0
    # 1 vs 5: both 2 points; 对手分 5: 1 > 1: 0.
    assert table.why(5, 1).code == "opponent_score"


def test_double_forfeit_counts_as_paired_opponent() -> None:
    # R1: 2–1 --, 3–4 1-0.  R2: 1–3 0-1, 2–4 =.
    # Scores: 1: 0+0 = 0, 2: 0+1 = 1, 3: 2+2 = 4, 4: 0+1 = 1.
    # 对手分 1: 2 (1) + 3 (4) = 5; 2: 1 (0) + 4 (1) = 1.
    # 1 had Black in R1 but the double forfeit was not played: 后走局数 0. 4: Black in R1 and R2 → 2.
    rounds = [rnd(1, (2, 1, "--"), (3, 4, "1-0")), rnd(2, (1, 3, "0-1"), (2, 4, "="))]
    table = standings([Entrant(n) for n in range(1, 5)], rounds, REG)
    assert (table.row(1).score, table.row(1).opponent_score) == (0, 5)
    assert (table.row(2).score, table.row(2).opponent_score) == (1, 1)
    assert table.row(1).black_games == 0
    assert table.row(4).black_games == 2


def test_knockout_player_counts_with_swiss_score_after_split() -> None:
    # R1 Swiss: 1–2 1-0, 3–4 1-0. Split after R1: 1 and 3 play the knockout, 2 and 4 continue.
    # If the caller's rounds include the knockout game (R2 1–3 1-0), 1 would have 4 points; in 2's
    # 对手分 1 still counts with the Swiss score after R1: 2 = 1(2) + 4(…) where R2 Swiss 2–4 1-0 → 4 has 0.
    rounds = [rnd(1, (1, 2, "1-0"), (3, 4, "1-0")), rnd(2, (1, 3, "1-0"), (2, 4, "1-0"))]
    players = [Entrant(n) for n in range(1, 5)]
    plain = standings(players, rounds, REG)
    assert plain.row(2).opponent_score == 4 + 0
    split = standings(players, rounds, REG, knockout_players={1, 3}, split_round=1)
    assert split.row(2).opponent_score == 2 + 0
    assert split.row(4).opponent_score == 2 + 2  # 3 after R1 (2) + 2 (2)


def test_after_round_zero_and_unknown_round() -> None:
    table = standings([Entrant(n) for n in (3, 1, 2)], [rnd(1, (1, 2, "1-0"), bye=3)], REG, after_round=0)
    assert table.order == (1, 2, 3)
    assert all(s.score == 0 for s in table.rows)
    with pytest.raises(UserError):
        standings([Entrant(1), Entrant(2)], [rnd(1, (1, 2, "1-0"))], REG, after_round=2)


def test_bad_input_is_refused() -> None:
    with pytest.raises(UserError):
        standings([Entrant(1), Entrant(1)], [], REG)
    with pytest.raises(UserError):
        standings([Entrant(1), Entrant(2)], [rnd(1, (1, 3, "1-0"))], REG)
    with pytest.raises(UserError):
        standings([Entrant(1), Entrant(2)], [rnd(1, (1, 2, "1-0"), bye=1)], REG)
    with pytest.raises(UserError):
        standings([Entrant(1), Entrant(2)], [rnd(1, (1, 2, "1-0")), rnd(1, (2, 1, "1-0"))], REG)


def test_violation_counts_mapping_and_json_row() -> None:
    # Mapping form: counts that apply after every round.
    table = standings([Entrant(1, team="甲"), Entrant(2)], [rnd(1, (1, 2, "="))], REG, {2: 1})
    assert table.order == (1, 2)  # 2 has Black but 犯规 comes first: 0 < 1
    assert table.rows[0].as_dict() == {
        "rank": 1,
        "no": 1,
        "team": "甲",
        "score": 1,
        "tiebreaks": {"opponent_score": 1, "wins": 0, "violations": 0, "black_games": 0, "black_wins": 0},
        "separated_by": "violations",
    }


def test_custom_chain_order() -> None:
    # Same crosstable as test_tie_to_black_wins, chain = 后走胜局 then 后走局数:
    # 2 (bw 1, bg 1) and 4 (bw 1, bg 2) → 4, 2; then 3 (bw 0, bg 1), 1 (bw 0, bg 0).
    rounds = [rnd(1, (1, 2, "0-1"), (3, 4, "1-0")), rnd(2, (2, 4, "0-1"), (1, 3, "1-0"))]
    reg = replace(REG, tiebreaks=TiebreakRules(chain=(Tiebreak.BLACK_WINS, Tiebreak.BLACK_GAMES)))
    table = standings([Entrant(n) for n in range(1, 5)], rounds, reg)
    assert table.order == (4, 2, 3, 1)
    assert separations(table)[1][2] == "black_wins"
    assert separations(table)[0][2] == "black_games"


def test_crosstable_reused_for_several_rounds() -> None:
    table = Crosstable(TEN_PLAYERS, TEN_ROUNDS, Points(), TEN_VIOLATIONS)
    assert rank_group(table, TiebreakRules(), 4).order == (6, 1, 5, 2, 9, 3, 4, 7, 8, 10)
    assert rank_group(table, TiebreakRules(), 3).order == (6, 1, 2, 3, 5, 7, 4, 9, 8, 10)
    assert table.score(5, 2) == 2


def test_doctests() -> None:
    assert run_doctests(standings_module).failed == 0


# --------------------------------------------------------------------------- properties

CODES = ["1-0", "0-1", "=", "+-", "-+", "--"]


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[Entrant], list[RoundRecord], list[Violation]]:
    n = draw(st.integers(2, 14))
    rounds_played = draw(st.integers(0, 6))
    rng = random.Random(draw(st.integers(0, 2**32)))
    players = [
        Entrant(
            no, rng.choice([PlayerStatus.ACTIVE] * 6 + [PlayerStatus.WITHDRAWN, PlayerStatus.DISQUALIFIED])
        )
        for no in range(1, n + 1)
    ]
    rounds = []
    for number in range(1, rounds_played + 1):
        nos = list(range(1, n + 1))
        rng.shuffle(nos)
        bye = (nos.pop(),) if len(nos) % 2 else ()
        games = tuple(
            Game(b, nos[2 * b], nos[2 * b + 1], GameResult.from_code(rng.choice(CODES)))
            for b in range(len(nos) // 2)
        )
        rounds.append(RoundRecord(number, games, bye))
    violations = [
        Violation(rng.randint(1, n), rng.randint(0, rounds_played)) for _ in range(rng.randint(0, 4))
    ]
    return players, rounds, violations


@given(histories())
def test_ranks_are_a_permutation_and_scores_descend(
    history: tuple[list[Entrant], list[RoundRecord], list[Violation]],
) -> None:
    players, rounds, violations = history
    table = standings(players, rounds, REG, violations)
    ranked = [p.no for p in players if p.status is not PlayerStatus.DISQUALIFIED]
    assert [s.rank for s in table.rows] == list(range(1, len(ranked) + 1))
    assert sorted(table.order) == ranked
    scores = [s.score for s in table.rows]
    assert scores == sorted(scores, reverse=True)
    for upper, lower in zip(table.rows, table.rows[1:], strict=False):
        assert table.why(lower.no, upper.no) == upper.separated_by
        sep = upper.separated_by
        assert sep is not None and sep.upper_value != sep.lower_value
        better = (
            sep.upper_value < sep.lower_value
            if sep.criterion.fewer_first
            else sep.upper_value > sep.lower_value
        )
        assert better


@given(histories(), st.integers(0, 2**32))
def test_input_order_does_not_matter(
    history: tuple[list[Entrant], list[RoundRecord], list[Violation]], seed: int
) -> None:
    players, rounds, violations = history
    expected = standings(players, rounds, REG, violations)
    rng = random.Random(seed)
    shuffled_players = players[:]
    rng.shuffle(shuffled_players)
    shuffled_rounds = [replace(r, games=tuple(rng.sample(r.games, len(r.games)))) for r in rounds]
    rng.shuffle(shuffled_rounds)
    shuffled_violations = violations[:]
    rng.shuffle(shuffled_violations)
    got = standings(shuffled_players, shuffled_rounds, REG, shuffled_violations)
    assert got.rows == expected.rows


@given(histories(), st.integers(0, 2**32))
def test_changing_a_result_and_back(
    history: tuple[list[Entrant], list[RoundRecord], list[Violation]], seed: int
) -> None:
    players, rounds, violations = history
    games = [(k, b) for k, r in enumerate(rounds) for b in range(len(r.games))]
    if not games:
        return
    rng = random.Random(seed)
    k, b = rng.choice(games)
    expected = standings(players, rounds, REG, violations)
    original = rounds[k].games[b]

    def with_result(result: GameResult) -> list[RoundRecord]:
        changed = list(rounds[k].games)
        changed[b] = replace(original, result=result)
        return [*rounds[:k], replace(rounds[k], games=tuple(changed)), *rounds[k + 1 :]]

    other = rng.choice([r for r in GameResult if r not in (original.result, GameResult.PENDING)])
    standings(players, with_result(other), REG, violations)
    assert standings(players, with_result(original.result), REG, violations).rows == expected.rows


@given(histories(), st.booleans(), st.integers(0, 2**32))
def test_values_of_many_players_are_each_ones_value(
    history: tuple[list[Entrant], list[RoundRecord], list[Violation]], split: bool, seed: int
) -> None:
    """The batched reading a ranking uses gives every player's own value, every criterion, every
    round (with knockout players whose score stays at the split round in their opponents' 对手分)."""
    players, rounds, violations = history
    rng = random.Random(seed)
    knockout = rng.sample([p.no for p in players], min(2, len(players))) if split and rounds else []
    table = Crosstable(
        players,
        rounds,
        REG.points,
        violations,
        knockout_players=knockout,
        split_round=rng.randint(0, len(rounds)) if knockout else None,
    )
    everyone = list(range(len(players)))
    some = rng.sample(everyone, rng.randint(0, len(everyone)))
    for k in range(-1, len(rounds)):
        for c in Criterion:
            if c in (Criterion.HEAD_TO_HEAD, Criterion.DROP_FIRST_ROUNDS):
                continue
            for forfeits_win in (True, False):
                for chosen in (everyone, some):
                    expected = [table.value(i, k, c, forfeits_win) for i in chosen]
                    assert table.values(chosen, k, c, forfeits_win) == expected


@given(histories())
def test_the_order_is_the_chain_read_as_one_key(
    history: tuple[list[Entrant], list[RoundRecord], list[Violation]],
) -> None:
    """Without 直胜 the ranking is a sort by one key: each criterion of the chain after the last round,
    then after each earlier round (前轮成绩), then the sequence number — computed here value by value."""
    players, rounds, violations = history
    table = Crosstable(players, rounds, REG.points, violations)
    got = rank_group(table, REG.tiebreaks)
    criteria = [Criterion.SCORE, *(Criterion.of(t) for t in REG.tiebreaks.chain if not t.expands)]
    assert Tiebreak.PREVIOUS_ROUNDS in REG.tiebreaks.chain and Criterion.HEAD_TO_HEAD not in criteria

    players_sorted = table.entrants

    def key(i: int) -> tuple[int, ...]:
        chain = [
            (1 if c.fewer_first else -1) * table.value(i, k, c)
            for k in range(len(rounds) - 1, -1, -1)
            for c in criteria
        ]
        return (*chain, players_sorted[i].no)

    ranked = [i for i, p in enumerate(players_sorted) if p.status is not PlayerStatus.DISQUALIFIED]
    assert list(got.order) == [players_sorted[i].no for i in sorted(ranked, key=key)]
