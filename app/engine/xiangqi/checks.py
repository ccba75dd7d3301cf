"""Record checks (docs/rules.md §8): move count, short draws, and the natural move limit (自然限着).

* ``full_moves``: moves (回合) played, the number of the last move.
* **Short draw** (和棋录谱不足 25 回合 / 25 回合之内不准提和): a drawn game recorded with fewer than
  ``min_draw_moves`` moves. The record tells only the result and the length, so a draw agreed or
  offered early shows as a drawn game that ends before move 25.
* **Natural limit** (自然限着): the longest stretch of plies with no capture, in 回合 (two plies a
  回合); a capture ends a stretch, a checking move is not counted (it neither ends nor lengthens
  it). A stretch reaching ``natural_limit_moves`` (40) gives a finding at the move where it did.

The findings are plain values for the violation rules (docs/rules.md §8) to weigh; this module
decides nothing about who is charged.

>>> from app.engine.types import GameResult
>>> from app.engine.xiangqi.record import GameRecord
>>> from app.engine.xiangqi.board import Move
>>> short = GameRecord(moves=(Move.from_iccs("h2e2"), Move.from_iccs("h9g7")), result=GameResult.DRAW)
>>> [f.kind.value for f in check_record(short).findings]
['short_draw']
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from app.engine.types import Colour, GameResult
from app.engine.xiangqi.board import Board
from app.engine.xiangqi.record import GameRecord, move_number


class RecordFindingKind(enum.Enum):
    SHORT_DRAW = "short_draw"  # 和棋不足规定回合
    NATURAL_LIMIT = "natural_limit"  # 自然限着已到


@dataclass(frozen=True, slots=True)
class RecordFinding:
    """One thing the checker found, at a move number (回合), with a message in Chinese and English."""

    kind: RecordFindingKind
    move_number: int
    zh: str
    en: str
    colour: Colour | None = None  # the side whose move it was, where one is meant


@dataclass(frozen=True, slots=True)
class RecordCheck:
    """What the checker measured on one record, and its findings."""

    full_moves: int
    plies: int
    result: GameResult
    longest_quiet_moves: float  # 回合 without capture, checking moves not counted (plies / 2)
    quiet_stretch_end: int | None  # move number of the last ply of that stretch
    natural_limit_reached_at: int | None  # move number where the stretch first reached the limit
    findings: tuple[RecordFinding, ...]

    @property
    def is_short_draw(self) -> bool:
        return any(f.kind is RecordFindingKind.SHORT_DRAW for f in self.findings)


def check_record(
    record: GameRecord, *, min_draw_moves: int = 25, natural_limit_moves: int = 40
) -> RecordCheck:
    """Measure a record against the record rules; ``Regulations.record_duty.min_draw_moves`` and
    ``Regulations.discipline.natural_limit_moves`` are the event's settings."""
    board = Board(record.fen)
    first = board.turn
    findings: list[RecordFinding] = []
    quiet = 0
    longest = 0
    longest_end: int | None = None
    reached_at: int | None = None
    limit_plies = 2 * natural_limit_moves
    for ply, move in enumerate(record.moves):
        side = board.turn
        capture = board.is_capture(move)
        board.push_unchecked(move)
        if capture:
            quiet = 0
            continue
        if board.is_check():
            continue  # checking moves are not counted
        quiet += 1
        if quiet > longest:
            longest, longest_end = quiet, move_number(ply, first)
        if quiet == limit_plies and reached_at is None:
            reached_at = move_number(ply, first)
            findings.append(
                RecordFinding(
                    RecordFindingKind.NATURAL_LIMIT,
                    reached_at,
                    f"第 {reached_at} 回合{side.zh}方走后，已连续 {natural_limit_moves} 回合未吃子（将军不计），达到自然限着",
                    f"after move {reached_at} ({side.value}) {natural_limit_moves} moves passed with no "
                    "capture (checks not counted): the natural move limit is reached",
                    side,
                )
            )
    full = record.full_moves
    if record.result is GameResult.DRAW and full < min_draw_moves:
        findings.append(
            RecordFinding(
                RecordFindingKind.SHORT_DRAW,
                full,
                f"和棋只有 {full} 回合，不足 {min_draw_moves} 回合",
                f"drawn in {full} moves, fewer than {min_draw_moves}",
            )
        )
    return RecordCheck(
        full_moves=full,
        plies=len(record.moves),
        result=record.result,
        longest_quiet_moves=longest / 2,
        quiet_stretch_end=longest_end,
        natural_limit_reached_at=reached_at,
        findings=tuple(findings),
    )
