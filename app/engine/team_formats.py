"""Team formats: who meets whom, round by round, when the pairing units are teams.

Teams are numbered 1 … n (队号, by lot, by the earlier season's rank or by registration: the
:class:`~app.engine.team_rules.TeamSeeding`). The formats reuse the individual building blocks with teams as
units; the first-named team of a pairing is the home team (主队), Red on boards 1 and 3:

* **Team Swiss** (:func:`pair_team_swiss`): the Swiss pairing engine (:func:`app.engine.pairing.pair_round`)
  with each team as one unit — its score the 场分, ordered inside a score group by 局分 (then team number),
  its "colours" the home (Red) and away (Black) of the matches it played, so that the hard rules hold as for
  players: no rematch (H1), never home or away three times in a row, home − away within ±2 (H3), one bye
  per team (H4). Round 1 by halves (1 v n/2+1 …, board 1's home by lot, then alternating) or by adjacent
  numbers (1-2, 4-3, 5-6 …, the first-named at home), as the regulation says.
* **Team round robin** (:func:`round_robin_matches`): the rulebook's Berger tables
  (:func:`app.engine.round_robin.schedule`): the first-named of a table pair is at home; the second cycle
  swaps home and away (the league, 主客场双循环).
* **Team knockout** (:func:`team_bracket`): the knockout engine's bracket with teams as units; each match is
  one "game" that the team match decides; the higher seed (by the earlier season's rank) is at home.
* **全队轮赛制** (:func:`all_play_all_round`): two sides of ``n`` players; in ``n`` rounds every player of one
  side meets every player of the other, colours alternating by board and balanced for everyone.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.engine.formats import (
    ColourRule,
    DecidingDraw,
    GameKind,
    LadderStep,
    MatchFormat,
    MatchScope,
    TimeControl,
)
from app.engine.knockout import Bracket, Match, create_bracket, restore_bracket
from app.engine.pairing import Float, NoLegalPairing, Pairing, PairingPlayer, pair_round
from app.engine.regulations import KnockoutRules, PairingRules, ScoreGroupOrder, TeamAvoidance
from app.engine.round_robin import schedule
from app.engine.team_rules import FirstRound, TeamEvent, TeamSystem
from app.engine.types import Colour, GameResult, UserError

__all__ = [
    "TEAM_MATCH_LADDER",
    "PlayedMatch",
    "TeamPairing",
    "TeamRound",
    "all_play_all_round",
    "all_play_all_schedule",
    "bracket_result",
    "pair_team_swiss",
    "round_robin_matches",
    "team_bracket",
    "team_rounds",
]


@dataclass(frozen=True, slots=True)
class PlayedMatch:
    """A team match of an earlier round as the pairing needs it: who was at home, whether each team
    appeared, and the 场分 and 局分 each took (0 while undecided)."""

    round: int
    home: int
    away: int
    home_match_points: int = 0
    away_match_points: int = 0
    home_points: int = 0
    away_points: int = 0
    home_appeared: bool = True
    away_appeared: bool = True


@dataclass(frozen=True, slots=True)
class TeamPairing:
    """One match of a round: home, away (table order = match number), and why."""

    home: int
    away: int
    zh: str = ""
    en: str = ""
    code: str = ""  # the match's code in a knockout bracket


@dataclass(frozen=True, slots=True)
class TeamRound:
    """A round's matches in order (match 1 first) and the team with the bye (None)."""

    number: int
    matches: tuple[TeamPairing, ...]
    bye: int | None = None
    bye_zh: str = ""
    bye_en: str = ""


# --------------------------------------------------------------------------- team Swiss


def _team_units(
    teams: Sequence[int],
    history: Sequence[PlayedMatch],
    byes: Mapping[int, int],
    bye_match_points: int,
    bye_game_points: int,
) -> list[PairingPlayer]:
    """Each team as one unit of the Swiss engine (see the module's docstring)."""
    score = {t: 0 for t in teams}
    points = {t: 0 for t in teams}
    rounds = sorted({m.round for m in history} | set(byes.values()))
    colours: dict[int, list[Colour]] = {t: [] for t in teams}
    opponents: dict[int, set[int]] = {t: set() for t in teams}
    floats: dict[int, list[Float]] = {t: [] for t in teams}
    bye_count = {t: 0 for t in teams}
    for r in rounds:
        before = dict(score)
        for m in (m for m in history if m.round == r):
            for team, other, home in ((m.home, m.away, True), (m.away, m.home, False)):
                if team not in score:
                    continue
                opponents[team].add(other)
                if m.home_appeared and m.away_appeared:
                    colours[team].append(Colour.RED if home else Colour.BLACK)
                mine = before.get(team, 0)
                theirs = before.get(other, 0)
                floats[team].append(
                    Float.DOWN if mine > theirs else Float.UP if mine < theirs else Float.NONE
                )
            if m.home in score:
                score[m.home] += m.home_match_points
                points[m.home] += m.home_points
            if m.away in score:
                score[m.away] += m.away_match_points
                points[m.away] += m.away_points
        for team, r_bye in byes.items():
            if r_bye == r and team in score:
                score[team] += bye_match_points
                points[team] += bye_game_points
                bye_count[team] += 1
                floats[team].append(Float.DOWN)
    return [
        PairingPlayer(
            no=t,
            score=score[t],
            colours=tuple(colours[t]),
            opponents=frozenset(opponents[t]),
            byes=bye_count[t],
            float_history=tuple(floats[t]),
            rank_key=(-points[t],),
        )
        for t in teams
    ]


def pair_team_swiss(
    teams: Sequence[int],
    history: Sequence[PlayedMatch],
    byes: Mapping[int, int],
    round_number: int,
    event: TeamEvent,
    seed: int,
) -> TeamRound:
    """Pair round ``round_number`` of a team Swiss. ``teams``: the team numbers that may play this round;
    ``history``: every earlier match; ``byes``: team → the round of its bye. Raises
    :class:`~app.engine.pairing.NoLegalPairing` naming the teams when no pairing keeps the hard rules."""
    bye_gp = _bye_game_points(event)
    units = _team_units(teams, history, byes, event.match.match_points.bye, bye_gp)
    if round_number == 1 and event.first_round is FirstRound.ADJACENT and not history:
        return _adjacent_round(units, round_number)
    rules = PairingRules(team_avoidance=TeamAvoidance.NONE, score_group_order=ScoreGroupOrder.TIEBREAKS)
    try:
        pairing: Pairing = pair_round(units, round_number, rules, seed)
    except NoLegalPairing as exc:
        raise NoLegalPairing(_team_words(exc.zh), exc.en.replace("players", "teams"), exc.players) from None
    matches = tuple(
        TeamPairing(g.red, g.black, _team_words(g.explanation.zh), g.explanation.en) for g in pairing.games
    )
    bye_zh = bye_en = ""
    if pairing.bye_explanation is not None:
        bye_zh, bye_en = _team_words(pairing.bye_explanation.zh), pairing.bye_explanation.en
    return TeamRound(round_number, matches, pairing.bye, bye_zh, bye_en)


def _team_words(text: str) -> str:
    """The engine's sentence about players, said about teams (先后手 = 主客场, 积分 = 场分)."""
    return (
        text.replace("先后手", "主客场")
        .replace("积分", "场分")
        .replace("棋手", "队")
        .replace("同队回避和", "")
        .replace("号", "号队")
        .replace("序号队", "队号")
        .replace("执红", "为主队")
        .replace("执黑", "为客队")
        .replace("按胜局计分", "按规程计场分和局分")
    )


def _adjacent_round(units: Sequence[PairingPlayer], round_number: int) -> TeamRound:
    order = sorted(units, key=lambda u: u.no)
    bye = order.pop().no if len(order) % 2 else None
    matches = []
    for i in range(0, len(order), 2):
        a, b = order[i].no, order[i + 1].no
        home, away = (a, b) if (i // 2) % 2 == 0 else (b, a)
        matches.append(
            TeamPairing(
                home,
                away,
                f"首轮按相邻队号对阵：{a} 号对 {b} 号，{home} 号为主队",
                f"round 1 by adjacent numbers: {a} v {b}, {home} at home",
            )
        )
    zh = en = ""
    if bye is not None:
        zh, en = (
            f"队数为奇数，最后一个队号 {bye} 号轮空",
            f"an odd number of teams: the last, {bye}, has the bye",
        )
    return TeamRound(round_number, tuple(matches), bye, zh, en)


def _bye_game_points(event: TeamEvent) -> int:
    from app.engine.team_rules import ByeGamePoints

    gp = event.match.game_points
    return {
        ByeGamePoints.ALL_WON: gp.win * event.match.boards,
        ByeGamePoints.HALF: gp.draw * event.match.boards,
        ByeGamePoints.NONE: 0,
    }[event.bye_game_points]


def bye_game_points(event: TeamEvent) -> int:
    """The 局分 of a bye (轮空) under the regulation."""
    return _bye_game_points(event)


# --------------------------------------------------------------------------- team round robin


def round_robin_matches(
    numbers: Mapping[int, int], stage_round: int, cycles: int, swap_last_rounds: bool = False
) -> TeamRound:
    """Round ``stage_round`` of a team round robin: ``numbers`` maps a team to its table number (1…n); the
    table's first-named team is at home (the second cycle swaps, 主客场互换); ``swap_last_rounds`` plays the
    first cycle's last two rounds in the other order (FIDE C.05)."""
    by_number = {n: t for t, n in numbers.items()}
    if sorted(by_number) != list(range(1, len(by_number) + 1)):
        raise UserError("团体循环赛的队号须为 1 起连续", "team round-robin numbers must be 1, 2, 3 …")
    rounds = schedule(len(by_number), cycles, swap_last_rounds)
    if not 1 <= stage_round <= len(rounds):
        raise UserError(
            f"这一团体循环赛只有 {len(rounds)} 轮，没有第 {stage_round} 轮",
            f"this team round robin has {len(rounds)} rounds, not {stage_round}",
        )
    r = rounds[stage_round - 1]
    matches = tuple(
        TeamPairing(
            by_number[home],
            by_number[away],
            f"循环赛对局秩序表第 {stage_round} 轮：{home} 号（主）对 {away} 号（客）",
            f"round-robin table, round {stage_round}: no. {home} (home) v no. {away} (away)",
        )
        for home, away in r.pairs
    )
    bye = None if r.bye is None else by_number[r.bye]
    zh, en = (
        ("", "")
        if bye is None
        else (
            f"循环赛对局秩序表第 {stage_round} 轮：{r.bye} 号轮空",
            f"round {stage_round}: no. {r.bye} rests",
        )
    )
    return TeamRound(stage_round, matches, bye, zh, en)


# --------------------------------------------------------------------------- team knockout

#: a team match inside the knockout engine: one "game" that the team match decides (home = Red)
TEAM_MATCH_LADDER = MatchFormat(
    MatchScope.ALL, (LadderStep(GameKind.SLOW, 1, TimeControl(60, 30), ColourRule.LOT),), DecidingDraw.REPEAT
)


def team_bracket(seeds: Sequence[int], event: TeamEvent, stored: Sequence[Match] = ()) -> Bracket:
    """The knockout of ``seeds`` (team numbers, first seed first), with the matches decided so far
    (:func:`bracket_result`); every match's higher seed is at home."""
    layout = {"placement": event.placement, "ladders": (TEAM_MATCH_LADDER,)}
    if stored:
        return restore_bracket(seeds, 0, KnockoutRules(), stored, **layout)
    return create_bracket(seeds, 0, KnockoutRules(), placement=event.placement, ladders=(TEAM_MATCH_LADDER,))


def bracket_result(match: Match, winner: int | None, home_absent: bool, away_absent: bool) -> Match:
    """The bracket's match once its team match is decided: its one game is won by the winner (home = the
    higher seed = Red), lost by forfeit by a team that did not appear, or a double forfeit (both out)."""
    if match.high is None or match.low is None:
        raise UserError(f"{match.code} 的对阵尚未确定", f"the teams of {match.code} are not known yet")
    if home_absent and away_absent:
        result = GameResult.DOUBLE_FORFEIT
    elif home_absent:
        result = GameResult.RED_FORFEIT
    elif away_absent:
        result = GameResult.BLACK_FORFEIT
    elif winner == match.high:
        result = GameResult.RED_WIN
    elif winner == match.low:
        result = GameResult.BLACK_WIN
    else:
        raise UserError(f"{match.code} 须决出胜负", f"{match.code} needs a winner")
    from app.engine.knockout import ColourMethod, KnockoutGame

    return Match(
        match.code,
        match.round_number,
        match.high,
        match.low,
        ColourMethod.MANUAL,
        None,
        match.high,
        games=(KnockoutGame(1, GameKind.SLOW, match.high, match.low, result),),
    )


# --------------------------------------------------------------------------- 全队轮赛制


@functools.cache
def all_play_all_schedule(n: int) -> tuple[tuple[int, tuple[bool, ...]], ...]:
    """For ``n`` players a side: per round (1…n) the shift ``s`` (side A's board b meets side B's player
    ``(b - 1 + s) % n + 1``) and, per board, whether side A has Red.

    Everybody's colours come out balanced (equal for an even ``n``, one apart for an odd one) and nobody has
    one colour three times running. Where that is possible with the colours alternating by board (side A at
    home: Red on boards 1, 3 …, the home side alternating) — for 4 and 8 a side — the schedule does so;
    otherwise each side has one colour on every board of a round, alternating round by round.

    >>> [(s, ''.join('红' if red else '黑' for red in reds)) for s, reds in all_play_all_schedule(4)]
    [(0, '红黑红黑'), (1, '黑红黑红'), (2, '黑红黑红'), (3, '红黑红黑')]
    >>> [(s, ''.join('红' if red else '黑' for red in reds)) for s, reds in all_play_all_schedule(3)]
    [(0, '红红红'), (1, '黑黑黑'), (2, '红红红')]
    """
    if not 1 <= n <= 10:
        raise UserError(f"全队轮赛制每方 1–10 人，不能是 {n}", f"all-play-all takes 1-10 a side, not {n}")
    if n % 4 == 0:
        found = _search(n)
        if found is not None:
            return tuple((shift, tuple((b % 2 == 0) == home for b in range(n))) for shift, home in found)
    return tuple((r, tuple(r % 2 == 0 for _ in range(n))) for r in range(n))  # pragma: no branch


def _search(n: int) -> list[tuple[int, bool]] | None:
    """Depth-first: rounds in order, each a shift not used yet and a home side (colours alternating by
    board); every player must end with as many Reds as Blacks, never one colour three times running."""
    a_cols: list[list[bool]] = [[] for _ in range(n)]  # side A's board-b player: Red, round by round
    b_cols: list[list[bool]] = [[] for _ in range(n)]
    out: list[tuple[int, bool]] = []
    used: set[int] = set()
    budget = [20_000]

    def ok(cols: list[bool], left: int) -> bool:
        if len(cols) >= 3 and cols[-1] == cols[-2] == cols[-3]:
            return False
        return abs(sum(1 if c else -1 for c in cols)) <= left

    def go(r: int) -> bool:
        if r == n:
            return True
        budget[0] -= 1
        if budget[0] < 0:
            return False
        for s in range(n):
            if s in used:
                continue
            for a_home in (r % 2 == 0, r % 2 == 1):
                placed = []
                for b in range(n):
                    a_red = (b % 2 == 0) == a_home
                    j = (b + s) % n
                    a_cols[b].append(a_red)
                    b_cols[j].append(not a_red)
                    placed.append((b, j))
                left = n - r - 1
                if all(ok(a_cols[b], left) and ok(b_cols[j], left) for b, j in placed):
                    used.add(s)
                    out.append((s, a_home))
                    if go(r + 1):
                        return True
                    used.discard(s)
                    out.pop()
                for b, j in placed:
                    a_cols[b].pop()
                    b_cols[j].pop()
        return False

    return out if go(0) else None


def all_play_all_round(
    side_a: Sequence[int], side_b: Sequence[int], round_number: int
) -> tuple[tuple[int, int, bool], ...]:
    """Round ``round_number`` of 全队轮赛制: per board (1…n) the side A player, the side B player, and
    whether the side A player has Red."""
    n = len(side_a)
    if len(side_b) != n:
        raise UserError(
            f"全队轮赛制双方人数须相同（{len(side_a)} 对 {len(side_b)}）",
            f"all-play-all needs sides of equal size ({len(side_a)} v {len(side_b)})",
        )
    if not 1 <= round_number <= n:
        raise UserError(
            f"全队轮赛制共 {n} 轮，没有第 {round_number} 轮",
            f"all-play-all has {n} rounds, not {round_number}",
        )
    shift, reds = all_play_all_schedule(n)[round_number - 1]
    return tuple((side_a[b], side_b[(b + shift) % n], reds[b]) for b in range(n))


# --------------------------------------------------------------------------- rounds of a format


def team_rounds(event: TeamEvent, teams: int) -> int:
    """How many rounds a team event of ``teams`` teams takes."""
    from app.engine.formats import knockout_depth, round_robin_rounds

    if event.system is TeamSystem.SWISS:
        return event.rounds
    if event.system is TeamSystem.ROUND_ROBIN:
        return round_robin_rounds(teams, event.cycles)
    if event.system is TeamSystem.KNOCKOUT:
        return knockout_depth(teams)
    return event.match.boards
