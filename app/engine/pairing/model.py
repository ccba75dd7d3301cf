"""Values in and out of the Swiss pairing engine (RULES.md §5).

A :class:`PairingPlayer` is everything the rules need to know about one player of the pool; a
:class:`Pairing` is the engine's answer: boards with colours, the bye, and why each pair was made.

>>> p = PairingPlayer(no=7, score=4, colours=(Colour.RED, Colour.BLACK), opponents=frozenset({3, 9}),
...                   byes=0, float_history=(Float.NONE, Float.DOWN), team="天水")
>>> p.due_colour, p.imbalance
(<Colour.RED: 'red'>, 0)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from app.engine.types import Colour, UserError


class Float(enum.Enum):
    """How a player was paired in a previous round relative to their score group."""

    NONE = "none"
    DOWN = "down"  # paired with a lower score (or received the bye)
    UP = "up"  # paired with a higher score


@dataclass(frozen=True, slots=True)
class PairingPlayer:
    """One player of the pool as the pairing rules see them.

    ``colours`` are the colours of games played over the board, in order (forfeits and byes do not
    count, RULES.md §5 H3). ``opponents`` is everyone ever paired with, played or forfeited (H1).
    ``float_history`` has one entry per previous round. ``rank_key`` orders players inside a score
    group when the regulation says so (``ScoreGroupOrder.TIEBREAKS``): smaller sorts first (higher
    ranked); the sequence number always breaks the remaining ties.
    """

    no: int
    score: int
    colours: tuple[Colour, ...] = ()
    opponents: frozenset[int] = frozenset()
    byes: int = 0
    float_history: tuple[Float, ...] = ()
    team: str | None = None
    rating: int | None = None
    rank_key: tuple[int, ...] = ()

    @property
    def imbalance(self) -> int:
        """Red games minus black games (played over the board only)."""
        return sum(1 if c is Colour.RED else -1 for c in self.colours)

    @property
    def due_colour(self) -> Colour | None:
        """The opposite of the last colour played; ``None`` without any game played."""
        return self.colours[-1].other if self.colours else None

    def may_take(self, colour: Colour) -> bool:
        """H3: taking ``colour`` breaks neither three-in-a-row nor |red − black| ≤ 2."""
        if len(self.colours) >= 2 and self.colours[-1] is colour and self.colours[-2] is colour:
            return False
        return abs(self.imbalance + (1 if colour is Colour.RED else -1)) <= 2


class ColourReason(enum.Enum):
    """Why the red player got red (RULES.md §5 colour allocation)."""

    BOTH_DUE = "both_due"  # both players get their due colour (or one has none yet)
    HARD_CONSTRAINT = "hard_constraint"  # (a) the other way would break H3
    IMBALANCE = "imbalance"  # (b) the larger imbalance is reduced
    HIGHER_RANKED = "higher_ranked"  # (c) the higher-ranked player gets their due colour
    LOT = "lot"  # (d) no history: lot of the round, alternating by board

    @property
    def zh(self) -> str:
        return {
            ColourReason.BOTH_DUE: "双方均得应得先后手",
            ColourReason.HARD_CONSTRAINT: "另一种分配会使一方连续三局同色或先后手相差超过2",
            ColourReason.IMBALANCE: "先后手差较大的一方得到减小差距的先后手",
            ColourReason.HIGHER_RANKED: "双方应得先后手相同，排名较高者得应得先后手",
            ColourReason.LOT: "双方均无对局，按抽签结果逐台交替",
        }[self]


class FloatReason(enum.Enum):
    """Why a pair joins two different scores (S1)."""

    ODD_GROUP = "odd_group"  # the higher score group had an odd number of players
    CONSTRAINTS = "constraints"  # rematches / colours / teams left no complete pairing inside the group

    @property
    def zh(self) -> str:
        return {
            FloatReason.ODD_GROUP: "该积分组人数为奇数",
            FloatReason.CONSTRAINTS: "同分组内因已交手、先后手或同队限制无法全部配对",
        }[self]


@dataclass(frozen=True, slots=True)
class PairExplanation:
    """Why these two met and why the colours fell this way, as values and as a Chinese sentence."""

    same_score: bool
    score_difference: int
    floater: int | None  # the higher-scored player, who floated down; None when same score
    float_reason: FloatReason | None
    colour_reason: ColourReason
    zh: str
    constraints: tuple[str, ...] = ()  # what the pairing constraints (回避) decided here, in words


@dataclass(frozen=True, slots=True)
class PairedGame:
    board: int
    red: int
    black: int
    explanation: PairExplanation


@dataclass(frozen=True, slots=True)
class ByeExplanation:
    player: int
    score: int
    skipped: tuple[int, ...]  # lower-placed candidates who could not take it (no legal rest pairing)
    zh: str


@dataclass(frozen=True, slots=True)
class Pairing:
    """One round's pairing: boards from the top score down, the bye (if any) and the seed used."""

    games: tuple[PairedGame, ...]
    bye: int | None
    bye_explanation: ByeExplanation | None
    seed: int


class NoLegalPairing(UserError):
    """No pairing satisfies H1–H4; ``players`` are the sequence numbers concerned."""

    def __init__(self, zh: str, en: str, players: tuple[int, ...]) -> None:
        super().__init__(zh, en)
        self.players = players
