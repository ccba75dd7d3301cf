"""How the pairing solver searches — never what it optimises.

Every limit here chooses *how* the lexicographic optimum of docs/rules.md §5 is found (which blocks
are solved on every legal pair, when numpy builds the edges, how wide the sparse candidates
are); none of them changes *which* pairing is the optimum. Where no proof is found within these
limits, the pairing says so (:attr:`PairingQuality.exact` is False).

The defaults are the engine's. The tests pass other values to :func:`pair_round` to force the
large-block and bounded paths on pools small enough to compare with one dense matching:

>>> from app.engine.records import replace
>>> forced = replace(Tuning(), exact_pool_limit=4, exact_block_limit=4, bands=False)
>>> forced.dense_limit, forced.certificates.search_nodes
(240, 24)
"""

from __future__ import annotations

from app.engine.pairing.lexmatch import WEIGHT_LIMIT
from app.engine.records import field, frozen


@frozen
class CertificateTuning:
    """Limits of the large-block path (:mod:`app.engine.pairing.large`)."""

    band: int = 4  # first candidates: pairs within this order cost of the natural pairs
    nearest: int = 8  # first candidates: per player, the nearest pairs of each colour cost
    near_window: int = 64  # ... looked for this far from the natural pairs
    add_per_player: int = 5  # each certificate round adds at most this many violated pairs per player
    certify_rounds: int = 40  # certificate rounds per group graph before giving up
    dense_group: int = 200  # group graphs up to this size: every legal pair (no certificate needed)
    dense_fallback: int = 700  # larger ones whose certificate fails: every legal pair up to this size
    search_nodes: int = 24  # cross pairs branched on before the block is left unproved
    bellman_ford_limit: int = 400  # relaxation passes before a matching is deemed to have no dual


@frozen
class Tuning:
    """Limits of the whole-round solver (:mod:`app.engine.pairing.engine` explains each path)."""

    exact_pool_limit: int = 1000  # pools up to this size: every block exact, whatever its size
    exact_block_limit: int = 700  # in larger pools, blocks up to this size: exact on every legal pair
    numpy_from: int = 160  # dense edge sets of blocks this large are built with numpy (imported only then)
    dense_limit: int = 240  # bounded steps up to this size: every legal pair
    window: int = 12  # bounded sparse steps: neighbours by order and around the natural partner
    repair_limit: int = 400  # completability: largest window re-paired around a witness's leftovers
    weight_limit: int = WEIGHT_LIMIT  # largest packed edge weight one matching may carry
    bands: bool = True  # a single score group is first solved on the band of pairs near the natural ones
    large_blocks: bool = True  # blocks beyond the exact limits are tried on sparse candidates with a proof
    certificates: CertificateTuning = field(default_factory=CertificateTuning)


DEFAULT_TUNING = Tuning()
