"""The prepared pool: the players in pairing order, with every per-player fact the criteria need.

The *pool* is ordered by score (high first), then — inside a score — by ``rank_key`` when
``ScoreGroupOrder.TIEBREAKS`` is set, then by sequence number. Players are referred to by their
*index* in that order (0 … n − 1); a player's *rank* is their place inside their score group
(0 = highest). Each criterion of a pair (:mod:`app.engine.pairing.criteria`) is read through the
methods below, which every part of the solver uses; the same facts as numpy arrays
(:func:`app.engine.pairing.arrays.arrays_of`) feed the element-wise builders of large blocks.

>>> from app.engine.pairing.model import PairingPlayer
>>> from app.engine.regulations import PairingRules
>>> players = [PairingPlayer(no=n, score=2 if n < 3 else 0) for n in range(1, 7)]
>>> pool = ordered_pool(players, 1, PairingRules())
>>> pool.k, pool.group_size, pool.rank
(2, [2, 4], [0, 1, 0, 1, 2, 3])
>>> pool.legal(0, 1), pool.order_cost(1, 2)
(True, 0)
>>> pool.objective(pool.pairs([(1, 2), (3, 5), (4, 6)]))  # (cuts, L, W, S2, S3, S4)
((0,), 0, 0, 0, 0, 0)
>>> pool.objective(pool.pairs([(1, 3), (2, 4), (5, 6)]))
((2,), 0, 0, 0, 5, 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.engine.pairing import criteria
from app.engine.pairing.constraints import RoundConstraints
from app.engine.pairing.criteria import BLACK, COLOUR_TABLE, MEET_TABLE, RED
from app.engine.pairing.model import Float, PairingPlayer
from app.engine.pairing.tuning import DEFAULT_TUNING, Tuning
from app.engine.regulations import AvoidanceStrength, PairingRules, ScoreGroupOrder, TeamAvoidance
from app.engine.types import Colour

Objective = tuple[tuple[int, ...], int, int, int, int, int]  # (cuts, L, W, S2, S3, S4)


def order_key(p: PairingPlayer, by_tiebreaks: bool) -> tuple[int, tuple[int, ...], int]:
    """The pairing order: score high first, then tiebreaks when the regulation says so, then 序号."""
    return (-p.score, p.rank_key if by_tiebreaks else (), p.no)


def avoids_teams(rules: PairingRules, round_number: int) -> bool:
    """Whether teammates may not meet this round (H2)."""
    return rules.team_avoidance is TeamAvoidance.ALL_ROUNDS or (
        rules.team_avoidance is TeamAvoidance.ROUND_ONE and round_number == 1
    )


def ordered_pool(
    players: Iterable[PairingPlayer],
    round_number: int,
    rules: PairingRules,
    constraints: RoundConstraints | None = None,
    *,
    without: int | None = None,
    tuning: Tuning = DEFAULT_TUNING,
) -> OrderedPool:
    """The pool of one round as the engine prepares it; ``without``: the bye player's 序号, left out."""
    by_tiebreaks = rules.score_group_order is ScoreGroupOrder.TIEBREAKS
    ordered = sorted((p for p in players if p.no != without), key=lambda p: order_key(p, by_tiebreaks))
    return OrderedPool(ordered, avoids_teams(rules, round_number), constraints, tuning)


class OrderedPool:
    """The pool in order, with every per-player fact the criteria need as flat lists.

    Public facts (lists by index): ``no`` 序号, ``score``, ``grp`` score group, ``rank`` place in it,
    ``allowed`` colours a player may take (bit mask), ``due`` due colour (0: none), ``imb`` red −
    black, ``last_float``; per group ``group_start`` and ``group_size``; ``k`` groups, ``n`` players,
    ``index`` 序号 → index. Pairs are ``(i, j)`` with ``i < j``.
    """

    def __init__(
        self,
        ordered: Sequence[PairingPlayer],
        avoid_teams: bool,
        constraints: RoundConstraints | None = None,
        tuning: Tuning = DEFAULT_TUNING,
    ) -> None:
        self.players = list(ordered)
        self.n = n = len(self.players)
        self.avoid_teams = avoid_teams
        self.tuning = tuning
        self.no = [p.no for p in self.players]
        self.index = {no: i for i, no in enumerate(self.no)}
        # avoidances: per rule in force, each player's class (-1: none); named pairs by partner
        self.constraints = constraints if constraints is not None and not constraints.empty else None
        self.barred: list[frozenset[int]] = [frozenset()] * n  # absolute named partners (sequence numbers)
        self.abs_class: list[tuple[int, ...]] = []
        self.weak_class: list[tuple[int, ...]] = []
        self.weak_named: list[dict[int, int]] = []  # weak named partner → how many such avoidances
        self.weak = False  # whether any weak avoidance is in force (else W is 0 on every pair)
        if self.constraints is not None:
            self._prepare_constraints(self.constraints)
        self.score = [p.score for p in self.players]
        teams: dict[str, int] = {}
        self.team = [-1 if p.team is None else teams.setdefault(p.team, len(teams)) for p in self.players]
        self.opp = [p.opponents for p in self.players]
        # H1 and absolutely avoided named pairs, both ways, by index: a pair in here never meets
        blocked: list[set[int]] = [set() for _ in range(n)]
        for i in range(n):
            for other in self.opp[i] | self.barred[i]:
                j = self.index.get(other)
                if j is not None and j != i:
                    blocked[i].add(j)
                    blocked[j].add(i)
        self.blocked = [frozenset(b) for b in blocked]
        self.allowed = [
            (RED if p.may_take(Colour.RED) else 0) | (BLACK if p.may_take(Colour.BLACK) else 0)
            for p in self.players
        ]
        due = [p.due_colour for p in self.players]
        self.due = [0 if d is None else (RED if d is Colour.RED else BLACK) for d in due]
        self.kind = [criteria.colour_kind(a, d) for a, d in zip(self.allowed, self.due, strict=True)]
        self.imb = [p.imbalance for p in self.players]
        self.last_float = [p.float_history[-1] if p.float_history else Float.NONE for p in self.players]
        self.down = [int(f is Float.DOWN) for f in self.last_float]
        self.up = [int(f is Float.UP) for f in self.last_float]
        # score groups, ranks inside them
        self.grp: list[int] = []
        self.rank: list[int] = []
        self.group_start: list[int] = []
        self.group_size: list[int] = []
        for i in range(n):
            if i == 0 or self.score[i] != self.score[i - 1]:
                self.group_start.append(i)
                self.group_size.append(0)
            g = len(self.group_start) - 1
            self.grp.append(g)
            self.rank.append(i - self.group_start[g])
            self.group_size[g] += 1
        self.k = len(self.group_start)

    # ----------------------------------------------------------------------- structure

    def group_members(self, lo: int, hi: int) -> list[int]:
        """The players of score groups lo..hi (contiguous in the order)."""
        return list(range(self.group_start[lo], self.group_start[hi] + self.group_size[hi]))

    def even_cut(self, g: int) -> bool:
        """π = 0 for the cut below group g: an even number of players above it."""
        return (self.group_start[g] + self.group_size[g]) % 2 == 0

    def pairs(self, games: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        """Pairs of sequence numbers (e.g. a pairing's red and black) as index pairs ``(i, j)``, i < j."""
        out = []
        for a, b in games:
            i, j = self.index[a], self.index[b]
            out.append((min(i, j), max(i, j)))
        return out

    # ----------------------------------------------------------------------- the criteria of a pair

    def _prepare_constraints(self, c: RoundConstraints) -> None:
        def classes(strength: AvoidanceStrength) -> list[tuple[int, ...]]:
            per_rule = []
            for keys in c.rule_keys(strength):
                ids: dict[str, int] = {}
                per_rule.append([ids.setdefault(keys[no], len(ids)) if no in keys else -1 for no in self.no])
            return [tuple(rule[i] for rule in per_rule) for i in range(self.n)]

        self.abs_class = classes(AvoidanceStrength.ABSOLUTE)
        self.weak_class = classes(AvoidanceStrength.WEAK)
        barred: dict[int, set[int]] = {}
        for pair in c.named_pairs(AvoidanceStrength.ABSOLUTE):
            a, b = tuple(pair)
            barred.setdefault(a, set()).add(b)
            barred.setdefault(b, set()).add(a)
        self.barred = [frozenset(barred.get(no, ())) for no in self.no]
        named: dict[int, dict[int, int]] = {}
        for pair, count in c.named_pairs(AvoidanceStrength.WEAK).items():
            a, b = tuple(pair)
            named.setdefault(a, {})[b] = count
            named.setdefault(b, {})[a] = count
        self.weak_named = [named.get(no, {}) for no in self.no]
        self.weak = bool(c.rule_keys(AvoidanceStrength.WEAK)) or bool(named)

    def legal(self, i: int, j: int) -> bool:
        """H1, H2 and H3 for the pair (i, j), and no absolute avoidance between them."""
        if j in self.blocked[i]:
            return False
        if self.avoid_teams and criteria.same_class(self.team[i], self.team[j]):
            return False
        if self.constraints is not None and self.avoided(i, j):
            return False
        return MEET_TABLE[self.allowed[i]][self.allowed[j]]  # criteria.may_meet

    def teammates(self, i: int, j: int) -> bool:
        """Both in one team (whether or not H2 applies this round)."""
        return criteria.same_class(self.team[i], self.team[j])

    def avoided(self, i: int, j: int) -> bool:
        """An absolute avoidance between i and j this round (same class of an absolute rule, or named)."""
        if self.constraints is None:
            return False
        if self.no[j] in self.barred[i]:
            return True
        return any(
            criteria.same_class(a, b) for a, b in zip(self.abs_class[i], self.abs_class[j], strict=True)
        )

    def weak_cost(self, i: int, j: int) -> int:
        """W of a pair: how many weak avoidances it breaks (0 when none is in force)."""
        if not self.weak:
            return 0
        shared = sum(
            1
            for a, b in zip(self.weak_class[i], self.weak_class[j], strict=True)
            if criteria.same_class(a, b)
        )
        return shared + self.weak_named[i].get(self.no[j], 0)

    def skipped_groups(self, i: int, j: int) -> int:
        """L of a pair, i before j in the order."""
        return criteria.skipped_groups(self.grp[i], self.grp[j])

    def colour_cost(self, i: int, j: int) -> int:
        """S2 of a legal pair: fewest players not getting their due colour, over H3-allowed ways."""
        return COLOUR_TABLE[self.kind[i]][self.kind[j]]  # criteria.colour_cost

    def order_cost(self, i: int, j: int) -> int:
        """S3 of a pair, i before j in the order."""
        gi = self.grp[i]
        return criteria.order_cost(gi == self.grp[j], self.rank[i], self.rank[j], self.group_size[gi])

    def float_cost(self, i: int, j: int) -> int:
        """S4 of a pair, i before j in the order."""
        return criteria.float_cost(self.grp[i] == self.grp[j], self.down[i], self.up[j])

    def objective(self, pairs: Iterable[tuple[int, int]]) -> Objective:
        """The objective vector of these (legal) pairs: (cuts, L, W, S2, S3, S4), each a sum (engine docstring)."""
        cuts = [0] * max(self.k - 1, 0)
        skipped = w = s2 = s3 = s4 = 0
        for i, j in pairs:
            for c in range(self.grp[i], self.grp[j]):
                cuts[c] += 1
            skipped += self.skipped_groups(i, j)
            w += self.weak_cost(i, j)
            s2 += self.colour_cost(i, j)
            s3 += self.order_cost(i, j)
            s4 += self.float_cost(i, j)
        return tuple(cuts), skipped, w, s2, s3, s4
