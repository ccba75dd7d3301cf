"""TRF files written by another program (bbpPairings' random tournament generator), through this one.

The files in ``tests/data/trf/bbp-*.trf`` are bbpPairings' own output, committed as they came (CR line
ends, no （group） in the title, no scoring record but one, half-point and forfeit results, byes).
:func:`continue_in_xqarbiter` takes the first rounds of one, imports it, pairs the next round by this
program's rules, plays it with seeded results, closes it and exports the event for a pairing engine.

``tests/data/trf/verdicts.json`` records, for each file, what bbpPairings' checker (``-c``) said of
that export when the data were made (``scripts/bbp_check.py`` with a bbpPairings built outside the
project). The test suite does not run bbpPairings: it checks that the export it makes now is byte for
byte the one the checker saw.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

DATA = Path(__file__).with_name("data") / "trf"
VERDICTS = DATA / "verdicts.json"
GROUP = "随机赛"
SEED = 20261201


@dataclass(frozen=True)
class Case:
    name: str  # bbp-default …
    keep: int  # rounds of the file kept; this program pairs round keep + 1
    rounds: int  # rounds the generated tournament had (XXR of the kept file)

    @property
    def source(self) -> Path:
        return DATA / f"{self.name}.trf"

    @property
    def export(self) -> Path:
        return DATA / f"{self.name}.after-r{self.keep + 1}.trf"


CASES = (
    Case("bbp-default", 3, 5),
    Case("bbp-t15", 4, 7),
    Case("bbp-t41", 5, 9),
    Case("bbp-t3pt", 3, 6),
)

ROUND_COLUMN = 91  # 0-based start of the first round block of a 001 line
WIDTH = 10


def first_rounds(text: str, keep: int, rounds: int) -> str:
    """The file with only its first ``keep`` rounds, the points and rank columns blanked (they were
    after the last round) and ``XXR rounds`` so that more rounds follow."""
    out = []
    for line in text.splitlines():
        if line.startswith("001"):
            line = line[: ROUND_COLUMN - 2 + WIDTH * keep]
            line = line[:80] + " " * 9 + line[89:]
        out.append(line)
    out.append(f"XXR {rounds}")
    return "\n".join(out) + "\n"


def continue_in_xqarbiter(case: Case, work: Path) -> tuple[str, list[str]]:
    """(the export after pairing and playing round keep + 1, the import's notes)."""
    from app.services.rounds import close_round, pair_next_round
    from app.services.simulation import play_random_results
    from app.services.trf_exchange import export_trf, import_trf_with_notes

    kept = work / f"{case.name}.kept.trf"
    kept.write_text(
        first_rounds(case.source.read_text(encoding="utf-8"), case.keep, case.rounds), encoding="utf-8"
    )
    db, notes = import_trf_with_notes(kept, work / f"{case.name}.xqt", group=GROUP)
    try:
        number = case.keep + 1
        pair_next_round(db, GROUP, seed=SEED)
        play_random_results(db, GROUP, number, seed=SEED, forfeit_rate=0.05)
        close_round(db, GROUP, number)
        return export_trf(db, GROUP, for_pairing=True), notes
    finally:
        db.close()


def verdicts() -> dict[str, dict[str, object]]:
    data: dict[str, dict[str, object]] = json.loads(VERDICTS.read_text(encoding="utf-8"))
    return data
