"""A TRF export of a live event is accepted by a second, independent reader (tests/trf2026_reader.py)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from app.services.standings import group_standings
from app.services.trf_exchange import export_trf
from tests import trf2026_reader as trf26
from tests.factories import copy_event

OPEN = "公开组"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory, midway_demo_file: Path) -> Path:
    """The demo mid-tournament: 公开组 rounds 1–3 closed, round 4 paired with a few results in."""
    return copy_event(midway_demo_file, tmp_path_factory.mktemp("trf26") / "live.xqt")


def test_the_export_for_a_pairing_engine_is_accepted(live: Path) -> None:
    text = export_trf(live, OPEN, for_pairing=True)
    t = trf26.read(text)
    assert t.planned_rounds == 11
    assert t.scoring == {"W": Decimal("2.0"), "D": Decimal("1.0"), "L": Decimal("0.0"), "P": Decimal("2.0")}
    assert {len(p.rounds) for p in t.players.values()} == {3}  # round 4 is not finished: left out
    assert t.teams == {}
    from app.services.tournaments import open_tournament

    db = open_tournament(live, read_only=True)
    try:
        standings = group_standings(db, OPEN, 3)
    finally:
        db.close()
    assert {ln.no: Decimal(ln.score) for ln in standings.lines} == {
        no: p.points for no, p in t.players.items()
    }


def test_the_whole_export_keeps_the_teams_and_the_unfinished_round(live: Path) -> None:
    text = export_trf(live, OPEN)
    # read as a file of results (not to pair from): the teams are there and valid …
    with pytest.raises(trf26.Trf2026Error, match="scheduled opponent needs a colour and a game result"):
        trf26.read(text)  # … but round 4's games without results cannot go to a pairing engine
    assert "\n013 " in text and "142 11" in text


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda s: s.replace("142 11\n", ""), "142"),
        (lambda s: s.replace("162  W 2.0", "162  Q 2.0"), "162"),
        (lambda s: s.replace(" 2.0    D 1.0", " 1.0    D 1.0", 1), "points"),
    ],
)
def test_the_reader_is_strict_enough_to_fail(live: Path, change, message: str) -> None:  # type: ignore[no-untyped-def]
    text = export_trf(live, OPEN, for_pairing=True)
    with pytest.raises(trf26.Trf2026Error, match=message):
        trf26.read(change(text))


def test_a_game_listed_differently_by_the_two_players_is_refused(live: Path) -> None:
    text = export_trf(live, OPEN, for_pairing=True)
    lines = text.splitlines()
    t = next(i for i, ln in enumerate(lines) if ln.startswith("001") and ln[96] == "w")
    lines[t] = lines[t][:96] + "b" + lines[t][97:]  # position 97: the colour of round 1
    with pytest.raises(trf26.Trf2026Error, match="do not list the same game"):
        trf26.read("\n".join(lines))
