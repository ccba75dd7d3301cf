"""Team formats worked by hand: team Swiss (round 1 by halves or adjacent numbers, later rounds on 场分 then
局分), team round robin single and double walked to the end, team knockout with the higher seed at home,
全队轮赛制; team standings with their tiebreaks and the board prizes; property tests of the hard rules."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

import app.engine.team_event as team_event_module
import app.engine.team_formats as team_formats_module
import app.engine.team_simulation as team_simulation_module
import app.engine.team_standings as team_standings_module
from app.engine.knockout import final_places
from app.engine.team_event import (
    MatchState,
    RoundState,
    TeamEntry,
    TeamEventState,
    board_prize_table,
    hard_rule_breaks,
    knockout_bracket,
    next_round,
    seat,
    team_ranking,
)
from app.engine.team_formats import PlayedMatch, all_play_all_round, all_play_all_schedule, pair_team_swiss
from app.engine.team_match import RosterPlayer, TeamMatch, board_colours
from app.engine.team_rules import (
    FirstRound,
    PlacementRule,
    TeamEvent,
    TeamMatchRules,
    TeamSystem,
    TeamTiebreak,
    TieRule,
)
from app.engine.team_simulation import simulate_team_event
from app.engine.team_standings import ByeRecord, MatchRecord, rank_team_event
from app.engine.types import GameResult
from tests.doctests import run_doctests


def test_doctests() -> None:
    for module in (team_formats_module, team_event_module, team_standings_module, team_simulation_module):
        assert run_doctests(module).failed == 0


def teams(n: int, boards: int = 4) -> tuple[TeamEntry, ...]:
    return tuple(
        TeamEntry(t, f"{t}队", tuple(RosterPlayer(10 * t + i, i) for i in range(1, boards + 1)), seed_rank=t)
        for t in range(1, n + 1)
    )


# --------------------------------------------------------------------------- team Swiss


def test_round_one_by_halves() -> None:
    r = pair_team_swiss(range(1, 7), (), {}, 1, TeamEvent(), seed=5)
    assert [frozenset((m.home, m.away)) for m in r.matches] == [{1, 4}, {2, 5}, {3, 6}]
    homes = [m.home in (1, 2, 3) for m in r.matches]
    assert homes in ([True, False, True], [False, True, False])  # board 1's home by lot, then alternating
    assert r.bye is None


def test_round_one_by_adjacent_numbers() -> None:
    r = pair_team_swiss(range(1, 8), (), {}, 1, TeamEvent(first_round=FirstRound.ADJACENT), seed=5)
    assert [(m.home, m.away) for m in r.matches] == [(1, 2), (4, 3), (5, 6)]
    assert r.bye == 7


def test_later_round_pairs_by_match_points_then_game_points() -> None:
    # round 1 (8 teams, by halves): 5 beat 1 6:2, 2 beat 6 5:3, 7 beat 3 7:1, 4 beat 8 5:3
    history = (
        PlayedMatch(1, 1, 5, 0, 2, 2, 6),
        PlayedMatch(1, 6, 2, 0, 2, 3, 5),
        PlayedMatch(1, 3, 7, 0, 2, 1, 7),
        PlayedMatch(1, 8, 4, 0, 2, 3, 5),
    )
    r = pair_team_swiss(range(1, 9), history, {}, 2, TeamEvent(), seed=1)
    # 场分 2: by 局分 7 (7), 5 (6), 2 (5), 4 (5, number after 2): 7 v 2, 5 v 4 — by numbers alone it
    # would be 2 v 5 and 4 v 7. 场分 0: 6 (3), 8 (3), 1 (2), 3 (1): 6 v 1, 8 v 3.
    assert [frozenset((m.home, m.away)) for m in r.matches] == [{7, 2}, {5, 4}, {6, 1}, {8, 3}]
    # home/away: whoever was away in round 1 is due home (7, 2 were both away: the higher-ranked, 7, gets it)
    homes = {m.home for m in r.matches}
    assert {5, 4} & homes and 7 in homes


def test_team_swiss_walked_to_the_end() -> None:
    """Six teams, five rounds; the lower team number wins every board: the hard rules hold and the
    standings follow the results."""
    event = TeamEvent(TeamSystem.SWISS, rounds=5)
    state = TeamEventState(event, teams(6))
    while len(state.rounds) < state.total_rounds:
        pairing = next_round(state, seed=11)
        matches = []
        for i, p in enumerate(pairing.matches, 1):
            m = seat(state, len(state.rounds) + 1, p.home, p.away, {})
            m = _lower_number_wins(m, p.home, p.away, event.match)
            matches.append(MatchState(i, p.home, p.away, m))
        state = replace(
            state, rounds=(*state.rounds, RoundState(len(state.rounds) + 1, tuple(matches), pairing.bye))
        )
    assert hard_rule_breaks(state) == ()
    met = {frozenset((m.home, m.away)) for r in state.rounds for m in r.matches}
    assert len(met) == 15  # five rounds of three matches: every pair of six teams once
    ranking = team_ranking(state)
    assert ranking.order == (1, 2, 3, 4, 5, 6)
    assert [row.match_points for row in ranking.rows] == [10, 8, 6, 4, 2, 0]
    assert [row.game_points for row in ranking.rows] == [40, 32, 24, 16, 8, 0]


def _lower_number_wins(m: TeamMatch, home: int, away: int, rules: TeamMatchRules) -> TeamMatch:
    boards = []
    for b in m.boards:
        red, _ = board_colours(b, rules)
        home_wins = home < away
        red_is_home = red == b.home
        boards.append(
            replace(b, result=GameResult.RED_WIN if home_wins == red_is_home else GameResult.BLACK_WIN)
        )
    return replace(m, boards=tuple(boards))


# --------------------------------------------------------------------------- team round robin


def test_double_round_robin_walked_to_the_end() -> None:
    """The league: 4 teams, 6 rounds from the Berger table; the second cycle swaps home and away. Team 1
    wins every match, 2 beats 3 and 4, 3 and 4 draw both times (4:4, Red winning every board)."""
    event = TeamEvent(TeamSystem.ROUND_ROBIN, cycles=2)
    state = TeamEventState(event, teams(4))
    order = []
    while len(state.rounds) < state.total_rounds:
        pairing = next_round(state, seed=0)
        order.append([(m.home, m.away) for m in pairing.matches])
        matches = []
        for i, p in enumerate(pairing.matches, 1):
            m = seat(state, len(state.rounds) + 1, p.home, p.away, {})
            if {p.home, p.away} == {3, 4}:
                m = replace(m, boards=tuple(replace(b, result=GameResult.RED_WIN) for b in m.boards))
            else:
                m = _lower_number_wins(m, p.home, p.away, event.match)
            matches.append(MatchState(i, p.home, p.away, m))
        state = replace(state, rounds=(*state.rounds, RoundState(len(state.rounds) + 1, tuple(matches))))
    # the rulebook's table for 4: round 1 1-4 2-3, round 2 4-3 1-2, round 3 2-4 3-1; then swapped
    assert order == [
        [(1, 4), (2, 3)],
        [(4, 3), (1, 2)],
        [(2, 4), (3, 1)],
        [(4, 1), (3, 2)],
        [(3, 4), (2, 1)],
        [(4, 2), (1, 3)],
    ]
    assert hard_rule_breaks(state) == ()
    ranking = team_ranking(state)
    assert [(r.team, r.match_points, r.game_points, r.won, r.drawn, r.lost) for r in ranking.rows] == [
        (1, 12, 48, 6, 0, 0),
        (2, 8, 32, 4, 0, 2),
        (3, 2, 8, 0, 2, 4),
        (4, 2, 8, 0, 2, 4),
    ]
    # 3 and 4 are level on everything the chain has (the play-off has not been played): team number
    assert ranking.rows[2].by_number and ranking.playoff_needed == ((3, 4),)


def test_round_robin_break_is_reported() -> None:
    event = TeamEvent(TeamSystem.ROUND_ROBIN)
    state = TeamEventState(event, teams(3))
    rounds = []
    for number in (1, 2, 3):
        m = seat(state, number, 1, 2, {})  # 1 v 2 three times: a broken table
        rounds.append(RoundState(number, (MatchState(1, 1, 2, m),)))
    assert "1 号队与 2 号队相遇 3 次，应为 1 次" in hard_rule_breaks(replace(state, rounds=tuple(rounds)))


# --------------------------------------------------------------------------- team knockout


def test_team_knockout_higher_seed_at_home() -> None:
    event = TeamEvent(
        TeamSystem.KNOCKOUT, match=TeamMatchRules(tie=TieRule.BOARD_LADDER), placement=PlacementRule.STANDING
    )
    state = TeamEventState(event, teams(6))
    first = next_round(state, seed=1)
    # six teams in a bracket of eight: seeds 1 and 2 have byes; 3 v 6 and 4 v 5, the higher seed at home
    assert [(m.home, m.away, m.code) for m in first.matches] == [(3, 6, "QF3"), (4, 5, "QF4")]
    played = []
    for i, p in enumerate(first.matches, 1):
        m = seat(state, 1, p.home, p.away, {})
        # 4 v 5: the away team (5) wins; 3 v 6: the home team wins
        winner = p.away if p.home == 4 else p.home
        m = _winner(m, p.home, winner, event.match)
        played.append(MatchState(i, p.home, p.away, m, p.code))
    state = replace(state, rounds=(RoundState(1, tuple(played)),))
    second = next_round(state, seed=1)
    assert [(m.home, m.away) for m in second.matches] == [(1, 5), (2, 3)]
    for number in (2, 3):
        pairing = next_round(state, seed=1) if number == 3 else second
        played = [
            MatchState(
                i,
                p.home,
                p.away,
                _winner(seat(state, number, p.home, p.away, {}), p.home, p.home, event.match),
                p.code,
            )
            for i, p in enumerate(pairing.matches, 1)
        ]
        state = replace(state, rounds=(*state.rounds, RoundState(number, tuple(played))))
    assert knockout_bracket(state).is_complete
    places = final_places(knockout_bracket(state))
    assert places[1] == 1 and places[2] == 2
    assert team_ranking(state).order[:4] == (1, 2, 3, 5)  # 3rd-place match 3 v 5: the home team (3) won


def _winner(m: TeamMatch, home: int, winner: int, rules: TeamMatchRules) -> TeamMatch:
    boards = []
    for b in m.boards:
        red, _ = board_colours(b, rules)
        home_wins = winner == home
        boards.append(
            replace(b, result=GameResult.RED_WIN if home_wins == (red == b.home) else GameResult.BLACK_WIN)
        )
    return replace(m, boards=tuple(boards))


# --------------------------------------------------------------------------- 全队轮赛制


def test_all_play_all_every_player_meets_every_player() -> None:
    a, b = (11, 12, 13, 14), (21, 22, 23, 24)
    met = set()
    reds = {p: 0 for p in a + b}
    for r in (1, 2, 3, 4):
        for home, away, home_red in all_play_all_round(a, b, r):
            met.add((home, away))
            reds[home if home_red else away] += 1
    assert len(met) == 16
    assert set(reds.values()) == {2}  # two Reds and two Blacks each
    # for 4 a side the colours alternate by board: side A at home in round 1 (Red on boards 1 and 3)
    assert all_play_all_schedule(4)[0] == (0, (True, False, True, False))


@given(st.integers(min_value=1, max_value=10))
def test_all_play_all_colours_balance(n: int) -> None:
    a, b = tuple(range(100, 100 + n)), tuple(range(200, 200 + n))
    colours: dict[int, list[bool]] = {p: [] for p in a + b}
    pairs = set()
    for r in range(1, n + 1):
        for pa, pb, red in all_play_all_round(a, b, r):
            pairs.add((pa, pb))
            colours[pa].append(red)
            colours[pb].append(not red)
    assert len(pairs) == n * n
    for seq in colours.values():
        assert abs(sum(1 if c else -1 for c in seq)) <= n % 2
        assert not any(seq[i] == seq[i + 1] == seq[i + 2] for i in range(len(seq) - 2))


# --------------------------------------------------------------------------- standings


def test_head_to_head_then_opponents_then_board_order() -> None:
    # teams 1, 2, 3 each beat one of the others 5:3 and team 4 7:1: 4 场分 and 15 局分 each
    records = [
        MatchRecord(1, 1, 2, 2, 0, 5, 3, boards=((2, 0), (1, 1), (1, 1), (1, 1)), winner=1),
        MatchRecord(2, 2, 3, 2, 0, 5, 3, boards=((1, 1), (2, 0), (1, 1), (1, 1)), winner=2),
        MatchRecord(3, 3, 1, 2, 0, 5, 3, boards=((0, 2), (2, 0), (2, 0), (1, 1)), winner=3),
        MatchRecord(1, 3, 4, 2, 0, 7, 1, boards=((2, 0), (2, 0), (2, 0), (1, 1)), winner=3),
        MatchRecord(2, 1, 4, 2, 0, 7, 1, boards=((2, 0), (2, 0), (1, 1), (2, 0)), winner=1),
        MatchRecord(3, 4, 2, 0, 2, 1, 7, boards=((0, 2), (0, 2), (1, 1), (0, 2)), winner=2),
    ]
    # 直胜 among the three: 2 场分 each; 对手场分: 4 + 4 + 0 = 8 each; 台次分 (board 1, 2, 3, 4):
    # team 1 = 2+2+2 / 1+2+0 / 1+1+0 / 1+2+1 = 6/3/2/4, team 2 = 0+1+2 / 1+2+2 … = 3/5/3/4,
    # team 3 = 1+0+2 / 0+2+2 … = 3/4/5/3: board 1 puts 1 first, board 2 puts 2 above 3
    ranking = rank_team_event([1, 2, 3, 4], records)
    assert [(r.team, r.match_points, r.game_points) for r in ranking.rows] == [
        (1, 4, 15),
        (2, 4, 15),
        (3, 4, 15),
        (4, 0, 3),
    ]
    assert [r.separated_by for r in ranking.rows[:2]] == [TeamTiebreak.BOARD_ORDER, TeamTiebreak.BOARD_ORDER]
    assert dict(ranking.rows[0].values)[TeamTiebreak.BOARD_ORDER] == "6/3/2/4"
    assert dict(ranking.rows[2].values)[TeamTiebreak.HEAD_TO_HEAD] == "2"
    assert ranking.rows[2].by_match_points


def test_playoff_order_entered_by_the_arbiter() -> None:
    records = [MatchRecord(1, 1, 2, 1, 1, 4, 4, boards=((1, 1),) * 4)]
    chain = (TeamTiebreak.GAME_POINTS, TeamTiebreak.PLAYOFF)
    tied = rank_team_event([1, 2], records, chain=chain)
    assert tied.order == (1, 2) and tied.playoff_needed == ((1, 2),) and tied.rows[0].by_number
    decided = rank_team_event([1, 2], records, chain=chain, playoff={2: 1, 1: 2})
    assert decided.order == (2, 1) and decided.rows[0].separated_by is TeamTiebreak.PLAYOFF


def test_violations_fewer_first_and_byes() -> None:
    records = [MatchRecord(1, 1, 2, 1, 1, 4, 4)]
    byes = [ByeRecord(1, 3, 2, 8)]
    r = rank_team_event(
        [1, 2, 3], records, byes, chain=(TeamTiebreak.GAME_POINTS, TeamTiebreak.VIOLATIONS), violations={1: 2}
    )
    assert r.order == (3, 2, 1)
    assert r.rows[1].separated_by is TeamTiebreak.VIOLATIONS


def test_board_prizes_of_a_walked_event() -> None:
    state = simulate_team_event(TeamEvent(TeamSystem.ROUND_ROBIN), teams=5, seed=2)
    rows = board_prize_table(state)
    assert {r.board for r in rows} == {1, 2, 3, 4}
    for board in (1, 2, 3, 4):
        mine = [r for r in rows if r.board == board]
        assert [r.rank for r in mine] == list(range(1, len(mine) + 1))
        eligible = [r for r in mine if r.eligible]
        assert all(r.games >= 2 for r in eligible)  # four rounds played: at least two games
        shares = [r.percentage for r in eligible]
        assert shares == sorted(shares, reverse=True)


# --------------------------------------------------------------------------- property tests


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=2, max_value=14),
    st.integers(min_value=1, max_value=7),
    st.integers(min_value=0, max_value=10_000),
    st.sampled_from([TieRule.DRAW, TieRule.BOARD_LADDER, TieRule.EVERY_BOARD]),
    st.integers(min_value=2, max_value=6),
)
def test_team_swiss_never_breaks_a_hard_rule(
    teams_n: int, rounds: int, seed: int, tie: TieRule, boards: int
) -> None:
    rounds = min(rounds, max(1, (teams_n + 1) // 2))  # a Swiss of about half as many rounds as teams
    event = TeamEvent(TeamSystem.SWISS, rounds=max(1, rounds), match=TeamMatchRules(boards=boards, tie=tie))
    state = simulate_team_event(event, teams_n, seed, absent_rate=0.05, forfeit_rate=0.05)
    assert hard_rule_breaks(state) == ()
    for r in state.rounds:
        seated = sorted([t for m in r.matches for t in (m.home, m.away)] + ([r.bye] if r.bye else []))
        assert seated == list(range(1, teams_n + 1))  # every team plays or has the bye, once
    ranking = team_ranking(state)
    assert sorted(ranking.order) == list(range(1, teams_n + 1))


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2, max_value=10), st.integers(min_value=1, max_value=2), st.integers(0, 10_000))
def test_team_round_robin_never_breaks_a_hard_rule(teams_n: int, cycles: int, seed: int) -> None:
    state = simulate_team_event(
        TeamEvent(TeamSystem.ROUND_ROBIN, cycles=cycles), teams_n, seed, absent_rate=0.05
    )
    assert hard_rule_breaks(state) == ()


@settings(max_examples=25, deadline=None)
@given(
    st.integers(min_value=2, max_value=20),
    st.integers(0, 10_000),
    st.sampled_from([TieRule.BOARD_LADDER, TieRule.EVERY_BOARD]),
    st.sampled_from(list(PlacementRule)),
)
def test_team_knockout_always_finishes(
    teams_n: int, seed: int, tie: TieRule, placement: PlacementRule
) -> None:
    event = TeamEvent(TeamSystem.KNOCKOUT, match=TeamMatchRules(tie=tie), placement=placement)
    state = simulate_team_event(event, teams_n, seed, absent_rate=0.03)
    assert hard_rule_breaks(state) == ()
    assert knockout_bracket(state).is_complete
    assert sorted(team_ranking(state).order) == list(range(1, teams_n + 1))


def test_forfeited_boards_are_no_games_for_board_prizes() -> None:
    from app.engine.team_event import board_games

    event = TeamEvent(TeamSystem.ROUND_ROBIN)
    state = TeamEventState(event, teams(4))
    m1 = _lower_number_wins(seat(state, 1, 1, 4, {}), 1, 4, event.match)
    m1 = replace(m1, boards=(replace(m1.boards[0], away=None), *m1.boards[1:]))  # board 1: an empty seat
    m2 = replace(seat(state, 1, 2, 3, {}), away_absent=True)  # team 3 did not appear
    state = replace(state, rounds=(RoundState(1, (MatchState(1, 1, 4, m1), MatchState(2, 2, 3, m2))),))
    games = board_games(state)
    assert sorted((g.board, g.player) for g in games) == [
        (2, 12),
        (2, 42),
        (3, 13),
        (3, 43),
        (4, 14),
        (4, 44),
    ]


# --------------------------------------------------------------------------- FIDE's last-two-rounds swap


def _sides(state: TeamEventState) -> dict[int, str]:
    """Each team's matches in order: H at home, A away."""
    out: dict[int, str] = {}
    for r in state.rounds:
        for m in r.matches:
            out[m.home] = out.get(m.home, "") + "H"
            out[m.away] = out.get(m.away, "") + "A"
    return out


def test_the_league_with_fides_swap_plays_the_first_cycles_last_rounds_the_other_way() -> None:
    """4 teams, double: the rulebook's order gives team 1 H H A | A A H (three away in rounds 3–5) and team 3
    A A H | H H A. With the swap the first cycle is played 1, 3, 2: team 1 H A H | A A H, team 3 A H A |
    H H A; the second cycle is the plain table with home and away swapped."""
    plain = simulate_team_event(TeamEvent(TeamSystem.ROUND_ROBIN, cycles=2), 4, seed=1)
    assert _sides(plain)[1] == "HHAAAH" and _sides(plain)[3] == "AAHHHA"
    event = TeamEvent(TeamSystem.ROUND_ROBIN, cycles=2, swap_last_rounds=True)
    state = simulate_team_event(event, 4, seed=1)
    assert [[(m.home, m.away) for m in r.matches] for r in state.rounds] == [
        [(1, 4), (2, 3)],
        [(2, 4), (3, 1)],
        [(4, 3), (1, 2)],
        [(4, 1), (3, 2)],
        [(3, 4), (2, 1)],
        [(4, 2), (1, 3)],
    ]
    assert _sides(state) == {1: "HAHAAH", 2: "HHAAHA", 3: "AHAHHA", 4: "AAHHAH"}
    assert hard_rule_breaks(state) == ()
    assert "第一循环最后两轮互换" in event.describe_zh()
    # the plain order played where the swap is set breaks the order of play, and three away running
    wrong = replace(plain, event=event)
    breaks = hard_rule_breaks(wrong)
    assert "第2轮的对阵或主客与团体循环赛对局秩序表不符" in breaks
    assert "1 号队连续三场客场（第一循环最后两轮已互换）" in breaks


def test_the_swap_is_for_a_team_double_round_robin_only() -> None:
    from app.engine.team_rules import validate_team_event
    from app.engine.types import UserError

    def bad(zh: str, en: str) -> UserError:
        return UserError(zh, en)

    for event in (
        TeamEvent(TeamSystem.ROUND_ROBIN, cycles=1, swap_last_rounds=True),
        TeamEvent(TeamSystem.SWISS, swap_last_rounds=True),
    ):
        try:
            validate_team_event(event, bad)
        except UserError as exc:
            assert "只用于团体双循环" in exc.zh
        else:
            raise AssertionError("the swap was accepted for " + event.describe_zh())
    validate_team_event(TeamEvent(TeamSystem.ROUND_ROBIN, cycles=2, swap_last_rounds=True), bad)


@settings(max_examples=30, deadline=None)
@given(st.integers(min_value=3, max_value=24), st.integers(0, 10_000))
def test_a_league_with_the_swap_never_breaks_a_hard_rule(teams_n: int, seed: int) -> None:
    event = TeamEvent(TeamSystem.ROUND_ROBIN, cycles=2, swap_last_rounds=True)
    state = simulate_team_event(event, teams_n, seed, absent_rate=0.05)
    assert hard_rule_breaks(state) == ()
    for team, sides in _sides(state).items():
        assert "HHH" not in sides and "AAA" not in sides, (teams_n, team, sides)
