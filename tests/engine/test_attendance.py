"""Absence and re-entry in the rules: excused rounds, late entries' points, forfeit runs after a
re-entry, knockout games counted as Black — worked out by hand, then properties over random events.

Points 2/1/0, bye 2 (the preset). Notation as in test_standings: ``R–B`` red against black by number.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

import app.engine.attendance as attendance_module
from app.engine.attendance import Attendance, with_absences
from app.engine.discipline import consecutive_forfeits, scores
from app.engine.pairing.history import Entrant as PoolEntrant
from app.engine.pairing.history import pool_from_history
from app.engine.regulations import (
    DisciplineRules,
    LateEntryPoints,
    PairingRules,
    Points,
    Regulations,
    TiebreakRules,
)
from app.engine.standings import BlackGame, Entrant, standings
from app.engine.types import Absence, AbsenceKind, Game, GameResult, RoundRecord
from tests.doctests import run_doctests

REG = Regulations("test", date(2024, 7, 26), date(2024, 7, 28))
COMPENSATED = replace(REG, pairing=PairingRules(late_entry_bye_compensation=True))
DRAW_COMPENSATED = replace(
    REG, pairing=PairingRules(late_entry_bye_compensation=True, late_entry_points=LateEntryPoints.DRAW)
)


def rnd(number: int, *games: tuple[int, int, str], bye: int | None = None) -> RoundRecord:
    return RoundRecord(
        number,
        tuple(Game(b, r, k, GameResult.from_code(code)) for b, (r, k, code) in enumerate(games, start=1)),
        () if bye is None else (bye,),
    )


def test_doctests() -> None:
    assert run_doctests(attendance_module).failed == 0


# --------------------------------------------------------------------------- a hand-worked event
#
# Six players. Player 5 is excused from round 2 (请假); player 6 entered after round 1 was paired
# (late_entry_round = 2).
#   R1: 1–2 1-0 | 3–4 =   | bye 5                 (6 not yet entered)
#   R2: 2–6 0-1 | 4–1 =   | bye 3                 (5 excused)
#   R3: 6–1 =   | 5–3 1-0 | 2–4 0-1
# Scores (no compensation): 1: 2+1+1 = 4 | 2: 0+0+0 = 0 | 3: 1+2+0 = 3 | 4: 1+1+2 = 4
#                           5: 2+0+2 = 4 | 6: 0+2+1 = 3
# With bye compensation 6 gets 2 more for round 1 (5); with draw compensation 1 more (4).
# 对手分 of 6 (after R3): opponents 2 (0) and 1 (4) = 4 — the compensated round adds no opponent.
# 胜局 of 6: 1 (R2) — compensation is no win. 后走局数 of 6: 1 (R2).

ROUNDS = (
    rnd(1, (1, 2, "1-0"), (3, 4, "="), bye=5),
    rnd(2, (2, 6, "0-1"), (4, 1, "="), bye=3),
    rnd(3, (6, 1, "="), (5, 3, "1-0"), (2, 4, "0-1")),
)
PEOPLE = [Attendance(5, excused_rounds=frozenset({2})), Attendance(6, late_entry_round=2)]


@pytest.mark.parametrize(("reg", "six"), [(REG, 3), (COMPENSATED, 5), (DRAW_COMPENSATED, 4)])
def test_scores_of_the_hand_worked_event(reg: Regulations, six: int) -> None:
    rounds = with_absences(ROUNDS, PEOPLE, reg.pairing, reg.points)
    assert rounds[0].absent == (Absence(6, AbsenceKind.LATE_ENTRY, six - 3),)
    assert rounds[1].absent == (Absence(5, AbsenceKind.EXCUSED, 0),)
    assert rounds[2].absent == ()
    assert scores(rounds, reg.points) == {1: 4, 2: 0, 3: 3, 4: 4, 5: 4, 6: six}
    table = standings([Entrant(n) for n in range(1, 7)], rounds, reg)
    row = table.row(6)
    assert (row.score, row.opponent_score, row.wins, row.black_games) == (six, 4, 1, 1)
    five = table.row(5)
    assert (five.score, five.wins) == (4, 2)  # excused round: no win, no opponent, no points


def test_the_pairing_pool_sees_the_points_but_no_bye_and_no_opponent() -> None:
    rounds = with_absences(ROUNDS[:2], PEOPLE, COMPENSATED.pairing, COMPENSATED.points)
    pool = {p.no: p for p in pool_from_history([PoolEntrant(n) for n in range(1, 7)], rounds)}
    assert pool[6].score == 2 + 2 and pool[6].byes == 0 and pool[6].opponents == {2}
    assert pool[5].score == 2 and pool[5].byes == 1  # the real bye of round 1, not the excused round 2
    assert pool[5].opponents == frozenset()


def test_a_player_with_a_game_is_never_absent_and_absences_are_not_doubled() -> None:
    wrong = [Attendance(1, late_entry_round=3, excused_rounds=frozenset({1, 2}))]
    rounds = with_absences(ROUNDS, wrong, COMPENSATED.pairing, COMPENSATED.points)
    assert all(not r.absent for r in rounds)  # player 1 played every round
    again = with_absences(
        with_absences(ROUNDS, PEOPLE, REG.pairing, REG.points), PEOPLE, REG.pairing, REG.points
    )
    assert [len(r.absent) for r in again] == [1, 1, 0]


def test_an_excused_round_breaks_a_run_of_forfeits_and_a_reentry_forgives_the_old_run() -> None:
    r1 = rnd(1, (1, 2, "-+"), (3, 4, "="))
    r2 = RoundRecord(2, (Game(1, 3, 2, GameResult.DRAW),), absent=(Absence(1, AbsenceKind.EXCUSED),))
    r3 = rnd(3, (1, 4, "-+"), (2, 3, "="))
    assert consecutive_forfeits([r1, r2, r3], DisciplineRules()) == ()
    r2b = rnd(2, (3, 1, "+-"), (2, 4, "="))
    streaks = consecutive_forfeits([r1, r2b], DisciplineRules())
    assert [(s.no, s.rounds) for s in streaks] == [(1, (1, 2))]
    # withdrawn for it before round 3, re-entered from round 4: only rounds 4… count for player 1
    r4 = rnd(4, (1, 4, "-+"), (2, 3, "="))
    assert consecutive_forfeits([r1, r2b, r4], DisciplineRules(), reentered={1: 4}) == ()
    r5 = rnd(5, (2, 1, "+-"), (3, 4, "="))
    again = consecutive_forfeits([r1, r2b, r4, r5], DisciplineRules(), reentered={1: 4})
    assert [(s.no, s.rounds) for s in again] == [(1, (4, 5))]


# --------------------------------------------------------------------------- knockout games as Black
#
# After the split (round 1 here), 1 and 2 play the knockout in round 2: game 1 1–2 =, game 2 2–1 0-1
# (1 wins as Black). 3 and 4 continue the Swiss: 3–4 1-0.
# Swiss after round 2 — 1: R1 1–3 = (red) ; 2: R1 2–4 1-0 (red); 3: R1 black, R2 red; 4: R1 black, R2 black.
# Counting knockout games as Black: 后走局数 of 1 = 1 (game 2), 后走胜局 1; of 2 = 1 (game 1, a draw), 0.


def test_knockout_games_count_as_black_only_where_the_setting_says() -> None:
    rounds = [rnd(1, (1, 3, "="), (2, 4, "1-0")), rnd(2, (3, 4, "1-0"))]
    black = [BlackGame(2, 2, won=False), BlackGame(2, 1, won=True)]
    people = [Entrant(n) for n in range(1, 5)]
    plain = standings(people, rounds, REG, knockout_players={1, 2}, split_round=1, knockout_black=black)
    assert [(plain.row(n).black_games, plain.row(n).black_wins) for n in (1, 2)] == [(0, 0), (0, 0)]
    counted_reg = replace(REG, tiebreaks=TiebreakRules(knockout_games_count_as_black=True))
    counted = standings(
        people, rounds, counted_reg, knockout_players={1, 2}, split_round=1, knockout_black=black
    )
    assert [(counted.row(n).black_games, counted.row(n).black_wins) for n in (1, 2)] == [(1, 1), (1, 0)]
    assert (counted.row(3).black_games, counted.row(4).black_games) == (1, 2)  # the Swiss unchanged
    assert counted.row(1).score == plain.row(1).score == 1  # knockout games give no Swiss points
    before = standings(people, rounds, counted_reg, after_round=1, knockout_black=black)
    assert before.row(1).black_games == 0  # a round-2 game does not count after round 1


# --------------------------------------------------------------------------- properties


@st.composite
def events(draw: st.DrawFn) -> tuple[list[RoundRecord], list[Attendance], int]:
    n = draw(st.integers(4, 10))
    rounds_count = draw(st.integers(1, 5))
    codes = ["1-0", "0-1", "=", "+-", "-+", "--"]
    records = []
    late = {no: draw(st.integers(1, rounds_count + 1)) for no in draw(st.sets(st.integers(1, n), max_size=3))}
    excused: dict[int, set[int]] = {}
    for number in range(1, rounds_count + 1):
        present = [no for no in range(1, n + 1) if late.get(no, 1) <= number]
        away = set(draw(st.sets(st.sampled_from(present), max_size=2))) if present else set()
        for no in away:
            excused.setdefault(no, set()).add(number)
        playing = [no for no in present if no not in away]
        order = draw(st.permutations(playing))
        games = tuple(
            Game(b, order[2 * b - 2], order[2 * b - 1], GameResult.from_code(draw(st.sampled_from(codes))))
            for b in range(1, len(order) // 2 + 1)
        )
        byes = (order[-1],) if len(order) % 2 else ()
        records.append(RoundRecord(number, games, byes))
    people = [Attendance(no, late.get(no), frozenset(excused.get(no, ()))) for no in range(1, n + 1)]
    return records, people, n


@given(events(), st.booleans(), st.sampled_from(list(LateEntryPoints)))
def test_absences_give_exactly_the_regulations_points_and_nothing_else(
    event: tuple[list[RoundRecord], list[Attendance], int], compensate: bool, kind: LateEntryPoints
) -> None:
    records, people, n = event
    rules = PairingRules(late_entry_bye_compensation=compensate, late_entry_points=kind)
    points = Points()
    filled = with_absences(records, people, rules, points)
    plain, with_points = scores(records, points), scores(filled, points)
    late_of = {p.no: p.late_entry_round for p in people}
    per_round = rules.late_entry_round_points(points)
    for no in range(1, n + 1):
        missed = sum(
            1
            for r in records
            if late_of[no] is not None
            and r.number < (late_of[no] or 0)
            and no not in {x for g in r.games for x in (g.red, g.black)} | set(r.byes)
        )
        assert with_points.get(no, 0) == plain.get(no, 0) + missed * per_round
    table = standings([Entrant(no) for no in range(1, n + 1)], filled, REG)
    bare = standings([Entrant(no) for no in range(1, n + 1)], records, REG)
    for no in range(1, n + 1):  # wins, 后走局数 and violations are not touched by absences
        a, b = table.row(no), bare.row(no)
        assert (a.wins, a.black_games, a.black_wins) == (b.wins, b.black_games, b.black_wins)
    for r in filled:  # nobody is absent from a round they played
        seated = {x for g in r.games for x in (g.red, g.black)} | set(r.byes)
        assert not seated & {a.no for a in r.absent}


def test_trf_counts_a_late_entrys_points_and_marks_the_round() -> None:
    from app.engine.trf import TrfEvent, TrfPlayer, player_points, write_trf

    rounds = with_absences(ROUNDS, PEOPLE, COMPENSATED.pairing, COMPENSATED.points)
    event = TrfEvent("赛", "公开组", tuple(TrfPlayer(n, f"P{n}") for n in range(1, 7)), rounds)
    assert player_points(event)[6] == 5.0 and player_points(event)[5] == 4.0
    line = next(x for x in write_trf(event).splitlines() if x.startswith("001    6"))
    assert line[80:84] == " 5.0" and "0000 - F" in line  # round 1 compensated with a bye's points
    half = with_absences(ROUNDS, PEOPLE, DRAW_COMPENSATED.pairing, DRAW_COMPENSATED.points)
    line = next(
        x
        for x in write_trf(TrfEvent("赛", "公开组", event.players, half)).splitlines()
        if x.startswith("001    6")
    )
    assert "0000 - H" in line and line[80:84] == " 4.0"
