"""The line-up deadline (排阵截止) with an injected clock, and the roster steps the window's editor takes:
each rule refused by name, each step logged and put back by its undo."""

from __future__ import annotations

import dataclasses
import json
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.db.session import Database
from app.engine.regulations import RoundTime, regulations_from_toml, regulations_to_toml
from app.engine.types import UserError
from app.services import audit
from app.services.snapshot import export_snapshot, import_snapshot
from app.services.team_demo import GROUP, create_team_demo
from app.services.team_events import (
    hand_in_lineup,
    pair_team_round,
    round_lineup_deadline,
    seat_team_round,
    set_team_details,
    team_round_view,
    teams_of,
)
from app.services.team_rosters import (
    add_to_team,
    move_in_roster,
    remove_from_team,
    rename_team,
    restore_roster_state,
    roster_state,
    set_reserve,
    set_team_number,
)
from app.services.tournaments import load_regulations, update_regulations
from tests.conftest import built_once_file
from tests.factories import open_copy

START = datetime(2024, 7, 26, 14, 0)  # round 1's announced start; line-ups due 13:30


def with_deadline(db: Database, minutes: int = 30, **match: object) -> None:
    reg = load_regulations(db)
    g = reg.groups[0]
    assert g.team_event is not None
    event = dataclasses.replace(
        g.team_event, match=dataclasses.replace(g.team_event.match, lineup_deadline=minutes, **match)
    )
    new = dataclasses.replace(
        reg, groups=(dataclasses.replace(g, team_event=event),), schedule=(RoundTime(1, START),)
    )
    update_regulations(db, new)


def _league(path: Path) -> None:
    create_team_demo(path, "team-round-robin", teams=4, seed=5).close()


@pytest.fixture
def league(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> Database:
    """A team round robin of four, nothing paired (made once per run; this test's own copy)."""
    template = built_once_file(tmp_path_factory, "team-round-robin-4", "t.xqt", _league)
    db = open_copy(template, tmp_path / "t.xqt")
    yield db
    db.close()


def first_match_teams(db: Database) -> tuple[str, str]:
    m = team_round_view(db, GROUP, 1).matches[0]
    assert m.away is not None
    return m.home, m.away


def nos(db: Database, team: str) -> list[int]:
    t = next(t for t in teams_of(db, GROUP) if t.name == team)
    return [p.no for p in t.roster if p.no is not None]


# --------------------------------------------------------------------------- the deadline


def test_a_line_up_in_time_and_one_late(league: Database) -> None:
    with_deadline(league, 30)
    pair_team_round(league, GROUP, seed=1)
    home, away = first_match_teams(league)
    deadline = round_lineup_deadline(league, GROUP, 1)
    assert deadline is not None and deadline.at == datetime(2024, 7, 26, 13, 30)
    # at the deadline itself: in time
    hand_in_lineup(league, GROUP, 1, home, nos(league, home)[:4], now=datetime(2024, 7, 26, 13, 30))
    # one second later: refused, the rule named, nothing stored
    with pytest.raises(UserError) as late:
        hand_in_lineup(league, GROUP, 1, away, nos(league, away)[:4], now=datetime(2024, 7, 26, 13, 30, 1))
    assert "赛前 30 分钟提交出场名单" in late.value.zh and "排阵截止 7月26日 13:30" in late.value.zh
    assert "已过 1 分钟" in late.value.zh and "按报名顺序上场" in late.value.zh
    assert "30 min before the start" in late.value.en
    assert team_round_view(league, GROUP, 1).matches[0].lineups_in == (True, False)
    # a replacement after the deadline is refused as well: the team's earlier line-up stands
    with pytest.raises(UserError, match="迟交"):
        hand_in_lineup(league, GROUP, 1, home, nos(league, home)[:4], now=datetime(2024, 7, 26, 13, 45))


def test_the_arbiter_overrides_a_late_line_up_with_a_reason(league: Database) -> None:
    with_deadline(league, 30)
    pair_team_round(league, GROUP, seed=1)
    _home, away = first_match_teams(league)
    at = datetime(2024, 7, 26, 13, 52)
    hand_in_lineup(
        league,
        GROUP,
        1,
        away,
        nos(league, away)[1:5],
        handed_in_by="领队甲",
        now=at,
        override="堵车，经裁判长同意",
    )
    line = audit.audit_log(league, action="hand_in_lineup")[-1]
    after = json.loads(line.after)
    assert line.reason == "堵车，经裁判长同意"
    assert after["override"] == "堵车，经裁判长同意" and "已过 22 分钟" in after["late"]
    assert after["handed_in_by"] == "领队甲" and after["handed_in_at"] == "2024-07-26 13:52:00"
    # a blank reason is no override
    with pytest.raises(UserError, match="注明理由"):
        hand_in_lineup(league, GROUP, 1, away, nos(league, away)[:4], now=at, override="  ")


def test_a_team_that_missed_the_deadline_plays_the_regulations_default(league: Database) -> None:
    with_deadline(league, 30)
    pair_team_round(league, GROUP, seed=1)
    home, away = first_match_teams(league)
    registered = nos(league, away)
    chosen = [registered[0], registered[1], registered[2], registered[4]]  # the reserve in on board 4
    hand_in_lineup(league, GROUP, 1, home, nos(league, home)[:4], now=datetime(2024, 7, 26, 13, 0))
    with pytest.raises(UserError):
        hand_in_lineup(league, GROUP, 1, away, chosen, now=datetime(2024, 7, 26, 13, 40))
    notes = seat_team_round(league, GROUP, 1, now=datetime(2024, 7, 26, 13, 41))
    assert any(f"{away}未在排阵截止前交排阵，按报名顺序上场" in n for n in notes)
    m = team_round_view(league, GROUP, 1).matches[0]
    assert [b.away.no for b in m.boards] == registered[:4]  # the registered order, not the late choice
    assert [b.home.no for b in m.boards] == nos(league, home)[:4]


def test_the_default_by_lot_for_a_late_team(league: Database) -> None:
    from app.engine.team_rules import MissingLineup

    with_deadline(league, 30, missing_lineup=MissingLineup.LOT)
    pair_team_round(league, GROUP, seed=1)
    _home, away = first_match_teams(league)
    notes = seat_team_round(league, GROUP, 1, now=datetime(2024, 7, 26, 13, 41))
    assert any(f"{away}未在排阵截止前交排阵，抽签决定台次" in n for n in notes)
    seated = [b.away.no for b in team_round_view(league, GROUP, 1).matches[0].boards]
    assert sorted(seated) == sorted(nos(league, away)[:4])


def test_no_deadline_without_the_setting_or_the_rounds_start(league: Database) -> None:
    pair_team_round(league, GROUP, seed=1)
    assert round_lineup_deadline(league, GROUP, 1) is None  # the setting is 0
    home, _away = first_match_teams(league)
    hand_in_lineup(league, GROUP, 1, home, nos(league, home)[:4], now=datetime(2030, 1, 1))


def test_the_deadline_key_in_the_regulation_file_and_the_snapshot(league: Database, tmp_path: Path) -> None:
    with_deadline(league, 30)
    text = regulations_to_toml(load_regulations(league))
    assert "lineup_deadline = 30" in text
    bad = text.replace("lineup_deadline = 30", "lineup_deadline = 5000")
    with pytest.raises(UserError) as error:
        regulations_from_toml(bad)
    assert "排阵截止 lineup_deadline" in error.value.zh and "团体组" in error.value.zh
    wrong = text.replace("lineup_deadline = 30", 'lineup_deadline = "30分钟"')
    with pytest.raises(UserError, match="lineup_deadline"):
        regulations_from_toml(wrong)
    assert "赛前 30 分钟交排阵" in load_regulations(league).groups[0].describe_zh()
    copy = import_snapshot(export_snapshot(league), tmp_path / "copy.xqt")
    try:
        team_event = load_regulations(copy).groups[0].team_event
        assert team_event is not None and team_event.match.lineup_deadline == 30
    finally:
        copy.close()


def test_the_deadline_may_change_after_round_one(league: Database) -> None:
    pair_team_round(league, GROUP, seed=1)
    with_deadline(league, 20)  # for the rounds to come: allowed
    deadline = round_lineup_deadline(league, GROUP, 1)
    assert deadline is not None and deadline.minutes == 20


# --------------------------------------------------------------------------- rosters


def team_named(db: Database, name: str):
    return next(t for t in teams_of(db, GROUP) if t.name == name)


def test_move_and_reserve_renumber_the_team(league: Database) -> None:
    t = teams_of(league, GROUP)[0]
    names = [p.name for p in t.roster]
    second = t.roster[1]
    move_in_roster(league, GROUP, t.name, second.id, -1)
    after = team_named(league, t.name)
    assert [p.name for p in after.roster] == [names[1], names[0], *names[2:]]
    assert [p.no for p in after.roster] == [100 * t.no + i for i in range(1, 6)]
    # a reserve cannot climb above the main players; a main player cannot sink below the reserves
    reserve = after.roster[-1]
    with pytest.raises(UserError, match="替补排在主力队员之后"):
        move_in_roster(league, GROUP, t.name, reserve.id, -1)
    with pytest.raises(UserError, match="主力队员排在替补之前"):
        move_in_roster(league, GROUP, t.name, after.roster[3].id, +1)
    set_reserve(league, GROUP, t.name, after.roster[0].id, True)
    again = team_named(league, t.name)
    assert [p.reserve for p in again.roster] == [False, False, False, True, True]
    assert again.roster[3].name == names[1]  # the new reserve leads the reserves
    set_reserve(league, GROUP, t.name, reserve.id, False)
    assert team_named(league, t.name).roster[3].name == reserve.name  # last of the main players


def test_a_player_in_two_teams_and_the_roster_size_are_refused(league: Database) -> None:
    a, b = teams_of(league, GROUP)[:2]
    with pytest.raises(UserError) as two:
        add_to_team(league, GROUP, b.name, a.roster[0].id)
    assert "一名棋手不能为两个队报名" in two.value.zh
    # the demo's regulation allows 4–6 players; the numbers are drawn, so 4 is the floor
    remove_from_team(league, GROUP, a.name, a.roster[4].id)
    with pytest.raises(UserError) as few:
        remove_from_team(league, GROUP, a.name, a.roster[0].id)
    assert "规程规定每队报名" in few.value.zh
    moved = a.roster[4]
    add_to_team(league, GROUP, b.name, moved.id)
    t = team_named(league, b.name)
    assert [p.name for p in t.roster][4] == moved.name and len(t.roster) == 6
    assert t.roster[5].reserve and not t.roster[4].reserve  # a main player goes before the reserves
    assert [p.no for p in t.roster] == [100 * t.no + i for i in range(1, 7)]
    # b has the maximum: one more is refused, the rule named
    c = teams_of(league, GROUP)[2]
    remove_from_team(league, GROUP, c.name, c.roster[4].id)
    with pytest.raises(UserError) as many:
        add_to_team(league, GROUP, b.name, c.roster[4].id)
    assert "已有 6 名队员" in many.value.zh and "规程规定每队报名 4–6 人" in many.value.zh


def test_rosters_are_fixed_once_round_one_is_paired(league: Database) -> None:
    t = teams_of(league, GROUP)[0]
    pair_team_round(league, GROUP, seed=1)
    for step in (
        lambda: move_in_roster(league, GROUP, t.name, t.roster[1].id, -1),
        lambda: set_reserve(league, GROUP, t.name, t.roster[0].id, True),
        lambda: remove_from_team(league, GROUP, t.name, t.roster[4].id),
        lambda: set_team_number(league, GROUP, t.name, 2),
    ):
        with pytest.raises(UserError) as fixed:
            step()
        assert "第 1 轮编排后报名顺序和队号不再改变" in fixed.value.zh
    rename_team(league, GROUP, t.name, "天水新队")  # a name may still be corrected
    assert teams_of(league, GROUP)[0].name == "天水新队"


def test_team_number_by_hand_swaps_and_renumbers(league: Database) -> None:
    one, two = teams_of(league, GROUP)[:2]
    set_team_number(league, GROUP, one.name, 2)
    a, b = team_named(league, one.name), team_named(league, two.name)
    assert (a.no, b.no) == (2, 1)
    assert [p.no for p in a.roster] == [201, 202, 203, 204, 205]
    assert [p.no for p in b.roster] == [101, 102, 103, 104, 105]
    with pytest.raises(UserError, match="队号应在 1–4 之间"):
        set_team_number(league, GROUP, one.name, 9)


def test_every_step_is_logged_and_undone_by_restoring_the_state_before(league: Database) -> None:
    t = teams_of(league, GROUP)[0]
    before = roster_state(league, GROUP)
    move_in_roster(league, GROUP, t.name, t.roster[2].id, -1)
    set_team_details(league, GROUP, t.name, captain="新队长")
    after = roster_state(league, GROUP)
    actions = [line.action for line in audit.audit_log(league)]
    assert actions[-2:] == ["team_roster_move", "set_team_details"]
    restore_roster_state(league, GROUP, before, after)
    back = team_named(league, t.name)
    assert [(p.name, p.no, p.reserve) for p in back.roster] == [(p.name, p.no, p.reserve) for p in t.roster]
    assert back.captain == t.captain
    assert audit.audit_log(league)[-1].action == "restore_team_rosters"


# --------------------------------------------------------------------------- random roster steps

STEPS = st.lists(
    st.tuples(
        st.sampled_from(["up", "down", "reserve", "remove", "add", "add_reserve", "number"]),
        st.integers(0, 3),  # which team
        st.integers(0, 7),  # which player (of the team, or of those in no team)
    ),
    min_size=1,
    max_size=12,
)


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Database:
    db = create_team_demo(tmp_path_factory.mktemp("p") / "t.xqt", "team-round-robin", teams=4, seed=9)
    yield db
    db.close()


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(steps=STEPS)
def test_random_roster_steps_keep_the_rules_and_undo_exactly(shared: Database, steps) -> None:
    """Whatever steps are taken (a refused one changes nothing): every team keeps its order 1 … n with the
    reserves last, its size within the regulation, each player in one team numbered team × 100 + order;
    and putting back the state before, step by step in reverse, gives the starting rosters exactly."""
    from app.services.team_rosters import unassigned_players

    start = roster_state(shared, GROUP)
    undo: list[tuple[object, object]] = []
    for kind, team_index, player_index in steps:
        teams = teams_of(shared, GROUP)
        t = teams[team_index]
        members = t.roster
        before = roster_state(shared, GROUP)
        try:
            if kind in ("up", "down", "reserve", "remove"):
                p = members[player_index % len(members)]
                if kind == "remove":
                    remove_from_team(shared, GROUP, t.name, p.id)
                elif kind == "reserve":
                    set_reserve(shared, GROUP, t.name, p.id, not p.reserve)
                else:
                    move_in_roster(shared, GROUP, t.name, p.id, -1 if kind == "up" else 1)
            elif kind == "number":
                set_team_number(shared, GROUP, t.name, player_index % 4 + 1)
            else:
                free = unassigned_players(shared, GROUP)
                if not free:
                    continue
                add_to_team(
                    shared, GROUP, t.name, free[player_index % len(free)][0], reserve=kind == "add_reserve"
                )
        except UserError:
            assert roster_state(shared, GROUP) == before  # refused: nothing changed
            continue
        undo.append((before, roster_state(shared, GROUP)))
        for team in teams_of(shared, GROUP):
            assert 4 <= len(team.roster) <= 6
            assert [p.order for p in team.roster] == list(range(1, len(team.roster) + 1))
            flags = [p.reserve for p in team.roster]
            assert flags == sorted(flags)  # reserves last
            assert [p.no for p in team.roster] == [team.no * 100 + p.order for p in team.roster]
        members_of = [p.id for team in teams_of(shared, GROUP) for p in team.roster]
        assert len(members_of) == len(set(members_of))
        assert sorted(team.no for team in teams_of(shared, GROUP)) == [1, 2, 3, 4]
    for before, after in reversed(undo):
        restore_roster_state(shared, GROUP, before, after)  # type: ignore[arg-type]
    assert roster_state(shared, GROUP) == start
