"""FIDE Tournament Report File (TRF16-compatible, TRF-2026 scoring record) for one group: text in, text out.

Written so that pairings and tiebreaks can be cross-checked with chess programs (bbpPairings,
JaVaFo, Swiss-Manager). Red plays the role of White (``w``), Black of Black (``b``).

Records written (columns are 1-based characters; a Chinese name counts one character per glyph):

- ``012`` tournament name, with the group in full-width brackets: ``012 天水邀请赛（公开组）``
- ``022`` venue, ``032`` federation ``CHN``, ``042`` / ``052`` start / end date ``YYYY/MM/DD``,
  ``062`` number of players, ``072`` number of rated players, ``092`` type of tournament,
  ``122`` time control.
- ``001`` one line per player: start rank (= 序号) 5–8, sex 10 (``m``/``w``), name 15–47, rating 49–52,
  federation 54–56, birth date 70–79, points 81–84 (``%4.1f``), rank 86–89, then per round a block
  of ten characters ``  OOOO c r``: opponent start rank, colour ``w``/``b``, result ``1 = 0`` over the
  board, ``+``/``-`` forfeit win/loss (a double forfeit is ``-`` on both sides), a blank result for a
  game not yet played; ``0000 - U`` a pairing-allocated bye (worth the bye points), ``0000 - Z`` not
  paired that round (withdrawn, absent, late entry: TRF-2026's zero-point bye, known absence).
- ``013`` teams: name 5–36, then the members' start ranks, 5 characters each.
- ``162`` the scoring system in TRF-2026 columns: a result code in column 6, 15, 24, … and its points
  (``%4.1f``) in the four columns after it: ``W`` win (over the board, by forfeit, full-point bye),
  ``D`` draw, ``L`` loss, ``P`` pairing-allocated bye, and ``A`` absence (forfeit loss) only when it
  is not TRF-2026's default 0.0 (bbpPairings' reader refuses ``A``; the ``BBx`` lines carry it).
- ``XQS`` (this program's extension) the exact points where TRF-2026 cannot say them — colour-dependent
  draws, a forfeit win worth other than a win: ``XQS win red_draw black_draw loss bye forfeit_win
  forfeit_loss``. A reader that knows ``XQS`` takes it over ``162``.
- ``BBW BBD BBL BBZ BBF BBU`` the same points in bbpPairings' own records (value in columns 5–8), so
  that bbpPairings pairs with 2/1/0.
- ``XQB`` (this program's extension, ignored by other readers): ``XQB RRR  NNNN NNNN …`` the red
  player's start rank on each board of round RRR, so that board numbers survive a round trip.

>>> from app.engine.types import Game, GameResult, RoundRecord
>>> event = TrfEvent("赛事", "公开组", players=(TrfPlayer(1, "甲"), TrfPlayer(2, "乙")),
...                  rounds=(RoundRecord(1, (Game(1, 1, 2, GameResult.RED_WIN),)),))
>>> [l for l in write_trf(event).splitlines() if l.startswith("001")][0][80:]
' 2.0    1     2 w 1'
>>> read_trf(write_trf(event)).rounds == event.rounds
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date

from app.engine.regulations import Points
from app.engine.types import Game, GameResult, RoundRecord, UserError

ROUND_COLUMN = 91  # 0-based index where the first round block starts ("  OOOO c r")
ROUND_WIDTH = 10
NAME_WIDTH = 33  # columns 15-47 of a 001 line
TEAM_WIDTH = 32  # columns 5-36 of a 013 line
DEFAULT_KIND = "Swiss system (Chinese Xiangqi Association rules)"


class TrfError(UserError):
    """A TRF text that cannot be read, with the line that is wrong."""


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    no: int
    name: str
    rating: int | None = None
    sex: str = ""  # "m", "w" or ""
    birth_date: date | None = None
    federation: str = ""
    fide_id: str = ""


@dataclass(frozen=True, slots=True)
class TrfTeam:
    """A team of a team competition (``310``): its number, name, members in registered order (board
    order), 场分 (match points), 局分 (game points) and place."""

    no: int
    name: str
    members: tuple[int, ...]
    match_points: float = 0.0
    game_points: float = 0.0
    rank: int = 0


@dataclass(frozen=True, slots=True)
class TrfTeamMatch:
    """A match of two teams in a round: the first-named (home, the ``w`` team of ``802``) and the other,
    their game points (None while the match is not decided), a forfeit of the whole match (``330``:
    ``+-`` the home team wins, ``-+`` the away team wins, ``--`` neither appeared)."""

    round: int
    white: int
    black: int
    white_points: float | None = None
    black_points: float | None = None
    forfeit: str = ""


@dataclass(frozen=True, slots=True)
class TrfTeamSection:
    """The TRF-2026 team section of a team competition (docs/teams.md, "TRF")."""

    teams: tuple[TrfTeam, ...]
    matches: tuple[TrfTeamMatch, ...] = ()
    #: (round, team) of each pairing-allocated bye (``320``)
    byes: tuple[tuple[int, int], ...] = ()
    #: ``352``: the first-named team's colour on each board (``WBWB``: Red on boards 1 and 3)
    colours: str = ""
    #: ``362``: 场分 of a team win, draw, loss
    match_points: tuple[float, float, float] = (2.0, 1.0, 0.0)
    #: ``320``: a bye's match points and game points
    bye_points: tuple[float, float] = (2.0, 0.0)
    #: ``300``: (round, team, opponent, the players on boards 1 … n, 0 = empty) of every line-up that is
    #: not the team's first n registered players in order
    out_of_order: tuple[tuple[int, int, int, tuple[int, ...]], ...] = ()
    #: ``299 +``: (round, player, game points) of a player whose board's other seat was empty
    forfeit_wins: tuple[tuple[int, int, float], ...] = ()


@dataclass(frozen=True, slots=True)
class TrfEvent:
    """One group of a tournament as TRF sees it."""

    name: str
    group: str
    players: tuple[TrfPlayer, ...] = ()
    rounds: tuple[RoundRecord, ...] = ()
    points: Points = Points()  # noqa: RUF009 - frozen value
    teams: tuple[tuple[str, tuple[int, ...]], ...] = ()
    planned_rounds: int | None = None  # 142 / XXR; None: the rounds written
    venue: str = ""
    federation: str = "CHN"
    start_date: date | None = None
    end_date: date | None = None
    time_control: str = ""
    kind: str = DEFAULT_KIND
    team_section: TrfTeamSection | None = None  # a team competition's 310/320/330/300/299/802 records
    # read back from the file only (the writer computes them): no → (points, rank)
    scores: Mapping[int, tuple[float, int]] = field(default_factory=dict, compare=False)
    # read back only: whether the file said its scoring (162, XQS or BB* records); without one the
    # file's points are TRF's standard 1/½/0, and ``points`` is that scoring doubled (2/1/0)
    scoring_given: bool = field(default=True, compare=False)
    # read back only: whether the 012 title had a （group） part
    group_given: bool = field(default=True, compare=False)


def _date(d: date | None) -> str:
    return "" if d is None else f"{d.year:04d}/{d.month:02d}/{d.day:02d}"


def _parse_date(text: str, line: str) -> date | None:
    text = text.strip()
    if not text:
        return None
    try:
        y, m, d = (int(x) for x in text.replace("-", "/").split("/"))
        return date(y, m, d)
    except ValueError:
        raise TrfError(f"TRF 日期“{text}”无效：{line}", f"invalid TRF date {text!r}: {line}") from None


def player_points(event: TrfEvent) -> dict[int, float]:
    """Points of each player from the rounds (byes at the bye value, pending games nothing).

    >>> from app.engine.types import Game, GameResult, RoundRecord
    >>> e = TrfEvent("e", "g", (TrfPlayer(1, "a"), TrfPlayer(2, "b"), TrfPlayer(3, "c")),
    ...              (RoundRecord(1, (Game(1, 2, 1, GameResult.DRAW),), (3,)),))
    >>> player_points(e)
    {1: 1.0, 2: 1.0, 3: 2.0}
    """
    total = {p.no: 0.0 for p in event.players}
    for rnd in event.rounds:
        for g in rnd.games:
            red, black = event.points.for_result(g.result)
            total[g.red] = total.get(g.red, 0.0) + red
            total[g.black] = total.get(g.black, 0.0) + black
        for no in rnd.byes:
            total[no] = total.get(no, 0.0) + event.points.bye
        for absence in rnd.absent:  # a late entry's compensation (points only); an excused round adds 0
            total[absence.no] = total.get(absence.no, 0.0) + absence.points
    if event.team_section is not None:  # 299 +: a board whose other seat was empty
        for _round, no, value in event.team_section.forfeit_wins:
            total[no] = total.get(no, 0.0) + value
    return total


def points_ranks(event: TrfEvent) -> dict[int, int]:
    """Ranks by points, then start rank (used when the caller has no tiebreak standings)."""
    pts = player_points(event)
    order = sorted(pts, key=lambda no: (-pts[no], no))
    return {no: i + 1 for i, no in enumerate(order)}


_RESULT_FOR: dict[tuple[GameResult, bool], str] = {
    (GameResult.RED_WIN, True): "1",
    (GameResult.RED_WIN, False): "0",
    (GameResult.BLACK_WIN, True): "0",
    (GameResult.BLACK_WIN, False): "1",
    (GameResult.DRAW, True): "=",
    (GameResult.DRAW, False): "=",
    (GameResult.BLACK_FORFEIT, True): "+",
    (GameResult.BLACK_FORFEIT, False): "-",
    (GameResult.RED_FORFEIT, True): "-",
    (GameResult.RED_FORFEIT, False): "+",
    (GameResult.DOUBLE_FORFEIT, True): "-",
    (GameResult.DOUBLE_FORFEIT, False): "-",
    (GameResult.PENDING, True): " ",
    (GameResult.PENDING, False): " ",
}


def _round_block(rnd: RoundRecord, no: int, full: int = 0) -> str:
    for g in rnd.games:
        if g.red == no:
            return f"  {g.black:4d} w {_RESULT_FOR[(g.result, True)]}"
        if g.black == no:
            return f"  {g.red:4d} b {_RESULT_FOR[(g.result, False)]}"
    if no in rnd.byes:
        return "  0000 - U"
    points = next((a.points for a in rnd.absent if a.no == no), 0)
    if points:  # a late entry's compensated round: TRF-2026's half-point (H) or full-point (F) bye
        return "  0000 - F" if points >= full else "  0000 - H"
    return "  0000 - Z"


def _fmt_points(value: float) -> str:
    return f"{value:4.1f}"


def scoring_record(points: Points) -> str:
    """The TRF-2026 ``162`` record: codes in columns 6, 15, 24 …, each followed by its points.

    >>> scoring_record(Points())
    '162  W 2.0    D 1.0    L 0.0    P 2.0'
    >>> scoring_record(Points(forfeit_loss=-1))
    '162  W 2.0    D 1.0    L 0.0    A-1.0    P 2.0'
    """
    entries = [("W", points.win), ("D", points.red_draw), ("L", points.loss)]
    if points.forfeit_loss != 0:  # TRF-2026's default for A is 0.0
        entries.append(("A", points.forfeit_loss))
    entries.append(("P", points.bye))
    return ("162  " + "    ".join(f"{code}{value:4.1f}" for code, value in entries)).rstrip()


def exact_points_record(points: Points) -> str | None:
    """``XQS`` when TRF-2026's ``162`` cannot say the points exactly, else None.

    >>> exact_points_record(Points(red_draw=1, black_draw=2))
    'XQS 2 1 2 0 2 2 0'
    """
    if points.red_draw == points.black_draw and points.forfeit_win == points.win:
        return None
    values = (
        points.win,
        points.red_draw,
        points.black_draw,
        points.loss,
        points.bye,
        points.forfeit_win,
        points.forfeit_loss,
    )
    return "XQS " + " ".join(str(v) for v in values)


def write_trf(event: TrfEvent, ranks: Mapping[int, int] | None = None, for_pairing: bool = False) -> str:
    """The TRF text of one group; ``ranks`` (no → place) from the standings, else by points.

    ``for_pairing``: the file a pairing engine is given to pair the next round — only rounds whose
    results are all in, and no team records (bbpPairings refuses ``013``).
    """
    if for_pairing:
        complete = tuple(r for r in event.rounds if not any(g.result.is_pending for g in r.games))
        done = 0
        while done < len(complete) and complete[done].number == done + 1:
            done += 1
        event = replace(event, rounds=complete[:done], teams=())
    pts = player_points(event)
    place = dict(ranks) if ranks is not None else points_ranks(event)
    lines = [
        f"012 {event.name}（{event.group}）",
        f"022 {event.venue}",
        f"032 {event.federation}",
        f"042 {_date(event.start_date)}",
        f"052 {_date(event.end_date)}",
        f"062 {len(event.players)}",
        f"072 {sum(1 for p in event.players if p.rating)}",
        f"092 {event.kind}",
        f"122 {event.time_control}",
    ]
    rounds = sorted(event.rounds, key=lambda r: r.number)
    planned = max(event.planned_rounds or 0, len(rounds))
    if planned:
        lines += [f"142 {planned}", f"XXR {planned}"]
    for n, rnd in enumerate(rounds, start=1):
        if rnd.number != n:
            raise TrfError(f"轮次不连续：缺少第 {n} 轮", f"rounds are not consecutive: round {n} is missing")
    _refuse_what_trf_cannot_hold(event)
    for p in sorted(event.players, key=lambda p: p.no):
        rating = f"{p.rating:4d}" if p.rating else "    "
        head = (
            f"001 {p.no:4d} {(p.sex or ' ')[:1]}{'':3} {p.name:<33} {rating} {p.federation[:3]:<3} "
            f"{p.fide_id[:11]:>11} {_date(p.birth_date):<10} {_fmt_points(pts.get(p.no, 0.0))} "
            f"{place.get(p.no, 0):4d}"
        )
        lines.append((head + "".join(_round_block(r, p.no, event.points.win) for r in rounds)).rstrip())
    for name, members in event.teams:
        lines.append((f"013 {name:<32}" + "".join(f" {no:4d}" for no in members)).rstrip())
    lines.append(scoring_record(event.points))
    if event.team_section is not None and not for_pairing:
        lines += team_records(event.team_section, len(rounds))
    exact_record = exact_points_record(event.points)
    if exact_record is not None:
        lines.append(exact_record)
    pt = event.points
    for code, value in (
        ("BBW", pt.win),
        ("BBD", pt.red_draw),
        ("BBL", pt.loss),
        ("BBZ", 0),
        ("BBF", pt.forfeit_loss),
        ("BBU", pt.bye),
    ):
        lines.append(f"{code} {_fmt_points(value)}")
    for rnd in rounds:
        boards = sorted(rnd.games, key=lambda g: g.board)
        if [g.board for g in boards] != list(range(1, len(boards) + 1)):
            raise TrfError(
                f"第 {rnd.number} 轮台次不连续", f"round {rnd.number}: boards are not numbered 1..n"
            )
        lines.append((f"XQB {rnd.number:3d} " + "".join(f" {g.red:4d}" for g in boards)).rstrip())
    return "\n".join(lines) + "\n"


#: the default 场分 of TRF-2026's ``362`` (team win, draw, loss)
TEAM_POINTS_DEFAULT = (2.0, 1.0, 0.0)
TEAM_MEMBERS_MAX = 14  # players a 310 line can hold (columns 74-142)


def _team_points(value: float) -> str:
    return f"{value:6.1f}"


def team_records(t: TrfTeamSection, rounds: int) -> list[str]:
    """The TRF-2026 team section (columns 1-based, as FIDE's table for each record says):

    - ``352`` the first-named team's colours by board (``WBWB``);
    - ``362`` 场分 of a team win, draw, loss (``TW``, ``TD``, ``TL``) when not TRF-2026's 2/1/0;
    - ``310`` each team: number 5–7, name 9–40, nickname 42–46 (blank), strength 48–53 (blank),
      match points 55–60, game points 62–67 (``1111.5``), rank 69–71, members' start ranks 74–77,
      79–82 … (registered order, at most 14);
    - ``320`` the pairing-allocated byes: match points 5–8, game points 10–13, then the team of round 1
      in 15–17, round 2 in 19–21 … (``000``: none);
    - ``330`` a match forfeited: type 5–6 (``+-`` ``-+`` ``--``), round 8–10, white team 12–14, black
      team 16–18;
    - ``300`` a line-up out of the registered order or with an empty board: round 5–7, team 9–11,
      opponent 13–15, the players of boards 1 … from 17–20, 22–25 … (``0000``: empty);
    - ``299 +`` the game points of a player whose opponent's seat was empty: game points 14–17, round
      20–22, player 24–27;
    - ``802`` (informative) each team: number 5–7, nickname 9–13, match points 15–20, game points 22–27,
      then per round from column 29, 13 columns each: opponent (or ``PAB``/``ZPB``) 3, colour 1 after a
      blank, game points 4 after a blank, forfeit ``f``.
    """
    out = [f"352 {t.colours}"] if t.colours else []
    if t.match_points != TEAM_POINTS_DEFAULT:
        win, draw, loss = t.match_points
        out.append(f"362 TW {win:4.1f} TD {draw:4.1f} TL {loss:4.1f}")
    for team in sorted(t.teams, key=lambda x: x.no):
        head = (
            f"310 {team.no:3d} {team.name:<32} {'':5} {'':6} {_team_points(team.match_points)} "
            f"{_team_points(team.game_points)} {team.rank:3d} "
        )
        out.append((head + "".join(f" {no:4d}" for no in team.members)).rstrip())
    if t.byes:
        by_round = dict(t.byes)
        mp, gp = t.bye_points
        out.append(
            f"320 {mp:4.1f} {gp:4.1f}" + "".join(f" {by_round.get(n, 0):03d}" for n in range(1, rounds + 1))
        )
    for m in t.matches:
        if m.forfeit:
            out.append(f"330 {m.forfeit} {m.round:03d} {m.white:03d} {m.black:03d}")
    for number, team_no, opponent, players in t.out_of_order:
        out.append(f"300 {number:03d} {team_no:03d} {opponent:03d} " + " ".join(f"{p:04d}" for p in players))
    for number, no, value in t.forfeit_wins:
        out.append(f"299 +  {'':4}  {value:4.1f}  {number:03d} {no:04d}")
    byes = {(n, team_no) for n, team_no in t.byes}
    for team in sorted(t.teams, key=lambda x: x.no):
        blocks = []
        for n in range(1, rounds + 1):
            played = next((x for x in t.matches if x.round == n and team.no in (x.white, x.black)), None)
            if played is None:
                bye = (n, team.no) in byes
                blocks.append(f"{'PAB' if bye else 'ZPB'}   {t.bye_points[1] if bye else 0.0:4.1f}   ")
                continue
            white = played.white == team.no
            other = played.black if white else played.white
            points = played.white_points if white else played.black_points
            shown = "    " if points is None else f"{points:4.1f}"
            blocks.append(f"{other:3d} {'w' if white else 'b'} {shown}{'f' if played.forfeit else ' '}  ")
        out.append(
            (
                f"802 {team.no:3d} {'':5} {_team_points(team.match_points)} {_team_points(team.game_points)} "
                + "".join(blocks)
            ).rstrip()
        )
    return out


def _refuse_what_trf_cannot_hold(event: TrfEvent) -> None:
    """TRF columns have fixed widths: a longer name would be cut without a word, so it is refused."""
    too_long: list[str] = []
    for p in event.players:
        if len(p.name) > NAME_WIDTH:
            too_long.append(f"{p.no} 号姓名“{p.name}”（{len(p.name)} 字，最多 {NAME_WIDTH}）")
        if p.rating is not None and not 0 <= p.rating <= 9999:
            too_long.append(f"{p.no} 号等级分 {p.rating}")
        if p.no > 9999:
            too_long.append(f"序号 {p.no}（最多 4 位）")
    for name, _members in event.teams:
        if len(name) > TEAM_WIDTH:
            too_long.append(f"队名“{name}”（{len(name)} 字，最多 {TEAM_WIDTH}）")
    for team in event.team_section.teams if event.team_section is not None else ():
        if len(team.name) > TEAM_WIDTH:
            too_long.append(f"队名“{team.name}”（{len(team.name)} 字，最多 {TEAM_WIDTH}）")
        if len(team.members) > TEAM_MEMBERS_MAX:
            too_long.append(f"{team.name}报名 {len(team.members)} 人（310 行最多 {TEAM_MEMBERS_MAX} 人）")
        if team.no > 999:
            too_long.append(f"队号 {team.no}（最多 3 位）")
    if any(
        len(text) != len(" ".join(text.split())) or "\n" in text
        for text in (event.name, event.group, event.venue)
    ):
        too_long.append("赛事名称、组别或地点中有换行或多余空白")
    if too_long:
        shown = "；".join(too_long[:5]) + (f"……共 {len(too_long)} 处" if len(too_long) > 5 else "")
        raise TrfError(
            f"TRF 的定长字段放不下：{shown}。请先缩短再导出",
            f"the TRF's fixed-width fields cannot hold: {shown}; shorten them before exporting",
        )


# --------------------------------------------------------------------------- reading


@dataclass(slots=True)
class _Entry:
    opponent: int
    colour: str
    result: str


def _parse_001(line: str) -> tuple[TrfPlayer, float | None, int | None, list[_Entry]]:
    padded = line.ljust(ROUND_COLUMN)
    try:
        no = _number(padded[4:8], line)
    except TrfError:
        raise TrfError(
            f"TRF 001 行的起始序号无效：{line}", f"TRF 001 line has no start rank: {line}"
        ) from None
    if no < 1:
        raise TrfError(f"TRF 001 行的起始序号应从 1 起：{line}", f"TRF 001: start ranks begin at 1: {line}")
    rating_text = padded[48:52].strip()
    if rating_text and not (rating_text.isascii() and rating_text.isdigit()):
        raise TrfError(f"TRF 001 行的等级分无效：{line}", f"TRF 001: invalid rating: {line}")
    points_text = padded[80:84].strip()
    rank_text = padded[85:89].strip()
    try:
        player = TrfPlayer(
            no=no,
            name=padded[14:47].strip(),
            rating=int(rating_text) if rating_text and int(rating_text) else None,
            sex=padded[9].strip(),
            birth_date=_parse_date(padded[69:79], line),
            federation=padded[53:56].strip(),
            fide_id=padded[57:68].strip(),
        )
        points = float(points_text) if points_text else None
        rank = int(rank_text) if rank_text else None
    except ValueError:
        raise TrfError(f"TRF 001 行无法读取：{line}", f"cannot read TRF 001 line: {line}") from None
    entries = []
    rest = line[ROUND_COLUMN - 2 :] if len(line) > ROUND_COLUMN - 2 else ""
    for i in range(0, len(rest), ROUND_WIDTH):
        block = rest[i : i + ROUND_WIDTH].ljust(ROUND_WIDTH)
        opp_text = block[2:6].strip()
        try:
            opponent = int(opp_text) if opp_text else 0
        except ValueError:
            raise TrfError(
                f"TRF 001 行第 {i // ROUND_WIDTH + 1} 轮无法读取：{line}",
                f"TRF 001 line, round {i // ROUND_WIDTH + 1} unreadable: {line}",
            ) from None
        entries.append(_Entry(opponent, block[7], block[9]))
    return player, points, rank, entries


_POINT_CODES = {"W": "win", "D": "draw", "L": "loss", "A": "forfeit_loss", "P": "bye"}
_EXACT_FIELDS = ("win", "red_draw", "black_draw", "loss", "bye", "forfeit_win", "forfeit_loss")
_BB_CODES = {"BBW": "win", "BBD": "draw", "BBL": "loss", "BBF": "forfeit_loss", "BBU": "bye"}


def _points_from(values: dict[str, float]) -> Points:
    def get(key: str, default: int) -> int:
        v = values.get(key)
        return default if v is None else round(v)

    win = get("win", 2)
    draw = get("draw", 1)
    return Points(
        win=win,
        red_draw=get("red_draw", draw),
        black_draw=get("black_draw", draw),
        loss=get("loss", 0),
        bye=get("bye", win),
        forfeit_win=get("forfeit_win", win),
        forfeit_loss=get("forfeit_loss", get("loss", 0)),
    )


def _game_result(red: _Entry, black: _Entry | None, line: str) -> GameResult:
    r = red.result
    b = black.result if black else None
    if r == " " and b in (None, " "):
        return GameResult.PENDING
    mapping = {
        ("1", "0"): GameResult.RED_WIN,
        ("0", "1"): GameResult.BLACK_WIN,
        ("=", "="): GameResult.DRAW,
        ("+", "-"): GameResult.BLACK_FORFEIT,
        ("-", "+"): GameResult.RED_FORFEIT,
        ("-", "-"): GameResult.DOUBLE_FORFEIT,
    }
    key = (r, b if b is not None else {"1": "0", "0": "1", "=": "=", "+": "-"}.get(r, "-"))
    if key not in mapping:
        raise TrfError(
            f"TRF 中对局结果不一致（红方“{r}”，黑方“{b}”）：{line}",
            f"inconsistent TRF result (white {r!r}, black {b!r}): {line}",
        )
    return mapping[key]


def _number(text: str, line: str) -> int:
    """A start rank or round number of a TRF line (four digits at most)."""
    cleaned = text.strip()
    if not cleaned.isascii() or not cleaned.isdigit() or len(cleaned) > 4:
        raise TrfError(
            f"TRF 中“{text.strip()}”不是有效的编号：{line}", f"TRF: {text.strip()!r} is not a number: {line}"
        )
    return int(cleaned)


@dataclass(slots=True)
class _Lines:
    """What the records of a TRF text say, gathered line by line before the rounds are built."""

    name: str = ""
    group: str = ""
    info: dict[str, str] = field(default_factory=dict)
    players: list[TrfPlayer] = field(default_factory=list)
    entries: dict[int, list[_Entry]] = field(default_factory=dict)
    lines: dict[int, str] = field(default_factory=dict)
    scores: dict[int, tuple[float, int]] = field(default_factory=dict)
    teams: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    point_values: dict[str, float] = field(default_factory=dict)
    exact: dict[str, float] = field(default_factory=dict)
    bb_values: dict[str, float] = field(default_factory=dict)
    board_order: dict[int, list[int]] = field(default_factory=dict)
    group_given: bool = False
    #: the team section's records (``310 320 330 300 299 352 362 802``) as (line number, text)
    team_lines: list[tuple[int, str]] = field(default_factory=list)
    at: int = 0  # the line being read (1-based)

    def read(self, line: str) -> None:
        code = line[:3]
        if code == "001":
            self.player(line)
        elif code == "012":
            self.title(line)
        elif code in _INFO_CODES:
            self.info[code] = line[4:].strip()
        elif code == "013":
            members = tuple(_number(x, line) for x in line[36:].split())
            self.teams.append((line[4:36].strip(), members))
        elif code == "162":
            self.scoring(line)
        elif code == "XQS":
            parts = line[4:].split()
            if len(parts) != len(_EXACT_FIELDS) or not all(p.lstrip("-").isdigit() for p in parts):
                raise TrfError("TRF 的 XQS 行格式不对", "TRF XQS: malformed")
            self.exact = {k: _points_value(float(v), line) for k, v in zip(_EXACT_FIELDS, parts, strict=True)}
        elif code in _BB_CODES:
            try:
                self.bb_values[_BB_CODES[code]] = _points_value(float(line[4:8]), line)
            except ValueError:
                raise TrfError(
                    f"TRF 的 {code} 行分值无效：{line}", f"TRF {code}: invalid points: {line}"
                ) from None
        elif code == "XQB":
            self.boards(line)
        elif code in TEAM_RECORDS:
            self.team_lines.append((self.at, line))

    def player(self, line: str) -> None:
        player, pts, rank, blocks = _parse_001(line)
        if player.no in self.entries:
            raise TrfError(f"TRF 中起始序号 {player.no} 重复", f"start rank {player.no} appears twice")
        self.players.append(player)
        self.entries[player.no] = blocks
        self.lines[player.no] = line
        if pts is not None and rank is not None:
            self.scores[player.no] = (pts, rank)

    def title(self, line: str) -> None:
        title = line[4:].strip()
        if title.endswith("）") and "（" in title:
            self.name, _, self.group = title[:-1].rpartition("（")
            self.group_given = True
        else:
            self.name = self.group = title
            self.group_given = False

    def scoring(self, line: str) -> None:
        for column in range(5, len(line), 9):  # codes in columns 6, 15, 24 … (1-based)
            key, value = line[column : column + 1], line[column + 1 : column + 5]
            if key in _POINT_CODES and value.strip():
                try:
                    self.point_values[_POINT_CODES[key]] = _points_value(float(value), line)
                except ValueError:
                    raise TrfError(
                        f"TRF 的 162 行分值“{value}”无效", f"TRF 162: invalid points {value!r}"
                    ) from None

    def boards(self, line: str) -> None:
        number = _number(line[4:7], line)
        if number in self.board_order:
            raise TrfError(
                f"TRF 中第 {number} 轮的 XQB 行重复", f"TRF: the XQB line of round {number} repeats"
            )
        self.board_order[number] = [_number(x, line) for x in line[7:].split()]

    def rounds(self) -> list[RoundRecord]:
        """The rounds from the players' round blocks (every game read from White's side, mirrored)."""
        n_rounds = max((len(b) for b in self.entries.values()), default=0)
        return [self.round(r) for r in range(n_rounds)]

    def round(self, r: int) -> RoundRecord:
        games: list[tuple[int, int, GameResult]] = []
        byes: list[int] = []
        for no in sorted(self.entries):
            blocks = self.entries[no]
            if r >= len(blocks):
                continue
            e = blocks[r]
            if e.opponent == 0:
                if e.result in ("U", "F"):
                    byes.append(no)
                continue
            if e.colour != "w":
                continue
            opp = self.entries.get(e.opponent)
            other = opp[r] if opp is not None and r < len(opp) else None
            if other is None or other.opponent != no or other.colour != "b":
                raise TrfError(
                    f"TRF 第 {r + 1} 轮 {no} 号与 {e.opponent} 号的对局不对应",
                    f"round {r + 1}: the game of {no} against {e.opponent} is not mirrored",
                )
            games.append((no, e.opponent, _game_result(e, other, self.lines[no])))
        order = self.board_order.get(r + 1)
        if order is not None and sorted(order) == sorted(g[0] for g in games):
            games.sort(key=lambda g: order.index(g[0]))
        return RoundRecord(
            r + 1,
            tuple(Game(i + 1, red, black, res) for i, (red, black, res) in enumerate(games)),
            tuple(byes),
        )


_INFO_CODES = frozenset({"022", "032", "042", "052", "122", "092", "142", "XXR"})


def read_trf(text: str) -> TrfEvent:
    """Read one group from a TRF text (the records described in the module docstring)."""
    read = _Lines()
    for at, raw in enumerate(text.splitlines(), start=1):
        read.at = at
        read.read(raw.rstrip("\r\n"))
    if not read.players:
        raise TrfError("TRF 中没有棋手（001 行）", "the TRF holds no players (001 lines)")
    points = _points_from(read.exact or read.point_values or read.bb_values)
    info = read.info
    return TrfEvent(
        name=read.name,
        group=read.group,
        players=tuple(sorted(read.players, key=lambda p: p.no)),
        rounds=tuple(read.rounds()),
        points=points,
        teams=tuple(read.teams),
        venue=info.get("022", ""),
        federation=info.get("032", "") or "CHN",
        start_date=_parse_date(info.get("042", ""), "042"),
        end_date=_parse_date(info.get("052", ""), "052"),
        time_control=info.get("122", ""),
        kind=info.get("092", "") or DEFAULT_KIND,
        planned_rounds=_planned(info),
        scores=read.scores,
        scoring_given=bool(read.exact or read.point_values or read.bb_values),
        group_given=read.group_given,
        team_section=_team_section(read.team_lines),
    )


#: the TRF-2026 records of a team competition's team section
TEAM_RECORDS = frozenset({"310", "320", "330", "300", "299", "352", "362", "802"})


def _field(line: str, first: int, last: int, at: int) -> str:
    """Columns ``first``–``last`` (1-based) of a line; a line too short for them is refused."""
    if len(line) < first:
        raise TrfError(
            f"TRF 第 {at} 行太短，缺少第 {first}–{last} 列：{line}",
            f"TRF line {at} is too short for columns {first}-{last}: {line}",
        )
    return line[first - 1 : last]


def _team_number(text: str, at: int, line: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise TrfError(
            f"TRF 第 {at} 行：“{text.strip()}”不是有效的编号：{line}",
            f"TRF line {at}: {text.strip()!r} is not a number: {line}",
        ) from None


def _team_value(text: str, at: int, line: str) -> float:
    try:
        return float(text.strip() or 0)
    except ValueError:
        raise TrfError(
            f"TRF 第 {at} 行：“{text.strip()}”不是有效的分数：{line}",
            f"TRF line {at}: {text.strip()!r} is not a score: {line}",
        ) from None


def _team_section(lines: list[tuple[int, str]]) -> TrfTeamSection | None:
    """The team section read back (the records :func:`team_records` writes), or None without ``310``."""
    if not any(line.startswith("310") for _, line in lines):
        return None
    teams: list[TrfTeam] = []
    byes: list[tuple[int, int]] = []
    forfeits: dict[tuple[int, int, int], str] = {}
    out_of_order: list[tuple[int, int, int, tuple[int, ...]]] = []
    wins: list[tuple[int, int, float]] = []
    colours = ""
    match_points: tuple[float, float, float] = TEAM_POINTS_DEFAULT
    bye_points: tuple[float, float] = (2.0, 0.0)
    rounds: dict[int, list[tuple[str, int, str, float | None]]] = {}  # 802: team → per round
    for at, line in lines:
        code = line[:3]
        if code == "310":
            members = tuple(_team_number(x, at, line) for x in line[72:].split())
            teams.append(
                TrfTeam(
                    _team_number(_field(line, 5, 7, at), at, line),
                    _field(line, 9, 40, at).strip(),
                    members,
                    _team_value(_field(line, 55, 60, at), at, line),
                    _team_value(_field(line, 62, 67, at), at, line),
                    _team_number(_field(line, 69, 71, at), at, line),
                )
            )
        elif code == "352":
            colours = line[4:].strip()
        elif code == "362":
            parts = line[4:].split()
            values = dict(zip(parts[::2], parts[1::2], strict=False))
            win, draw, loss = (
                _team_value(values.get(k, str(d)), at, line)
                for k, d in zip(("TW", "TD", "TL"), TEAM_POINTS_DEFAULT, strict=True)
            )
            match_points = (win, draw, loss)
        elif code == "320":
            bye_points = (
                _team_value(_field(line, 5, 8, at), at, line),
                _team_value(_field(line, 10, 13, at), at, line),
            )
            for n, text in enumerate(line[14:].split(), start=1):
                if _team_number(text, at, line):
                    byes.append((n, _team_number(text, at, line)))
        elif code == "330":
            kind = _field(line, 5, 6, at)
            if kind not in ("+-", "-+", "--"):
                raise TrfError(
                    f"TRF 第 {at} 行：330 的弃权类型“{kind}”应为 +-、-+ 或 --",
                    f"TRF line {at}: 330 forfeit type {kind!r} must be +-, -+ or --",
                )
            key = (
                _team_number(_field(line, 8, 10, at), at, line),
                _team_number(_field(line, 12, 14, at), at, line),
                _team_number(_field(line, 16, 18, at), at, line),
            )
            forfeits[key] = kind
        elif code == "300":
            numbers = [_team_number(x, at, line) for x in line[4:].split()]
            if len(numbers) < 3:
                raise TrfError(f"TRF 第 {at} 行：300 记录不完整：{line}", f"TRF line {at}: 300 is incomplete")
            out_of_order.append((numbers[0], numbers[1], numbers[2], tuple(numbers[3:])))
        elif code == "299":
            if _field(line, 5, 5, at) != "+":
                raise TrfError(
                    f"TRF 第 {at} 行：本程序只读 299 的“+”（空台判胜）记录：{line}",
                    f"TRF line {at}: only 299 '+' records (a forfeit win on an empty board) are read",
                )
            wins.append(
                (
                    _team_number(_field(line, 20, 22, at), at, line),
                    _team_number(_field(line, 24, 27, at), at, line),
                    _team_value(_field(line, 14, 17, at), at, line),
                )
            )
        elif code == "802":
            team = _team_number(_field(line, 5, 7, at), at, line)
            blocks = []
            for start in range(29, len(line) + 1, 13):
                block = line[start - 1 : start + 12].ljust(13)
                value = block[6:10].strip()
                blocks.append(
                    (block[0:3].strip(), team, block[4], _team_value(value, at, line) if value else None)
                )
            rounds[team] = blocks
    matches = []
    for team, blocks in sorted(rounds.items()):
        for n, (other, _team, colour, points) in enumerate(blocks, start=1):
            if colour != "w" or not other.isdigit():
                continue
            black = int(other)
            theirs = rounds.get(black, [])
            black_points = theirs[n - 1][3] if n <= len(theirs) else None
            matches.append(
                TrfTeamMatch(n, team, black, points, black_points, forfeits.get((n, team, black), ""))
            )
    return TrfTeamSection(
        tuple(teams),
        tuple(sorted(matches, key=lambda m: (m.round, m.white))),
        tuple(byes),
        colours,
        match_points,
        bye_points,
        tuple(out_of_order),
        tuple(wins),
    )


#: the most points a TRF result may be worth here (the regulation's own limit is checked on import)
TRF_MAX_POINTS = 99.9
#: the most rounds an event may plan (a Swiss event of 5,000 players needs 13)
TRF_MAX_ROUNDS = 99


def _points_value(value: float, line: str) -> float:
    """A scoring record's points: not negative, not absurd, a whole or half number."""
    if not 0 <= value <= TRF_MAX_POINTS or value * 2 != int(value * 2):
        raise TrfError(
            f"TRF 分值 {value:g} 无效（应为 0–{TRF_MAX_POINTS:g} 的整数或半分）：{line}",
            f"TRF points {value:g} are invalid (0-{TRF_MAX_POINTS:g}, whole or half): {line}",
        )
    return value


def _planned(info: Mapping[str, str]) -> int | None:
    """The planned rounds of ``142`` (TRF-2026) or ``XXR`` (TRF16); each one given must be valid."""
    planned = _planned_rounds(info.get("142"))
    extension = _planned_rounds(info.get("XXR"))
    return planned if planned is not None else extension


def _planned_rounds(text: str | None) -> int | None:
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise TrfError(
            f"TRF 的轮数（142）“{text}”无效", f"TRF 142: invalid number of rounds {text!r}"
        ) from None
    if not 1 <= value <= TRF_MAX_ROUNDS:
        raise TrfError(
            f"TRF 的轮数（142/XXR）“{text}”无效：应在 1–{TRF_MAX_ROUNDS} 之间",
            f"TRF 142/XXR: invalid number of rounds {text!r} (1-{TRF_MAX_ROUNDS})",
        )
    return value
