"""The settings of a team competition (团体赛): what the regulation file's ``[groups.team_event]`` holds.

A group whose format has a :class:`TeamEvent` pairs **teams**, not players: each pairing of two teams is a
match on ``boards`` boards (:mod:`app.engine.team_match`), paired by a team Swiss, a team round robin (the
league), a team knockout or 全队轮赛制 between two sides (:mod:`app.engine.team_formats`), and ranked by
场分, 局分 and the team tiebreaks (:mod:`app.engine.team_standings`). Every value here is a setting with the
default an experienced chief arbiter expects; :mod:`app.engine.regulations` reads and writes it as TOML and
checks it with :func:`validate_team_event`.

>>> TeamEvent().describe_zh()
'团体积分编排 7 轮，每场 4 台（主队单数台执红），局分 胜2和1负0，场分 胜2和1负0，局分相同为平局'
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from datetime import datetime, timedelta

from app.engine.formats import (
    ColourRule,
    DecidingDraw,
    GameKind,
    LadderStep,
    MatchFormat,
    MatchScope,
    PlacementRule,
    TimeControl,
)
from app.engine.records import frozen
from app.engine.types import UserError

MIN_BOARDS, MAX_BOARDS = 2, 6
MIN_ROSTER, MAX_ROSTER = 2, 10
MAX_TEAMS = 128
MAX_TEAM_ROUNDS = 40


class TeamSystem(enum.Enum):
    """How the teams are paired."""

    SWISS = "swiss"  # 团体积分编排 (瑞士制)
    ROUND_ROBIN = "round_robin"  # 团体循环赛 (single, double: the league)
    KNOCKOUT = "knockout"  # 团体淘汰赛
    ALL_PLAY_ALL = (
        "all_play_all"  # 全队轮赛制: two sides, every player of one meets every player of the other
    )

    @property
    def zh(self) -> str:
        return {
            TeamSystem.SWISS: "团体积分编排",
            TeamSystem.ROUND_ROBIN: "团体循环赛",
            TeamSystem.KNOCKOUT: "团体淘汰赛",
            TeamSystem.ALL_PLAY_ALL: "全队轮赛制",
        }[self]

    @property
    def en(self) -> str:
        return {
            TeamSystem.SWISS: "team Swiss",
            TeamSystem.ROUND_ROBIN: "team round robin",
            TeamSystem.KNOCKOUT: "team knockout",
            TeamSystem.ALL_PLAY_ALL: "all-play-all between two sides",
        }[self]


class TieRule(enum.Enum):
    """What a match tied on 局分 becomes."""

    DRAW = "draw"  # 场分各得平局分
    BOARD_LADDER = "board_ladder"  # 指定台次加赛 (快棋 → 超快棋 → 决胜局) until decided
    EVERY_BOARD = "every_board"  # 每台比赛需分出胜负: every drawn board plays its ladder

    @property
    def zh(self) -> str:
        return {
            TieRule.DRAW: "局分相同为平局",
            TieRule.BOARD_LADDER: "局分相同则指定台次加赛决出胜负",
            TieRule.EVERY_BOARD: "每台比赛需分出胜负（和棋台次加赛）",
        }[self]


class LineupOrder(enum.Enum):
    """Whether a line-up keeps the registered order (按报名顺序排阵)."""

    REGISTERED = "registered"  # the chosen players sit in their registered order (reserves included)
    FREE = "free"  # any order

    @property
    def zh(self) -> str:
        return "按报名顺序排阵" if self is LineupOrder.REGISTERED else "自由排阵"


class MissingLineup(enum.Enum):
    """The line-up of a team that hands in none by the deadline."""

    REGISTERED = "registered"  # its first available players in the registered order
    LOT = "lot"  # its first available players, their board order drawn by lot (recorded seed)

    @property
    def zh(self) -> str:
        return "按报名顺序上场" if self is MissingLineup.REGISTERED else "抽签决定台次"


class ByeGamePoints(enum.Enum):
    """The 局分 a team gets for a bye (轮空 in a team Swiss with an odd number of teams)."""

    ALL_WON = "all_won"  # as if every board were won
    HALF = "half"  # as if every board were drawn
    NONE = "none"  # no 局分

    @property
    def zh(self) -> str:
        return {
            ByeGamePoints.ALL_WON: "按全胜计局分",
            ByeGamePoints.HALF: "按全和计局分",
            ByeGamePoints.NONE: "不计局分",
        }[self]


class FirstRound(enum.Enum):
    """Round 1 of a team Swiss: by halves (1 v n/2+1 …, the rulebook) or by adjacent numbers (1-2, 3-4 …)."""

    HALVES = "halves"
    ADJACENT = "adjacent"

    @property
    def zh(self) -> str:
        return "首轮按上下半区对阵" if self is FirstRound.HALVES else "首轮按相邻序号对阵"


class TeamSeeding(enum.Enum):
    """How the teams are numbered (队号): the order of the round-robin table, of the Swiss, the knockout seeds."""

    LOT = "lot"  # 抽签
    LAST_SEASON = "last_season"  # by the earlier season's rank (上届名次; teams without one after, by lot)
    REGISTERED = "registered"  # in the order the teams registered

    @property
    def zh(self) -> str:
        return {
            TeamSeeding.LOT: "抽签",
            TeamSeeding.LAST_SEASON: "按上届名次",
            TeamSeeding.REGISTERED: "按报名顺序",
        }[self]


class TeamTiebreak(enum.Enum):
    """One link of the team ranking after 场分 (《象棋竞赛规则》's team articles; each a setting)."""

    GAME_POINTS = "game_points"  # 局分
    OPPONENT_MATCH_POINTS = "opponent_match_points"  # 对手场分 (the sum of the opponents' 场分)
    HEAD_TO_HEAD = "head_to_head"  # 直胜: 场分 among the tied teams (a mini-table for three or more)
    BOARD_ORDER = "board_order"  # 台次分: board 1's 局分, then board 2's …
    MATCH_WINS = "match_wins"  # 胜场
    GAME_WINS = "game_wins"  # 胜局
    VIOLATIONS = "violations"  # 犯规, fewer first
    PLAYOFF = "playoff"  # 加赛: a play-off between the sides (entered by the arbiter)

    @property
    def zh(self) -> str:
        return {
            TeamTiebreak.GAME_POINTS: "局分",
            TeamTiebreak.OPPONENT_MATCH_POINTS: "对手场分",
            TeamTiebreak.HEAD_TO_HEAD: "直胜",
            TeamTiebreak.BOARD_ORDER: "台次分",
            TeamTiebreak.MATCH_WINS: "胜场",
            TeamTiebreak.GAME_WINS: "胜局",
            TeamTiebreak.VIOLATIONS: "犯规",
            TeamTiebreak.PLAYOFF: "加赛",
        }[self]

    @property
    def en(self) -> str:
        return self.value.replace("_", " ")


class BoardPrizeBasis(enum.Enum):
    """How the board prizes (台次奖) compare the players of one board."""

    PERCENTAGE = "percentage"  # 得分率, then 局分, then games played
    POINTS = "points"  # 局分, then 得分率

    @property
    def zh(self) -> str:
        return "按得分率" if self is BoardPrizeBasis.PERCENTAGE else "按局分"


@frozen
class GamePoints:
    """局分 of one game: by result, and for a forfeit (弃权)."""

    win: int = 2
    draw: int = 1
    loss: int = 0
    forfeit_win: int = 2
    forfeit_loss: int = 0

    @property
    def label_zh(self) -> str:
        return f"胜{self.win}和{self.draw}负{self.loss}"


@frozen
class MatchPoints:
    """场分 of a match: won, drawn, lost; lost by not appearing (不到场); won or lost in a tie-break; a bye."""

    win: int = 2
    draw: int = 1
    loss: int = 0
    forfeit_loss: int = 0
    tie_win: int = 2
    tie_loss: int = 1
    bye: int = 2

    @property
    def label_zh(self) -> str:
        return f"胜{self.win}和{self.draw}负{self.loss}"


#: the tie-break ladder of a board (快棋 → 超快棋 → 决胜局 和棋黑胜); the first game swaps the board's colours
DEFAULT_TIE_LADDER = MatchFormat(
    MatchScope.ALL,
    (
        LadderStep(GameKind.RAPID, 1, TimeControl(10, 5), ColourRule.LOT),
        LadderStep(GameKind.BLITZ, 1, TimeControl(5, 3), ColourRule.SWAP),
        LadderStep(GameKind.DECIDING, 1, TimeControl(6, 5, black_minutes=4), ColourRule.SWAP),
    ),
    DecidingDraw.BLACK_WINS,
)


@frozen
class TeamMatchRules:
    """How one team match is played and scored.

    ``home_red_on_odd``: the home (first-named) team has Red on boards 1, 3, 5 (False: on 2, 4, 6).
    ``ladder_points``: the 局分 of a board decided in its tie-break ladder (:attr:`TieRule.EVERY_BOARD`);
    ``tie_board``: the board whose ladder decides a tied match (:attr:`TieRule.BOARD_LADDER`); its first
    game swaps the colours of the board's game (换先), later steps follow ``tie_ladder``.
    ``player_colour_limit``: 0 = none; n = nobody has the same colour more than n times in a row (checked on
    each line-up).
    ``lineup_deadline``: the line-up (排阵, 出场名单) is handed in at least this many minutes before the round's
    announced start (the regulation's ``schedule``), as Chinese team regulations say it ("赛前 30 分钟提交出场
    名单"); 0 = no deadline. A line-up after it is refused unless the arbiter overrides it with a reason; a
    team that hands in none plays by ``missing_lineup``.
    """

    boards: int = 4
    home_red_on_odd: bool = True
    game_points: GamePoints = GamePoints()
    match_points: MatchPoints = MatchPoints()
    tie: TieRule = TieRule.DRAW
    tie_board: int = 1
    tie_ladder: MatchFormat = DEFAULT_TIE_LADDER
    ladder_points: GamePoints = GamePoints(win=2, draw=1, loss=1, forfeit_win=2, forfeit_loss=0)
    lineup_order: LineupOrder = LineupOrder.REGISTERED
    missing_lineup: MissingLineup = MissingLineup.REGISTERED
    player_colour_limit: int = 0
    lineup_deadline: int = 0  # minutes before the round's start (0 = none)

    def describe_zh(self) -> str:
        side = "单数" if self.home_red_on_odd else "双数"
        deadline = f"，赛前 {self.lineup_deadline} 分钟交排阵" if self.lineup_deadline else ""
        return (
            f"每场 {self.boards} 台（主队{side}台执红），局分 {self.game_points.label_zh}，"
            f"场分 {self.match_points.label_zh}，{self.tie.zh}{deadline}"
        )


MAX_LINEUP_DEADLINE = 24 * 60  # minutes: a line-up is due at most a day before its round


def _span_zh(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    return f"{hours} 小时 {rest} 分钟" if hours else f"{rest} 分钟"


def _span_en(minutes: int) -> str:
    hours, rest = divmod(minutes, 60)
    return f"{hours} h {rest} min" if hours else f"{rest} min"


@frozen
class LineupDeadline:
    """When a round's line-ups are due (排阵截止): ``minutes`` before the round's announced start.

    >>> d = LineupDeadline(2, datetime(2024, 7, 26, 14, 0), 30)
    >>> d.at, d.passed(datetime(2024, 7, 26, 13, 30)), d.passed(datetime(2024, 7, 26, 13, 30, 1))
    (datetime.datetime(2024, 7, 26, 13, 30), False, True)
    >>> d.status_zh(datetime(2024, 7, 26, 12, 5))
    '排阵截止 7月26日 13:30（赛前 30 分钟），还有 1 小时 25 分钟'
    >>> d.status_zh(datetime(2024, 7, 26, 13, 42))
    '排阵截止 7月26日 13:30（赛前 30 分钟），已过 12 分钟'
    """

    round: int
    starts: datetime
    minutes: int

    @property
    def at(self) -> datetime:
        return self.starts - timedelta(minutes=self.minutes)

    def passed(self, now: datetime) -> bool:
        """Whether a line-up handed in at ``now`` is late (at the deadline itself is in time)."""
        return now > self.at

    def minutes_from(self, now: datetime) -> int:
        """Whole minutes between ``now`` and the deadline (either way), a started minute counted."""
        seconds = abs((now - self.at).total_seconds())
        return int(-(-seconds // 60))

    def late_by_zh(self, now: datetime) -> str:
        """``12 分钟``: how long after the deadline ``now`` is."""
        return _span_zh(self.minutes_from(now))

    @property
    def label_zh(self) -> str:
        return f"{self.at.month}月{self.at.day}日 {self.at:%H:%M}"

    @property
    def rule_zh(self) -> str:
        return f"规程规定赛前 {self.minutes} 分钟提交出场名单（排阵截止 {self.label_zh}）"

    @property
    def rule_en(self) -> str:
        return f"the regulation wants line-ups {self.minutes} min before the start (deadline {self.at:%m-%d %H:%M})"

    def status_zh(self, now: datetime) -> str:
        head = f"排阵截止 {self.label_zh}（赛前 {self.minutes} 分钟）"
        if self.passed(now):
            return f"{head}，已过 {_span_zh(self.minutes_from(now))}"
        return f"{head}，还有 {_span_zh(self.minutes_from(now))}"

    def status_en(self, now: datetime) -> str:
        head = f"line-ups due {self.at:%m-%d %H:%M} ({self.minutes} min before the start)"
        if self.passed(now):
            return f"{head}, passed {_span_en(self.minutes_from(now))} ago"
        return f"{head}, {_span_en(self.minutes_from(now))} left"


def lineup_deadline(
    rules: TeamMatchRules, round_number: int, starts: datetime | None
) -> LineupDeadline | None:
    """The round's line-up deadline, or None where the regulation sets none or the round's start is not
    in the schedule (待定: nothing to count back from)."""
    if not rules.lineup_deadline or starts is None:
        return None
    return LineupDeadline(round_number, starts, rules.lineup_deadline)


DEFAULT_TEAM_CHAIN: tuple[TeamTiebreak, ...] = (
    TeamTiebreak.GAME_POINTS,
    TeamTiebreak.HEAD_TO_HEAD,
    TeamTiebreak.OPPONENT_MATCH_POINTS,
    TeamTiebreak.BOARD_ORDER,
    TeamTiebreak.MATCH_WINS,
    TeamTiebreak.VIOLATIONS,
    TeamTiebreak.PLAYOFF,
)


@frozen
class TeamEvent:
    """A team competition of a group: its system, its matches, its ranking and its board prizes.

    ``rounds``: a team Swiss's rounds (the other systems' rounds follow from the teams); ``cycles``: 1 单循环,
    2 双循环 (the league); ``swap_last_rounds`` (a double round robin only): the first cycle's last two
    rounds are played in the other order (FIDE Handbook C.05 Annex 1), so that no team is at home (or away)
    three matches running where the cycles meet; ``roster_min``/``roster_max``: players a team registers (reserves included);
    ``board_prize_min_games``: games a player needs on one board to compete for its prize (0 = half the
    rounds, rounded up).
    """

    system: TeamSystem = TeamSystem.SWISS
    rounds: int = 7
    cycles: int = 1
    swap_last_rounds: bool = False
    first_round: FirstRound = FirstRound.HALVES
    seeding: TeamSeeding = TeamSeeding.LOT
    match: TeamMatchRules = TeamMatchRules()
    chain: tuple[TeamTiebreak, ...] = DEFAULT_TEAM_CHAIN
    bye_game_points: ByeGamePoints = ByeGamePoints.ALL_WON
    placement: PlacementRule = PlacementRule.STANDING
    roster_min: int = 4
    roster_max: int = 6
    board_prizes: int = 1  # places per board (0 = no board prizes)
    board_prize_min_games: int = 0
    board_prize_basis: BoardPrizeBasis = BoardPrizeBasis.PERCENTAGE

    def describe_zh(self) -> str:
        if self.system is TeamSystem.SWISS:
            head = f"{self.system.zh} {self.rounds} 轮"
        elif self.system is TeamSystem.ROUND_ROBIN:
            head = "团体双循环" if self.cycles == 2 else "团体单循环" if self.cycles == 1 else "团体循环"
            head += "（第一循环最后两轮互换）" if self.swap_last_rounds else ""
        else:
            head = self.system.zh
        return f"{head}，{self.match.describe_zh()}"

    def min_games(self, rounds: int) -> int:
        """Games a player needs on one board for its prize."""
        return self.board_prize_min_games or (rounds + 1) // 2


def validate_team_event(t: TeamEvent, bad: Callable[[str, str], UserError]) -> None:
    """Raise ``bad(zh, en)`` naming the first setting of a team event that cannot work."""
    m = t.match
    if not MIN_BOARDS <= m.boards <= MAX_BOARDS:
        raise bad(
            f"每场台数 boards 应在 {MIN_BOARDS}–{MAX_BOARDS} 之间",
            f"boards must be {MIN_BOARDS}-{MAX_BOARDS}",
        )
    if not MIN_ROSTER <= t.roster_min <= t.roster_max <= MAX_ROSTER:
        raise bad(
            f"每队报名人数 roster_min–roster_max 应在 {MIN_ROSTER}–{MAX_ROSTER} 之间且不倒置",
            f"roster_min-roster_max must lie within {MIN_ROSTER}-{MAX_ROSTER}",
        )
    if t.roster_max < m.boards:
        raise bad(
            f"每队最多报名 {t.roster_max} 人，少于每场台数 {m.boards}",
            f"roster_max {t.roster_max} is below the {m.boards} boards",
        )
    if not 1 <= m.tie_board <= m.boards:
        raise bad(f"加赛台次 tie_board 应在 1–{m.boards} 之间", f"tie_board must be 1-{m.boards}")
    if not 0 <= m.lineup_deadline <= MAX_LINEUP_DEADLINE:
        raise bad(
            f"排阵截止 lineup_deadline 应为赛前 0–{MAX_LINEUP_DEADLINE} 分钟（0 为不设截止）",
            f"lineup_deadline must be 0-{MAX_LINEUP_DEADLINE} minutes before the start (0: none)",
        )
    if not 0 <= m.player_colour_limit <= 10 or m.player_colour_limit == 1:
        raise bad(
            "棋手连续同色上限 player_colour_limit 应为 0（不限）或 2–10", "player_colour_limit: 0 or 2-10"
        )
    for name, points in (("game_points", m.game_points), ("ladder_points", m.ladder_points)):
        values = (points.win, points.draw, points.loss, points.forfeit_win, points.forfeit_loss)
        if any(not 0 <= v <= 100 for v in values):
            raise bad(f"{name} 的分值应在 0–100 之间", f"{name} values must be 0-100")
        if points.win < points.loss:
            raise bad(f"{name} 中胜分不能少于负分", f"{name}: a win cannot score below a loss")
    mp = m.match_points
    if any(
        not -10 <= v <= 100
        for v in (mp.win, mp.draw, mp.loss, mp.forfeit_loss, mp.tie_win, mp.tie_loss, mp.bye)
    ):
        raise bad("场分 match_points 的分值应在 -10–100 之间", "match_points values must be -10-100")
    ladder = m.tie_ladder
    if not ladder.steps or len(ladder.steps) > 12 or any(s.games != 1 for s in ladder.steps[-1:]):
        raise bad(
            "加赛 tie_ladder 须有 1–12 个阶段，最后一个为一局决胜局",
            "tie_ladder: 1-12 steps, the last one game",
        )
    if any(not 1 <= s.games <= 8 for s in ladder.steps):
        raise bad("加赛 tie_ladder 每阶段 1–8 局", "tie_ladder: 1-8 games a step")
    if t.system is TeamSystem.KNOCKOUT and m.tie is TieRule.DRAW:
        raise bad(
            "团体淘汰赛每场须决出胜负：tie 不能为 draw（应为 board_ladder 或 every_board）",
            "a team knockout needs a winner: tie cannot be draw (use board_ladder or every_board)",
        )
    if t.system is TeamSystem.SWISS and not 1 <= t.rounds <= MAX_TEAM_ROUNDS:
        raise bad(
            f"团体积分编排轮次 rounds 应在 1–{MAX_TEAM_ROUNDS} 之间", f"rounds must be 1-{MAX_TEAM_ROUNDS}"
        )
    if not 1 <= t.cycles <= 4:
        raise bad("循环次数 cycles 应在 1–4 之间", "cycles must be 1-4")
    if t.swap_last_rounds and (t.system is not TeamSystem.ROUND_ROBIN or t.cycles != 2):
        raise bad(
            "swap_last_rounds（第一循环最后两轮互换）只用于团体双循环（system = round_robin，cycles = 2）",
            "swap_last_rounds is for a team double round robin (system = round_robin, cycles = 2)",
        )
    if not t.chain or len(set(t.chain)) != len(t.chain):
        raise bad("团体名次区分办法 chain 不能为空或重复", "the team tiebreak chain is empty or repeats")
    if TeamTiebreak.PLAYOFF in t.chain and t.chain[-1] is not TeamTiebreak.PLAYOFF:
        raise bad("“加赛”只能放在团体名次区分办法的最后", "playoff must be the last team tiebreak")
    if not 0 <= t.board_prizes <= 10:
        raise bad("台次奖名额 board_prizes 应在 0–10 之间", "board_prizes must be 0-10")
    if not 0 <= t.board_prize_min_games <= MAX_TEAM_ROUNDS * 4:
        raise bad("台次奖最少局数 board_prize_min_games 无效", "board_prize_min_games is out of range")
