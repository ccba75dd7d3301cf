"""The second stage (第二阶段): the knockout (淘汰赛) of the top players after the Swiss split.

docs/rules.md §1, §6 (final ranking) and §7. Pure values in, new values out; the services store and load
exactly the fields of :class:`Match` (code, round, players, colour lot, deciding colour, games) and the
seeds, and rebuild the whole bracket with :func:`restore_bracket`.

The bracket of ``size`` players (4, 8 or 16) is laid out by one rule: a block of ``m`` bracket slots
competing for places ``p … p+m-1`` pairs slot ``i`` with slot ``m+1-i``; the winner of that match takes
slot ``i`` of the block for places ``p …`` and the loser slot ``i`` of the block for places ``p+m/2 …``
(no re-seeding). For 8 this is exactly the regulation: quarter-finals 1–8, 2–7, 3–6, 4–5; semi-finals
W(1–8)–W(4–5), W(2–7)–W(3–6); round 10 also L(1–8)–L(4–5), L(2–7)–L(3–6); round 11 the final, the
3rd-place match and the 5th- and 7th-place matches. With ``PlacementRule.STANDING`` every block below
the main bracket is not played but ranked by the seeds (standing after the Swiss stage); only the main
bracket and the 3rd-place match are played.

Match codes: main bracket ``R16_1…``, ``QF1…QF4``, ``SF1``, ``SF2``, ``F``; ``3RD``; lower blocks
``P{p}QF{i}``, ``P{p}SF{i}`` and ``P{p}`` (the match for places p and p+1), e.g. ``P5SF1``, ``P5``, ``P7``.

>>> from app.engine.regulations import KnockoutRules
>>> b = create_bracket((11, 12, 13, 14, 15, 16, 17, 18), split_round=8, rules=KnockoutRules())
>>> [(m.code, m.round_number, m.high, m.low) for m in b.matches_in_round(9)]
[('QF1', 9, 11, 18), ('QF2', 9, 12, 17), ('QF3', 9, 13, 16), ('QF4', 9, 14, 15)]
>>> [m.code for m in b.matches_in_round(11)]
['F', '3RD', 'P5', 'P7']

Each match is a sequence of games (:func:`next_game`): game 1 slow with colours by lot
(:func:`draw_colours`, reproducible from its seed, or :func:`set_first_red` for a physical draw);
if drawn, game 2 rapid with colours swapped; if drawn again, game 3 (附加赛) with the colour chosen by
the higher seed (:func:`choose_deciding_colour`), where a draw counts as a Black win
(``DecidingDraw.BLACK_WINS``) or is repeated with colours swapped until decisive (``REPEAT``).

Decisions where the regulation is silent (documented defaults):

* A forfeit (红方弃权 / 黑方弃权) in any game loses the match.
* A **double forfeit** (双方弃权, incl. an agreed result without play) in any game eliminates **both**
  players: neither plays again. Their next opponent advances without play (a *walkover*), a block with a
  vacant slot simply has one player fewer, and in :func:`final_places` both are placed below every other
  knockout player (higher seed first); the remaining places close up, so places stay 1…size.
* Seeds (:func:`knockout_seeds`) are the top ``size`` of the standing after the split round, skipping
  withdrawn and disqualified players — the next player moves up.
* Colours by lot: ``random.Random(f"{seed}:{code}")`` decides whether the higher seed is Red, so one
  recorded seed per round gives independent, reproducible lots for every match of that round.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from app.engine.regulations import DecidingDraw, KnockoutRules, PlacementRule, TimeControl
from app.engine.types import Colour, GameResult, PlayerStatus, UserError

KNOCKOUT_SIZES = (4, 8, 16)


class GameKind(enum.Enum):
    """The kind of a knockout game (values as stored in ``games.kind``)."""

    SLOW = "slow"  # 慢棋, game 1
    RAPID = "rapid"  # 换先快棋, game 2
    DECIDING = "deciding"  # 附加赛, game 3 (and its repeats)

    @property
    def zh(self) -> str:
        return {GameKind.SLOW: "慢棋", GameKind.RAPID: "快棋", GameKind.DECIDING: "附加赛"}[self]


class ColourMethod(enum.Enum):
    """How the colours of game 1 were decided (values as stored in ``knockout_matches.colour_method``)."""

    LOT = "lot"  # drawn by the program from a recorded seed
    MANUAL = "manual"  # a physical draw entered by the arbiter


class ColourState(enum.Enum):
    """Whether the colours of the due game are known."""

    SET = "set"
    LOT_NEEDED = "lot_needed"  # game 1: the lot has not been drawn or entered yet
    CHOICE_NEEDED = "choice_needed"  # deciding game: the higher seed has not chosen yet


class Outcome(enum.Enum):
    WINNER = "winner"
    LOSER = "loser"


@dataclass(frozen=True, slots=True)
class Feed:
    """A bracket slot filled by the winner or the loser of an earlier match."""

    match: str
    takes: Outcome

    @property
    def label_zh(self) -> str:
        """``1/4决赛第1场胜者``, ``半决赛第2场负者`` — the match by name, never by its code."""
        return f"{short_title_zh(self.match)}{'胜者' if self.takes is Outcome.WINNER else '负者'}"

    @property
    def label_en(self) -> str:
        return f"{'winner' if self.takes is Outcome.WINNER else 'loser'} of {self.match}"


@dataclass(frozen=True, slots=True)
class MatchPlan:
    """Where a match sits in the bracket: its sources and the places it decides.

    A source is a seed rank (1 = first after the Swiss stage) or a :class:`Feed`.
    ``winner_place``/``loser_place`` are set only for the matches that decide two places (F, 3RD, P5…).
    """

    code: str
    round_number: int
    board: int  # order of the match within its round, 1-based
    sources: tuple[int | Feed, int | Feed]
    title_zh: str
    winner_place: int | None = None
    loser_place: int | None = None
    title_en: str = field(default="", compare=False)  # the English of title_zh (for the window)


@dataclass(frozen=True, slots=True)
class StandingBlock:
    """Places ``first_place …`` given by the seeds of the players fed in (PlacementRule.STANDING)."""

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

    ``high`` is the higher seed (better standing after the Swiss stage), ``low`` the other. Both are
    None until the feeding matches are decided. ``walkover`` is set by the bracket when the feeders are
    decided but a slot stayed vacant after a double forfeit (it is derived, not stored).
    """

    code: str
    round_number: int
    high: int | None = None
    low: int | None = None
    colour_method: ColourMethod | None = None
    colour_seed: int | None = None
    first_red: int | None = None  # Red of game 1
    deciding_red: int | None = None  # Red of game 3, as chosen by the higher seed
    games: tuple[KnockoutGame, ...] = ()
    walkover: bool = False

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(p for p in (self.high, self.low) if p is not None)


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
    chooser: int | None = None  # the higher seed, when colours is CHOICE_NEEDED


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
    """The knockout seeds: the top ``size`` of the standing after the split, in order.

    Withdrawn and disqualified players do not take a slot; the next player moves up.

    >>> knockout_seeds([5, 3, 9, 1, 7], 4, {3: PlayerStatus.WITHDRAWN})
    (5, 9, 1, 7)
    """
    if size not in KNOCKOUT_SIZES:
        raise UserError(
            f"淘汰赛人数只能是 4、8 或 16，而不是 {size}", f"knockout size must be 4, 8 or 16, not {size}"
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


# --------------------------------------------------------------------------- one match


def draw_colours(match: Match, seed: int) -> Match:
    """Draw the colours of game 1 by lot, reproducibly from ``seed`` (先后手抽签).

    >>> m = Match("QF1", 9, high=1, low=8)
    >>> draw_colours(m, 42) == draw_colours(m, 42)
    True
    """
    high, low = _both_players(match)
    _no_games_yet(match)
    high_is_red = random.Random(f"{seed}:{match.code}").random() < 0.5
    return dataclasses.replace(
        match, colour_method=ColourMethod.LOT, colour_seed=seed, first_red=high if high_is_red else low
    )


def set_first_red(match: Match, red: int) -> Match:
    """Enter a physical colour draw: ``red`` plays Red in game 1."""
    players = _both_players(match)
    _no_games_yet(match)
    if red not in players:
        raise UserError(
            f"{red} 号不是 {match.code} 的参赛棋手", f"player {red} does not play in match {match.code}"
        )
    return dataclasses.replace(match, colour_method=ColourMethod.MANUAL, colour_seed=None, first_red=red)


def choose_deciding_colour(match: Match, colour: Colour) -> Match:
    """Record the colour the higher seed chose for the deciding game (附加赛由排名靠前者选择先后手)."""
    high, low = _both_players(match)
    if any(g.number >= 3 and not g.result.is_pending for g in match.games):
        raise UserError(
            f"{match.code} 的附加赛已有结果，不能再更改先后手",
            f"the deciding game of {match.code} has a result; its colours cannot change",
        )
    return dataclasses.replace(match, deciding_red=high if colour is Colour.RED else low)


def colours_of_game(match: Match, number: int) -> tuple[int, int] | None:
    """(red, black) of game ``number`` of the match, or None while the lot / choice is missing."""
    if number < 1:
        raise UserError(f"对局序号必须从 1 开始：{number}", f"game numbers start at 1: {number}")
    high, low = _both_players(match)
    if number <= 2:
        if match.first_red is None:
            return None
        red = match.first_red
        black = low if red == high else high
        return (red, black) if number == 1 else (black, red)
    if match.deciding_red is None:
        return None
    red = match.deciding_red
    black = low if red == high else high
    return (red, black) if (number - 3) % 2 == 0 else (black, red)


def game_kind(number: int) -> GameKind:
    return GameKind.SLOW if number == 1 else GameKind.RAPID if number == 2 else GameKind.DECIDING


def time_control(kind: GameKind, rules: KnockoutRules) -> TimeControl:
    return {GameKind.SLOW: rules.slow, GameKind.RAPID: rules.rapid, GameKind.DECIDING: rules.deciding}[kind]


def match_result(match: Match, rules: KnockoutRules) -> MatchResult | None:
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
    for game in match.games:
        res = game.result
        if res.is_pending:
            return None
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
        if (
            winner_colour is None
            and game.kind is GameKind.DECIDING
            and rules.deciding_draw is DecidingDraw.BLACK_WINS
        ):
            return MatchResult(
                game.black,
                game.red,
                game.number,
                f"{label}和棋，按规则黑方胜出",
                reason_en=f"{label_en} drawn: Black advances",
            )
        if winner_colour is not None:
            winner, loser = (game.red, game.black) if winner_colour is Colour.RED else (game.black, game.red)
            return MatchResult(
                winner, loser, game.number, f"{label}{res.zh}", reason_en=f"{label_en}: {_RESULT_EN[res]}"
            )
    return None


def match_winner(match: Match, rules: KnockoutRules) -> int | None:
    """The player who advances, or None (not decided yet, or nobody after a double forfeit)."""
    result = match_result(match, rules)
    return None if result is None else result.winner


def next_game(match: Match, rules: KnockoutRules) -> DueGame | None:
    """The game the match needs next (a paired game still without result counts as due).

    None when the match is decided or its players are not known yet.

    >>> rules = KnockoutRules()
    >>> due = next_game(Match("QF1", 9, high=1, low=8), rules)
    >>> due.kind, due.time_control.label, due.colours
    (<GameKind.SLOW: 'slow'>, '20′+5″', <ColourState.LOT_NEEDED: 'lot_needed'>)
    """
    if match.walkover or match.high is None or match.low is None:
        return None
    if match_result(match, rules) is not None:
        return None
    if match.games and match.games[-1].result.is_pending:
        number = match.games[-1].number
    else:
        number = len(match.games) + 1
    kind = game_kind(number)
    colours = colours_of_game(match, number)
    tc = time_control(kind, rules)
    if colours is None:
        state = ColourState.LOT_NEEDED if number <= 2 else ColourState.CHOICE_NEEDED
        chooser = match.high if state is ColourState.CHOICE_NEEDED else None
        return DueGame(match.code, number, kind, tc, None, None, state, chooser)
    return DueGame(match.code, number, kind, tc, colours[0], colours[1], ColourState.SET)


def enter_result(match: Match, number: int, result: GameResult, rules: KnockoutRules) -> Match:
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
    colours = colours_of_game(match, number)
    if colours is None:
        if number <= 2:
            raise UserError(
                f"{match.code} 第一局先后手尚未抽签",
                f"the colours of game 1 of {match.code} are not drawn yet",
            )
        raise UserError(
            f"{match.code} 附加赛须先由排名靠前的棋手选择先后手",
            f"the higher seed of {match.code} must choose colours for the deciding game first",
        )
    games.append(KnockoutGame(number, game_kind(number), colours[0], colours[1], result))
    new = dataclasses.replace(match, games=tuple(games))
    check_match(new, rules)
    return new


def remove_last_game(match: Match) -> Match:
    if not match.games:
        raise UserError(f"{match.code} 没有对局可删除", f"match {match.code} has no game to remove")
    return dataclasses.replace(match, games=match.games[:-1])


def check_match(match: Match, rules: KnockoutRules) -> None:
    """Raise :class:`UserError` if the stored games of a match contradict the rules."""
    if match.walkover:
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
    if match.deciding_red is not None and match.deciding_red not in (high, low):
        raise UserError(f"{match.code} 附加赛红方不是参赛棋手", f"{match.code}: deciding Red is not a player")
    for i, game in enumerate(match.games, start=1):
        if game.number != i:
            raise UserError(f"{match.code} 对局序号不连续", f"{match.code}: game numbers are not 1, 2, 3 …")
        if game.kind is not game_kind(i):
            raise UserError(f"{match.code} 第{i}局的赛制不对", f"{match.code}: game {i} has the wrong kind")
        if (game.red, game.black) != colours_of_game(match, i):
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
    if match.high is None or match.low is None or match.walkover:
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
    """A whole knockout: its layout (plans) and the state of every match, in round then board order."""

    seeds: tuple[int, ...]
    split_round: int
    rules: KnockoutRules
    plans: tuple[MatchPlan, ...]
    standing_blocks: tuple[StandingBlock, ...]
    matches: tuple[Match, ...]

    @property
    def size(self) -> int:
        return len(self.seeds)

    @property
    def round_numbers(self) -> tuple[int, ...]:
        return tuple(sorted({p.round_number for p in self.plans}))

    def seed_rank(self, no: int) -> int:
        """1 for the first seed."""
        try:
            return self.seeds.index(no) + 1
        except ValueError:
            raise UserError(f"{no} 号不在淘汰赛中", f"player {no} is not in the knockout") from None

    def match(self, code: str) -> Match:
        for m in self.matches:
            if m.code == code:
                return m
        raise UserError(f"淘汰赛中没有 {code} 这场比赛", f"no knockout match {code!r}")

    def plan(self, code: str) -> MatchPlan:
        for p in self.plans:
            if p.code == code:
                return p
        raise UserError(f"淘汰赛中没有 {code} 这场比赛", f"no knockout match {code!r}")

    def matches_in_round(self, round_number: int) -> tuple[Match, ...]:
        return tuple(m for m in self.matches if m.round_number == round_number)

    def result(self, code: str) -> MatchResult | None:
        return match_result(self.match(code), self.rules)

    def due_games(self, round_number: int) -> tuple[DueGame, ...]:
        """The games the matches of a round need next, in board order."""
        due = (next_game(m, self.rules) for m in self.matches_in_round(round_number))
        return tuple(d for d in due if d is not None)

    @property
    def is_complete(self) -> bool:
        return all(match_result(m, self.rules) is not None for m in self.matches)

    def with_match(self, match: Match) -> Bracket:
        """Replace one match's state (same players) and fill in the players of the later matches."""
        current = self.match(match.code)
        if (match.high, match.low, match.round_number) != (current.high, current.low, current.round_number):
            raise UserError(
                f"{match.code} 的对阵由淘汰赛进程决定，不能直接更改",
                f"the players of {match.code} follow from the bracket and cannot be set",
            )
        match = dataclasses.replace(match, walkover=current.walkover)
        check_match(match, self.rules)
        matches = tuple(match if m.code == match.code else m for m in self.matches)
        return _settle(dataclasses.replace(self, matches=matches))

    # Conveniences for the services: one call per arbiter action.
    def draw_colours(self, code: str, seed: int) -> Bracket:
        return self.with_match(draw_colours(self.match(code), seed))

    def draw_round_colours(self, round_number: int, seed: int) -> Bracket:
        """Draw game-1 colours for every match of the round whose players are known and lot is open.

        Matches whose colours are already set (a physical draw entered, or drawn before) keep them.
        """
        bracket = self
        for m in self.matches_in_round(round_number):
            if m.high is not None and m.low is not None and not m.walkover and m.first_red is None:
                bracket = bracket.draw_colours(m.code, seed)
        return bracket

    def set_first_red(self, code: str, red: int) -> Bracket:
        return self.with_match(set_first_red(self.match(code), red))

    def choose_deciding_colour(self, code: str, colour: Colour) -> Bracket:
        return self.with_match(choose_deciding_colour(self.match(code), colour))

    def enter_result(self, code: str, number: int, result: GameResult) -> Bracket:
        return self.with_match(enter_result(self.match(code), number, result, self.rules))


def create_bracket(seeds: Sequence[int], split_round: int, rules: KnockoutRules) -> Bracket:
    """A new bracket from the seeds (player numbers in order of the standing after the split round)."""
    if len(seeds) not in KNOCKOUT_SIZES:
        raise UserError(
            f"淘汰赛人数只能是 4、8 或 16，而不是 {len(seeds)}",
            f"a knockout needs 4, 8 or 16 players, not {len(seeds)}",
        )
    if len(set(seeds)) != len(seeds):
        raise UserError("淘汰赛种子中有重复的棋手", "a player is seeded twice")
    if split_round < 1:
        raise UserError("分段轮次必须至少为 1", "the split round must be at least 1")
    plans, blocks = _layout(len(seeds), split_round, rules.placement)
    matches = tuple(Match(p.code, p.round_number) for p in plans)
    return _settle(Bracket(tuple(seeds), split_round, rules, plans, blocks, matches))


def restore_bracket(
    seeds: Sequence[int], split_round: int, rules: KnockoutRules, matches: Sequence[Match]
) -> Bracket:
    """Rebuild a bracket from stored match states (in any order); raises if they contradict it."""
    bracket = create_bracket(seeds, split_round, rules)
    stored = {m.code: m for m in matches}
    unknown = sorted(set(stored) - {p.code for p in bracket.plans})
    if unknown:
        raise UserError(f"淘汰赛中没有 {unknown[0]} 这场比赛", f"no knockout match {unknown[0]!r}")
    for plan in bracket.plans:  # round order: feeders are settled before the matches they feed
        if plan.code not in stored:
            continue
        saved = stored[plan.code]
        current = bracket.match(plan.code)
        if (saved.high, saved.low) != (current.high, current.low) and (
            saved.games or saved.first_red is not None
        ):
            raise UserError(
                f"保存的 {plan.code} 对阵与淘汰赛进程不符",
                f"stored players of {plan.code} contradict the bracket",
            )
        bracket = bracket.with_match(dataclasses.replace(saved, high=current.high, low=current.low))
    return bracket


def final_places(bracket: Bracket) -> dict[int, int]:
    """Places 1…size of the knockout players, once every match is decided (no ties, no gaps)."""
    if not bracket.is_complete:
        raise UserError("淘汰赛尚未全部结束，不能排出名次", "the knockout is not finished yet")
    places: dict[int, int] = {}
    eliminated: list[int] = []
    for plan, m in zip(bracket.plans, bracket.matches, strict=True):
        res = match_result(m, bracket.rules)
        assert res is not None
        eliminated.extend(res.eliminated)
        if plan.winner_place is not None and res.winner is not None:
            places[res.winner] = plan.winner_place
        if plan.loser_place is not None and res.loser is not None:
            places[res.loser] = plan.loser_place
    for block in bracket.standing_blocks:
        present = [p for p in (_resolve(bracket, s) for s in block.sources) if p is not None]
        for offset, no in enumerate(sorted(present, key=bracket.seed_rank)):
            places[no] = block.first_place + offset
    ordered = sorted(places, key=lambda no: places[no])
    ordered += sorted(eliminated, key=bracket.seed_rank)
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


# --------------------------------------------------------------------------- layout and progression


def _layout(
    size: int, split_round: int, placement: PlacementRule
) -> tuple[tuple[MatchPlan, ...], tuple[StandingBlock, ...]]:
    plans: list[MatchPlan] = []
    blocks: list[StandingBlock] = []

    def block(slots: list[int | Feed], first: int, depth: int) -> None:
        m = len(slots)
        main_or_third = first == 1 or (first == 3 and m == 2)
        if placement is PlacementRule.STANDING and not main_or_third:
            blocks.append(StandingBlock(first, tuple(slots)))
            return
        codes = [_code(m, first, i) for i in range(1, m // 2 + 1)]
        for i, code in enumerate(codes):
            places = (first, first + 1) if m == 2 else (None, None)
            plans.append(
                MatchPlan(
                    code=code,
                    round_number=split_round + depth + 1,
                    board=0,
                    sources=(slots[i], slots[m - 1 - i]),
                    title_zh=_title_zh(m, first, i + 1),
                    winner_place=places[0],
                    loser_place=places[1],
                    title_en=_title_en(m, first, i + 1),
                )
            )
        if m > 2:
            block([Feed(c, Outcome.WINNER) for c in codes], first, depth + 1)
            block([Feed(c, Outcome.LOSER) for c in codes], first + m // 2, depth + 1)

    block(list(range(1, size + 1)), 1, 0)
    plans.sort(key=lambda p: p.round_number)  # stable: main bracket first, then places in order
    boards: dict[int, int] = {}
    numbered = []
    for p in plans:
        boards[p.round_number] = boards.get(p.round_number, 0) + 1
        numbered.append(dataclasses.replace(p, board=boards[p.round_number]))
    return tuple(numbered), tuple(blocks)


def _code(m: int, first: int, i: int) -> str:
    if first == 1:
        return {16: f"R16_{i}", 8: f"QF{i}", 4: f"SF{i}", 2: "F"}[m]
    if m == 2:
        return "3RD" if first == 3 else f"P{first}"
    return f"P{first}{'SF' if m == 4 else 'QF'}{i}"


_PAIR_PLACES_ZH = {3: "三四", 5: "五六", 7: "七八"}


def short_title_zh(code: str) -> str:
    """A match's name from its code, short enough for a bracket slot or a table cell.

    >>> [short_title_zh(c) for c in ("QF1", "SF2", "F", "3RD", "P5SF1", "P5", "P9QF3", "R16_4")]
    ['1/4决赛第1场', '半决赛第2场', '决赛', '三四名决赛', '5–8名半决赛第1场', '五六名决赛', '9–16名1/4决赛第3场', '1/8决赛第4场']
    """
    if code == "F":
        return "决赛"
    if code == "3RD":
        return "三四名决赛"
    for prefix, name in (("R16_", "1/8决赛"), ("QF", "1/4决赛"), ("SF", "半决赛")):
        if code.startswith(prefix) and code[len(prefix) :].isdigit():
            return f"{name}第{code[len(prefix) :]}场"
    if code.startswith("P"):
        body = code[1:]
        digits = len(body) - len(body.lstrip("0123456789"))
        first, rest = int(body[:digits]), body[digits:]
        if not rest:
            return f"{_PAIR_PLACES_ZH.get(first, f'{first}、{first + 1}')}名决赛"
        stage, size = ("半决赛", 4) if rest.startswith("SF") else ("1/4决赛", 8)
        return f"{first}–{first + size - 1}名{stage}第{rest[2:]}场"
    return code


def _title_zh(m: int, first: int, i: int) -> str:
    if first == 1:
        return {16: f"八分之一决赛第{i}场", 8: f"四分之一决赛第{i}场", 4: f"半决赛第{i}场", 2: "决赛"}[m]
    if m == 2:
        return f"第{first}、{first + 1}名决赛"
    stage = "半决赛" if m == 4 else "四分之一决赛"
    return f"第{first}至{first + m - 1}名{stage}第{i}场"


_RESULT_EN = {
    GameResult.RED_WIN: "Red won",
    GameResult.BLACK_WIN: "Black won",
    GameResult.RED_FORFEIT: "Red forfeited",
    GameResult.BLACK_FORFEIT: "Black forfeited",
}


def _title_en(m: int, first: int, i: int) -> str:
    if first == 1:
        return {16: f"round of 16, match {i}", 8: f"quarter-final {i}", 4: f"semi-final {i}", 2: "final"}[m]
    if m == 2:
        return f"match for places {first} and {first + 1}"
    stage = "semi-final" if m == 4 else "quarter-final"
    return f"places {first}–{first + m - 1}, {stage} {i}"


_UNKNOWN = -1  # a feeder not decided yet (player numbers are ≥ 1; None means a vacant slot)


def _resolve(bracket: Bracket, source: int | Feed) -> int | None:
    """The player in a slot: a number, None for vacant, or _UNKNOWN while the feeder is undecided."""
    if isinstance(source, int):
        return bracket.seeds[source - 1]
    res = match_result(bracket.match(source.match), bracket.rules)
    if res is None:
        return _UNKNOWN
    return res.winner if source.takes is Outcome.WINNER else res.loser


def _settle(bracket: Bracket) -> Bracket:
    """Fill in the players of every match whose feeders are decided (in round order)."""
    for plan in bracket.plans:
        current = bracket.match(plan.code)
        a, b = (_resolve(bracket, s) for s in plan.sources)
        if _UNKNOWN in (a, b):
            expected = Match(plan.code, plan.round_number)
        else:
            present = sorted((p for p in (a, b) if p is not None), key=bracket.seed_rank)
            if len(present) == 2:
                expected = Match(plan.code, plan.round_number, present[0], present[1])
            else:
                expected = Match(
                    plan.code, plan.round_number, present[0] if present else None, None, walkover=True
                )
        if (current.high, current.low, current.walkover) == (expected.high, expected.low, expected.walkover):
            continue
        if current.games or current.first_red is not None or current.deciding_red is not None:
            raise UserError(
                f"{plan.code} 已开始（已抽签或已有对局），其前序比赛结果不能再更改",
                f"match {plan.code} has started; the results feeding it cannot change",
            )
        matches = tuple(expected if m.code == plan.code else m for m in bracket.matches)
        bracket = dataclasses.replace(bracket, matches=matches)
    return bracket
