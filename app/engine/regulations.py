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

import dataclasses
import enum
import types
import typing
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from app.engine.text import EVENT_NAME_MAX, GROUP_NAME_MAX, REGION_MAX, UNIT_MAX, clean_text
from app.engine.types import Colour, GameResult, UserError


class TeamAvoidance(enum.Enum):
    """H2: when teammates may not meet (首轮同队队员回避)."""

    NONE = "none"
    ROUND_ONE = "round_one"
    ALL_ROUNDS = "all_rounds"


class SeedingOrder(enum.Enum):
    """How sequence numbers are given (docs/rules.md §3)."""

    LOT = "lot"  # 抽签
    RATING = "rating"  # by rating first, unrated drawn by lot after them


class ScoreGroupOrder(enum.Enum):
    """S3: the order inside a score group."""

    SEQUENCE = "sequence"
    TIEBREAKS = "tiebreaks"


class Tiebreak(enum.Enum):
    """One link of the individual ranking chain after 积分 (docs/rules.md §6)."""

    OPPONENT_SCORE = "opponent_score"  # 对手分
    WINS = "wins"  # 胜局
    VIOLATIONS = "violations"  # 犯规, fewer first
    BLACK_GAMES = "black_games"  # 后走局数
    BLACK_WINS = "black_wins"  # 后走胜局
    PROGRESSIVE = "progressive"  # 累进分
    PREVIOUS_ROUNDS = "previous_rounds"  # 比较前一轮成绩，直至区分

    @property
    def zh(self) -> str:
        return _TIEBREAK_ZH[self.value]


_TIEBREAK_ZH = {
    "opponent_score": "对手分",
    "wins": "胜局",
    "violations": "犯规",
    "black_games": "后走局数",
    "black_wins": "后走胜局",
    "progressive": "累进分",
    "previous_rounds": "前轮成绩",
}


class DecidingDraw(enum.Enum):
    """What a drawn deciding game (附加赛) means."""

    BLACK_WINS = "black_wins"  # 和棋黑胜 (2020 rules art. 30)
    REPEAT = "repeat"  # repeat with colours swapped until decisive


class PlacementRule(enum.Enum):
    """How knockout places 5–8 are decided."""

    BRACKET = "bracket"  # quarter-final losers play a small bracket
    STANDING = "standing"  # by standing after the Swiss stage


class DisqualifiedGames(enum.Enum):
    """What becomes of a disqualified player's games (the arbiter chooses; default below)."""

    STAND = "stand"
    ANNUL = "annul"  # opponents' results become forfeit wins


class ShortDrawViolation(enum.Enum):
    """Who is charged when a drawn game is recorded with too few moves."""

    BOTH = "both"
    BLACK_ONLY = "black_only"


@dataclass(frozen=True, slots=True)
class TimeControl:
    minutes: int
    increment_seconds: int

    @property
    def label(self) -> str:
        """``20′+10″`` as printed on table cards."""
        return f"{self.minutes}′+{self.increment_seconds}″"

    @property
    def label_zh(self) -> str:
        return f"每方{self.minutes}分钟，每步加{self.increment_seconds}秒"


@dataclass(frozen=True, slots=True)
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


MAX_ROUNDS = 30
MAX_GROUPS = 20
MAX_POINTS = 100
MAX_CAPACITY = 100_000
MAX_AMOUNT = 100_000_000  # 元
MAX_SETTING_INT = 2**53  # any whole-number setting (stored as JSON, read by every tool)


@dataclass(frozen=True, slots=True)
class GroupFormat:
    """A group (组别) and its format (docs/rules.md §1)."""

    name: str
    teams: bool = True
    rounds: int = 11
    swiss_rounds: int = 8  # Swiss rounds before the split
    knockout_size: int = 8  # 0 = pure Swiss


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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class PairingRules:
    team_avoidance: TeamAvoidance = TeamAvoidance.ROUND_ONE
    seeding: SeedingOrder = SeedingOrder.LOT
    score_group_order: ScoreGroupOrder = ScoreGroupOrder.SEQUENCE
    late_entry_bye_compensation: bool = False  # late entries start with 0 points
    late_entry_points: LateEntryPoints = LateEntryPoints.BYE  # per missed round, when compensated
    avoidances: tuple[AvoidanceRule, ...] = ()  # 同单位 / 同地区 回避 beyond the team rule (H2)

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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class KnockoutRules:
    slow: TimeControl = TimeControl(20, 5)
    rapid: TimeControl = TimeControl(10, 3)
    deciding: TimeControl = TimeControl(5, 3)
    deciding_draw: DecidingDraw = DecidingDraw.BLACK_WINS
    placement: PlacementRule = PlacementRule.BRACKET


@dataclass(frozen=True, slots=True)
class TeamRules:
    counted_members: int = 4  # sum of the places of this many members (the best ones)
    min_members: int = 4  # fewer ranked members → unranked (不足四名队员不计算团体成绩)


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


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class PrizeRules:
    """How prizes combine and are paid (奖金为税前)."""

    one_per_player: bool = True  # 不兼得：a player takes only the highest of the prizes they win
    withholding_percent: int = 20  # 代扣个人所得税 (偶然所得 20%) on the payout sheet; 0 = none


@dataclass(frozen=True, slots=True)
class RecordDutyRules:
    designated_rounds: int = 3  # rounds 1..n: the arbiter designates
    top_boards: int = 10  # from then on: winners on boards 1..n
    draw_recorder: Colour = Colour.BLACK  # 和棋由黑方录谱
    min_draw_moves: int = 25  # 和棋录谱不足 25 回合 → violation
    short_draw_charged: ShortDrawViolation = ShortDrawViolation.BOTH


@dataclass(frozen=True, slots=True)
class DisciplineRules:
    late_minutes: int = 10
    consecutive_forfeits_withdraw: int = 2  # 0 = never
    disqualified_games: DisqualifiedGames = DisqualifiedGames.STAND
    no_draw_offer_before_move: int = 25
    natural_limit_moves: int = 40  # 自然限着, checking moves not counted


@dataclass(frozen=True, slots=True)
class RegistrationRules:
    capacity: int = 160  # whole tournament
    deadline: datetime = datetime(2024, 7, 23, 18, 0)
    age_limit: int = 65  # full years on the first day of play
    fee_yuan: int = 100
    first_day_of_play: date = date(2024, 7, 26)


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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
        for name, value in dataclasses.asdict(self.points).items():
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
            if not 1 <= g.rounds <= MAX_ROUNDS:
                raise UserError(
                    f"{g.name}：轮次数必须在 1–{MAX_ROUNDS} 之间", f"{g.name}: rounds must be 1-{MAX_ROUNDS}"
                )
            if g.knockout_size not in (0, 4, 8, 16):
                raise UserError(
                    f"{g.name}：淘汰赛人数只能是 0、4、8 或 16",
                    f"{g.name}: knockout size must be 0, 4, 8 or 16",
                )
            if g.knockout_size and not 1 <= g.swiss_rounds < g.rounds:
                raise UserError(
                    f"{g.name}：分段前的积分编排轮次必须在 1 到 {g.rounds - 1} 之间",
                    f"{g.name}: Swiss rounds before the split must be between 1 and {g.rounds - 1}",
                )
            if g.knockout_size:
                stage_rounds = g.knockout_size.bit_length() - 1
                if g.rounds - g.swiss_rounds < stage_rounds:
                    raise UserError(
                        f"{g.name}：{g.knockout_size} 人淘汰赛需要 {stage_rounds} 轮",
                        f"{g.name}: a knockout of {g.knockout_size} needs {stage_rounds} rounds",
                    )
        chain = self.tiebreaks.chain
        if not chain:
            raise _bad(
                "tiebreaks.chain",
                "为空：至少要有一项名次区分办法（所有名次均不并列）",
                "is empty: at least one tiebreak is needed (no two players share a place)",
            )
        if len(set(chain)) != len(chain):
            raise UserError("名次区分办法中有重复项", "the tiebreak chain repeats a criterion")
        if Tiebreak.PREVIOUS_ROUNDS in chain and chain[-1] is not Tiebreak.PREVIOUS_ROUNDS:
            raise UserError(
                "“比较前一轮成绩”只能放在名次区分办法的最后",
                "'previous rounds' must be the last tiebreak",
            )
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
        if self.team.min_members < 1 or self.team.counted_members < 1:
            raise UserError("团体计分人数必须至少为 1", "team counting needs at least one member")
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
    for f in dataclasses.fields(value):
        item = getattr(value, f.name)
        path = f"{where}.{f.name}" if where else f.name
        if isinstance(item, bool):
            continue
        if isinstance(item, int) and item < 0:
            raise _bad(path, f"= {item} 不能为负数", f"= {item} must not be negative")
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            _check_not_negative(item, path)
        if isinstance(item, tuple):
            for i, part in enumerate(item):
                if dataclasses.is_dataclass(part) and not isinstance(part, type):
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
        GroupFormat(name=_OPEN, teams=True, rounds=11, swiss_rounds=8, knockout_size=8),
        GroupFormat(name=_LOCAL, teams=False, rounds=11, swiss_rounds=8, knockout_size=8),
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
    """Build and validate regulations; a wrong key or value raises :class:`UserError` naming it."""
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
    return regulations_from_dict(parse_toml(text))


def _to_plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
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
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if not isinstance(value, dict):
            raise _bad(where, "应为一个表", "expected a table")
        hints = typing.get_type_hints(tp)
        names = {f.name for f in dataclasses.fields(tp)}
        unknown = sorted(set(value) - names)
        if unknown:
            raise _bad(f"{where}.{unknown[0]}", "是未知的设置项", "is not a known setting")
        missing = [
            f.name
            for f in dataclasses.fields(tp)
            if f.name not in value
            and f.default is dataclasses.MISSING
            and f.default_factory is dataclasses.MISSING
        ]
        if missing:
            keys = ", ".join(f"{where}.{k}" for k in missing)
            raise UserError(f"规程缺少设置项：{keys}", f"missing setting(s): {keys}")
        kwargs = {k: _from_plain(hints[k], v, f"{where}.{k}") for k, v in value.items()}
        return tp(**kwargs)
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(value, list | tuple):
            raise _bad(where, "应为一个列表", "expected a list")
        return tuple(_from_plain(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
    if origin in (types.UnionType, typing.Union):
        raise _bad(where, "不支持的类型", "unsupported type")  # pragma: no cover - no optional settings
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


def _bad(where: str, zh: str, en: str) -> UserError:
    return UserError(f"规程设置 {where} {zh}", f"setting {where} {en}")
