"""Swiss pairing under the Chinese rules (docs/rules.md §5): see :mod:`app.engine.pairing.engine`."""

from app.engine.pairing.engine import allocate_colours, pair_round
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
from app.engine.pairing.tuning import Tuning

__all__ = [
    "ByeExplanation",
    "ColourReason",
    "Float",
    "FloatReason",
    "FloaterChoice",
    "NoLegalPairing",
    "PairExplanation",
    "PairedGame",
    "Pairing",
    "PairingPlayer",
    "PairingQuality",
    "Tuning",
    "allocate_colours",
    "pair_round",
]
