"""End to end: the demo event, 11 rounds in both groups through the services (Swiss, split, knockout,
continuing Swiss), then the final ranking, the team ranking and the prize list, all consistent."""

import random

import pytest

from app.engine.knockout import ColourState
from app.engine.types import Colour, GameResult, UserError
from app.services.demo import create_demo
from app.services.knockout import bracket_of, choose_deciding_colour, create_knockout, draw_round_colours
from app.services.results import enter_result
from app.services.rounds import close_round, group_state, pair_next_round, round_view
from app.services.simulation import play_random_results
from app.services.standings import final_places, final_standings, prize_list, team_standings

GROUPS = ("公开组", "天水本地组")


def play_knockout_round(db, group: str, number: int, rng: random.Random) -> None:
    """Enter knockout results board by board, as the arbiter does, until every match of the round is decided."""
    while True:
        due = bracket_of(db, group).due_games(number)
        if not due:
            return
        for d in due:
            if d.colours is ColourState.CHOICE_NEEDED:
                choose_deciding_colour(db, group, d.code, rng.choice((Colour.RED, Colour.BLACK)))
                continue
            board = next(b for b in round_view(db, group, number).boards if b.match == d.code)
            assert (board.red.no, board.black.no, board.game_no) == (d.red, d.black, d.number)
            result = rng.choice((GameResult.RED_WIN, GameResult.DRAW, GameResult.DRAW, GameResult.BLACK_WIN))
            enter_result(db, group, number, board.board, result)


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    path = tmp_path_factory.mktemp("e2e") / "天水2024.xqt"
    db = create_demo(path, seed=31)
    rng = random.Random(31)
    for group in GROUPS:
        for number in range(1, 12):
            if number == 9:
                with pytest.raises(UserError, match="淘汰赛"):
                    pair_next_round(db, group, seed=number)  # the bracket comes first
                create_knockout(db, group)
            if number > 8:
                draw_round_colours(db, group, number, seed=900 + number)
            pair_next_round(db, group, seed=number)
            play_random_results(db, group, number, seed=number, forfeit_rate=0.02)
            if number > 8:
                play_knockout_round(db, group, number, rng)
            close_round(db, group, number)
    yield db
    db.close()


def test_continuing_swiss_never_pairs_a_knockout_player_nor_repeats_an_opponent(event) -> None:
    for group in GROUPS:
        seeds = set(bracket_of(event, group).seeds)
        state = group_state(event, group)
        met: set[frozenset[int]] = set()
        for rnd in state.rounds:
            for g in rnd.games:
                pair = frozenset((g.red, g.black))
                assert pair not in met, (group, rnd.number, pair)
                met.add(pair)
                if rnd.number > 8:
                    assert not pair & seeds
            if rnd.number > 8:
                assert not set(rnd.byes) & seeds


def test_final_ranking_is_one_to_n_with_the_knockout_on_top(event) -> None:
    for group in GROUPS:
        places = final_places(event, group)
        assert sorted(places.values()) == list(range(1, len(places) + 1))
        seeds = set(bracket_of(event, group).seeds)
        assert {no for no, place in places.items() if place <= 8} == seeds
        lines = final_standings(event, group).lines
        assert [line.rank for line in lines] == list(range(1, len(lines) + 1))


def test_team_ranking_and_prizes_are_consistent(event) -> None:
    teams = team_standings(event, "公开组")
    assert teams.final
    assert [t.rank for t in teams.ranking.rows] == list(range(1, len(teams.ranking.rows) + 1))
    places = final_places(event, "公开组")
    for row in teams.ranking.rows:
        assert all(places[no] == place for no, place in row.members)
        assert row.total == sum(place for _, place in row.members)
    prizes = prize_list(event)
    assert [t.total for t in prizes.prizes.tables] == [27_800, 7_900, 3_000]
    for table in prizes.prizes.tables:
        recipients = [line.no if line.no is not None else line.team for line in table.lines]
        assert None not in recipients and len(set(recipients)) == len(recipients)  # every prize paid once
    open_ind = prizes.prizes.tables[0]
    by_place = sorted(places, key=places.get)
    assert [line.no for line in open_ind.lines] == by_place[:24]
    team_table = prizes.prizes.tables[2]
    assert [line.team for line in team_table.lines] == list(teams.ranking.order[:8])
