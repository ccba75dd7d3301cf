"""Random tournament generator and checker for the Swiss pairing engine (cf. bbpPairings -g / -c).

:class:`SimulatedEvent` plays a random event round by round (results from a rating model with
about a third of games drawn); :func:`simulate` plays it whole and returns the rounds and the
quality figures. There is no clock here: a caller wanting seconds per round times
:meth:`SimulatedEvent.play_round`. :func:`check_event` re-pairs every round of a history and
reports each difference from what was stored and every broken hard constraint.

>>> report = simulate(players=20, rounds=5, seed=3)
>>> (report.quality.rematches, report.quality.h3_breaks, report.quality.double_byes)
(0, 0, 0)
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from app.engine.discipline import annul_games
from app.engine.pairing import NoLegalPairing, pair_round
from app.engine.pairing.constraints import RoundConstraints
from app.engine.pairing.history import Entrant, pool_from_history
from app.engine.pairing.model import Pairing, PairingPlayer, PairingQuality
from app.engine.regulations import PairingRules, Points, TeamAvoidance
from app.engine.types import Colour, Game, GameResult, RoundRecord

DRAW_RATE = 0.35  # share of drawn games between equal players
_DEFAULT_POINTS = Points()


@dataclass(frozen=True, slots=True)
class SimulationQuality:
    rematches: int
    h3_breaks: int  # players who, after some round, had three same colours in a row or |red − black| > 2
    double_byes: int  # players with more than one bye
    paired_outside_group: int  # sum over rounds of players whose opponent had another score
    score_difference_sum: int  # sum over games of |score(red) − score(black)| before the round
    unbalanced_finishers: int  # players who played every round over the board and end with |red − black| > 1
    missed_due_colours: int = 0  # sum over rounds of players with a due colour who did not get it (S2)
    order_cost: int = 0  # sum over rounds of the S3 order cost (the engine's, SimulatedEvent only)
    largest_order_cost: int = 0  # the largest S3 order cost of one round
    long_floats: int = 0  # sum over rounds of score groups floated past (S1's L)
    unproved_rounds: int = 0  # rounds not proved to be the whole round's optimum (bounded steps)


@dataclass(frozen=True, slots=True)
class SimulationReport:
    entrants: tuple[Entrant, ...]
    rounds: tuple[RoundRecord, ...]
    seeds: tuple[int, ...]
    quality: SimulationQuality


class SimulatedEvent:
    """A random event played one round at a time (time :meth:`play_round` to measure speed)."""

    def __init__(
        self,
        players: int,
        seed: int,
        teams: bool = False,
        forfeit_rate: float = 0.0,
        rules: PairingRules | None = None,
        points: Points = _DEFAULT_POINTS,
    ) -> None:
        self.rng = random.Random(seed)
        team_count = max(2, players // 5)
        ratings = sorted((round(self.rng.gauss(1600, 250)) for _ in range(players)), reverse=True)
        self.entrants = tuple(
            Entrant(no=n, team=f"队{self.rng.randrange(team_count) + 1}" if teams else None, rating=r)
            for n, r in enumerate(ratings, start=1)
        )
        self.strength = {e.no: e.rating or 1600 for e in self.entrants}
        self.forfeit_rate = forfeit_rate
        self.rules = rules or PairingRules(team_avoidance=TeamAvoidance.ROUND_ONE)
        self.points = points
        self.rounds: list[RoundRecord] = []
        self.seeds: list[int] = []
        self.pre_round_scores: list[dict[int, int]] = []
        self.pairing_quality: list[PairingQuality] = []

    def pool(self) -> list[PairingPlayer]:
        return pool_from_history(self.entrants, self.rounds, self.points)

    def play_round(self) -> RoundRecord:
        """Pair the next round with :func:`pair_round` and draw its results."""
        pool = self.pool()
        seed = self.rng.randrange(2**31)
        pairing: Pairing = pair_round(pool, len(self.rounds) + 1, self.rules, seed)
        games = tuple(Game(g.board, g.red, g.black, self._result(g.red, g.black)) for g in pairing.games)
        record = RoundRecord(len(self.rounds) + 1, games, () if pairing.bye is None else (pairing.bye,))
        self.pre_round_scores.append({p.no: p.score for p in pool})
        if pairing.quality is not None:
            self.pairing_quality.append(pairing.quality)
        self.rounds.append(record)
        self.seeds.append(seed)
        return record

    def _result(self, red: int, black: int) -> GameResult:
        rng = self.rng
        if self.forfeit_rate and rng.random() < self.forfeit_rate:
            return rng.choice((GameResult.RED_FORFEIT, GameResult.BLACK_FORFEIT, GameResult.DOUBLE_FORFEIT))
        expected = 1 / (1 + 10 ** ((self.strength[black] - self.strength[red] - 30) / 400))
        win = max(0.0, expected - DRAW_RATE / 2)
        loss = max(0.0, 1 - expected - DRAW_RATE / 2)
        x = rng.random() * (win + loss + max(0.0, 1 - win - loss))
        if x < win:
            return GameResult.RED_WIN
        if x < win + loss:
            return GameResult.BLACK_WIN
        return GameResult.DRAW

    def quality(self) -> SimulationQuality:
        q = measure(self.rounds, self.pre_round_scores)
        engine = self.pairing_quality
        return dataclasses.replace(
            q,
            order_cost=sum(p.order_cost for p in engine),
            largest_order_cost=max((p.order_cost for p in engine), default=0),
            long_floats=sum(p.long_floats for p in engine),
            unproved_rounds=sum(1 for p in engine if not p.exact),
        )

    def report(self) -> SimulationReport:
        return SimulationReport(self.entrants, tuple(self.rounds), tuple(self.seeds), self.quality())


def simulate(
    players: int, rounds: int, seed: int, teams: bool = False, forfeit_rate: float = 0.0
) -> SimulationReport:
    """Play a whole random event of ``rounds`` rounds and measure the pairings' quality."""
    event = SimulatedEvent(players, seed, teams=teams, forfeit_rate=forfeit_rate)
    for _ in range(rounds):
        event.play_round()
    return event.report()


def measure(rounds: Sequence[RoundRecord], pre_round_scores: Sequence[dict[int, int]]) -> SimulationQuality:
    """The quality figures of a history, given every player's score before each round."""
    met: set[frozenset[int]] = set()
    colours: dict[int, list[Colour]] = {}
    byes: dict[int, int] = {}
    rematches = outside = diff_sum = missed = 0
    broken: set[int] = set()
    for rnd, before in zip(rounds, pre_round_scores, strict=True):
        for g in rnd.games:
            for who, got in ((g.red, Colour.RED), (g.black, Colour.BLACK)):
                history = colours.get(who, [])
                missed += bool(history) and history[-1] is got  # due = the other colour
        for g in rnd.games:
            key = frozenset((g.red, g.black))
            rematches += key in met
            met.add(key)
            d = abs(before.get(g.red, 0) - before.get(g.black, 0))
            diff_sum += d
            outside += 2 if d else 0
            if g.result.played_over_board:
                colours.setdefault(g.red, []).append(Colour.RED)
                colours.setdefault(g.black, []).append(Colour.BLACK)
                for who in (g.red, g.black):
                    if _breaks_h3(colours[who]):
                        broken.add(who)
        for b in rnd.byes:
            byes[b] = byes.get(b, 0) + 1
    unbalanced = sum(
        1
        for cs in colours.values()
        if len(cs) == len(rounds) and abs(sum(1 if c is Colour.RED else -1 for c in cs)) > 1
    )
    return SimulationQuality(
        rematches=rematches,
        h3_breaks=len(broken),
        double_byes=sum(1 for v in byes.values() if v > 1),
        paired_outside_group=outside,
        score_difference_sum=diff_sum,
        unbalanced_finishers=unbalanced,
        missed_due_colours=missed,
    )


def _breaks_h3(cs: Sequence[Colour]) -> bool:
    three = len(cs) >= 3 and cs[-1] is cs[-2] is cs[-3]
    return three or abs(sum(1 if c is Colour.RED else -1 for c in cs)) > 2


# --------------------------------------------------------------------------- the checker


class FindingKind(enum.Enum):
    REMATCH = "rematch"  # H1
    TEAMMATES = "teammates"  # H2
    COLOUR = "colour"  # H3
    SECOND_BYE = "second_bye"  # H4
    DIFFERENT_PAIRS = "different_pairs"
    DIFFERENT_COLOURS = "different_colours"
    DIFFERENT_BYE = "different_bye"
    NO_LEGAL_PAIRING = "no_legal_pairing"
    AVOIDANCE = "avoidance"  # an absolutely avoided pair was made (绝对回避)

    @property
    def breaks_hard_constraint(self) -> bool:
        return self in (
            FindingKind.REMATCH,
            FindingKind.TEAMMATES,
            FindingKind.AVOIDANCE,
            FindingKind.COLOUR,
            FindingKind.SECOND_BYE,
        )


@dataclass(frozen=True, slots=True)
class Finding:
    round: int
    kind: FindingKind
    players: tuple[int, ...]
    zh: str


def check_event(
    entrants: Sequence[Entrant],
    rounds: Sequence[RoundRecord],
    rules: PairingRules,
    seeds: Sequence[int | None],
    points: Points = _DEFAULT_POINTS,
    constraints_for: Callable[[int], RoundConstraints] | None = None,
    annulled: Mapping[int, int] | None = None,
) -> tuple[Finding, ...]:
    """Re-pair every round from the history before it and report differences and hard-constraint breaks.

    The pool of round r is the players who appear in round r (games or bye). ``seeds[r-1]`` is the
    recorded seed of round r (``None``: colours of pairs without history are not compared).
    ``constraints_for(r)``: the avoidances in force in round r (pairing constraints), used by the re-pairing; an
    absolutely avoided pair in the stored round is reported. ``annulled``: player → the
    first round paired after he was disqualified with his games annulled (取消成绩，已赛对局作废);
    from that round on the re-pairing counts his games as forfeits by him, as the pairing did
    (:attr:`app.engine.event.GroupState.scored_rounds`).
    """
    findings: list[Finding] = []
    team = {e.no: e.team for e in entrants}
    for t, rnd in enumerate(rounds):
        history = rounds[:t]
        present = {x for g in rnd.games for x in (g.red, g.black)} | set(rnd.byes)
        scored_history: Sequence[RoundRecord] | None = None
        for no, since in (annulled or {}).items():
            if since <= rnd.number:
                scored_history = annul_games(scored_history or history, no)
        pool = [
            p for p in pool_from_history(entrants, history, points, None, scored_history) if p.no in present
        ]
        by_no = {p.no: p for p in pool}
        n = rnd.number
        avoid = rules.team_avoidance is TeamAvoidance.ALL_ROUNDS or (
            rules.team_avoidance is TeamAvoidance.ROUND_ONE and n == 1
        )
        for g in rnd.games:
            red, black = by_no[g.red], by_no[g.black]
            if g.black in red.opponents:
                findings.append(
                    Finding(
                        n, FindingKind.REMATCH, (g.red, g.black), f"第{n}轮{g.red}号与{g.black}号重复交手"
                    )
                )
            if avoid and team.get(g.red) is not None and team.get(g.red) == team.get(g.black):
                findings.append(
                    Finding(
                        n, FindingKind.TEAMMATES, (g.red, g.black), f"第{n}轮{g.red}号与{g.black}号同队相遇"
                    )
                )
            if g.result.played_over_board or g.result.is_pending:
                for p, c in ((red, Colour.RED), (black, Colour.BLACK)):
                    if not p.may_take(c):
                        findings.append(
                            Finding(n, FindingKind.COLOUR, (p.no,), f"第{n}轮{p.no}号执{c.zh}违反先后手限制")
                        )
        for b in rnd.byes:
            if by_no[b].byes:
                findings.append(Finding(n, FindingKind.SECOND_BYE, (b,), f"第{n}轮{b}号第二次轮空"))
        constraints = None if constraints_for is None else constraints_for(n)
        for g in rnd.games if constraints is not None else ():
            broken = constraints.forbidden(g.red, g.black) if constraints is not None else None
            if broken is not None:
                findings.append(
                    Finding(
                        n,
                        FindingKind.AVOIDANCE,
                        (g.red, g.black),
                        f"第{n}轮{g.red}号与{g.black}号{broken.zh}",
                    )
                )
        seed = seeds[t] if t < len(seeds) else None
        try:
            again = pair_round(pool, n, rules, seed if seed is not None else 0, constraints)
        except NoLegalPairing as exc:
            findings.append(Finding(n, FindingKind.NO_LEGAL_PAIRING, exc.players, exc.zh))
            continue
        stored = {frozenset((g.red, g.black)): g for g in rnd.games}
        fresh = {frozenset((g.red, g.black)): g for g in again.games}
        if set(stored) != set(fresh):
            differing = tuple(sorted({x for k in set(stored) ^ set(fresh) for x in k}))
            findings.append(
                Finding(
                    n, FindingKind.DIFFERENT_PAIRS, differing, f"第{n}轮重新编排的对阵不同，涉及：{differing}"
                )
            )
        for key, g in stored.items():
            f = fresh.get(key)
            lot_only = f is not None and f.explanation.colour_reason.value == "lot" and seed is None
            if f is not None and f.red != g.red and not lot_only:
                findings.append(
                    Finding(
                        n,
                        FindingKind.DIFFERENT_COLOURS,
                        (g.red, g.black),
                        f"第{n}轮{g.red}号与{g.black}号先后手不同",
                    )
                )
        if tuple(rnd.byes) != (() if again.bye is None else (again.bye,)):
            findings.append(
                Finding(
                    n, FindingKind.DIFFERENT_BYE, tuple(rnd.byes), f"第{n}轮轮空不同：重新编排为{again.bye}号"
                )
            )
    return tuple(findings)


def random_result(
    rng: random.Random, red_rating: int, black_rating: int, forfeit_rate: float = 0.0
) -> GameResult:
    """A plausible result between two ratings (Red's first-move edge ≈ 30 points, ~35% draws)."""
    if forfeit_rate and rng.random() < forfeit_rate:
        return rng.choice((GameResult.RED_FORFEIT, GameResult.BLACK_FORFEIT, GameResult.DOUBLE_FORFEIT))
    expected = 1 / (1 + 10 ** ((black_rating - red_rating - 30) / 400))
    win = max(0.0, expected - DRAW_RATE / 2)
    loss = max(0.0, 1 - expected - DRAW_RATE / 2)
    x = rng.random()
    if x < win:
        return GameResult.RED_WIN
    if x < win + loss:
        return GameResult.BLACK_WIN
    return GameResult.DRAW
