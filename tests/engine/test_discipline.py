"""Discipline helpers (docs/rules.md §4, §8), worked by hand."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

import app.engine.discipline as discipline_module
from app.engine.discipline import (
    ForfeitStreak,
    annul_games,
    consecutive_forfeits,
    forfeited,
    points_by_round,
    running_scores,
    scores,
)
from app.engine.regulations import DisciplineRules, Points
from app.engine.types import Absence, AbsenceKind, Game, GameResult, RoundRecord
from tests.doctests import run_doctests


def rnd(number: int, *games: tuple[int, int, str], bye: int | None = None) -> RoundRecord:
    return RoundRecord(
        number,
        tuple(Game(b, r, k, GameResult.from_code(code)) for b, (r, k, code) in enumerate(games, start=1)),
        () if bye is None else (bye,),
    )


# R1: 1–2 -+ (1 forfeits), 3–4 --, bye 5     R2: 2–1 -+ (1 forfeits again), 4–5 +- (5 forfeits), bye 3
# R3: 1–3 1-0, 5–4 -+ (5 forfeits), bye 2    R4: 4–1 --, 3–5 =, bye 2
ROUNDS = [
    rnd(1, (1, 2, "-+"), (3, 4, "--"), bye=5),
    rnd(2, (2, 1, "+-"), (4, 5, "+-"), bye=3),
    rnd(3, (1, 3, "1-0"), (5, 4, "-+"), bye=2),
    rnd(4, (4, 1, "--"), (3, 5, "="), bye=2),
]


def test_forfeited() -> None:
    assert forfeited(Game(1, 1, 2, GameResult.RED_FORFEIT), 1)
    assert not forfeited(Game(1, 1, 2, GameResult.RED_FORFEIT), 2)
    assert forfeited(Game(1, 1, 2, GameResult.DOUBLE_FORFEIT), 2)
    assert not forfeited(Game(1, 1, 2, GameResult.RED_WIN), 2)


def test_consecutive_forfeits() -> None:
    # 1: R1, R2 forfeits → withdraw after R2.  4: R1 (double) then R2 played → run broken; R4 alone.
    # 5: bye R1, forfeits R2 and R3 → withdraw after R3.  3: R1 only.
    assert consecutive_forfeits(ROUNDS, DisciplineRules()) == (
        ForfeitStreak(1, (1, 2)),
        ForfeitStreak(5, (2, 3)),
    )
    assert consecutive_forfeits(ROUNDS, DisciplineRules(consecutive_forfeits_withdraw=0)) == ()
    assert consecutive_forfeits(ROUNDS, DisciplineRules(consecutive_forfeits_withdraw=3)) == ()
    # Order of the input does not matter.
    assert consecutive_forfeits(ROUNDS[::-1], DisciplineRules()) == consecutive_forfeits(
        ROUNDS, DisciplineRules()
    )


def test_points_by_round_and_scores() -> None:
    by_round = points_by_round(ROUNDS, Points())
    # 1: F- 0, F- 0, W 2, FF 0 = 2;  2: F+ 2, F+ 2, B 2, B 2 = 8;  3: FF 0, B 2, L 0, D 1 = 3
    # 4: FF 0, F+ 2, F+ 2, FF 0 = 4;  5: B 2, F- 0, F- 0, D 1 = 3
    assert by_round[1] == {1: 0, 2: 0, 3: 2, 4: 0}
    assert by_round[2] == {1: 2, 2: 2, 3: 2, 4: 2}
    assert scores(ROUNDS, Points()) == {1: 2, 2: 8, 3: 3, 4: 4, 5: 3}
    assert scores(ROUNDS, Points(), after_round=2) == {1: 0, 2: 4, 3: 2, 4: 2, 5: 2}
    # 3/1/0 with a red draw worth 1 and a black draw worth 2, bye 3.
    special = Points(win=3, red_draw=1, black_draw=2, bye=3, forfeit_win=3)
    assert scores(ROUNDS, special)[5] == 3 + 0 + 0 + 2


def test_annul_games() -> None:
    # Annul 4's games: R1 3–4 -- stays a double forfeit (3 had forfeited); R2 4–5 +- was 5's forfeit
    # → double forfeit; R3 5–4 -+ likewise → double forfeit; R4 4–1 -- → double forfeit.
    # Annul 3's games: R3 1–3 1-0 → 3 forfeits as Black ("+-", 1 gets 2); R4 3–5 = → "-+" (5 gets 2).
    annulled = annul_games(ROUNDS, 3)
    assert annulled[2].games[0].result is GameResult.BLACK_FORFEIT
    assert annulled[3].games[1].result is GameResult.RED_FORFEIT
    assert annulled[0].games[1].result is GameResult.DOUBLE_FORFEIT
    assert annulled[1] is ROUNDS[1]  # 3 had a bye: round unchanged
    assert annulled[3].byes == (2,)
    assert scores(annulled, Points())[5] == 2 + 0 + 0 + 2
    assert all(
        g.result is GameResult.DOUBLE_FORFEIT
        for r in annul_games(ROUNDS, 4)
        for g in r.games
        if 4 in (g.red, g.black)
    )
    # from_round: only R4 annulled.
    partial = annul_games(ROUNDS, 3, from_round=4)
    assert partial[2] is ROUNDS[2] and partial[3].games[1].result is GameResult.RED_FORFEIT


def test_doctests() -> None:
    assert run_doctests(discipline_module).failed == 0


def test_running_scores_are_the_scores_after_every_round_worked_by_hand() -> None:
    """Forfeits, a double forfeit, byes, an excused absence and a late entry's compensation."""
    r1 = RoundRecord(
        1, (Game(1, 1, 2, GameResult.RED_FORFEIT), Game(2, 3, 4, GameResult.DOUBLE_FORFEIT)), (5,)
    )
    r2 = RoundRecord(
        2,
        (Game(1, 2, 1, GameResult.BLACK_FORFEIT), Game(2, 4, 5, GameResult.DRAW)),
        (),
        (Absence(3, AbsenceKind.EXCUSED), Absence(6, AbsenceKind.LATE_ENTRY, 1)),
    )
    r4 = RoundRecord(4, (Game(1, 6, 1, GameResult.PENDING),), (2,))
    running = running_scores([r4, r1, r2], Points())  # any order, a round number missing
    assert running.after(0) == {}
    assert running.after(1) == {1: 0, 2: 2, 3: 0, 4: 0, 5: 2}
    assert running.after(2) == {1: 0, 2: 4, 3: 0, 4: 1, 5: 3, 6: 1}
    assert running.after(3) == running.after(2)
    assert running.after(None) == running.after(9) == {1: 0, 2: 6, 3: 0, 4: 1, 5: 3, 6: 1}
    for n in (None, 0, 1, 2, 3, 4, 5):
        assert running.after(n) == scores([r4, r1, r2], Points(), n)
        assert list(running.after(n)) == list(scores([r4, r1, r2], Points(), n))  # by sequence number
    running.after(1)[1] = 99  # a copy: the caller may change it
    assert running.after(1)[1] == 0


@given(
    st.lists(
        st.tuples(
            st.integers(1, 6),
            st.lists(
                st.tuples(st.integers(1, 9), st.integers(1, 9), st.sampled_from(list(GameResult))),
                max_size=5,
            ),
            st.lists(st.integers(1, 9), max_size=2),
            st.lists(st.tuples(st.integers(1, 9), st.integers(0, 2)), max_size=2),
        ),
        max_size=7,
    ),
    st.integers(1, 3),
)
def test_running_scores_equal_scores_after_any_round(
    spec: list[tuple[int, list[tuple[int, int, GameResult]], list[int], list[tuple[int, int]]]], win: int
) -> None:
    """Also where a player appears twice in a round or a round number twice (the last one counts)."""
    rounds = [
        RoundRecord(
            number,
            tuple(Game(b, red, black, result) for b, (red, black, result) in enumerate(games, start=1)),
            tuple(byes),
            tuple(Absence(no, AbsenceKind.LATE_ENTRY, pts) for no, pts in absent),
        )
        for number, games, byes, absent in spec
    ]
    points = Points(win=win * 2, red_draw=win, black_draw=win - 1, bye=win * 2, forfeit_win=win)
    running = running_scores(rounds, points)
    for n in (None, *range(0, 8)):
        assert running.after(n) == scores(rounds, points, n)
        assert list(running.after(n)) == list(scores(rounds, points, n))
