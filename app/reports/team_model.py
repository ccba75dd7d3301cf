"""Read models of the team competition documents (团体赛): what the PDFs, the workbook and the hall pages
show. Built by :mod:`app.services.team_exports`; public documents carry names, teams and numbers only — never
an ID or phone number.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.reports.model import EventHeader, SignOff


@dataclass(frozen=True, slots=True)
class SheetSeat:
    no: int | None
    name: str

    @property
    def label(self) -> str:
        """``101 张三``; an empty seat of a set board reads ``（空台）``; a board not set yet is blank."""
        return f"{self.no} {self.name}" if self.no is not None else self.name


@dataclass(frozen=True, slots=True)
class SheetTie:
    """A tie-break game of a board: number in the ladder, kind, time control, Red, Black, result."""

    number: int
    kind: str
    time_control: str
    red: SheetSeat
    black: SheetSeat
    result: str  # 红胜 / 和 / 黑胜 …, "" while not played


@dataclass(frozen=True, slots=True)
class SheetBoard:
    """A board of a match: the hall's table number, the board in the match, the two players, which is Red,
    the result and the 局分 (empty while not played)."""

    table: int
    board: int
    home: SheetSeat
    away: SheetSeat
    home_red: bool
    result: str = ""
    home_points: str = ""
    away_points: str = ""
    ties: tuple[SheetTie, ...] = ()


@dataclass(frozen=True, slots=True)
class MatchSheet:
    """One match (一场) with its boards: the card on its tables and the score sheet (对阵单) the captains sign."""

    number: int
    home: str
    away: str
    home_no: int
    away_no: int | None
    boards: tuple[SheetBoard, ...]
    home_captain: str = ""
    away_captain: str = ""
    home_points: str = ""  # 局分, empty while undecided
    away_points: str = ""
    home_match_points: str = ""  # 场分
    away_match_points: str = ""
    outcome: str = ""  # how it was decided (局分 5:3，主队胜 …)
    code: str = ""  # a knockout match's title
    link: str = ""  # the match's hall page (a QR code)

    @property
    def tables(self) -> str:
        """``第 1–4 台``."""
        if not self.boards:
            return ""
        return f"第 {self.boards[0].table}–{self.boards[-1].table} 台"


@dataclass(frozen=True, slots=True)
class TeamRoundDoc:
    """A round's matches: the table cards (团体台卡) and the score sheets (对阵单)."""

    header: EventHeader
    matches: tuple[MatchSheet, ...]
    byes: tuple[str, ...]
    boards_per_match: int
    time_control: str
    tie_rule: str
    scoring: str  # "局分 胜2和1负0；场分 胜2和1负0"


@dataclass(frozen=True, slots=True)
class LineupForm:
    """A team's line-up form (排阵单) for a round: the opponent, whether it is at home (its colours by board),
    its registered players to choose from, and the line-up handed in (if any)."""

    team: str
    team_no: int
    opponent: str
    home: bool
    colours: tuple[str, ...]  # 红 / 黑 per board
    roster: tuple[tuple[int | None, str, bool], ...]  # (no, name, reserve), registered order
    handed_in: tuple[SheetSeat, ...] = ()
    handed_in_by: str = ""
    handed_in_at: str = ""
    captain: str = ""
    order_rule: str = ""


@dataclass(frozen=True, slots=True)
class LineupForms:
    header: EventHeader
    forms: tuple[LineupForm, ...]


@dataclass(frozen=True, slots=True)
class TeamCrossRow:
    rank: int
    no: int
    team: str
    cells: tuple[str, ...]  # per round: "3主 5:3" / "轮空" / ""
    match_points: int
    game_points: int
    matches: tuple[int | None, ...] = ()  # per round: the number of the team's match (None: none)


@dataclass(frozen=True, slots=True)
class TeamCrosstable:
    """团体成绩总表: per team and round the opponent (主/客) and the 局分, then 场分, 局分 and the place."""

    header: EventHeader
    rounds: int
    rows: tuple[TeamCrossRow, ...]
    signoff: SignOff | None = None


@dataclass(frozen=True, slots=True)
class TeamEventRow:
    rank: int
    no: int
    team: str
    played: int
    won: int
    drawn: int
    lost: int
    match_points: int
    game_points: int
    tiebreaks: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class TeamEventStandings:
    """团体名次表 of a team competition: 场分, 局分 and the chain's tiebreaks."""

    header: EventHeader
    chain: tuple[str, ...]  # the tiebreaks' names after 场分 (局分 first by default)
    rows: tuple[TeamEventRow, ...]
    notes: tuple[str, ...] = ()
    signoff: SignOff | None = None

    def table(self) -> tuple[list[str], list[list[str | int]]]:
        """The standings as one table (the workbook's sheet, the hall's page): 局分 has its own column,
        the chain's other tiebreaks follow it."""
        more = [i for i, name in enumerate(self.chain) if name != "局分"]
        header = [
            "名次",
            "队号",
            "队名",
            "场次",
            "胜",
            "和",
            "负",
            "场分",
            "局分",
            *(self.chain[i] for i in more),
            "备注",
        ]
        rows: list[list[str | int]] = [
            [
                r.rank,
                r.no,
                r.team,
                r.played,
                r.won,
                r.drawn,
                r.lost,
                r.match_points,
                r.game_points,
                *(r.tiebreaks[i] for i in more),
                r.note,
            ]
            for r in self.rows
        ]
        return header, rows


@dataclass(frozen=True, slots=True)
class BoardPrizeLine:
    rank: int
    no: int
    name: str
    team: str
    games: int
    points: int
    percentage: str
    eligible: bool


@dataclass(frozen=True, slots=True)
class BoardPrizeTable:
    board: int
    lines: tuple[BoardPrizeLine, ...]


@dataclass(frozen=True, slots=True)
class BoardPrizes:
    """台次奖: each board's players ranked, the ones with enough games first."""

    header: EventHeader
    boards: tuple[BoardPrizeTable, ...]
    min_games: int
    basis: str
    places: int
    signoff: SignOff | None = None


@dataclass(frozen=True, slots=True)
class TeamEventBook:
    """A team competition in the result workbook: every round's matches, the standings, the crosstable and
    the board prizes."""

    group: str
    rounds: tuple[TeamRoundDoc, ...]
    standings: TeamEventStandings
    crosstable: TeamCrosstable
    prizes: BoardPrizes


# --------------------------------------------------------------------------- a team's own page (hall, static site)


@dataclass(frozen=True, slots=True)
class TeamMember:
    """A registered player of a team, in registered order (board order, reserves last): what the team's
    page lists. Name and number only — never an ID or phone number."""

    order: int
    no: int | None
    name: str
    reserve: bool
    note: str = ""  # 退赛 / 取消成绩
    games: int = 0  # games played over the board (a forfeit is no game)
    points: int = 0  # 局分 scored on the boards (forfeits included)


@dataclass(frozen=True, slots=True)
class TeamBoardLine:
    """A board of a team's match, seen from the team: our colour, our player, theirs, the result as
    entered (from Red's side), our outcome (胜 / 和 / 负, "" while not played) and the 局分 ours:theirs."""

    board: int
    colour: str
    player: SheetSeat
    opponent: SheetSeat
    result: str
    outcome: str
    points: str
    ties: tuple[SheetTie, ...] = ()


@dataclass(frozen=True, slots=True)
class TeamRoundLine:
    """A team's match of one round (or its bye): the opponent, home or away, the boards, the score."""

    round: int
    match: int | None  # the match's number in the round; None: a bye
    opponent_no: int | None
    opponent: str
    home: bool
    boards: tuple[TeamBoardLine, ...] = ()
    game_points: str = ""  # 局分 ours:theirs, "" while not decided
    match_points: str = ""  # 场分 this match gave us, "" while not decided
    outcome: str = ""  # 胜 / 和 / 负 / 轮空 / 进行中 / 待排阵
    how: str = ""  # how it was decided (局分 5:3，主队胜 …)


@dataclass(frozen=True, slots=True)
class TeamCard:
    """One team's page: roster in registered order, captain and leader, place and scores, its matches."""

    no: int
    name: str
    leader: str
    captain: str
    roster: tuple[TeamMember, ...]
    rounds: tuple[TeamRoundLine, ...]
    rank: int | None = None  # None while no round is complete
    match_points: int = 0
    game_points: int = 0
    tiebreaks: tuple[tuple[str, str], ...] = ()  # the chain's values after 场分 and 局分
    note: str = ""  # what separated the team from the one below (以直胜列前 …)


@dataclass(frozen=True, slots=True)
class TeamBook:
    """Every team's page of a team competition; ``basis`` says after which round the places are."""

    header: EventHeader
    teams: tuple[TeamCard, ...]
    basis: str = ""

    def card(self, no: int) -> TeamCard | None:
        return next((t for t in self.teams if t.no == no), None)
