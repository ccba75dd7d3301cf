"""The demo event at each stage a chief arbiter publishes: one file per stage, built once per test run.

- ``before``: registered, numbers drawn, nothing paired.
- ``midround``: 公开组 rounds 1–3 closed and round 4 half entered (a draw, a forfeit); 天水本地组 rounds
  1–3 closed, a player excused (请假) from round 3.
- ``closed``: 公开组 round 4 complete and closed; 天水本地组 round 4 closed, a player excused from round 5
  (paired, nothing entered).
- ``split``: 天水本地组 rounds 1–8 closed, the knockout created, round 9 paired (colours drawn).
- ``knockout``: 天水本地组 round 9 played — one quarter-final drawn three times, its deciding game a
  draw that counts as a win for Black (和棋黑胜) — and closed; round 10 paired, half entered.
- ``final``: both groups played to their end, every round closed: the demo event played to its end
  that the other tests read too (``played_demo_file``, built once per run), not built again here.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from app.db.session import Database
from app.engine.knockout import ColourState
from app.engine.types import Colour, GameResult
from app.services.attendance import excuse_absence
from app.services.demo import create_demo
from app.services.knockout import bracket_of, choose_deciding_colour, create_knockout, draw_round_colours
from app.services.results import enter_result
from app.services.rounds import close_round, pair_next_round, round_view
from app.services.simulation import play_knockout_round, play_random_results
from app.services.tournaments import open_tournament, tournament_info

OPEN, LOCAL = "公开组", "天水本地组"
STAGES = ("before", "midround", "closed", "split", "knockout", "final")
BUILT = STAGES[:-1]  # the stages build_stages makes (the final one is the played demo event)
SEED = 2024


def _play(db: Database, group: str, number: int, *, close: bool = True) -> None:
    info = tournament_info(db)
    fmt = info.regulations.group(group)
    knockout = bool(fmt.knockout_size) and number > fmt.swiss_rounds
    if knockout and number == fmt.swiss_rounds + 1:
        create_knockout(db, group)
    if knockout:
        draw_round_colours(db, group, number, seed=SEED + 900 + number)
    pair_next_round(db, group, seed=SEED + number)
    play_random_results(db, group, number, seed=SEED + number)
    if knockout:
        play_knockout_round(db, group, number, seed=SEED)
    if close:
        close_round(db, group, number)


def _excuse_someone(db: Database, group: str, number: int) -> None:
    """The lowest-numbered active player of the previous round is excused from round ``number``."""
    previous = round_view(db, group, number - 1)
    no = min(b.red.no for b in previous.boards if b.match is None)
    excuse_absence(db, group, no, number, "家中有事")


def _deciding_draw(db: Database, group: str, number: int) -> None:
    """The round's first knockout board drawn in its slow, rapid and deciding games (和棋黑胜)."""
    bracket = bracket_of(db, group)
    assert bracket is not None
    code = bracket.matches_in_round(number)[0].code
    board = next(b.board for b in round_view(db, group, number).boards if b.match == code)
    for _game in range(3):
        due = next(d for d in bracket.due_games(number) if d.code == code)
        if due.colours is ColourState.CHOICE_NEEDED:
            choose_deciding_colour(db, group, code, Colour.RED)
        enter_result(db, group, number, board, GameResult.DRAW)
        bracket = bracket_of(db, group)
        assert bracket is not None


def build_stages(folder: Path) -> dict[str, Path]:
    """Every stage's file but the final one in ``folder`` (each a copy of the one event at that moment)."""
    work = folder / "event.xqt"
    db = create_demo(work, seed=SEED)
    out: dict[str, Path] = {}

    def keep(stage: str) -> Database:
        nonlocal db
        db.close()
        target = folder / f"{stage}.xqt"
        shutil.copy(work, target)
        out[stage] = target
        db = open_tournament(work)
        return db

    steps: list[tuple[str, Callable[[], None]]] = []

    def before() -> None:
        pass

    def midround() -> None:
        for n in (1, 2, 3):
            _play(db, OPEN, n)
            if n == 3:
                _excuse_someone(db, LOCAL, 3)
            _play(db, LOCAL, n)
        pair_next_round(db, OPEN, seed=SEED + 4)
        for board, result in ((1, GameResult.RED_WIN), (2, GameResult.DRAW), (5, GameResult.RED_FORFEIT)):
            enter_result(db, OPEN, 4, board, result)

    def closed() -> None:
        play_random_results(db, OPEN, 4, seed=SEED + 4)
        close_round(db, OPEN, 4)
        _play(db, LOCAL, 4)
        _excuse_someone(db, LOCAL, 5)
        pair_next_round(db, LOCAL, seed=SEED + 5)

    def split() -> None:
        play_random_results(db, LOCAL, 5, seed=SEED + 5)
        close_round(db, LOCAL, 5)
        for n in (6, 7, 8):
            _play(db, LOCAL, n)
        create_knockout(db, LOCAL)
        draw_round_colours(db, LOCAL, 9, seed=SEED + 909)
        pair_next_round(db, LOCAL, seed=SEED + 9)

    def knockout() -> None:
        _deciding_draw(db, LOCAL, 9)
        play_random_results(db, LOCAL, 9, seed=SEED + 9)
        play_knockout_round(db, LOCAL, 9, seed=SEED)
        close_round(db, LOCAL, 9)
        draw_round_colours(db, LOCAL, 10, seed=SEED + 910)
        pair_next_round(db, LOCAL, seed=SEED + 10)
        boards = [b.board for b in round_view(db, LOCAL, 10).boards if b.match is None]
        for board in boards[: len(boards) // 2]:
            enter_result(db, LOCAL, 10, board, GameResult.BLACK_WIN)

    steps = [
        ("before", before),
        ("midround", midround),
        ("closed", closed),
        ("split", split),
        ("knockout", knockout),
    ]
    for stage, step in steps:
        step()
        keep(stage)
    db.close()
    return out
