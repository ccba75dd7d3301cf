"""After a disqualification with the games annulled, pairing reads the same scores as the standings.

The issue: the standings gave the opponents their forfeit wins, but the next round was paired with
the old scores. Here an 8-player event plays two rounds; player 1 beat everyone he met and is then
disqualified with ``annul``: his opponents' losses become forfeit wins. The scores the pairing pool
holds, the scores printed on the next round's pairing list and the standings must agree.
"""

from pathlib import Path

import pytest

from app.db.mapping import load_group_state
from app.engine.pairing.history import Entrant as PoolEntrant
from app.engine.pairing.history import pool_from_history
from app.services.discipline import disqualify
from app.services.rounds import pair_next_round, round_view
from app.services.snapshot import import_snapshot
from app.services.standings import group_standings
from app.services.tournaments import group_row, regulations_of
from tests.factories import player, snapshot, swiss_round

GROUP = "公开组"


@pytest.fixture
def event(tmp_path: Path):
    players = [player(i, f"棋手{i}") for i in range(1, 9)]
    rounds = [
        # player 1 beats 5 (round 1) and 3 (round 2); everything else is a draw or a plain result
        swiss_round(1, [(1, 5, "red_win"), (6, 2, "draw"), (3, 7, "red_win"), (8, 4, "black_win")]),
        swiss_round(2, [(3, 1, "black_win"), (4, 6, "red_win"), (2, 8, "draw"), (7, 5, "draw")]),
    ]
    db = import_snapshot(snapshot(players, rounds), tmp_path / "t.xqt")
    yield db
    db.close()


def _pool_scores(db) -> dict[int, int]:
    with db.session() as s:
        reg = regulations_of(s)
        state = load_group_state(s, group_row(s, GROUP), reg)
        pool = pool_from_history(
            [PoolEntrant(e.no) for e in state.entrants], state.rounds, reg.points, scored=state.scored_rounds
        )
    return {p.no: p.score for p in pool}


def test_pairing_reads_the_annulled_scores_of_the_standings(event) -> None:
    before = {ln.no: ln.score for ln in group_standings(event, GROUP).lines}
    assert (before[5], before[3]) == (1, 2)  # 5 lost to 1 then drew; 3 beat 7 then lost to 1
    disqualify(event, GROUP, 1, "annul", "作弊，已赛对局作废")
    standings = {ln.no: ln.score for ln in group_standings(event, GROUP).lines}
    assert (standings[5], standings[3]) == (3, 4)  # the losses to 1 are now forfeit wins (2 points)
    assert 1 not in standings or standings[1] == 0
    pool = _pool_scores(event)
    assert {no: pool[no] for no in standings} == standings

    out = pair_next_round(event, GROUP, seed=7)
    assert out.number == 3
    view = round_view(event, GROUP, 3)
    printed = {seat.no: seat.score for b in view.boards for seat in (b.red, b.black)}
    printed |= {seat.no: seat.score for seat in view.byes}
    assert 1 not in printed  # a disqualified player is not paired again
    assert printed == {no: standings[no] for no in printed}


def test_annulled_scores_change_who_meets_whom(event) -> None:
    """With the old scores 4 leads alone (4 points) over 2 and 3 (2 points); with the annulled ones
    3 and 4 lead together (4 points each) and meet on board 1, and 5 (now 3 points) meets 2."""
    disqualify(event, GROUP, 1, "annul", "作弊，已赛对局作废")
    pair_next_round(event, GROUP, seed=7)
    view = round_view(event, GROUP, 3)
    pairs = [frozenset((b.red.no, b.black.no)) for b in view.boards]
    assert pairs[:2] == [frozenset((3, 4)), frozenset((2, 5))]


def test_disqualification_with_games_standing_keeps_the_scores(event) -> None:
    disqualify(event, GROUP, 1, "stand", "弃赛")
    standings = {ln.no: ln.score for ln in group_standings(event, GROUP).lines}
    assert (standings[5], standings[3]) == (1, 2)
    assert {no: s for no, s in _pool_scores(event).items() if no in standings} == standings
