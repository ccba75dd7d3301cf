"""Bounded steps: score group by score group from the top, where no proof is found.

**Bounded** where no proof is found (a certificate that fails on a group too large to solve on
every legal pair, or a block grown past an even cut): the rest of the round is paired score group
by score group from the top instead, as before: a step matches the remaining players of the top two remaining
score groups, keeps the pairs touching the top group and proves the rest can still be completed,
else takes one more score group. Steps up to :attr:`Tuning.dense_limit` players use every legal edge and
are exact for the step's players; larger steps use, for each player, the :attr:`Tuning.window` next
players in order and those within :attr:`Tuning.window` places of their natural partner. The pairing's
:class:`PairingQuality` says which players were paired that way (``exact`` is then False).
"""

from __future__ import annotations

from app.engine.pairing.blocks import solve_block
from app.engine.pairing.feasibility import completable
from app.engine.pairing.pool import OrderedPool
from app.engine.records import field, record


@record
class Steps:
    pairs: list[tuple[int, int]] = field(default_factory=list)
    dense_redone: list[int] = field(default_factory=list)  # sizes of sparse steps redone on every legal pair


def pair_steps(pool: OrderedPool, remaining: list[int], witness: dict[int, int] | None) -> Steps:
    """Pair ``remaining`` (the rest of the round, from the top) by bounded steps (module docstring)."""
    steps = Steps()
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
            sparse = len(members) > pool.tuning.dense_limit
            step = solve_block(pool, members, head, top, sparse, dummy)
            if step is None and whole and sparse:
                steps.dense_redone.append(len(members))
                step = solve_block(pool, members, head, top, False, None)
            if step is None:
                assert not whole, "feasibility was proved before"
                extra += 1
                continue
            kept = step.pairs if whole else [e for e in step.pairs if grp[e[0]] == head]
            used = {x for e in kept for x in e}
            rest = [i for i in remaining if i not in used]
            if not whole:
                head_left = any(grp[i] == head for i in rest)
                rest_witness = None if head_left else completable(pool, rest, witness)[0]
                if rest_witness is None:
                    extra += 1
                    continue
                witness = rest_witness
            steps.pairs.extend(kept)
            remaining = rest
            break
    return steps
