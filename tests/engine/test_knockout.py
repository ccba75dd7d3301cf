"""The second stage: bracket layout, match game sequence, colour lot, progression, final places."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine import knockout
from app.engine.knockout import (
    Bracket,
    ColourMethod,
    ColourState,
    Feed,
    GameKind,
    Match,
    Outcome,
    choose_deciding_colour,
    create_bracket,
    draw_colours,
    enter_result,
    final_places,
    final_ranking,
    knockout_seeds,
    match_result,
    match_winner,
    next_game,
    restore_bracket,
    set_first_red,
)
from app.engine.regulations import DecidingDraw, KnockoutRules, PlacementRule, TimeControl
from app.engine.types import Colour, GameResult, PlayerStatus, UserError
from tests.doctests import run_doctests

RULES = KnockoutRules()
# Player numbers in order of the standing after round 8: seed 1 is no. 21, seed 8 is no. 11.
SEEDS = (21, 5, 13, 8, 30, 2, 17, 11)

R, D, B = GameResult.RED_WIN, GameResult.DRAW, GameResult.BLACK_WIN


def test_doctests() -> None:
    assert run_doctests(knockout).failed == 0


def test_eight_player_layout_follows_the_regulation() -> None:
    b = create_bracket(SEEDS, split_round=8, rules=RULES)
    layout = [(p.code, p.round_number, p.board, p.sources) for p in b.plans]
    w, lo = Outcome.WINNER, Outcome.LOSER
    assert layout == [
        ("QF1", 9, 1, (1, 8)),
        ("QF2", 9, 2, (2, 7)),
        ("QF3", 9, 3, (3, 6)),
        ("QF4", 9, 4, (4, 5)),
        ("SF1", 10, 1, (Feed("QF1", w), Feed("QF4", w))),
        ("SF2", 10, 2, (Feed("QF2", w), Feed("QF3", w))),
        ("P5SF1", 10, 3, (Feed("QF1", lo), Feed("QF4", lo))),
        ("P5SF2", 10, 4, (Feed("QF2", lo), Feed("QF3", lo))),
        ("F", 11, 1, (Feed("SF1", w), Feed("SF2", w))),
        ("3RD", 11, 2, (Feed("SF1", lo), Feed("SF2", lo))),
        ("P5", 11, 3, (Feed("P5SF1", w), Feed("P5SF2", w))),
        ("P7", 11, 4, (Feed("P5SF1", lo), Feed("P5SF2", lo))),
    ]
    assert [(m.high, m.low) for m in b.matches_in_round(9)] == [(21, 11), (5, 17), (13, 2), (8, 30)]
    assert all(m.high is None and m.low is None for m in b.matches if m.round_number > 9)
    assert [(p.code, p.winner_place, p.loser_place) for p in b.plans if p.winner_place] == [
        ("F", 1, 2),
        ("3RD", 3, 4),
        ("P5", 5, 6),
        ("P7", 7, 8),
    ]


def _result_for(bracket: Bracket, code: str, winner: int) -> GameResult:
    """The result of the due game (or, for a decided match, its last game) that makes ``winner`` win."""
    match = bracket.match(code)
    due = next_game(match, bracket.rules)
    red = due.red if due is not None else match.games[-1].red
    return R if red == winner else B


def test_full_eight_player_knockout_hand_worked() -> None:
    b = create_bracket(SEEDS, 8, RULES)

    # QF1 (21 v 11): decided in game 1, upset. Physical draw: 11 is Red.
    b = b.set_first_red("QF1", 11)
    due = next_game(b.match("QF1"), RULES)
    assert due is not None
    assert (due.number, due.kind, due.time_control, due.red, due.black) == (
        1,
        GameKind.SLOW,
        TimeControl(20, 5),
        11,
        21,
    )
    b = b.enter_result("QF1", 1, R)
    assert b.result("QF1") == knockout.MatchResult(11, 21, 1, "第1局慢棋红胜")

    # QF2 (5 v 17): game 1 drawn, game 2 rapid with colours swapped, Black (5) wins.
    b = b.set_first_red("QF2", 5).enter_result("QF2", 1, D)
    due = next_game(b.match("QF2"), RULES)
    assert due is not None
    assert (due.number, due.kind, due.time_control, due.red, due.black) == (
        2,
        GameKind.RAPID,
        TimeControl(10, 3),
        17,
        5,
    )
    b = b.enter_result("QF2", 2, B)
    assert match_winner(b.match("QF2"), RULES) == 5

    # QF3 (13 v 2): two draws; the higher seed 13 chooses Black; the deciding game is drawn → Black (13) advances.
    b = b.set_first_red("QF3", 2).enter_result("QF3", 1, D).enter_result("QF3", 2, D)
    due = next_game(b.match("QF3"), RULES)
    assert due is not None
    assert (due.number, due.kind, due.colours, due.chooser, due.red) == (
        3,
        GameKind.DECIDING,
        ColourState.CHOICE_NEEDED,
        13,
        None,
    )
    with pytest.raises(UserError):
        b.enter_result("QF3", 3, D)  # nobody chose yet
    b = b.choose_deciding_colour("QF3", Colour.BLACK)
    due = next_game(b.match("QF3"), RULES)
    assert due is not None
    assert (due.time_control, due.red, due.black) == (TimeControl(5, 3), 2, 13)
    b = b.enter_result("QF3", 3, D)
    res = b.result("QF3")
    assert res is not None and (res.winner, res.loser, res.decided_by_game) == (13, 2, 3)
    assert [g.result for g in b.match("QF3").games] == [D, D, D]  # the game stays a draw on record

    # QF4 (8 v 30): 8 is Red and forfeits game 1 → 30 advances.
    b = b.set_first_red("QF4", 8).enter_result("QF4", 1, GameResult.RED_FORFEIT)
    assert match_winner(b.match("QF4"), RULES) == 30

    # Round 10: no re-seeding; the higher seed of each pair is the better standing after round 8.
    assert [(m.code, m.high, m.low) for m in b.matches_in_round(10)] == [
        ("SF1", 30, 11),
        ("SF2", 5, 13),
        ("P5SF1", 21, 8),
        ("P5SF2", 2, 17),
    ]
    b = b.draw_round_colours(10, seed=2024)
    assert all(m.colour_method is ColourMethod.LOT and m.colour_seed == 2024 for m in b.matches_in_round(10))
    b = b.enter_result("SF1", 1, _result_for(b, "SF1", 30))
    b = b.enter_result("SF2", 1, D)
    b = b.enter_result("SF2", 2, _result_for(b, "SF2", 13))
    b = b.enter_result("P5SF1", 1, _result_for(b, "P5SF1", 8))
    b = b.enter_result("P5SF2", 1, _result_for(b, "P5SF2", 2))

    assert [(m.code, m.high, m.low) for m in b.matches_in_round(11)] == [
        ("F", 13, 30),
        ("3RD", 5, 11),
        ("P5", 8, 2),
        ("P7", 21, 17),
    ]
    with pytest.raises(UserError):
        final_places(b)  # round 11 not played yet
    b = b.draw_round_colours(11, seed=7)
    for code, winner in (("F", 13), ("3RD", 11), ("P5", 2), ("P7", 21)):
        b = b.enter_result(code, 1, _result_for(b, code, winner))
    assert b.is_complete
    assert final_places(b) == {13: 1, 30: 2, 11: 3, 5: 4, 2: 5, 8: 6, 21: 7, 17: 8}


def test_places_five_to_eight_by_standing() -> None:
    b = create_bracket(SEEDS, 8, KnockoutRules(placement=PlacementRule.STANDING))
    assert [m.code for m in b.matches] == ["QF1", "QF2", "QF3", "QF4", "SF1", "SF2", "F", "3RD"]
    b = b.draw_round_colours(9, seed=1)
    # Lower seeds win QF1 and QF3, higher seeds QF2 and QF4: losers 21 (seed 1), 17 (7), 13 (3), 30 (5).
    for code, winner in (("QF1", 11), ("QF2", 5), ("QF3", 2), ("QF4", 8)):
        b = b.enter_result(code, 1, _result_for(b, code, winner))
    b = b.draw_round_colours(10, seed=1)
    for code, winner in (("SF1", 11), ("SF2", 2)):
        b = b.enter_result(code, 1, _result_for(b, code, winner))
    b = b.draw_round_colours(11, seed=1)
    for code, winner in (("F", 2), ("3RD", 8)):
        b = b.enter_result(code, 1, _result_for(b, code, winner))
    assert final_places(b) == {2: 1, 11: 2, 8: 3, 5: 4, 21: 5, 13: 6, 30: 7, 17: 8}


def test_double_forfeit_eliminates_both_and_their_next_opponents_walk_over() -> None:
    b = create_bracket(SEEDS, 8, RULES).draw_round_colours(9, seed=3)
    b = b.enter_result("QF1", 1, GameResult.DOUBLE_FORFEIT)
    res = b.result("QF1")
    assert res is not None and (res.winner, res.loser) == (None, None)
    assert set(res.eliminated) == {21, 11}
    for code, winner in (("QF2", 5), ("QF3", 13), ("QF4", 8)):
        b = b.enter_result(code, 1, _result_for(b, code, winner))
    sf1, p5sf1 = b.match("SF1"), b.match("P5SF1")
    assert (sf1.high, sf1.low, sf1.walkover) == (8, None, True)
    assert (p5sf1.high, p5sf1.low, p5sf1.walkover) == (30, None, True)
    assert next_game(sf1, RULES) is None
    assert [d.code for d in b.due_games(10)] == ["SF2", "P5SF2"]
    b = b.draw_round_colours(10, seed=3)
    assert b.match("SF1").first_red is None  # nothing to draw for a walkover
    b = b.enter_result("SF2", 1, _result_for(b, "SF2", 5))
    b = b.enter_result("P5SF2", 1, _result_for(b, "P5SF2", 2))
    assert [(m.code, m.high, m.low, m.walkover) for m in b.matches_in_round(11)] == [
        ("F", 5, 8, False),
        ("3RD", 13, None, True),
        ("P5", 30, 2, False),  # 30 is seed 5, 2 is seed 6
        ("P7", 17, None, True),
    ]
    b = b.draw_round_colours(11, seed=3)
    b = b.enter_result("F", 1, _result_for(b, "F", 5))
    b = b.enter_result("P5", 1, _result_for(b, "P5", 2))
    # Places close up (3RD and P7 had one player each); the two eliminated players come last, seed 1 first.
    assert final_places(b) == {5: 1, 8: 2, 13: 3, 2: 4, 30: 5, 17: 6, 21: 7, 11: 8}


def test_forfeit_in_the_rapid_game_loses_the_match() -> None:
    m = set_first_red(Match("QF2", 9, high=5, low=17), 5)
    m = enter_result(m, 1, D, RULES)
    m = enter_result(m, 2, GameResult.BLACK_FORFEIT, RULES)  # game 2: 17 Red, 5 Black; Black forfeits
    assert match_winner(m, RULES) == 17
    assert next_game(m, RULES) is None


def test_repeat_setting_swaps_colours_until_decisive() -> None:
    rules = KnockoutRules(deciding_draw=DecidingDraw.REPEAT)
    m = set_first_red(Match("SF1", 10, high=3, low=6), 6)
    m = enter_result(m, 1, D, rules)
    m = enter_result(m, 2, D, rules)
    m = choose_deciding_colour(m, Colour.RED)  # higher seed 3 takes Red
    m = enter_result(m, 3, D, rules)
    assert match_result(m, rules) is None
    due = next_game(m, rules)
    assert due is not None
    assert (due.number, due.kind, due.time_control, due.red, due.black) == (
        4,
        GameKind.DECIDING,
        TimeControl(5, 3),
        6,
        3,
    )
    m = enter_result(m, 4, D, rules)
    due = next_game(m, rules)
    assert due is not None and (due.number, due.red, due.black) == (5, 3, 6)
    m = enter_result(m, 5, B, rules)
    assert match_winner(m, rules) == 6
    assert [(g.red, g.black) for g in m.games] == [(6, 3), (3, 6), (3, 6), (6, 3), (3, 6)]


def test_black_wins_setting_allows_no_fourth_game() -> None:
    m = set_first_red(Match("SF1", 10, high=3, low=6), 3)
    m = enter_result(enter_result(m, 1, D, RULES), 2, D, RULES)
    m = enter_result(choose_deciding_colour(m, Colour.RED), 3, D, RULES)
    assert match_winner(m, RULES) == 6  # 6 had Black in the deciding game
    with pytest.raises(UserError):
        enter_result(m, 4, R, RULES)


def test_colour_lot_is_reproducible_and_both_outcomes_occur() -> None:
    m = Match("QF1", 9, high=21, low=11)
    first = [draw_colours(m, seed).first_red for seed in range(60)]
    again = [draw_colours(m, seed).first_red for seed in range(60)]
    assert first == again
    assert set(first) == {21, 11}
    drawn = draw_colours(m, 12345)
    assert (drawn.colour_method, drawn.colour_seed) == (ColourMethod.LOT, 12345)
    # The code is part of the lot: one round seed gives independent lots per match.
    other = Match("QF2", 9, high=21, low=11)
    assert [draw_colours(other, s).first_red for s in range(60)] != first


def test_round_lot_keeps_a_physical_draw() -> None:
    b = create_bracket(SEEDS, 8, RULES).set_first_red("QF2", 17).draw_round_colours(9, seed=11)
    assert (b.match("QF2").first_red, b.match("QF2").colour_method) == (17, ColourMethod.MANUAL)
    assert all(b.match(c).colour_seed == 11 for c in ("QF1", "QF3", "QF4"))


def test_colours_cannot_change_after_a_result_and_manual_draw_needs_a_player() -> None:
    m = set_first_red(Match("QF1", 9, high=1, low=8), 8)
    assert m.colour_method is ColourMethod.MANUAL
    with pytest.raises(UserError):
        set_first_red(m, 99)
    m = enter_result(m, 1, D, RULES)
    with pytest.raises(UserError):
        draw_colours(m, 1)
    with pytest.raises(UserError):
        enter_result(Match("QF1", 9, high=1, low=8), 1, R, RULES)  # no lot yet


def test_only_the_due_or_last_game_can_be_entered() -> None:
    m = set_first_red(Match("QF1", 9, high=1, low=8), 1)
    with pytest.raises(UserError):
        enter_result(m, 2, R, RULES)
    m = enter_result(m, 1, GameResult.PENDING, RULES)  # paired, no result yet
    due = next_game(m, RULES)
    assert due is not None and due.number == 1
    m = enter_result(m, 1, D, RULES)
    m = enter_result(m, 1, R, RULES)  # correction of the last game
    assert match_winner(m, RULES) == 1
    with pytest.raises(UserError):
        enter_result(m, 2, R, RULES)  # decided


def test_a_feeder_cannot_change_once_the_next_match_started() -> None:
    b = create_bracket(SEEDS, 8, RULES).draw_round_colours(9, seed=5)
    for code, winner in (("QF1", 21), ("QF2", 5), ("QF3", 13), ("QF4", 8)):
        b = b.enter_result(code, 1, _result_for(b, code, winner))
    b = b.draw_colours("SF1", 9)
    with pytest.raises(UserError):
        b.enter_result("QF1", 1, _result_for(b, "QF1", 11))
    # Before the lot of the semi-final, a correction moves the other player up.
    b2 = create_bracket(SEEDS, 8, RULES).draw_round_colours(9, seed=5)
    for code, winner in (("QF1", 21), ("QF2", 5), ("QF3", 13), ("QF4", 8)):
        b2 = b2.enter_result(code, 1, _result_for(b2, code, winner))
    b2 = b2.enter_result("QF1", 1, _result_for(b2, "QF1", 11))
    assert (b2.match("SF1").high, b2.match("SF1").low) == (8, 11)
    assert (b2.match("P5SF1").high, b2.match("P5SF1").low) == (21, 30)


def _play_out(b: Bracket, rng: random.Random) -> Bracket:
    for rnd in b.round_numbers:
        b = b.draw_round_colours(rnd, seed=rng.randrange(10**6))
        for m in b.matches_in_round(rnd):
            while (due := next_game(b.match(m.code), b.rules)) is not None:
                if due.colours is ColourState.CHOICE_NEEDED:
                    b = b.choose_deciding_colour(m.code, rng.choice([Colour.RED, Colour.BLACK]))
                    continue
                b = b.enter_result(m.code, due.number, rng.choice([R, D, B, GameResult.RED_FORFEIT]))
    return b


@given(
    size=st.sampled_from([4, 8, 16]),
    placement=st.sampled_from(list(PlacementRule)),
    seed=st.integers(0, 10**6),
)
def test_every_size_gives_a_valid_bracket(size: int, placement: PlacementRule, seed: int) -> None:
    rng = random.Random(seed)
    seeds = tuple(rng.sample(range(1, 200), size))
    b = create_bracket(seeds, 8, KnockoutRules(placement=placement))
    stage_rounds = size.bit_length() - 1
    assert b.round_numbers == tuple(range(9, 9 + stage_rounds))
    b = _play_out(b, rng)
    assert b.is_complete
    for rnd in b.round_numbers:  # nobody plays twice in a round
        players = [p for m in b.matches_in_round(rnd) for p in m.players]
        assert len(players) == len(set(players))
    if placement is PlacementRule.BRACKET:
        assert all(len(b.matches_in_round(r)) == size // 2 for r in b.round_numbers)
    places = final_places(b)
    assert set(places) == set(seeds)
    assert sorted(places.values()) == list(range(1, size + 1))
    final = b.match("F")
    assert places[match_winner(final, b.rules) or -1] == 1
    # Restoring from the stored fields (players, colours, games) gives back the same bracket.
    stored = [dataclasses.replace(m, walkover=False) for m in b.matches]
    rng.shuffle(stored)
    assert restore_bracket(seeds, 8, b.rules, stored) == b


def test_sixteen_and_four_player_brackets() -> None:
    seeds16 = tuple(range(101, 117))
    b = create_bracket(seeds16, 8, RULES)
    assert [(m.code, m.high, m.low) for m in b.matches_in_round(9)][:2] == [
        ("R16_1", 101, 116),
        ("R16_2", 102, 115),
    ]
    assert [p.sources for p in b.plans if p.code == "QF1"] == [
        (Feed("R16_1", Outcome.WINNER), Feed("R16_8", Outcome.WINNER))
    ]
    assert [p.code for p in b.plans if p.round_number == 12] == [
        "F",
        "3RD",
        "P5",
        "P7",
        "P9",
        "P11",
        "P13",
        "P15",
    ]
    b4 = create_bracket((4, 3, 2, 1), 8, RULES)
    assert [(m.code, m.round_number, m.high, m.low) for m in b4.matches] == [
        ("SF1", 9, 4, 1),
        ("SF2", 9, 3, 2),
        ("F", 10, None, None),
        ("3RD", 10, None, None),
    ]
    # any size 2–128 (a bracket of the next power of two with byes by seed); one player or 129 are refused
    with pytest.raises(UserError):
        create_bracket((1,), 8, RULES)
    with pytest.raises(UserError):
        create_bracket(tuple(range(1, 130)), 8, RULES)
    with pytest.raises(UserError):
        create_bracket((1, 2, 3, 3), 8, RULES)


def test_restore_refuses_contradicting_players() -> None:
    b = create_bracket(SEEDS, 8, RULES).set_first_red("QF1", 21).enter_result("QF1", 1, R)
    wrong = dataclasses.replace(b.match("QF1"), high=5, low=11, first_red=5)
    with pytest.raises(UserError):
        restore_bracket(SEEDS, 8, RULES, [wrong])
    with pytest.raises(UserError):
        restore_bracket(SEEDS, 8, RULES, [Match("QF9", 9)])


def test_knockout_seeds_skip_withdrawn_and_disqualified() -> None:
    standing = [7, 3, 12, 9, 1, 4, 10, 2, 6, 5]
    statuses = {3: PlayerStatus.WITHDRAWN, 9: PlayerStatus.DISQUALIFIED}
    assert knockout_seeds(standing, 8, statuses) == (7, 12, 1, 4, 10, 2, 6, 5)
    assert knockout_seeds(standing, 4) == (7, 3, 12, 9)
    with pytest.raises(UserError):
        knockout_seeds(standing[:9], 8, statuses)
    assert knockout_seeds(standing, 6) == (7, 3, 12, 9, 1, 4)  # any size 2–128
    with pytest.raises(UserError):
        knockout_seeds(standing, 1)


def test_final_ranking_has_no_gaps() -> None:
    places = {13: 1, 30: 2, 11: 3, 5: 4, 2: 5, 8: 6, 21: 7, 17: 8}
    others = [40, 33, 1, 9]
    assert final_ranking(places, others) == {
        13: 1,
        30: 2,
        11: 3,
        5: 4,
        2: 5,
        8: 6,
        21: 7,
        17: 8,
        40: 9,
        33: 10,
        1: 11,
        9: 12,
    }
    ranking = final_ranking(places, others, removed={30, 33})
    assert list(ranking.items()) == [
        (13, 1),
        (11, 2),
        (5, 3),
        (2, 4),
        (8, 5),
        (21, 6),
        (17, 7),
        (40, 8),
        (1, 9),
        (9, 10),
    ]
    with pytest.raises(UserError):
        final_ranking({13: 1, 30: 3}, others)
    with pytest.raises(UserError):
        final_ranking(places, [40, 13])


def test_match_titles_and_reasons_have_an_english_version() -> None:
    from app.engine.knockout import KnockoutGame, Match, create_bracket, match_result
    from app.engine.regulations import KnockoutRules

    bracket = create_bracket(tuple(range(1, 9)), 8, KnockoutRules())
    titles = {p.code: (p.title_zh, p.title_en) for p in bracket.plans}
    assert titles["QF1"] == ("四分之一决赛第1场", "quarter-final 1")
    assert titles["P5SF2"][1] == "places 5–8, semi-final 2"
    assert titles["3RD"][1] == "match for places 3 and 4"
    drawn = Match(
        "QF1",
        9,
        high=1,
        low=8,
        first_red=8,
        deciding_red=1,
        games=(
            KnockoutGame(1, GameKind.SLOW, 8, 1, GameResult.DRAW),
            KnockoutGame(2, GameKind.RAPID, 1, 8, GameResult.DRAW),
            KnockoutGame(3, GameKind.DECIDING, 1, 8, GameResult.DRAW),
        ),
    )
    result = match_result(drawn, KnockoutRules())
    assert result is not None and result.winner == 8
    assert (result.reason_zh, result.reason_en) == (
        "第3局附加赛和棋，按规则黑方胜出",
        "G3 deciding drawn: Black advances",
    )
