"""Large blocks proved on sparse candidates (app.engine.pairing.large) against one dense matching.

The large path is forced on pools small enough to solve on every legal edge at once: the limits
above which it is used are lowered, and the candidate pairs are made tiny so that the certificate
has to grow them, fall back to the fractional optimum, and branch on rematches between the
relaxation's floater and opponent. Wherever the engine says ``exact`` the objective vector must
be the dense optimum's; wherever the certificate is not found it must say it is not exact.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.pairing import NoLegalPairing, PairingPlayer, PairingQuality, Tuning, large, pair_round
from app.engine.pairing.arrays import pair_fields
from app.engine.pairing.blocks import whole_pool_optimum
from app.engine.pairing.constraints import (
    ConstraintFacts,
    NamedAvoidance,
    RoundConstraints,
    round_constraints,
)
from app.engine.pairing.pool import OrderedPool, ordered_pool
from app.engine.pairing.tuning import CertificateTuning
from app.engine.regulations import (
    AvoidanceBasis,
    AvoidanceRule,
    AvoidanceStrength,
    PairingRules,
    TeamAvoidance,
)
from app.engine.simulation import SimulatedEvent
from app.engine.types import Colour

from . import reference as ref
from .objective import objective as _vector
from .strategies import avoidances, pools

FORCED_LIMIT = 4


def _forced(tiny: bool, fallback: bool = True) -> Tuning:
    """Every block above FORCED_LIMIT players goes to the large path (no band shortcut).

    ``tiny``: the certificate is tried on every group graph (none is small enough to be solved on
    every legal pair at once) from the fewest candidates; without ``fallback`` a group graph whose
    certificate fails is not solved on every legal pair either, so its block is left unproved.
    """
    certificates = CertificateTuning()
    if tiny:
        certificates = replace(certificates, band=0, nearest=1, add_per_player=1, dense_group=0)
    if not fallback:
        certificates = replace(certificates, dense_fallback=0)
    return Tuning(
        exact_pool_limit=FORCED_LIMIT, exact_block_limit=FORCED_LIMIT, bands=False, certificates=certificates
    )


def _check(
    players: list[PairingPlayer],
    round_number: int,
    rules: PairingRules,
    tiny: bool,
    fallback: bool = True,
    constraints: RoundConstraints | None = None,
    tuning: Tuning | None = None,
) -> PairingQuality:
    """Pair with the large path forced; compare with one dense matching over the whole pool."""
    pairing = pair_round(
        players,
        round_number,
        rules,
        seed=3,
        constraints=constraints,
        tuning=tuning or _forced(tiny, fallback),
    )
    avoid = rules.team_avoidance is TeamAvoidance.ALL_ROUNDS or (
        rules.team_avoidance is TeamAvoidance.ROUND_ONE and round_number == 1
    )
    by_no = {p.no: p for p in players}
    for g in pairing.games:
        red, black = by_no[g.red], by_no[g.black]
        assert ref.legal(red, black, avoid)
        assert ref.may_take(red, Colour.RED) and ref.may_take(black, Colour.BLACK)
    seen = sorted(
        [x for g in pairing.games for x in (g.red, g.black)] + ([pairing.bye] if pairing.bye else [])
    )
    assert seen == sorted(by_no)
    pool = ordered_pool(players, round_number, rules, constraints, without=pairing.bye)
    whole = whole_pool_optimum(pool)
    assert whole is not None
    got = pool.pairs((g.red, g.black) for g in pairing.games)
    quality = pairing.quality
    assert quality is not None
    if quality.exact:
        assert _vector(pool, got) == _vector(pool, whole)
        # every block above the limit was proved by the large path, none paired by steps
        assert sorted(quality.certified_blocks) == sorted(b for b in quality.blocks if b > FORCED_LIMIT)
        assert quality.bounded_players == 0
    else:
        assert quality.bounded_players > 0
    return quality


def _proved(quality: PairingQuality) -> list[bool]:
    """One entry per block the large path took: proved (True); an unproved one ends the list."""
    return [True] * len(quality.certified_blocks) + ([] if quality.exact else [False])


@pytest.mark.parametrize(
    "players, seed, tiny",
    [
        (240, 1, False),
        (400, 2, False),
        pytest.param(600, 3, False, marks=pytest.mark.heavy),
        (300, 4, True),
        pytest.param(500, 5, True, marks=pytest.mark.heavy),
    ],
)
def test_simulated_events_with_large_score_groups(players: int, seed: int, tiny: bool) -> None:
    # rounds 1–6 of events whose score groups hold up to a few hundred players each
    event = SimulatedEvent(players, seed=seed, teams=True)
    proved: list[bool] = []
    for _ in range(6):
        proved += _proved(_check(event.pool(), len(event.rounds) + 1, event.rules, tiny))
        event.play_round()
    assert len(proved) >= 6 and all(proved)  # every block of these events is proved


@settings(max_examples=150, deadline=None)
@given(
    players=pools(min_size=14, max_size=40, max_rounds=5, max_score=10),
    round_number=st.integers(1, 4),
    tiny=st.booleans(),
    fallback=st.booleans(),
)
def test_random_pools_with_rematches_and_teams(
    players: list[PairingPlayer], round_number: int, tiny: bool, fallback: bool
) -> None:
    # dense rematches and teams: candidates without a perfect matching, rematches between the
    # relaxation's floater and opponent (branched on), LP gaps (solved on every legal pair, or
    # without that fallback left unproved and paired by the bounded method, which must say so)
    rules = PairingRules(team_avoidance=TeamAvoidance.ALL_ROUNDS)
    with contextlib.suppress(NoLegalPairing):
        _check(players, round_number, rules, tiny, fallback)


@pytest.mark.parametrize(
    "players, seed, tiny", [(300, 7, False), pytest.param(400, 8, True, marks=pytest.mark.heavy)]
)
def test_simulated_events_with_unit_and_region_avoidances(players: int, seed: int, tiny: bool) -> None:
    # units of about fifteen players weakly apart, regions of about fifty absolutely apart from round
    # 2 to 6, named pairs of both strengths: absolute ones are illegal pairs of a group (and branched
    # on across a cut), weak ones are W inside a group and branched on across a cut
    event = SimulatedEvent(players, seed=seed, teams=True)
    facts = [
        ConstraintFacts(no, unit=f"单位{no % 20}", region=f"地区{no % 6}") for no in range(1, players + 1)
    ]
    rules = (
        AvoidanceRule(AvoidanceBasis.UNIT, AvoidanceStrength.WEAK),
        AvoidanceRule(AvoidanceBasis.REGION, AvoidanceStrength.ABSOLUTE, 2, 6),
    )
    named = tuple(
        NamedAvoidance(a, a + 7, AvoidanceStrength.ABSOLUTE if a % 2 else AvoidanceStrength.WEAK)
        for a in range(1, players - 7, 17)
    )
    proved: list[bool] = []
    for _ in range(6):
        number = len(event.rounds) + 1
        c = round_constraints(rules, facts, named, number)
        proved += _proved(_check(event.pool(), number, event.rules, tiny, constraints=c))
        event.play_round()
    assert len(proved) >= 6 and sum(proved) >= len(proved) - 1  # (at most one block left unproved)


@settings(max_examples=100, deadline=None)
@given(
    data=st.data(),
    players=pools(min_size=14, max_size=40, max_rounds=5, max_score=10),
    tiny=st.booleans(),
)
def test_random_pools_with_avoidances(data: st.DataObject, players: list[PairingPlayer], tiny: bool) -> None:
    c = data.draw(avoidances([p.no for p in players], round_number=2))
    with contextlib.suppress(NoLegalPairing):
        _check(players, 2, PairingRules(team_avoidance=TeamAvoidance.ALL_ROUNDS), tiny, constraints=c)


def test_an_unproved_block_says_so() -> None:
    # no certificate round allowed: the block cannot be proved, the round is paired by the
    # bounded method, complete and legal, and the quality says it is not the proved optimum
    event = SimulatedEvent(300, seed=6, teams=True)
    for _ in range(2):
        event.play_round()
    tuning = _forced(tiny=False, fallback=False)
    tuning = replace(tuning, certificates=replace(tuning.certificates, certify_rounds=0, dense_group=0))
    quality = _check(event.pool(), 3, event.rules, tiny=False, tuning=tuning)
    assert _proved(quality) == [False]
    assert not quality.exact and quality.bounded_players > 0


def test_a_rematch_between_floater_and_opponent_is_branched_on() -> None:
    # two groups of three: the natural cross pair (3 floats to 4) is a rematch, so the relaxation's
    # first answer is illegal; the search must find the best legal one, as the dense matching does
    def player(no: int, score: int, colour: Colour, met: tuple[int, ...] = ()) -> PairingPlayer:
        return PairingPlayer(no=no, score=score, colours=(colour,), opponents=frozenset(met))

    players = [
        player(1, 2, Colour.RED),
        player(2, 2, Colour.BLACK),
        player(3, 2, Colour.RED, (4,)),
        player(4, 0, Colour.RED, (3,)),
        player(5, 0, Colour.BLACK),
        player(6, 0, Colour.RED),
    ]
    quality = _check(players, 2, PairingRules(), tiny=True)
    assert _proved(quality) == [True]
    pool = ordered_pool(players, 2, PairingRules(), tuning=_forced(tiny=True))
    block = large.solve_block(pool, 0, 1)
    assert block is not None and block.branches >= 1
    assert _vector(pool, block.pairs) == _vector(pool, whole_pool_optimum(pool) or [])


def test_a_weakly_avoided_cross_pair_is_kept_only_when_every_other_is_no_better() -> None:
    # five players on 2 points, one on 0: the floater must meet player 6, whom all five weakly
    # avoid, so every pairing breaks one weak avoidance (W = 1). The relaxation gives the ports no W:
    # its answers are real pairings costing one W more, kept as the incumbent while the search
    # branches on the floater; the natural floater (5) stays the optimum, as the dense matching says
    players = [
        PairingPlayer(no=n, score=2, colours=(Colour.RED,) if n % 2 else (Colour.BLACK,)) for n in range(1, 6)
    ]
    players.append(PairingPlayer(no=6, score=0, colours=(Colour.BLACK,)))
    facts = [ConstraintFacts(n) for n in range(1, 7)]
    named = tuple(NamedAvoidance(n, 6, AvoidanceStrength.WEAK) for n in range(1, 6))
    constraints = round_constraints((), facts, named, 2)
    quality = _check(players, 2, PairingRules(), tiny=True, constraints=constraints)
    assert _proved(quality) == [True]
    pool = ordered_pool(players, 2, PairingRules(), constraints, tuning=_forced(tiny=True))
    block = large.solve_block(pool, 0, 1)
    assert block is not None and block.depth >= 2  # branched past the first two floaters
    assert _vector(pool, block.pairs) == _vector(pool, whole_pool_optimum(pool) or [])
    pairing = pair_round(players, 2, PairingRules(), seed=3, constraints=constraints)
    assert pairing.quality is not None and pairing.quality.weak_avoidances == 1
    assert any({g.red, g.black} == {5, 6} for g in pairing.games)


@pytest.mark.parametrize("seed", range(6))
def test_the_legal_pairs_of_a_group_are_the_engines(seed: int) -> None:
    # the certificate must cover every legal pair: one missing would make the proof unsound
    rng = random.Random(seed)
    players = []
    for no in range(1, 61):
        played = rng.randrange(4)
        players.append(
            PairingPlayer(
                no=no,
                score=rng.choice((0, 2, 4)),
                colours=tuple(rng.choice((Colour.RED, Colour.BLACK)) for _ in range(played)),
                opponents=frozenset(rng.sample(range(1, 61), 8)) - {no},
                team=rng.choice((None, "甲", "乙")),
            )
        )
    facts = [ConstraintFacts(no, unit=f"单位{no % 7}", region=f"地区{no % 5}") for no in range(1, 61)]
    strengths = (AvoidanceStrength.WEAK, AvoidanceStrength.ABSOLUTE)
    rules = (
        AvoidanceRule(AvoidanceBasis.UNIT, strengths[seed % 2]),
        AvoidanceRule(AvoidanceBasis.REGION, strengths[(seed // 2) % 2]),
    )
    named = tuple(NamedAvoidance(a, a + 3, strengths[a % 2]) for a in range(1, 57, 5))
    constraints = round_constraints(rules, facts, named, 2) if seed else None
    ordered = sorted(players, key=lambda p: (-p.score, p.no))
    pool = OrderedPool(ordered, avoid_teams=bool(seed % 2), constraints=constraints)
    # the numpy builder over the whole pool: the same legal pairs and the same criteria as the pool's
    fields = pair_fields(pool, range(pool.n))
    assert {(a, b) for a, b in zip(fields.a.tolist(), fields.b.tolist(), strict=True)} == {
        (i, j) for i in range(pool.n) for j in range(i + 1, pool.n) if pool.legal(i, j)
    }
    w = fields.w.tolist() if fields.w is not None else [0] * len(fields.a)
    for t, (i, j) in enumerate(zip(fields.a.tolist(), fields.b.tolist(), strict=True)):
        assert (fields.skip[t], w[t], fields.s2[t], fields.s3[t], fields.s4[t]) == (
            pool.skipped_groups(i, j),
            pool.weak_cost(i, j),
            pool.colour_cost(i, j),
            pool.order_cost(i, j),
            pool.float_cost(i, j),
        )
    mw, m2, m3 = 100_000, 1000, 10
    assert pool.k == 3
    for g in range(pool.k):
        grp = large.build_group(pool, g, large.Packing(mw if pool.weak else 0, m2, m3))
        first = pool.group_start[g]
        members = pool.group_members(g, g)
        got = {(first + a, first + b) for a, b in zip(grp.a.tolist(), grp.b.tolist(), strict=True)}
        assert got == {(i, j) for i in members for j in members if i < j and pool.legal(i, j)}
        for a, b, cost in zip(grp.a.tolist(), grp.b.tolist(), grp.cost().tolist(), strict=True):
            i, j = first + a, first + b
            assert (
                cost == pool.weak_cost(i, j) * mw + pool.colour_cost(i, j) * m2 + pool.order_cost(i, j) * m3
            )


def _perfect_matchings(nodes: list[int], adj: dict[tuple[int, int], int]) -> Iterator[list[tuple[int, int]]]:
    if not nodes:
        yield []
        return
    a, rest = nodes[0], nodes[1:]
    for t, b in enumerate(rest):
        if (a, b) in adj:
            for tail in _perfect_matchings(rest[:t] + rest[t + 1 :], adj):
                yield [(a, b), *tail]


@settings(max_examples=300, deadline=None)
@given(
    n=st.sampled_from([2, 4, 6, 8]),
    costs=st.lists(st.integers(0, 30), min_size=28, max_size=28),
    picks=st.lists(st.booleans(), min_size=28, max_size=28),
    which=st.integers(0, 10_000),
)
def test_a_certificate_is_only_ever_given_for_an_optimal_matching(
    n: int, costs: list[int], picks: list[bool], which: int
) -> None:
    # potentials on any perfect matching (optimal or not) of a random graph: whenever it returns
    # duals, they prove the matching optimal by enumeration; on an optimal matching of a
    # bipartite graph (where the LP is integral) it always returns them
    pairs = list(itertools.combinations(range(n), 2))
    edges = {pair: costs[k] for k, pair in enumerate(pairs) if picks[k]}
    matchings = list(_perfect_matchings(list(range(n)), edges))
    if not matchings:
        return
    i = np.array([a for a, _ in edges], dtype=np.int64)
    j = np.array([b for _, b in edges], dtype=np.int64)
    c = np.array(list(edges.values()), dtype=np.int64)
    best = min(sum(edges[e] for e in mt) for mt in matchings)
    chosen = matchings[which % len(matchings)]
    mate = np.empty(n, dtype=np.int64)
    for a, b in chosen:
        mate[a], mate[b] = b, a
    y2 = large.potentials(n, i, j, c, mate, limit=n + 1)
    value = sum(edges[e] for e in chosen)
    if y2 is not None:
        assert (2 * c - y2[i] - y2[j] >= 0).all()
        assert int(y2.sum()) == 2 * value == 2 * best
    bipartite = all((a % 2) != (b % 2) for a, b in edges)
    if bipartite and value == best:
        assert y2 is not None


def test_a_wrong_certificate_is_refused() -> None:
    event = SimulatedEvent(120, seed=2)
    event.play_round()
    players = event.pool()
    pool = ordered_pool(players, 2, PairingRules())
    g = max(range(pool.k), key=lambda g: pool.group_size[g] if pool.group_size[g] % 2 == 0 else 0)
    pack = large.Packing(0, 100_000, 10)
    grp = large.build_group(pool, g, pack)
    ports = large.ports_of(grp, [])
    cert = large.certify(grp, ports, [0])
    assert cert is not None and cert.y2 is not None
    assert large.verified(grp, ports, cert.y2, cert.value)
    assert not large.verified(grp, ports, cert.y2, cert.value - 1)  # the sum must be the cost
    other = 1 if int(cert.mate[0]) != 1 else 2
    raised = cert.y2.copy()
    raised[0] += 1  # same sum, but player 0's pair in the matching now has a negative reduced cost
    raised[other] -= 1
    assert not large.verified(grp, ports, raised, cert.value)
