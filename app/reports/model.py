"""Read models the documents are rendered from: small frozen values, plain data only.

The services build these from a tournament file; the renderers (PDF, Excel, HTML) only read them.
Privacy is structural (docs/rules.md §11): the public read models have **no field** for an ID number or a
phone number. Only :class:`PayoutLine` (奖金发放签收表, 内部) and :class:`InternalEntryLine` (内部参赛名单)
carry them, and only the internal documents accept those lines.

>>> p = PlayerLine(no=12, name="王天一", unit="杭州", score=6)
>>> PairingRow(board=1, red=p, black=p).result_zh
''
>>> fmt_num(7.5), fmt_num(6)
('7.5', '6')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import overload

from app.engine.types import Colour, GameResult

Number = int | float


def fmt_num(value: Number | str | None) -> str:
    """A score or tiebreak value as printed: ``6``, ``7.5``; ``None`` prints empty."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass(frozen=True, slots=True)
class EventHeader:
    """What every page header says: tournament, group, round (``None`` for whole-event documents)."""

    event_name: str
    group: str = ""
    round: int | None = None
    venue: str = ""
    dates: str = ""  # as printed, e.g. "2024年7月26日—29日"
    time_control: str = ""  # as printed, e.g. "20′+10″"
    round_label: str = ""  # overrides "第 n 轮", e.g. "半决赛"

    @property
    def round_text(self) -> str:
        if self.round_label:
            return self.round_label
        return f"第{self.round}轮" if self.round is not None else ""

    @property
    def subtitle(self) -> str:
        return "  ".join(part for part in (self.group, self.round_text) if part)


@dataclass(frozen=True, slots=True)
class SignOff:
    """Under a list: the officials' signature lines (role, name) and the seal line (the paperwork).

    ``date`` is printed as given ("" prints a blank 年 月 日 line to fill in by hand).
    """

    signers: tuple[tuple[str, str], ...] = ()
    seal: str = ""
    date: str = ""

    @property
    def empty(self) -> bool:
        return not self.signers and not self.seal


@dataclass(frozen=True, slots=True)
class PlayerLine:
    """A player as shown in a pairing: 序号, name, unit (or team), score before the round."""

    no: int
    name: str
    unit: str = ""
    score: Number = 0


@dataclass(frozen=True, slots=True)
class PairingRow:
    """One board of a round; ``result_zh`` blank while pending; ``marks`` e.g. ("红方犯规", "迟到").

    A knockout game says what it is — ``match`` e.g. "半决赛第1场", ``game`` e.g. "第1局 慢棋" — and is
    played under its own ``time_control`` (e.g. "20′+5″"); all empty for a Swiss game (the header's
    time control applies).
    """

    board: int
    red: PlayerLine
    black: PlayerLine
    result_zh: str = ""
    marks: tuple[str, ...] = ()
    match: str = ""
    game: str = ""
    time_control: str = ""
    link: str = ""  # the board's page on the hall network (printed as a QR code), "" for none

    @property
    def stage(self) -> str:
        return f"{self.match} {self.game}".strip()

    @classmethod
    def with_result(
        cls,
        board: int,
        red: PlayerLine,
        black: PlayerLine,
        result: GameResult,
        marks: tuple[str, ...] = (),
        *,
        match: str = "",
        game: str = "",
        time_control: str = "",
    ) -> PairingRow:
        """Fill ``result_zh`` from an engine result; forfeits are marked as such.

        >>> p = PlayerLine(1, "甲")
        >>> PairingRow.with_result(3, p, p, GameResult.RED_FORFEIT).result_zh
        '红弃权'
        """
        return cls(board, red, black, result.zh, marks, match, game, time_control)


@dataclass(frozen=True, slots=True)
class PairingList:
    """对阵表 / 成绩公告 of one round of one group; ``byes`` are printed after the boards."""

    header: EventHeader
    rows: tuple[PairingRow, ...]
    byes: tuple[PlayerLine, ...] = ()
    bye_label: str = "轮空"
    excused: tuple[PlayerLine, ...] = ()  # 请假: excused from the round, listed after the byes
    excused_label: str = "请假"
    signoff: SignOff | None = None
    link: str = ""  # the round's page on the hall network (printed as a QR code), "" for none


@dataclass(frozen=True, slots=True)
class TableCards:
    """台卡: one card per board; ``per_page`` is 1, 2 or 4."""

    header: EventHeader
    rows: tuple[PairingRow, ...]
    per_page: int = 2


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of 名次表; ``tiebreaks`` maps column label → value in chain order."""

    rank: int
    no: int
    name: str
    unit: str
    score: Number
    tiebreaks: tuple[tuple[str, Number | str], ...] = ()
    separated_by: str = ""  # the criterion that put this player above the next one
    note: str = ""  # e.g. "退赛"


@dataclass(frozen=True, slots=True)
class Standings:
    header: EventHeader
    chain: tuple[str, ...]  # tiebreak labels in chain order, e.g. ("对手分", "胜局", ...)
    rows: tuple[StandingRow, ...]
    sequence_ties: tuple[tuple[int, int], ...] = ()  # (no above, no below) decided by 序号
    signoff: SignOff | None = None


@dataclass(frozen=True, slots=True)
class CrossCell:
    """A player's game in one round of the crosstable, from the player's side.

    ``outcome`` is one of 胜 和 负 (played), 弃胜 弃负 双弃 (forfeits), 轮空 (bye), 请假 (excused),
    未报名 / 补n分 (a round before a late entry, without / with compensation), or "" (pending / not played).

    >>> CrossCell.from_game(17, Colour.BLACK, GameResult.RED_FORFEIT).text
    '17黑弃胜'
    """

    opponent: int | None
    colour: str = ""  # 红 / 黑 / ""
    outcome: str = ""

    @property
    def text(self) -> str:
        if self.opponent is None:
            return self.outcome
        return f"{self.opponent}{self.colour}{self.outcome}"

    @classmethod
    def from_game(cls, opponent: int, colour: Colour, result: GameResult) -> CrossCell:
        winner = result.winner()
        if result is GameResult.PENDING:
            outcome = ""
        elif result is GameResult.DOUBLE_FORFEIT:
            outcome = "双弃"
        elif winner is None:
            outcome = "和"
        elif result.is_forfeit:
            outcome = "弃胜" if winner is colour else "弃负"
        else:
            outcome = "胜" if winner is colour else "负"
        return cls(opponent, colour.zh, outcome)

    @classmethod
    def bye(cls) -> CrossCell:
        return cls(None, "", "轮空")

    @classmethod
    def absent(cls, excused: bool, points: Number = 0) -> CrossCell:
        """An excused round (请假) or a round before a late entry (未报名, or 补n分 with compensation).

        >>> CrossCell.absent(False, 2).text, CrossCell.absent(True).text
        ('补2分', '请假')
        """
        if excused:
            return cls(None, "", "请假")
        return cls(None, "", f"补{fmt_num(points)}分" if points else "未报名")


@dataclass(frozen=True, slots=True)
class CrosstableRow:
    no: int
    name: str
    unit: str
    per_round: tuple[CrossCell, ...]
    score: Number
    place: int | None = None

    @overload
    def round_texts(self, rounds: int, blank: str = "") -> list[str]: ...
    @overload
    def round_texts(self, rounds: int, blank: None) -> list[str | None]: ...
    def round_texts(self, rounds: int, blank: str | None = "") -> list[str] | list[str | None]:
        """The text of each of ``rounds`` cells, ``blank`` for a round not played yet."""
        return [c.text for c in self.per_round] + [blank] * (rounds - len(self.per_round))


@dataclass(frozen=True, slots=True)
class Crosstable:
    header: EventHeader
    rounds: int
    rows: tuple[CrosstableRow, ...]
    signoff: SignOff | None = None


@dataclass(frozen=True, slots=True)
class RoundRobinRow:
    """A line of the square round-robin table: ``cells[k]`` is the game against table number k + 1
    (the points this player scored, one value per cycle; ``—`` on the diagonal)."""

    number: int  # 台号 (the number in the table)
    no: int  # 序号
    name: str
    unit: str
    cells: tuple[str, ...]
    score: Number
    tiebreaks: tuple[tuple[str, Number | str], ...] = ()  # label → value, in chain order
    place: int | None = None
    note: str = ""  # 退赛 / 成绩取消


@dataclass(frozen=True, slots=True)
class RoundRobinPool:
    name: str  # "" for a single table, else "A组" …
    rows: tuple[RoundRobinRow, ...]


@dataclass(frozen=True, slots=True)
class RoundRobinTable:
    """循环赛成绩表: the usual square crosstable, one per pool."""

    header: EventHeader
    pools: tuple[RoundRobinPool, ...]
    cycles: int
    chain: tuple[str, ...]  # the tiebreak labels shown after 积分
    signoff: SignOff | None = None


@dataclass(frozen=True, slots=True)
class ScheduleRound:
    """One round of 对局秩序表: the group's round number, the pairs (红, 黑) as ``"1 张三"``, who rests."""

    number: int
    stage_round: int
    pairs: tuple[tuple[str, str], ...]
    rest: str = ""


@dataclass(frozen=True, slots=True)
class SchedulePool:
    name: str
    numbers: tuple[tuple[int, str], ...]  # (table number, "序号 姓名 单位"), the draw
    rounds: tuple[ScheduleRound, ...]


@dataclass(frozen=True, slots=True)
class RoundRobinSchedule:
    """对局秩序表: every round of a round robin fixed before it starts; the first number of a pair plays Red."""

    header: EventHeader
    pools: tuple[SchedulePool, ...]
    note: str = ""
    teams: bool = False  # a team round robin: teams, matches (主队 first) instead of players, games


@dataclass(frozen=True, slots=True)
class TeamRow:
    """团体名次: ``members`` are the counted members as (name, place); rank ``None`` = unranked."""

    rank: int | None
    team: str
    members: tuple[tuple[str, int], ...]
    total: int | None
    best: int | None
    note: str = ""
    points: tuple[int, ...] = ()  # the counted members' points (a ranking by points), as ``members``
    member_nos: tuple[int, ...] = ()  # the members' 序号, in the order of ``members`` (for links)


@dataclass(frozen=True, slots=True)
class TeamStandings:
    """团体名次表; ``by_points``: ranked by the members' points (积分总和), ``rule``: the regulation's
    sentence printed under the table."""

    header: EventHeader
    rows: tuple[TeamRow, ...]
    signoff: SignOff | None = None
    by_points: bool = False
    rule: str = "团体成绩按四名队员个人名次之和计算，和小者列前；相同则以最好个人名次列前。"

    @property
    def total_label(self) -> str:
        return "积分和" if self.by_points else "名次和"

    def members_text(self, row: TeamRow) -> str:
        """``张三（1）、李四（5）`` — with the points too when ranked by points: ``张三（1名，8分）``."""
        if self.by_points and row.points:
            return "、".join(
                f"{n}（{p}名，{pts}分）" for (n, p), pts in zip(row.members, row.points, strict=False)
            )
        return "、".join(f"{n}（{p}）" for n, p in row.members)


@dataclass(frozen=True, slots=True)
class PrizeLine:
    """奖励名单 line (public): no ID, no phone."""

    table: str  # e.g. "公开组个人"
    place: int
    name: str
    unit: str
    amount: int  # 元, pre-tax
    item: str = ""  # non-cash prize (奖杯、证书 …)
    group: str = ""  # the winner's group and 序号 (for a link to their page); "" / None for a team
    no: int | None = None


@dataclass(frozen=True, slots=True)
class PrizeList:
    header: EventHeader
    lines: tuple[PrizeLine, ...]
    notes: tuple[str, ...] = ()  # e.g. "公开组：暂列：按第 3 轮后名次。" for a group not finished
    signoff: SignOff | None = None


@dataclass(frozen=True, slots=True)
class PayoutLine:
    """奖金发放签收表 line (internal): full ID number and phone."""

    table: str
    place: int
    name: str
    unit: str
    amount: int
    id_number: str
    phone: str
    item: str = ""

    def withheld_fen(self, percent: int) -> int:
        """Tax withheld in 分 (1/100 元): exact, as the amount is whole 元 and the rate whole percent
        (奖金为税前: the amount is before tax).

        >>> line = PayoutLine("个人", 1, "甲", "", 333, "", "")
        >>> line.withheld_fen(20), line.net_fen(20)
        (6660, 26640)
        """
        return self.amount * percent

    def net_fen(self, percent: int) -> int:
        """What the winner receives after the tax withheld, in 分."""
        return self.amount * 100 - self.withheld_fen(percent)


def yuan(fen: int) -> str:
    """分 as 元 with two decimals and thousands separators: ``6660`` → ``66.60``.

    >>> yuan(1_234_567)
    '12,345.67'
    """
    return f"{fen // 100:,}.{fen % 100:02d}"


@dataclass(frozen=True, slots=True)
class PayoutSheet:
    header: EventHeader
    lines: tuple[PayoutLine, ...]
    withholding_percent: int = 0  # 代扣个人所得税 (偶然所得 20%); 0 = no tax columns
    signoff: SignOff | None = None


@dataclass(frozen=True, slots=True)
class RecordDuty:
    """A board whose game record (录谱) is due; ``recorder`` names who records, if known."""

    board: int
    red: PlayerLine
    black: PlayerLine
    recorder: str = ""


@dataclass(frozen=True, slots=True)
class RecordSheets:
    header: EventHeader
    duties: tuple[RecordDuty, ...]
    moves: int = 80


@dataclass(frozen=True, slots=True)
class EntryLine:
    """参赛名单 line (public)."""

    no: int
    name: str
    unit: str
    gender: str  # 男 / 女
    team: str = ""


@dataclass(frozen=True, slots=True)
class InternalEntryLine:
    """参赛名单 line (internal, 内部): check-in, fee, insurance and the ID number as given."""

    no: int
    name: str
    unit: str
    gender: str
    team: str
    checked_in: bool
    fee_paid: bool
    insurance: bool
    id_number: str  # pass ``mask_id_number(...)`` to print it masked
    phone: str = ""


@dataclass(frozen=True, slots=True)
class EntryList:
    """Public entry list of one group (``header.group``), lines in printing order."""

    header: EventHeader
    lines: tuple[EntryLine, ...]
    order_label: str = ""  # e.g. "按等级分排列"
    signoff: SignOff | None = None


@dataclass(frozen=True, slots=True)
class InternalEntryList:
    header: EventHeader
    lines: tuple[InternalEntryLine, ...]
    order_label: str = ""
    signoff: SignOff | None = None


@dataclass(frozen=True, slots=True)
class BracketGame:
    kind: str  # 慢棋 / 快棋 / 附加赛
    red: str
    black: str
    result_zh: str = ""
    red_no: int | None = None
    black_no: int | None = None


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One knockout match: ``code`` e.g. "QF1", ``round_name`` e.g. "1/4决赛"; high/low as "1 王天一"."""

    code: str
    round_name: str
    high: str
    low: str
    games: tuple[BracketGame, ...] = ()
    winner: str = ""
    title: str = ""  # e.g. "冠亚军决赛", "第5名决赛"
    # the players as (seed, 序号, name) once known: ``high`` and ``low`` print the seed, pages say both
    high_player: tuple[int, int, str] | None = None
    low_player: tuple[int, int, str] | None = None
    winner_no: int | None = None


@dataclass(frozen=True, slots=True)
class Bracket:
    """淘汰赛对阵图: ``columns`` are the tree's rounds left to right, each a tuple of matches in order.

    The main tree is columns[0] (quarter-finals, 4 matches), [1] (semi-finals, 2), [2] (final, 1);
    ``extra`` holds the placement matches (3rd place, 5–8 bracket) printed under the tree.
    """

    header: EventHeader
    columns: tuple[tuple[BracketMatch, ...], ...]
    extra: tuple[BracketMatch, ...] = ()
    losers: tuple[tuple[BracketMatch, ...], ...] = ()  # double elimination: the losers' bracket, by round


@dataclass(frozen=True, slots=True)
class AuditLine:
    at: str
    who: str
    action: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class ResultWorkbook:
    """Everything the Excel result workbook holds (one or several groups)."""

    event_name: str
    entries: tuple[EntryList, ...] = ()
    rounds: tuple[PairingList, ...] = ()
    standings: tuple[Standings, ...] = ()
    crosstables: tuple[Crosstable, ...] = ()
    teams: tuple[TeamStandings, ...] = ()
    prizes: PrizeList | None = None
    audit: tuple[AuditLine, ...] = field(default=())
    round_robins: tuple[RoundRobinTable, ...] = ()  # 循环赛成绩表 (square), for the groups playing one


# --------------------------------------------------------------------------- paperwork


@dataclass(frozen=True, slots=True)
class CheckInLine:
    """报到表 line (internal): the ID number is masked; flags as registered."""

    no: int | None
    name: str
    gender: str
    unit: str
    id_masked: str
    rating: int | None
    insurance: bool
    pledge: bool
    fee_paid: bool
    checked_in: bool


@dataclass(frozen=True, slots=True)
class CheckInSheet:
    """报到表 of one group: who has paid, who owes, who has checked in; totals in 元."""

    header: EventHeader
    lines: tuple[CheckInLine, ...]
    fee_yuan: int
    order_label: str = ""
    signoff: SignOff | None = None

    @property
    def due(self) -> int:
        return self.fee_yuan * len(self.lines)

    @property
    def paid(self) -> int:
        return self.fee_yuan * sum(line.fee_paid for line in self.lines)

    @property
    def owed(self) -> int:
        return self.due - self.paid


@dataclass(frozen=True, slots=True)
class BookGroup:
    """One group in the results book: every round's results, the final (or current) standings, teams."""

    name: str
    rounds: tuple[PairingList, ...]
    standings: Standings | None = None
    final: bool = False  # the standings are the final ranking
    teams: TeamStandings | None = None
    bracket: Bracket | None = None


@dataclass(frozen=True, slots=True)
class ResultsBook:
    """成绩册: the whole event in one document — regulation summary, officials, every group's rounds,
    standings, teams and knockout, and the prizes."""

    header: EventHeader
    summary: tuple[tuple[str, str], ...]  # (item, text) of the regulation
    officials: tuple[tuple[str, str], ...]  # (role, name)
    organiser: str
    groups: tuple[BookGroup, ...]
    prizes: PrizeList | None = None
    signoff: SignOff | None = None
    provisional: bool = False  # printed before the event is over


@dataclass(frozen=True, slots=True)
class Certificate:
    """One 获奖证书, its texts already filled from the template."""

    title: str
    body: str
    signature: str
    date: str


@dataclass(frozen=True, slots=True)
class Certificates:
    header: EventHeader
    certificates: tuple[Certificate, ...]


@dataclass(frozen=True, slots=True)
class AvoidanceLine:
    """A named pair kept apart: both players (序号 and name), how strongly, in which rounds, why."""

    first: str
    second: str
    strength: str  # 绝对回避 / 尽量回避
    rounds: str  # e.g. 每轮, 第2—4轮
    reason: str = ""


@dataclass(frozen=True, slots=True)
class AvoidanceList:
    """回避名单 (内部) of one group: the regulation's unit / region rules and the named pairs."""

    header: EventHeader
    rules: tuple[str, ...]
    pairs: tuple[AvoidanceLine, ...]
    signoff: SignOff | None = None


# --------------------------------------------------------------------------- the players' own pages (hall)


@dataclass(frozen=True, slots=True)
class PlayerGame:
    """One game of a player's round, seen from the player's side (or a round without a game).

    ``outcome``: 胜 和 负 弃胜 弃负 双弃 (played or forfeited), 轮空, 请假, 未报名 / 补n分, or "" while
    pending; a knockout game adds what it is (``stage``) and its result as printed (和（黑胜）).
    ``record``: the game's number on its board when a game record (棋谱) is stored, else 0.
    """

    board: int | None
    colour: str = ""  # 红 / 黑 / ""
    opponent: int | None = None
    opponent_name: str = ""
    outcome: str = ""
    stage: str = ""  # e.g. "四分之一决赛第1场 第2局 快棋（换先）"
    result_zh: str = ""  # the game as printed on the board's line (红胜, 和（黑胜）…)
    record: int = 0


@dataclass(frozen=True, slots=True)
class PlayerRound:
    """A player's round: its games (a knockout match may have several) and the Swiss score after it
    (``None`` while the player's game of the round has no result)."""

    round: int
    games: tuple[PlayerGame, ...]
    score_after: Number | None = None


@dataclass(frozen=True, slots=True)
class Neighbour:
    """The player ranked just above or below, and what separates the two (区分依据)."""

    rank: int
    no: int
    name: str
    why: str


@dataclass(frozen=True, slots=True)
class NextGame:
    """A player's game that is paired and not played yet (the board to go to)."""

    round: int
    board: int
    colour: str
    opponent: int
    opponent_name: str
    stage: str = ""
    starts: str = ""  # "7月26日 09:00", "" when the schedule does not say
    time_control: str = ""


@dataclass(frozen=True, slots=True)
class PlayerCard:
    """一名棋手的页面: every round, the place now with the tiebreaks and its neighbours, the next board."""

    no: int
    name: str
    unit: str
    rounds: tuple[PlayerRound, ...]
    score: Number
    rank: int | None = None
    tiebreaks: tuple[tuple[str, Number | str], ...] = ()
    above: Neighbour | None = None
    below: Neighbour | None = None
    next_game: NextGame | None = None
    note: str = ""  # 退赛 / 取消资格
    unpaired: str = ""  # the latest round has no game for the player: 轮空 / 请假


@dataclass(frozen=True, slots=True)
class PlayerBook:
    """Every player of a group for their own pages; ``basis`` says what the places are after
    (``第 3 轮后``, ``最终名次``, "" before any round is complete)."""

    header: EventHeader
    chain: tuple[str, ...]
    basis: str
    players: tuple[PlayerCard, ...]

    def card(self, no: int) -> PlayerCard | None:
        return next((p for p in self.players if p.no == no), None)


@dataclass(frozen=True, slots=True)
class ScheduleLine:
    """One round of the schedule: when it starts and under which time controls."""

    round: int
    starts: str  # "7月26日 09:00", "" = 待定
    stage: str  # 积分编排 / 淘汰赛
    time_controls: tuple[tuple[str, str], ...]  # (game, control): ("", "20′+10″"), ("慢棋", "20′+5″") …


@dataclass(frozen=True, slots=True)
class Schedule:
    """赛程: the rounds of each group with their start and time controls."""

    header: EventHeader
    groups: tuple[tuple[str, tuple[ScheduleLine, ...]], ...]


@dataclass(frozen=True, slots=True)
class GameMove:
    """One move of a game record: its number (回合), side and Chinese notation, the position after it."""

    ply: int
    number: int
    colour: str  # 红 / 黑
    text: str  # 炮二平五
    fen: str  # the position after the move (board and side)


@dataclass(frozen=True, slots=True)
class GameView:
    """棋谱 on a board: the game's players and result, the start position and every move."""

    header: EventHeader
    board: int
    game_no: int
    red: PlayerLine
    black: PlayerLine
    result_zh: str
    start_fen: str
    moves: tuple[GameMove, ...]
    stage: str = ""
