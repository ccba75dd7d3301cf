"""The regulation (竞赛规程) of a tournament as one typed, immutable value.

Everything docs/rules.md calls a *setting* lives here, with the default of docs/rules.md. A tournament
stores its ``Regulations`` (as the dict of :func:`regulations_to_dict`) and every rule module
reads its settings from it. ``PRESETS["tianshui-2024"]`` is the 2024 Tianshui event exactly.

>>> reg = preset("tianshui-2024")
>>> [t.total for t in reg.prizes]
[27800, 7900, 3000]
>>> regulations_from_dict(regulations_to_dict(reg)) == reg
True
"""

from __future__ import annotations

import enum
import functools
import importlib
import sys
import types
import typing
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from app.engine import records
from app.engine.eligibility import RATING_RANK_MAX, Eligibility
from app.engine.formats import (
    COMMON_STAGE_KEYS,
    MAX_KNOCKOUT,
    MAX_POOLS,
    MAX_ROUND_ROBIN,
    STAGE_KEYS,
    ColourRule,
    Entrants,
    MatchFormat,
    Stage,
    StageKind,
    legacy_match_format,
    legacy_shape,
    legacy_stages,
    plan_stages,
    source_stage,
    total_rounds,
)
from app.engine.formats import DecidingDraw as DecidingDraw  # re-exported: rules modules read them here
from app.engine.formats import PlacementRule as PlacementRule
from app.engine.formats import Tiebreak as Tiebreak
from app.engine.formats import TimeControl as TimeControl
from app.engine.records import field, frozen
from app.engine.text import EVENT_NAME_MAX, GROUP_NAME_MAX, REGION_MAX, UNIT_MAX, clean_text
from app.engine.types import Colour, GameResult, UserError

if TYPE_CHECKING:  # a team competition's settings: imported when a regulation has one (_LATER)
    from app.engine.team_rules import TeamEvent


class TeamAvoidance(enum.Enum):
    """H2: when teammates may not meet (首轮同队队员回避)."""

    NONE = "none"
    ROUND_ONE = "round_one"
    ALL_ROUNDS = "all_rounds"


class SeedingOrder(enum.Enum):
    """How sequence numbers are given (docs/rules.md §3)."""

    LOT = "lot"  # 抽签
    RATING = "rating"  # by rating first, unrated drawn by lot after them


class RoundOnePairing(enum.Enum):
    """How round 1 of a Swiss is paired (the numbers in order of sequence number, or rating)."""

    HALVES = "halves"  # top half against bottom half: 1–n/2+1, 2–n/2+2 … (board 1's colours by lot)
    HALVES_BY_LOT = (
        "halves_by_lot"  # the top half's opponents drawn by lot from the bottom half (the rulebook)
    )
    ADJACENT = "adjacent"  # neighbours: 1–2, 4–3, 5–6, 8–7 … (board 1 the lower number Red, then alternating)

    @property
    def zh(self) -> str:
        return {
            RoundOnePairing.HALVES: "上半区对下半区（1对n/2+1）",
            RoundOnePairing.HALVES_BY_LOT: "上下半区抽签配对",
            RoundOnePairing.ADJACENT: "相邻序号配对（1-2、4-3、5-6…）",
        }[self]


class ScoreGroupOrder(enum.Enum):
    """S3: the order inside a score group."""

    SEQUENCE = "sequence"
    TIEBREAKS = "tiebreaks"


class DisqualifiedGames(enum.Enum):
    """What becomes of a disqualified player's games (the arbiter chooses; default below)."""

    STAND = "stand"
    ANNUL = "annul"  # opponents' results become forfeit wins


class ShortDrawViolation(enum.Enum):
    """Who is charged when a drawn game is recorded with too few moves."""

    BOTH = "both"
    BLACK_ONLY = "black_only"


@frozen
class Points:
    """Points per result (docs/rules.md §4). Draw points may depend on colour."""

    win: int = 2
    red_draw: int = 1
    black_draw: int = 1
    loss: int = 0
    bye: int = 2
    forfeit_win: int = 2
    forfeit_loss: int = 0

    def for_result(self, result: GameResult) -> tuple[int, int]:
        """(red points, black points) for a result; a pending game gives nothing yet."""
        match result:
            case GameResult.RED_WIN:
                return self.win, self.loss
            case GameResult.BLACK_WIN:
                return self.loss, self.win
            case GameResult.DRAW:
                return self.red_draw, self.black_draw
            case GameResult.BLACK_FORFEIT:
                return self.forfeit_win, self.forfeit_loss
            case GameResult.RED_FORFEIT:
                return self.forfeit_loss, self.forfeit_win
            case GameResult.DOUBLE_FORFEIT:
                return self.forfeit_loss, self.forfeit_loss
            case GameResult.PENDING:
                return 0, 0
        raise AssertionError(result)  # pragma: no cover


MAX_ROUNDS = 60  # a double round robin of 24 takes 46
MAX_GROUPS = 20
MAX_POINTS = 100
MAX_CAPACITY = 100_000
MAX_AMOUNT = 100_000_000  # 元
MAX_SETTING_INT = 2**53  # any whole-number setting (stored as JSON, read by every tool)


@frozen
class GroupFormat:
    """A group (组别) and its format: the stages it runs (docs/rules.md §1, :mod:`app.engine.formats`).

    The default is the 2024 event's: 8 Swiss rounds, then the top 8 play a knockout while the others
    continue the Swiss for 3 rounds. Old regulation files give ``rounds``, ``swiss_rounds`` and
    ``knockout_size`` instead of ``stages``; they are read as :func:`legacy_group` (see
    :func:`regulations_from_dict`).
    """

    name: str
    teams: bool = True
    stages: tuple[Stage, ...] = legacy_stages(11, 8, 8)
    eligibility: Eligibility = Eligibility()  # who may play in the group (参赛资格); open by default
    team_event: TeamEvent | None = None  # a team competition (团体赛): the group pairs teams, not players

    @property
    def legacy(self) -> tuple[int, int, int] | None:
        """(rounds, swiss_rounds, knockout_size) when the format is a Swiss with or without a top-N
        knockout (the format of old files and of the settings' simple table), else None."""
        return legacy_shape(self.stages)

    @property
    def knockout_size(self) -> int:
        """The size of a top-N knockout after a Swiss stage (0 = none)."""
        shape = self.legacy
        return shape[2] if shape else 0

    @property
    def swiss_rounds(self) -> int:
        """The Swiss rounds before a top-N knockout (the split), or all of them."""
        shape = self.legacy
        return shape[1] if shape else 0

    @property
    def rounds(self) -> int:
        """The group's rounds as far as the regulation alone says; a stage whose length depends on its
        entrants (a round robin, a stand-alone knockout) counts its largest possible length here — the
        services know the real number once the entrants are (:func:`app.engine.formats.plan_stages`)."""
        exact = total_rounds(plan_stages(self.stages))
        if exact is not None:
            return exact
        bound = total_rounds(plan_stages(self.stages, MAX_ROUND_ROBIN * MAX_POOLS))
        return bound if bound is not None else MAX_ROUNDS

    @property
    def first_swiss_rounds(self) -> int:
        """The rounds 1 … n that only a Swiss of every player plays (the command line's fast pairing
        handles those), or 0 when the first stage is something else."""
        first = self.stages[0]
        if first.kind is not StageKind.SWISS or first.round_robin_up_to:
            return 0
        plans = plan_stages(self.stages)
        others = [p.first_round for p in plans[1:] if p.first_round]
        return min([first.rounds, *(f - 1 for f in others)])

    def describe_zh(self) -> str:
        if self.team_event is not None:
            return self.team_event.describe_zh()
        return "；".join(f"第{i + 1}阶段 {s.describe_zh()}" for i, s in enumerate(self.stages))


def legacy_group(
    name: str, teams: bool = True, rounds: int = 11, swiss_rounds: int = 8, knockout_size: int = 8
) -> GroupFormat:
    """A group in the old terms: ``rounds`` in all, a knockout of the top ``knockout_size`` (0 = none)
    after ``swiss_rounds``, the others continuing the Swiss alongside it.

    >>> legacy_group("甲组", rounds=7, swiss_rounds=7, knockout_size=0).rounds
    7
    """
    _check_legacy(name, rounds, swiss_rounds, knockout_size)
    return GroupFormat(name, teams, legacy_stages(rounds, swiss_rounds, knockout_size))


def _check_legacy(name: str, rounds: int, swiss_rounds: int, knockout_size: int) -> None:
    if not 1 <= rounds <= MAX_ROUNDS:
        raise UserError(f"{name}：轮次数必须在 1–{MAX_ROUNDS} 之间", f"{name}: rounds must be 1-{MAX_ROUNDS}")
    if knockout_size and not 2 <= knockout_size <= MAX_KNOCKOUT:
        raise UserError(
            f"{name}：淘汰赛人数只能是 0（不设淘汰赛）或 2–{MAX_KNOCKOUT}",
            f"{name}: knockout size must be 0 (none) or 2-{MAX_KNOCKOUT}",
        )
    if knockout_size and not 1 <= swiss_rounds < rounds:
        raise UserError(
            f"{name}：分段前的积分编排轮次必须在 1 到 {rounds - 1} 之间",
            f"{name}: Swiss rounds before the split must be between 1 and {rounds - 1}",
        )
    if knockout_size:
        stage_rounds = (knockout_size - 1).bit_length()
        if rounds - swiss_rounds < stage_rounds:
            raise UserError(
                f"{name}：{knockout_size} 人淘汰赛需要 {stage_rounds} 轮",
                f"{name}: a knockout of {knockout_size} needs {stage_rounds} rounds",
            )


class LateEntryPoints(enum.Enum):
    """What a late entry gets for each round paired before they entered, when compensated."""

    BYE = "bye"  # a bye's points (按轮空计分)
    DRAW = "draw"  # a draw's points (按和棋计分; the lower of red's and black's draw points)


class AvoidanceStrength(enum.Enum):
    """How strongly two players are kept apart (pairing constraints: 绝对回避 / 尽量回避)."""

    ABSOLUTE = "absolute"  # 绝对回避: never paired in those rounds (no edge)
    WEAK = "weak"  # 尽量回避: paired only where avoiding them would cost S1 (ranked just below S1)

    @property
    def zh(self) -> str:
        return "绝对回避" if self is AvoidanceStrength.ABSOLUTE else "尽量回避"


class AvoidanceBasis(enum.Enum):
    """What two players share that makes them avoid each other."""

    UNIT = "unit"  # 同单位 (the player's unit; the team's name where no unit is given)
    REGION = "region"  # 同地区 (the player's region, 地区)

    @property
    def zh(self) -> str:
        return "同单位" if self is AvoidanceBasis.UNIT else "同地区"


@frozen
class AvoidanceRule:
    """Players sharing ``basis`` avoid each other in rounds ``from_round``..``to_round`` (0 = the last)."""

    basis: AvoidanceBasis
    strength: AvoidanceStrength = AvoidanceStrength.WEAK
    from_round: int = 1
    to_round: int = 0

    def applies(self, round_number: int) -> bool:
        return self.from_round <= round_number and (self.to_round == 0 or round_number <= self.to_round)

    @property
    def rounds_zh(self) -> str:
        if self.to_round == 0:
            return f"第{self.from_round}轮起" if self.from_round > 1 else "每轮"
        if self.to_round == self.from_round:
            return f"第{self.from_round}轮"
        return f"第{self.from_round}—{self.to_round}轮"


@frozen
class PairingRules:
    team_avoidance: TeamAvoidance = TeamAvoidance.ROUND_ONE
    seeding: SeedingOrder = SeedingOrder.LOT
    score_group_order: ScoreGroupOrder = ScoreGroupOrder.SEQUENCE
    late_entry_bye_compensation: bool = False  # late entries start with 0 points
    late_entry_points: LateEntryPoints = LateEntryPoints.BYE  # per missed round, when compensated
    avoidances: tuple[AvoidanceRule, ...] = ()  # 同单位 / 同地区 回避 beyond the team rule (H2)
    round_one: RoundOnePairing = RoundOnePairing.HALVES
    colour_run_limit: int = 2  # H3: at most this many games of one colour in a row (a league may allow 3)
    colour_difference_limit: int = 2  # H3: |red − black| at most this

    def late_entry_round_points(self, points: Points) -> int:
        """The points a late entry gets for each round paired before they entered (0 without compensation).

        >>> PairingRules(late_entry_bye_compensation=True).late_entry_round_points(Points())
        2
        >>> PairingRules(late_entry_bye_compensation=True, late_entry_points=LateEntryPoints.DRAW
        ...              ).late_entry_round_points(Points(red_draw=1, black_draw=2))
        1
        """
        if not self.late_entry_bye_compensation:
            return 0
        if self.late_entry_points is LateEntryPoints.DRAW:
            return min(points.red_draw, points.black_draw)
        return points.bye


@frozen
class TiebreakRules:
    chain: tuple[Tiebreak, ...] = (
        Tiebreak.OPPONENT_SCORE,
        Tiebreak.WINS,
        Tiebreak.VIOLATIONS,
        Tiebreak.BLACK_GAMES,
        Tiebreak.BLACK_WINS,
        Tiebreak.PREVIOUS_ROUNDS,
    )
    byes_and_forfeits_count_as_wins: bool = True
    knockout_games_count_as_black: bool = False


@frozen
class KnockoutRules:
    slow: TimeControl = TimeControl(20, 5)
    rapid: TimeControl = TimeControl(10, 3)
    deciding: TimeControl = TimeControl(5, 3)
    deciding_draw: DecidingDraw = DecidingDraw.BLACK_WINS
    placement: PlacementRule = PlacementRule.BRACKET

    @property
    def match_format(self) -> MatchFormat:
        """The ladder of every knockout match unless a stage sets its own (slow, rapid, deciding)."""
        return legacy_match_format(self.slow, self.rapid, self.deciding, self.deciding_draw)


class TeamMethod(enum.Enum):
    """How a team is ranked in an individual event (团体成绩)."""

    PLACES = "places"  # 名次之和: the sum of the counted members' places, fewer first
    POINTS = "points"  # 积分总和: the sum of the counted members' points, more first

    @property
    def zh(self) -> str:
        return "队员个人名次之和，少者列前" if self is TeamMethod.PLACES else "队员个人积分之和，多者列前"


class TeamTie(enum.Enum):
    """What separates two teams level on their sum (in this order, as the regulation lists them)."""

    BEST_PLACE = "best_place"  # 最高个人名次
    MEMBER_POINTS = "member_points"  # 最高个人积分, then the second highest …
    PLACES_SUM = "places_sum"  # 名次之和 of the counted members, fewer first (after a points sum)
    MEMBER_PLACES = "member_places"  # 最高个人名次, then the second best …

    @property
    def zh(self) -> str:
        return {
            TeamTie.BEST_PLACE: "最高个人名次",
            TeamTie.MEMBER_POINTS: "队员积分依次比较",
            TeamTie.PLACES_SUM: "名次之和",
            TeamTie.MEMBER_PLACES: "队员名次依次比较",
        }[self]


@frozen
class TeamRules:
    counted_members: int = 4  # sum of the places (or points) of this many members (the best ones)
    min_members: int = 4  # fewer ranked members → unranked (不足四名队员不计算团体成绩)
    method: TeamMethod = TeamMethod.PLACES
    ties: tuple[TeamTie, ...] = (TeamTie.BEST_PLACE,)


class PrizeKind(enum.Enum):
    INDIVIDUAL = "individual"
    TEAM = "team"


class PrizeCategory(enum.Enum):
    """Who an individual prize table is for (category prizes: 女子、老年、少年、本地、单位最佳)."""

    OVERALL = "overall"  # everyone of the group
    WOMEN = "women"  # 女子
    SENIORS = "seniors"  # 老年: age ≥ ``age`` on the first day of play
    JUNIORS = "juniors"  # 少年: age ≤ ``age`` on the first day of play
    LOCAL = "local"  # 本地: region in ``regions`` (digits: the start of a resident ID number)
    UNIT = "unit"  # 单位最佳: the players of ``units``

    @property
    def zh(self) -> str:
        return {
            PrizeCategory.OVERALL: "全组",
            PrizeCategory.WOMEN: "女子",
            PrizeCategory.SENIORS: "老年",
            PrizeCategory.JUNIORS: "少年",
            PrizeCategory.LOCAL: "本地",
            PrizeCategory.UNIT: "单位",
        }[self]


@frozen
class PrizeTable:
    """One table of prizes: by place from 1st, money (``amounts``) and/or non-cash prizes (``items``).

    An individual table is for the players of ``group`` in ``category``; its places follow the group's
    final ranking among those players.
    """

    name: str
    group: str
    kind: PrizeKind
    amounts: tuple[int, ...]  # 元, pre-tax, by place from 1st
    category: PrizeCategory = PrizeCategory.OVERALL
    age: int = 0  # seniors: at least this age; juniors: at most this age
    regions: tuple[str, ...] = ()  # local: 地区 names, or leading digits of a resident ID (6205 = 天水)
    units: tuple[str, ...] = ()  # unit: the units (or teams) whose players compete for it
    items: tuple[str, ...] = ()  # non-cash prizes by place (奖杯、证书 …); "" = none for that place

    @property
    def total(self) -> int:
        return sum(self.amounts)

    @property
    def places(self) -> int:
        return max(len(self.amounts), len(self.items))

    def amount(self, place: int) -> int:
        return self.amounts[place - 1] if place <= len(self.amounts) else 0

    def item(self, place: int) -> str:
        return self.items[place - 1] if place <= len(self.items) else ""


@frozen
class PrizeRules:
    """How prizes combine and are paid (奖金为税前)."""

    one_per_player: bool = True  # 不兼得：a player takes only the highest of the prizes they win
    withholding_percent: int = 20  # 代扣个人所得税 (偶然所得 20%) on the payout sheet; 0 = none


@frozen
class RecordDutyRules:
    designated_rounds: int = 3  # rounds 1..n: the arbiter designates
    top_boards: int = 10  # from then on: winners on boards 1..n
    draw_recorder: Colour = Colour.BLACK  # 和棋由黑方录谱
    min_draw_moves: int = 25  # 和棋录谱不足 25 回合 → violation
    short_draw_charged: ShortDrawViolation = ShortDrawViolation.BOTH


@frozen
class DisciplineRules:
    late_minutes: int = 10
    consecutive_forfeits_withdraw: int = 2  # 0 = never
    disqualified_games: DisqualifiedGames = DisqualifiedGames.STAND
    no_draw_offer_before_move: int = 25
    natural_limit_moves: int = 40  # 自然限着, checking moves not counted
    forfeits_withdrawn_unranked: bool = False  # withdrawn for consecutive forfeits: no place in the ranking


@frozen
class RegistrationRules:
    capacity: int = 160  # whole tournament
    deadline: datetime = datetime(2024, 7, 23, 18, 0)
    age_limit: int = 65  # full years on the first day of play
    fee_yuan: int = 100
    first_day_of_play: date = date(2024, 7, 26)


@frozen
class RoundTime:
    """When a round starts (the announced start, 宣布开赛时间), for the schedule players read.

    A round of a group with a knockout starts its knockout games at the same time; a rapid or deciding
    game follows its slow game at once, so it has no time of its own.

    >>> RoundTime(3, datetime(2024, 7, 26, 14, 30)).label
    '7月26日 14:30'
    """

    round: int
    starts: datetime

    @property
    def label(self) -> str:
        return f"{self.starts.month}月{self.starts.day}日 {self.starts:%H:%M}"


@frozen
class Regulations:
    event_name: str
    start_date: date
    end_date: date
    venue: str = ""
    groups: tuple[GroupFormat, ...] = ()
    points: Points = Points()
    swiss_time_control: TimeControl = TimeControl(20, 10)
    knockout: KnockoutRules = KnockoutRules()
    pairing: PairingRules = PairingRules()
    tiebreaks: TiebreakRules = TiebreakRules()
    team: TeamRules = TeamRules()
    prizes: tuple[PrizeTable, ...] = ()
    prize_rules: PrizeRules = PrizeRules()
    record_duty: RecordDutyRules = RecordDutyRules()
    discipline: DisciplineRules = DisciplineRules()
    registration: RegistrationRules = field(default_factory=RegistrationRules)
    schedule: tuple[RoundTime, ...] = ()  # the announced start of each round (any left out: 待定)

    def group(self, name: str) -> GroupFormat:
        for g in self.groups:
            if g.name == name:
                return g
        raise UserError(f"没有名为“{name}”的组别", f"no group named {name!r}")

    def prize_tables(self, group: str, kind: PrizeKind) -> tuple[PrizeTable, ...]:
        return tuple(t for t in self.prizes if t.group == group and t.kind is kind)

    def validate(self) -> None:
        """Raise :class:`UserError` naming the first inconsistent setting."""
        if clean_text(self.event_name, "赛事名称", "the event name", EVENT_NAME_MAX) != self.event_name:
            raise UserError("赛事名称前后有多余空白", "the event name has surrounding white space")
        clean_text(self.venue, "比赛地点", "the venue", EVENT_NAME_MAX)
        if not self.groups:
            raise UserError("规程中至少要有一个组别", "the regulation needs at least one group")
        names = [g.name for g in self.groups]
        if len(set(names)) != len(names):
            raise UserError("组别名称重复", "duplicate group names")
        if len(self.groups) > MAX_GROUPS:
            raise UserError(f"组别最多 {MAX_GROUPS} 个", f"at most {MAX_GROUPS} groups")
        for name, value in ((f.name, getattr(self.points, f.name)) for f in _fields(self.points)):
            if not 0 <= value <= MAX_POINTS:
                raise UserError(
                    f"计分 points.{name} = {value} 应在 0–{MAX_POINTS} 之间",
                    f"points.{name} = {value} must be 0-{MAX_POINTS}",
                )
        _check_points_order(self.points)
        _check_not_negative(self, "")
        for g in self.groups:
            if clean_text(g.name, "组别名称", "the group name", GROUP_NAME_MAX, required=True) != g.name:
                raise UserError(
                    f"组别名称“{g.name}”前后有多余空白", f"group name {g.name!r} has extra white space"
                )
            _validate_stages(g)
            if g.team_event is not None:
                _validate_team_event(g)
            _validate_eligibility(g)
        if not self.tiebreaks.chain:
            raise _bad(
                "tiebreaks.chain",
                "为空：至少要有一项名次区分办法（所有名次均不并列）",
                "is empty: at least one tiebreak is needed (no two players share a place)",
            )
        _validate_chain(self.tiebreaks.chain, "名次区分办法", "the tiebreak chain")
        for t in self.prizes:
            if t.group not in names:
                raise UserError(
                    f"奖励“{t.name}”的组别“{t.group}”不存在", f"prize table {t.name!r}: no group {t.group!r}"
                )
            if any(a < 0 for a in t.amounts):
                raise UserError(
                    f"奖励“{t.name}”中有负数金额", f"prize table {t.name!r} has a negative amount"
                )
        for t in self.prizes:
            _validate_prize_table(t)
        if not 0 <= self.prize_rules.withholding_percent <= 100:
            raise UserError("代扣税率应在 0–100% 之间", "the withholding rate must be 0-100%")
        for rule in self.pairing.avoidances:
            if rule.from_round < 1 or (rule.to_round and rule.to_round < rule.from_round):
                raise UserError(
                    f"{rule.basis.zh}回避的轮次范围无效（第{rule.from_round}轮至第{rule.to_round}轮）",
                    f"{rule.basis.value} avoidance: invalid rounds {rule.from_round}-{rule.to_round}",
                )
        if not 1 <= self.pairing.colour_run_limit <= 10:
            raise UserError(
                "连续同色局数上限 pairing.colour_run_limit 应在 1–10 之间",
                "pairing.colour_run_limit must be 1-10",
            )
        if not 1 <= self.pairing.colour_difference_limit <= 10:
            raise UserError(
                "先后手差上限 pairing.colour_difference_limit 应在 1–10 之间",
                "pairing.colour_difference_limit must be 1-10",
            )
        if self.team.min_members < 1 or self.team.counted_members < 1:
            raise UserError("团体计分人数必须至少为 1", "team counting needs at least one member")
        if len(set(self.team.ties)) != len(self.team.ties):
            raise UserError("团体成绩相同时的比较办法 team.ties 中有重复项", "team.ties repeats a criterion")
        if self.team.counted_members > self.team.min_members:
            raise _bad(
                "team.counted_members",
                f"= {self.team.counted_members} 多于计算团体成绩所需的队员人数"
                f"（team.min_members = {self.team.min_members}）",
                f"= {self.team.counted_members} is more than the members a team needs to be ranked "
                f"(team.min_members = {self.team.min_members})",
            )
        if not 2 <= self.registration.capacity <= MAX_CAPACITY:
            raise UserError(
                f"参赛人数上限应在 2–{MAX_CAPACITY} 之间", f"the capacity must be 2-{MAX_CAPACITY}"
            )
        for t in self.prizes:
            clean_text(t.name, "奖项名称", "the prize table name", EVENT_NAME_MAX, required=True)
            if len(t.amounts) > MAX_CAPACITY or any(a > MAX_AMOUNT for a in t.amounts):
                raise UserError(f"奖励“{t.name}”的金额或名次数过大", f"prize table {t.name!r} is too large")
        if self.end_date < self.start_date:
            raise UserError("结束日期早于开始日期", "the end date is before the start date")
        for key, day in (("start_date", self.start_date), ("end_date", self.end_date)):
            if not 1990 <= day.year <= 2200:
                raise _bad(
                    key,
                    f"= {day.isoformat()} 不合理（年份 1990–2200）",
                    f"= {day.isoformat()} is not plausible (years 1990-2200)",
                )
        most = max(g.rounds for g in self.groups)
        seen: set[int] = set()
        for slot in self.schedule:
            if not 1 <= slot.round <= most:
                raise UserError(
                    f"赛程中的第 {slot.round} 轮不存在（共 {most} 轮）",
                    f"the schedule names round {slot.round}, but there are {most} rounds",
                )
            if slot.round in seen:
                raise UserError(
                    f"赛程中第 {slot.round} 轮出现两次", f"the schedule names round {slot.round} twice"
                )
            seen.add(slot.round)

    def round_time(self, number: int) -> RoundTime | None:
        """The announced start of round ``number``, if the schedule has it."""
        return next((t for t in self.schedule if t.round == number), None)


def _validate_eligibility(g: GroupFormat) -> None:
    e = g.eligibility
    where_zh, where_en = f"{g.name}的参赛资格", f"{g.name}: eligibility"
    if e.born_from and e.born_to and e.born_from > e.born_to:
        raise UserError(f"{where_zh}：出生日期范围的起点晚于终点", f"{where_en}: born_from is after born_to")
    for value, key in ((e.min_age, "min_age"), (e.max_age, "max_age")):
        if not 0 <= value <= 120:
            raise UserError(f"{where_zh}：{key} 应在 0–120 之间", f"{where_en}: {key} must be 0-120")
    if e.min_age and e.max_age and e.min_age > e.max_age:
        raise UserError(f"{where_zh}：最小年龄大于最大年龄", f"{where_en}: min_age is above max_age")
    for value, key in ((e.min_rating, "min_rating"), (e.max_rating, "max_rating")):
        if not 0 <= value <= 9999:
            raise UserError(f"{where_zh}：{key} 应在 0–9999 之间", f"{where_en}: {key} must be 0-9999")
    if e.min_rating and e.max_rating and e.min_rating > e.max_rating:
        raise UserError(f"{where_zh}：等级分下限高于上限", f"{where_en}: min_rating is above max_rating")
    for value, key in ((e.min_rank, "min_rank"), (e.max_rank, "max_rank")):
        if not 0 <= value <= RATING_RANK_MAX:
            raise UserError(
                f"{where_zh}：等级分排名 {key} 应在 0–{RATING_RANK_MAX} 之间",
                f"{where_en}: {key} must be 0-{RATING_RANK_MAX}",
            )
    if e.min_rank and e.max_rank and e.min_rank > e.max_rank:
        raise UserError(
            f"{where_zh}：排名下限 min_rank（第 {e.min_rank} 名起）在上限 max_rank（前 {e.max_rank} 名）之后，无人可参加",
            f"{where_en}: min_rank {e.min_rank} is after max_rank {e.max_rank}: no one could play",
        )
    lists: list[tuple[tuple[str, ...], int, str, str]] = [
        (e.regions, REGION_MAX, "地区", "region"),
        (e.units, UNIT_MAX, "单位", "unit"),
    ]
    for values, limit, zh, en in lists:
        if len(values) > MAX_CAPACITY:
            raise UserError(f"{where_zh}：{zh}过多", f"{where_en}: too many {en}s")
        for text in values:
            if clean_text(text, f"{where_zh}的{zh}", f"{where_en}: the {en}", limit, required=True) != text:
                raise UserError(
                    f"{where_zh}：{zh}“{text}”前后有多余空白",
                    f"{where_en}: the {en} {text!r} has extra white space",
                )


def _validate_chain(chain: tuple[Tiebreak, ...], zh: str, en: str) -> None:
    if len(set(chain)) != len(chain):
        raise UserError(f"{zh}中有重复项", f"{en} repeats a criterion")
    expanding = [t for t in chain if t.expands]
    if len(expanding) > 1:
        raise UserError(
            f"{zh}中“{expanding[0].zh}”与“{expanding[1].zh}”只能选一",
            f"{en}: {expanding[0].en} and {expanding[1].en} exclude each other",
        )
    if expanding and chain[-1] is not expanding[0]:
        raise UserError(
            f"“比较前一轮成绩”只能放在{zh}的最后"
            if expanding[0] is Tiebreak.PREVIOUS_ROUNDS
            else f"“{expanding[0].zh}”只能放在{zh}的最后",
            f"'{expanding[0].en}' must be the last tiebreak",
        )


def _validate_stages(g: GroupFormat) -> None:
    """Raise :class:`UserError` naming the stage and setting of a group's format that cannot work."""
    if not g.stages:
        raise UserError(f"{g.name}：赛制至少要有一个阶段", f"{g.name}: the format needs at least one stage")
    if len(g.stages) > 8:
        raise UserError(f"{g.name}：赛制最多 8 个阶段", f"{g.name}: at most 8 stages")
    knockouts = 0
    for i, st in enumerate(g.stages):
        where_zh, where_en = (
            f"{g.name}第{i + 1}阶段（{st.kind.zh}）",
            f"{g.name} stage {i + 1} ({st.kind.value})",
        )

        def bad(zh: str, en: str, where_zh: str = where_zh, where_en: str = where_en) -> UserError:
            return UserError(f"{where_zh}：{zh}", f"{where_en}: {en}")

        clean_text(st.name, f"{where_zh}的名称", f"{where_en}: the name", GROUP_NAME_MAX)
        if i == 0 and (st.entrants is not Entrants.ALL or st.alongside):
            raise bad("第一阶段由全部棋手参加，不能与前一阶段同时进行", "the first stage takes everyone")
        if i > 0 and st.entrants is Entrants.ALL:
            raise bad("只有第一阶段由全部棋手参加", "only the first stage takes everyone")
        if st.entrants in (Entrants.TOP, Entrants.POOL_TOP) and not 1 <= st.count <= MAX_KNOCKOUT:
            raise bad(f"参加人数 count 应在 1–{MAX_KNOCKOUT} 之间", f"count must be 1-{MAX_KNOCKOUT}")
        if st.entrants is Entrants.ALL and st.count:
            raise bad("全部棋手参加的阶段不用 count", "count does not apply to a stage of everyone")
        if st.entrants is Entrants.POOL_TOP:
            source = source_stage(g.stages, i)
            if source < 0 or g.stages[source].kind is not StageKind.ROUND_ROBIN:
                raise bad("“各小组前 N 名”须接在分组循环之后", "pool_top must follow a round robin")
        if st.entrants is Entrants.REST and not any(
            o.entrants is Entrants.TOP and source_stage(g.stages, j) == source_stage(g.stages, i)
            for j, o in enumerate(g.stages)
            if j != i
        ):
            raise bad("“其余棋手”须有另一阶段取前 N 名", "rest needs another stage taking the top")
        if st.kind is StageKind.SWISS:
            if not 1 <= st.rounds <= MAX_ROUNDS:
                raise bad(f"积分编排轮次 rounds 应在 1–{MAX_ROUNDS} 之间", f"rounds must be 1-{MAX_ROUNDS}")
            if st.round_robin_up_to and not 3 <= st.round_robin_up_to <= MAX_ROUND_ROBIN:
                raise bad(
                    f"round_robin_up_to 应为 0 或 3–{MAX_ROUND_ROBIN}",
                    f"round_robin_up_to must be 0 or 3-{MAX_ROUND_ROBIN}",
                )
        if st.kind is StageKind.ROUND_ROBIN:
            if not 1 <= st.cycles <= 4:
                raise bad("循环次数 cycles 应在 1–4 之间", "cycles must be 1-4")
            if st.swap_last_rounds and st.cycles != 2:
                raise bad(
                    "swap_last_rounds（第一循环最后两轮互换）只用于双循环（cycles = 2）",
                    "swap_last_rounds is for a double round robin (cycles = 2)",
                )
            if not 1 <= st.pools <= MAX_POOLS:
                raise bad(f"小组数 pools 应在 1–{MAX_POOLS} 之间", f"pools must be 1-{MAX_POOLS}")
            if st.entrants is Entrants.TOP and st.count > MAX_ROUND_ROBIN * st.pools:
                raise bad(
                    f"每个循环组最多 {MAX_ROUND_ROBIN} 人", f"at most {MAX_ROUND_ROBIN} per round-robin table"
                )
        if st.kind is StageKind.KNOCKOUT:
            knockouts += 1
            if st.entrants is Entrants.TOP and st.count < 2:
                raise bad("淘汰赛至少 2 人", "a knockout needs at least 2 players")
            scopes = [m.scope for m in st.matches]
            if len(set(scopes)) != len(scopes):
                raise bad("同一类比赛的赛制重复", "a match scope is given twice")
            for m in st.matches:
                _validate_match(m, bad)
        _validate_chain(st.tiebreaks, f"{where_zh}的名次区分办法", f"{where_en}: the tiebreaks")
    if knockouts > 1:
        raise UserError(f"{g.name}：一个组别最多一个淘汰赛阶段", f"{g.name}: at most one knockout stage")
    total = total_rounds(plan_stages(g.stages))
    if total is not None and total > MAX_ROUNDS:
        raise UserError(
            f"{g.name}：全部阶段共 {total} 轮，超过 {MAX_ROUNDS} 轮",
            f"{g.name}: {total} rounds, over {MAX_ROUNDS}",
        )


def _validate_team_event(g: GroupFormat) -> None:
    """A team competition's settings (:func:`app.engine.team_rules.validate_team_event`), named by group."""
    assert g.team_event is not None

    def bad(zh: str, en: str) -> UserError:
        return UserError(f"{g.name}团体赛：{zh}", f"{g.name} team event: {en}")

    if not g.teams:
        raise bad("团体赛的组别须允许组队（teams = true）", "a team event needs teams = true")
    from app.engine.team_rules import validate_team_event

    validate_team_event(g.team_event, bad)
    _validate_match(g.team_event.match.tie_ladder, bad)


def _validate_match(m: MatchFormat, bad: typing.Callable[[str, str], UserError]) -> None:
    what = m.scope.zh
    if not m.steps:
        raise bad(f"{what}的赛制至少要有一个阶段（steps）", f"the {m.scope.value} match needs steps")
    if len(m.steps) > 12:
        raise bad(f"{what}的赛制最多 12 个阶段", f"the {m.scope.value} match has too many steps")
    for k, step in enumerate(m.steps):
        if not 1 <= step.games <= 8:
            raise bad(f"{what}第{k + 1}阶段的局数应在 1–8 之间", f"{m.scope.value} step {k + 1}: games 1-8")
        tc = step.time
        if not (0 < tc.minutes <= 600 and 0 <= tc.increment_seconds <= 600 and 0 <= tc.black_minutes <= 600):
            raise bad(f"{what}第{k + 1}阶段的用时无效", f"{m.scope.value} step {k + 1}: invalid time control")
    if m.steps[-1].games != 1:
        raise bad(
            f"{what}的最后一个阶段须为一局决胜局", f"the last step of the {m.scope.value} match is one game"
        )
    if m.steps[0].colours is ColourRule.SWAP:
        raise bad(
            f"{what}第一局的先后手不能是“换先”", f"the first game of the {m.scope.value} match cannot swap"
        )


def check_public_texts(reg: Regulations) -> None:
    """The regulation's texts printed on every public page — the event's name, the venue, the group
    and prize-table names — hold no phone or ID number (docs/rules.md §11); :class:`UserError` naming the
    key. Checked where a regulation enters (a new event, a change, a file, a snapshot), not when a
    stored one is read: the public outputs mask such a number as a second line of defence."""
    from app.engine.privacy import looks_personal

    texts = [("event_name", "赛事名称", "the event name", reg.event_name)]
    texts += [("venue", "比赛地点", "the venue", reg.venue)]
    texts += [(f"groups[{i}].name", "组别名称", "the group name", g.name) for i, g in enumerate(reg.groups)]
    texts += [
        (f"prizes[{i}].name", "奖项名称", "the prize table name", t.name) for i, t in enumerate(reg.prizes)
    ]
    for key, zh, en, text in texts:
        if text and looks_personal(text):
            raise UserError(
                f"{zh}（{key}）“{text}”中像是含有手机号、证件号或文件路径（它会印在公开的名单和网页上），请去掉",
                f"{en} ({key}) {text!r} seems to hold a phone or ID number or a path (it is printed on "
                "public lists and pages); take it out",
            )


def _check_points_order(p: Points) -> None:
    """A loss is worth no more than a draw, a draw no more than a win; a forfeit loss no more than a
    loss; a forfeit win and the bye between a loss and a win."""
    rules = (
        ("loss", p.loss, "win", p.win, p.loss < p.win, "少于胜局", "less than a win"),
        ("red_draw", p.red_draw, "win", p.win, p.red_draw <= p.win, "不多于胜局", "at most a win"),
        ("black_draw", p.black_draw, "win", p.win, p.black_draw <= p.win, "不多于胜局", "at most a win"),
        ("red_draw", p.red_draw, "loss", p.loss, p.red_draw >= p.loss, "不少于负局", "at least a loss"),
        ("black_draw", p.black_draw, "loss", p.loss, p.black_draw >= p.loss, "不少于负局", "at least a loss"),
        (
            "forfeit_loss",
            p.forfeit_loss,
            "loss",
            p.loss,
            p.forfeit_loss <= p.loss,
            "不多于负局",
            "at most a loss",
        ),
        ("forfeit_win", p.forfeit_win, "win", p.win, p.forfeit_win <= p.win, "不多于胜局", "at most a win"),
        (
            "forfeit_win",
            p.forfeit_win,
            "loss",
            p.loss,
            p.forfeit_win >= p.loss,
            "不少于负局",
            "at least a loss",
        ),
        ("bye", p.bye, "win", p.win, p.bye <= p.win, "不多于胜局", "at most a win"),
    )
    for key, value, other, other_value, ok, zh, en in rules:
        if not ok:
            raise _bad(
                f"points.{key}",
                f"= {value} 应{zh}（points.{other} = {other_value}）",
                f"= {value} must be {en} (points.{other} = {other_value})",
            )


def _check_not_negative(value: Any, where: str) -> None:
    """No whole-number setting is negative (an age, a time control, a fee, a number of minutes …)."""
    for f in _fields(value):
        item = getattr(value, f.name)
        path = f"{where}.{f.name}" if where else f.name
        if isinstance(item, bool) or _match_points(item):
            continue  # 场分 have their own range, -10–100: a team that does not appear may lose 场分
        if isinstance(item, int) and item < 0:
            raise _bad(path, f"= {item} 不能为负数", f"= {item} must not be negative")
        if _is_settings(item) and not isinstance(item, type):
            _check_not_negative(item, path)
        if isinstance(item, tuple):
            for i, part in enumerate(item):
                if _is_settings(part) and not isinstance(part, type):
                    _check_not_negative(part, f"{path}[{i}]")


def _validate_prize_table(t: PrizeTable) -> None:
    if any(a < 0 for a in t.amounts):  # (also checked above, for the message of old files)
        raise UserError(f"奖励“{t.name}”中有负数金额", f"prize table {t.name!r} has a negative amount")
    if t.kind is PrizeKind.TEAM and t.category is not PrizeCategory.OVERALL:
        raise UserError(
            f"团体奖励“{t.name}”不能限定类别", f"team prize table {t.name!r} cannot have a category"
        )
    if t.category in (PrizeCategory.SENIORS, PrizeCategory.JUNIORS) and not 1 <= t.age <= 120:
        raise UserError(
            f"奖励“{t.name}”须给出年龄界限（1–120 周岁）",
            f"prize table {t.name!r} needs an age limit (1-120)",
        )
    if t.category is PrizeCategory.LOCAL and not any(r.strip() for r in t.regions):
        raise UserError(
            f"本地奖励“{t.name}”须给出地区", f"local prize table {t.name!r} needs at least one region"
        )
    if t.category is PrizeCategory.UNIT and not any(u.strip() for u in t.units):
        raise UserError(f"单位奖励“{t.name}”须给出单位", f"unit prize table {t.name!r} needs a unit")
    if not t.places:
        raise UserError(f"奖励“{t.name}”没有任何名次", f"prize table {t.name!r} has no places")
    if max(len(t.items), len(t.regions), len(t.units)) > MAX_CAPACITY:
        raise UserError(f"奖励“{t.name}”的奖品、地区或单位过多", f"prize table {t.name!r} lists too many")
    for field_zh, field_en, values, limit in (
        ("奖品", "non-cash prize", t.items, ITEM_MAX),
        ("地区", "region", t.regions, REGION_MAX),
        ("单位", "unit", t.units, UNIT_MAX),
    ):
        for value in values:
            if (
                clean_text(
                    value, f"奖励“{t.name}”的{field_zh}", f"prize table {t.name!r}: the {field_en}", limit
                )
                != value
            ):
                raise UserError(
                    f"奖励“{t.name}”的{field_zh}“{value}”前后有多余空白",
                    f"prize table {t.name!r}: the {field_en} {value!r} has extra white space",
                )


ITEM_MAX = 50  # a non-cash prize's name (奖杯、证书、象棋一副 …)


# --------------------------------------------------------------------------- presets

_OPEN = "公开组"
_LOCAL = "天水本地组"

TIANSHUI_2024 = Regulations(
    event_name="2024“魅力天水 · 棋开得胜”互助保障杯职工象棋公开赛",
    start_date=date(2024, 7, 26),
    end_date=date(2024, 7, 28),
    venue="麦积区道北体育馆",
    groups=(
        legacy_group(_OPEN, teams=True, rounds=11, swiss_rounds=8, knockout_size=8),
        legacy_group(_LOCAL, teams=False, rounds=11, swiss_rounds=8, knockout_size=8),
    ),
    prizes=(
        PrizeTable(
            name="公开组个人",
            group=_OPEN,
            kind=PrizeKind.INDIVIDUAL,
            amounts=(10000, 5000, 3000, 2000, 1000, 800, 600, 600, 500, 500, 400, 400)
            + (300,) * 6
            + (200,) * 6,
        ),
        PrizeTable(
            name="天水本地组个人",
            group=_LOCAL,
            kind=PrizeKind.INDIVIDUAL,
            amounts=(2000, 1000, 800, 500) + (400,) * 4 + (300,) * 4 + (200,) * 4,
        ),
        PrizeTable(
            name="公开组团体",
            group=_OPEN,
            kind=PrizeKind.TEAM,
            amounts=(1000, 500, 400, 300) + (200,) * 4,
        ),
    ),
    registration=RegistrationRules(
        capacity=160,
        deadline=datetime(2024, 7, 23, 18, 0),
        age_limit=65,
        fee_yuan=100,
        first_day_of_play=date(2024, 7, 26),
    ),
)

PRESETS: dict[str, Regulations] = {"tianshui-2024": TIANSHUI_2024}
#: What the arbiter sees when choosing a preset (Chinese, English): never the key.
PRESET_TITLES: dict[str, tuple[str, str]] = {
    "tianshui-2024": (
        "2024 天水职工象棋公开赛规程（公开组、天水本地组；11 轮，前 8 名淘汰赛）",
        "2024 Tianshui workers' open (open and local groups; 11 rounds, top-8 knockout)",
    ),
}


def preset(name: str) -> Regulations:
    try:
        return PRESETS[name]
    except KeyError:
        raise UserError(
            f"没有名为“{name}”的预设规程（可用：{'、'.join(PRESETS)}）",
            f"no preset named {name!r} (available: {', '.join(PRESETS)})",
        ) from None


# --------------------------------------------------------------------------- (de)serialisation


def regulations_to_dict(reg: Regulations) -> dict[str, Any]:
    """A plain dict (str, int, bool, list, dict only) that JSON and TOML can both hold."""
    result = _to_plain(reg)
    assert isinstance(result, dict)
    return result


def regulations_from_dict(data: dict[str, Any]) -> Regulations:
    """Build and validate regulations; a wrong key or value raises :class:`UserError` naming it.

    A group given in the old terms (``rounds``, ``swiss_rounds``, ``knockout_size``; every file written
    before stages existed) is read as the same stages (:func:`legacy_group`); a stage key that belongs to
    another kind of stage is named.
    """
    data = _with_stages(data)
    reg = _from_plain(Regulations, data, "regulations")
    assert isinstance(reg, Regulations)
    reg.validate()
    return reg


def regulations_to_toml(reg: Regulations) -> str:
    import tomli_w

    text: str = tomli_w.dumps(regulations_to_dict(reg))
    return text


#: the deepest nesting of tables and lists a regulation file may have (the settings need 4)
TOML_MAX_DEPTH = 16


def _depth(value: Any, limit: int) -> int:
    """The nesting depth of a parsed TOML value, counting no further than ``limit + 1``."""
    if limit < 0:
        return 1
    if isinstance(value, dict):
        return 1 + max((_depth(v, limit - 1) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v, limit - 1) for v in value), default=0)
    return 0


def parse_toml(text: str, what_zh: str = "规程文件", what_en: str = "the regulation file") -> dict[str, Any]:
    """A TOML text as a dict; :class:`UserError` for bad syntax or nesting deeper than any setting has
    (a deeply nested ``x = [[[…]]]`` is refused in words, never a RecursionError)."""
    import tomllib  # only for a regulation file (its parser costs ~5 ms to load)

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{what_zh}不是有效的 TOML：{exc}", f"{what_en} is not valid TOML: {exc}") from None
    except RecursionError:
        data = None
    if data is None or _depth(data, TOML_MAX_DEPTH) > TOML_MAX_DEPTH:
        raise UserError(
            f"{what_zh}的表或列表嵌套过深（最多 {TOML_MAX_DEPTH} 层）",
            f"{what_en} has tables or lists nested too deep (at most {TOML_MAX_DEPTH} levels)",
        )
    return data


def regulations_from_toml(text: str) -> Regulations:
    """A regulation file's text, checked as a file (:func:`refuse_unused_stage_chains` too)."""
    reg = regulations_from_dict(parse_toml(text))
    refuse_unused_stage_chains(reg)
    return reg


def refuse_unused_stage_chains(reg: Regulations) -> None:
    """Refuse a Swiss stage's own ``tiebreaks`` that nothing would use (docs/formats.md).

    A Swiss ranks by the regulation's ``[tiebreaks] chain`` (docs/rules.md §6: one chain for the
    group's Swiss standings, carried across its Swiss stages; 设置 → 名次区分 in the window); a Swiss
    stage's own chain ranks only the single round robin the stage becomes with
    ``round_robin_up_to``. Without that key the chain would be silently ignored, so a file (or the
    stage text of the 赛制 dialog) that gives one is refused, the group, stage and key named. Only the
    input is checked: an event file that stored such a chain before still opens (the chain still
    unused, as it always was).
    """
    for g in reg.groups:
        if g.team_event is not None:
            continue
        for i, st in enumerate(g.stages, start=1):
            if st.kind is StageKind.SWISS and st.tiebreaks and not st.round_robin_up_to:
                raise UserError(
                    f"{g.name}第{i}阶段（积分编排）：tiebreaks（本阶段的名次区分办法）只用于人数不多于 "
                    "round_robin_up_to 时改为的单循环，而此阶段没有 round_robin_up_to；积分编排按规程的 "
                    "[tiebreaks] chain 区分名次（设置 → 名次区分）。请删去本阶段的 tiebreaks，"
                    "或改 [tiebreaks] chain",
                    f"{g.name} stage {i} (swiss): tiebreaks (the stage's own chain) ranks only the round "
                    "robin the stage becomes with round_robin_up_to, which this stage does not set; a Swiss "
                    "ranks by the regulation's [tiebreaks] chain. Remove the stage's tiebreaks, or change "
                    "[tiebreaks] chain",
                )


_LEGACY_GROUP_KEYS = ("rounds", "swiss_rounds", "knockout_size")


def _with_stages(data: dict[str, Any]) -> dict[str, Any]:
    """The dict with every group in stage terms: old keys converted, stage keys checked against the kind."""
    groups = data.get("groups")
    if not isinstance(groups, list):
        return data
    out = []
    for i, group in enumerate(groups):
        where = f"regulations.groups[{i}]"
        if not isinstance(group, dict):
            out.append(group)
            continue
        group = dict(group)
        legacy = {k: group.pop(k) for k in _LEGACY_GROUP_KEYS if k in group}
        if legacy and "stages" in group:
            key = next(iter(legacy))
            raise _bad(
                f"{where}.{key}",
                "与 stages 不能同时出现（旧格式的轮次设置已由 stages 取代）",
                "cannot be given together with stages (the old format keys are replaced by stages)",
            )
        if legacy or "stages" not in group:
            values = {
                k: _from_plain(int, legacy.get(k, d), f"{where}.{k}")
                for k, d in zip(_LEGACY_GROUP_KEYS, (11, 8, 8), strict=True)
            }
            name = str(group.get("name", ""))
            _check_legacy(name, values["rounds"], values["swiss_rounds"], values["knockout_size"])
            group["stages"] = _to_plain(
                legacy_stages(values["rounds"], values["swiss_rounds"], values["knockout_size"])
            )
        elif isinstance(group["stages"], list):
            for j, stage in enumerate(group["stages"]):
                _check_stage_keys(stage, f"{where}.stages[{j}]")
        out.append(group)
    return {**data, "groups": out}


def _check_stage_keys(stage: Any, where: str) -> None:
    if not isinstance(stage, dict):
        return
    if "kind" not in stage:
        raise _bad(f"{where}.kind", "缺少阶段类型（swiss、round_robin 或 knockout）", "is missing")
    try:
        kind = StageKind(stage["kind"])
    except ValueError:
        allowed = ", ".join(k.value for k in StageKind)
        raise _bad(
            f"{where}.kind", f"的值“{stage['kind']}”无效（可选：{allowed}）", f"is invalid ({allowed})"
        ) from None
    for key in stage:
        if key in STAGE_KEYS[kind]:
            continue
        fits = [k.zh for k, keys in STAGE_KEYS.items() if key in keys and key not in COMMON_STAGE_KEYS]
        if fits:
            raise _bad(
                f"{where}.{key}",
                f"只用于{'、'.join(fits)}阶段，不适用于{kind.zh}阶段",
                f"belongs to a {' or '.join(k.value for k, keys in STAGE_KEYS.items() if key in keys)} stage, "
                f"not a {kind.value} stage",
            )
        raise _bad(f"{where}.{key}", "是未知的设置项", "is not a known setting")


def stages_to_dict(stages: tuple[Stage, ...]) -> list[dict[str, Any]]:
    """A group's stages as the regulation file writes them (each: its kind and what differs from the
    defaults)."""
    return [dict(_to_plain(st)) for st in stages]


def _to_plain(value: Any) -> Any:
    if isinstance(value, Stage):  # the kind and what differs from the defaults: a short, readable stage
        keys = STAGE_KEYS[value.kind]
        return {
            f.name: _to_plain(getattr(value, f.name))
            for f in _fields(value)
            if f.name in keys
            and getattr(value, f.name) is not None
            and (f.name == "kind" or getattr(value, f.name) != f.default)
        }
    if isinstance(value, GroupFormat) and value.eligibility.open:  # no conditions: no section
        fields = (f.name for f in _fields(value) if f.name != "eligibility")
        return {name: _to_plain(getattr(value, name)) for name in fields if getattr(value, name) is not None}
    if _is_settings(value) and not isinstance(value, type):
        return {
            f.name: _to_plain(getattr(value, f.name))
            for f in _fields(value)
            if getattr(value, f.name) is not None
        }
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, datetime):
        return value.isoformat(timespec="minutes")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple | list):
        return [_to_plain(v) for v in value]
    return value


def _from_plain(tp: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    if _is_settings(tp) and isinstance(tp, type):
        if not isinstance(value, dict):
            raise _bad(where, "应为一个表", "expected a table")
        names = _field_names(tp)
        unknown = sorted(set(value) - names)
        if unknown:
            raise _bad(f"{where}.{unknown[0]}", "是未知的设置项", "is not a known setting")
        missing = [f.name for f in _fields(tp) if f.name not in value and _required(f)]
        if missing:
            keys = ", ".join(f"{where}.{k}" for k in missing)
            raise UserError(f"规程缺少设置项：{keys}", f"missing setting(s): {keys}")
        kwargs = {k: _from_plain(_field_type(tp, k), v, f"{where}.{k}") for k, v in value.items()}
        return tp(**kwargs)
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(value, list | tuple):
            raise _bad(where, "应为一个列表", "expected a list")
        return tuple(_from_plain(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
    if origin in (types.UnionType, typing.Union):
        options = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(options) != 1:
            raise _bad(where, "不支持的类型", "unsupported type")  # pragma: no cover
        return _from_plain(options[0], value, where)  # an optional setting: absent means None
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        try:
            return tp(value)
        except ValueError:
            allowed = ", ".join(str(m.value) for m in tp)
            raise _bad(
                where, f"的值“{value}”无效（可选：{allowed}）", f"has invalid value {value!r} ({allowed})"
            ) from None
    if tp is datetime:
        try:
            return datetime.fromisoformat(str(value))
        except ValueError:
            raise _bad(where, f"的日期时间“{value}”无效", f"invalid date-time {value!r}") from None
    if tp is date:
        try:
            return date.fromisoformat(str(value))
        except ValueError:
            raise _bad(where, f"的日期“{value}”无效", f"invalid date {value!r}") from None
    if tp is bool:
        if not isinstance(value, bool):
            raise _bad(where, "应为 true 或 false", "expected true or false")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _bad(where, "应为整数", "expected a whole number")
        if abs(value) > MAX_SETTING_INT:
            raise _bad(where, f"的数值 {value} 过大", f"value {value} is too large")
        return value
    if tp is str:
        if not isinstance(value, str):
            raise _bad(where, "应为文本", "expected text")
        return value
    raise _bad(where, f"不支持的类型 {tp}", f"unsupported type {tp}")  # pragma: no cover


def _is_settings(value: object) -> bool:
    """A settings record, or a dataclass (:mod:`app.engine.paperwork` reads and writes its own through
    :func:`_to_plain` and :func:`_from_plain`)."""
    if records.is_record(value):
        return True
    dataclasses = sys.modules.get("dataclasses")  # a dataclass exists only once its module is imported
    return dataclasses is not None and bool(dataclasses.is_dataclass(value))


def _fields(value: object) -> tuple[Any, ...]:
    """A settings record's or a dataclass's fields."""
    if records.is_record(value):
        return records.fields(value)
    import dataclasses

    return dataclasses.fields(value)  # type: ignore[arg-type]


def _required(f: Any) -> bool:
    """A field without a default nor a factory (a record's marker for none, or a dataclass's)."""
    dataclasses = sys.modules.get("dataclasses")
    none = (records.MISSING,) if dataclasses is None else (records.MISSING, dataclasses.MISSING)
    return any(f.default is m for m in none) and any(f.default_factory is m for m in none)


@functools.cache
def _field_names(tp: type) -> frozenset[str]:
    """A settings record's field names (once: reading a regulation is frequent)."""
    return frozenset(f.name for f in _fields(tp))


# names the settings' annotations use that are imported only when a field of that type is read: a
# team competition's settings (an individual event's regulation does not load them)
_LATER = {"TeamEvent": "app.engine.team_rules"}


class _Names(dict[str, Any]):
    """A module's names, and :data:`_LATER`'s imported when first looked up."""

    def __missing__(self, key: str) -> Any:
        if key in _LATER:
            module = importlib.import_module(_LATER[key])
            return getattr(module, key)
        raise KeyError(key)


@functools.cache
def _field_type(tp: type, name: str) -> Any:
    """A settings record's field's type (:func:`typing.get_type_hints`'s, resolved field by field when
    first read: a group's ``team_event`` type only for a regulation with a team competition)."""
    for base in tp.__mro__:
        annotations = base.__dict__.get("__annotations__", {})  # noqa: RUF063 - inspect is not imported
        if name in annotations:
            annotation = annotations[name]
            if not isinstance(annotation, str):
                return annotation
            # get_type_hints' order for a class: the module's names, then the class's, then builtins
            return eval(annotation, dict(vars(base)), _Names(vars(sys.modules[base.__module__])))
    raise KeyError(name)  # pragma: no cover - only the record's own field names are asked


def _match_points(item: object) -> bool:
    """Whether ``item`` is a team competition's 场分 (they have their own range, -10–100; only a
    regulation with a team competition holds them, and it has imported their module)."""
    team_rules = sys.modules.get("app.engine.team_rules")
    return team_rules is not None and isinstance(item, team_rules.MatchPoints)


def _bad(where: str, zh: str, en: str) -> UserError:
    return UserError(f"规程设置 {where} {zh}", f"setting {where} {en}")
