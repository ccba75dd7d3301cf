"""Prizes (RULES.md §10) with the 2024 Tianshui preset."""

from __future__ import annotations

import doctest

import app.engine.prizes as prizes_module
from app.engine.prizes import award_prizes
from app.engine.regulations import preset

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
    assert doctest.testmod(prizes_module).failed == 0
