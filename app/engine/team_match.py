"""A team match (团体赛): two teams on 2–6 boards, line-ups, colours by board, 局分 and 场分, ties.

A **team** registers its players in a fixed order (报名顺序; the last ones may be reserves, 替补), with a
captain (队长) and a leader (领队). Before each round it hands in a **line-up** (排阵): which players sit on
boards 1 … n (:func:`check_lineup`). Where the regulation keeps the registered order (按报名顺序排阵) the
chosen players sit in that order, reserves included. A team that hands in nothing plays its first available
players in the registered order, or in an order drawn by lot (:func:`default_lineup`).

**Colours by board** (:func:`home_is_red`): the home team (主队: the first-named team of a pairing) has Red
on boards 1 and 3 and Black on 2 and 4 (the setting ``home_red_on_odd`` turns it round). The pairings
alternate home and away so that each team's Reds balance (:mod:`app.engine.team_formats`).

**Scores** (:func:`score_match`). Each game gives 局分 (win 2, draw 1, loss 0); the match gives 场分 from the
sum of the 局分 (win 2, draw 1, loss 0). A match tied on 局分 stands as a draw, or is decided by a ladder of
games (快棋 → 超快棋 → 决胜局, each with its own time control) on one board, or every drawn board plays its
ladder (每台比赛需分出胜负) and the ladder scores as the regulation says (e.g. a tie-break loss worth 1). A
board's ladder begins with the colours of its game swapped (换先); later steps follow the ladder.

**Forfeits.** An empty seat loses its board by forfeit (both empty: nobody scores); a team that does not
appear (不到场) loses every board by forfeit and takes the 场分 of a forfeit; both absent: nobody scores.

Board 1 (home Red) won by Red, board 2 (home Black) won by Black, boards 3 and 4 drawn — the home team
scores 2 + 2 + 1 + 1 = 6 局分 to 2 and wins the match:

>>> from app.engine.team_rules import TeamMatchRules
>>> results = (GameResult.RED_WIN, GameResult.BLACK_WIN, GameResult.DRAW, GameResult.DRAW)
>>> match = TeamMatch(tuple(TeamBoard(b, 10 + b, 20 + b, r) for b, r in enumerate(results, start=1)))
>>> s = score_match(match, TeamMatchRules())
>>> (s.home_points, s.away_points, s.home_match_points, s.away_match_points, s.winner)
(6, 2, 2, 0, <Side.HOME: 'home'>)
"""

from __future__ import annotations

import enum
import itertools
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from app.engine.formats import GameKind, MatchFormat, TimeControl
from app.engine.knockout import (
    ColourMethod,
    ColourState,
    KnockoutGame,
    Match,
    colours_of_game,
    match_result,
    next_game,
)
from app.engine.team_rules import GamePoints, LineupOrder, MissingLineup, TeamMatchRules, TieRule
from app.engine.types import Colour, GameResult, UserError

__all__ = [
    "DueTieGame",
    "MatchScore",
    "RosterPlayer",
    "Side",
    "TeamBoard",
    "TeamMatch",
    "board_colours",
    "board_ladder",
    "check_lineup",
    "colour_limit_breaks",
    "default_lineup",
    "due_tie_games",
    "game_result_of",
    "home_is_red",
    "score_match",
    "tie_game_colours",
]


class Side(enum.Enum):
    HOME = "home"  # 主队 (the first-named team)
    AWAY = "away"  # 客队

    @property
    def other(self) -> Side:
        return Side.AWAY if self is Side.HOME else Side.HOME

    @property
    def zh(self) -> str:
        return "主队" if self is Side.HOME else "客队"


@dataclass(frozen=True, slots=True)
class TeamBoard:
    """One board of a match: the home and away players (None: an empty seat, 缺台), the result of the board's
    game (Red's view, as every game) and the games of its tie-break ladder (numbered 1 … within the ladder),
    with the Red of any later ladder step drawn or chosen (step index → player)."""

    board: int
    home: int | None
    away: int | None
    result: GameResult = GameResult.PENDING
    tie_games: tuple[KnockoutGame, ...] = ()
    tie_reds: tuple[tuple[int, int], ...] = ()
    home_red: bool | None = None  # set where a schedule fixes the colours (全队轮赛制); None: by board


@dataclass(frozen=True, slots=True)
class TeamMatch:
    """The boards of a match, and whether a team did not appear (不到场: every board forfeited)."""

    boards: tuple[TeamBoard, ...]
    home_absent: bool = False
    away_absent: bool = False
    seated: bool = True  # False until the line-ups are in and the boards are set (对阵单): nothing counts

    def board(self, number: int) -> TeamBoard:
        for b in self.boards:
            if b.board == number:
                return b
        raise UserError(f"本场比赛没有第 {number} 台", f"the match has no board {number}")


@dataclass(frozen=True, slots=True)
class MatchScore:
    """A match's score: 局分 of each side, 场分 once decided, the winner (None: a draw or nobody).

    ``board_points`` has (home, away) 局分 per board (None while the board is not decided); ``tie_board`` is
    the board whose ladder decides (or decided) a tied match.
    """

    home_points: int
    away_points: int
    home_match_points: int | None
    away_match_points: int | None
    winner: Side | None
    decided: bool
    reason_zh: str
    reason_en: str
    board_points: tuple[tuple[int, int] | None, ...] = ()
    tie_board: int | None = None

    @property
    def label(self) -> str:
        """``6:2`` — the 局分 as the score sheet reads it back."""
        return f"{self.home_points}:{self.away_points}"


@dataclass(frozen=True, slots=True)
class DueTieGame:
    """A tie-break game a board needs next: its number in the ladder, kind, time control and colours."""

    board: int
    number: int
    kind: GameKind
    time_control: TimeControl
    red: int | None
    black: int | None
    colours: ColourState
    step: int
    chooser: int | None = None


# --------------------------------------------------------------------------- colours


def home_is_red(board: int, rules: TeamMatchRules) -> bool:
    """Whether the home team plays Red on ``board`` (1 and 3 by default).

    >>> from app.engine.team_rules import TeamMatchRules
    >>> [home_is_red(b, TeamMatchRules()) for b in (1, 2, 3, 4)]
    [True, False, True, False]
    >>> [home_is_red(b, TeamMatchRules(home_red_on_odd=False)) for b in (1, 2)]
    [False, True]
    """
    return (board % 2 == 1) == rules.home_red_on_odd


def board_colours(board: TeamBoard, rules: TeamMatchRules) -> tuple[int | None, int | None]:
    """(red, black) players of a board's game (None for an empty seat)."""
    if _home_red(board, rules):
        return board.home, board.away
    return board.away, board.home


def _home_red(board: TeamBoard, rules: TeamMatchRules) -> bool:
    return home_is_red(board.board, rules) if board.home_red is None else board.home_red


def game_result_of(
    board: TeamBoard, rules: TeamMatchRules, home_absent: bool = False, away_absent: bool = False
) -> GameResult:
    """The result of a board's game as it counts: an empty seat or an absent team forfeits it."""
    home_gone = home_absent or board.home is None
    away_gone = away_absent or board.away is None
    if home_gone and away_gone:
        return GameResult.DOUBLE_FORFEIT
    if home_gone or away_gone:
        gone = Side.HOME if home_gone else Side.AWAY
        red_gone = (gone is Side.HOME) == _home_red(board, rules)
        return GameResult.RED_FORFEIT if red_gone else GameResult.BLACK_FORFEIT
    return board.result


def _points(result: GameResult, points: GamePoints) -> tuple[int, int]:
    """(red, black) 局分 of a result."""
    match result:
        case GameResult.RED_WIN:
            return points.win, points.loss
        case GameResult.BLACK_WIN:
            return points.loss, points.win
        case GameResult.DRAW:
            return points.draw, points.draw
        case GameResult.BLACK_FORFEIT:
            return points.forfeit_win, points.forfeit_loss
        case GameResult.RED_FORFEIT:
            return points.forfeit_loss, points.forfeit_win
        case GameResult.DOUBLE_FORFEIT:
            return points.forfeit_loss, points.forfeit_loss
        case GameResult.PENDING:
            return 0, 0
    raise AssertionError(result)  # pragma: no cover


def _home_away(board: TeamBoard, red_black: tuple[int, int], rules: TeamMatchRules) -> tuple[int, int]:
    red, black = red_black
    return (red, black) if _home_red(board, rules) else (black, red)


# --------------------------------------------------------------------------- tie-break ladders


def board_ladder(board: TeamBoard, rules: TeamMatchRules) -> Match:
    """A board's tie-break ladder as a knockout match (home = the higher seed, who chooses where a step
    is chosen); its first game swaps the colours of the board's game."""
    if board.home is None or board.away is None:
        raise UserError(
            f"第 {board.board} 台有空台，不能加赛", f"board {board.board} has an empty seat: no tie-break"
        )
    _red, black = board_colours(board, rules)
    match = Match(
        f"B{board.board}",
        0,
        high=board.home,
        low=board.away,
        colour_method=ColourMethod.MANUAL,
        first_red=black,  # 换先
        games=board.tie_games,
    )
    return match.with_colour_choices(dict(board.tie_reds), rules.tie_ladder)


def _ladder_rules(rules: TeamMatchRules) -> MatchFormat:
    return rules.tie_ladder


def tie_game_colours(board: TeamBoard, number: int, rules: TeamMatchRules) -> tuple[int, int] | None:
    """(red, black) of tie-break game ``number`` on a board (None while a lot or choice is missing)."""
    return colours_of_game(board_ladder(board, rules), number, _ladder_rules(rules))


def _ladder_winner(board: TeamBoard, rules: TeamMatchRules) -> Side | None:
    result = match_result(board_ladder(board, rules), _ladder_rules(rules))
    if result is None:
        return None
    if result.winner is None:  # both forfeited a tie-break game
        return None
    return Side.HOME if result.winner == board.home else Side.AWAY


def _ladder_done(board: TeamBoard, rules: TeamMatchRules) -> bool:
    return match_result(board_ladder(board, rules), _ladder_rules(rules)) is not None


def _tie_board(match: TeamMatch, rules: TeamMatchRules) -> int | None:
    """The board whose ladder decides a tied match: the set board, or the next one (then the ones before)
    whose game was played over the board; None when no board's game was played."""
    order = sorted(match.boards, key=lambda b: (b.board < rules.tie_board, b.board))
    for b in order:
        if b.home is not None and b.away is not None and b.result.played_over_board:
            return b.board
    return None


# --------------------------------------------------------------------------- the score


def score_match(match: TeamMatch, rules: TeamMatchRules) -> MatchScore:
    """The match's 局分 and, once decided, its 场分 and winner (see the module's docstring).

    >>> from app.engine.team_rules import TeamMatchRules
    >>> absent = TeamMatch((TeamBoard(1, 1, None), TeamBoard(2, 2, None)), away_absent=True)
    >>> s = score_match(absent, TeamMatchRules(boards=2))
    >>> s.label, s.home_match_points, s.away_match_points, s.reason_zh
    ('4:0', 2, 0, '客队未到场，主队各台弃权胜')
    """
    mp = rules.match_points
    if len(match.boards) != rules.boards or sorted(b.board for b in match.boards) != list(
        range(1, rules.boards + 1)
    ):
        raise UserError(
            f"一场比赛应有第 1–{rules.boards} 台，现有 {len(match.boards)} 台",
            f"a match has boards 1-{rules.boards}, not {len(match.boards)} boards",
        )
    boards = sorted(match.boards, key=lambda b: b.board)
    if not match.seated:
        return MatchScore(
            0, 0, None, None, None, False, "尚未排阵", "line-ups not in yet", tuple(None for _ in boards)
        )
    if match.home_absent and match.away_absent:
        return MatchScore(
            0,
            0,
            mp.forfeit_loss,
            mp.forfeit_loss,
            None,
            True,
            "双方均未到场",
            "neither team appeared",
            tuple((0, 0) for _ in boards),
        )
    if match.home_absent or match.away_absent:
        gone = Side.HOME if match.home_absent else Side.AWAY
        won = rules.game_points.forfeit_win * rules.boards
        lost = rules.game_points.forfeit_loss * rules.boards
        per = (rules.game_points.forfeit_win, rules.game_points.forfeit_loss)
        if gone is Side.HOME:
            return MatchScore(
                lost,
                won,
                mp.forfeit_loss,
                mp.win,
                Side.AWAY,
                True,
                "主队未到场，客队各台弃权胜",
                "the home team did not appear: the away team wins every board",
                tuple((per[1], per[0]) for _ in boards),
            )
        return MatchScore(
            won,
            lost,
            mp.win,
            mp.forfeit_loss,
            Side.HOME,
            True,
            "客队未到场，主队各台弃权胜",
            "the away team did not appear: the home team wins every board",
            tuple(per for _ in boards),
        )
    home = away = 0
    pending = False
    per_board: list[tuple[int, int] | None] = []
    for b in boards:
        result = game_result_of(b, rules)
        if result.is_pending:
            pending = True
            per_board.append(None)
            continue
        if rules.tie is TieRule.EVERY_BOARD and result is GameResult.DRAW:
            winner = _ladder_winner(b, rules)
            if winner is None and not _ladder_done(b, rules):
                pending = True
                per_board.append(None)
                continue
            lp = rules.ladder_points
            pts = (
                (0, 0) if winner is None else (lp.win, lp.loss) if winner is Side.HOME else (lp.loss, lp.win)
            )
        else:
            pts = _home_away(b, _points(result, rules.game_points), rules)
        per_board.append(pts)
        home += pts[0]
        away += pts[1]
    if pending:
        return MatchScore(home, away, None, None, None, False, "比赛进行中", "in play", tuple(per_board))
    if home != away:
        winner = Side.HOME if home > away else Side.AWAY
        return MatchScore(
            home,
            away,
            mp.win if winner is Side.HOME else mp.loss,
            mp.loss if winner is Side.HOME else mp.win,
            winner,
            True,
            f"局分 {home}:{away}，{winner.zh}胜",
            f"game points {home}-{away}: the {winner.value} team wins",
            tuple(per_board),
        )
    return _tied(match, rules, home, tuple(per_board))


def _tied(
    match: TeamMatch, rules: TeamMatchRules, points: int, per_board: tuple[tuple[int, int] | None, ...]
) -> MatchScore:
    mp = rules.match_points

    def won_by(side: Side, zh: str, en: str, tie_board: int | None = None) -> MatchScore:
        home_mp, away_mp = (mp.tie_win, mp.tie_loss) if side is Side.HOME else (mp.tie_loss, mp.tie_win)
        return MatchScore(points, points, home_mp, away_mp, side, True, zh, en, per_board, tie_board)

    draw = MatchScore(
        points,
        points,
        mp.draw,
        mp.draw,
        None,
        True,
        f"局分 {points}:{points}，平局",
        f"game points {points}-{points}: a draw",
        per_board,
    )
    if rules.tie is TieRule.DRAW:
        return draw
    if rules.tie is TieRule.EVERY_BOARD:
        for b, pts in zip(sorted(match.boards, key=lambda x: x.board), per_board, strict=True):
            if pts is not None and pts[0] != pts[1]:
                side = Side.HOME if pts[0] > pts[1] else Side.AWAY
                return won_by(
                    side,
                    f"局分 {points}:{points}，第 {b.board} 台{side.zh}胜（台次在前者胜）",
                    f"game points {points}-{points}: the {side.value} team won board {b.board}, the top board that differs",
                )
        return draw
    board = _tie_board(match, rules)
    if board is None:
        return draw
    b = match.board(board)
    winner = _ladder_winner(b, rules)
    if winner is None:
        if _ladder_done(b, rules):
            return draw  # both forfeited a tie-break game
        return MatchScore(
            points,
            points,
            None,
            None,
            None,
            False,
            f"局分 {points}:{points}，第 {board} 台加赛中",
            f"game points {points}-{points}: board {board} plays a tie-break",
            per_board,
            board,
        )
    game = match_result(board_ladder(b, rules), _ladder_rules(rules))
    assert game is not None
    return won_by(
        winner,
        f"局分 {points}:{points}，第 {board} 台加赛{winner.zh}胜（{game.reason_zh}）",
        f"game points {points}-{points}: the {winner.value} team won the tie-break on board {board}",
        board,
    )


def due_tie_games(match: TeamMatch, rules: TeamMatchRules) -> tuple[DueTieGame, ...]:
    """The tie-break games the match needs now (a board's ladder game entered without result counts as due):
    every drawn board's next game under :attr:`TieRule.EVERY_BOARD`; the tie board's once every board is in
    and the 局分 are level under :attr:`TieRule.BOARD_LADDER`."""
    if rules.tie is TieRule.DRAW or match.home_absent or match.away_absent or not match.seated:
        return ()
    boards: list[TeamBoard] = []
    if rules.tie is TieRule.EVERY_BOARD:
        boards = [b for b in match.boards if game_result_of(b, rules) is GameResult.DRAW]
    else:
        if any(game_result_of(b, rules).is_pending for b in match.boards):
            return ()
        score = score_match(match, rules)
        if score.decided and score.tie_board is None:
            return ()
        board = _tie_board(match, rules)
        if board is None:
            return ()
        boards = [match.board(board)]
    out = []
    for b in sorted(boards, key=lambda x: x.board):
        due = next_game(board_ladder(b, rules), _ladder_rules(rules))
        if due is None:
            continue
        out.append(
            DueTieGame(
                b.board,
                due.number,
                due.kind,
                due.time_control,
                due.red,
                due.black,
                due.colours,
                due.step,
                due.chooser,
            )
        )
    return tuple(out)


def lot_red(board: TeamBoard, step: int, seed: int) -> int:
    """The Red of a ladder step drawn by lot (reproducible from the round's seed)."""
    if board.home is None or board.away is None:
        raise UserError(f"第 {board.board} 台有空台", f"board {board.board} has an empty seat")
    home_red = random.Random(f"{seed}:B{board.board}:{step}").random() < 0.5
    return board.home if home_red else board.away


# --------------------------------------------------------------------------- line-ups


@dataclass(frozen=True, slots=True)
class RosterPlayer:
    """A registered player of a team: its number, its registered order (1 = first), reserve (替补) or not,
    and whether it may play now (not withdrawn or disqualified)."""

    no: int
    order: int
    reserve: bool = False
    available: bool = True


def check_lineup(
    team: str,
    lineup: Sequence[int | None],
    roster: Sequence[RosterPlayer],
    rules: TeamMatchRules,
    team_of: Mapping[int, str] | None = None,
) -> None:
    """Raise :class:`UserError` naming what is wrong with a team's line-up: a board count other than the
    match's, a player of another team (a player may not play for two teams) or of no team, a player named
    twice or not available, the registered order broken where the regulation keeps it. ``None`` leaves a
    board empty (that board is forfeited). ``team_of`` names the team of any numbered player of the group."""
    if len(lineup) != rules.boards:
        raise UserError(
            f"{team}的排阵应有 {rules.boards} 台，现为 {len(lineup)} 台",
            f"{team}: a line-up has {rules.boards} boards, not {len(lineup)}",
        )
    mine = {p.no: p for p in roster}
    seen: set[int] = set()
    for board, no in enumerate(lineup, start=1):
        if no is None:
            continue
        if no not in mine:
            other = (team_of or {}).get(no)
            if other:
                raise UserError(
                    f"{team}第 {board} 台：{no} 号已为{other}报名，一名棋手不能为两个队上场",
                    f"{team} board {board}: player {no} is registered for {other}; nobody plays for two teams",
                )
            raise UserError(
                f"{team}第 {board} 台：{no} 号不是本队报名的队员",
                f"{team} board {board}: player {no} is not registered for this team",
            )
        if no in seen:
            raise UserError(
                f"{team}的排阵中 {no} 号出现了两次", f"{team}: player {no} appears twice in the line-up"
            )
        seen.add(no)
        if not mine[no].available:
            raise UserError(
                f"{team}第 {board} 台：{no} 号已退赛或被取消资格，不能上场",
                f"{team} board {board}: player {no} has withdrawn or is disqualified",
            )
    if rules.lineup_order is LineupOrder.REGISTERED:
        orders = [(board, mine[no].order, no) for board, no in enumerate(lineup, start=1) if no is not None]
        for (b1, o1, n1), (b2, o2, n2) in itertools.pairwise(orders):
            if o2 < o1:
                raise UserError(
                    f"{team}须按报名顺序排阵：第 {b2} 台的 {n2} 号（报名第 {o2} 位）不能排在第 {b1} 台的 {n1} 号（第 {o1} 位）之后",
                    f"{team} keeps the registered order: board {b2} player {n2} (registered {o2}) cannot follow "
                    f"board {b1} player {n1} (registered {o1})",
                )


def default_lineup(
    roster: Sequence[RosterPlayer], rules: TeamMatchRules, seed: int | None = None
) -> tuple[int | None, ...]:
    """The line-up of a team that handed in none: its first available players in the registered order
    (main players before reserves), or those players' board order drawn by lot with ``seed``; empty boards
    where it has too few players."""
    available = sorted((p for p in roster if p.available), key=lambda p: (p.reserve, p.order))
    chosen = [p.no for p in available[: rules.boards]]
    if rules.missing_lineup is MissingLineup.LOT:
        if seed is None:
            raise UserError("抽签排阵需要抽签种子", "a line-up by lot needs a seed")
        random.Random(f"lineup:{seed}").shuffle(chosen)
    else:
        order = {p.no: p.order for p in roster}
        chosen.sort(key=lambda no: order[no])
    return (*chosen, *([None] * (rules.boards - len(chosen))))


def colour_limit_breaks(
    lineup: Sequence[int | None],
    home: bool,
    history: Mapping[int, Sequence[Colour]],
    rules: TeamMatchRules,
) -> tuple[tuple[int, int, Colour], ...]:
    """(board, player, colour) of every player the line-up would give the same colour more than
    ``player_colour_limit`` times in a row (nothing when the limit is 0)."""
    limit = rules.player_colour_limit
    if not limit:
        return ()
    out = []
    for board, no in enumerate(lineup, start=1):
        if no is None:
            continue
        colour = Colour.RED if home_is_red(board, rules) == home else Colour.BLACK
        past = list(history.get(no, ()))
        run = 1
        for c in reversed(past):
            if c is not colour:
                break
            run += 1
        if run > limit:
            out.append((board, no, colour))
    return tuple(out)


def players_in(matches: Collection[TeamMatch]) -> frozenset[int]:
    """Every player seated in the matches (for "a player plays once a round")."""
    return frozenset(p for m in matches for b in m.boards for p in (b.home, b.away) if p is not None)
