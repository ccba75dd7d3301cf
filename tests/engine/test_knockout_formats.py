"""Stand-alone knockouts of any size, double elimination, places by play-off, standing or round lost, and
match ladders — every branch of a ladder walked by hand, and random brackets played to the end."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.formats import (
    ColourRule,
    DecidingDraw,
    Elimination,
    GameKind,
    LadderStep,
    MatchFormat,
    MatchScope,
    PlacementRule,
    TimeControl,
)
from app.engine.knockout import (
    Bracket,
    ColourState,
    Feed,
    Match,
    Outcome,
    create_bracket,
    draw_colours,
    final_places,
    lot_winner,
    match_result,
    next_game,
    restore_bracket,
)
from app.engine.regulations import KnockoutRules
from app.engine.types import Colour, GameResult, UserError

RULES = KnockoutRules()
R, D, B = GameResult.RED_WIN, GameResult.DRAW, GameResult.BLACK_WIN
SLOW, RAPID, BLITZ = TimeControl(60, 30), TimeControl(15, 10), TimeControl(5, 3)
ARMAGEDDON = TimeControl(6, 5, black_minutes=4)  # 红方 6′，黑方 4′，各加 5″


def ladder(
    *steps: LadderStep, draw: DecidingDraw = DecidingDraw.BLACK_WINS, scope=MatchScope.ALL
) -> MatchFormat:
    return MatchFormat(scope, steps, draw)


def _win_for(bracket: Bracket, code: str, winner: int) -> GameResult:
    due = bracket.next_game(code)
    assert due is not None and due.red is not None
    return R if due.red == winner else B


def _play_out(bracket: Bracket, rng: random.Random, seed: int = 7) -> Bracket:
    """Play every match to its end: lots drawn, choices made, results at random (draws included)."""
    for _ in range(10_000):
        progressed = False
        for m in bracket.matches:
            due = bracket.next_game(m.code)
            if due is None:
                continue
            progressed = True
            if due.colours is ColourState.LOT_NEEDED:
                bracket = bracket.draw_colours(m.code, seed)
            elif due.colours is ColourState.CHOICE_NEEDED:
                bracket = bracket.choose_colour(m.code, rng.choice((Colour.RED, Colour.BLACK)))
            else:
                bracket = bracket.enter_result(m.code, due.number, rng.choice((R, D, B, D)))
            break
        if not progressed:
            return bracket
    raise AssertionError("the bracket never finished")


# --------------------------------------------------------------------------- any size, byes by seed


def test_six_players_give_the_top_two_seeds_a_bye() -> None:
    b = create_bracket((60, 50, 40, 30, 20, 10), 0, RULES)
    assert b.slots == 8 and b.size == 6
    first = [(m.code, m.round_number, m.high, m.low, m.walkover) for m in b.matches_in_round(1)]
    assert first == [
        ("QF1", 1, 60, None, True),  # seed 1 meets the vacant 8th slot
        ("QF2", 1, 50, None, True),
        ("QF3", 1, 40, 10, False),
        ("QF4", 1, 30, 20, False),
    ]
    # a bye is decided at once; the semi-final waits for the other quarter-final only
    assert b.result("QF1") is not None and b.result("QF1").winner == 60
    assert (b.match("SF1").high, b.match("SF1").low) == (None, None)
    # the lists already name seed 1 in the semi-final; the other side is still the quarter-final's winner
    assert (b.slot_player("SF1", 0), b.slot_player("SF1", 1)) == (60, None)
    assert (
        isinstance(b.plan("SF1").sources[1], Feed) and b.plan("SF1").sources[1].label_zh == "1/4决赛第4场胜者"
    )
    b = b.set_first_red("QF4", 20).enter_result("QF4", 1, R)
    assert (b.match("SF1").high, b.match("SF1").low) == (60, 20)


def test_twenty_players_with_a_qualifier_for_the_lowest_rated() -> None:
    seeds = tuple(range(101, 121))
    b = create_bracket(seeds, 0, RULES, qualifier=True, placement=PlacementRule.ROUND_LOST)
    played = [m for m in b.matches_in_round(1) if not m.walkover]
    assert b.slots == 32 and len(played) == 4  # seeds 13–20 play for 4 places in the last 16
    assert [(m.high, m.low) for m in played] == [(113, 120), (114, 119), (115, 118), (116, 117)]
    assert all(b.plan(m.code).title_zh.startswith("资格赛") for m in b.matches_in_round(1))
    assert b.plan("R16_1").title_zh == "八分之一决赛第1场"
    # the last 16 names where its players come from as the qualifier is called
    assert all(
        f.label_zh.startswith("资格赛第")
        for p in b.plans
        if p.round_number == 2
        for f in p.sources
        if isinstance(f, Feed)
    )
    done = _play_out(b, random.Random(3))
    places = final_places(done)
    assert sorted(places.values()) == list(range(1, 21))
    # ROUND_LOST: the four qualifier losers are 17th–20th, in seed order
    losers = [done.result(m.code).loser for m in played]  # type: ignore[union-attr]
    assert sorted(places[no] for no in losers) == [17, 18, 19, 20]
    assert [no for no in sorted(losers, key=places.__getitem__)] == sorted(losers, key=seeds.index)


def test_round_lost_plays_no_place_matches_and_standing_plays_the_third_place() -> None:
    lost = create_bracket(tuple(range(1, 9)), 0, RULES, placement=PlacementRule.ROUND_LOST)
    assert [p.code for p in lost.plans] == ["QF1", "QF2", "QF3", "QF4", "SF1", "SF2", "F"]
    standing = create_bracket(tuple(range(1, 9)), 0, RULES, placement=PlacementRule.STANDING)
    assert [p.code for p in standing.plans] == ["QF1", "QF2", "QF3", "QF4", "SF1", "SF2", "F", "3RD"]
    # semi-final losers 3rd and 4th by seed under ROUND_LOST: seeds 5 and 6 lose the semis
    b = lost
    for code, winner in (("QF1", 1), ("QF2", 2), ("QF3", 6), ("QF4", 5), ("SF1", 1), ("SF2", 2), ("F", 2)):
        b = b.set_first_red(code, winner).enter_result(code, 1, R)
    assert final_places(b) == {2: 1, 1: 2, 5: 3, 6: 4, 3: 5, 4: 6, 7: 7, 8: 8}


@pytest.mark.parametrize("n", [2, 3, 5, 7, 9, 16, 17, 31, 33, pytest.param(128, marks=pytest.mark.heavy)])
def test_any_size_from_2_to_128_plays_to_distinct_places(n: int) -> None:
    seeds = tuple(range(1000, 1000 + n))
    b = create_bracket(seeds, 3, RULES)
    vacancies = (1 << (n - 1).bit_length()) - n
    first = b.matches_in_round(4)
    assert sum(m.walkover for m in first) == vacancies
    assert all(m.high == seeds[i] for i, m in enumerate(first) if m.walkover)  # the top seeds sit out
    done = _play_out(b, random.Random(n))
    assert sorted(final_places(done).values()) == list(range(1, n + 1))


# --------------------------------------------------------------------------- double elimination


def test_double_elimination_of_eight_layout() -> None:
    b = create_bracket(tuple(range(1, 9)), 0, RULES, elimination=Elimination.DOUBLE)
    by_round: dict[int, list[str]] = {}
    for p in b.plans:
        by_round.setdefault(p.round_number, []).append(p.code)
    assert by_round == {
        1: ["W1_1", "W1_2", "W1_3", "W1_4"],
        2: ["W2_1", "W2_2", "L1_1", "L1_2"],
        3: ["W3_1", "L2_1", "L2_2"],
        4: ["L3_1"],
        5: ["L4_1"],
        6: ["GF"],
        7: ["GF2"],
    }
    lo, w = Outcome.LOSER, Outcome.WINNER
    assert b.plan("L1_1").sources == (Feed("W1_1", lo), Feed("W1_2", lo))
    # the second winners' round's losers drop in reversed, so L1_1's winner does not meet W2_1's loser
    assert b.plan("L2_1").sources == (Feed("L1_1", w), Feed("W2_2", lo))
    assert b.plan("L4_1").sources == (Feed("L3_1", w), Feed("W3_1", lo))
    assert b.plan("GF").sources == (Feed("W3_1", w), Feed("L4_1", w))
    assert b.plan("W1_1").title_zh == "胜者组第1轮第1场" and b.plan("L4_1").title_zh == "败者组决赛"


def _de_to_grand_final(bracket: Bracket, wins: dict[str, int]) -> Bracket:
    for code, winner in wins.items():
        bracket = bracket.set_first_red(code, winner).enter_result(code, 1, R)
    return bracket


# seed 1 wins the winners' bracket; seed 2 loses W2 to seed 1 … and wins the losers' bracket
EIGHT = {
    "W1_1": 1, "W1_2": 2, "W1_3": 3, "W1_4": 4,  # losers 8, 7, 6, 5 drop
    "W2_1": 1, "W2_2": 3,  # losers 4 and 2 drop
    "L1_1": 7, "L1_2": 5,  # 8 and 6 out (7th–8th)
    "L2_1": 7, "L2_2": 4,  # L1_1 winner 7 meets W2_2's loser 2? no: reversed → 2 meets 5 in L2_2
    "W3_1": 1,  # 3 drops to the losers' final
}  # fmt: skip


def test_double_elimination_grand_final_without_and_with_a_reset() -> None:
    b = create_bracket(tuple(range(1, 9)), 0, RULES, elimination=Elimination.DOUBLE)
    b = _de_to_grand_final(b, {k: v for k, v in EIGHT.items() if k != "L2_1" and k != "L2_2"})
    assert (b.match("L2_1").high, b.match("L2_1").low) == (2, 7)  # W2_2's loser 2 meets L1_1's winner 7
    assert (b.match("L2_2").high, b.match("L2_2").low) == (4, 5)
    b = _de_to_grand_final(b, {"L2_1": 2, "L2_2": 4, "L3_1": 2, "L4_1": 2})
    assert (b.match("GF").high, b.match("GF").low) == (1, 2)
    # the unbeaten champion wins the grand final: no reset
    won = b.set_first_red("GF", 1).enter_result("GF", 1, R)
    assert won.match("GF2").not_needed and won.next_game("GF2") is None
    assert won.is_complete
    assert final_places(won) == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 7: 6, 6: 7, 8: 8}
    # the losers' bracket champion wins it: the reset is played and decides
    lost = b.set_first_red("GF", 2).enter_result("GF", 1, R)
    gf2 = lost.match("GF2")
    assert not gf2.not_needed and (gf2.high, gf2.low) == (1, 2) and not lost.is_complete
    lost = lost.set_first_red("GF2", 2).enter_result("GF2", 1, R)
    assert final_places(lost)[2] == 1 and final_places(lost)[1] == 2


def test_double_elimination_without_reset_decides_in_one_grand_final() -> None:
    b = create_bracket((1, 2, 3, 4), 0, RULES, elimination=Elimination.DOUBLE, grand_final_reset=False)
    assert [p.code for p in b.plans] == ["W1_1", "W1_2", "W2_1", "L1_1", "L2_1", "GF"]
    assert b.plan("GF").winner_place == 1


@pytest.mark.parametrize("n", [2, 3, 5, 6, 8, 11, 16, 24])
def test_double_elimination_of_any_size_ends_with_distinct_places(n: int) -> None:
    b = create_bracket(tuple(range(1, n + 1)), 2, RULES, elimination=Elimination.DOUBLE)
    done = _play_out(b, random.Random(n))
    places = final_places(done)
    assert sorted(places.values()) == list(range(1, n + 1))
    # everybody but the champion lost at most… exactly: the runner-up lost a match
    for code in ("GF",):
        assert done.result(code) is not None


def test_each_bracket_has_its_own_match_format() -> None:
    winners = ladder(LadderStep(GameKind.SLOW, 2, SLOW, ColourRule.LOT), LadderStep(GameKind.DECIDING, 1, BLITZ),
                     scope=MatchScope.WINNERS)  # fmt: skip
    losers = ladder(LadderStep(GameKind.RAPID, 1, RAPID, ColourRule.LOT), scope=MatchScope.LOSERS)
    final = ladder(
        LadderStep(GameKind.SLOW, 2, SLOW, ColourRule.LOT),
        LadderStep(GameKind.DECIDING, 1, ARMAGEDDON, ColourRule.HIGHER_SEED_CHOOSES),
        draw=DecidingDraw.REPEAT,
        scope=MatchScope.GRAND_FINAL,
    )
    b = create_bracket(
        tuple(range(1, 9)), 0, RULES, elimination=Elimination.DOUBLE, ladders=(winners, losers, final)
    )
    assert b.ladder_of("W2_1") == winners and b.ladder_of("L3_1") == losers and b.ladder_of("GF2") == final
    assert b.time_control_of("GF", 3).label == "红6′黑4′+5″"


# --------------------------------------------------------------------------- ladders, every branch


def _match(steps: MatchFormat) -> tuple[Match, MatchFormat]:
    return Match("F", 5, high=1, low=2), steps


def _enter(m: Match, rules: MatchFormat, *results: GameResult) -> Match:
    from app.engine.knockout import enter_result

    for res in results:
        due = next_game(m, rules)
        assert due is not None and due.colours is ColourState.SET, due
        m = enter_result(m, due.number, res, rules)
    return m


TWO_GAMES = ladder(
    LadderStep(GameKind.SLOW, 2, SLOW, ColourRule.LOT),  # 分先两局
    LadderStep(GameKind.RAPID, 2, RAPID),  # 换先快棋两局
    LadderStep(GameKind.BLITZ, 2, BLITZ),  # 超快棋两局
    LadderStep(GameKind.DECIDING, 1, ARMAGEDDON, ColourRule.HIGHER_SEED_CHOOSES),
)


def test_two_game_step_won_two_nil_needs_both_games() -> None:
    m, rules = _match(TWO_GAMES)
    m = draw_colours(m, 1, rules)
    m = _enter(m, rules, R)
    assert match_result(m, rules) is None  # 1–0 after one game: the other can level
    first_red = m.games[0].red
    m = _enter(m, rules, B)  # game 2: colours swapped, the same player wins again
    res = match_result(m, rules)
    assert res is not None and res.winner == first_red and res.reason_zh == "慢棋2局合计 2:0"


def test_two_game_step_won_one_and_a_half_to_a_half() -> None:
    m, rules = _match(TWO_GAMES)
    m = _enter(draw_colours(m, 1, rules), rules, D, R)
    res = match_result(m, rules)
    assert res is not None and res.reason_zh == "慢棋2局合计 1½:½"
    assert res.winner == m.games[1].red


def test_every_tied_step_leads_to_the_next_until_the_deciding_game() -> None:
    m, rules = _match(TWO_GAMES)
    m = set_first(m, 2)
    m = _enter(m, rules, R, R)  # 1–1 slow
    assert next_game(m, rules).kind is GameKind.RAPID  # type: ignore[union-attr]
    # the rapid step continues the alternation: game 3 like game 1
    assert (next_game(m, rules).red, next_game(m, rules).time_control) == (2, RAPID)  # type: ignore[union-attr]
    m = _enter(m, rules, D, D)  # 1–1 rapid
    assert next_game(m, rules).kind is GameKind.BLITZ  # type: ignore[union-attr]
    m = _enter(m, rules, B, B)  # 1–1 blitz
    due = next_game(m, rules)
    assert due is not None and (due.number, due.kind, due.colours, due.chooser) == (
        7,
        GameKind.DECIDING,
        ColourState.CHOICE_NEEDED,
        1,
    )
    from app.engine.knockout import choose_colour

    m = choose_colour(m, Colour.RED, rules)  # the higher seed takes Red: 6 minutes against 4
    due = next_game(m, rules)
    assert due is not None and (due.red, due.black, due.time_control.label) == (1, 2, "红6′黑4′+5″")
    m = _enter(m, rules, D)
    res = match_result(m, rules)
    assert res is not None and (res.winner, res.decided_by_game) == (2, 7)  # 和棋黑胜
    assert res.reason_zh == "第7局附加赛和棋，按规则黑方胜出"


def set_first(m: Match, red: int) -> Match:
    from app.engine.knockout import set_first_red

    return set_first_red(m, red)


def test_a_repeated_deciding_game_swaps_colours_until_decisive() -> None:
    rules = ladder(
        LadderStep(GameKind.SLOW, 1, SLOW, ColourRule.LOT),
        LadderStep(GameKind.DECIDING, 1, BLITZ, ColourRule.HIGHER_SEED_CHOOSES),
        draw=DecidingDraw.REPEAT,
    )
    from app.engine.knockout import choose_colour

    m = set_first(Match("F", 5, high=1, low=2), 1)
    m = choose_colour(_enter(m, rules, D), Colour.BLACK, rules)
    m = _enter(m, rules, D, D, D)
    assert [(g.red, g.black, g.kind) for g in m.games[1:]] == [
        (2, 1, GameKind.DECIDING),
        (1, 2, GameKind.DECIDING),
        (2, 1, GameKind.DECIDING),
    ]
    assert match_result(m, rules) is None
    m = _enter(m, rules, B)  # game 5: 1 is Red again … Black (2) wins
    res = match_result(m, rules)
    assert res is not None and (res.winner, res.decided_by_game) == (2, 5)


def test_a_long_step_ends_as_soon_as_it_is_decided() -> None:
    rules = ladder(
        LadderStep(GameKind.SLOW, 4, SLOW, ColourRule.LOT), LadderStep(GameKind.DECIDING, 1, BLITZ)
    )
    m = set_first(Match("F", 5, high=1, low=2), 1)
    m = _enter(m, rules, R, B)  # 1 wins both
    assert match_result(m, rules) is None  # 2–0 with two to play: 2 can still level
    m = _enter(m, rules, R)
    res = match_result(m, rules)
    assert res is not None and res.winner == 1 and res.decided_by_game == 3


def test_a_forfeit_in_a_two_game_step_loses_the_match() -> None:
    m, rules = _match(TWO_GAMES)
    m = _enter(set_first(m, 1), rules, R, GameResult.BLACK_FORFEIT)
    res = match_result(m, rules)
    assert res is not None and res.winner == 2 and res.decided_by_game == 2


def test_first_game_chosen_by_the_higher_seed() -> None:
    rules = ladder(
        LadderStep(GameKind.SLOW, 1, SLOW, ColourRule.HIGHER_SEED_CHOOSES), LadderStep(GameKind.DECIDING)
    )
    from app.engine.knockout import choose_colour

    m = Match("SF1", 2, high=3, low=9)
    due = next_game(m, rules)
    assert due is not None and (due.colours, due.chooser) == (ColourState.CHOICE_NEEDED, 3)
    m = choose_colour(m, Colour.BLACK, rules)
    assert next_game(m, rules).red == 9  # type: ignore[union-attr]


def test_first_game_chosen_by_the_loser_of_the_lot() -> None:
    rules = ladder(
        LadderStep(GameKind.SLOW, 1, SLOW, ColourRule.LOT_LOSER_CHOOSES), LadderStep(GameKind.DECIDING)
    )
    from app.engine.knockout import choose_colour

    m = Match("SF1", 2, high=3, low=9)
    assert next_game(m, rules).colours is ColourState.LOT_NEEDED  # type: ignore[union-attr]
    drawn = draw_colours(m, 77, rules)
    winner = lot_winner(drawn)
    due = next_game(drawn, rules)
    assert due is not None and due.colours is ColourState.CHOICE_NEEDED
    assert due.chooser == (9 if winner == 3 else 3) and due.chooser != winner
    chosen = choose_colour(drawn, Colour.RED, rules)
    assert next_game(chosen, rules).red == due.chooser  # type: ignore[union-attr]
    # the same seed gives the same lot; another seed may not
    assert lot_winner(draw_colours(m, 77, rules)) == winner
    assert {lot_winner(draw_colours(m, s, rules)) for s in range(30)} == {3, 9}


def test_a_later_step_with_its_own_lot_is_drawn_with_the_round() -> None:
    rules = ladder(
        LadderStep(GameKind.SLOW, 1, SLOW, ColourRule.LOT),
        LadderStep(GameKind.RAPID, 1, RAPID, ColourRule.LOT),
        LadderStep(GameKind.DECIDING, 1, BLITZ, ColourRule.HIGHER_SEED_CHOOSES),
    )
    b = create_bracket((1, 2), 0, RULES, ladders=(rules,))
    b = b.draw_round_colours(1, seed=5)
    b = b.enter_result("F", 1, D)
    assert b.next_game("F").colours is ColourState.LOT_NEEDED  # type: ignore[union-attr]
    b = b.draw_round_colours(1, seed=5)
    due = b.next_game("F")
    assert due is not None and due.colours is ColourState.SET and due.step == 1
    # stored as a colour choice of step 1 and restored from it
    choices = b.match("F").colour_choices(rules)
    assert set(choices) == {1}
    again = restore_bracket((1, 2), 0, RULES, [b.match("F")], ladders=(rules,))
    assert again.next_game("F") == due


def test_the_most_particular_scope_applies() -> None:
    final = ladder(
        LadderStep(GameKind.SLOW, 2, SLOW, ColourRule.LOT),
        LadderStep(GameKind.DECIDING),
        scope=MatchScope.FINAL,
    )
    semis = ladder(
        LadderStep(GameKind.SLOW, 1, SLOW, ColourRule.LOT),
        LadderStep(GameKind.DECIDING),
        scope=MatchScope.SEMI_FINAL,
    )
    every = ladder(LadderStep(GameKind.RAPID, 1, RAPID, ColourRule.LOT), LadderStep(GameKind.DECIDING))
    b = create_bracket(tuple(range(1, 9)), 0, RULES, ladders=(every, final, semis))
    assert b.ladder_of("F") == final and b.ladder_of("SF2") == semis and b.ladder_of("QF1") == every
    assert b.ladder_of("3RD") == every and b.ladder_of("P5") == every
    # without a format of its own a bracket plays the [knockout] ladder
    assert create_bracket((1, 2), 0, RULES).ladder_of("F") == RULES.match_format


def test_the_deciding_game_cannot_be_entered_before_the_choice() -> None:
    m, rules = _match(TWO_GAMES)
    m = _enter(set_first(m, 1), rules, R, R, D, D, B, B)
    from app.engine.knockout import enter_result

    with pytest.raises(UserError, match="选择先后手"):
        enter_result(m, 7, D, rules)


# --------------------------------------------------------------------------- every format, random play


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 40),
    double=st.booleans(),
    placement=st.sampled_from(list(PlacementRule)),
    seed=st.integers(0, 10_000),
    ladder_choice=st.sampled_from(["today", "two_games", "repeat"]),
)
def test_no_random_knockout_breaks_a_hard_rule(
    n: int, double: bool, placement: PlacementRule, seed: int, ladder_choice: str
) -> None:
    """Hard rules: nobody plays two matches in one round; a match's players are the winners / losers its
    plan names; places are 1…n with no tie; a player out of a single knockout never plays again."""
    rules = {
        "today": (),
        "two_games": (TWO_GAMES,),
        "repeat": (
            ladder(
                LadderStep(GameKind.SLOW, 1, SLOW, ColourRule.LOT),
                LadderStep(GameKind.DECIDING, 1, BLITZ, ColourRule.HIGHER_SEED_CHOOSES),
                draw=DecidingDraw.REPEAT,
            ),
        ),
    }[ladder_choice]
    b = create_bracket(
        tuple(range(1, n + 1)),
        0,
        RULES,
        elimination=Elimination.DOUBLE if double else Elimination.SINGLE,
        placement=placement,
        ladders=rules,
    )
    done = _play_out(b, random.Random(seed), seed)
    for r in done.round_numbers:
        seated = [
            p for m in done.matches_in_round(r) if not m.walkover and not m.not_needed for p in m.players
        ]
        assert len(seated) == len(set(seated)), f"round {r}: someone plays twice"
    places = final_places(done)
    assert sorted(places.values()) == list(range(1, n + 1))
    # knocked out means knocked out: one lost match in the main bracket (two in a double elimination)
    # and the player plays no further match of it (place matches P…/3RD are separate brackets)
    allowed = 2 if double else 1
    losses: dict[int, int] = {}
    for plan, m in zip(done.plans, done.matches, strict=True):
        if plan.code == "3RD" or plan.code.startswith("P") or m.walkover or m.not_needed:
            continue
        for p in m.players:
            assert losses.get(p, 0) < allowed, f"{p} played {m.code} after being knocked out"
        res = match_result(m, done.ladder_of(m.code))
        assert res is not None
        for p in (res.loser, *res.eliminated):
            if p is not None:
                losses[p] = losses.get(p, 0) + (allowed if p in res.eliminated else 1)
    assert done.result("GF" if double else "F") is not None
