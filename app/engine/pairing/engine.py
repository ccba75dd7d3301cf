"""The Swiss pairing engine: one weighted matching per step, criteria packed into the weight.

Definitions (RULES.md §5). The *pool* is ordered by score (high first), then — inside a score —
by ``rank_key`` when ``ScoreGroupOrder.TIEBREAKS`` is set, then by sequence number. A player's
*rank* is their place inside their score group (0 = highest). A pair of the pool is *legal* when

- H1 they have never been paired (``opponents``),
- H2 they are not teammates, when team avoidance applies to this round,
- H3 some colour assignment gives each a colour they may take (:meth:`PairingPlayer.may_take`);
- H4 is a bye rule: only a player with ``byes == 0`` can receive the bye.

**Bye.** With an odd pool the bye goes to the first candidate, in the order (lowest score first,
then lowest-ranked first), among players without a bye, whose removal leaves a pool with a legal
perfect pairing. The bye is decided before S1–S4; score groups and ranks are then those of the
pool without the bye player.

**Objective** — score groups ``G_0 > G_1 > … > G_{k-1}`` (distinct scores, high first); *cut c*
lies between ``G_c`` and ``G_{c+1}``. For a perfect pairing *M* of the pool the cost is the vector,
compared lexicographically (smaller is better):

- **S1** ``(x_0, x_1, …, x_{k-2})`` where ``x_c`` is the number of pairs with one player in
  ``G_0 ∪ … ∪ G_c`` and the other below. The top cut is kept intact first; a pair joining ``G_a``
  and ``G_b`` (a < b) crosses every cut from a to b − 1, so both the number of floaters and the
  distance they float are minimal, from the top down.
- **S2** the number of players (with a game played, hence a *due colour* = opposite of their last
  colour) who do not get their due colour. For a pair this is the minimum, over the colour
  assignments allowed by H3, of the players not getting their due colour; the colour allocation
  below always achieves it.
- **S3** the sum over pairs of the order cost. Same group of size m, ranks r < q, h = m // 2:
  ``|q − r − h|`` plus ``h`` when both are in the same half (not r < h ≤ q); so 1 vs h+1, 2 vs h+2 …
  costs 0 and each step away from that costs 1. Pair across groups (higher player of rank r in a
  group of size m, lower player of rank q): ``(m − 1 − r) + q`` — the floater is the lowest-ranked
  of the higher group and meets the highest-ranked of the lower group.
- **S4** the number of players floating in the same direction as in the previous round: the
  higher player of a cross-group pair whose last float was ``DOWN``, the lower one whose last float
  was ``UP``.

**Pairing constraints** (issue 16, :mod:`app.engine.pairing.constraints`): an absolutely avoided pair
is not legal (no edge, like H1); the number of weakly avoided pairs is a criterion **W** ranked just
below S1 and above S2. (A hook into this engine: it touches ``legal``, one weight field and the
explanations only, so that it can be moved onto a rewritten core.)

Every part is a sum over pairs, so the whole vector packs into one integer per edge: S1's cut
fields in the most significant bits (top cut highest), then W, S2, S3, S4, each field wide enough for
its largest possible sum. rustworkx's matching takes integer weights up to 2**126 (i128 inside;
measured: 2**127 raises ``OverflowError``); we keep every weight below 2**120.

**Decomposition.** Pools up to :data:`EXACT_LIMIT` are solved by one matching over the whole pool
— the exact optimum of the vector above (the tests prove it by enumeration). Larger pools are
paired score group by score group from the top: a step matches the remaining players of the top
two remaining score groups, keeps the pairs that touch the top group (the last step, over the
whole remainder, keeps all its pairs), and proves the rest can still be completed; if not, or if
a top-group player is left over, the step takes one more score group, up to the whole remainder.
Steps never drop a criterion; a step over more than :data:`MAX_CUT_FIELDS` score cuts folds the
lowest cuts into one field (sum of crossings) — only reachable in that fallback for large pools.

What is exact and what is bounded, for large pools:

- **Exact**: H1–H4 always hold (every kept pair is legal; the bye rule and "no legal pairing" are
  decided on every legal edge); no player is left unpaired; a step keeps a top-group pair only if
  the rest of the pool provably still has a legal perfect pairing.
- **Exact within a step up to** :data:`DENSE_LIMIT` **players**: the step's matching uses every
  legal edge, so its S1 > S2 > S3 > S4 vector is optimal for the step's players.
- **Bounded local optimum beyond** :data:`DENSE_LIMIT`: the step's matching only sees, for each
  player, the :data:`WINDOW` next players in order and those within :data:`WINDOW` places of
  their natural partner (rank r ± m/2), so S2–S4 are optimal among pairings made of those edges
  (an exchange further away than the window is not considered). If those edges cannot pair the
  step, the step is redone on every legal edge. The greedy step order (top group first) is
  itself a local choice: a top-group pair that costs the groups below more on S2–S4 is not undone.
- **Completability** (cheapest proof first): the previous step's witness pairing restricted to the
  rest, or a greedy pairing in order; its leftovers re-paired on every legal edge inside windows
  around them (:func:`_repair`, up to :data:`REPAIR_LIMIT` players); a sparse matching; finally
  every legal edge — the only source of a negative answer, so a step is never widened wrongly.

Measured (bench/bench_pairing.py, simulated event, 2 cores): 5,000 players pair every round 1–11
in ≤ ~2.5 s, 1,000 players in ≤ ~0.2 s, 160 in ~0.01 s.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Sequence
from dataclasses import dataclass

import rustworkx as rx

from app.engine.pairing.constraints import RoundConstraints
from app.engine.pairing.model import (
    ByeExplanation,
    ColourReason,
    Float,
    FloatReason,
    NoLegalPairing,
    PairedGame,
    PairExplanation,
    Pairing,
    PairingPlayer,
)
from app.engine.regulations import AvoidanceStrength, PairingRules, ScoreGroupOrder, TeamAvoidance
from app.engine.types import Colour

EXACT_LIMIT = 64  # pools up to this size: one matching over the whole pool
DENSE_LIMIT = 240  # steps up to this size: every legal edge
WINDOW = 12  # sparse steps: neighbours by order and around the natural partner
REPAIR_LIMIT = 400  # completability: largest window re-paired around a witness's leftovers
MAX_CUT_FIELDS = 8
_MAX_BITS = 120
_MAX_WEAK = 8  # most weak avoidances one pair can break at once (unit, region and named rules together)

_RED, _BLACK = 1, 2  # bit masks of the colours a player may take


def pair_round(
    pool: Sequence[PairingPlayer],
    round_number: int,
    rules: PairingRules,
    seed: int,
    constraints: RoundConstraints | None = None,
) -> Pairing:
    """Pair one Swiss round of ``pool`` under ``rules`` (RULES.md §5).

    ``seed`` draws the colour of round 1's board 1 (and of any pair of players without history);
    it is returned in the :class:`Pairing` to be recorded. Raises :class:`NoLegalPairing` naming
    the players concerned when H1–H4 cannot all hold. ``constraints``: the avoidances in force this
    round (absolute: no such pair; weak: as few as S1 allows); each game's explanation says what they
    decided (:func:`_with_constraint_notes`).

    >>> from app.engine.regulations import PairingRules
    >>> players = [PairingPlayer(no=n, score=0) for n in range(1, 5)]
    >>> p = pair_round(players, 1, PairingRules(), seed=1)
    >>> [(g.board, sorted((g.red, g.black))) for g in p.games]
    [(1, [1, 3]), (2, [2, 4])]
    """
    if constraints is not None and not constraints.empty:
        free = pair_round(pool, round_number, rules, seed)
        if not any(constraints.between(g.red, g.black) for g in free.games):
            return free  # no avoided pair was made: the constraints changed nothing
        return _with_constraint_notes(
            _pair_round(pool, round_number, rules, seed, constraints), free, constraints
        )
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
    pairs = _pair_all(state)
    games = _boards_and_colours(state, pairs, seed)
    return Pairing(
        games=games,
        bye=None if bye is None else bye.no,
        bye_explanation=bye_explanation,
        seed=seed,
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
        self._constrained = constraints is not None and not constraints.empty
        if constraints is not None and self._constrained:
            strong, weak = AvoidanceStrength.ABSOLUTE, AvoidanceStrength.WEAK
            self.abs_keys = [tuple(k.get(p.no) for k in constraints.rule_keys(strong)) for p in self.players]
            self.weak_keys = [tuple(k.get(p.no) for k in constraints.rule_keys(weak)) for p in self.players]
            self.abs_pairs = set(constraints.named_pairs(strong))
            self.weak_pairs = constraints.named_pairs(weak)
        self.no = [p.no for p in self.players]
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

    def legal(self, i: int, j: int) -> bool:
        """H1, H2 and H3 for the pair (i, j), and no absolute avoidance between them."""
        if self.no[j] in self.opp[i] or self.no[i] in self.opp[j]:
            return False
        if self.avoid_teams and self.team[i] is not None and self.team[i] == self.team[j]:
            return False
        if self._constrained and (
            frozenset((self.no[i], self.no[j])) in self.abs_pairs
            or any(a is not None and a == b for a, b in zip(self.abs_keys[i], self.abs_keys[j], strict=True))
        ):
            return False
        ai, aj = self.allowed[i], self.allowed[j]
        return bool((ai & _RED and aj & _BLACK) or (ai & _BLACK and aj & _RED))

    def weak_cost(self, i: int, j: int) -> int:
        """W of a pair: how many weak avoidances it breaks (0 without constraints)."""
        if not self._constrained:
            return 0
        shared = sum(
            1 for a, b in zip(self.weak_keys[i], self.weak_keys[j], strict=True) if a is not None and a == b
        )
        return shared + self.weak_pairs.get(frozenset((self.no[i], self.no[j])), 0)

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
            if skipped:
                zh += f"（{_list(skipped)}轮空后其余棋手无法合法配对，故顺延）"
            return p, ByeExplanation(player=p.no, score=p.score, skipped=tuple(skipped), zh=zh)
        skipped.append(ordered[c].no)
    _, unmatched = _completable(full, list(range(full.n)))
    players = tuple(sorted({full.no[i] for i in unmatched} | set(skipped)))
    raise NoLegalPairing(
        f"无论谁轮空，其余棋手都无法在不重复交手、同队回避和先后手限制下配对，涉及：{_list(players)}",
        "whoever gets the bye, the others cannot be paired without a rematch, teammates meeting "
        f"or breaking the colour rule; players concerned: {list(players)}",
        players,
    )


def _no_pairing(pool: _Pool, unmatched: list[int]) -> NoLegalPairing:
    nos = sorted(pool.no[i] for i in unmatched)
    lonely = [pool.no[i] for i in unmatched if not any(pool.legal(i, j) for j in range(pool.n) if j != i)]
    detail_zh = f"（{_list(lonely)}已无任何合法对手）" if lonely else ""
    detail_en = f" ({lonely} have no legal opponent at all)" if lonely else ""
    return NoLegalPairing(
        f"无法在不重复交手、同队回避、绝对回避和先后手限制下完成本轮编排，无法配对的棋手：{_list(nos)}{detail_zh}；"
        "请裁判长手工编排",
        "no pairing satisfies H1–H4 and the absolute avoidances (no rematch, team avoidance, colours); "
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


# --------------------------------------------------------------------------- the matching steps


def _pair_all(pool: _Pool) -> list[tuple[int, int]]:
    """A legal perfect pairing of the whole (even) pool, optimal as the module docstring says."""
    remaining = list(range(pool.n))
    pairs: list[tuple[int, int]] = []
    if not remaining:
        return pairs
    if pool.n <= EXACT_LIMIT and _field_layout(pool, remaining, 0, pool.k - 1) is not None:
        step_pairs, unmatched = _solve_step(pool, remaining, 0, pool.k - 1, dummy_group=None, sparse=False)
        assert not unmatched, "feasibility was proved before"
        return step_pairs
    witness: dict[int, int] | None = None  # a legal perfect pairing of ``remaining``, once known
    while remaining:
        head = pool.grp[remaining[0]]
        last_group = pool.grp[remaining[-1]]
        extra = 0
        while True:
            top = min(head + 1 + extra, last_group)
            members = [i for i in remaining if pool.grp[i] <= top]
            whole = top == last_group
            dummy = None if whole or len(members) % 2 == 0 else top
            sparse = len(members) > DENSE_LIMIT
            step_pairs, _ = _solve_step(pool, members, head, top, dummy, sparse)
            # the last step keeps everything; an earlier one only the pairs touching the top group
            kept = step_pairs if whole else [e for e in step_pairs if pool.grp[e[0]] == head]
            used = {x for e in kept for x in e}
            head_left = [i for i in members if pool.grp[i] == head and i not in used]
            rest = [i for i in remaining if i not in used]
            if whole and (head_left or (sparse and len(used) != len(remaining))):
                if sparse:  # the sparse graph missed a completion: use every legal edge
                    step_pairs, _ = _solve_step(pool, members, head, top, None, False)
                    kept = step_pairs
                    used = {x for e in kept for x in e}
                    rest = [i for i in remaining if i not in used]
                assert len(used) == len(remaining), "feasibility was proved before"
            else:
                rest_witness = None if head_left else _completable(pool, rest, witness)[0]
                if rest_witness is None:
                    extra += 1
                    continue
                witness = rest_witness
            pairs.extend(kept)
            remaining = rest
            break
    return pairs


@dataclass(frozen=True, slots=True)
class _Layout:
    cut_value: tuple[int, ...]  # cumulative S1 value of crossing cuts: pair (a, b) costs [b] − [a]
    group_lo: int
    s2_shift: int
    s3_shift: int
    top: int  # every edge weight is top − cost > 0
    w_shift: int = 0  # W (weak avoidances), between S2 and S1


def _field_layout(pool: _Pool, members: list[int], lo: int, hi: int) -> _Layout | None:
    """Bit fields for a step over score groups lo..hi; None if they exceed the matcher's width."""
    m = len(members)
    biggest = max(pool.group_size[g] for g in range(lo, hi + 1))
    b4 = (m + 1).bit_length()
    b3 = (m * (2 * biggest + 2) + 1).bit_length()
    b2 = (m + 1).bit_length()
    bw = (m * _MAX_WEAK + 1).bit_length() if pool._constrained else 0  # W: weak avoidances
    bc = (m // 2 + 1).bit_length()
    cuts = hi - lo
    fields = min(cuts, MAX_CUT_FIELDS)
    total = b4 + b3 + b2 + bw + bc * fields + 1
    if total > _MAX_BITS:
        return None
    s3_shift = b4
    s2_shift = b4 + b3
    w_shift = s2_shift + b2
    base = w_shift + bw
    # cut lo + t has field fields-1-t (top cut most significant); cuts beyond share field 0
    cum = [0]
    for t in range(cuts):
        field = max(fields - 1 - t, 0)
        cum.append(cum[-1] + (1 << (base + bc * field)))
    return _Layout(tuple(cum), lo, s2_shift, s3_shift, 1 << total, w_shift)


def _solve_step(
    pool: _Pool, members: list[int], lo: int, hi: int, dummy_group: int | None, sparse: bool
) -> tuple[list[tuple[int, int]], list[int]]:
    layout = _field_layout(pool, members, lo, hi)
    if layout is None:  # pragma: no cover - only for absurdly large steps
        raise AssertionError("weight too wide")
    edges = _sparse_edges(pool, members) if sparse else _dense_edges(pool, members)
    cum, glo, s2s, s3s, top = layout.cut_value, layout.group_lo, layout.s2_shift, layout.s3_shift, layout.top
    grp = pool.grp
    weighted: list[tuple[int, int, int]] = []
    index = {x: t for t, x in enumerate(members)}
    for i, j in edges:
        a = max(grp[i] - glo, 0)
        b = grp[j] - glo
        cost = (
            (cum[b] - cum[a])
            + (pool.weak_cost(i, j) << layout.w_shift)
            + (pool.colour_cost(i, j) << s2s)
            + (pool.order_cost(i, j) << s3s)
            + pool.float_cost(i, j)
        )
        weighted.append((index[i], index[j], top - cost))
    g = rx.PyGraph()
    g.add_nodes_from(members)
    if dummy_group is not None:
        d = g.add_node(-1)
        for x in members:
            if grp[x] == dummy_group:
                leftover = (pool.group_size[dummy_group] - 1 - pool.rank[x]) << s3s
                weighted.append((index[x], d, top - leftover))
    g.add_edges_from(weighted)
    matching = rx.max_weight_matching(g, max_cardinality=True, weight_fn=int)
    pairs: list[tuple[int, int]] = []
    used: set[int] = set()
    for u, v in matching:
        if u >= len(members) or v >= len(members):
            continue
        i, j = sorted((members[u], members[v]))
        pairs.append((i, j))
        used.update((i, j))
    return pairs, [x for x in members if x not in used]


# --------------------------------------------------------------------------- boards and colours


def _boards_and_colours(pool: _Pool, pairs: list[tuple[int, int]], seed: int) -> tuple[PairedGame, ...]:
    ordered = sorted(pairs, key=lambda e: (-pool.score[e[0]], -pool.score[e[1]], e[0]))
    lot = random.Random(seed).choice((Colour.RED, Colour.BLACK))
    games = []
    for board, (i, j) in enumerate(ordered, start=1):
        i_red, reason = allocate_colours(pool.players[i], pool.players[j], board, lot)
        red, black = (i, j) if i_red else (j, i)
        games.append(
            PairedGame(
                board=board,
                red=pool.no[red],
                black=pool.no[black],
                explanation=_explain(pool, i, j, red, reason),
            )
        )
    return tuple(games)


def allocate_colours(
    higher: PairingPlayer, lower: PairingPlayer, board: int, lot: Colour
) -> tuple[bool, ColourReason]:
    """Whether ``higher`` (the higher-ranked of the pair) gets red, and why (RULES.md §5 (a)–(d)).

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


def _explain(pool: _Pool, i: int, j: int, red: int, reason: ColourReason) -> PairExplanation:
    same = pool.score[i] == pool.score[j]
    diff = pool.score[i] - pool.score[j]
    black = j if red == i else i
    colour_zh = f"{pool.no[red]}号执红、{pool.no[black]}号执黑：{reason.zh}"
    if same:
        zh = f"{pool.no[i]}号与{pool.no[j]}号同为{pool.score[i]}分，按积分组内顺序配对；{colour_zh}"
        return PairExplanation(True, 0, None, None, reason, zh)
    float_reason = FloatReason.ODD_GROUP if pool.group_size[pool.grp[i]] % 2 else FloatReason.CONSTRAINTS
    zh = (
        f"{pool.no[i]}号（{pool.score[i]}分）降组与{pool.no[j]}号（{pool.score[j]}分）配对，"
        f"原因：{float_reason.zh}；{colour_zh}"
    )
    return PairExplanation(False, diff, pool.no[i], float_reason, reason, zh)


# --------------------------------------------------------------------------- what the constraints decided


def _with_constraint_notes(pairing: Pairing, free: Pairing, constraints: RoundConstraints) -> Pairing:
    """Each game's explanation with what the avoidances decided, against the pairing without them.

    A player who would have met another player but for a constraint is told so, with the constraint's
    name; a weakly avoided pair that S1 still required says why it was made.
    """
    free_opponent: dict[int, int] = {}
    for g in free.games:
        free_opponent[g.red], free_opponent[g.black] = g.black, g.red
    games = []
    for g in pairing.games:
        notes: list[str] = []
        for c in constraints.weak(g.red, g.black):
            notes.append(f"{g.red}号与{g.black}号虽属{c.zh}，但避开将破坏积分组（S1），故仍配对")
        for me, other in ((g.red, g.black), (g.black, g.red)):
            natural = free_opponent.get(me)
            if natural is None or natural == other:
                continue
            reasons = constraints.between(me, natural)
            if reasons:
                notes.append(f"{me}号本应与{natural}号配对，因{reasons[0].zh}而改配")
        if not notes:
            games.append(g)
            continue
        e = g.explanation
        text = e.zh + "；" + "；".join(dict.fromkeys(notes))
        games.append(
            PairedGame(
                g.board,
                g.red,
                g.black,
                PairExplanation(
                    e.same_score,
                    e.score_difference,
                    e.floater,
                    e.float_reason,
                    e.colour_reason,
                    text,
                    tuple(dict.fromkeys(notes)),
                ),
            )
        )
    return Pairing(tuple(games), pairing.bye, pairing.bye_explanation, pairing.seed)
