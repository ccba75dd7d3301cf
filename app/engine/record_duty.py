"""Who must record which game (录谱) and the violations that follow (docs/rules.md §8).

"前三轮由裁判组指定获胜者配合录谱，从第四轮开始前十台获胜方录谱，和棋由黑方录谱，拒不录谱，每次记犯规一次；
和棋录谱不足 25 回合者，也记犯规一次。"

* Rounds ``1 … designated_rounds``: the winner of every game on a board the arbiter designates.
* Later rounds: the winner on boards ``1 … top_boards`` (plus any board the arbiter designates).
* A drawn game on such a board: the player of ``RecordDutyRules.draw_recorder`` (default Black). This
  applies to designated games in the first rounds too.
* Nothing is owed for a game not played over the board (a forfeit, a double forfeit) or a game without a
  result yet; the list of duties is recomputed once results are entered.
* One game per board: for a knockout match pass the game of the match that is to be recorded.

A handed-in record of a drawn game shorter than ``min_draw_moves`` (回合) is a violation for both players
(setting: Black only) — :func:`check_record`. When the round is closed, every duty without a record
becomes a refusal (拒不录谱) after the arbiter confirms — :func:`close_round_violations`.

>>> from app.engine.regulations import RecordDutyRules
>>> from app.engine.types import Game, GameResult
>>> games = [Game(1, 4, 9, GameResult.RED_WIN), Game(2, 7, 2, GameResult.DRAW)]
>>> [(d.board, d.recorder_no) for d in record_duties(4, games, RecordDutyRules())]
[(1, 4), (2, 2)]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from app.engine.regulations import RecordDutyRules, ShortDrawViolation
from app.engine.types import Colour, Game, GameResult, UserError, ViolationKind


@dataclass(frozen=True, slots=True)
class RecordDuty:
    """Player ``recorder_no`` owes the record of the game on ``board`` in ``round``."""

    round: int
    board: int
    recorder_no: int
    reason: str  # in Chinese, fit to print on the list of records owed


@dataclass(frozen=True, slots=True)
class Violation:
    """A violation (犯规) as a value; the services store it and count it in the tiebreak."""

    player_no: int
    round: int
    kind: ViolationKind
    reason: str  # in Chinese
    board: int | None = None


def record_duties(
    round_number: int, games: Sequence[Game], rules: RecordDutyRules, designated_boards: Collection[int] = ()
) -> tuple[RecordDuty, ...]:
    """The records owed for a round, in board order.

    ``designated_boards``: the boards whose games the arbiter designated (rounds 1 … designated_rounds;
    in later rounds they are owed in addition to the top boards).
    """
    if round_number < 1:
        raise UserError(f"轮次必须至少为 1：{round_number}", f"rounds start at 1: {round_number}")
    boards = [g.board for g in games]
    if len(set(boards)) != len(boards):
        raise UserError(f"第{round_number}轮有重复的台次", f"round {round_number} lists a board twice")
    missing = sorted(set(designated_boards) - set(boards))
    if missing:
        raise UserError(
            f"第{round_number}轮没有第{missing[0]}台，不能指定录谱",
            f"round {round_number} has no board {missing[0]} to designate",
        )
    recorded = dict(boards_to_record(round_number, boards, rules, designated_boards))
    duties: list[RecordDuty] = []
    for game in sorted(games, key=lambda g: g.board):
        why = recorded.get(game.board)
        if why is None:
            continue
        if not game.result.played_over_board:
            continue  # a forfeit or a game without result owes nothing (yet)
        winner = game.result.winner()
        if winner is None:
            recorder = game.red if rules.draw_recorder is Colour.RED else game.black
            reason = f"{why}，和棋由{rules.draw_recorder.zh}方录谱"
        else:
            recorder = game.red if winner is Colour.RED else game.black
            reason = f"{why}，获胜方录谱"
        duties.append(
            RecordDuty(round_number, game.board, recorder, f"第{round_number}轮第{game.board}台：{reason}")
        )
    return tuple(duties)


def boards_to_record(
    round_number: int,
    boards: Collection[int],
    rules: RecordDutyRules,
    designated_boards: Collection[int] = (),
) -> tuple[tuple[int, str], ...]:
    """The boards whose game must be recorded, and why — known when the round starts, before any
    result (so the record sheets can be handed out with the table cards).

    >>> from app.engine.regulations import RecordDutyRules
    >>> boards_to_record(4, range(1, 14), RecordDutyRules(), designated_boards=[12])[-2:]
    ((10, '前10台'), (12, '裁判组指定'))
    >>> boards_to_record(2, range(1, 14), RecordDutyRules())
    ()
    """
    designated = set(designated_boards)
    out = []
    for board in sorted(set(boards)):
        if board in designated:
            out.append((board, "裁判组指定"))
        elif round_number > rules.designated_rounds and board <= rules.top_boards:
            out.append((board, f"前{rules.top_boards}台"))
    return tuple(out)


def check_record(round_number: int, game: Game, moves: int, rules: RecordDutyRules) -> tuple[Violation, ...]:
    """The violations a handed-in record raises: a drawn game shorter than ``min_draw_moves`` (回合).

    >>> from app.engine.regulations import RecordDutyRules
    >>> [v.player_no for v in check_record(5, Game(3, 4, 9, GameResult.DRAW), 18, RecordDutyRules())]
    [4, 9]
    """
    if moves < 0:
        raise UserError(f"回合数不能为负数：{moves}", f"the move count cannot be negative: {moves}")
    if game.result is not GameResult.DRAW or moves >= rules.min_draw_moves:
        return ()
    charged = (
        (game.black,) if rules.short_draw_charged is ShortDrawViolation.BLACK_ONLY else (game.red, game.black)
    )
    reason = f"第{round_number}轮第{game.board}台和棋录谱仅{moves}回合，不足{rules.min_draw_moves}回合"
    return tuple(
        Violation(no, round_number, ViolationKind.SHORT_DRAW_RECORD, reason, game.board) for no in charged
    )


def outstanding_records(duties: Sequence[RecordDuty], handed_in: Collection[int]) -> tuple[RecordDuty, ...]:
    """The records still owed: duties whose board is not among the boards handed in."""
    handed = set(handed_in)
    return tuple(d for d in duties if d.board not in handed)


def close_round_violations(duties: Sequence[RecordDuty], handed_in: Collection[int]) -> tuple[Violation, ...]:
    """Refusals (拒不录谱) for the records not handed in when the round is closed.

    ``duties`` are those of one round; ``handed_in`` the boards whose records were received. The arbiter
    confirms the list before the services store it.

    >>> duties = [RecordDuty(4, 1, 12, ""), RecordDuty(4, 2, 30, "")]
    >>> [(v.player_no, v.kind.value) for v in close_round_violations(duties, {1})]
    [(30, 'refused_record')]
    """
    rounds = {d.round for d in duties}
    if len(rounds) > 1:
        raise UserError("只能逐轮结算录谱", "record duties are closed one round at a time")
    return tuple(
        Violation(
            d.recorder_no,
            d.round,
            ViolationKind.REFUSED_RECORD,
            f"第{d.round}轮第{d.board}台拒不录谱",
            d.board,
        )
        for d in outstanding_records(duties, handed_in)
    )
