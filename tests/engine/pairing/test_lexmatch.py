"""The exact lexicographic matcher against exhaustive enumeration, with its fields split across solves."""

from __future__ import annotations

from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.pairing.lexmatch import EdgeSet, lex_perfect_matching


@st.composite
def instances(draw: st.DrawFn) -> tuple[int, list[int], EdgeSet]:
    m = 2 * draw(st.integers(1, 5))
    groups = sorted(draw(st.lists(st.integers(0, 9), min_size=m, max_size=m)))
    relabel = {g: t for t, g in enumerate(sorted(set(groups)))}
    group = [relabel[g] for g in groups]
    sizes = [group.count(t) for t in range(len(relabel))]
    ii, jj, gi, gj = [], [], [], []
    low: list[list[int]] = [[], [], [], []]
    for a in range(m):
        for b in range(a + 1, m):
            if draw(st.booleans()) or b == a + 1:
                ii.append(a)
                jj.append(b)
                gi.append(group[a])
                gj.append(group[b])
                low[0].append(max(group[b] - group[a] - 1, 0))
                for f in (1, 2, 3):
                    low[f].append(draw(st.integers(0, 40)))
    return m, sizes, EdgeSet(ii, jj, gi, gj, (low[0], low[1], low[2], low[3]))


def _matchings(nodes: list[int], adj: dict[tuple[int, int], int]) -> Iterator[list[int]]:
    if not nodes:
        yield []
        return
    a, rest = nodes[0], nodes[1:]
    for t, b in enumerate(rest):
        e = adj.get((a, b))
        if e is not None:
            for tail in _matchings(rest[:t] + rest[t + 1 :], adj):
                yield [e, *tail]


def _vector(edges: EdgeSet, ncut: int, chosen: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    cuts = [0] * ncut
    for e in chosen:
        for c in range(edges.gi[e], edges.gj[e]):
            cuts[c] += 1
    return tuple(cuts), tuple(sum(edges.low[f][e] for e in chosen) for f in range(4))


@settings(max_examples=300, deadline=None)
@given(instance=instances(), bits=st.sampled_from([30, 34, 40, 120]))
def test_the_lexicographic_optimum_whatever_the_matcher_width(
    instance: tuple[int, list[int], EdgeSet], bits: int
) -> None:
    m, sizes, edges = instance
    adj = {(a, b): e for e, (a, b) in enumerate(zip(edges.i, edges.j, strict=True))}
    best = min((_vector(edges, len(sizes) - 1, ms) for ms in _matchings(list(range(m)), adj)), default=None)
    result = lex_perfect_matching(m, sizes, edges, weight_limit=1 << bits)
    if best is None:
        assert result is None
        return
    assert result is not None
    chosen = [adj[p] for p in result.pairs]
    assert _vector(edges, len(sizes) - 1, chosen) == best == (tuple(result.cuts), result.low)


def test_ten_cuts_on_a_narrow_matcher_take_several_stages() -> None:
    # 12 players in 11 groups, a matcher 20 bits wide: the fields cannot all go in one solve
    m = 12
    group = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10]
    sizes = [1] * 10 + [2]
    pairs = [(a, b) for a in range(m) for b in range(a + 1, m)]
    edges = EdgeSet(
        [a for a, _ in pairs],
        [b for _, b in pairs],
        [group[a] for a, _ in pairs],
        [group[b] for _, b in pairs],
        (
            [max(group[b] - group[a] - 1, 0) for a, b in pairs],
            [(a + b) % 3 for a, b in pairs],
            [(a * b) % 7 for a, b in pairs],
            [(a ^ b) % 2 for a, b in pairs],
        ),
    )
    wide = lex_perfect_matching(m, sizes, edges)
    narrow = lex_perfect_matching(m, sizes, edges, weight_limit=1 << 20)
    assert wide is not None and narrow is not None
    assert wide.solves == 1 and narrow.solves >= 2
    assert (narrow.cuts, narrow.low) == (wide.cuts, wide.low)
    assert narrow.cuts == [1, 0] * 5
