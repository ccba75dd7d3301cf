"""Knockout games counted as Black (后走局数), the setting once refused: through the services, on
a small event played to its end (10 players, 2 Swiss rounds, a knockout of 4)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from app.db.session import Database
from app.engine.regulations import legacy_group, preset, regulations_to_dict
from app.engine.types import GameResult
from app.services.knockout import bracket_of
from app.services.simulation import play_demo_to_end
from app.services.snapshot import import_snapshot
from app.services.standings import group_standings
from app.services.tournaments import load_regulations, update_regulations
from tests.factories import player, snapshot

OPEN = "公开组"


def _event(tmp_path: Path) -> Database:
    base = preset("tianshui-2024")
    reg = dataclasses.replace(
        base,
        groups=(legacy_group(OPEN, True, rounds=4, swiss_rounds=2, knockout_size=4),),
        prizes=tuple(t for t in base.prizes if t.group == OPEN),
    )
    data = snapshot([player(i, f"棋手{i}") for i in range(1, 11)])
    data["tournament"]["settings"] = regulations_to_dict(reg)
    data["groups"] = data["groups"][:1]
    db = import_snapshot(data, tmp_path / "ko.xqt")
    play_demo_to_end(db, seed=7, forfeit_rate=0.0)
    return db


def test_knockout_games_as_black_change_only_the_knockout_players_black_columns(tmp_path: Path) -> None:
    db = _event(tmp_path)
    bracket = bracket_of(db, OPEN)
    assert bracket is not None
    extra: dict[int, list[int]] = {}
    for m in bracket.matches:
        for g in m.games:
            if g.result.played_over_board:
                extra.setdefault(g.black, [0, 0])[0] += 1
                extra[g.black][1] += g.result is GameResult.BLACK_WIN
    assert extra, "the knockout was played over the board"
    before = {line.no: line for line in group_standings(db, OPEN).lines}
    reg = load_regulations(db)
    update_regulations(
        db,
        dataclasses.replace(
            reg, tiebreaks=dataclasses.replace(reg.tiebreaks, knockout_games_count_as_black=True)
        ),
    )
    after = {line.no: line for line in group_standings(db, OPEN).lines}
    for no, line in after.items():
        games, wins = extra.get(no, [0, 0])
        assert line.black_games == before[no].black_games + games, no
        assert line.black_wins == before[no].black_wins + wins, no
        assert line.score == before[no].score  # no Swiss points from the knockout
