"""Run the bad-input corpus (tests/corpus) and print what happened, by category.

Columns: tried · refused cleanly (exit 2, the two-language message, every file byte for byte as it
was) · done right (the input was valid or absurd-but-harmless and the command did its job) ·
tracebacks · changed (a refusal that changed a file) · partial files (``*.partial``, ``*.tmp``, a lock or
an empty output left behind) · leaks (a full ID or phone number in a public output) · other problems
(a live formula in a CSV, a take-over not logged, a full disk not called one …). Then the lock races
between two real processes.

Usage: python scripts/corpus_table.py [--json] [--category TEXT] [--no-races]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.corpus.cases import CATEGORIES  # noqa: E402
from tests.corpus.harness import run_case  # noqa: E402
from tests.corpus.races import run_races  # noqa: E402

COLUMNS = (
    "tried",
    "refused cleanly",
    "done right",
    "tracebacks",
    "changed",
    "partial files",
    "leaks",
    "other problems",
)


def tally(category: str, make: object) -> tuple[dict[str, int], list[str]]:
    row = dict.fromkeys(COLUMNS, 0)
    failures = []
    for case in make():  # type: ignore[operator]
        o = run_case(case)
        row["tried"] += 1
        row["tracebacks"] += bool(o.traceback)
        row["changed"] += bool(o.refused and o.changed)
        row["partial files"] += bool(o.partial)
        row["leaks"] += bool(o.leaks)
        row["other problems"] += bool(o.problems)
        if o.ok:
            row["refused cleanly" if o.refused else "done right"] += 1
        else:
            failures.append(o.describe())
    return row, failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print JSON instead of a Markdown table")
    parser.add_argument("--category", default="", help="only the categories whose name contains this")
    parser.add_argument("--no-races", action="store_true", help="skip the lock races")
    args = parser.parse_args()
    started = time.perf_counter()
    rows: dict[str, dict[str, int]] = {}
    failures: list[str] = []
    for name, make in CATEGORIES:
        if args.category.lower() not in name.lower():
            continue
        rows[name], failed = tally(name, make)
        failures += failed
        print(f"… {name}: {rows[name]['tried']} cases", file=sys.stderr, flush=True)
    total = {c: sum(r[c] for r in rows.values()) for c in COLUMNS}
    races = None if args.no_races else run_races(rounds=30, churn_seconds=2.0)
    seconds = round(time.perf_counter() - started, 1)
    if args.json:
        out = {"categories": rows, "total": total, "failures": failures, "seconds": seconds}
        if races is not None:
            out["lock_races"] = {
                "rounds": races.rounds,
                "one_winner": races.single_winner,
                "two_winners": races.double_winner,
                "live_lock_judged_stale": races.judged_stale,
                "churn_attempts": races.probes,
                "churn_judged_stale": races.probes_judged_stale,
                "tracebacks": len(races.tracebacks),
            }
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0 if not failures and (races is None or races.sound) else 1
    print("| category | " + " | ".join(COLUMNS) + " |")
    print("|---|" + "---:|" * len(COLUMNS))
    for name, row in rows.items():
        print(f"| {name} | " + " | ".join(str(row[c]) for c in COLUMNS) + " |")
    print("| **total** | " + " | ".join(f"**{total[c]}**" for c in COLUMNS) + " |")
    if races is not None:
        print()
        print(
            "| lock race (two real processes, every write slowed to 100 ms) | rounds | one winner | two winners | a live lock judged stale | tracebacks |"
        )
        print("|---|---:|---:|---:|---:|---:|")
        for kind in races.rounds:
            print(
                f"| {kind} | {races.rounds[kind]} | {races.single_winner[kind]} | {races.double_winner[kind]} | "
                f"{races.judged_stale[kind]} | {sum(kind in t for t in races.tracebacks)} |"
            )
        print(
            f"| take and release in a loop, both at once | {races.probes} attempts | — | — | "
            f"{races.probes_judged_stale} | {len(races.tracebacks)} |"
        )
    print(f"\n{seconds} s", file=sys.stderr)
    for line in failures:
        print("FAILED", line, file=sys.stderr)
    return 0 if not failures and (races is None or races.sound) else 1


if __name__ == "__main__":
    sys.exit(main())
