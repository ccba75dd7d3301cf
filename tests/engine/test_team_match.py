"""Team matches worked by hand: colours by board, 局分 and 场分, ties decided by board ladders, forfeits,
line-ups (registered order, reserves, a player for two teams)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import app.engine.team_match as team_match_module
import app.engine.team_rules as team_rules_module
from app.engine.formats import GameKind
from app.engine.knockout import ColourState, KnockoutGame
from app.engine.team_match import (
    RosterPlayer,
    Side,
    TeamBoard,
    TeamMatch,
    board_colours,
    check_lineup,
    colour_limit_breaks,
    default_lineup,
    due_tie_games,
    game_result_of,
    score_match,
)
from app.engine.team_rules import GamePoints, LineupOrder, MatchPoints, MissingLineup, TeamMatchRules, TieRule
from app.engine.types import Colour, GameResult, UserError
from tests.doctests import run_doctests

R, B, D = GameResult.RED_WIN, GameResult.BLACK_WIN, GameResult.DRAW
HOME = (11, 12, 13, 14)  # the home team's players on boards 1-4
AWAY = (21, 22, 23, 24)


def match(*results: GameResult, **kw: object) -> TeamMatch:
    boards = tuple(
        TeamBoard(b, h, a, r) for b, (h, a, r) in enumerate(zip(HOME, AWAY, results, strict=True), 1)
    )
    return TeamMatch(boards, **kw)  # type: ignore[arg-type]


def test_doctests() -> None:
    assert run_doctests(team_match_module).failed == 0
    assert run_doctests(team_rules_module).failed == 0


def test_home_team_red_on_boards_one_and_three() -> None:
    m = match(R, R, R, R)
    assert [board_colours(b, TeamMatchRules()) for b in m.boards] == [(11, 21), (22, 12), (13, 23), (24, 14)]
    flipped = TeamMatchRules(home_red_on_odd=False)
    assert [board_colours(b, flipped) for b in m.boards] == [(21, 11), (12, 22), (23, 13), (14, 24)]


def test_red_wins_on_every_board_split_two_all() -> None:
    # Red wins everywhere: home wins boards 1 and 3 (Red there), away wins 2 and 4 → 4:4, a draw (1:1).
    s = score_match(match(R, R, R, R), TeamMatchRules())
    assert (s.home_points, s.away_points, s.home_match_points, s.away_match_points, s.winner) == (
        4,
        4,
        1,
        1,
        None,
    )
    assert s.board_points == ((2, 0), (0, 2), (2, 0), (0, 2))
    assert s.reason_zh == "局分 4:4，平局"


def test_away_team_wins_on_game_points() -> None:
    # board 1 draw 1:1, board 2 Red (away) wins 0:2, board 3 Black (away) wins 0:2, board 4 Black (home) wins 2:0
    s = score_match(match(D, R, B, B), TeamMatchRules())
    assert (s.label, s.home_match_points, s.away_match_points, s.winner) == ("3:5", 0, 2, Side.AWAY)


def test_other_scoring_of_a_stage() -> None:
    rules = TeamMatchRules(
        game_points=GamePoints(win=3, draw=1, loss=0), match_points=MatchPoints(win=3, draw=1)
    )
    s = score_match(match(R, D, D, D), rules)  # 3+1+1+1 = 6 : 0+1+1+1 = 3
    assert (s.label, s.home_match_points, s.away_match_points) == ("6:3", 3, 0)


def test_pending_board_leaves_the_match_open() -> None:
    s = score_match(match(R, GameResult.PENDING, D, D), TeamMatchRules())
    assert not s.decided and s.home_match_points is None and s.board_points[1] is None
    assert s.label == "4:2"  # the boards in so far


def test_board_ladder_decides_a_tied_match() -> None:
    rules = TeamMatchRules(tie=TieRule.BOARD_LADDER, tie_board=1)
    tied = match(R, R, R, R)  # 4:4
    due = due_tie_games(tied, rules)
    assert len(due) == 1
    first = due[0]
    # board 1: home (11) was Red in the board's game; the first tie-break game swaps: 21 Red
    assert (first.board, first.number, first.kind, first.red, first.black) == (1, 1, GameKind.RAPID, 21, 11)
    assert first.time_control.label == "10′+5″"
    s = score_match(tied, rules)
    assert not s.decided and s.tie_board == 1
    # rapid drawn → 超快棋 with colours swapped back (11 Red) → 11 wins: the home team wins the match
    b1 = replace(
        tied.boards[0],
        tie_games=(KnockoutGame(1, GameKind.RAPID, 21, 11, D), KnockoutGame(2, GameKind.BLITZ, 11, 21, R)),
    )
    done = replace(tied, boards=(b1, *tied.boards[1:]))
    s = score_match(done, rules)
    assert (s.label, s.home_match_points, s.away_match_points, s.winner, s.tie_board) == (
        "4:4",
        2,
        1,
        Side.HOME,
        1,
    )
    assert "第 1 台加赛主队胜" in s.reason_zh
    assert due_tie_games(done, rules) == ()


def test_deciding_game_drawn_goes_to_black() -> None:
    rules = TeamMatchRules(tie=TieRule.BOARD_LADDER, tie_board=2)
    tied = match(R, R, R, R)
    b2 = tied.boards[1]  # board 2: away (22) Red, home (12) Black
    games = (
        KnockoutGame(1, GameKind.RAPID, 12, 22, D),  # swapped: 12 Red
        KnockoutGame(2, GameKind.BLITZ, 22, 12, D),
        KnockoutGame(3, GameKind.DECIDING, 12, 22, D),  # drawn: Black (22, away) goes through
    )
    done = replace(tied, boards=(tied.boards[0], replace(b2, tie_games=games), *tied.boards[2:]))
    s = score_match(done, rules)
    assert (s.winner, s.away_match_points, s.home_match_points) == (Side.AWAY, 2, 1)


def test_tie_board_with_a_forfeit_moves_to_the_next_played_board() -> None:
    rules = TeamMatchRules(tie=TieRule.BOARD_LADDER, tie_board=1)
    # board 1: the away seat is empty (home wins by forfeit 2:0); board 2 Red (away) wins; 3, 4 drawn → 4:4
    m = match(GameResult.PENDING, R, D, D)
    m = replace(m, boards=(replace(m.boards[0], away=None), *m.boards[1:]))
    assert game_result_of(m.boards[0], rules) is GameResult.BLACK_FORFEIT
    due = due_tie_games(m, rules)
    assert [d.board for d in due] == [2]


def test_every_board_must_be_decided() -> None:
    rules = TeamMatchRules(tie=TieRule.EVERY_BOARD)
    # board 1 home wins (2:0), board 2 drawn, board 3 away wins (Black, 0:2), board 4 drawn
    m = match(R, D, B, D)
    assert [d.board for d in due_tie_games(m, rules)] == [2, 4]
    assert not score_match(m, rules).decided
    b2 = replace(m.boards[1], tie_games=(KnockoutGame(1, GameKind.RAPID, 12, 22, R),))  # home (12) wins rapid
    b4 = replace(m.boards[3], tie_games=(KnockoutGame(1, GameKind.RAPID, 14, 24, B),))  # away (24) wins rapid
    s = score_match(replace(m, boards=(m.boards[0], b2, m.boards[2], b4)), rules)
    # a tie-break win scores 2, a tie-break loss 1: home 2 + 2 + 0 + 1 = 5, away 0 + 1 + 2 + 2 = 5: level,
    # so the top board that differs decides: board 1, won by the home team
    assert s.board_points == ((2, 0), (2, 1), (0, 2), (1, 2))
    assert (s.label, s.winner, s.home_match_points, s.away_match_points) == ("5:5", Side.HOME, 2, 1)
    b4_home = replace(m.boards[3], tie_games=(KnockoutGame(1, GameKind.RAPID, 14, 24, R),))
    s = score_match(replace(m, boards=(m.boards[0], b2, m.boards[2], b4_home)), rules)
    assert (s.label, s.winner, s.home_match_points) == ("6:4", Side.HOME, 2)


def test_team_that_does_not_appear() -> None:
    s = score_match(match(*[GameResult.PENDING] * 4, home_absent=True), TeamMatchRules())
    assert (s.label, s.home_match_points, s.away_match_points, s.winner) == ("0:8", 0, 2, Side.AWAY)
    both = score_match(match(*[GameResult.PENDING] * 4, home_absent=True, away_absent=True), TeamMatchRules())
    assert (both.label, both.winner, both.home_match_points, both.away_match_points) == ("0:0", None, 0, 0)
    harsh = TeamMatchRules(match_points=MatchPoints(forfeit_loss=-1))
    assert score_match(match(*[GameResult.PENDING] * 4, away_absent=True), harsh).away_match_points == -1


def test_empty_seats_forfeit_their_boards() -> None:
    m = match(R, GameResult.PENDING, GameResult.PENDING, D)
    m = replace(
        m,
        boards=(
            m.boards[0],
            replace(m.boards[1], home=None),
            replace(m.boards[2], home=None, away=None),
            m.boards[3],
        ),
    )
    s = score_match(m, TeamMatchRules())
    # board 2: the home seat empty → away wins by forfeit (2); board 3 both empty → 0:0
    assert s.board_points == ((2, 0), (0, 2), (0, 0), (1, 1))
    assert (s.label, s.winner) == ("3:3", None)


def test_wrong_number_of_boards_is_refused() -> None:
    with pytest.raises(UserError, match="第 1–4 台"):
        score_match(TeamMatch(match(R, R, R, R).boards[:3]), TeamMatchRules())


# --------------------------------------------------------------------------- line-ups

ROSTER = (
    RosterPlayer(11, 1),
    RosterPlayer(12, 2),
    RosterPlayer(13, 3),
    RosterPlayer(14, 4),
    RosterPlayer(15, 5, reserve=True),
    RosterPlayer(16, 6, reserve=True),
)
TEAM_OF = {21: "乙队", 22: "乙队"}


def test_lineup_in_registered_order_with_a_reserve() -> None:
    check_lineup("甲队", (11, 12, 14, 15), ROSTER, TeamMatchRules(), TEAM_OF)  # 13 rests, reserve 15 plays
    with pytest.raises(UserError, match="须按报名顺序排阵：第 2 台的 11 号"):
        check_lineup("甲队", (12, 11, 13, 14), ROSTER, TeamMatchRules())
    check_lineup("甲队", (12, 11, 13, 14), ROSTER, TeamMatchRules(lineup_order=LineupOrder.FREE))


def test_lineup_refusals_name_the_problem() -> None:
    rules = TeamMatchRules()
    with pytest.raises(UserError, match="应有 4 台，现为 3 台"):
        check_lineup("甲队", (11, 12, 13), ROSTER, rules)
    with pytest.raises(UserError, match="21 号已为乙队报名，一名棋手不能为两个队上场"):
        check_lineup("甲队", (11, 12, 13, 21), ROSTER, rules, TEAM_OF)
    with pytest.raises(UserError, match="99 号不是本队报名的队员"):
        check_lineup("甲队", (11, 12, 13, 99), ROSTER, rules, TEAM_OF)
    with pytest.raises(UserError, match="12 号出现了两次"):
        check_lineup("甲队", (11, 12, 12, 13), ROSTER, rules)
    withdrawn = (*ROSTER[:1], replace(ROSTER[1], available=False), *ROSTER[2:])
    with pytest.raises(UserError, match="12 号已退赛"):
        check_lineup("甲队", (11, 12, 13, 14), withdrawn, rules)
    check_lineup("甲队", (11, None, 13, 14), ROSTER, rules)  # an empty board is allowed (forfeited)


def test_missing_lineup_takes_the_registered_order() -> None:
    rules = TeamMatchRules()
    assert default_lineup(ROSTER, rules) == (11, 12, 13, 14)
    withdrawn = (*ROSTER[:1], replace(ROSTER[1], available=False), *ROSTER[2:])
    assert default_lineup(withdrawn, rules) == (11, 13, 14, 15)  # the first reserve comes in
    short = (ROSTER[0], ROSTER[1])
    assert default_lineup(short, rules) == (11, 12, None, None)


def test_missing_lineup_by_lot_is_reproducible() -> None:
    rules = TeamMatchRules(missing_lineup=MissingLineup.LOT)
    first = default_lineup(ROSTER, rules, seed=7)
    assert first == default_lineup(ROSTER, rules, seed=7)
    assert sorted(p for p in first if p) == [11, 12, 13, 14]
    assert {default_lineup(ROSTER, rules, seed=s) for s in range(20)} != {first}
    with pytest.raises(UserError):
        default_lineup(ROSTER, rules)


def test_colour_limit_of_a_player() -> None:
    rules = TeamMatchRules(player_colour_limit=2)
    history = {11: (Colour.RED, Colour.RED), 12: (Colour.BLACK, Colour.BLACK), 13: (Colour.RED,)}
    # at home: 11 on board 1 would be Red a third time; 12 on board 2 Black a third time; 13 Red twice is fine
    assert colour_limit_breaks((11, 12, 13, 14), True, history, rules) == (
        (1, 11, Colour.RED),
        (2, 12, Colour.BLACK),
    )
    assert colour_limit_breaks((11, 12, 13, 14), False, history, rules) == ()
    assert colour_limit_breaks((11, 12, 13, 14), True, history, TeamMatchRules()) == ()


def test_tie_game_colour_needs_a_lot_where_the_ladder_draws() -> None:
    from app.engine.formats import ColourRule, LadderStep, MatchFormat, TimeControl

    ladder = MatchFormat(
        steps=(
            LadderStep(GameKind.RAPID, 1, TimeControl(10, 5), ColourRule.LOT),
            LadderStep(GameKind.DECIDING, 1, TimeControl(5, 3), ColourRule.LOT),
        )
    )
    rules = TeamMatchRules(tie=TieRule.BOARD_LADDER, tie_ladder=ladder)
    tied = match(R, R, R, R)
    b1 = replace(tied.boards[0], tie_games=(KnockoutGame(1, GameKind.RAPID, 21, 11, D),))
    m = replace(tied, boards=(b1, *tied.boards[1:]))
    due = due_tie_games(m, rules)
    assert (due[0].number, due[0].colours) == (2, ColourState.LOT_NEEDED)
    drawn = replace(b1, tie_reds=((1, 11),))
    due = due_tie_games(replace(m, boards=(drawn, *tied.boards[1:])), rules)
    assert (due[0].red, due[0].black, due[0].colours) == (11, 21, ColourState.SET)
