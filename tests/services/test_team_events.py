"""Team competitions through the services: team numbers, line-ups, the boards of a match, results by
board with the score read back, tie-breaks, no-shows, the audit log, snapshots and a whole event."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.db.session import Database
from app.engine.team_match import Side
from app.engine.types import GameResult, UserError
from app.services import audit
from app.services.snapshot import export_snapshot, import_snapshot
from app.services.team_demo import GROUP, create_team_demo, play_team_event_to_end, simulate_team_format
from app.services.team_events import (
    close_team_round,
    enter_board_result,
    enter_tie_game,
    hand_in_lineup,
    pair_team_round,
    seat_team_round,
    set_team_absent,
    team_knockout_places,
    team_round_view,
    team_standings_view,
    teams_of,
    unpair_team_round,
)
from tests.conftest import built_once_file
from tests.factories import open_copy

R, B, D = GameResult.RED_WIN, GameResult.BLACK_WIN, GameResult.DRAW


def _swiss(path: Path) -> None:
    create_team_demo(path, "team-swiss", teams=5, rounds=3, seed=7).close()


@pytest.fixture
def swiss(tmp_path_factory: pytest.TempPathFactory, tmp_path: Path) -> Database:
    """A team Swiss of five teams, three rounds, nothing paired (made once per run; this test's copy)."""
    db = open_copy(
        built_once_file(tmp_path_factory, "team-swiss-5-seed-7", "t.xqt", _swiss), tmp_path / "t.xqt"
    )
    yield db
    db.close()


def test_team_and_player_numbers(swiss: Database) -> None:
    teams = teams_of(swiss, GROUP)
    assert [t.no for t in teams] == [1, 2, 3, 4, 5]
    for t in teams:
        assert [p.no for p in t.roster] == [100 * t.no + i for i in range(1, 6)]  # 4 boards + a reserve
        assert [p.reserve for p in t.roster] == [False, False, False, False, True]
        assert t.captain


def test_a_round_from_pairing_to_the_score(swiss: Database) -> None:
    outcome = pair_team_round(swiss, GROUP, seed=3)
    assert len(outcome.matches) == 2 and outcome.bye is not None  # five teams: one has the bye
    view = team_round_view(swiss, GROUP, 1)
    first = view.matches[0]
    assert not first.seated and first.score_label == "待排阵"
    home = next(t for t in teams_of(swiss, GROUP) if t.name == first.home)
    away = next(t for t in teams_of(swiss, GROUP) if t.name == first.away)
    # the registered order is kept: the reserve (5th) may play, but below the others
    with pytest.raises(UserError, match="须按报名顺序排阵"):
        hand_in_lineup(
            swiss,
            GROUP,
            1,
            home.name,
            [home.roster[1].no, home.roster[0].no, home.roster[2].no, home.roster[3].no],
        )
    with pytest.raises(UserError, match="一名棋手不能为两个队上场"):
        hand_in_lineup(
            swiss,
            GROUP,
            1,
            home.name,
            [home.roster[0].no, home.roster[1].no, home.roster[2].no, away.roster[0].no],
        )
    lineup = [home.roster[0].no, home.roster[1].no, home.roster[3].no, home.roster[4].no]  # 3rd rests
    assert hand_in_lineup(swiss, GROUP, 1, home.name, lineup, handed_in_by="张领队") == tuple(lineup)
    notes = seat_team_round(swiss, GROUP, 1)
    assert any(first.away in n and "按报名顺序上场" in n for n in notes)  # the away team handed in nothing
    first = team_round_view(swiss, GROUP, 1).matches[0]
    assert first.seated and [b.table for b in first.boards] == [1, 2, 3, 4]
    assert [b.home.no for b in first.boards] == lineup
    assert [b.away.no for b in first.boards] == [p.no for p in away.roster[:4]]
    assert [b.home_red for b in first.boards] == [True, False, True, False]  # home Red on boards 1 and 3
    # results by board, the score read back after each
    assert enter_board_result(swiss, GROUP, 1, 1, 1, R).label == "2:0"  # home Red won board 1
    assert enter_board_result(swiss, GROUP, 1, 1, 2, R).label == "2:2"  # away Red won board 2
    enter_board_result(swiss, GROUP, 1, 1, 3, D)
    score = enter_board_result(swiss, GROUP, 1, 1, 4, B)  # home Black won board 4
    assert (score.label, score.home_match_points, score.away_match_points) == ("5:3", 2, 0)
    assert team_round_view(swiss, GROUP, 1).matches[0].score_label == "5:3（场分 2:0）"
    # the second board's games: table numbers go on through the round
    second = team_round_view(swiss, GROUP, 1).matches[1]
    assert [b.table for b in second.boards] == [5, 6, 7, 8]
    with pytest.raises(UserError, match=r"第 [12] 场比赛尚未结束"):
        pair_team_round(swiss, GROUP)
    actions = [line.action for line in audit.audit_log(swiss)]
    for action in ("pair_team_round", "hand_in_lineup", "seat_team_round", "enter_board_result"):
        assert action in actions


def test_a_no_show_forfeits_every_board(swiss: Database) -> None:
    pair_team_round(swiss, GROUP, seed=3)
    seat_team_round(swiss, GROUP, 1)
    score = set_team_absent(swiss, GROUP, 1, 2, Side.HOME, reason="未到场")
    assert (score.label, score.home_match_points, score.away_match_points) == ("0:8", 0, 2)
    with pytest.raises(UserError, match="有队未到场"):
        enter_board_result(swiss, GROUP, 1, 2, 1, R)


def test_unpair_only_without_results(swiss: Database) -> None:
    pair_team_round(swiss, GROUP, seed=3)
    seat_team_round(swiss, GROUP, 1)
    enter_board_result(swiss, GROUP, 1, 1, 1, R)
    with pytest.raises(UserError, match="已录入成绩"):
        unpair_team_round(swiss, GROUP, 1)
    enter_board_result(swiss, GROUP, 1, 1, 1, GameResult.PENDING)
    unpair_team_round(swiss, GROUP, 1)
    assert pair_team_round(swiss, GROUP, seed=3).number == 1


def test_individual_pairing_is_refused_for_a_team_group(swiss: Database) -> None:
    from app.services.rounds import pair_next_round

    with pytest.raises(UserError, match="团体赛：请用团体编排"):
        pair_next_round(swiss, GROUP)


def test_a_tied_knockout_match_is_decided_on_board_one(tmp_path: Path) -> None:
    db = create_team_demo(tmp_path / "k.xqt", "team-knockout", teams=4, seed=5)
    pair_team_round(db, GROUP, seed=1)
    seat_team_round(db, GROUP, 1)
    m = team_round_view(db, GROUP, 1).matches[0]
    for board in (1, 2, 3, 4):
        enter_board_result(db, GROUP, 1, 1, board, R)  # Red wins everywhere: 4:4
    m = team_round_view(db, GROUP, 1).matches[0]
    assert not m.score.decided and m.boards[0].due is not None
    due = m.boards[0].due
    assert due.kind.value == "rapid" and due.red == m.boards[0].away.no  # colours swapped from board 1
    with pytest.raises(UserError, match="现在不需要加赛"):
        enter_tie_game(db, GROUP, 1, 1, 2, R)
    score = enter_tie_game(db, GROUP, 1, 1, 1, R)  # the away player, Red, wins the rapid game
    assert (score.label, score.away_match_points, score.home_match_points) == ("4:4", 2, 1)
    with pytest.raises(UserError, match="已有加赛对局"):
        enter_board_result(db, GROUP, 1, 1, 2, B)
    db.close()


def test_snapshot_round_trip_with_team_matches(tmp_path: Path) -> None:
    db = create_team_demo(tmp_path / "s.xqt", "team-knockout", teams=4, seed=5)
    play_team_event_to_end(db, GROUP, seed=2)
    data = export_snapshot(db)
    assert data["team_matches"] and data["lineups"]
    copy = import_snapshot(data, tmp_path / "copy.xqt")
    again = export_snapshot(copy)
    strip = lambda d: {k: v for k, v in d.items() if k != "audit"}  # noqa: E731
    assert strip(again) == strip(data)
    assert team_standings_view(copy, GROUP).ranking.order == team_standings_view(db, GROUP).ranking.order
    db.close()
    copy.close()


def test_snapshot_names_a_board_of_no_match(tmp_path: Path) -> None:
    from app.services.documents import DocumentError

    db = create_team_demo(tmp_path / "s.xqt", "team-round-robin", teams=4, seed=5)
    pair_team_round(db, GROUP, seed=1)
    seat_team_round(db, GROUP, 1)
    data = export_snapshot(db)
    data["rounds"][0]["games"][0]["team_match"] = 9
    with pytest.raises(DocumentError, match=r"rounds\[0\]\.games\[0\]\.team_match"):
        import_snapshot(data, tmp_path / "bad.xqt")
    assert not (tmp_path / "bad.xqt").exists()
    db.close()


def test_close_waits_for_every_match(swiss: Database) -> None:
    pair_team_round(swiss, GROUP, seed=3)
    seat_team_round(swiss, GROUP, 1)
    with pytest.raises(UserError, match="未结束"):
        close_team_round(swiss, GROUP, 1)


@pytest.mark.parametrize(("name", "teams"), [("team-swiss", 5), ("team-double-round-robin", 4)])
def test_simulated_events_break_no_hard_rule(name: str, teams: int) -> None:
    report = simulate_team_format(
        name, teams=teams, rounds=3 if name == "team-swiss" else None, seed=4, absent_rate=0.1
    )
    assert report["hard_rule_breaks"] == 0, report["breaks"]
    assert report["rounds"] == (3 if name == "team-swiss" else 6)
    assert [r["place"] for r in report["final_ranking"]] == list(range(1, teams + 1))
    if name == "team-swiss":
        assert report["byes"] == 3 and report["teams_with_two_byes"] == 0


def test_a_begun_team_event_keeps_its_matches(swiss: Database) -> None:
    import dataclasses

    from app.services.tournaments import load_regulations, update_regulations

    pair_team_round(swiss, GROUP, seed=3)
    reg = load_regulations(swiss)
    event = reg.groups[0].team_event
    assert event is not None

    def with_event(**changes: object):
        group = dataclasses.replace(reg.groups[0], team_event=dataclasses.replace(event, **changes))
        return dataclasses.replace(reg, groups=(group,))

    from app.engine.team_rules import TeamMatchRules, TeamTiebreak

    with pytest.raises(UserError, match="团体赛已开始"):
        update_regulations(swiss, with_event(match=TeamMatchRules(boards=5)))
    update_regulations(swiss, with_event(rounds=4, chain=(TeamTiebreak.GAME_POINTS,)))
    assert load_regulations(swiss).groups[0].team_event.rounds == 4  # type: ignore[union-attr]


def test_a_team_competitions_prizes_are_final_once_its_matches_are(tmp_path: Path) -> None:
    """The prize list of a team competition rests on its team rounds: provisional after the last round
    whose matches are all decided, final after the last (it said 暂列 for ever: the group has no
    individual rounds, whose standings it asked)."""
    from app.services.standings import prize_list

    db = create_team_demo(tmp_path / "ko.xqt", "team-knockout", teams=8, seed=5)
    try:
        before = prize_list(db)
        assert not before.final and before.basis[GROUP].after_round == 0
        assert play_team_event_to_end(db, GROUP, seed=5, last=1) == 1
        half = prize_list(db)
        assert not half.final and half.basis[GROUP].after_round == 1
        assert half.basis[GROUP].zh == "暂列：按第 1 轮后名次"
        play_team_event_to_end(db, GROUP, seed=5)
        done = prize_list(db)
        assert done.final and done.basis[GROUP].zh == "最终名次"
        champion = team_knockout_places(db, GROUP)
        assert champion is not None
        names = {t.no: t.name for t in teams_of(db, GROUP)}
        first = next(no for no, place in champion.items() if place == 1)
        team_lines = [line for line in done.prizes.lines if line.team is not None]
        assert team_lines and team_lines[0].team == names[first]
    finally:
        db.close()


def test_the_prize_list_of_a_finished_team_knockout_orders_teams_by_place(tmp_path: Path) -> None:
    """A finished team knockout's teams are in the order of their places (the team ranking breaks ties
    of place) — the public pages of the finished event list them so."""
    from app.services.standings import prize_list

    db = create_team_demo(tmp_path / "k.xqt", "team-knockout", teams=8, seed=5)
    play_team_event_to_end(db, GROUP, seed=2026)
    from app.engine.knockout import final_places
    from app.engine.team_event import knockout_bracket
    from app.services.team_events import load_team_state
    from app.services.tournaments import group_row, regulations_of

    view = prize_list(db)  # sorting the teams by place read the list being sorted: ValueError
    with db.session() as s:
        state, _ids = load_team_state(s, group_row(s, GROUP), regulations_of(s))
    places = final_places(knockout_bracket(state))
    by_place = sorted((places[t.no], t.name) for t in state.teams if places.get(t.no) in (1, 2))
    lines = [x for x in view.prizes.lines if x.no is None]
    assert [(x.place, x.team) for x in lines[:2]] == by_place
    db.close()


def test_a_league_with_fides_swap_pairs_prints_and_checks_the_swapped_order(tmp_path: Path) -> None:
    """A team double round robin of 4 with the last-two-rounds swap set before round 1: the rounds are
    paired in the swapped order, the 对局秩序表 prints them so and says why, and the hard-rule check of the
    played league is clean."""
    import dataclasses

    from app.engine.team_event import hard_rule_breaks
    from app.services.exports.round_robin import order_of_play
    from app.services.team_events import load_team_state
    from app.services.tournaments import group_row, load_regulations, regulations_of, update_regulations

    db = create_team_demo(tmp_path / "l.xqt", "team-double-round-robin", teams=4, seed=3)
    reg = load_regulations(db)
    groups = tuple(
        dataclasses.replace(g, team_event=dataclasses.replace(g.team_event, swap_last_rounds=True))
        if g.name == GROUP and g.team_event is not None
        else g
        for g in reg.groups
    )
    update_regulations(db, dataclasses.replace(reg, groups=groups), reason="第一循环最后两轮互换")
    doc = order_of_play(db, GROUP)
    assert doc.teams and "最后两轮" in doc.note and "互换" in doc.note
    pairs = [[(a.split()[0], b.split()[0]) for a, b in r.pairs] for r in doc.pools[0].rounds]
    assert pairs[:3] == [[("1", "4"), ("2", "3")], [("2", "4"), ("3", "1")], [("4", "3"), ("1", "2")]]
    play_team_event_to_end(db, GROUP, seed=2)
    with db.session() as s:
        state, _ids = load_team_state(s, group_row(s, GROUP), regulations_of(s))
    assert [[(m.home, m.away) for m in r.matches] for r in state.rounds][1] == [(2, 4), (3, 1)]
    assert len(state.rounds) == 6 and hard_rule_breaks(state) == ()


def test_a_line_up_is_put_back_exactly_and_not_once_the_match_has_a_result(swiss: Database) -> None:
    """restore_lineup (the window's undo of 排阵): the stored line-up before comes back as it was — the
    regulation's default made when the boards were set included — the boards follow it, and it is
    refused once a board has a result."""
    from datetime import datetime

    from app.services.team_events import lineup_record, restore_lineup

    pair_team_round(swiss, GROUP, seed=3)
    first = team_round_view(swiss, GROUP, 1).matches[0]
    home = next(t for t in teams_of(swiss, GROUP) if t.name == first.home)
    team = home.name
    seat_team_round(swiss, GROUP, 1)  # no line-up handed in: the registered order, recorded as such
    default = lineup_record(swiss, GROUP, 1, team)
    assert default is not None and default.method == "registered"
    at = datetime(2024, 7, 26, 13, 0)
    chosen = [home.roster[0].no, home.roster[1].no, home.roster[3].no, home.roster[4].no]
    hand_in_lineup(swiss, GROUP, 1, team, chosen, handed_in_by="王队长", now=at)
    handed = lineup_record(swiss, GROUP, 1, team)
    assert handed is not None and (handed.method, handed.handed_in_by, handed.handed_in_at) == (
        "captain",
        "王队长",
        at,
    )
    assert [b.home.no for b in team_round_view(swiss, GROUP, 1).matches[0].boards] == chosen
    restore_lineup(swiss, GROUP, 1, team, default)
    assert lineup_record(swiss, GROUP, 1, team) == default
    assert [b.home.no for b in team_round_view(swiss, GROUP, 1).matches[0].boards] == [
        p.no for p in home.roster[:4]
    ]
    entry = audit.audit_log(swiss, action="restore_lineup")[-1]
    assert str(chosen[3]) in entry.before and '"method": "registered"' in entry.after
    restore_lineup(swiss, GROUP, 1, team, handed)
    assert lineup_record(swiss, GROUP, 1, team) == handed
    enter_board_result(swiss, GROUP, 1, first.number, 1, R)
    with pytest.raises(UserError, match="已有成绩，排阵不能再改"):
        restore_lineup(swiss, GROUP, 1, team, default)
    assert lineup_record(swiss, GROUP, 1, team) == handed


def test_simulate_backs_up_nothing_of_its_scratch_team_event_and_reports_as_a_kept_file(
    tmp_path: Path, backups_made: list[str]
) -> None:
    """As for an individual format: the thrown-away scratch file makes no automatic backups, and the
    report is that of the same competition played in a kept file (which is backed up)."""
    from app.services.team_demo import team_format_report

    made = backups_made
    report = simulate_team_format("team-swiss", teams=4, rounds=2, seed=4, absent_rate=0.1)
    assert made == []
    db = create_team_demo(tmp_path / "kept.xqt", "team-swiss", teams=4, rounds=2, seed=4)
    try:
        play_team_event_to_end(db, GROUP, seed=4, absent_rate=0.1)
        assert team_format_report(db, "team-swiss", 4) == report
    finally:
        db.close()
    assert f"paired-{GROUP}-r1" in made and f"closed-{GROUP}-r2" in made


def test_entering_a_board_result_reads_the_match_once_and_no_player_rows(swiss: Database) -> None:
    """A board result is the team loop's commonest action: the match's games are read once (the score
    read back uses them), and the numbers of the players and teams are read as columns, not rows."""
    from sqlalchemy import Engine, event

    pair_team_round(swiss, GROUP, seed=3)
    seat_team_round(swiss, GROUP, 1)
    sent: list[str] = []

    def note(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
        sent.append(" ".join(statement.split()))

    event.listen(Engine, "before_cursor_execute", note)
    try:
        score = enter_board_result(swiss, GROUP, 1, 1, 1, GameResult.RED_WIN)
    finally:
        event.remove(Engine, "before_cursor_execute", note)
    assert score.label == "2:0"
    games = [q for q in sent if q.startswith("SELECT") and "FROM games" in q]
    assert len(games) == 1, games
    assert not [q for q in sent if q.startswith("SELECT players.id, players.group_id")]
