"""Formats as building blocks: an event is groups, a group is a sequence of stages (docs/architecture.md).

Real regulations combine a few blocks, so the blocks are modelled, not whole formats:

* a :class:`Stage` is a Swiss (``swiss``), a round robin (``round_robin``, single or double, in one
  table or in pools — 分组循环) or a knockout (``knockout``, single or double elimination);
* its **entrants** are everyone (the first stage), the top N of the stage before (``top``), the others of
  the stage before (``rest``: they keep playing, usually alongside the stage of the top players), or the
  top N of each pool of the stage before (``pool_top``);
* a stage ``alongside`` the one before it is played in the same rounds (∥);
* a knockout match is a ladder of :class:`LadderStep` s (slow, rapid, 超快, deciding), each with its
  games, colours and its own time control, set per kind of match (:class:`MatchFormat`);
* tiebreaks are named functions (:class:`Tiebreak`), chosen as a chain per stage.

The 2024 Tianshui event is ``swiss(8)``, then ``knockout(top 8)`` with ``swiss(rest, 3 rounds)``
alongside it:

>>> [s.kind.value for s in legacy_stages(11, 8, 8)]
['swiss', 'knockout', 'swiss']
>>> [(p.first_round, p.last_round) for p in plan_stages(legacy_stages(11, 8, 8))]
[(1, 8), (9, 11), (9, 11)]

Everything here is pure and immutable; :mod:`app.engine.regulations` holds these values and reads and
writes them as TOML. Pairing units are abstract numbers wherever the block allows it (a round-robin table
or a ladder does not care whether a unit is a player or a team).
"""

from __future__ import annotations

import enum
import functools
import math
from collections.abc import Mapping, Sequence

from app.engine.records import frozen

# --------------------------------------------------------------------------- time controls and games


@frozen
class TimeControl:
    """A time control: base minutes and increment per move; Black may have other minutes (红 6′ 黑 4′).

    ``black_minutes`` 0 means the same as Red. An increment of 0 is 包干 (sudden death).

    >>> TimeControl(20, 10).label, TimeControl(3, 0).label, TimeControl(6, 5, black_minutes=4).label
    ('20′+10″', '3′包干', '红6′黑4′+5″')
    """

    minutes: int
    increment_seconds: int
    black_minutes: int = 0

    @property
    def unequal(self) -> bool:
        return bool(self.black_minutes) and self.black_minutes != self.minutes

    @property
    def label(self) -> str:
        """``20′+10″`` as printed on table cards; ``3′包干``; ``红6′黑4′+5″``."""
        base = f"红{self.minutes}′黑{self.black_minutes}′" if self.unequal else f"{self.minutes}′"
        return f"{base}包干" if self.increment_seconds == 0 else f"{base}+{self.increment_seconds}″"

    @property
    def label_zh(self) -> str:
        if self.unequal:
            base = f"红方{self.minutes}分钟，黑方{self.black_minutes}分钟"
        else:
            base = f"每方{self.minutes}分钟"
        return f"{base}包干" if self.increment_seconds == 0 else f"{base}，每步加{self.increment_seconds}秒"

    @property
    def label_en(self) -> str:
        base = (
            f"Red {self.minutes} min, Black {self.black_minutes} min"
            if self.unequal
            else f"{self.minutes} min each"
        )
        return (
            f"{base}, sudden death"
            if self.increment_seconds == 0
            else f"{base} + {self.increment_seconds} s/move"
        )


class GameKind(enum.Enum):
    """The kind of a knockout game (values as stored in ``games.kind``)."""

    SLOW = "slow"  # 慢棋
    RAPID = "rapid"  # 快棋
    BLITZ = "blitz"  # 超快棋
    DECIDING = "deciding"  # 附加赛 / 决胜局

    @property
    def zh(self) -> str:
        return _GAME_KIND_ZH[self.value]

    @property
    def en(self) -> str:
        return self.value


_GAME_KIND_ZH = {"slow": "慢棋", "rapid": "快棋", "blitz": "超快棋", "deciding": "附加赛"}


class DecidingDraw(enum.Enum):
    """What a drawn last game of a match (the deciding game, 附加赛) means."""

    BLACK_WINS = "black_wins"  # 和棋黑胜 (2020 rules art. 30)
    REPEAT = "repeat"  # repeat with colours swapped until decisive


class PlacementRule(enum.Enum):
    """How the places of a knockout below the final are decided."""

    BRACKET = "bracket"  # play-offs: every place is played for (the losers play small brackets)
    STANDING = "standing"  # the 3rd-place match is played; below it by the earlier ranking (seeds)
    ROUND_LOST = "round_lost"  # by the round lost in (later first), then the earlier ranking; no play-offs

    @property
    def zh(self) -> str:
        return {
            PlacementRule.BRACKET: "附加赛决出全部名次",
            PlacementRule.STANDING: "赛三四名，其余按前一阶段名次",
            PlacementRule.ROUND_LOST: "按被淘汰轮次，同轮按前一阶段名次",
        }[self]


class ColourRule(enum.Enum):
    """How the colours of the first game of a ladder step are decided."""

    LOT = "lot"  # 抽签 (the program with a recorded seed, or a physical draw entered by the arbiter)
    HIGHER_SEED_CHOOSES = "higher_seed_chooses"  # 排名靠前者选择先后手
    LOT_LOSER_CHOOSES = "lot_loser_chooses"  # 抽签负者选择先后手
    SWAP = "swap"  # 换先: the opposite of the game before

    @property
    def zh(self) -> str:
        return {
            ColourRule.LOT: "抽签",
            ColourRule.HIGHER_SEED_CHOOSES: "排名靠前者选择",
            ColourRule.LOT_LOSER_CHOOSES: "抽签负者选择",
            ColourRule.SWAP: "换先",
        }[self]


@frozen
class LadderStep:
    """One step of a match: ``games`` games of one kind and time control (2 = 分先两局, colours swapped).

    A step of one game is won by winning the game; a step of several games by scoring more over them. A
    tied step leads to the next one; the last step is a single deciding game whose draw follows the
    match's :class:`DecidingDraw`.
    """

    kind: GameKind = GameKind.SLOW
    games: int = 1
    time: TimeControl = TimeControl(20, 5)
    colours: ColourRule = ColourRule.SWAP


class MatchScope(enum.Enum):
    """Which matches of a knockout a :class:`MatchFormat` is for (the most particular one applies)."""

    ALL = "all"
    FINAL = "final"  # 决赛
    THIRD_PLACE = "third_place"  # 三四名决赛
    SEMI_FINAL = "semi_final"  # 半决赛
    QUARTER_FINAL = "quarter_final"  # 四分之一决赛
    PLACEMENT = "placement"  # matches for places 5 and below
    WINNERS = "winners"  # double elimination: the winners' bracket (胜者组)
    LOSERS = "losers"  # the losers' bracket (败者组)
    GRAND_FINAL = "grand_final"  # 总决赛

    @property
    def zh(self) -> str:
        return {
            MatchScope.ALL: "各场",
            MatchScope.FINAL: "决赛",
            MatchScope.THIRD_PLACE: "三四名决赛",
            MatchScope.SEMI_FINAL: "半决赛",
            MatchScope.QUARTER_FINAL: "四分之一决赛",
            MatchScope.PLACEMENT: "名次赛",
            MatchScope.WINNERS: "胜者组",
            MatchScope.LOSERS: "败者组",
            MatchScope.GRAND_FINAL: "总决赛",
        }[self]

    @property
    def particularity(self) -> int:
        """Higher = more particular; the most particular scope that fits a match applies."""
        if self is MatchScope.ALL:
            return 0
        if self in (MatchScope.WINNERS, MatchScope.LOSERS, MatchScope.PLACEMENT):
            return 1
        return 2


@frozen
class MatchFormat:
    """A knockout match as a ladder of steps, for the matches of ``scope``.

    >>> m = legacy_match_format(TimeControl(20, 5), TimeControl(10, 3), TimeControl(5, 3))
    >>> [(s.kind.value, s.games, s.time.label, s.colours.value) for s in m.steps]
    [('slow', 1, '20′+5″', 'lot'), ('rapid', 1, '10′+3″', 'swap'), ('deciding', 1, '5′+3″', 'higher_seed_chooses')]
    """

    scope: MatchScope = MatchScope.ALL
    steps: tuple[LadderStep, ...] = ()
    deciding_draw: DecidingDraw = DecidingDraw.BLACK_WINS

    @property
    def description_zh(self) -> str:
        parts = []
        for i, s in enumerate(self.steps):
            games = f"{s.games}局" if s.games > 1 else ""
            colours = s.colours.zh if i else f"先后手{s.colours.zh}"
            parts.append(f"{s.kind.zh}{games}（{s.time.label}，{colours}）")
        draw = "和棋黑胜" if self.deciding_draw is DecidingDraw.BLACK_WINS else "和棋则换先重赛至分出胜负"
        return "，平则".join(parts) + f"；最后一局{draw}"


@functools.cache
def legacy_match_format(
    slow: TimeControl, rapid: TimeControl, deciding: TimeControl, draw: DecidingDraw = DecidingDraw.BLACK_WINS
) -> MatchFormat:
    """Today's match (docs/rules.md §7): slow game by lot, swapped rapid game, deciding game chosen by the higher seed."""
    return MatchFormat(
        MatchScope.ALL,
        (
            LadderStep(GameKind.SLOW, 1, slow, ColourRule.LOT),
            LadderStep(GameKind.RAPID, 1, rapid, ColourRule.SWAP),
            LadderStep(GameKind.DECIDING, 1, deciding, ColourRule.HIGHER_SEED_CHOOSES),
        ),
        draw,
    )


# --------------------------------------------------------------------------- tiebreaks


class Tiebreak(enum.Enum):
    """One link of a ranking chain after 积分: a named function of the ranking input (docs/rules.md §6).

    The Swiss chain of the 2024 event is 对手分, 胜局, 犯规, 后走局数, 后走胜局, 前轮成绩; a round robin's
    is 直胜, 小分, 胜局, 后走局数, 后走胜局, 犯规, 抽签 (:data:`ROUND_ROBIN_CHAIN`).
    """

    OPPONENT_SCORE = "opponent_score"  # 对手分
    WINS = "wins"  # 胜局
    VIOLATIONS = "violations"  # 犯规, fewer first
    BLACK_GAMES = "black_games"  # 后走局数
    BLACK_WINS = "black_wins"  # 后走胜局
    PROGRESSIVE = "progressive"  # 累进分
    HEAD_TO_HEAD = "head_to_head"  # 直胜: the points among the tied players (a mini-table for 3 or more)
    SONNEBORN_BERGER = "sonneborn_berger"  # 小分: each opponent's score, whole for a win, half for a draw
    LOT = "lot"  # 抽签: a lot drawn when the stage began (recorded), fewer first
    DROP_FIRST_ROUNDS = "drop_first_rounds"  # 去除第一轮得分，再去除第二轮 … (the score without them)
    PREVIOUS_ROUNDS = "previous_rounds"  # 比较前一轮成绩，直至区分

    @property
    def zh(self) -> str:
        return _TIEBREAK_ZH[self.value]  # by value: hashing the member costs more (read on every ranking)

    @property
    def en(self) -> str:
        return self.value.replace("_", " ")

    @property
    def expands(self) -> bool:
        """A comparison of several score levels rather than one value (must close the chain)."""
        return self in (Tiebreak.PREVIOUS_ROUNDS, Tiebreak.DROP_FIRST_ROUNDS)


_TIEBREAK_ZH = {
    "opponent_score": "对手分",
    "wins": "胜局",
    "violations": "犯规",
    "black_games": "后走局数",
    "black_wins": "后走胜局",
    "progressive": "累进分",
    "head_to_head": "直胜",
    "sonneborn_berger": "小分",
    "lot": "抽签",
    "drop_first_rounds": "去除前轮得分",
    "previous_rounds": "前轮成绩",
}

#: the round-robin chain of 《象棋竞赛规则》 (2020): 积分, then these (each a setting)
ROUND_ROBIN_CHAIN: tuple[Tiebreak, ...] = (
    Tiebreak.HEAD_TO_HEAD,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.WINS,
    Tiebreak.BLACK_GAMES,
    Tiebreak.BLACK_WINS,
    Tiebreak.VIOLATIONS,
    Tiebreak.LOT,
)


@frozen
class ChainChoice:
    """The tiebreaks a stage's own chain may be built from, and the chain it has when it sets none."""

    offered: tuple[Tiebreak, ...]
    default: tuple[Tiebreak, ...]


def stage_tiebreaks(kind: StageKind) -> ChainChoice:
    """What a stage of ``kind`` may put in its own chain (the 赛制 dialog's choices).

    A round robin: the criteria of the rulebook's round-robin article (直胜, 小分, 胜局, 后走局数, 后走胜局,
    犯规, 抽签). A Swiss stage ranks by the regulation's ``[tiebreaks]`` chain; its own chain is used only
    by the single round robin it becomes with ``round_robin_up_to``, so it offers the same. A knockout
    places its players by the bracket: nothing. A regulation file may still give other names (the
    loader checks the chain itself: no repeats, an expanding criterion last)."""
    if kind is StageKind.KNOCKOUT:
        return ChainChoice((), ())
    return ChainChoice(ROUND_ROBIN_CHAIN, ROUND_ROBIN_CHAIN)


# --------------------------------------------------------------------------- stages


class StageKind(enum.Enum):
    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    KNOCKOUT = "knockout"

    @property
    def zh(self) -> str:
        return {StageKind.SWISS: "积分编排", StageKind.ROUND_ROBIN: "循环赛", StageKind.KNOCKOUT: "淘汰赛"}[
            self
        ]

    @property
    def en(self) -> str:
        return {
            StageKind.SWISS: "Swiss",
            StageKind.ROUND_ROBIN: "round robin",
            StageKind.KNOCKOUT: "knockout",
        }[self]


class Entrants(enum.Enum):
    """Who enters a stage (its pool)."""

    ALL = "all"  # every player of the group (the first stage)
    TOP = "top"  # the top ``count`` of the stage before
    REST = (
        "rest"  # the players of the stage before that no other stage took (with ``count``: below that place)
    )
    POOL_TOP = "pool_top"  # the top ``count`` of each pool of the stage before (分组循环 → 决赛)

    def zh(self, count: int) -> str:
        return {
            Entrants.ALL: "全部棋手",
            Entrants.TOP: f"前一阶段前 {count} 名",
            Entrants.REST: f"前一阶段第 {count + 1} 名及以后的其余棋手" if count else "前一阶段其余棋手",
            Entrants.POOL_TOP: f"各小组前 {count} 名",
        }[self]


class PoolDraw(enum.Enum):
    """How the entrants of a pooled round robin are put into pools (分组)."""

    SNAKE = "snake"  # 蛇形排列 by the seeding order
    LOT = "lot"  # 抽签

    @property
    def zh(self) -> str:
        return "蛇形分组" if self is PoolDraw.SNAKE else "抽签分组"


class Seeding(enum.Enum):
    """The order a stage numbers its entrants in (table numbers of a round robin, seeds of a knockout)."""

    PREVIOUS = "previous"  # the ranking of the stage before; in the first stage the sequence numbers
    RATING = "rating"  # by rating (unrated after, by sequence number)
    LOT = "lot"  # by lot, with a recorded seed

    @property
    def zh(self) -> str:
        return {
            Seeding.PREVIOUS: "按前一阶段名次（首阶段按序号）",
            Seeding.RATING: "按等级分",
            Seeding.LOT: "抽签",
        }[self]


class Elimination(enum.Enum):
    SINGLE = "single"  # 单败淘汰
    DOUBLE = "double"  # 双败淘汰: winners' and losers' brackets and a grand final

    @property
    def zh(self) -> str:
        return "单败淘汰" if self is Elimination.SINGLE else "双败淘汰"


class WithdrawalRule(enum.Enum):
    """What becomes of a round-robin player's games after a withdrawal (退赛)."""

    HALF = "half"  # before half of the games: all annulled; after: the rest are forfeits (the rulebook)
    ANNUL = "annul"  # always annulled
    STAND = "stand"  # played games stand, the rest are forfeits

    @property
    def zh(self) -> str:
        return {
            WithdrawalRule.HALF: "赛满一半前退赛则全部成绩取消，之后退赛则余下对局按弃权",
            WithdrawalRule.ANNUL: "退赛者全部成绩取消",
            WithdrawalRule.STAND: "已赛成绩有效，余下对局按弃权",
        }[self]


@frozen
class Stage:
    """One stage of a group. Which keys belong to which kind: :data:`STAGE_KEYS`.

    * ``swiss``: ``rounds``; ``round_robin_up_to`` plays a single round robin instead when the stage has
      that many entrants or fewer ("Swiss for most groups, round robin for a group of 8 or fewer").
    * ``round_robin``: ``cycles`` (1 单循环, 2 双循环), ``pools`` (分组循环; entrants put in by
      ``pool_draw``), table numbers by ``seeding``, ``withdrawal``; ``swap_last_rounds`` (双循环 only) plays
      the first cycle's last two rounds in the other order (FIDE Handbook C.05 Annex 1).
    * ``knockout``: ``elimination``, ``seeding``, ``places`` (absent = the ``[knockout]`` placement),
      ``matches`` (the ladders; empty = the ``[knockout]`` time controls), ``grand_final_reset`` (double
      elimination), ``qualifier`` (the first round of a bracket with byes is a qualifier, 资格赛).
    * every kind: ``name``, ``entrants`` and ``count``, ``alongside``, ``tiebreaks`` (empty = the default
      chain of its kind).
    """

    kind: StageKind
    name: str = ""
    entrants: Entrants = Entrants.ALL
    count: int = 0
    alongside: bool = False
    tiebreaks: tuple[Tiebreak, ...] = ()
    # swiss
    rounds: int = 0
    round_robin_up_to: int = 0
    # round robin
    cycles: int = 1
    pools: int = 1
    pool_draw: PoolDraw = PoolDraw.SNAKE
    withdrawal: WithdrawalRule = WithdrawalRule.HALF
    swap_last_rounds: bool = (
        False  # double round robin: FIDE C.05's swap of the first cycle's last two rounds
    )
    # round robin and knockout
    seeding: Seeding = Seeding.PREVIOUS
    # knockout
    elimination: Elimination = Elimination.SINGLE
    places: PlacementRule | None = None  # None: the regulation's [knockout] placement
    matches: tuple[MatchFormat, ...] = ()
    grand_final_reset: bool = True
    qualifier: bool = False

    @property
    def title_zh(self) -> str:
        if self.name:
            return self.name
        if self.kind is StageKind.ROUND_ROBIN:
            cycle = "双循环" if self.cycles == 2 else "单循环" if self.cycles == 1 else f"{self.cycles}循环"
            return f"分{self.pools}组{cycle}" if self.pools > 1 else cycle
        if self.kind is StageKind.KNOCKOUT:
            return self.elimination.zh
        return "积分编排"

    def describe_zh(self) -> str:
        """One line for the regulation summary and the settings: what the stage is."""
        who = self.entrants.zh(self.count)
        if self.kind is StageKind.SWISS:
            extra = f"（不多于 {self.round_robin_up_to} 人时改为单循环）" if self.round_robin_up_to else ""
            return f"{who}积分编排 {self.rounds} 轮{extra}"
        if self.kind is StageKind.ROUND_ROBIN:
            pools = f"，{self.pool_draw.zh}" if self.pools > 1 else ""
            swap = "，第一循环最后两轮互换" if self.swap_last_rounds else ""
            return f"{who}{self.title_zh}{pools}{swap}"
        reset = (
            ""
            if self.elimination is Elimination.SINGLE or not self.grand_final_reset
            else "（总决赛败者组胜者胜则加赛一场）"
        )
        places = f"，{self.places.zh}" if self.places is not None else ""
        return f"{who}{self.elimination.zh}{reset}{places}"


#: the keys a stage of each kind may set in the regulation file (the others name a different kind)
COMMON_STAGE_KEYS = frozenset({"kind", "name", "entrants", "count", "alongside", "tiebreaks"})
STAGE_KEYS: dict[StageKind, frozenset[str]] = {
    StageKind.SWISS: COMMON_STAGE_KEYS | {"rounds", "round_robin_up_to"},
    StageKind.ROUND_ROBIN: COMMON_STAGE_KEYS
    | {"cycles", "pools", "pool_draw", "withdrawal", "seeding", "swap_last_rounds"},
    StageKind.KNOCKOUT: COMMON_STAGE_KEYS
    | {"elimination", "seeding", "places", "matches", "grand_final_reset", "qualifier"},
}

MAX_ROUND_ROBIN = 24  # players (units) in one round-robin table
MAX_KNOCKOUT = 128
MAX_POOLS = 32


def legacy_stages(rounds: int, swiss_rounds: int, knockout_size: int) -> tuple[Stage, ...]:
    """The stages of the old format keys: a pure Swiss, or Swiss then top-N knockout ∥ Swiss of the rest.

    >>> [s.rounds for s in legacy_stages(9, 9, 0)]
    [9]
    """
    if not knockout_size:
        return (Stage(StageKind.SWISS, rounds=rounds),)
    return (
        Stage(StageKind.SWISS, rounds=swiss_rounds),
        Stage(StageKind.KNOCKOUT, entrants=Entrants.TOP, count=knockout_size),
        Stage(StageKind.SWISS, entrants=Entrants.REST, alongside=True, rounds=rounds - swiss_rounds),
    )


def legacy_shape(stages: Sequence[Stage]) -> tuple[int, int, int] | None:
    """(rounds, swiss_rounds, knockout_size) when the stages are exactly an old-style format, else None."""
    if len(stages) == 1 and stages[0] == Stage(StageKind.SWISS, rounds=stages[0].rounds):
        return stages[0].rounds, stages[0].rounds, 0
    if len(stages) == 3:
        swiss, ko, rest = stages
        expected = legacy_stages(swiss.rounds + rest.rounds, swiss.rounds, ko.count)
        if stages[0] == expected[0] and rest == expected[2] and ko == expected[1]:
            return swiss.rounds + rest.rounds, swiss.rounds, ko.count
    return None


# --------------------------------------------------------------------------- the plan of a group's rounds


def pool_sizes(entrants: int, pools: int) -> tuple[int, ...]:
    """Sizes of ``pools`` pools for ``entrants`` (differing by at most one, larger first).

    >>> pool_sizes(10, 3)
    (4, 3, 3)
    """
    pools = max(1, min(pools, entrants)) if entrants else max(1, pools)
    base, extra = divmod(entrants, pools)
    return tuple(base + (1 if i < extra else 0) for i in range(pools))


def round_robin_rounds(size: int, cycles: int = 1) -> int:
    """Rounds of a round robin of ``size`` units: one per unit for an odd number (each sits out once).

    >>> round_robin_rounds(8), round_robin_rounds(7), round_robin_rounds(6, cycles=2)
    (7, 7, 10)
    """
    if size < 2:
        return 0
    return (size if size % 2 else size - 1) * cycles


def knockout_depth(entrants: int) -> int:
    """Rounds of a single-elimination bracket of ``entrants`` (byes fill it up to a power of two)."""
    return max(1, math.ceil(math.log2(entrants))) if entrants > 1 else 0


def stage_round_count(stage: Stage, entrants: int | None) -> int | None:
    """How many rounds a stage takes with this many entrants (None: not known before its entrants are)."""
    if stage.kind is StageKind.SWISS:
        if stage.round_robin_up_to and entrants is not None and 2 <= entrants <= stage.round_robin_up_to:
            return round_robin_rounds(entrants)
        if stage.round_robin_up_to and entrants is None:
            return None
        return stage.rounds
    if entrants is None:
        return None
    if stage.kind is StageKind.ROUND_ROBIN:
        return max(
            (round_robin_rounds(n, stage.cycles) for n in pool_sizes(entrants, stage.pools)), default=0
        )
    depth = knockout_depth(entrants)
    if stage.elimination is Elimination.DOUBLE and entrants > 2:
        return 2 * depth + (1 if stage.grand_final_reset else 0)
    if stage.elimination is Elimination.DOUBLE:
        return 1 + (1 if stage.grand_final_reset else 0)
    return depth


def expected_entrants(stages: Sequence[Stage], index: int, group_size: int | None) -> int | None:
    """How many enter stage ``index`` when the group has ``group_size`` players (None: unknown)."""
    stage = stages[index]
    if stage.entrants is Entrants.ALL:
        return group_size
    source = source_stage(stages, index)
    before = group_size if source < 0 else expected_entrants(stages, source, group_size)
    if stage.entrants is Entrants.TOP:
        return stage.count if before is None else min(stage.count, before)
    if before is None:
        return None
    if stage.entrants is Entrants.POOL_TOP:
        prev = stages[source] if source >= 0 else None
        if prev is None or prev.kind is not StageKind.ROUND_ROBIN:
            return None
        return sum(min(stage.count, n) for n in pool_sizes(before, prev.pools))
    taken = sum(
        min(s.count, before)
        for j, s in enumerate(stages)
        if j != index and s.entrants is Entrants.TOP and source_stage(stages, j) == source
    )
    return max(0, before - max(taken, stage.count))


def source_stage(stages: Sequence[Stage], index: int) -> int:
    """The stage whose ranking stage ``index`` draws its entrants from (for ALL: -1, the group).

    A stage alongside a stage that took the top of stage k takes the rest of stage k too.

    >>> source_stage(legacy_stages(11, 8, 8), 1), source_stage(legacy_stages(11, 8, 8), 2)
    (0, 0)
    """
    stage = stages[index]
    if stage.entrants is Entrants.ALL or index == 0:
        return -1
    if stage.alongside:
        return source_stage(stages, index - 1)
    return index - 1


@frozen
class StagePlan:
    """A stage placed in the group's rounds: rounds ``first_round`` … ``last_round`` (0 = not known)."""

    index: int
    stage: Stage
    first_round: int
    rounds: int | None  # None until its entrants are known
    entrants: int | None

    @property
    def last_round(self) -> int:
        return 0 if self.rounds is None else self.first_round + self.rounds - 1

    def covers(self, round_number: int) -> bool:
        return self.rounds is not None and self.first_round <= round_number <= self.last_round


def plan_stages(
    stages: Sequence[Stage], group_size: int | None = None, known: Mapping[int, int] | None = None
) -> tuple[StagePlan, ...]:
    """The stages in the group's rounds. ``known`` gives the entrants of stages already begun (their pools
    are fixed); the others are estimated from ``group_size``. A stage whose length is unknown leaves the
    stages after it unplaced (first round 0)."""
    known = known or {}
    out: list[StagePlan] = []
    for i, stage in enumerate(stages):
        entrants = known.get(i, expected_entrants(stages, i, group_size))
        rounds = stage_round_count(stage, entrants)
        if i == 0:
            first = 1
        elif stage.alongside:
            first = out[-1].first_round
        else:
            previous_ends = [p.last_round for p in out if p.rounds is not None]
            unknown = any(p.rounds is None for p in out)
            first = 0 if unknown else max(previous_ends, default=0) + 1
        if first == 0:
            rounds = None
        out.append(StagePlan(i, stage, first, rounds, entrants))
    return tuple(out)


def total_rounds(plans: Sequence[StagePlan]) -> int | None:
    """The group's last round, or None while some stage's length is not known."""
    if any(p.rounds is None for p in plans):
        return None
    return max((p.last_round for p in plans), default=0)


def stages_in_round(plans: Sequence[StagePlan], round_number: int) -> tuple[StagePlan, ...]:
    return tuple(p for p in plans if p.covers(round_number))


def default_chain(stage: Stage, swiss_chain: tuple[Tiebreak, ...]) -> tuple[Tiebreak, ...]:
    """A stage's tiebreaks: its own, or the regulation's Swiss chain, or the round-robin chain."""
    if stage.tiebreaks:
        return stage.tiebreaks
    if stage.kind is StageKind.ROUND_ROBIN:
        return ROUND_ROBIN_CHAIN
    return swiss_chain
