"""Values in and out of the Swiss pairing engine (docs/rules.md §5).

A :class:`PairingPlayer` is everything the rules need to know about one player of the pool; a
:class:`Pairing` is the engine's answer: boards with colours, the bye, and why each pair was made.

>>> p = PairingPlayer(no=7, score=4, colours=(Colour.RED, Colour.BLACK), opponents=frozenset({3, 9}),
...                   byes=0, float_history=(Float.NONE, Float.DOWN), team="天水")
>>> p.due_colour, p.imbalance
(<Colour.RED: 'red'>, 0)
"""

from __future__ import annotations

import enum

from app.engine.records import frozen
from app.engine.types import Colour, UserError


class Float(enum.Enum):
    """How a player was paired in a previous round relative to their score group."""

    NONE = "none"
    DOWN = "down"  # paired with a lower score (or received the bye)
    UP = "up"  # paired with a higher score


@frozen
class PairingPlayer:
    """One player of the pool as the pairing rules see them.

    ``colours`` are the colours of games played over the board, in order (forfeits and byes do not
    count, docs/rules.md §5 H3). ``opponents`` is everyone ever paired with, played or forfeited (H1).
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
    run_limit: int = 2  # H3: games of one colour in a row at most (the regulation may allow more)
    difference_limit: int = 2  # H3: |red − black| at most

    @property
    def imbalance(self) -> int:
        """Red games minus black games (played over the board only)."""
        return 2 * self.colours.count(Colour.RED) - len(self.colours)

    @property
    def due_colour(self) -> Colour | None:
        """The opposite of the last colour played; ``None`` without any game played."""
        return self.colours[-1].other if self.colours else None

    def may_take(self, colour: Colour) -> bool:
        """H3: taking ``colour`` breaks neither three-in-a-row nor |red − black| ≤ 2 (or the limits the
        regulation sets instead: ``run_limit`` in a row, ``difference_limit`` apart)."""
        run = self.run_limit
        if len(self.colours) >= run and all(c is colour for c in self.colours[-run:]):
            return False
        return abs(self.imbalance + (1 if colour is Colour.RED else -1)) <= self.difference_limit


class ColourReason(enum.Enum):
    """Why the red player got red (docs/rules.md §5 colour allocation)."""

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

    @property
    def en(self) -> str:
        return {
            ColourReason.BOTH_DUE: "both players get their due colour",
            ColourReason.HARD_CONSTRAINT: "the other way round would give someone a third colour in a row or a difference above 2",
            ColourReason.IMBALANCE: "the player with the larger red − black difference gets the colour that reduces it",
            ColourReason.LOT: "neither has played yet: by the lot of the round, alternating by board",
            ColourReason.HIGHER_RANKED: "both are due the same colour; the higher-ranked player gets it",
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

    @property
    def en(self) -> str:
        return {
            FloatReason.ODD_GROUP: "the higher score group has an odd number of players",
            FloatReason.CONSTRAINTS: "rematches, colours or teams leave no complete pairing inside the group",
        }[self]


class FloaterChoice(enum.Enum):
    """Which rule chose *this* player to float (docs/rules.md §5: not S1; S2 before S3)."""

    ORDER = "order"  # S3: the lowest-ranked of the higher group meets the highest-ranked of the next
    HARD_RULE = "hard_rule"  # the natural floater / partner would break H1–H3
    COLOURS = "colours"  # S2: the natural choice would leave more players without their due colour
    SCORES = "scores"  # S1: the natural choice would make more floaters or longer floats elsewhere
    REPEATED_FLOAT = "repeated_float"  # S4: the natural choice would float someone twice running
    AVOIDANCE = "avoidance"  # W: the natural choice would make a weakly avoided pair (尽量回避)
    WHOLE_ROUND = "whole_round"  # equal locally; the whole round's optimum (S2–S4 elsewhere) decided


@frozen
class PairingQuality:
    """The pairing's value under the objective (engine docstring) and how it was proved.

    ``cuts`` pairs crossing each score cut, top first; ``long_floats`` score groups floated past
    (L); ``missed_colours`` players with a due colour who did not get it (S2, as allocated);
    ``order_cost`` S3; ``repeated_floats`` S4; ``weak_avoidances`` W (weakly avoided pairs made,
    counted once per avoidance broken). ``exact``: the pairing is the proved
    lexicographic optimum of the whole round; otherwise ``bounded_players`` were paired by the
    bounded step method (score-group steps on sparse edges, see the engine docstring).
    ``certified_blocks``: the sizes of the blocks proved on sparse candidates by an LP duality
    certificate (large events, :mod:`app.engine.pairing.large`); ``dense_steps``: the sizes of the
    bounded steps whose sparse candidates had no perfect pairing, redone on every legal pair.
    """

    cuts: tuple[int, ...]
    long_floats: int
    missed_colours: int
    order_cost: int
    repeated_floats: int
    exact: bool
    blocks: tuple[int, ...]  # sizes of the independent blocks the round was proved to split into
    bounded_players: int = 0
    solves: int = 0
    weak_avoidances: int = 0
    certified_blocks: tuple[int, ...] = ()
    dense_steps: tuple[int, ...] = ()


@frozen
class PairExplanation:
    """Why these two met and why the colours fell this way, as values and as a Chinese sentence."""

    same_score: bool
    score_difference: int
    floater: int | None  # the higher-scored player, who floated down; None when same score
    float_reason: FloatReason | None
    colour_reason: ColourReason
    zh: str
    en: str = ""
    floater_choice: FloaterChoice | None = None
    groups_skipped: int = 0  # whole score groups between the two players (a long float)
    chain: bool = False  # part of a chain of short floats through neighbouring groups
    constraints: tuple[str, ...] = ()  # what the pairing constraints (回避) decided here, in Chinese
    constraints_en: tuple[str, ...] = ()  # the same in English


@frozen
class PairedGame:
    board: int
    red: int
    black: int
    explanation: PairExplanation


@frozen
class ByeExplanation:
    player: int
    score: int
    skipped: tuple[int, ...]  # lower-placed candidates who could not take it (no legal rest pairing)
    zh: str
    en: str = ""


@frozen
class Pairing:
    """One round's pairing: boards from the top score down, the bye (if any) and the seed used."""

    games: tuple[PairedGame, ...]
    bye: int | None
    bye_explanation: ByeExplanation | None
    seed: int
    quality: PairingQuality | None = None


class NoLegalPairing(UserError):
    """No pairing satisfies H1–H4; ``players`` are the sequence numbers concerned."""

    def __init__(self, zh: str, en: str, players: tuple[int, ...]) -> None:
        super().__init__(zh, en)
        self.players = players
