"""Knockout (淘汰赛): single elimination of 2–128 with byes by seed, double elimination, match ladders.

docs/rules.md §1, §6 (final ranking) and §7. Pure values in, new values out; the services store and load
exactly the fields of :class:`Match` (code, round, players, colour lot, colour choices, games) and the
seeds, and rebuild the whole bracket with :func:`restore_bracket`.

**Single elimination.** ``n`` entrants fill a bracket of the next power of two; seed ``k > n`` is a
vacant slot, so the top seeds get the byes (轮空, a walkover). A block of ``m`` bracket slots competing
for places ``p … p+m-1`` pairs slot ``i`` with slot ``m+1-i``; the winner of that match takes slot ``i``
of the block for places ``p …`` and the loser slot ``i`` of the block for places ``p+m/2 …`` (no
re-seeding). For 8 this is exactly the 2024 regulation: quarter-finals 1–8, 2–7, 3–6, 4–5; semi-finals
W(1–8)–W(4–5), W(2–7)–W(3–6); round 10 also L(1–8)–L(4–5), L(2–7)–L(3–6); round 11 the final, the
3rd-place match and the 5th- and 7th-place matches. The places below the final (:class:`PlacementRule`):
``BRACKET`` plays every place; ``STANDING`` plays the 3rd-place match and ranks every lower block by the
seeds (the earlier ranking); ``ROUND_LOST`` plays no place match: by the round lost in, then the seeds.

Match codes: main bracket ``R128_1 … R16_1…``, ``QF1…QF4``, ``SF1``, ``SF2``, ``F``; ``3RD``; lower blocks
``P{p}R{m}_{i}``, ``P{p}QF{i}``, ``P{p}SF{i}`` and ``P{p}`` (the match for places p and p+1), e.g.
``P5SF1``, ``P5``, ``P7``.

>>> from app.engine.regulations import KnockoutRules
>>> b = create_bracket((11, 12, 13, 14, 15, 16, 17, 18), split_round=8, rules=KnockoutRules())
>>> [(m.code, m.round_number, m.high, m.low) for m in b.matches_in_round(9)]
[('QF1', 9, 11, 18), ('QF2', 9, 12, 17), ('QF3', 9, 13, 16), ('QF4', 9, 14, 15)]
>>> [m.code for m in b.matches_in_round(11)]
['F', '3RD', 'P5', 'P7']

**Double elimination** (双败淘汰): the winners' bracket ``W{r}_{i}`` as a single elimination; its losers
drop into the losers' bracket ``L{j}_{i}`` (round 1 pairs the first-round losers; each even round
takes the next winners' round's losers, in reversed order every other time, so that nobody meets the
same player again at once); the grand final ``GF`` sets the winners' bracket champion against the
losers' bracket champion, and — when ``grand_final_reset`` — ``GF2`` is played only if the losers'
bracket champion wins it. Places below 2 by the losers' round lost in, then the seeds.

**A match is a ladder** (:class:`~app.engine.formats.MatchFormat`): steps of one or more games, each with
its kind and time control; a step of several games (分先两局) is won on points, a tied step leads to
the next; the last step is one deciding game, and its draw counts as a Black win (和棋黑胜) or is
repeated with colours swapped until decisive. The first game's colours are drawn by lot
(:func:`draw_colours`, reproducible from its seed, or :func:`set_first_red` for a physical draw), chosen
by the higher seed, or chosen by the loser of a lot; a later step swaps colours or has its own lot or
choice (:func:`choose_colour`). Today's ladder (docs/rules.md §7): game 1 slow by lot; if drawn, game 2 rapid
with colours swapped; if drawn again, game 3 (附加赛) with the colour chosen by the higher seed.

Decisions where the regulation is silent (documented defaults):

* A forfeit (红方弃权 / 黑方弃权) in any game loses the match.
* A **double forfeit** (双方弃权, incl. an agreed result without play) in any game eliminates **both**
  players: neither plays again. Their next opponent advances without play (a *walkover*), a block with a
  vacant slot simply has one player fewer, and in :func:`final_places` both are placed below every other
  knockout player (higher seed first); the remaining places close up, so places stay 1…n.
* Seeds (:func:`knockout_seeds`) are the top ``size`` of the standing before, skipping withdrawn and
  disqualified players — the next player moves up.
* Colours by lot: ``random.Random(f"{seed}:{code}")`` decides whether the higher seed is Red (a later
  step's lot adds ``:{step}``), so one recorded seed per round gives independent, reproducible lots.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from app.engine.formats import (
    MAX_KNOCKOUT,
    ColourRule,
    Elimination,
    GameKind,
    LadderStep,
    MatchFormat,
    MatchScope,
    knockout_depth,
)
from app.engine.regulations import DecidingDraw, KnockoutRules, PlacementRule, TimeControl
from app.engine.types import Colour, GameResult, PlayerStatus, UserError

__all__ = [
    "Bracket",
    "ColourMethod",
    "ColourState",
    "DueGame",
    "Feed",
    "GameKind",
    "KnockoutGame",
    "Match",
    "MatchPlan",
    "MatchResult",
    "Outcome",
    "StandingBlock",
    "check_match",
    "choose_colour",
    "choose_deciding_colour",
    "colours_of_game",
    "create_bracket",
    "draw_colours",
    "enter_result",
    "final_places",
    "final_ranking",
    "game_kind",
    "game_time_control",
    "knockout_seeds",
    "ladder_for",
    "match_result",
    "match_winner",
    "next_game",
    "remove_last_game",
    "restore_bracket",
    "set_first_red",
    "short_title_zh",
    "time_control",
]

MIN_ENTRANTS = 2

Rules = KnockoutRules | MatchFormat


def ladder_for(rules: Rules) -> MatchFormat:
    """The ladder of a match: the match format itself, or today's ladder of the ``[knockout]`` settings."""
    return rules if isinstance(rules, MatchFormat) else rules.match_format


class ColourMethod(enum.Enum):
    """How the colours of game 1 were decided (values as stored in ``knockout_matches.colour_method``)."""

    LOT = "lot"  # drawn by the program from a recorded seed
    MANUAL = "manual"  # a physical draw entered by the arbiter


class ColourState(enum.Enum):
    """Whether the colours of the due game are known."""

    SET = "set"
    LOT_NEEDED = "lot_needed"  # a lot has not been drawn or entered yet
    CHOICE_NEEDED = "choice_needed"  # a player (the higher seed, or the loser of the lot) has not chosen yet


class Outcome(enum.Enum):
    WINNER = "winner"
    LOSER = "loser"


@dataclass(frozen=True, slots=True)
class Feed:
    """A bracket slot filled by the winner or the loser of an earlier match."""

    match: str
    takes: Outcome
    title_zh: str = ""  # the match's name when it is not the one its code gives (资格赛第1场)

    @property
    def label_zh(self) -> str:
        """``1/4决赛第1场胜者``, ``半决赛第2场负者`` — the match by name, never by its code."""
        title = self.title_zh or short_title_zh(self.match)
        return f"{title}{'胜者' if self.takes is Outcome.WINNER else '负者'}"

    @property
    def label_en(self) -> str:
        return f"{'winner' if self.takes is Outcome.WINNER else 'loser'} of {self.match}"


@dataclass(frozen=True, slots=True)
class MatchPlan:
    """Where a match sits in the bracket: its sources and the places it decides.

    A source is a seed rank (1 = first seed) or a :class:`Feed`. ``winner_place``/``loser_place`` are set
    only for the matches that decide two places (F, 3RD, P5…, a grand final). ``scopes`` say which match
    formats apply (the most particular one is used). ``reset_of`` names the grand final a ``GF2`` repeats.
    """

    code: str
    round_number: int
    board: int  # order of the match within its round, 1-based
    sources: tuple[int | Feed, int | Feed]
    title_zh: str
    winner_place: int | None = None
    loser_place: int | None = None
    title_en: str = field(default="", compare=False)  # the English of title_zh (for the window)
    scopes: tuple[MatchScope, ...] = (MatchScope.ALL,)
    side: str = ""  # double elimination: "W" winners' bracket, "L" losers' bracket, "G" grand final
    reset_of: str = ""


@dataclass(frozen=True, slots=True)
class StandingBlock:
    """Places ``first_place …`` given by the seeds of the players fed in (no match played for them)."""

    first_place: int
    sources: tuple[int | Feed, ...]


@dataclass(frozen=True, slots=True)
class KnockoutGame:
    """One game of a match; ``number`` counts from 1 within the match."""

    number: int
    kind: GameKind
    red: int
    black: int
    result: GameResult = GameResult.PENDING


@dataclass(frozen=True, slots=True)
class Match:
    """The state of one match: what the services store and load.

    ``high`` is the higher seed, ``low`` the other. Both are None until the feeding matches are decided.
    ``first_red`` is Red of game 1; ``deciding_red`` Red of the first game of the ladder's last step when
    its colours are chosen or drawn; ``step_reds`` the same for other steps (step index, Red).
    ``walkover`` (a vacant slot) and ``not_needed`` (a grand-final reset the winners' bracket champion
    made unnecessary) are set by the bracket, never stored.
    """

    code: str
    round_number: int
    high: int | None = None
    low: int | None = None
    colour_method: ColourMethod | None = None
    colour_seed: int | None = None
    first_red: int | None = None
    deciding_red: int | None = None
    games: tuple[KnockoutGame, ...] = ()
    walkover: bool = False
    step_reds: tuple[tuple[int, int], ...] = ()
    not_needed: bool = False

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(p for p in (self.high, self.low) if p is not None)

    def colour_choices(self, rules: Rules) -> dict[int, int]:
        """The Red of each later step set by a lot or a choice: step index → player (as stored)."""
        out = dict(self.step_reds)
        if self.deciding_red is not None:
            out[len(ladder_for(rules).steps) - 1] = self.deciding_red
        return out

    def with_colour_choices(self, choices: Mapping[int, int], rules: Rules) -> Match:
        """This match with stored colour choices (step index → Red) put back in their fields."""
        last = len(ladder_for(rules).steps) - 1
        return dataclasses.replace(
            self,
            deciding_red=choices.get(last),
            step_reds=tuple(sorted((k, red) for k, red in choices.items() if k != last)),
        )


@dataclass(frozen=True, slots=True)
class DueGame:
    """The game a match needs next: kind, time control and colours (or what is missing)."""

    code: str
    number: int
    kind: GameKind
    time_control: TimeControl
    red: int | None
    black: int | None
    colours: ColourState
    chooser: int | None = None  # who must choose, when colours is CHOICE_NEEDED
    step: int = 0  # the ladder step the game belongs to


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The outcome of a decided match.

    ``winner``/``loser`` are None for nobody (double forfeit, walkover). ``eliminated`` lists players
    out of the whole knockout after a double forfeit.
    """

    winner: int | None
    loser: int | None
    decided_by_game: int | None  # None for a walkover
    reason_zh: str
    eliminated: tuple[int, ...] = ()
    reason_en: str = field(default="", compare=False)  # the English of reason_zh (for the window)


# --------------------------------------------------------------------------- seeds


def knockout_seeds(
    standing: Sequence[int], size: int, statuses: Mapping[int, PlayerStatus] | None = None
) -> tuple[int, ...]:
    """The knockout seeds: the top ``size`` of the standing, in order.

    Withdrawn and disqualified players do not take a slot; the next player moves up.

    >>> knockout_seeds([5, 3, 9, 1, 7], 4, {3: PlayerStatus.WITHDRAWN})
    (5, 9, 1, 7)
    """
    if not MIN_ENTRANTS <= size <= MAX_KNOCKOUT:
        raise UserError(
            f"淘汰赛人数应在 {MIN_ENTRANTS}–{MAX_KNOCKOUT} 之间，而不是 {size}",
            f"a knockout takes {MIN_ENTRANTS}-{MAX_KNOCKOUT} players, not {size}",
        )
    if len(set(standing)) != len(standing):
        raise UserError("排名中有重复的序号", "the standing lists a player twice")
    status = statuses or {}
    eligible = [no for no in standing if status.get(no, PlayerStatus.ACTIVE) is PlayerStatus.ACTIVE]
    if len(eligible) < size:
        raise UserError(
            f"可进入淘汰赛的棋手只有 {len(eligible)} 名，不足 {size} 名",
            f"only {len(eligible)} players can enter a knockout of {size}",
        )
    return tuple(eligible[:size])


# --------------------------------------------------------------------------- the ladder of one match


def _position(ladder: MatchFormat, number: int) -> tuple[int, int]:
    """(step index, game index within the step) of game ``number``; past the last step's game, the repeats
    of the deciding game count on (index 1, 2 …)."""
    if number < 1:
        raise UserError(f"对局序号必须从 1 开始：{number}", f"game numbers start at 1: {number}")
    n = number - 1
    last = len(ladder.steps) - 1
    for k, step in enumerate(ladder.steps):
        if n < step.games or k == last:
            return k, n
        n -= step.games
    raise AssertionError(number)  # pragma: no cover


def _step_start(ladder: MatchFormat, k: int) -> int:
    """The number of the first game of step ``k``."""
    return 1 + sum(s.games for s in ladder.steps[:k])


def _step(ladder: MatchFormat, k: int) -> LadderStep:
    return ladder.steps[k]


def draw_colours(match: Match, seed: int, rules: Rules | None = None) -> Match:
    """Draw the lot of the match's due step, reproducibly from ``seed`` (先后手抽签).

    For game 1 by lot: whether the higher seed is Red. For a choice by the loser of the lot: who chooses
    (recorded; the choice follows). For a later step by lot: its first game's Red.

    >>> m = Match("QF1", 9, high=1, low=8)
    >>> draw_colours(m, 42) == draw_colours(m, 42)
    True
    """
    high, low = _both_players(match)
    ladder = ladder_for(rules or KnockoutRules())
    k = _due_step(match, ladder)
    rule = _step(ladder, k).colours
    if k == 0:
        _no_games_yet(match)
        if rule is ColourRule.LOT_LOSER_CHOOSES:
            return dataclasses.replace(
                match, colour_method=ColourMethod.LOT, colour_seed=seed, first_red=None
            )
        high_is_red = random.Random(f"{seed}:{match.code}").random() < 0.5
        return dataclasses.replace(
            match, colour_method=ColourMethod.LOT, colour_seed=seed, first_red=high if high_is_red else low
        )
    if rule is not ColourRule.LOT:
        raise UserError(
            f"{match.code} 第{k + 1}阶段的先后手不是抽签决定", f"{match.code}: step {k + 1} has no lot"
        )
    high_is_red = random.Random(f"{seed}:{match.code}:{k}").random() < 0.5
    return _set_step_red(match, ladder, k, high if high_is_red else low)


def _due_step(match: Match, ladder: MatchFormat) -> int:
    played = [g for g in match.games if not g.result.is_pending]
    return _position(ladder, len(played) + 1)[0]


def _set_step_red(match: Match, ladder: MatchFormat, k: int, red: int) -> Match:
    if k == len(ladder.steps) - 1:
        return dataclasses.replace(match, deciding_red=red)
    reds = dict(match.step_reds)
    reds[k] = red
    return dataclasses.replace(match, step_reds=tuple(sorted(reds.items())))


def lot_winner(match: Match) -> int | None:
    """Who won the lot of a match whose first game's colours are chosen by the loser of the lot."""
    if match.colour_seed is None or match.high is None or match.low is None:
        return None
    high_wins = random.Random(f"{match.colour_seed}:{match.code}:lot").random() < 0.5
    return match.high if high_wins else match.low


def set_first_red(match: Match, red: int) -> Match:
    """Enter a physical colour draw (or the outcome of a choice made in the hall): ``red`` plays Red in
    game 1."""
    players = _both_players(match)
    _no_games_yet(match)
    if red not in players:
        raise UserError(
            f"{red} 号不是 {match.code} 的参赛棋手", f"player {red} does not play in match {match.code}"
        )
    return dataclasses.replace(match, colour_method=ColourMethod.MANUAL, colour_seed=None, first_red=red)


def choose_colour(match: Match, colour: Colour, rules: Rules | None = None) -> Match:
    """Record the colour the chooser picked for the due step (选择先后手): the higher seed, or the loser
    of the lot."""
    ladder = ladder_for(rules or KnockoutRules())
    due = next_game(match, ladder)
    if due is None or due.colours is not ColourState.CHOICE_NEEDED or due.chooser is None:
        raise UserError(
            f"{match.code} 现在不需要选择先后手", f"{match.code} does not need a colour choice now"
        )
    high, low = _both_players(match)
    other = low if due.chooser == high else high
    red = due.chooser if colour is Colour.RED else other
    if due.step == 0:
        return dataclasses.replace(match, first_red=red)
    return _set_step_red(match, ladder, due.step, red)


def choose_deciding_colour(match: Match, colour: Colour, rules: Rules | None = None) -> Match:
    """The higher seed's colour for the deciding game (附加赛由排名靠前者选择先后手); any due choice."""
    high, low = _both_players(match)
    ladder = ladder_for(rules or KnockoutRules())
    last = len(ladder.steps) - 1
    start = _step_start(ladder, last)
    if any(g.number >= start and not g.result.is_pending for g in match.games):
        raise UserError(
            f"{match.code} 的附加赛已有结果，不能再更改先后手",
            f"the deciding game of {match.code} has a result; its colours cannot change",
        )
    due = next_game(match, ladder)
    if due is not None and due.colours is ColourState.CHOICE_NEEDED:
        return choose_colour(match, colour, ladder)
    return dataclasses.replace(match, deciding_red=high if colour is Colour.RED else low)


def _step_first_red(match: Match, ladder: MatchFormat, k: int) -> int | None:
    """Red of the first game of step ``k`` (None while its lot or choice is missing)."""
    if k == 0:
        return match.first_red
    if _step(ladder, k).colours is ColourRule.SWAP:
        previous = colours_of_game(match, _step_start(ladder, k) - 1, ladder)
        return None if previous is None else previous[1]
    if k == len(ladder.steps) - 1:
        return match.deciding_red
    return dict(match.step_reds).get(k)


def colours_of_game(match: Match, number: int, rules: Rules | None = None) -> tuple[int, int] | None:
    """(red, black) of game ``number`` of the match, or None while the lot / choice is missing."""
    ladder = ladder_for(rules or KnockoutRules())
    k, g = _position(ladder, number)
    high, low = _both_players(match)
    red = _step_first_red(match, ladder, k)
    if red is None:
        return None
    black = low if red == high else high
    return (red, black) if g % 2 == 0 else (black, red)


def game_kind(number: int, rules: Rules | None = None) -> GameKind:
    ladder = ladder_for(rules or KnockoutRules())
    return _step(ladder, _position(ladder, number)[0]).kind


def game_time_control(number: int, rules: Rules) -> TimeControl:
    """The time control of game ``number`` of a match (its step's)."""
    ladder = ladder_for(rules)
    return _step(ladder, _position(ladder, number)[0]).time


def time_control(kind: GameKind, rules: Rules) -> TimeControl:
    """The time control of the first step of this kind in the ladder (the ``[knockout]`` settings' for
    today's ladder)."""
    if isinstance(rules, KnockoutRules) and kind in (GameKind.SLOW, GameKind.RAPID, GameKind.DECIDING):
        return {GameKind.SLOW: rules.slow, GameKind.RAPID: rules.rapid, GameKind.DECIDING: rules.deciding}[
            kind
        ]
    for step in ladder_for(rules).steps:
        if step.kind is kind:
            return step.time
    raise UserError(f"本场比赛没有{kind.zh}", f"this match has no {kind.value} game")


_RESULT_EN = {
    GameResult.RED_WIN: "Red won",
    GameResult.BLACK_WIN: "Black won",
    GameResult.RED_FORFEIT: "Red forfeited",
    GameResult.BLACK_FORFEIT: "Black forfeited",
}


def _points(result: GameResult, red_side: bool) -> int:
    winner = result.winner()
    if winner is None:
        return 1
    return 2 if (winner is Colour.RED) == red_side else 0


def match_result(match: Match, rules: Rules) -> MatchResult | None:
    """How the match was decided, or None while it is still going on (or waiting for its players).

    >>> rules = KnockoutRules()
    >>> m = Match("QF1", 9, high=1, low=8, first_red=8,
    ...           games=(KnockoutGame(1, GameKind.SLOW, 8, 1, GameResult.DRAW),
    ...                  KnockoutGame(2, GameKind.RAPID, 1, 8, GameResult.BLACK_WIN)))
    >>> match_result(m, rules).winner
    8
    """
    if match.walkover:
        present = match.players
        if present:
            return MatchResult(
                present[0], None, None, "对手缺位，不战晋级", reason_en="walkover: no opponent"
            )
        return MatchResult(None, None, None, "双方均缺位", reason_en="both places vacant")
    if match.not_needed:
        return MatchResult(
            match.high,
            match.low,
            None,
            "胜者组冠军赢得总决赛，无需加赛",
            reason_en="the winners' bracket champion won the grand final: no reset",
        )
    ladder = ladder_for(rules)
    last = len(ladder.steps) - 1
    step_points: dict[int, int] = {}
    for game in match.games:
        res = game.result
        if res.is_pending:
            return None
        if res is GameResult.DRAW and not match_decided_by_draw(ladder, game.number):
            continue  # a drawn game that leads on: the common case, kept cheap
        label = f"第{game.number}局{game.kind.zh}"
        label_en = f"G{game.number} {game.kind.value}"
        if res is GameResult.DOUBLE_FORFEIT:
            return MatchResult(
                None,
                None,
                game.number,
                f"{label}双方弃权，均被淘汰",
                (game.red, game.black),
                f"{label_en}: both forfeited, both out",
            )
        winner_colour = res.winner()
        if res.is_forfeit and winner_colour is not None:
            winner, loser = (game.red, game.black) if winner_colour is Colour.RED else (game.black, game.red)
            return MatchResult(
                winner, loser, game.number, f"{label}{res.zh}", reason_en=f"{label_en}: {_RESULT_EN[res]}"
            )
        k, g = _position(ladder, game.number)
        step = _step(ladder, k)
        if step.games == 1 or k == last:
            if winner_colour is not None:
                winner, loser = (
                    (game.red, game.black) if winner_colour is Colour.RED else (game.black, game.red)
                )
                return MatchResult(
                    winner, loser, game.number, f"{label}{res.zh}", reason_en=f"{label_en}: {_RESULT_EN[res]}"
                )
            if k == last and ladder.deciding_draw is DecidingDraw.BLACK_WINS:
                return MatchResult(
                    game.black,
                    game.red,
                    game.number,
                    f"{label}和棋，按规则黑方胜出",
                    reason_en=f"{label_en} drawn: Black advances",
                )
            continue
        if g == 0:
            step_points = {}
        step_points[game.red] = step_points.get(game.red, 0) + _points(res, True)
        step_points[game.black] = step_points.get(game.black, 0) + _points(res, False)
        remaining = step.games - g - 1
        (a, pa), (b, pb) = sorted(step_points.items(), key=lambda kv: -kv[1])
        if pa - pb > 2 * remaining:
            return MatchResult(
                a,
                b,
                game.number,
                f"{step.kind.zh}{step.games}局合计 {_half(pa)}:{_half(pb)}",
                reason_en=f"{step.kind.value} games {_half(pa)}-{_half(pb)}",
            )
    return None


def match_decided_by_draw(ladder: MatchFormat, number: int) -> bool:
    """Whether a draw in game ``number`` can end the match or a step (else the match just goes on)."""
    k, _ = _position(ladder, number)
    step = ladder.steps[k]
    last = len(ladder.steps) - 1
    if k == last:
        return ladder.deciding_draw is DecidingDraw.BLACK_WINS
    return step.games > 1


def _half(points: int) -> str:
    """Game points of a step as players count them: 1 a win, ½ a draw (``1½``)."""
    whole, half = divmod(points, 2)
    return f"{whole}½" if half and whole else "½" if half else str(whole)


def match_winner(match: Match, rules: Rules) -> int | None:
    """The player who advances, or None (not decided yet, or nobody after a double forfeit)."""
    result = match_result(match, rules)
    return None if result is None else result.winner


def next_game(match: Match, rules: Rules) -> DueGame | None:
    """The game the match needs next (a paired game still without result counts as due).

    None when the match is decided or its players are not known yet.

    >>> rules = KnockoutRules()
    >>> due = next_game(Match("QF1", 9, high=1, low=8), rules)
    >>> due.kind, due.time_control.label, due.colours
    (<GameKind.SLOW: 'slow'>, '20′+5″', <ColourState.LOT_NEEDED: 'lot_needed'>)
    """
    if match.walkover or match.not_needed or match.high is None or match.low is None:
        return None
    if match_result(match, rules) is not None:
        return None
    ladder = ladder_for(rules)
    if match.games and match.games[-1].result.is_pending:
        number = match.games[-1].number
    else:
        number = len(match.games) + 1
    k, _ = _position(ladder, number)
    step = _step(ladder, k)
    colours = colours_of_game(match, number, ladder)
    if colours is not None:
        return DueGame(
            match.code, number, step.kind, step.time, colours[0], colours[1], ColourState.SET, step=k
        )
    rule = step.colours
    first = _step_start(ladder, k)
    if rule is ColourRule.SWAP or number != first:  # pragma: no cover - a swap follows a known game
        raise AssertionError((match.code, number))
    if rule is ColourRule.HIGHER_SEED_CHOOSES:
        state, chooser = ColourState.CHOICE_NEEDED, match.high
    elif rule is ColourRule.LOT_LOSER_CHOOSES and k == 0 and match.colour_seed is not None:
        winner = lot_winner(match)
        state, chooser = ColourState.CHOICE_NEEDED, (match.low if winner == match.high else match.high)
    else:
        state, chooser = ColourState.LOT_NEEDED, None
    return DueGame(match.code, number, step.kind, step.time, None, None, state, chooser, k)


def enter_result(match: Match, number: int, result: GameResult, rules: Rules) -> Match:
    """Enter (or correct) the result of game ``number``; PENDING pairs the game without a result.

    Only the due game or the last game may be entered; to correct an earlier game, remove the later
    ones first (:func:`remove_last_game`).
    """
    _both_players(match)
    games = list(match.games)
    if games and number == games[-1].number:
        games.pop()  # a correction of the last game
    else:
        due = next_game(match, rules)
        if due is None:
            raise UserError(
                f"{match.code} 已经决出胜负，不再需要对局", f"match {match.code} is already decided"
            )
        if number != due.number:
            raise UserError(
                f"{match.code} 现在应进行第 {due.number} 局，不能录入第 {number} 局",
                f"match {match.code} is at game {due.number}, not game {number}",
            )
    colours = colours_of_game(match, number, rules)
    if colours is None:
        if number == 1 and _step(ladder_for(rules), 0).colours in (
            ColourRule.LOT,
            ColourRule.LOT_LOSER_CHOOSES,
        ):
            raise UserError(
                f"{match.code} 第一局先后手尚未抽签",
                f"the colours of game 1 of {match.code} are not drawn yet",
            )
        if number == 1 or _step(ladder_for(rules), _position(ladder_for(rules), number)[0]).colours is not (
            ColourRule.LOT
        ):
            raise UserError(
                f"{match.code} 附加赛须先由排名靠前的棋手选择先后手"
                if number > 1
                else f"{match.code} 第一局须先选择先后手",
                f"the colours of game {number} of {match.code} must be chosen first",
            )
        raise UserError(
            f"{match.code} 第{number}局先后手尚未抽签",
            f"the colours of game {number} of {match.code} are not drawn",
        )
    games.append(KnockoutGame(number, game_kind(number, rules), colours[0], colours[1], result))
    new = dataclasses.replace(match, games=tuple(games))
    check_match(new, rules)
    return new


def remove_last_game(match: Match) -> Match:
    if not match.games:
        raise UserError(f"{match.code} 没有对局可删除", f"match {match.code} has no game to remove")
    return dataclasses.replace(match, games=match.games[:-1])


def check_match(match: Match, rules: Rules) -> None:
    """Raise :class:`UserError` if the stored games of a match contradict the rules."""
    if match.walkover or match.not_needed:
        if match.games:
            raise UserError(
                f"{match.code} 为不战晋级，不应有对局", f"walkover {match.code} cannot have games"
            )
        return
    if not match.games:
        return
    high, low = _both_players(match)
    if match.first_red is not None and match.first_red not in (high, low):
        raise UserError(f"{match.code} 第一局红方不是参赛棋手", f"{match.code}: game 1 Red is not a player")
    for red in (match.deciding_red, *(r for _, r in match.step_reds)):
        if red is not None and red not in (high, low):
            raise UserError(
                f"{match.code} 附加赛红方不是参赛棋手", f"{match.code}: deciding Red is not a player"
            )
    for i, game in enumerate(match.games, start=1):
        if game.number != i:
            raise UserError(f"{match.code} 对局序号不连续", f"{match.code}: game numbers are not 1, 2, 3 …")
        if game.kind is not game_kind(i, rules):
            raise UserError(f"{match.code} 第{i}局的赛制不对", f"{match.code}: game {i} has the wrong kind")
        if (game.red, game.black) != colours_of_game(match, i, rules):
            raise UserError(f"{match.code} 第{i}局的先后手不对", f"{match.code}: game {i} has wrong colours")
        if game.result.is_pending and i != len(match.games):
            raise UserError(f"{match.code} 第{i}局尚无结果", f"{match.code}: game {i} has no result yet")
        earlier = dataclasses.replace(match, games=match.games[: i - 1])
        if match_result(earlier, rules) is not None:
            raise UserError(
                f"{match.code} 已决出胜负后不能再有第{i}局",
                f"{match.code}: game {i} after the match was decided",
            )


def _both_players(match: Match) -> tuple[int, int]:
    if match.high is None or match.low is None or match.walkover or match.not_needed:
        raise UserError(
            f"{match.code} 的对阵尚未确定", f"the players of match {match.code} are not known yet"
        )
    return match.high, match.low


def _no_games_yet(match: Match) -> None:
    if any(not g.result.is_pending for g in match.games):
        raise UserError(
            f"{match.code} 已有对局结果，不能再更改第一局先后手",
            f"match {match.code} has results; the colours of game 1 cannot change",
        )


# --------------------------------------------------------------------------- the bracket


@dataclass(frozen=True, slots=True)
class Bracket:
    """A whole knockout: its layout (plans) and the state of every match, in round then board order.

    ``rules`` holds the ``[knockout]`` settings (today's ladder); ``ladders`` the stage's own match
    formats by scope (:meth:`ladder_of`).
    """

    seeds: tuple[int, ...]
    split_round: int
    rules: KnockoutRules
    plans: tuple[MatchPlan, ...]
    standing_blocks: tuple[StandingBlock, ...]
    matches: tuple[Match, ...]
    elimination: Elimination = Elimination.SINGLE
    ladders: tuple[MatchFormat, ...] = ()
    placement: PlacementRule = PlacementRule.BRACKET
    # code → position in plans and matches (they never change order): set by create_bracket
    positions: Mapping[str, int] = field(default_factory=dict, compare=False, repr=False)
    plan_ladders: tuple[MatchFormat, ...] = field(default=(), compare=False, repr=False)  # by position

    @property
    def size(self) -> int:
        """How many players entered."""
        return len(self.seeds)

    @property
    def slots(self) -> int:
        """The bracket's size: the next power of two (the others are byes)."""
        return 1 << knockout_depth(len(self.seeds))

    @property
    def round_numbers(self) -> tuple[int, ...]:
        return tuple(sorted({p.round_number for p in self.plans}))

    def seed_rank(self, no: int) -> int:
        """1 for the first seed."""
        try:
            return self.seeds.index(no) + 1
        except ValueError:
            raise UserError(f"{no} 号不在淘汰赛中", f"player {no} is not in the knockout") from None

    def _position_of(self, code: str) -> int:
        i = self.positions.get(code)
        if i is None:
            i = next((k for k, p in enumerate(self.plans) if p.code == code), None)
            if i is None:
                raise UserError(f"淘汰赛中没有 {code} 这场比赛", f"no knockout match {code!r}")
        return i

    def match(self, code: str) -> Match:
        return self.matches[self._position_of(code)]

    def plan(self, code: str) -> MatchPlan:
        return self.plans[self._position_of(code)]

    def ladder_of(self, code: str) -> MatchFormat:
        """The match format of a match: the most particular of the stage's formats whose scope fits it,
        or today's ladder of the ``[knockout]`` settings."""
        return _plan_ladder(self, self.plan(code))

    def time_control_of(self, code: str, number: int) -> TimeControl:
        return game_time_control(number, self.ladder_of(code))

    def matches_in_round(self, round_number: int) -> tuple[Match, ...]:
        return tuple(m for m in self.matches if m.round_number == round_number)

    def result(self, code: str) -> MatchResult | None:
        return match_result(self.match(code), self.ladder_of(code))

    def slot_player(self, code: str, side: int) -> int | None:
        """Who is in a side (0, 1) of a match already, though the other side is still undecided: the
        seed placed there, or the winner (loser) of a decided feeder; None when not known or vacant.
        (The match itself gets its players once both are known.)"""
        m = self.match(code)
        if m.high is not None or m.low is not None:
            return (m.high, m.low)[side]
        found = _resolve(self, self.plan(code).sources[side])
        return found if found is not None and found != _UNKNOWN else None

    def next_game(self, code: str) -> DueGame | None:
        return next_game(self.match(code), self.ladder_of(code))

    def due_games(self, round_number: int) -> tuple[DueGame, ...]:
        """The games the matches of a round need next, in board order."""
        due = (
            next_game(m, _plan_ladder(self, p))
            for p, m in zip(self.plans, self.matches, strict=True)
            if m.round_number == round_number
        )
        return tuple(d for d in due if d is not None)

    @property
    def is_complete(self) -> bool:
        return all(
            match_result(m, _plan_ladder(self, p)) is not None
            for p, m in zip(self.plans, self.matches, strict=True)
        )

    def with_match(self, match: Match) -> Bracket:
        """Replace one match's state (same players) and fill in the players of the later matches."""
        current = self.match(match.code)
        if (match.high, match.low, match.round_number) != (current.high, current.low, current.round_number):
            raise UserError(
                f"{match.code} 的对阵由淘汰赛进程决定，不能直接更改",
                f"the players of {match.code} follow from the bracket and cannot be set",
            )
        match = dataclasses.replace(match, walkover=current.walkover, not_needed=current.not_needed)
        check_match(match, self.ladder_of(match.code))
        i = self._position_of(match.code)
        matches = (*self.matches[:i], match, *self.matches[i + 1 :])
        return _settle(dataclasses.replace(self, matches=matches))

    # Conveniences for the services: one call per arbiter action.
    def draw_colours(self, code: str, seed: int) -> Bracket:
        return self.with_match(draw_colours(self.match(code), seed, self.ladder_of(code)))

    def draw_round_colours(self, round_number: int, seed: int) -> Bracket:
        """Draw every lot the matches of the round are waiting for (game 1, a later step's, or who
        chooses); matches whose colours are already set (a physical draw entered) keep them."""
        bracket = self
        for m in self.matches_in_round(round_number):
            due = next_game(m, self.ladder_of(m.code))
            if due is not None and due.colours is ColourState.LOT_NEEDED:
                bracket = bracket.draw_colours(m.code, seed)
        return bracket

    def set_first_red(self, code: str, red: int) -> Bracket:
        return self.with_match(set_first_red(self.match(code), red))

    def choose_colour(self, code: str, colour: Colour) -> Bracket:
        return self.with_match(choose_colour(self.match(code), colour, self.ladder_of(code)))

    def choose_deciding_colour(self, code: str, colour: Colour) -> Bracket:
        return self.with_match(choose_deciding_colour(self.match(code), colour, self.ladder_of(code)))

    def enter_result(self, code: str, number: int, result: GameResult) -> Bracket:
        return self.with_match(enter_result(self.match(code), number, result, self.ladder_of(code)))


def create_bracket(
    seeds: Sequence[int],
    split_round: int,
    rules: KnockoutRules,
    *,
    elimination: Elimination = Elimination.SINGLE,
    placement: PlacementRule | None = None,
    ladders: Sequence[MatchFormat] = (),
    qualifier: bool = False,
    grand_final_reset: bool = True,
) -> Bracket:
    """A new bracket from the seeds (player numbers in seed order); its first round is ``split_round + 1``."""
    if not MIN_ENTRANTS <= len(seeds) <= MAX_KNOCKOUT:
        raise UserError(
            f"淘汰赛人数应在 {MIN_ENTRANTS}–{MAX_KNOCKOUT} 之间，而不是 {len(seeds)}",
            f"a knockout needs {MIN_ENTRANTS}-{MAX_KNOCKOUT} players, not {len(seeds)}",
        )
    if len(set(seeds)) != len(seeds):
        raise UserError("淘汰赛种子中有重复的棋手", "a player is seeded twice")
    if split_round < 0:
        raise UserError("淘汰赛之前的轮次不能为负", "the rounds before the knockout cannot be negative")
    rule = rules.placement if placement is None else placement
    if elimination is Elimination.DOUBLE:
        plans, blocks = _double_layout(len(seeds), split_round, grand_final_reset)
    else:
        plans, blocks = _single_layout(len(seeds), split_round, rule, qualifier)
    matches = tuple(Match(p.code, p.round_number) for p in plans)
    positions = {p.code: i for i, p in enumerate(plans)}
    bracket = Bracket(
        tuple(seeds), split_round, rules, plans, blocks, matches, elimination, tuple(ladders), rule, positions
    )
    bracket = dataclasses.replace(bracket, plan_ladders=tuple(_plan_ladder(bracket, p) for p in plans))
    return _settle(bracket)


def restore_bracket(
    seeds: Sequence[int],
    split_round: int,
    rules: KnockoutRules,
    matches: Sequence[Match],
    **layout: object,
) -> Bracket:
    """Rebuild a bracket from stored match states (in any order); raises if they contradict it.

    ``layout`` takes the keyword arguments of :func:`create_bracket` (elimination, ladders …)."""
    bracket = create_bracket(seeds, split_round, rules, **layout)  # type: ignore[arg-type]
    stored = {m.code: m for m in matches}
    unknown = sorted(set(stored) - {p.code for p in bracket.plans})
    if unknown:
        raise UserError(f"淘汰赛中没有 {unknown[0]} 这场比赛", f"no knockout match {unknown[0]!r}")
    return _settle(bracket, stored)


def final_places(bracket: Bracket) -> dict[int, int]:
    """Places 1…n of the knockout players, once every match is decided (no ties, no gaps)."""
    if not bracket.is_complete:
        raise UserError("淘汰赛尚未全部结束，不能排出名次", "the knockout is not finished yet")
    places: dict[int, int] = {}
    eliminated: list[int] = []
    for plan, m in zip(bracket.plans, bracket.matches, strict=True):
        res = match_result(m, bracket.ladder_of(m.code))
        assert res is not None
        eliminated.extend(res.eliminated)
        if plan.winner_place is not None and res.winner is not None:
            places[res.winner] = plan.winner_place
        if plan.loser_place is not None and res.loser is not None:
            places[res.loser] = plan.loser_place
    for block in bracket.standing_blocks:
        present = [p for p in (_resolve(bracket, s) for s in block.sources) if p is not None]
        for offset, no in enumerate(sorted(present, key=bracket.seed_rank)):
            places.setdefault(no, block.first_place + offset)
    ordered = sorted(places, key=lambda no: (places[no], bracket.seed_rank(no)))
    ordered += sorted((no for no in eliminated if no not in places), key=bracket.seed_rank)
    return {no: place for place, no in enumerate(ordered, start=1)}


def final_ranking(
    knockout_places: Mapping[int, int], others: Sequence[int], removed: Collection[int] = ()
) -> dict[int, int]:
    """The final ranking of a group: knockout places first, then the others in their Swiss order.

    ``others`` is the already-ranked list of the other players (the chain over all rounds they
    played). ``removed`` (disqualified players) are dropped and everybody below moves up.

    >>> final_ranking({7: 2, 3: 1}, [5, 9, 4], removed={9})
    {3: 1, 7: 2, 5: 3, 4: 4}
    """
    places = sorted(knockout_places.values())
    if places != list(range(1, len(places) + 1)):
        raise UserError(
            "淘汰赛名次必须从 1 起连续且不并列", "knockout places must be 1, 2, 3 … without gaps or ties"
        )
    if len(set(others)) != len(others):
        raise UserError("其余棋手的排名中有重复的序号", "the ranking of the others lists a player twice")
    both = set(knockout_places) & set(others)
    if both:
        raise UserError(
            f"{min(both)} 号同时在淘汰赛和积分编排的名次中",
            f"player {min(both)} is ranked both in the knockout and the Swiss",
        )
    ordered = sorted(knockout_places, key=lambda no: knockout_places[no]) + list(others)
    gone = set(removed)
    return {no: place for place, no in enumerate((n for n in ordered if n not in gone), start=1)}


# --------------------------------------------------------------------------- layout


def _number_boards(plans: list[MatchPlan]) -> tuple[MatchPlan, ...]:
    plans.sort(key=lambda p: p.round_number)  # stable: main bracket first, then places in order
    boards: dict[int, int] = {}
    numbered = []
    for p in plans:
        boards[p.round_number] = boards.get(p.round_number, 0) + 1
        numbered.append(dataclasses.replace(p, board=boards[p.round_number]))
    return tuple(numbered)


def _single_layout(
    entrants: int, split_round: int, placement: PlacementRule, qualifier: bool
) -> tuple[tuple[MatchPlan, ...], tuple[StandingBlock, ...]]:
    plans: list[MatchPlan] = []
    blocks: list[StandingBlock] = []
    size = 1 << knockout_depth(entrants)

    def block(slots: list[int | Feed], first: int, depth: int) -> None:
        m = len(slots)
        third = first == 3 and m == 2
        by_standing = (placement is PlacementRule.STANDING and first != 1 and not third) or (
            placement is PlacementRule.ROUND_LOST and first != 1
        )
        if by_standing:
            blocks.append(StandingBlock(first, tuple(slots)))
            return
        codes = [_code(m, first, i) for i in range(1, m // 2 + 1)]
        is_qualifier = qualifier and depth == 0 and first == 1 and size > entrants
        for i, code in enumerate(codes):
            places = (first, first + 1) if m == 2 else (None, None)
            plans.append(
                MatchPlan(
                    code=code,
                    round_number=split_round + depth + 1,
                    board=0,
                    sources=(slots[i], slots[m - 1 - i]),
                    title_zh=f"资格赛第{i + 1}场" if is_qualifier else _title_zh(m, first, i + 1),
                    winner_place=places[0],
                    loser_place=places[1],
                    title_en=f"qualifier {i + 1}" if is_qualifier else _title_en(m, first, i + 1),
                    scopes=_scopes(m, first),
                )
            )
        if m > 2:
            names = [f"资格赛第{i + 1}场" if is_qualifier else "" for i in range(len(codes))]
            block([Feed(c, Outcome.WINNER, t) for c, t in zip(codes, names, strict=True)], first, depth + 1)
            block(
                [Feed(c, Outcome.LOSER, t) for c, t in zip(codes, names, strict=True)],
                first + m // 2,
                depth + 1,
            )

    block(list(range(1, size + 1)), 1, 0)
    return _number_boards(plans), tuple(blocks)


def _scopes(m: int, first: int) -> tuple[MatchScope, ...]:
    if first == 1:
        extra = {2: (MatchScope.FINAL,), 4: (MatchScope.SEMI_FINAL,), 8: (MatchScope.QUARTER_FINAL,)}
        return (MatchScope.ALL, *extra.get(m, ()))
    if first == 3 and m == 2:
        return (MatchScope.ALL, MatchScope.THIRD_PLACE)
    return (MatchScope.ALL, MatchScope.PLACEMENT)


def _double_layout(
    entrants: int, split_round: int, reset: bool
) -> tuple[tuple[MatchPlan, ...], tuple[StandingBlock, ...]]:
    """Winners' bracket ``W{r}_{i}``, losers' bracket ``L{j}_{i}``, grand final ``GF`` (and ``GF2``).

    The winners' round r is played in stage round r, the losers' round j in stage round j + 1, the grand
    final after both.
    """
    k = knockout_depth(entrants)
    size = 1 << k
    plans: list[MatchPlan] = []
    w_codes: list[list[str]] = []
    slots: list[int | Feed] = list(range(1, size + 1))
    for r in range(1, k + 1):
        m = len(slots)
        codes = [f"W{r}_{i}" for i in range(1, m // 2 + 1)]
        for i, code in enumerate(codes):
            final = r == k
            plans.append(
                MatchPlan(
                    code,
                    split_round + r,
                    0,
                    (slots[i], slots[m - 1 - i]),
                    "胜者组决赛" if final else f"胜者组第{r}轮第{i + 1}场",
                    title_en="winners' final" if final else f"winners' round {r}, match {i + 1}",
                    scopes=(MatchScope.ALL, MatchScope.WINNERS),
                    side="W",
                )
            )
        w_codes.append(codes)
        slots = [Feed(c, Outcome.WINNER) for c in codes]
    blocks_from_bottom: list[tuple[Feed, ...]] = []
    lb_last: list[str] = []
    if k >= 2:
        previous: list[str] = []
        last_round = 2 * (k - 1)
        for j in range(1, last_round + 1):
            if j == 1:
                losers = [Feed(c, Outcome.LOSER) for c in w_codes[0]]
                pairs = [(losers[2 * i], losers[2 * i + 1]) for i in range(len(losers) // 2)]
            elif j % 2 == 0:
                t = j // 2
                drop = [Feed(c, Outcome.LOSER) for c in w_codes[t]]
                if t % 2 == 1:
                    drop.reverse()
                pairs = [(Feed(c, Outcome.WINNER), drop[i]) for i, c in enumerate(previous)]
            else:
                winners = [Feed(c, Outcome.WINNER) for c in previous]
                pairs = [(winners[2 * i], winners[2 * i + 1]) for i in range(len(winners) // 2)]
            codes = [f"L{j}_{i}" for i in range(1, len(pairs) + 1)]
            for i, (code, pair) in enumerate(zip(codes, pairs, strict=True)):
                final = j == last_round
                plans.append(
                    MatchPlan(
                        code,
                        split_round + j + 1,
                        0,
                        pair,
                        "败者组决赛" if final else f"败者组第{j}轮第{i + 1}场",
                        title_en="losers' final" if final else f"losers' round {j}, match {i + 1}",
                        scopes=(MatchScope.ALL, MatchScope.LOSERS),
                        side="L",
                    )
                )
            blocks_from_bottom.append(tuple(Feed(c, Outcome.LOSER) for c in codes))
            previous = codes
        lb_last = previous
    gf_round = split_round + 2 * k
    lb_champion: int | Feed = (
        Feed(lb_last[0], Outcome.WINNER) if lb_last else Feed(w_codes[-1][0], Outcome.LOSER)
    )
    plans.append(
        MatchPlan(
            "GF",
            gf_round,
            0,
            (Feed(w_codes[-1][0], Outcome.WINNER), lb_champion),
            "总决赛",
            None if reset else 1,
            None if reset else 2,
            "grand final",
            (MatchScope.ALL, MatchScope.GRAND_FINAL, MatchScope.FINAL),
            "G",
        )
    )
    if reset:
        plans.append(
            MatchPlan(
                "GF2",
                gf_round + 1,
                0,
                (Feed("GF", Outcome.WINNER), Feed("GF", Outcome.LOSER)),
                "总决赛加赛",
                1,
                2,
                "grand final reset",
                (MatchScope.ALL, MatchScope.GRAND_FINAL, MatchScope.FINAL),
                "G",
                reset_of="GF",
            )
        )
    blocks: list[StandingBlock] = []
    place = 3
    for feeds in reversed(blocks_from_bottom):
        blocks.append(StandingBlock(place, feeds))
        place += len(feeds)
    return _number_boards(plans), tuple(blocks)


_MAIN_NAMES = {
    2: "决赛",
    4: "半决赛",
    8: "1/4决赛",
    16: "1/8决赛",
    32: "1/16决赛",
    64: "1/32决赛",
    128: "1/64决赛",
}
_MAIN_LONG = {
    4: "半决赛",
    8: "四分之一决赛",
    16: "八分之一决赛",
    32: "十六分之一决赛",
    64: "三十二分之一决赛",
    128: "六十四分之一决赛",
}
_MAIN_EN = {
    4: "semi-final",
    8: "quarter-final",
    16: "round of 16",
    32: "round of 32",
    64: "round of 64",
    128: "round of 128",
}


def _code(m: int, first: int, i: int) -> str:
    if first == 1:
        return {2: "F", 4: f"SF{i}", 8: f"QF{i}"}.get(m, f"R{m}_{i}")
    if m == 2:
        return "3RD" if first == 3 else f"P{first}"
    if m in (4, 8):
        return f"P{first}{'SF' if m == 4 else 'QF'}{i}"
    return f"P{first}R{m}_{i}"


_PAIR_PLACES_ZH = {3: "三四", 5: "五六", 7: "七八"}


def short_title_zh(code: str) -> str:
    """A match's name from its code, short enough for a bracket slot or a table cell.

    >>> [short_title_zh(c) for c in ("QF1", "SF2", "F", "3RD", "P5SF1", "P5", "P9QF3", "R16_4")]
    ['1/4决赛第1场', '半决赛第2场', '决赛', '三四名决赛', '5–8名半决赛第1场', '五六名决赛', '9–16名1/4决赛第3场', '1/8决赛第4场']
    >>> [short_title_zh(c) for c in ("W2_1", "L3_2", "GF", "GF2", "R32_5", "P17R16_2")]
    ['胜者组第2轮第1场', '败者组第3轮第2场', '总决赛', '总决赛加赛', '1/16决赛第5场', '17–32名1/8决赛第2场']
    """
    if code == "F":
        return "决赛"
    if code == "3RD":
        return "三四名决赛"
    if code == "GF":
        return "总决赛"
    if code == "GF2":
        return "总决赛加赛"
    for prefix, name in (("W", "胜者组"), ("L", "败者组")):
        body = code[1:]
        if code.startswith(prefix) and "_" in body and body.replace("_", "").isdigit():
            r, i = body.split("_")
            return f"{name}第{r}轮第{i}场"
    if code.startswith("R") and "_" in code:
        slots, i = code[1:].split("_")
        if slots.isdigit() and i.isdigit():
            return f"{_MAIN_NAMES.get(int(slots), f'{slots}强')}第{i}场"
    for prefix, name in (("QF", "1/4决赛"), ("SF", "半决赛")):
        if code.startswith(prefix) and code[len(prefix) :].isdigit():
            return f"{name}第{code[len(prefix) :]}场"
    if code.startswith("P"):
        body = code[1:]
        digits = len(body) - len(body.lstrip("0123456789"))
        first, rest = int(body[:digits]), body[digits:]
        if not rest:
            return f"{_PAIR_PLACES_ZH.get(first, f'{first}、{first + 1}')}名决赛"
        if rest.startswith("R") and "_" in rest:
            size_text, number = rest[1:].split("_")
            block = int(size_text)
            return f"{first}–{first + block - 1}名{_MAIN_NAMES.get(block, '')}第{number}场"
        stage, block = ("半决赛", 4) if rest.startswith("SF") else ("1/4决赛", 8)
        return f"{first}–{first + block - 1}名{stage}第{rest[2:]}场"
    return code


def _title_zh(m: int, first: int, i: int) -> str:
    if first == 1:
        return "决赛" if m == 2 else f"{_MAIN_LONG[m]}第{i}场"
    if m == 2:
        return f"第{first}、{first + 1}名决赛"
    return f"第{first}至{first + m - 1}名{_MAIN_LONG[m]}第{i}场"


def _title_en(m: int, first: int, i: int) -> str:
    if first == 1:
        return "final" if m == 2 else f"{_MAIN_EN[m]} {i}" if m <= 8 else f"{_MAIN_EN[m]}, match {i}"
    if m == 2:
        return f"match for places {first} and {first + 1}"
    return f"places {first}–{first + m - 1}, {_MAIN_EN[m]} {i}"


_UNKNOWN = -1  # a feeder not decided yet (player numbers are ≥ 1; None means a vacant slot)


def _plan_ladder(bracket: Bracket, plan: MatchPlan) -> MatchFormat:
    if bracket.plan_ladders:
        return bracket.plan_ladders[bracket._position_of(plan.code)]
    fitting = [m for m in bracket.ladders if m.scope in plan.scopes]
    if not fitting:
        return bracket.rules.match_format
    return max(fitting, key=lambda m: m.scope.particularity)


def _resolve(
    bracket: Bracket, source: int | Feed, results: Mapping[str, MatchResult | None] | None = None
) -> int | None:
    """The player in a slot: a number, None for vacant, or _UNKNOWN while the feeder is undecided."""
    if isinstance(source, int):
        return bracket.seeds[source - 1] if source <= len(bracket.seeds) else None
    if results is not None:
        res = results[source.match]
    else:
        res = match_result(bracket.match(source.match), bracket.ladder_of(source.match))
    if res is None:
        return _UNKNOWN
    return res.winner if source.takes is Outcome.WINNER else res.loser


def _expected(bracket: Bracket, plan: MatchPlan, results: Mapping[str, MatchResult | None]) -> Match:
    """What the bracket says a match is now: unknown, a walkover, not needed, or its two players."""
    a, b = (_resolve(bracket, s, results) for s in plan.sources)
    if _UNKNOWN in (a, b):
        return Match(plan.code, plan.round_number)
    if plan.reset_of:
        grand = bracket.plan(plan.reset_of)
        champion = _resolve(bracket, grand.sources[0], results)
        if a is not None and b is not None and a == champion:  # the unbeaten player won the grand final
            return Match(plan.code, plan.round_number, a, b, not_needed=True)
    present = sorted((p for p in (a, b) if p is not None), key=bracket.seed_rank)
    if len(present) == 2:
        return Match(plan.code, plan.round_number, present[0], present[1])
    return Match(plan.code, plan.round_number, present[0] if present else None, None, walkover=True)


def _started(m: Match) -> bool:
    return bool(m.games or m.first_red is not None or m.deciding_red is not None or m.step_reds)


def _settle(bracket: Bracket, stored: Mapping[str, Match] | None = None) -> Bracket:
    """Fill in the players of every match whose feeders are decided, in one pass in round order.

    With ``stored`` (restoring), each stored match state is put in place with the players the bracket
    gives it, and checked; a stored match that started with other players is refused."""
    results: dict[str, MatchResult | None] = {}
    matches: list[Match] = []
    for i, (plan, current) in enumerate(zip(bracket.plans, bracket.matches, strict=True)):
        ladder = bracket.plan_ladders[i] if bracket.plan_ladders else _plan_ladder(bracket, plan)
        expected = _expected(bracket, plan, results)
        saved = None if stored is None else stored.get(plan.code)
        if saved is not None:
            if (saved.high, saved.low) != (expected.high, expected.low) and (
                saved.games or saved.first_red is not None
            ):
                raise UserError(
                    f"保存的 {plan.code} 对阵与淘汰赛进程不符",
                    f"stored players of {plan.code} contradict the bracket",
                )
            if expected.walkover or expected.not_needed or expected.high is None:
                current = expected
            else:
                current = dataclasses.replace(
                    saved, high=expected.high, low=expected.low, walkover=False, not_needed=False
                )
                check_match(current, ladder)
        elif (current.high, current.low, current.walkover, current.not_needed) != (
            expected.high,
            expected.low,
            expected.walkover,
            expected.not_needed,
        ):
            if _started(current):
                raise UserError(
                    f"{plan.code} 已开始（已抽签或已有对局），其前序比赛结果不能再更改",
                    f"match {plan.code} has started; the results feeding it cannot change",
                )
            current = expected
        results[plan.code] = match_result(current, ladder)
        matches.append(current)
    return dataclasses.replace(bracket, matches=tuple(matches))
