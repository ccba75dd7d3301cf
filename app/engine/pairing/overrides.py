"""The arbiter's manual changes to a pairing, and which hard rule each would break (docs/rules.md §5).

An override is applied to a round's pairing (games as (board, red, black) and the byes) and gives the
new pairing; :func:`rule_breaks` names every hard constraint the changed games break (H1 rematch, H2
teammates where they must not meet, H3 colour, H4 second bye), so the arbiter sees it before confirming.

>>> games = ((1, 1, 4), (2, 2, 3))
>>> apply_change(games, (), SwapColours(2))
(((1, 1, 4), (2, 3, 2)), ())
>>> apply_change(games, (), SetPair(1, 2))
(((1, 1, 2), (2, 4, 3)), ())
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.engine.pairing.constraints import RoundConstraints
from app.engine.pairing.model import PairingPlayer
from app.engine.regulations import PairingRules, TeamAvoidance
from app.engine.types import Colour, UserError

Seat = tuple[int, int, int]  # board, red, black


@dataclass(frozen=True, slots=True)
class SwapPlayers:
    """Players ``a`` and ``b`` exchange their seats (board and colour, or the bye)."""

    a: int
    b: int


@dataclass(frozen=True, slots=True)
class SwapColours:
    """Red and Black of one board exchange colours."""

    board: int


@dataclass(frozen=True, slots=True)
class SetPair:
    """``a`` plays ``b`` on ``a``'s board (``a`` keeps the colour); their former opponents meet on ``b``'s board."""

    a: int
    b: int


Change = SwapPlayers | SwapColours | SetPair


class BreakKind(enum.Enum):
    REMATCH = "rematch"  # H1
    TEAMMATES = "teammates"  # H2
    COLOUR = "colour"  # H3
    SECOND_BYE = "second_bye"  # H4
    AVOIDANCE = "avoidance"  # an absolute avoidance (同单位 / 同地区 / 指定回避)
    WEAK_AVOIDANCE = "weak_avoidance"  # a weak avoidance: a warning

    @property
    def zh(self) -> str:
        return {
            BreakKind.REMATCH: "重复对局",
            BreakKind.TEAMMATES: "同队相遇",
            BreakKind.COLOUR: "先后手违规",
            BreakKind.SECOND_BYE: "第二次轮空",
            BreakKind.AVOIDANCE: "违反绝对回避",
            BreakKind.WEAK_AVOIDANCE: "违反尽量回避",
        }[self]


@dataclass(frozen=True, slots=True)
class RuleBreak:
    kind: BreakKind
    players: tuple[int, ...]
    zh: str
    en: str


def _where(games: Sequence[Seat], byes: Sequence[int], no: int) -> tuple[int, Colour | None]:
    for i, (_board, red, black) in enumerate(games):
        if no == red:
            return i, Colour.RED
        if no == black:
            return i, Colour.BLACK
    if no in byes:
        return -1, None
    raise UserError(f"{no} 号不在本轮编排中", f"player {no} is not in this round's pairing")


def apply_change(
    games: Sequence[Seat], byes: Sequence[int], change: Change
) -> tuple[tuple[Seat, ...], tuple[int, ...]]:
    """The pairing after the change (boards keep their numbers)."""
    out = [list(g) for g in games]
    bye_list = list(byes)
    match change:
        case SwapColours(board):
            for g in out:
                if g[0] == board:
                    g[1], g[2] = g[2], g[1]
                    break
            else:
                raise UserError(f"本轮没有第 {board} 台", f"no board {board} in this round")
        case SwapPlayers(a, b):
            if a == b:
                raise UserError("请选择两名不同的棋手", "choose two different players")
            ia, ca = _where(games, byes, a)
            ib, cb = _where(games, byes, b)
            _put(out, bye_list, ia, ca, b, a)
            _put(out, bye_list, ib, cb, a, b)
        case SetPair(a, b):
            if a == b:
                raise UserError("请选择两名不同的棋手", "choose two different players")
            ia, ca = _where(games, byes, a)
            ib, cb = _where(games, byes, b)
            if ia == ib and ia >= 0:
                return tuple((g[0], g[1], g[2]) for g in out), tuple(bye_list)  # already paired together
            if ia < 0:
                raise UserError(
                    f"{a} 号本轮轮空，请先安排其对局", f"player {a} has the bye; give them a board first"
                )
            partner_a = out[ia][2] if ca is Colour.RED else out[ia][1]
            # b goes where a's opponent sat; a's opponent goes where b sat
            _put(out, bye_list, ia, ca.other if ca else None, b, partner_a)
            _put(out, bye_list, ib, cb, partner_a, b)
    return tuple((g[0], g[1], g[2]) for g in out), tuple(sorted(bye_list))


def _put(
    out: list[list[int]], byes: list[int], index: int, colour: Colour | None, new: int, old: int
) -> None:
    if index < 0:
        byes[byes.index(old)] = new
        return
    slot = 1 if colour is Colour.RED else 2
    if out[index][slot] != old:  # already moved by the other half of a swap
        return
    out[index][slot] = new


def rule_breaks(
    players: Mapping[int, PairingPlayer],
    games: Sequence[Seat],
    byes: Sequence[int],
    round_number: int,
    rules: PairingRules,
    only: set[int] | None = None,
    constraints: RoundConstraints | None = None,
) -> tuple[RuleBreak, ...]:
    """Every hard constraint (H1–H4) the pairing breaks, for the games involving ``only`` (default: all),
    and every avoidance of ``constraints`` it breaks (absolute ones, and weak ones as a warning)."""
    avoid_teams = rules.team_avoidance is TeamAvoidance.ALL_ROUNDS or (
        rules.team_avoidance is TeamAvoidance.ROUND_ONE and round_number == 1
    )
    found: list[RuleBreak] = []
    for board, red, black in games:
        if only is not None and not {red, black} & only:
            continue
        r, b = players[red], players[black]
        if black in r.opponents:
            found.append(
                RuleBreak(
                    BreakKind.REMATCH,
                    (red, black),
                    f"第 {board} 台：{red} 号与 {black} 号已经交过手",
                    f"board {board}: {red} and {black} have met before",
                )
            )
        if avoid_teams and r.team is not None and r.team == b.team:
            found.append(
                RuleBreak(
                    BreakKind.TEAMMATES,
                    (red, black),
                    f"第 {board} 台：{red} 号与 {black} 号同队（{r.team}）",
                    f"board {board}: {red} and {black} are teammates ({r.team})",
                )
            )
        for c in () if constraints is None else constraints.between(red, black):
            kind = BreakKind.AVOIDANCE if c.absolute else BreakKind.WEAK_AVOIDANCE
            found.append(
                RuleBreak(
                    kind,
                    (red, black),
                    f"第 {board} 台：{red} 号与 {black} 号{c.zh}",
                    f"board {board}: {red} and {black}: {c.en}",
                )
            )
        for p, colour in ((r, Colour.RED), (b, Colour.BLACK)):
            if not p.may_take(colour):
                found.append(
                    RuleBreak(
                        BreakKind.COLOUR,
                        (p.no,),
                        f"第 {board} 台：{p.no} 号执{colour.zh}将连续三局同色或先后手相差超过 2",
                        f"board {board}: {p.no} as {colour.value} gets the same colour a third "
                        "time in a row or an imbalance over 2",
                    )
                )
    for no in byes:
        if (only is None or no in only) and players[no].byes:
            found.append(
                RuleBreak(
                    BreakKind.SECOND_BYE, (no,), f"{no} 号已经轮空过一次", f"{no} has already had a bye"
                )
            )
    return tuple(found)
