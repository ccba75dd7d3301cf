"""Round robin: the rulebook's tables against the published Berger tables, schedules, pools, withdrawals."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine import round_robin
from app.engine.formats import PoolDraw, WithdrawalRule
from app.engine.round_robin import (
    annuls_games,
    berger_table,
    largest_number,
    lot_pools,
    make_pools,
    schedule,
    snake_pools,
    units_round,
)
from app.engine.types import UserError
from tests.doctests import run_doctests

PUBLISHED = Path(__file__).parent / "data" / "berger_tables_fide_c05_annex1.txt"


def published_tables() -> dict[int, list[list[tuple[int, int]]]]:
    """The published tables by their even size (4, 6 … 16), read from the typed text."""
    tables: dict[int, list[list[tuple[int, int]]]] = {}
    size = 0
    for line in PUBLISHED.read_text(encoding="utf-8").splitlines():
        if head := re.fullmatch(r"(\d+) or (\d+) players:", line):
            size = int(head.group(2))
            tables[size] = []
        elif line.startswith("Rd "):
            _, pairs = line.split(":", 1)
            tables[size].append(
                [tuple(int(x) for x in p.split("-")) for p in re.findall(r"\d+-\d+", pairs)]  # type: ignore[misc]
            )
    return tables


def test_doctests() -> None:
    assert run_doctests(round_robin).failed == 0


def test_the_published_file_holds_every_table_from_3_to_16() -> None:
    tables = published_tables()
    assert sorted(tables) == [4, 6, 8, 10, 12, 14, 16]
    for size, rounds in tables.items():
        assert len(rounds) == size - 1 and all(len(r) == size // 2 for r in rounds)


@pytest.mark.parametrize("n", range(3, 17))
def test_generated_tables_for_3_to_16_are_the_published_ones(n: int) -> None:
    """Odd sizes use the table of the next even size; the highest number is the bye."""
    expected = published_tables()[largest_number(n)]
    assert [list(r) for r in berger_table(n)] == expected


CROSSCHECK = Path(__file__).parent / "data" / "berger_tables_17_24_crosscheck.txt"


def crosscheck_rounds() -> dict[int, dict[int, list[tuple[int, int]]]]:
    """Size → round number → pairs, from the hand-typed rounds of an independent program's tables."""
    out: dict[int, dict[int, list[tuple[int, int]]]] = {}
    size = 0
    for line in CROSSCHECK.read_text(encoding="utf-8").splitlines():
        if head := re.fullmatch(r"(\d+) players:", line):
            size = int(head.group(1))
            out[size] = {}
        elif m := re.match(r"Rd (\d+):", line):
            out[size][int(m.group(1))] = [
                (int(a), int(b)) for a, b in re.findall(r"(\d+)-(\d+)", line[m.end() :])
            ]
    return out


def test_the_crosscheck_file_holds_first_second_and_last_rounds_for_18_to_24() -> None:
    rounds = crosscheck_rounds()
    assert sorted(rounds) == [18, 20, 22, 24]
    for size, by_round in rounds.items():
        assert sorted(by_round) == [1, 2, size - 1]
        assert all(len(pairs) == size // 2 for pairs in by_round.values())


@pytest.mark.parametrize("n", range(17, 25))
def test_tables_for_17_to_24_match_an_independent_construction(n: int) -> None:
    """Rounds 1, 2 and the last of 18/20/22/24 as typed from another program's tables (an odd size uses
    the next even size's table, its highest number the bye)."""
    for number, pairs in crosscheck_rounds()[largest_number(n)].items():
        assert list(berger_table(n)[number - 1]) == pairs, f"{n} players, round {number}"


@pytest.mark.parametrize("n", range(3, 25))
def test_every_table_from_3_to_24_follows_the_rulebooks_construction(n: int) -> None:
    """For 17–24 no published table was at hand: each round is checked against the rulebook's rules
    (循环赛对局秩序表的编排) one by one, and the whole table against what a round robin must be."""
    table = berger_table(n)
    m = largest_number(n)
    assert len(table) == m - 1
    # 首尾相对，依次靠拢: round 1 is 1–m, 2–(m−1), … with the lower number first (Red)
    assert list(table[0]) == [(i, m + 1 - i) for i in range(1, m // 2 + 1)]
    for r, pairs in enumerate(table):
        # the largest number's pair is always first; it is Black in round 1, then alternates
        red, black = pairs[0]
        assert m in (red, black)
        assert (black == m) == (r % 2 == 0)
        if r:
            # its opponent is the number that stood last in the table of the round before
            assert pairs[0][0 if red != m else 1] == table[r - 1][-1][1]
        # every number plays exactly once in the round
        assert sorted(x for p in pairs for x in p) == list(range(1, m + 1))
    # every two numbers meet exactly once
    met = [frozenset(p) for pairs in table for p in pairs]
    assert len(met) == len(set(met)) == m * (m - 1) // 2
    # nobody has the same colour three rounds running; Red and Black differ by at most one overall
    for x in range(1, m + 1):
        colours = ["R" if p[0] == x else "B" for pairs in table for p in pairs if x in p]
        assert "RRR" not in "".join(colours) and "BBB" not in "".join(colours)
        assert abs(colours.count("R") - colours.count("B")) <= 1


def test_an_odd_number_gives_one_bye_per_round_to_each() -> None:
    rounds = schedule(5)
    assert len(rounds) == 5
    assert sorted(r.bye for r in rounds) == [1, 2, 3, 4, 5]  # type: ignore[type-var]
    assert all(len(r.pairs) == 2 for r in rounds)
    # the bye is whoever the table pairs with 6 (the largest number): round 1 it is number 1
    assert rounds[0].bye == 1 and rounds[0].pairs == ((2, 5), (3, 4))


def test_the_second_cycle_repeats_the_table_with_colours_swapped() -> None:
    one = schedule(6)
    two = schedule(6, cycles=2)
    assert len(two) == 10 and [r.cycle for r in two] == [1] * 5 + [2] * 5
    for first, second in zip(one, two[5:], strict=True):
        assert second.pairs == tuple((b, a) for a, b in first.pairs)
    # each pair meets twice, once with each colour
    games = [p for r in two for p in r.pairs]
    assert len(games) == len(set(games)) == 30


def test_units_round_maps_table_numbers_to_units() -> None:
    numbers = {101: 1, 205: 2, 307: 3, 404: 4, 555: 5}
    games, bye = units_round(numbers, 1)
    assert games == ((205, 555), (307, 404)) and bye == 101
    games, bye = units_round(numbers, 2)
    assert games == ((555, 307), (101, 205)) and bye == 404  # round 2: 6–4, 5–3, 1–2
    with pytest.raises(UserError, match="只有 5 轮"):
        units_round(numbers, 6)
    with pytest.raises(UserError, match="1 起连续"):
        units_round({1: 1, 2: 3}, 1)


def test_snake_pools_deal_the_seeding_order_back_and_forth() -> None:
    assert snake_pools(list(range(1, 13)), 4) == ((1, 8, 9), (2, 7, 10), (3, 6, 11), (4, 5, 12))
    assert snake_pools([9, 8, 7, 6, 5], 2) == ((9, 6, 5), (8, 7))


def test_lot_pools_are_reproducible_balanced_and_keep_the_seeding_order() -> None:
    order = list(range(1, 15))
    a, b = lot_pools(order, 3, 42), lot_pools(order, 3, 42)
    assert a == b
    assert sorted(len(p) for p in a) == [4, 5, 5]
    assert sorted(itertools.chain.from_iterable(a)) == order
    assert all(list(p) == sorted(p) for p in a)
    assert lot_pools(order, 3, 43) != a
    with pytest.raises(UserError, match="不够分成"):
        make_pools([1, 2, 3, 4, 5], 3, PoolDraw.SNAKE, 1)


@given(st.integers(2, 24), st.integers(1, 2))
def test_every_schedule_is_a_complete_round_robin(n: int, cycles: int) -> None:
    rounds = schedule(n, cycles)
    assert len(rounds) == (n if n % 2 else n - 1) * cycles
    for r in rounds:
        seated = [x for p in r.pairs for x in p] + ([r.bye] if r.bye else [])
        assert sorted(seated) == list(range(1, n + 1))
    meetings: dict[frozenset[int], int] = {}
    for r in rounds:
        for p in r.pairs:
            meetings[frozenset(p)] = meetings.get(frozenset(p), 0) + 1
    assert len(meetings) == n * (n - 1) // 2 and set(meetings.values()) == {cycles}


def test_withdrawal_rule() -> None:
    assert annuls_games(WithdrawalRule.HALF, 0, 9)
    assert annuls_games(WithdrawalRule.HALF, 4, 9)  # 4 of 9 is less than half
    assert not annuls_games(WithdrawalRule.HALF, 5, 9)
    assert annuls_games(WithdrawalRule.ANNUL, 8, 9)
    assert not annuls_games(WithdrawalRule.STAND, 0, 9)


def test_sizes_outside_the_tables_are_refused() -> None:
    with pytest.raises(UserError, match="2–24"):
        berger_table(25)
    with pytest.raises(UserError, match="2–24"):
        berger_table(1)


# --------------------------------------------------------------------------- FIDE's last-two-rounds swap


def _colour_runs(n: int, swap: bool) -> dict[int, str]:
    """Each number's colours in the order of its games over a double round robin (R red, B black)."""
    runs = {k: "" for k in range(1, n + 1)}
    for r in schedule(n, 2, swap_last_rounds=swap):
        for red, black in r.pairs:
            runs[red] += "R"
            runs[black] += "B"
    return runs


def test_without_the_swap_four_players_give_1_three_blacks_and_3_three_reds() -> None:
    """Worked by hand from the table: rounds 1–3 are 1-4 2-3 | 4-3 1-2 | 2-4 3-1, the second cycle the
    same with colours swapped. #1: R R B | B B R — three Blacks across the cycle boundary; #3: B B R |
    R R B. With the swap the first cycle is played 1, 3, 2: #1 R B R | B B R, #3 B R B | R R B."""
    assert _colour_runs(4, swap=False) == {1: "RRBBBR", 2: "RBRBRB", 3: "BBRRRB", 4: "BRBRBR"}
    swapped = _colour_runs(4, swap=True)
    assert swapped[1] == "RBRBBR" and swapped[3] == "BRBRRB"
    assert [r.pairs for r in schedule(4, 2, swap_last_rounds=True)][1:3] == [
        ((2, 4), (3, 1)),
        ((4, 3), (1, 2)),
    ]


@pytest.mark.parametrize("n", range(4, 25, 2))
def test_without_the_swap_every_even_size_has_a_run_of_three(n: int) -> None:
    runs = _colour_runs(n, swap=False)
    assert "BBB" in runs[1] and "RRR" in runs[n // 2 + 1]


@given(st.integers(min_value=4, max_value=24))
def test_with_the_swap_no_one_has_one_colour_three_games_running(n: int) -> None:
    for number, colours in _colour_runs(n, swap=True).items():
        assert "RRR" not in colours and "BBB" not in colours, (n, number, colours)


@given(st.integers(min_value=3, max_value=24))
def test_the_swap_only_reorders_the_first_cycle(n: int) -> None:
    plain, swapped = schedule(n, 2), schedule(n, 2, swap_last_rounds=True)
    per = len(plain) // 2
    assert [r.pairs for r in swapped[per:]] == [r.pairs for r in plain[per:]]
    assert [r.pairs for r in swapped[: per - 2]] == [r.pairs for r in plain[: per - 2]]
    assert (swapped[per - 2].pairs, swapped[per - 1].pairs) == (plain[per - 1].pairs, plain[per - 2].pairs)
    assert [r.number for r in swapped] == list(range(1, 2 * per + 1))


def test_the_swap_is_for_a_double_round_robin_only() -> None:
    with pytest.raises(UserError, match="双循环"):
        schedule(6, 1, swap_last_rounds=True)
