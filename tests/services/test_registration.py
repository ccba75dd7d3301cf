"""Registration services: add / edit / withdraw, flags, teams, list, the draw for numbers."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime
from pathlib import Path

import pytest

from app.db.models import Group, Player, Round, Team
from app.db.session import Database
from app.engine.registration import PlayerEntry
from app.engine.types import UserError
from app.services.audit import audit_log
from app.services.registration import (
    add_player,
    add_players,
    create_team,
    draw_numbers,
    edit_player,
    list_players,
    player_entry,
    reinstate_player,
    set_checked_in,
    set_fee_paid,
    set_insurance,
    set_pledge,
    set_team,
    withdraw_player,
)
from app.services.tournaments import create_tournament
from tests.idnumbers import make_id

BEFORE = datetime(2024, 7, 20, 10, 0)
OPEN, LOCAL = "公开组", "天水本地组"


@pytest.fixture
def db(tmp_path: Path) -> Database:
    return create_tournament(tmp_path / "t.xqt")


def entry(serial: int = 1, **changes: object) -> PlayerEntry:
    base = PlayerEntry(
        name=f"棋手{chr(0x4E00 + serial)}",
        id_number=make_id(date(1980, 3, 4), serial=serial),
        phone="13912345678",
        group=OPEN,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def pair_round_one(db: Database, group: str) -> None:
    with db.session() as s:
        g = s.query(Group).filter_by(name=group).one()
        s.add(Round(group_id=g.id, number=1, paired_at=BEFORE))


def test_add_player_stores_the_normalised_entry(db: Database) -> None:
    pid = add_player(
        db,
        entry(team="兰州队", phone="139-1234-5678", id_number=make_id(date(1980, 3, 4)).lower()),
        now=BEFORE,
    )
    [view] = list_players(db)
    assert view.id == pid and view.team == "兰州队" and view.group == OPEN
    assert view.phone == "13912345678" and view.birth_date == date(1980, 3, 4)
    assert view.id_number == make_id(date(1980, 3, 4)).upper()
    assert view.gender == "male" and view.age == 44 and view.status == "active" and view.no is None
    assert [line.action for line in audit_log(db)][-2:] == ["create_team", "add_player"]


def test_add_player_refuses_with_every_problem_and_writes_nothing(db: Database) -> None:
    with pytest.raises(UserError) as info:
        add_player(db, entry(name="", phone="123", group=LOCAL, team="某队"), now=BEFORE)
    assert "姓名为空" in info.value.zh and "手机号" in info.value.zh and "不设团体" in info.value.zh
    assert list_players(db) == []


def test_duplicate_id_refused(db: Database) -> None:
    add_player(db, entry(1), now=BEFORE)
    with pytest.raises(UserError, match="已经报名"):
        add_player(db, entry(2, id_number=entry(1).id_number), now=BEFORE)


def test_capacity_is_for_the_whole_tournament(tmp_path: Path) -> None:
    from app.engine.regulations import preset

    reg = preset("tianshui-2024")
    small = replace(reg, registration=replace(reg.registration, capacity=3))
    db = create_tournament(tmp_path / "small.xqt", regulations=small)
    add_player(db, entry(1), now=BEFORE)
    add_player(db, entry(2, group=LOCAL), now=BEFORE)
    add_player(db, entry(3), now=BEFORE)
    with pytest.raises(UserError, match="报名人数已满"):
        add_player(db, entry(4, group=LOCAL), now=BEFORE)
    assert len(list_players(db)) == 3


def test_deadline_override_is_logged_with_its_reason(db: Database) -> None:
    late = datetime(2024, 7, 24, 9, 0)
    with pytest.raises(UserError, match="截止"):
        add_player(db, entry(1), now=late)
    add_player(db, entry(1), now=late, override_reason="组委会批准补报")
    [line] = audit_log(db, action="deadline_override")
    assert line.reason == "组委会批准补报"
    assert list_players(db)[0].registered_at == late


def test_edit_player_changes_fields_and_logs_before_after(db: Database) -> None:
    pid = add_player(db, entry(1), now=BEFORE)
    view = list_players(db)[0]
    edit_player(db, pid, replace(player_entry(view), phone="18194240701", rating=1850), reason="更正电话")
    after = list_players(db)[0]
    assert after.phone == "18194240701" and after.rating == 1850
    [line] = audit_log(db, action="edit_player")
    # the change is logged with the numbers masked (no personal number goes into audit text)
    assert "139****5678" in line.before and "181****0701" in line.after and line.reason == "更正电话"
    assert "13912345678" not in line.before + line.after and "18194240701" not in line.after


def test_edit_player_keeps_duplicate_check_but_not_against_itself(db: Database) -> None:
    a = add_player(db, entry(1), now=BEFORE)
    add_player(db, entry(2), now=BEFORE)
    view = next(v for v in list_players(db) if v.id == a)
    edit_player(db, a, player_entry(view))  # its own number is no duplicate
    with pytest.raises(UserError, match="已经报名"):
        edit_player(db, a, replace(player_entry(view), id_number=entry(2).id_number))


def test_flags_and_team(db: Database) -> None:
    pid = add_player(db, entry(1), now=BEFORE)
    set_fee_paid(db, pid)
    set_insurance(db, pid)
    set_pledge(db, pid)
    set_checked_in(db, pid)
    view = list_players(db)[0]
    assert (view.fee_paid, view.insurance, view.pledge, view.checked_in) == (True, True, True, True)
    set_checked_in(db, pid, False)
    assert not list_players(db)[0].checked_in
    team_id = create_team(db, OPEN, "天水一队", leader="王领队")
    set_team(db, pid, "天水一队")
    assert list_players(db)[0].team == "天水一队"
    with db.session() as s:
        assert s.get(Team, team_id).leader == "王领队"  # type: ignore[union-attr]
    set_team(db, pid, None)
    assert list_players(db)[0].team == ""
    with pytest.raises(UserError, match="不设团体"):
        create_team(db, LOCAL, "本地队")
    with pytest.raises(UserError, match="已有代表队"):
        create_team(db, OPEN, "天水一队")
    actions = [line.action for line in audit_log(db)]
    for action in ("set_fee_paid", "set_insurance", "set_pledge", "set_checked_in", "set_team"):
        assert action in actions


def test_withdraw_before_round_one_removes_and_closes_the_gap(db: Database) -> None:
    ids = [add_player(db, entry(i), now=BEFORE) for i in range(1, 5)]
    numbers = draw_numbers(db, OPEN, seed=7)
    leaving = next(pid for pid, no in numbers.items() if no == 2)
    withdraw_player(db, leaving, remove=True, reason="因病")
    remaining = {v.id: v.no for v in list_players(db)}
    assert leaving not in remaining and sorted(remaining.values()) == [1, 2, 3]
    for pid in ids:
        if pid != leaving:
            assert remaining[pid] == (numbers[pid] - 1 if numbers[pid] > 2 else numbers[pid])


def test_withdraw_after_round_one_is_a_status(db: Database) -> None:
    pid = add_player(db, entry(1), now=BEFORE)
    add_player(db, entry(2), now=BEFORE)
    draw_numbers(db, OPEN, seed=1)
    pair_round_one(db, OPEN)
    with pytest.raises(UserError, match="不能删除"):
        withdraw_player(db, pid, remove=True)
    withdraw_player(db, pid, reason="家中有事")
    view = next(v for v in list_players(db) if v.id == pid)
    assert view.status == "withdrawn" and view.status_round == 2
    with pytest.raises(UserError):
        withdraw_player(db, pid)
    reinstate_player(db, pid)
    assert next(v for v in list_players(db) if v.id == pid).status == "active"


def test_late_entry_after_round_one_gets_the_next_number(db: Database) -> None:
    for i in range(1, 4):
        add_player(db, entry(i), now=BEFORE)
    draw_numbers(db, OPEN, seed=3)
    pair_round_one(db, OPEN)
    pid = add_player(db, entry(9), now=BEFORE)
    view = next(v for v in list_players(db) if v.id == pid)
    assert view.no == 4 and view.late_entry_round == 2


def test_draw_by_lot_records_method_and_seed_and_is_reproducible(db: Database) -> None:
    for i in range(1, 11):
        add_player(db, entry(i), now=BEFORE)
    add_player(db, entry(20, group=LOCAL), now=BEFORE)
    first = draw_numbers(db, OPEN, "lot", seed=424242)
    assert sorted(first.values()) == list(range(1, 11))
    assert draw_numbers(db, OPEN, "lot", seed=424242) == first
    with db.session() as s:
        g = s.query(Group).filter_by(name=OPEN).one()
        assert (g.numbers_method, g.numbers_seed) == ("lot", 424242)
    assert [v.no for v in list_players(db, OPEN)] == list(range(1, 11))
    assert list_players(db, LOCAL)[0].no is None  # per group


def test_draw_without_seed_records_a_new_one(db: Database) -> None:
    add_player(db, entry(1), now=BEFORE)
    add_player(db, entry(2), now=BEFORE)
    draw_numbers(db, OPEN)
    with db.session() as s:
        seed = s.query(Group).filter_by(name=OPEN).one().numbers_seed
    assert seed is not None and 1 <= seed <= 999_999


def test_draw_by_rating_and_manual(db: Database) -> None:
    a = add_player(db, entry(1, rating=1700), now=BEFORE)
    b = add_player(db, entry(2), now=BEFORE)
    c = add_player(db, entry(3, rating=2050), now=BEFORE)
    assert draw_numbers(db, OPEN, "rating", seed=1) == {c: 1, a: 2, b: 3}
    with pytest.raises(UserError, match="重复"):
        draw_numbers(db, OPEN, "manual", manual={a: 1, b: 1, c: 2})
    assert draw_numbers(db, OPEN, "manual", manual={a: 3, b: 1, c: 2}) == {a: 3, b: 1, c: 2}
    with db.session() as s:
        g = s.query(Group).filter_by(name=OPEN).one()
        assert (g.numbers_method, g.numbers_seed) == ("manual", None)
        assert {p.id: p.no for p in s.query(Player)} == {a: 3, b: 1, c: 2}


def test_draw_refused_once_round_one_is_paired(db: Database) -> None:
    add_player(db, entry(1), now=BEFORE)
    add_player(db, entry(2), now=BEFORE)
    numbers = draw_numbers(db, OPEN, seed=5)
    pair_round_one(db, OPEN)
    with pytest.raises(UserError, match="首轮已编排"):
        draw_numbers(db, OPEN, seed=6)
    assert {v.id: v.no for v in list_players(db)} == numbers


def test_withdrawn_players_get_no_number(db: Database) -> None:
    a = add_player(db, entry(1), now=BEFORE)
    b = add_player(db, entry(2), now=BEFORE)
    withdraw_player(db, a, reason="因病")
    assert draw_numbers(db, OPEN, seed=1) == {b: 1}


def test_add_players_is_all_or_nothing(db: Database) -> None:
    with pytest.raises(UserError, match="第 3 名"):
        add_players(db, [entry(1), entry(2), entry(3, id_number=entry(1).id_number)], now=BEFORE)
    assert list_players(db) == []
    ids = add_players(db, [entry(1), entry(2, group=LOCAL)], now=BEFORE)
    assert [v.id for v in list_players(db)] == ids


def test_list_players_reads_each_player_as_the_orm_does(played_demo: Path) -> None:
    """The players are read as columns: every field of every player, in the same order, is what the
    player's ORM object gives (group and team names, age on the first day of play), with or without
    a team and a birth date."""
    from sqlalchemy import select

    from app.engine.registration import age_on
    from app.services.registration import PlayerView, list_players
    from app.services.tournaments import open_tournament, regulations_of

    db = open_tournament(played_demo)
    try:
        with db.session() as s:
            s.execute(select(Player).limit(1)).scalar_one().birth_date = None  # a TRF player: unknown
            s.commit()
        with db.session() as s:
            first_day = regulations_of(s).registration.first_day_of_play
            query = (
                select(Player)
                .join(Group, Player.group_id == Group.id)
                .order_by(Group.position, Player.no.is_(None), Player.no, Player.id)
            )
            expected = [
                PlayerView(
                    id=p.id, no=p.no, name=p.name, group=p.group.name, team=p.team.name if p.team else "",
                    unit=p.unit, gender=p.gender, id_type=p.id_type, id_number=p.id_number,
                    birth_date=p.birth_date,
                    age=None if p.birth_date is None else age_on(p.birth_date, first_day),
                    phone=p.phone, rating=p.rating, notes=p.notes, fee_paid=p.fee_paid,
                    insurance=p.insurance, pledge=p.pledge, checked_in=p.checked_in, status=p.status,
                    status_round=p.status_round, registered_at=p.registered_at,
                    late_entry_round=p.late_entry_round, region=p.region, reentry_round=p.reentry_round,
                    ranked=p.ranked, rating_rank=p.rating_rank,
                )
                for p in s.scalars(query)
            ]  # fmt: skip
        players = list_players(db)
        assert players == expected
        assert any(p.team for p in players) and any(not p.team for p in players)
        assert any(p.age is None for p in players) and any(p.status != "active" for p in players)
        assert len({p.group for p in players}) == 2
        assert list_players(db, expected[-1].group) == [p for p in expected if p.group == expected[-1].group]
    finally:
        db.close()
