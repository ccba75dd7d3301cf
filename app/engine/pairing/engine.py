"""The Swiss pairing engine: the lexicographic optimum of the whole round (docs/rules.md §5).

Definitions. The *pool* is ordered by score (high first), then — inside a score — by
``rank_key`` when ``ScoreGroupOrder.TIEBREAKS`` is set, then by sequence number. A player's
*rank* is their place inside their score group (0 = highest). A pair of the pool is *legal* when

- H1 they have never been paired (``opponents``),
- H2 they are not teammates, when team avoidance applies to this round,
- H3 some colour assignment gives each a colour they may take (:meth:`PairingPlayer.may_take`);
- and no *absolute avoidance* (绝对回避: same unit, same region or a named pair,
  :mod:`app.engine.pairing.constraints`) is in force between them this round;
- H4 is a bye rule: only a player with ``byes == 0`` can receive the bye.

An absolutely avoided pair is thus treated exactly like a rematch: it has no edge anywhere the
engine builds edges (every block, band, gadget, relaxation, step and completability check reads
:meth:`_Pool.legal`, and the numpy builder the same facts).

**Bye.** With an odd pool the bye goes to the first candidate, in the order (lowest score first,
then lowest-ranked first), among players without a bye, whose removal leaves a pool with a legal
perfect pairing. The bye is decided before S1–S4; score groups and ranks are then those of the
pool without the bye player.

**Objective** — score groups ``G_0 > G_1 > … > G_{k-1}`` (distinct scores, high first); *cut c*
lies between ``G_c`` and ``G_{c+1}``. For a perfect pairing *M* of the pool the cost is the vector,
compared lexicographically (smaller is better):

- **S1** ``(x_0, x_1, …, x_{k-2}, L)``: ``x_c`` is the number of pairs with one player in
  ``G_0 ∪ … ∪ G_c`` and the other below; the top cut is kept intact first, and a pair joining
  ``G_a`` and ``G_b`` (a < b) crosses every cut from a to b − 1, so both the number of floaters
  and the distance they float are minimal, from the top down. Then ``L`` = the number of whole
  score groups floated past, summed over the pairs (``b − a − 1`` for a pair joining ``G_a`` and
  ``G_b``): among pairings crossing every cut equally often, a chain of short floats between
  neighbouring groups beats a float past a whole group (近分者对弈, docs/rules.md §5).
- **W** the number of weak avoidances (尽量回避) broken by the pairs made: a pair of the
  same unit under a weak unit rule counts 1, and so on for each weak rule or named pair it breaks.
  Ranked just below S1 and above S2: the score groups are kept first, then as few weakly avoided
  pairs as they allow, then colours and order. W is 0 for every pair when no weak avoidance is in
  force, and the engine then computes exactly what it computed before.
- **S2** the number of players (with a game played, hence a *due colour* = opposite of their last
  colour) who do not get their due colour. For a pair this is the minimum, over the colour
  assignments allowed by H3, of the players not getting their due colour; the colour allocation
  below always achieves it.
- **S3** the sum over pairs of the order cost. Same group of size m, ranks r < q, h = m // 2:
  ``|q − r − h|`` plus ``h`` when both are in the same half (not r < h ≤ q); so 1 vs h+1, 2 vs h+2 …
  costs 0 and each step away from that costs 1. Pair across groups (higher player of rank r in a
  group of size m, lower player of rank q): ``(m − 1 − r) + q`` — the floater is the lowest-ranked
  of the higher group and meets the highest-ranked of the lower group. Which player floats is
  thus S3, below S2: colours outrank the floater's identity.
- **S4** the number of players floating in the same direction as in the previous round: the
  higher player of a cross-group pair whose last float was ``DOWN``, the lower one whose last float
  was ``UP``.

Every part is a sum over pairs. :mod:`app.engine.pairing.lexmatch` finds the lexicographic
optimum of such a vector exactly for any number of fields (score cuts): fields are packed with
multipliers proved sufficient, and split across several matchings when they do not fit the
matcher's integers — never folded together. W is a field of its own (between L and S2), never
folded into S1 or S2.

**Decomposition into blocks (proved).** For every perfect pairing, ``x_c ≥ π_c`` where ``π_c`` is
the parity of the number of players above cut c. Blocks are runs of score groups between cuts
with ``π_c = 0``, taken from the top: the block ``G_s … G_e`` (s just below an accepted cut) is
solved exactly on every legal edge; it is *accepted* — the round splits at cut e — when the rest
of the pool below e has a legal perfect pairing and either

- (a) the block's optimum crosses each of its inner cuts exactly ``π_c`` times: the prefix of the
  cut vector down to e then equals the lower bound ``π`` (the cut e itself: 0), so every optimum
  of the whole round crosses cut e zero times, and the lexicographic optimum of a pairing that
  does not cross e is the union of the optima of the two sides (every field is a sum; the set of
  such pairings is a product); or
- (b) a relaxation says so: the block's players may each float below e at the cost of crossing
  every cut from their group through e (a relaxation of every real pairing of the rest of the
  pool); if its lexicographic optimum of ``(x_s … x_{e-1}, x_e)`` floats nobody, the real prefix
  optimum is reached without crossing e, and the round splits at e as in (a).

Otherwise the block grows to the next cut with ``π_c = 0``; the last block is the rest of the
pool, solved exactly. So the answer is the lexicographic optimum of the whole round — the tests
compare it with exhaustive enumeration on small pools with many score groups, with and without
avoidances.

**The proofs under avoidances.** (a) needs only that every field after the cuts is a sum over
pairs (W is) and that feasibility of the rest is checked on the legal edges (absolute avoidances
removed). (b) relaxes the block's floaters only; the pairs inside the block are the legal ones, so
every real pairing still maps into the relaxation with the same cut prefix. The two shortcuts
inside a block are relaxations whose answer is accepted only when it is real and costs what the
relaxation says: the colour gadgets (:func:`_solve_chain`) drop W on the pairs they join, so their
answer is accepted only when each joined pair is legal *and* breaks no weak avoidance (then the
relaxed cost is the real cost, and the relaxed optimum is a lower bound of every real pairing
with the same cuts); the band of one score group (:func:`_solve_group_banded`) is accepted only
when it reaches the lower bounds W = 0 and the colour bound. Anything else falls back to the
block on every legal edge.

**Large blocks** (beyond :data:`EXACT_BLOCK_LIMIT` **in pools larger than** :data:`EXACT_POOL_LIMIT`:
score groups of a thousand occur in pools of several thousand players). A block whose inner cuts
are all odd is solved by :mod:`app.engine.pairing.large` on sparse candidate pairs: each score
group on its own, with the cross pair at each cut split into two ports, its optimum proved by an
LP duality certificate checked over every legal pair; the colours and cross pairs are then chosen
exactly across the groups (the proof is in that module's docstring). An absolutely avoided pair is
an illegal pair of its group, W one more packed field; a cross pair that may not meet or breaks a
weak avoidance is branched on. The answer is the block's lexicographic optimum and is accepted as
any other block (test (a)).

**Bounded** where no proof is found (a certificate that fails on a group too large to solve on
every legal pair, or a block grown past an even cut): the rest of the round is paired score group
by score group from the top instead, as before: a step matches the remaining players of the top two remaining
score groups, keeps the pairs touching the top group and proves the rest can still be completed,
else takes one more score group. Steps up to :data:`DENSE_LIMIT` players use every legal edge and
are exact for the step's players; larger steps use, for each player, the :data:`WINDOW` next
players in order and those within :data:`WINDOW` places of their natural partner. The pairing's
:class:`PairingQuality` says which players were paired that way (``exact`` is then False).

**Completability** (cheapest proof first): the previous witness pairing restricted to the rest,
or a greedy pairing in order; its leftovers re-paired on every legal edge inside windows around
them (:func:`_repair`, up to :data:`REPAIR_LIMIT` players); a sparse matching; finally every
legal edge — the only source of a negative answer, so a split or a step is never made wrongly.
"""

from __future__ import annotations

import bisect
import dataclasses
import random
from collections.abc import Sequence
from dataclasses import dataclass

import rustworkx as rx

from app.engine.pairing.constraints import RoundConstraints
from app.engine.pairing.lexmatch import (
    WEIGHT_LIMIT,
    EdgeSet,
    lex_perfect_matching,
    max_gain_matching,
)
from app.engine.pairing.model import (
    ByeExplanation,
    ColourReason,
    Float,
    FloaterChoice,
    FloatReason,
    NoLegalPairing,
    PairedGame,
    PairExplanation,
    Pairing,
    PairingPlayer,
    PairingQuality,
)
from app.engine.regulations import AvoidanceStrength, PairingRules, ScoreGroupOrder, TeamAvoidance
from app.engine.types import Colour

EXACT_POOL_LIMIT = 1000  # pools up to this size: every block exact, whatever its size
EXACT_BLOCK_LIMIT = 700  # in larger pools, blocks up to this size: exact on every legal edge
NUMPY_FROM = 160  # dense edge sets of blocks this large are built with numpy (imported only then)
DENSE_LIMIT = 240  # bounded steps up to this size: every legal edge
WINDOW = 12  # bounded sparse steps: neighbours by order and around the natural partner
REPAIR_LIMIT = 400  # completability: largest window re-paired around a witness's leftovers

_RED, _BLACK = 1, 2  # bit masks of the colours a player may take
LOW_FIELDS = 5  # the fields after the cuts: L, W, S2, S3, S4


def pair_round(
    pool: Sequence[PairingPlayer],
    round_number: int,
    rules: PairingRules,
    seed: int,
    constraints: RoundConstraints | None = None,
) -> Pairing:
    """Pair one Swiss round of ``pool`` under ``rules`` (docs/rules.md §5).

    ``seed`` draws the colour of round 1's board 1 (and of any pair of players without history);
    it is returned in the :class:`Pairing` to be recorded. Raises :class:`NoLegalPairing` naming
    the players concerned when H1–H4 (and the absolute avoidances) cannot all hold.

    ``constraints``: the avoidances in force this round (absolute: no such pair; weak: the
    criterion W). The pairing the round would get without them is the reference for ``why``: if it
    makes no avoided pair it is also the optimum with them (it is feasible, W = 0 is the least W,
    and the rest of the vector is already minimal over a larger set) and it is returned; otherwise
    each game says what the constraints decided against it (:func:`_with_constraint_notes`).

    >>> from app.engine.regulations import PairingRules
    >>> players = [PairingPlayer(no=n, score=0) for n in range(1, 5)]
    >>> p = pair_round(players, 1, PairingRules(), seed=1)
    >>> [(g.board, sorted((g.red, g.black))) for g in p.games]
    [(1, [1, 3]), (2, [2, 4])]
    """
    if constraints is not None and not constraints.empty:
        free = _pair_round(pool, round_number, rules, seed, None)
        if not any(constraints.between(g.red, g.black) for g in free.games):
            return free  # no avoided pair: the constraints change nothing
        constrained = _pair_round(pool, round_number, rules, seed, constraints)
        return _with_constraint_notes(constrained, free, constraints)
    return _pair_round(pool, round_number, rules, seed, None)


def _pair_round(
    pool: Sequence[PairingPlayer],
    round_number: int,
    rules: PairingRules,
    seed: int,
    constraints: RoundConstraints | None,
) -> Pairing:
    players = list(pool)
    nos = [p.no for p in players]
    if len(set(nos)) != len(nos):
        dup = sorted({n for n in nos if nos.count(n) > 1})
        raise NoLegalPairing(
            f"编排名单中序号重复：{_list(dup)}", f"duplicate sequence numbers in the pool: {dup}", tuple(dup)
        )
    avoid_teams = rules.team_avoidance is TeamAvoidance.ALL_ROUNDS or (
        rules.team_avoidance is TeamAvoidance.ROUND_ONE and round_number == 1
    )
    by_tiebreaks = rules.score_group_order is ScoreGroupOrder.TIEBREAKS
    ordered = sorted(players, key=lambda p: _order_key(p, by_tiebreaks))
    bye, bye_explanation = _choose_bye(ordered, avoid_teams, by_tiebreaks, constraints)
    paired = [p for p in ordered if bye is None or p.no != bye.no]
    state = _Pool(paired, avoid_teams, constraints)
    solution = _pair_all(state)
    games = _boards_and_colours(state, solution, seed)
    return Pairing(
        games=games,
        bye=None if bye is None else bye.no,
        bye_explanation=bye_explanation,
        seed=seed,
        quality=_quality(state, solution, games),
    )


def _order_key(p: PairingPlayer, by_tiebreaks: bool) -> tuple[int, tuple[int, ...], int]:
    return (-p.score, p.rank_key if by_tiebreaks else (), p.no)


def _list(nos: Sequence[int]) -> str:
    return "、".join(f"{n}号" for n in nos)


# --------------------------------------------------------------------------- the prepared pool


class _Pool:
    """The pool in order, with every per-player fact the criteria need as flat lists."""

    def __init__(
        self, ordered: Sequence[PairingPlayer], avoid_teams: bool, constraints: RoundConstraints | None = None
    ) -> None:
        self.players = list(ordered)
        self.n = n = len(self.players)
        self.avoid_teams = avoid_teams
        self.no = [p.no for p in self.players]
        # avoidances (pairing constraints): per rule in force, each player's class (-1: none); named pairs by partner
        self.constraints = constraints if constraints is not None and not constraints.empty else None
        self.barred: list[frozenset[int]] = []  # absolute named partners (sequence numbers)
        self.abs_class: list[tuple[int, ...]] = []
        self.weak_class: list[tuple[int, ...]] = []
        self.weak_named: list[dict[int, int]] = []  # weak named partner → how many such avoidances
        self.weak = False  # whether any weak avoidance is in force (else W is 0 on every pair)
        if self.constraints is not None:
            self._prepare_constraints(self.constraints)
        self.score = [p.score for p in self.players]
        self.team = [p.team for p in self.players]
        self.opp = [p.opponents for p in self.players]
        self.allowed = [
            (_RED if p.may_take(Colour.RED) else 0) | (_BLACK if p.may_take(Colour.BLACK) else 0)
            for p in self.players
        ]
        due = [p.due_colour for p in self.players]
        self.due = [0 if d is None else (_RED if d is Colour.RED else _BLACK) for d in due]
        self.imb = [p.imbalance for p in self.players]
        self.last_float = [p.float_history[-1] if p.float_history else Float.NONE for p in self.players]
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
        self.index = {no: i for i, no in enumerate(self.no)}
        self._arrays: _Arrays | None = None

    def group_members(self, lo: int, hi: int) -> list[int]:
        """The players of score groups lo..hi (contiguous in the order)."""
        return list(range(self.group_start[lo], self.group_start[hi] + self.group_size[hi]))

    def even_cut(self, g: int) -> bool:
        """π = 0 for the cut below group g: an even number of players above it."""
        return (self.group_start[g] + self.group_size[g]) % 2 == 0

    def arrays(self) -> _Arrays:
        if self._arrays is None:
            self._arrays = _Arrays(self)
        return self._arrays

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
        if self.no[j] in self.opp[i] or self.no[i] in self.opp[j]:
            return False
        if self.avoid_teams and self.team[i] is not None and self.team[i] == self.team[j]:
            return False
        if self.constraints is not None and self.avoided(i, j):
            return False
        ai, aj = self.allowed[i], self.allowed[j]
        return bool((ai & _RED and aj & _BLACK) or (ai & _BLACK and aj & _RED))

    def avoided(self, i: int, j: int) -> bool:
        """An absolute avoidance between i and j this round (same class of an absolute rule, or named)."""
        if self.constraints is None:
            return False
        if self.no[j] in self.barred[i]:
            return True
        return any(a >= 0 and a == b for a, b in zip(self.abs_class[i], self.abs_class[j], strict=True))

    def weak_cost(self, i: int, j: int) -> int:
        """W of a pair: how many weak avoidances it breaks (0 when none is in force)."""
        if not self.weak:
            return 0
        shared = sum(
            1 for a, b in zip(self.weak_class[i], self.weak_class[j], strict=True) if a >= 0 and a == b
        )
        return shared + self.weak_named[i].get(self.no[j], 0)

    def colour_cost(self, i: int, j: int) -> int:
        """S2 of a legal pair: fewest players not getting their due colour, over H3-allowed ways."""
        ai, aj, di, dj = self.allowed[i], self.allowed[j], self.due[i], self.due[j]
        best = 2
        if ai & _RED and aj & _BLACK:  # i red
            best = (di == _BLACK) + (dj == _RED)
        if ai & _BLACK and aj & _RED:  # i black
            best = min(best, (di == _RED) + (dj == _BLACK))
        return best

    def order_cost(self, i: int, j: int) -> int:
        """S3 of a pair, i before j in the order."""
        gi, gj = self.grp[i], self.grp[j]
        if gi == gj:
            h = self.group_size[gi] // 2
            r, q = self.rank[i], self.rank[j]
            cost = abs(q - r - h)
            return cost if r < h <= q else cost + h
        return (self.group_size[gi] - 1 - self.rank[i]) + self.rank[j]

    def float_cost(self, i: int, j: int) -> int:
        """S4 of a pair, i before j in the order."""
        if self.grp[i] == self.grp[j]:
            return 0
        return (self.last_float[i] is Float.DOWN) + (self.last_float[j] is Float.UP)


# --------------------------------------------------------------------------- the bye


def _choose_bye(
    ordered: list[PairingPlayer], avoid_teams: bool, by_tiebreaks: bool, constraints: RoundConstraints | None
) -> tuple[PairingPlayer | None, ByeExplanation | None]:
    full = _Pool(ordered, avoid_teams, constraints)
    if len(ordered) % 2 == 0:
        mate, unmatched = _completable(full, list(range(full.n)))
        if mate is None:
            raise _no_pairing(full, unmatched)
        return None, None
    candidates = [i for i in reversed(range(full.n)) if ordered[i].byes == 0]
    if not candidates:
        raise NoLegalPairing(
            "人数为奇数，但所有棋手都已轮空过（每人最多轮空一次）",
            "odd pool but every player has already had a bye (H4: at most one bye)",
            tuple(sorted(p.no for p in ordered)),
        )
    skipped: list[int] = []
    for c in candidates:
        rest = [i for i in range(full.n) if i != c]
        if _completable(full, rest)[0] is not None:
            p = ordered[c]
            zh = f"{p.no}号轮空：积分最低组中未轮空过的排名最低者，按胜局计分"
            en = f"{p.no} gets the bye: the lowest-ranked player without a bye in the lowest score group; it scores a win"
            if skipped:
                zh += f"（{_list(skipped)}轮空后其余棋手无法合法配对，故顺延）"
                en += f" (with {skipped} out, the others could not be paired legally)"
            return p, ByeExplanation(player=p.no, score=p.score, skipped=tuple(skipped), zh=zh, en=en)
        skipped.append(ordered[c].no)
    _, unmatched = _completable(full, list(range(full.n)))
    players = tuple(sorted({full.no[i] for i in unmatched} | set(skipped)))
    avoid_zh, avoid_en = (
        ("、绝对回避", ", an absolute avoidance") if full.constraints is not None else ("", "")
    )
    raise NoLegalPairing(
        f"无论谁轮空，其余棋手都无法在不重复交手、同队回避{avoid_zh}和先后手限制下配对，涉及：{_list(players)}",
        "whoever gets the bye, the others cannot be paired without a rematch, teammates meeting"
        f"{avoid_en} or breaking the colour rule; players concerned: {list(players)}",
        players,
    )


def _no_pairing(pool: _Pool, unmatched: list[int]) -> NoLegalPairing:
    nos = sorted(pool.no[i] for i in unmatched)
    lonely = [pool.no[i] for i in unmatched if not any(pool.legal(i, j) for j in range(pool.n) if j != i)]
    detail_zh = f"（{_list(lonely)}已无任何合法对手）" if lonely else ""
    detail_en = f" ({lonely} have no legal opponent at all)" if lonely else ""
    if pool.constraints is not None:
        return NoLegalPairing(
            f"无法在不重复交手、同队回避、绝对回避和先后手限制下完成本轮编排，无法配对的棋手：{_list(nos)}{detail_zh}；"
            "请裁判长手工编排",
            "no pairing satisfies H1–H4 and the absolute avoidances (no rematch, team avoidance, colours); "
            f"players left unpaired: {nos}{detail_en}; pair by hand",
            tuple(nos),
        )
    return NoLegalPairing(
        f"无法在不重复交手、同队回避和先后手限制下完成本轮编排，无法配对的棋手：{_list(nos)}{detail_zh}；请裁判长手工编排",
        "no pairing satisfies H1–H4 (no rematch, team avoidance, colours); "
        f"players left unpaired: {nos}{detail_en}; pair by hand",
        tuple(nos),
    )


# --------------------------------------------------------------------------- completability


def _completable(
    pool: _Pool, members: list[int], start: dict[int, int] | None = None
) -> tuple[dict[int, int] | None, list[int]]:
    """A legal perfect pairing of ``members`` (ascending) as a partner map, or None and who is left over.

    Positive answers come from the cheapest witness found: ``start`` restricted to ``members`` (or
    a greedy pairing in order), its leftovers re-paired inside growing windows around them
    (:func:`_repair`), then (beyond :data:`DENSE_LIMIT` players) a matching on a sparse graph.
    Only a maximum-cardinality matching on every legal edge gives a negative answer.
    """
    if len(members) % 2:
        return None, members[-1:]
    if start is None:
        partial = _greedy_pairing(pool, members)
    else:
        inside = set(members)
        partial = {i: j for i, j in start.items() if i in inside and j in inside}
    if len(partial) == len(members):
        return partial, []
    repaired = _repair(pool, members, partial)
    if repaired is not None:
        return repaired, []
    if len(members) > DENSE_LIMIT:
        mate = _max_matching(pool, members, _sparse_edges(pool, members))
        if len(mate) == len(members):
            return mate, []
    mate = _max_matching(pool, members, _dense_edges(pool, members))
    if len(mate) == len(members):
        return mate, []
    return None, [i for i in members if i not in mate]


def _greedy_pairing(pool: _Pool, members: list[int]) -> dict[int, int]:
    """Each player in order takes the first legal partner after them; some may be left over."""
    mate: dict[int, int] = {}
    left = list(members)
    while left:
        i = left.pop(0)
        for t, j in enumerate(left):
            if pool.legal(i, j):
                del left[t]
                mate[i], mate[j] = j, i
                break
    return mate


def _repair(pool: _Pool, members: list[int], partial: dict[int, int]) -> dict[int, int] | None:
    """Complete a partial pairing by re-pairing, on every legal edge, a window around each leftover.

    The window holds the players within ``reach`` places of a leftover (in ``members`` order) with
    their partners; it grows (×4) up to :data:`REPAIR_LIMIT` players. None when no window worked.
    """
    orphans = [i for i in members if i not in partial]
    where = {x: t for t, x in enumerate(members)}
    reach = WINDOW
    while True:
        window: set[int] = set(orphans)
        for o in orphans:
            t = where[o]
            for x in members[max(0, t - reach) : t + reach + 1]:
                window.add(x)
                if x in partial:
                    window.add(partial[x])
        if len(window) > REPAIR_LIMIT:
            return None
        inside = sorted(window)
        local = _max_matching(pool, inside, _dense_edges(pool, inside))
        if len(local) == len(inside):
            mate = {i: j for i, j in partial.items() if i not in window}
            mate.update(local)
            return mate
        if len(inside) == len(members):
            return None
        reach *= 4


def _max_matching(pool: _Pool, members: list[int], edges: list[tuple[int, int]]) -> dict[int, int]:
    g = rx.PyGraph()
    g.add_nodes_from(members)
    index = {m: t for t, m in enumerate(members)}
    g.add_edges_from_no_data([(index[i], index[j]) for i, j in edges])
    matching = rx.max_weight_matching(g, max_cardinality=True)
    mate: dict[int, int] = {}
    for u, v in matching:
        mate[members[u]], mate[members[v]] = members[v], members[u]
    return mate


def _dense_edges(pool: _Pool, members: list[int]) -> list[tuple[int, int]]:
    legal = pool.legal
    return [(i, j) for a, i in enumerate(members) for j in members[a + 1 :] if legal(i, j)]


def _sparse_edges(pool: _Pool, members: list[int]) -> list[tuple[int, int]]:
    """Legal edges to the nearest players by order and around each player's natural partner."""
    legal = pool.legal
    edges: set[tuple[int, int]] = set()
    m = len(members)
    for a, i in enumerate(members):
        for j in members[a + 1 : a + 1 + WINDOW]:
            if legal(i, j):
                edges.add((i, j))
        g = pool.grp[i]
        size = pool.group_size[g]
        h = size // 2
        r = pool.rank[i]
        partner = pool.group_start[g] + (r + h if r < h else r - h)
        lo = bisect.bisect_left(members, partner - WINDOW)
        hi = min(m, bisect.bisect_right(members, partner + WINDOW))
        for j in members[lo:hi]:
            if j != i and legal(i, j):
                edges.add((min(i, j), max(i, j)))
    return sorted(edges)


# --------------------------------------------------------------------------- edge sets


class _Arrays:
    """The pool as numpy arrays, for building large dense edge sets (numpy is imported only here)."""

    def __init__(self, pool: _Pool) -> None:
        import numpy as np

        self.np = np
        self.grp = np.array(pool.grp, dtype=np.int64)
        self.rank = np.array(pool.rank, dtype=np.int64)
        self.size = np.array([pool.group_size[g] for g in pool.grp], dtype=np.int64)
        self.allowed = np.array(pool.allowed, dtype=np.int64)
        self.kind = np.array([a * 4 + d for a, d in zip(pool.allowed, pool.due, strict=True)], dtype=np.int64)
        self.down = np.array([f is Float.DOWN for f in pool.last_float], dtype=np.int64)
        self.up = np.array([f is Float.UP for f in pool.last_float], dtype=np.int64)
        teams: dict[str, int] = {}
        self.team = np.array(
            [-1 if t is None else teams.setdefault(t, len(teams)) for t in pool.team], dtype=np.int64
        )
        us: list[int] = []
        vs: list[int] = []
        for i in range(pool.n):
            for other in pool.opp[i]:
                j = pool.index.get(other)
                if j is not None:
                    us.append(i)
                    vs.append(j)
        # an absolutely avoided named pair is barred like a rematch
        for i in range(pool.n):
            for other in pool.barred[i] if pool.barred else ():
                j = pool.index.get(other)
                if j is not None:
                    us.append(i)
                    vs.append(j)
        self.met_u = np.array(us, dtype=np.int64)
        self.met_v = np.array(vs, dtype=np.int64)
        # per avoidance rule in force, each player's class (-1: none)
        self.abs_class = [
            np.array([c[r] for c in pool.abs_class], dtype=np.int64)
            for r in range(len(pool.abs_class[0]) if pool.abs_class else 0)
        ]
        self.weak_class = [
            np.array([c[r] for c in pool.weak_class], dtype=np.int64)
            for r in range(len(pool.weak_class[0]) if pool.weak_class else 0)
        ]
        wu: list[int] = []
        wv: list[int] = []
        wc: list[int] = []
        for i in range(pool.n):
            for other, count in pool.weak_named[i].items() if pool.weak_named else ():
                j = pool.index.get(other)
                if j is not None and i < j:
                    wu.append(i)
                    wv.append(j)
                    wc.append(count)
        self.weak_u = np.array(wu, dtype=np.int64)
        self.weak_v = np.array(wv, dtype=np.int64)
        self.weak_count = np.array(wc, dtype=np.int64)
        table = np.zeros((16, 16), dtype=np.int64)
        for ka in range(16):
            for kb in range(16):
                table[ka, kb] = _colour_cost(ka >> 2, kb >> 2, ka & 3, kb & 3)
        self.colour_table = table


def _colour_cost(ai: int, aj: int, di: int, dj: int) -> int:
    best = 2
    if ai & _RED and aj & _BLACK:
        best = (di == _BLACK) + (dj == _RED)
    if ai & _BLACK and aj & _RED:
        best = min(best, (di == _RED) + (dj == _BLACK))
    return best


def _edge_set(
    pool: _Pool, members: list[int], glo: int, sparse: bool = False, dummy_group: int | None = None
) -> EdgeSet:
    """Every legal pair of ``members`` (or the sparse candidates) with its fields, by local index."""
    if not sparse and len(members) >= NUMPY_FROM:
        edges = _dense_edge_set_numpy(pool, members, glo)
    else:
        pairs = _sparse_edges(pool, members) if sparse else _dense_edges(pool, members)
        edges = _edges_of(pool, members, glo, pairs)
    if dummy_group is None:
        return edges
    dummy = [
        (t, (0, 0, 0, pool.group_size[dummy_group] - 1 - pool.rank[x], 0))
        for t, x in enumerate(members)
        if pool.grp[x] == dummy_group
    ]
    return EdgeSet(edges.i, edges.j, edges.gi, edges.gj, edges.low, dummy)


def _edges_of(pool: _Pool, members: list[int], glo: int, pairs: list[tuple[int, int]]) -> EdgeSet:
    """The edge set of the given legal ``pairs`` of ``members`` (groups from ``glo``), every field."""
    local = {x: t for t, x in enumerate(members)}
    grp = pool.grp
    weak = [pool.weak_cost(i, j) for i, j in pairs] if pool.weak else [0] * len(pairs)
    return EdgeSet(
        i=[local[i] for i, _ in pairs],
        j=[local[j] for _, j in pairs],
        gi=[grp[i] - glo for i, _ in pairs],
        gj=[grp[j] - glo for _, j in pairs],
        low=(
            [max(grp[j] - grp[i] - 1, 0) for i, j in pairs],
            weak,
            [pool.colour_cost(i, j) for i, j in pairs],
            [pool.order_cost(i, j) for i, j in pairs],
            [pool.float_cost(i, j) for i, j in pairs],
        ),
    )


def _dense_edge_set_numpy(pool: _Pool, members: list[int], glo: int) -> EdgeSet:
    a = pool.arrays()
    np = a.np
    idx = np.array(members, dtype=np.int64)
    m = len(members)
    pos = np.full(pool.n, -1, dtype=np.int64)
    pos[idx] = np.arange(m, dtype=np.int64)
    bad = np.zeros((m, m), dtype=bool)
    pu, pv = pos[a.met_u], pos[a.met_v]
    inside = (pu >= 0) & (pv >= 0)
    bad[pu[inside], pv[inside]] = True
    allowed = a.allowed[idx]
    red = (allowed & _RED) != 0
    black = (allowed & _BLACK) != 0
    bad |= ~((red[:, None] & black[None, :]) | (black[:, None] & red[None, :]))
    if pool.avoid_teams:
        team = a.team[idx]
        bad |= (team[:, None] == team[None, :]) & (team[:, None] >= 0)
    for rule in a.abs_class:  # absolute avoidances by unit / region: like teams
        cls = rule[idx]
        bad |= (cls[:, None] == cls[None, :]) & (cls[:, None] >= 0)
    ii, jj = np.triu_indices(m, 1)
    keep = ~bad[ii, jj]
    ii, jj = ii[keep], jj[keep]
    pi, pj = idx[ii], idx[jj]
    gi, gj = a.grp[pi], a.grp[pj]
    same = gi == gj
    ri, rj, size = a.rank[pi], a.rank[pj], a.size[pi]
    half = size // 2
    within = np.abs(rj - ri - half) + np.where((ri < half) & (half <= rj), 0, half)
    across = (size - 1 - ri) + rj
    s3 = np.where(same, within, across)
    s4 = np.where(same, 0, a.down[pi] + a.up[pj])
    s2 = a.colour_table[a.kind[pi], a.kind[pj]]
    skip = np.maximum(gj - gi - 1, 0)
    if pool.weak:
        weak = np.zeros((m, m), dtype=np.int64)
        for rule in a.weak_class:
            cls = rule[idx]
            weak += (cls[:, None] == cls[None, :]) & (cls[:, None] >= 0)
        wu, wv = pos[a.weak_u], pos[a.weak_v]
        named = (wu >= 0) & (wv >= 0)
        np.add.at(weak, (np.minimum(wu, wv)[named], np.maximum(wu, wv)[named]), a.weak_count[named])
        w = weak[ii, jj].tolist()
    else:
        w = [0] * len(ii)
    return EdgeSet(
        i=ii.tolist(),
        j=jj.tolist(),
        gi=(gi - glo).tolist(),
        gj=(gj - glo).tolist(),
        low=(skip.tolist(), w, s2.tolist(), s3.tolist(), s4.tolist()),
    )


# --------------------------------------------------------------------------- the whole round


@dataclass(slots=True)
class _Solution:
    pairs: list[tuple[int, int]]
    blocks: list[int]
    bounded: int  # players paired by the bounded step method
    solves: int


@dataclass(frozen=True, slots=True)
class _Block:
    pairs: list[tuple[int, int]]  # pool indices, i < j
    cuts: list[int]
    left_over: int | None
    solves: int


def _solve_block(
    pool: _Pool,
    members: list[int],
    glo: int,
    ghi: int,
    sparse: bool = False,
    dummy_group: int | None = None,
) -> _Block | None:
    """The exact lexicographic optimum of ``members`` (groups glo..ghi) on their edge set."""
    edges = _edge_set(pool, members, glo, sparse, dummy_group)
    sizes = [0] * (ghi - glo + 1)
    for x in members:
        sizes[pool.grp[x] - glo] += 1
    result = lex_perfect_matching(len(members), sizes, edges)
    if result is None:
        return None
    pairs = [(members[a], members[b]) for a, b in result.pairs]
    left = None if result.left_over is None else members[result.left_over]
    return _Block(pairs, result.cuts, left, result.solves)


def _solve_chain(pool: _Pool, start: int, end: int) -> _Block | None:
    """A block whose inner cuts are all odd, without its dense cross edges, where a proof allows.

    If the block's optimum crosses each inner cut once between neighbouring groups (cuts = π,
    L = 0: the lower bounds), its cross pair at a cut costs a part that depends on the floater
    alone (S3: distance from the bottom of its group; S4; its colour miss once the colour it gets
    is fixed) plus a part that depends on its opponent alone. So every cross edge is replaced by a
    gadget per colour the floater may get: floater — P, P — Q, Q — opponent (the floater's part
    on the first edge, which crosses the cut; the opponent's part on the last; P — Q free, taken
    when the gadget is unused). This is a relaxation (it does not check H1/H2 or the absolute
    avoidances between the two players it joins, and it counts no W on that pair): if its optimum
    crosses each cut once, uses no long float, and every pair it joins is legal and breaks no weak
    avoidance (so that its real cost is the relaxed cost), that pairing is the block's
    lexicographic optimum. Otherwise None (the caller solves the block on every legal edge).
    """
    members = pool.group_members(start, end)
    local = {x: t for t, x in enumerate(members)}
    ii: list[int] = []
    jj: list[int] = []
    gi: list[int] = []
    gj: list[int] = []
    low: list[list[int]] = [[] for _ in range(LOW_FIELDS)]
    for g in range(start, end + 1):
        group = pool.group_members(g, g)
        edges = _edge_set(pool, group, g)
        offset = local[group[0]]
        ii.extend(t + offset for t in edges.i)
        jj.extend(t + offset for t in edges.j)
        gi.extend([g - start] * len(edges.i))
        gj.extend([g - start] * len(edges.i))
        for f in range(LOW_FIELDS):
            low[f].extend(edges.low[f])
    sizes = [pool.group_size[g] for g in range(start, end + 1)]
    node = len(members)
    gadgets: list[tuple[int, int]] = []  # (P, Q) nodes
    for c in range(start, end):
        upper = range(pool.group_start[c], pool.group_start[c] + pool.group_size[c])
        lower = range(pool.group_start[c + 1], pool.group_start[c + 1] + pool.group_size[c + 1])
        for mask in (_RED, _BLACK):
            p_node, q_node = node, node + 1
            node += 2
            sizes[c + 1 - start] += 2
            gadgets.append((p_node, q_node))

            def add(a: int, b: int, g_a: int, g_b: int, fields: tuple[int, int, int, int, int]) -> None:
                ii.append(a)
                jj.append(b)
                gi.append(g_a)
                gj.append(g_b)
                for f in range(LOW_FIELDS):
                    low[f].append(fields[f])

            add(p_node, q_node, c + 1 - start, c + 1 - start, (0, 0, 0, 0, 0))
            for v in upper:
                if pool.allowed[v] & mask:
                    miss = int(pool.due[v] not in (0, mask))
                    tail = pool.group_size[c] - 1 - pool.rank[v]
                    down = int(pool.last_float[v] is Float.DOWN)
                    add(local[v], p_node, c - start, c + 1 - start, (0, 0, miss, tail, down))
            other = _BLACK if mask == _RED else _RED
            for u in lower:
                if pool.allowed[u] & other:
                    miss = int(pool.due[u] not in (0, other))
                    up = int(pool.last_float[u] is Float.UP)
                    add(local[u], q_node, c + 1 - start, c + 1 - start, (0, 0, miss, pool.rank[u], up))
    result = lex_perfect_matching(node, sizes, EdgeSet(ii, jj, gi, gj, tuple(low)))
    if result is None or any(x != 1 for x in result.cuts) or result.low[0]:
        return None
    partner: dict[int, int] = {}
    pairs: list[tuple[int, int]] = []
    for a, b in result.pairs:
        if a < len(members) and b < len(members):
            pairs.append((members[a], members[b]))
        else:
            partner[a] = b
            partner[b] = a
    for p_node, q_node in gadgets:
        if partner.get(p_node) == q_node:
            continue
        v, u = members[partner[p_node]], members[partner[q_node]]
        if not pool.legal(v, u) or pool.weak_cost(v, u):
            return None
        pairs.append((v, u))
    return _Block(pairs, list(result.cuts), None, result.solves)


def _colour_lower_bound(pool: _Pool, members: Sequence[int]) -> int:
    """S2 ≥ this for any pairing of ``members`` inside one score group: two players due the same
    colour cannot both get it, and a player due red can meet at most one player not due red."""
    red = sum(1 for x in members if pool.due[x] == _RED)
    black = sum(1 for x in members if pool.due[x] == _BLACK)
    free = len(members) - red - black
    return max(0, red - black - free + 1) // 2 + max(0, black - red - free + 1) // 2


def _solve_group_banded(pool: _Pool, g: int) -> _Block | None:
    """One score group on the pairs near the natural ones, where a proof allows.

    Within one group S1, L and S4 are 0. If a pairing on the band of pairs with order cost ≤ T
    breaks no weak avoidance (W = 0, its lower bound) and reaches the colour lower bound
    (:func:`_colour_lower_bound`), every optimum has W = 0, that S2 and an order cost S3 ≤ the band
    pairing's; every pair's S3 is ≥ 0, so every pair of an optimum
    costs ≤ that S3 and lies in the band of that width. So: solve on a narrow band; if S2 is at
    the bound and S3 ≤ the band's width, that is the optimum; if S3 is larger but the band of
    that width is still small, solve once more on it. Otherwise None (solve on every edge).
    """
    members = pool.group_members(g, g)
    m = len(members)
    if m < 2:
        return None
    bound = _colour_lower_bound(pool, members)
    width = 8
    solves = 0
    while True:
        edges = _band_edges(pool, g, width)
        block = _solve_block_on(pool, members, g, g, edges)
        if block is None:
            return None
        solves += block.solves
        if pool.weak and any(pool.weak_cost(i, j) for i, j in block.pairs):
            return None
        s2 = sum(pool.colour_cost(i, j) for i, j in block.pairs)
        s3 = sum(pool.order_cost(i, j) for i, j in block.pairs)
        if s2 != bound or s3 >= m // 2:
            return None
        if s3 <= width:
            return _Block(block.pairs, [], None, solves)
        if m * (2 * s3 + 1) > 40 * m + 200_000:
            return None
        width = s3


def _band_edges(pool: _Pool, g: int, width: int) -> list[tuple[int, int]]:
    """Legal pairs of group g whose order cost is ≤ width (< half the group): top half vs bottom half."""
    start, m = pool.group_start[g], pool.group_size[g]
    h = m // 2
    legal = pool.legal
    return [
        (start + r, start + q)
        for r in range(h)
        for q in range(max(h, r + h - width), min(m, r + h + width + 1))
        if legal(start + r, start + q)
    ]


def _solve_block_on(
    pool: _Pool, members: list[int], glo: int, ghi: int, pairs: list[tuple[int, int]]
) -> _Block | None:
    edges = _edges_of(pool, members, glo, pairs)
    sizes = [0] * (ghi - glo + 1)
    for x in members:
        sizes[pool.grp[x] - glo] += 1
    result = lex_perfect_matching(len(members), sizes, edges)
    if result is None:
        return None
    return _Block([(members[a], members[b]) for a, b in result.pairs], result.cuts, None, result.solves)


def _pair_all(pool: _Pool) -> _Solution:
    """The lexicographic optimum of the whole (even) pool, block by proved block (module docstring)."""
    solution = _Solution([], [], 0, 0)
    start = 0
    witness: dict[int, int] | None = None  # a legal perfect pairing of the rest, once known
    while start < pool.k:
        end = _next_even_cut(pool, start)
        while True:
            members = pool.group_members(start, end)
            banded = _solve_group_banded(pool, start) if start == end else None
            limit = max(EXACT_BLOCK_LIMIT, EXACT_POOL_LIMIT if pool.n <= EXACT_POOL_LIMIT else 0)
            large = _solve_large(pool, start, end) if banded is None and len(members) > limit else None
            if banded is None and len(members) > limit and large is None:
                rest = pool.group_members(start, pool.k - 1)
                solution.pairs.extend(_pair_steps(pool, rest, witness))
                solution.bounded += len(rest)
                return solution
            first_try = end == _next_even_cut(pool, start)  # inner cuts all odd
            if large is not None:
                block: _Block | None = large
            else:
                block = _solve_chain(pool, start, end) if first_try and end > start else banded
            if block is None:
                block = _solve_block(pool, members, start, end)
            last = end == pool.k - 1
            accepted = last
            if block is not None and not last:
                solution.solves += block.solves
                rest = pool.group_members(end + 1, pool.k - 1)
                rest_witness = _completable(pool, rest, witness)[0]
                if rest_witness is not None and (
                    _parity_optimal(pool, block, start) or _relaxed_split(pool, members, start, end)
                ):
                    witness = rest_witness
                    accepted = True
            if accepted:
                assert block is not None, "the rest of the pool was proved completable"
                if last:
                    solution.solves += block.solves
                solution.pairs.extend(block.pairs)
                solution.blocks.append(len(members))
                start = end + 1
                break
            end = _next_even_cut(pool, end + 1)
    return solution


def _solve_large(pool: _Pool, start: int, end: int) -> _Block | None:
    """A block too large for every legal pair, proved exactly on sparse candidates, or None.

    Only a first try (inner cuts all odd): :func:`app.engine.pairing.large.solve_block` returns
    the block's lexicographic optimum with an LP duality certificate over every legal pair.
    """
    if end != _next_even_cut(pool, start):
        return None
    from app.engine.pairing import large  # numpy: imported for large pools only

    result = large.solve_block(pool, start, end)
    if result is None:
        return None
    cuts = [0] * (end - start)
    for i, j in result.pairs:
        for c in range(pool.grp[i], pool.grp[j]):
            cuts[c - start] += 1
    return _Block(result.pairs, cuts, None, result.solves)


def _next_even_cut(pool: _Pool, g: int) -> int:
    while g < pool.k - 1 and not pool.even_cut(g):
        g += 1
    return g


def _parity_optimal(pool: _Pool, block: _Block, start: int) -> bool:
    """Test (a): each inner cut of the block is crossed exactly π_c times (the lower bound)."""
    return all(x == (0 if pool.even_cut(start + t) else 1) for t, x in enumerate(block.cuts))


def _relaxed_split(pool: _Pool, members: list[int], start: int, end: int) -> bool:
    """Test (b): in the relaxation where any block player may float below ``end``, nobody does.

    Fields, top first: the cuts start..end (the last is the block's lower boundary), each bounded
    by the players above it; a floater from group g crosses cuts g..end. A maximum-gain matching
    (gain of a pair = what its two players would cost floating − what the pair costs) leaves
    exactly the relaxation's floaters unmatched.
    """
    ncut = end - start + 1
    bounds = []
    above = 0
    for t in range(ncut):
        above += pool.group_size[start + t]
        bounds.append(above)
    mults: list[int] = [0] * ncut
    below = 0
    for t in range(ncut - 1, -1, -1):
        mults[t] = below + 1
        below += mults[t] * bounds[t]
    if 4 * below >= WEIGHT_LIMIT:
        return False  # too many cuts for one relaxed solve: grow the block instead (always sound)
    cum = [0]
    for x in mults:
        cum.append(cum[-1] + x)
    grp = pool.grp
    fc = [cum[ncut] - cum[grp[x] - start] for x in members]
    edges = _edge_set(pool, members, start)
    gains = [
        (a, b, fc[a] + fc[b] - (cum[gb] - cum[ga]))
        for a, b, ga, gb in zip(edges.i, edges.j, edges.gi, edges.gj, strict=True)
    ]
    return 2 * len(max_gain_matching(len(members), gains)) == len(members)


# --------------------------------------------------------------------------- bounded steps


def _pair_steps(pool: _Pool, remaining: list[int], witness: dict[int, int] | None) -> list[tuple[int, int]]:
    """Score group by score group from the top (bounded beyond EXACT_BLOCK_LIMIT; docstring)."""
    pairs: list[tuple[int, int]] = []
    grp = pool.grp
    while remaining:
        head = grp[remaining[0]]
        last_group = grp[remaining[-1]]
        extra = 0
        while True:
            top = min(head + 1 + extra, last_group)
            members = [i for i in remaining if grp[i] <= top]
            whole = top == last_group
            dummy = None if whole or len(members) % 2 == 0 else top
            sparse = len(members) > DENSE_LIMIT
            step = _solve_block(pool, members, head, top, sparse, dummy)
            if step is None and whole and sparse:
                step = _solve_block(pool, members, head, top, False, None)
            if step is None:
                assert not whole, "feasibility was proved before"
                extra += 1
                continue
            kept = step.pairs if whole else [e for e in step.pairs if grp[e[0]] == head]
            used = {x for e in kept for x in e}
            rest = [i for i in remaining if i not in used]
            if not whole:
                head_left = any(grp[i] == head for i in rest)
                rest_witness = None if head_left else _completable(pool, rest, witness)[0]
                if rest_witness is None:
                    extra += 1
                    continue
                witness = rest_witness
            pairs.extend(kept)
            remaining = rest
            break
    return pairs


# --------------------------------------------------------------------------- quality


def _quality(pool: _Pool, solution: _Solution, games: tuple[PairedGame, ...]) -> PairingQuality:
    cuts = [0] * max(pool.k - 1, 0)
    skipped = order = repeated = weak = 0
    for i, j in solution.pairs:
        for c in range(pool.grp[i], pool.grp[j]):
            cuts[c] += 1
        skipped += max(pool.grp[j] - pool.grp[i] - 1, 0)
        weak += pool.weak_cost(i, j)
        order += pool.order_cost(i, j)
        repeated += pool.float_cost(i, j)
    missed = 0
    for g in games:
        for no, colour in ((g.red, _RED), (g.black, _BLACK)):
            due = pool.due[pool.index[no]]
            missed += due != 0 and due != colour
    return PairingQuality(
        cuts=tuple(cuts),
        long_floats=skipped,
        missed_colours=missed,
        order_cost=order,
        repeated_floats=repeated,
        exact=solution.bounded == 0,
        blocks=tuple(solution.blocks),
        bounded_players=solution.bounded,
        solves=solution.solves,
        weak_avoidances=weak,
    )


# --------------------------------------------------------------------------- boards and colours


def _boards_and_colours(pool: _Pool, solution: _Solution, seed: int) -> tuple[PairedGame, ...]:
    ordered = sorted(solution.pairs, key=lambda e: (-pool.score[e[0]], -pool.score[e[1]], e[0]))
    partner = {i: j for i, j in ordered} | {j: i for i, j in ordered}
    lot = random.Random(seed).choice((Colour.RED, Colour.BLACK))
    # groups that send a floater down / receive one: a float between neighbours that continues
    # (or is continued) is part of a chain of short floats
    sends = {pool.grp[i] for i, j in ordered if pool.grp[j] == pool.grp[i] + 1}
    received = [0] * pool.k  # floaters each group received from above
    for i, j in ordered:
        if pool.grp[j] != pool.grp[i]:
            received[pool.grp[j]] += 1
    receives = {pool.grp[j] for i, j in ordered if pool.grp[j] == pool.grp[i] + 1}
    games = []
    for board, (i, j) in enumerate(ordered, start=1):
        i_red, reason = allocate_colours(pool.players[i], pool.players[j], board, lot)
        red, black = (i, j) if i_red else (j, i)
        chain = pool.grp[j] == pool.grp[i] + 1 and (pool.grp[i] in receives or pool.grp[j] in sends)
        games.append(
            PairedGame(
                board=board,
                red=pool.no[red],
                black=pool.no[black],
                explanation=_explain(
                    pool, i, j, red, reason, partner, chain, solution.bounded == 0, received[pool.grp[i]]
                ),
            )
        )
    return tuple(games)


def allocate_colours(
    higher: PairingPlayer, lower: PairingPlayer, board: int, lot: Colour
) -> tuple[bool, ColourReason]:
    """Whether ``higher`` (the higher-ranked of the pair) gets red, and why (docs/rules.md §5 (a)–(d)).

    >>> a = PairingPlayer(no=1, score=2, colours=(Colour.RED,))
    >>> b = PairingPlayer(no=2, score=2, colours=(Colour.RED,))
    >>> allocate_colours(a, b, board=1, lot=Colour.RED)
    (False, <ColourReason.HIGHER_RANKED: 'higher_ranked'>)
    """
    legal_red = higher.may_take(Colour.RED) and lower.may_take(Colour.BLACK)
    legal_black = higher.may_take(Colour.BLACK) and lower.may_take(Colour.RED)
    if legal_red != legal_black:
        return legal_red, ColourReason.HARD_CONSTRAINT
    hd, ld = higher.due_colour, lower.due_colour
    if hd is None and ld is None:
        parity = lot if board % 2 == 1 else lot.other
        return parity is Colour.RED, ColourReason.LOT
    if hd is None or ld is None or hd is not ld:
        red_for_higher = hd is Colour.RED if hd is not None else ld is Colour.BLACK
        return red_for_higher, ColourReason.BOTH_DUE
    hi_imb, lo_imb = higher.imbalance, lower.imbalance
    if abs(hi_imb) != abs(lo_imb):
        if abs(hi_imb) > abs(lo_imb):
            return hi_imb < 0, ColourReason.IMBALANCE
        return lo_imb > 0, ColourReason.IMBALANCE
    return hd is Colour.RED, ColourReason.HIGHER_RANKED


def _explain(
    pool: _Pool,
    i: int,
    j: int,
    red: int,
    reason: ColourReason,
    partner: dict[int, int],
    chain: bool,
    exact: bool,
    received: int,
) -> PairExplanation:
    no = pool.no
    same = pool.score[i] == pool.score[j]
    diff = pool.score[i] - pool.score[j]
    black = j if red == i else i
    colour_zh = f"{no[red]}号执红、{no[black]}号执黑：{reason.zh}"
    colour_en = f"{no[red]} has Red, {no[black]} Black: {reason.en}"
    if same:
        zh = f"{no[i]}号与{no[j]}号同为{pool.score[i]}分，按积分组内顺序配对；{colour_zh}"
        en = f"{no[i]} and {no[j]} both have {pool.score[i]} points: paired in order inside the score group; {colour_en}"
        return PairExplanation(True, 0, None, None, reason, zh, en)
    odd = (pool.group_size[pool.grp[i]] + received) % 2 == 1
    float_reason = FloatReason.ODD_GROUP if odd else FloatReason.CONSTRAINTS
    skipped = pool.grp[j] - pool.grp[i] - 1
    choice, why_zh, why_en = _floater_choice(pool, i, j, partner)
    with_zh = f"（连同从上一积分组降下的{received}人）" if odd and received else ""
    with_en = f" (counting the {received} floated into it from above)" if odd and received else ""
    zh = (
        f"{no[i]}号（{pool.score[i]}分）降组与{no[j]}号（{pool.score[j]}分）配对，"
        f"原因：{float_reason.zh}{with_zh}；{why_zh}"
    )
    en = (
        f"{no[i]} ({pool.score[i]} points) floats down to {no[j]} ({pool.score[j]} points) because "
        f"{float_reason.en}{with_en}; {why_en}"
    )
    if skipped:
        zh += (
            f"；越过{skipped}个积分组：降组人数相同而只在相邻积分组之间降组的合法编排不存在"
            "（近分者对弈：越组降组劣于相邻组之间的连续降组）"
        )
        en += (
            f"; it floats past {skipped} score group(s): no legal pairing with the same floaters "
            "per score boundary floats only between neighbouring groups (a chain of short floats "
            "is preferred to a long float)"
        )
        if not exact:
            zh += "（大赛分步编排）"
            en += " (large event: paired step by step)"
    elif chain:
        zh += "；相邻积分组之间连续降组（近分者对弈：优先于越组降组）"
        en += "; part of a chain of short floats between neighbouring groups (preferred to one long float)"
    return PairExplanation(
        False,
        diff,
        no[i],
        float_reason,
        reason,
        f"{zh}；{colour_zh}",
        f"{en}; {colour_en}",
        floater_choice=choice,
        groups_skipped=skipped,
        chain=chain,
    )


def _floater_choice(pool: _Pool, f: int, g: int, partner: dict[int, int]) -> tuple[FloaterChoice, str, str]:
    """Which rule chose floater ``f`` (and opponent ``g``), checked against the natural choice.

    The natural choice (S3) is the lowest-ranked player of the higher group meeting the
    highest-ranked player of the lower group. When the pairing differs, the exchange that would
    restore it is evaluated: which hard rule it breaks, or which criterion it makes worse.
    """
    no = pool.no
    gf, gg = pool.grp[f], pool.grp[g]
    natural_f = pool.group_start[gf] + pool.group_size[gf] - 1
    natural_g = pool.group_start[gg]
    if f == natural_f and g == natural_g:
        return (
            FloaterChoice.ORDER,
            "降组人选按S3：高分组排名最低者对低分组排名最高者",
            "the floater is chosen by S3: the lowest-ranked of the higher group meets the highest-ranked of the lower group",
        )
    if f != natural_f:
        other, mate = natural_f, partner.get(natural_f)
        alt = [(other, g), (f, mate)] if mate is not None and mate != g else [(other, g)]
        who_zh, who_en = f"若改由{no[other]}号降组", f"if {no[other]} floated instead"
    else:
        other, mate = natural_g, partner.get(natural_g)
        alt = [(f, other), (g, mate)] if mate is not None and mate != f else [(f, other)]
        who_zh, who_en = f"若改对{no[other]}号", f"if {no[f]} met {no[other]} instead"
    now = [(f, g), (other, mate)] if mate is not None and mate not in (f, g) else [(f, g)]
    alt = [(min(a, b), max(a, b)) for a, b in alt]
    now = [(min(a, b), max(a, b)) for a, b in now]
    broken = [rule for a, b in alt if a != b and (rule := _broken_rule(pool, a, b)) is not None]
    if broken:
        return FloaterChoice.HARD_RULE, f"{who_zh}，{broken[0][0]}", f"{who_en}, {broken[0][1]}"

    def vector(pairs: list[tuple[int, int]]) -> tuple[list[int], int, int, int, int, int]:
        cuts = [0] * max(pool.k - 1, 0)
        for a, b in pairs:
            for c in range(pool.grp[a], pool.grp[b]):
                cuts[c] += 1
        return (
            cuts,
            sum(max(pool.grp[b] - pool.grp[a] - 1, 0) for a, b in pairs),
            sum(pool.weak_cost(a, b) for a, b in pairs),
            sum(pool.colour_cost(a, b) for a, b in pairs),
            sum(pool.order_cost(a, b) for a, b in pairs),
            sum(pool.float_cost(a, b) for a, b in pairs),
        )

    v_now, v_alt = vector(now), vector(alt)
    if (v_alt[0], v_alt[1]) > (v_now[0], v_now[1]):
        return (
            FloaterChoice.SCORES,
            f"{who_zh}，降组人数或降组距离会增加（S1优先）",
            f"{who_en}, more or longer floats would be needed (S1 comes first)",
        )
    if (v_alt[0], v_alt[1]) == (v_now[0], v_now[1]) and v_alt[2] > v_now[2]:
        named = _weak_named(pool, alt)
        return (
            FloaterChoice.AVOIDANCE,
            f"{who_zh}，将出现尽量回避的对局（{named[0]}；W先于先后手S2）",
            f"{who_en}, a weakly avoided pair would be made ({named[1]}; W comes before colours, S2)",
        )
    if v_alt[3] > v_now[3]:
        d = v_alt[3] - v_now[3]
        return (
            FloaterChoice.COLOURS,
            f"{who_zh}，将多{d}人得不到应得先后手（S2先后手优先于降组人选S3）",
            f"{who_en}, {d} more player(s) would miss their due colour (S2 colours outrank the floater's identity, S3)",
        )
    if v_alt[4] > v_now[4]:
        return (
            FloaterChoice.ORDER,
            f"{who_zh}，积分组内顺序偏差更大（S3）",
            f"{who_en}, the order inside the score groups would be further from 1 vs n/2+1 (S3)",
        )
    if v_alt[4] == v_now[4] and v_alt[5] > v_now[5]:
        return (
            FloaterChoice.REPEATED_FLOAT,
            f"{who_zh}，将有人连续两轮降组或升组（S4）",
            f"{who_en}, someone would float in the same direction two rounds running (S4)",
        )
    if v_alt[2:] == v_now[2:]:
        return (
            FloaterChoice.WHOLE_ROUND,
            f"{who_zh}，各项标准完全相同（两种编排同样最优）",
            f"{who_en}, every criterion would be the same (both pairings are equally good)",
        )
    return (
        FloaterChoice.WHOLE_ROUND,
        "降组人选由全轮最优决定（牵动其他台次的先后手与顺序）",
        "the floater is decided by the whole round's optimum (it moves colours and order on other boards)",
    )


def _weak_named(pool: _Pool, pairs: list[tuple[int, int]]) -> tuple[str, str]:
    """The first weak avoidance the pairs break, named (zh, en)."""
    assert pool.constraints is not None
    for a, b in pairs:
        for c in pool.constraints.weak(pool.no[a], pool.no[b]):
            return f"{pool.no[a]}号与{pool.no[b]}号{c.zh}", f"{pool.no[a]} and {pool.no[b]}: {c.en}"
    return "", ""  # pragma: no cover - called only when W is larger


def _broken_rule(pool: _Pool, a: int, b: int) -> tuple[str, str] | None:
    no = pool.no
    if no[b] in pool.opp[a] or no[a] in pool.opp[b]:
        return f"{no[a]}号与{no[b]}号已交过手", f"{no[a]} and {no[b]} have already met (H1)"
    if pool.avoid_teams and pool.team[a] is not None and pool.team[a] == pool.team[b]:
        return f"{no[a]}号与{no[b]}号同队", f"{no[a]} and {no[b]} are teammates (H2)"
    if pool.constraints is not None and pool.avoided(a, b):
        c = pool.constraints.forbidden(no[a], no[b])
        assert c is not None
        return f"{no[a]}号与{no[b]}号{c.zh}", f"{no[a]} and {no[b]}: {c.en}"
    if not pool.legal(a, b):
        return (
            f"{no[a]}号与{no[b]}号的先后手无法合规（连续三局同色或先后手相差超过2）",
            f"{no[a]} and {no[b]} cannot be given legal colours (H3)",
        )
    return None


# --------------------------------------------------------------------------- what the constraints decided


def _with_constraint_notes(pairing: Pairing, free: Pairing, constraints: RoundConstraints) -> Pairing:
    """Each game's explanation with what the avoidances decided, against the pairing without them.

    A player who would have met another player but for a constraint is told so, with the
    constraint's name; a weakly avoided pair that S1 still required says why it was made. The notes
    go into the explanation in both languages (``constraints`` / ``constraints_en`` hold them alone).
    """
    free_opponent: dict[int, int] = {}
    for g in free.games:
        free_opponent[g.red], free_opponent[g.black] = g.black, g.red
    games = []
    for g in pairing.games:
        notes: dict[str, str] = {}  # zh → en, in order, without repeats
        for c in constraints.weak(g.red, g.black):
            notes.setdefault(
                f"{g.red}号与{g.black}号虽属{c.zh}，但避开将破坏积分组（S1），故仍配对",
                f"{g.red} and {g.black} meet despite the {c.en}: avoiding it would break the score groups (S1)",
            )
        for me, other in ((g.red, g.black), (g.black, g.red)):
            natural = free_opponent.get(me)
            if natural is None or natural == other:
                continue
            reasons = constraints.between(me, natural)
            if reasons:
                notes.setdefault(
                    f"{me}号本应与{natural}号配对，因{reasons[0].zh}而改配",
                    f"{me} would have met {natural} but for the {reasons[0].en}",
                )
        if not notes:
            games.append(g)
            continue
        e = g.explanation
        zh, en = tuple(notes), tuple(notes.values())
        explanation = dataclasses.replace(
            e,
            zh=e.zh + "；" + "；".join(zh),
            en=(e.en + "; " if e.en else "") + "; ".join(en),
            constraints=zh,
            constraints_en=en,
        )
        games.append(PairedGame(g.board, g.red, g.black, explanation))
    return dataclasses.replace(pairing, games=tuple(games))
