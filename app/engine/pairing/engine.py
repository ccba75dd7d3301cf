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
:meth:`OrderedPool.legal <app.engine.pairing.pool.OrderedPool.legal>`, and the numpy builder the same facts).

The bye, decided before S1–S4, is the subject of :mod:`~app.engine.pairing.feasibility`; score
groups and ranks are then those of the pool without the bye player.

**Objective** — score groups ``G_0 > G_1 > … > G_{k-1}`` (distinct scores, high first); *cut c*
lies between ``G_c`` and ``G_{c+1}``. For a perfect pairing *M* of the pool the cost is the vector,
compared lexicographically (smaller is better):

- **S1** ``(x_0, x_1, …, x_{k-2}, L)``: ``x_c`` is the number of pairs with one player in
  ``G_0 ∪ … ∪ G_c`` and the other below; the top cut is kept intact first, and a pair joining
  ``G_a`` and ``G_b`` (a < b) crosses every cut from a to b − 1, so both the number of floaters
  and the distance they float are minimal, from the top down. Then ``L`` = the number of whole
  score groups floated past, summed over the pairs (``b − a − 1`` for a pair joining ``G_a`` and
  ``G_b``): among pairings crossing every cut equally often, a chain of short floats between
  neighbouring groups beats a float past a whole group (近分者对弈, docs/rules.md §5). Ruling (docs/rules.md
  §5, 2026-12): L counts groups skipped, not pairs — two pairs that each skip one group (L = 2)
  tie with one pair that skips two (L = 2), and colours then decide.
- **W** the number of weak avoidances (尽量回避) broken by the pairs made: a pair of the
  same unit under a weak unit rule counts 1, and so on for each weak rule or named pair it breaks.
  Ranked just below S1 and above S2: the score groups are kept first, then as few weakly avoided
  pairs as they allow, then colours and order. W is 0 for every pair when no weak avoidance is in
  force, and the engine then computes exactly what it computed before.
- **S2** the number of players (with a game played, hence a *due colour* = opposite of their last
  colour) who do not get their due colour. For a pair this is the minimum, over the colour
  assignments allowed by H3, of the players not getting their due colour; the colour allocation
  below always achieves it.
- **S3** the sum over pairs of the order cost. Ruling (docs/rules.md §5, 2026-12): S3 is one sum of
  the floater's cost and the in-group order cost — the floater's identity and the order inside
  the groups are traded against each other in this one sum, not ranked one above the other.
  Same group of size m, ranks r < q, h = m // 2:
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

**Where each part lives.** :mod:`~app.engine.pairing.pool` prepares the pool (order, score
groups, ranks, every per-player fact); :mod:`~app.engine.pairing.criteria` defines each criterion
of a pair once (legality, L, W, S2, S3, S4), for the scalar methods and the numpy builders alike;
:mod:`~app.engine.pairing.feasibility` chooses the bye and proves completability;
:mod:`~app.engine.pairing.edges` builds the edge sets; :mod:`~app.engine.pairing.blocks` splits
the round into proved blocks (the proofs are in its docstring) and solves each,
:mod:`~app.engine.pairing.large` the large ones on sparse candidates with a certificate;
:mod:`~app.engine.pairing.steps` pairs by bounded steps where no proof is found;
:mod:`~app.engine.pairing.colours` numbers the boards and allocates colours;
:mod:`~app.engine.pairing.explain` says why. :class:`~app.engine.pairing.tuning.Tuning` sets how
the solver searches, never what it optimises.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.engine.pairing import criteria
from app.engine.pairing.blocks import (
    Block,
    next_even_cut,
    parity_optimal,
    relaxed_split,
    solve_block,
    solve_chain,
    solve_group_banded,
    solve_large,
)
from app.engine.pairing.colours import allocate_colours, boards_and_colours
from app.engine.pairing.constraints import RoundConstraints
from app.engine.pairing.criteria import BLACK, RED
from app.engine.pairing.explain import with_constraint_notes
from app.engine.pairing.feasibility import choose_bye, completable, numbers
from app.engine.pairing.model import NoLegalPairing, PairedGame, Pairing, PairingPlayer, PairingQuality
from app.engine.pairing.pool import OrderedPool, avoids_teams, order_key
from app.engine.pairing.steps import pair_steps
from app.engine.pairing.tuning import DEFAULT_TUNING, Tuning
from app.engine.records import field, record
from app.engine.regulations import PairingRules, ScoreGroupOrder

__all__ = ["allocate_colours", "pair_round"]


def pair_round(
    pool: Sequence[PairingPlayer],
    round_number: int,
    rules: PairingRules,
    seed: int,
    constraints: RoundConstraints | None = None,
    tuning: Tuning = DEFAULT_TUNING,
) -> Pairing:
    """Pair one Swiss round of ``pool`` under ``rules`` (docs/rules.md §5).

    ``seed`` draws the colour of round 1's board 1 (and of any pair of players without history);
    it is returned in the :class:`Pairing` to be recorded. Raises :class:`NoLegalPairing` naming
    the players concerned when H1–H4 (and the absolute avoidances) cannot all hold.

    ``constraints``: the avoidances in force this round (absolute: no such pair; weak: the
    criterion W). The pairing the round would get without them is the reference for ``why``: if it
    makes no avoided pair it is also the optimum with them (it is feasible, W = 0 is the least W,
    and the rest of the vector is already minimal over a larger set) and it is returned; otherwise
    each game says what the constraints decided against it (:func:`with_constraint_notes`).

    ``tuning``: how the solver searches (:mod:`app.engine.pairing.tuning`); never what it returns
    when it proves the optimum.

    >>> from app.engine.regulations import PairingRules
    >>> players = [PairingPlayer(no=n, score=0) for n in range(1, 5)]
    >>> p = pair_round(players, 1, PairingRules(), seed=1)
    >>> [(g.board, sorted((g.red, g.black))) for g in p.games]
    [(1, [1, 3]), (2, [2, 4])]
    """
    if constraints is not None and not constraints.empty:
        free = _pair_round(pool, round_number, rules, seed, None, tuning)
        if not any(constraints.between(g.red, g.black) for g in free.games):
            return free  # no avoided pair: the constraints change nothing
        constrained = _pair_round(pool, round_number, rules, seed, constraints, tuning)
        return with_constraint_notes(constrained, free, constraints)
    return _pair_round(pool, round_number, rules, seed, None, tuning)


def _pair_round(
    pool: Sequence[PairingPlayer],
    round_number: int,
    rules: PairingRules,
    seed: int,
    constraints: RoundConstraints | None,
    tuning: Tuning,
) -> Pairing:
    players = list(pool)
    nos = [p.no for p in players]
    if len(set(nos)) != len(nos):
        dup = sorted({n for n in nos if nos.count(n) > 1})
        raise NoLegalPairing(
            f"编排名单中序号重复：{numbers(dup)}",
            f"duplicate sequence numbers in the pool: {dup}",
            tuple(dup),
        )
    avoid_teams = avoids_teams(rules, round_number)
    by_tiebreaks = rules.score_group_order is ScoreGroupOrder.TIEBREAKS
    ordered = sorted(players, key=lambda p: order_key(p, by_tiebreaks))
    full = OrderedPool(ordered, avoid_teams, constraints, tuning)
    bye, bye_explanation = choose_bye(full)
    if bye is None:
        state = full
    else:
        state = OrderedPool([p for p in ordered if p.no != bye.no], avoid_teams, constraints, tuning)
    solution = pair_all(state)
    games = boards_and_colours(state, solution.pairs, solution.bounded == 0, seed)
    return Pairing(
        games=games,
        bye=None if bye is None else bye.no,
        bye_explanation=bye_explanation,
        seed=seed,
        quality=_quality(state, solution, games),
    )


# --------------------------------------------------------------------------- the whole round


@record
class Solution:
    """The round's pairs (pool indices) and how they were found."""

    pairs: list[tuple[int, int]] = field(default_factory=list)
    blocks: list[int] = field(default_factory=list)  # sizes of the accepted blocks
    bounded: int = 0  # players paired by the bounded step method
    solves: int = 0
    certified: list[int] = field(default_factory=list)  # sizes of the blocks proved by a certificate
    dense_steps: list[int] = field(default_factory=list)  # sparse bounded steps redone on every legal pair


def pair_all(pool: OrderedPool) -> Solution:
    """The lexicographic optimum of the whole (even) pool, block by proved block (:mod:`blocks`)."""
    solution = Solution()
    start = 0
    witness: dict[int, int] | None = None  # a legal perfect pairing of the rest, once known
    tuning = pool.tuning
    while start < pool.k:
        end = next_even_cut(pool, start)
        while True:
            members = pool.group_members(start, end)
            banded = solve_group_banded(pool, start) if start == end and tuning.bands else None
            limit = max(
                tuning.exact_block_limit, tuning.exact_pool_limit if pool.n <= tuning.exact_pool_limit else 0
            )
            large = solve_large(pool, start, end) if banded is None and len(members) > limit else None
            if banded is None and len(members) > limit and large is None:
                rest = pool.group_members(start, pool.k - 1)
                steps = pair_steps(pool, rest, witness)
                solution.pairs.extend(steps.pairs)
                solution.dense_steps.extend(steps.dense_redone)
                solution.bounded += len(rest)
                return solution
            first_try = end == next_even_cut(pool, start)  # inner cuts all odd
            if large is not None:
                block: Block | None = large
            else:
                block = solve_chain(pool, start, end) if first_try and end > start else banded
            if block is None:
                block = solve_block(pool, members, start, end)
            last = end == pool.k - 1
            accepted = last
            if block is not None and not last:
                solution.solves += block.solves
                rest = pool.group_members(end + 1, pool.k - 1)
                rest_witness = completable(pool, rest, witness)[0]
                if rest_witness is not None and (
                    parity_optimal(pool, block, start) or relaxed_split(pool, members, start, end)
                ):
                    witness = rest_witness
                    accepted = True
            if accepted:
                assert block is not None, "the rest of the pool was proved completable"
                if last:
                    solution.solves += block.solves
                solution.pairs.extend(block.pairs)
                solution.blocks.append(len(members))
                if large is not None:
                    solution.certified.append(len(members))
                start = end + 1
                break
            end = next_even_cut(pool, end + 1)
    return solution


# --------------------------------------------------------------------------- quality


def _quality(pool: OrderedPool, solution: Solution, games: tuple[PairedGame, ...]) -> PairingQuality:
    cuts, skipped, weak, _, order, repeated = pool.objective(solution.pairs)
    missed = 0
    for g in games:
        for no, colour in ((g.red, RED), (g.black, BLACK)):
            missed += criteria.misses(pool.due[pool.index[no]], colour)
    return PairingQuality(
        cuts=cuts,
        long_floats=skipped,
        missed_colours=missed,
        order_cost=order,
        repeated_floats=repeated,
        exact=solution.bounded == 0,
        blocks=tuple(solution.blocks),
        bounded_players=solution.bounded,
        solves=solution.solves,
        weak_avoidances=weak,
        certified_blocks=tuple(solution.certified),
        dense_steps=tuple(solution.dense_steps),
    )
