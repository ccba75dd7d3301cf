"""Prizes (docs/rules.md §10) with the 2024 Tianshui preset."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import app.engine.prizes as prizes_module
from app.engine.prizes import PrizeCandidate, award_prizes, eligible
from app.engine.regulations import PrizeCategory, PrizeKind, PrizeTable, preset
from app.engine.types import Gender, UserError
from tests.doctests import run_doctests

REG = preset("tianshui-2024")
OPEN_ORDER = list(range(101, 131))  # 30 open-group players in final order
LOCAL_ORDER = list(range(201, 221))  # 20 local players
TEAM_ORDER = [f"队{i}" for i in range(1, 11)]


def test_preset_totals() -> None:
    prizes = award_prizes(
        REG.prizes, {"公开组": OPEN_ORDER, "天水本地组": LOCAL_ORDER}, {"公开组": TEAM_ORDER}
    )
    # 10000+5000+3000+2000+1000+800+600+600+500+500+400+400 = 24800; + 6×300 + 6×200 = 3000 → 27800
    # 2000+1000+800+500 = 4300; + 4×400 + 4×300 + 4×200 = 3600 → 7900
    # 1000+500+400+300 = 2200; + 4×200 = 800 → 3000
    assert [(t.table.name, t.total, t.awarded) for t in prizes.tables] == [
        ("公开组个人", 27800, 27800),
        ("天水本地组个人", 7900, 7900),
        ("公开组团体", 3000, 3000),
    ]
    assert prizes.grand_total == 27800 + 7900 + 3000 == 38700
    assert len(prizes.tables[0].lines) == 24 and len(prizes.tables[1].lines) == 16
    assert len(prizes.tables[2].lines) == 8
    first = prizes.tables[0].lines[0]
    assert (first.place, first.no, first.amount) == (1, 101, 10000)
    assert prizes.tables[2].lines[7].team == "队8"


def test_disqualified_prize_passes_down() -> None:
    # Open 2nd (102) disqualified: 103 takes 5000, 104 takes 3000, …, 125 takes the 24th prize (200).
    prizes = award_prizes(
        REG.prizes,
        {"公开组": OPEN_ORDER, "天水本地组": LOCAL_ORDER},
        {"公开组": TEAM_ORDER},
        disqualified={102},
        unranked_teams={"队1"},
    )
    open_lines = prizes.tables[0].lines
    assert [(line.place, line.no, line.amount) for line in open_lines[:3]] == [
        (1, 101, 10000),
        (2, 103, 5000),
        (3, 104, 3000),
    ]
    assert (open_lines[-1].place, open_lines[-1].no, open_lines[-1].amount) == (24, 125, 200)
    assert all(line.no != 102 for line in prizes.lines)
    assert [line.team for line in prizes.tables[2].lines[:2]] == ["队2", "队3"]
    assert prizes.grand_awarded == 38700


def test_too_few_players_leaves_prizes_unawarded() -> None:
    # Local group of 14 players: places 15 and 16 (200 each) have nobody → 7900 − 400 = 7500 paid.
    prizes = award_prizes(REG.prizes, {"天水本地组": list(range(1, 15))})
    local = prizes.tables[1]
    assert local.total == 7900 and local.awarded == 7500
    assert [line.awarded for line in local.lines[-3:]] == [True, False, False]
    assert prizes.tables[0].awarded == 0  # no open-group ranking given


def test_doctests() -> None:
    assert run_doctests(prizes_module).failed == 0


# --------------------------------------------------------------------------- category prizes
#
# One group, final ranking 1…7. W = woman; ages on the first day of play in brackets.
#   1 M (40) | 2 W (30) | 3 M (15) | 4 W (50) | 5 W (14) | 6 M (70) | 7 W (66)
# Tables (in the regulation's order): 个人 1000/500/300; 女子 400/200; 少年 (≤16) 300; 老年 (≥65) 奖杯 only.
# One prize per player, the higher first — slots in value order (ties: the table listed first):
#   个人1 1000 → 1;  个人2 500 → 2;  女子1 400 → best woman without a prize: 4;
#   个人3 300 (listed before 少年1 300) → 3;  少年1 300 → best junior left: 5;  女子2 200 → 7;
#   老年1 (奖杯, 0 元) → best senior left: 6 (7 already has 女子2).
# Several prizes allowed: 个人 1, 2, 3; 女子 2, 4; 少年 3; 老年 6 (the best-ranked senior).

G = "公开组"
M, W = Gender.MALE, Gender.FEMALE
PEOPLE = {
    no: PrizeCandidate(no, gender, age)
    for no, gender, age in [
        (1, M, 40),
        (2, W, 30),
        (3, M, 15),
        (4, W, 50),
        (5, W, 14),
        (6, M, 70),
        (7, W, 66),
    ]
}
TABLES = (
    PrizeTable("个人", G, PrizeKind.INDIVIDUAL, (1000, 500, 300)),
    PrizeTable("女子", G, PrizeKind.INDIVIDUAL, (400, 200), PrizeCategory.WOMEN),
    PrizeTable("少年", G, PrizeKind.INDIVIDUAL, (300,), PrizeCategory.JUNIORS, age=16),
    PrizeTable("老年", G, PrizeKind.INDIVIDUAL, (), PrizeCategory.SENIORS, age=65, items=("奖杯",)),
)


def _won(prizes) -> list[tuple[str, int, int | None, int, str]]:
    return [(x.table, x.place, x.no, x.amount, x.item) for x in prizes.lines]


def test_one_prize_per_player_the_higher_first() -> None:
    prizes = award_prizes(TABLES, {G: [1, 2, 3, 4, 5, 6, 7]}, candidates={G: PEOPLE})
    assert _won(prizes) == [
        ("个人", 1, 1, 1000, ""),
        ("个人", 2, 2, 500, ""),
        ("个人", 3, 3, 300, ""),
        ("女子", 1, 4, 400, ""),
        ("女子", 2, 7, 200, ""),
        ("少年", 1, 5, 300, ""),
        ("老年", 1, 6, 0, "奖杯"),
    ]
    assert prizes.grand_total == prizes.grand_awarded == 2700


def test_several_prizes_per_player_when_the_regulation_allows() -> None:
    prizes = award_prizes(TABLES, {G: [1, 2, 3, 4, 5, 6, 7]}, candidates={G: PEOPLE}, one_per_player=False)
    assert [(x.table, x.no) for x in prizes.lines] == [
        ("个人", 1),
        ("个人", 2),
        ("个人", 3),
        ("女子", 2),
        ("女子", 4),
        ("少年", 3),
        ("老年", 6),
    ]


def test_local_and_unit_tables_and_a_place_nobody_can_take() -> None:
    people = {
        1: PrizeCandidate(1, region="兰州"),
        2: PrizeCandidate(2, id_prefix="620503"),  # a Tianshui resident ID
        3: PrizeCandidate(3, region="甘肃天水", unit="天水一中"),
        4: PrizeCandidate(4, team="麦积队"),
    }
    local = PrizeTable(
        "本地", G, PrizeKind.INDIVIDUAL, (500, 300, 100), PrizeCategory.LOCAL, regions=("6205", "天水")
    )
    unit = PrizeTable(
        "单位最佳", G, PrizeKind.INDIVIDUAL, (200,), PrizeCategory.UNIT, units=("麦积队", "天水一中")
    )
    prizes = award_prizes((local, unit), {G: [1, 2, 3, 4]}, candidates={G: people})
    assert _won(prizes) == [
        ("本地", 1, 2, 500, ""),
        ("本地", 2, 3, 300, ""),
        ("本地", 3, None, 100, ""),  # nobody else is local
        ("单位最佳", 1, 4, 200, ""),  # 3 has the local prize already
    ]
    assert prizes.grand_awarded == 1000 and prizes.grand_total == 1100


def test_a_category_table_without_the_players_details_is_refused() -> None:
    with pytest.raises(UserError, match="女子"):
        award_prizes(TABLES, {G: [1, 2]})
    assert eligible(TABLES[0], None)  # an overall table needs nothing


@st.composite
def prize_events(draw: st.DrawFn):
    n = draw(st.integers(1, 25))
    people = {
        no: PrizeCandidate(no, draw(st.sampled_from([M, W, None])), draw(st.integers(8, 80)))
        for no in range(1, n + 1)
    }
    order = draw(st.permutations(list(people)))
    tables = []
    for t in range(draw(st.integers(1, 5))):
        category = draw(
            st.sampled_from(
                [PrizeCategory.OVERALL, PrizeCategory.WOMEN, PrizeCategory.SENIORS, PrizeCategory.JUNIORS]
            )
        )
        amounts = sorted(
            draw(st.lists(st.integers(0, 5).map(lambda x: x * 100), min_size=1, max_size=8)), reverse=True
        )
        tables.append(
            PrizeTable(
                f"表{t}", G, PrizeKind.INDIVIDUAL, tuple(amounts), category, age=draw(st.integers(10, 70))
            )
        )
    disqualified = set(draw(st.sets(st.sampled_from(order), max_size=2)))
    return tables, people, order, disqualified


@given(prize_events())
def test_one_prize_each_properties(event) -> None:
    tables, people, order, disqualified = event
    prizes = award_prizes(tables, {G: order}, candidates={G: people}, disqualified=disqualified)
    rank = {no: i for i, no in enumerate(order)}
    value: dict[int, int] = {}
    for t in prizes.tables:
        got = [x.no for x in t.lines if x.no is not None]
        assert [rank[no] for no in got] == sorted(rank[no] for no in got)  # places follow the ranking
        for no in got:
            assert eligible(t.table, people[no]) and no not in disqualified
            assert no not in value  # one prize each
            value[no] = t.lines[[x.no for x in t.lines].index(no)].amount
    for t in prizes.tables:
        eligible_order = [no for no in order if eligible(t.table, people[no]) and no not in disqualified]
        for x in t.lines:
            # everybody eligible and ranked above the recipient already holds a prize worth at least as much
            above = eligible_order if x.no is None else eligible_order[: eligible_order.index(x.no)]
            for no in above:
                assert no in value and value[no] >= x.amount, (t.table.name, x.place, no)


@given(prize_events())
def test_several_prizes_are_each_tables_own_ranking(event) -> None:
    tables, people, order, disqualified = event
    prizes = award_prizes(
        tables, {G: order}, candidates={G: people}, disqualified=disqualified, one_per_player=False
    )
    for t in prizes.tables:
        eligible_order = [no for no in order if eligible(t.table, people[no]) and no not in disqualified]
        assert [x.no for x in t.lines] == [
            eligible_order[p] if p < len(eligible_order) else None for p in range(t.table.places)
        ]
