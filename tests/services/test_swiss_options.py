"""The Swiss options regulations ask for: round 1 by neighbours or by halves drawn by lot, a colour limit
other than "three in a row, two apart", players who play unranked (计成绩不计名次), a player withdrawn for
forfeits dropped from the ranking, and players who leave after an earlier stage keeping their places."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from app.db.session import Database
from app.engine.formats import Entrants, Stage, StageKind
from app.engine.pairing import PairingPlayer
from app.engine.regulations import GroupFormat, RoundOnePairing
from app.engine.types import Colour, GameResult, UserError
from app.services.format_demo import (
    GROUP,
    _register,
    create_format_demo,
    format_regulations,
    hard_rule_breaks,
)
from app.services.knockout import bracket_of
from app.services.ranking_flags import set_unranked
from app.services.results import enter_result
from app.services.rounds import close_round, group_state, pair_next_round, round_view
from app.services.simulation import play_group_to_end
from app.services.standings import final_places, prize_list
from app.services.tournaments import create_tournament, load_regulations, update_regulations

R, B = GameResult.RED_WIN, GameResult.BLACK_WIN


def _swiss(tmp_path: Path, players: int, rounds: int = 5, **pairing: object) -> Database:
    db = create_format_demo(tmp_path / "s.xqt", "swiss", players=players, rounds=rounds, seed=7)
    if pairing:
        reg = load_regulations(db)
        update_regulations(db, dataclasses.replace(reg, pairing=dataclasses.replace(reg.pairing, **pairing)))
    return db


def _no_teams(db: Database) -> None:
    """Everyone an individual (the demo puts some in teams; team avoidance would move round 1's pairs)."""
    from sqlalchemy import update

    from app.db.models import Player

    with db.session() as s:
        s.execute(update(Player).values(team_id=None))


def test_round_one_by_neighbouring_numbers(tmp_path: Path) -> None:
    db = _swiss(tmp_path, 8, round_one=RoundOnePairing.ADJACENT)
    _no_teams(db)
    pair_next_round(db, GROUP, seed=3)
    boards = [(b.red.no, b.black.no) for b in round_view(db, GROUP, 1).boards]
    assert boards == [(1, 2), (4, 3), (5, 6), (8, 7)]  # board 1 the lower number Red, then alternating
    from app.services.rounds import pairing_explanation

    assert "相邻序号" in pairing_explanation(db, GROUP, 1, 4)


def test_round_one_by_halves_drawn_by_lot(tmp_path: Path) -> None:
    seen = set()
    for seed in (3, 4, 5, 6):
        (tmp_path / str(seed)).mkdir()
        db = _swiss(tmp_path / str(seed), 8, round_one=RoundOnePairing.HALVES_BY_LOT)
        _no_teams(db)
        pair_next_round(db, GROUP, seed=seed)
        pairs = {frozenset((b.red.no, b.black.no)) for b in round_view(db, GROUP, 1).boards}
        assert all(len(p & {1, 2, 3, 4}) == 1 for p in pairs)  # each top-half player meets the bottom half
        seen.add(frozenset(pairs))
        db.close()
    assert len(seen) > 1  # the lot decides (the usual halves would always give 1–5, 2–6 …)


def test_the_usual_round_one_is_unchanged(tmp_path: Path) -> None:
    db = _swiss(tmp_path, 8)
    _no_teams(db)
    pair_next_round(db, GROUP, seed=3)
    assert {frozenset((b.red.no, b.black.no)) for b in round_view(db, GROUP, 1).boards} == {
        frozenset(p) for p in ((1, 5), (2, 6), (3, 7), (4, 8))
    }


def test_a_colour_limit_of_three_in_a_row() -> None:
    two_reds = PairingPlayer(1, 0, colours=(Colour.BLACK, Colour.RED, Colour.RED))
    assert not two_reds.may_take(Colour.RED)  # the rulebook: never three in a row
    league = dataclasses.replace(two_reds, run_limit=3, difference_limit=3)
    assert league.may_take(Colour.RED)
    three = dataclasses.replace(league, colours=(Colour.RED, Colour.RED, Colour.RED))
    assert not three.may_take(Colour.RED) and three.may_take(Colour.BLACK)
    apart = PairingPlayer(2, 0, colours=(Colour.RED, Colour.BLACK, Colour.RED, Colour.RED), run_limit=3)
    assert not apart.may_take(Colour.RED)  # 3 − 1 = 2 apart already, the difference stays at 2
    assert dataclasses.replace(apart, difference_limit=3).may_take(Colour.RED)


def test_the_regulations_colour_limit_reaches_the_pairing(tmp_path: Path) -> None:
    db = _swiss(tmp_path, 10, rounds=7, colour_run_limit=3, colour_difference_limit=3)
    play_group_to_end(db, GROUP, seed=11)
    assert hard_rule_breaks(db) == []  # checked against the regulation's limits
    runs = [
        "".join(
            "R" if g.red == no else "B"
            for r in group_state(db, GROUP).rounds
            for g in r.games
            if no in (g.red, g.black) and g.result.played_over_board
        )
        for no in range(1, 11)
    ]
    assert any("RRR" in r or "BBB" in r for r in runs)  # what the rulebook's limit would never give
    with pytest.raises(UserError, match="colour_run_limit"):
        reg = load_regulations(db)
        update_regulations(
            db, dataclasses.replace(reg, pairing=dataclasses.replace(reg.pairing, colour_run_limit=0))
        )


def test_an_unranked_player_plays_but_takes_no_place_and_no_prize(tmp_path: Path) -> None:
    db = _swiss(tmp_path, 8, rounds=3)
    set_unranked(db, GROUP, 1, reason="特邀棋手，计成绩不计名次")
    with pytest.raises(UserError, match="已是计成绩不计名次"):
        set_unranked(db, GROUP, 1, reason="again")
    play_group_to_end(db, GROUP, seed=5)
    played = [g for r in group_state(db, GROUP).rounds for g in r.games if 1 in (g.red, g.black)]
    assert len(played) == 3  # he played every round
    places = final_places(db, GROUP)
    assert 1 not in places and sorted(places.values()) == list(range(1, 8))
    prizes = prize_list(db).prizes
    assert prizes.lines and all(line.no != 1 for line in prizes.lines)


def test_a_player_withdrawn_for_forfeits_is_dropped_where_the_regulation_says(tmp_path: Path) -> None:
    def play(db: Database) -> dict[int, int]:
        for number in range(1, 5):
            pair_next_round(db, GROUP, seed=number)
            for b in round_view(db, GROUP, number).boards:
                if 8 in (b.red.no, b.black.no) and number <= 2:
                    code = GameResult.RED_FORFEIT if b.red.no == 8 else GameResult.BLACK_FORFEIT
                else:
                    code = R
                enter_result(db, GROUP, number, b.board, code)
            close_round(db, GROUP, number)
        return final_places(db, GROUP)

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    kept = play(_swiss(tmp_path / "a", 8, rounds=4))
    assert 8 in kept  # withdrawn after two forfeits (round 3 on), still ranked by default
    db = _swiss(tmp_path / "b", 8, rounds=4)
    reg = load_regulations(db)
    update_regulations(
        db,
        dataclasses.replace(
            reg, discipline=dataclasses.replace(reg.discipline, forfeits_withdrawn_unranked=True)
        ),
    )
    dropped = play(db)
    assert 8 not in dropped and sorted(dropped.values()) == list(range(1, 8))


def test_players_leaving_after_an_earlier_stage_keep_their_places(tmp_path: Path) -> None:
    """Swiss of 4 rounds; the top 2 play a final; places 3–4 stay; the rest play on for 2 rounds."""
    reg = format_regulations("swiss", 12, 4)
    stages = (
        Stage(StageKind.SWISS, rounds=4),
        Stage(StageKind.KNOCKOUT, entrants=Entrants.TOP, count=2),
        Stage(StageKind.SWISS, entrants=Entrants.REST, count=4, alongside=True, rounds=2),
    )
    reg = dataclasses.replace(reg, groups=(GroupFormat(GROUP, True, stages),))
    db = create_tournament(tmp_path / "k.xqt", regulations=reg)
    _register(db, 4, 12, "test")
    play_group_to_end(db, GROUP, seed=6, last=4)
    from app.services.standings import ranking_after

    with db.session() as s:
        from app.services.tournaments import group_row, regulations_of

        after4 = ranking_after(s, group_row(s, GROUP), regulations_of(s), 4)
    play_group_to_end(db, GROUP, seed=6)
    bracket = bracket_of(db, GROUP)
    assert bracket is not None and set(bracket.seeds) == set(after4[:2])
    rest = group_state(db, GROUP).begun_stage(2)
    assert rest is not None and rest.players == frozenset(after4[4:])  # from place 5 on
    places = final_places(db, GROUP)
    assert {places[no] for no in after4[:2]} == {1, 2}
    assert [places[no] for no in after4[2:4]] == [3, 4]  # they stopped, and keep 3rd and 4th
    assert sorted(places[no] for no in after4[4:]) == list(range(5, 13))
    for number in (5, 6):  # 3rd and 4th played no more
        seated = {p for b in round_view(db, GROUP, number).boards for p in (b.red.no, b.black.no)}
        assert not seated & set(after4[2:4])
