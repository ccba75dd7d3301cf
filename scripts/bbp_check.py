"""Cross-check with bbpPairings (optional; needs a bbpPairings executable built outside the project).

For each TRF file that bbpPairings' random tournament generator wrote (tests/data/trf/bbp-*.trf,
see tests/trf_bbp.py): keep its first rounds, import them, pair and play the next round here, export
the event for a pairing engine, and run bbpPairings' checker on the export::

    bbpPairings.exe --dutch EXPORT -c

The checker's exit code 0 means it read the file and found every score consistent with the
results and the file's scoring records; it then lists, round by round, where its own FIDE Dutch
pairing differs from the file's (this program pairs by the Chinese rules, so differences are
expected and are only counted). With ``--write`` the exports and the verdicts are stored under
tests/data/trf/, which the test suite compares against without running bbpPairings.

Usage: python scripts/bbp_check.py --bbp /path/to/bbpPairings.exe [--write]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.trf_bbp import CASES, VERDICTS, continue_in_xqarbiter  # noqa: E402


def check(bbp: Path, export: Path) -> dict[str, object]:
    done = subprocess.run(
        [str(bbp), "--dutch", str(export), "-c"], capture_output=True, text=True, timeout=120, check=False
    )
    differing: dict[int, int] = {}  # round → pairs listed as differing from the checker's own
    current = 0
    for line in (done.stdout + done.stderr).splitlines():
        if "Round #" in line:
            current = int(line.rsplit("#", 1)[1])
        elif line.strip() and line.strip()[0].isdigit() and current:
            differing[current] = differing.get(current, 0) + 1
    return {
        "exit_code": done.returncode,
        "rounds_checked": current,
        "rounds_differing_from_fide_dutch": {str(k): v for k, v in sorted(differing.items())},
        "stderr": done.stderr.strip(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bbp", type=Path, required=True, help="the bbpPairings executable")
    parser.add_argument(
        "--write", action="store_true", help="store the exports and verdicts in tests/data/trf"
    )
    args = parser.parse_args()
    verdicts: dict[str, dict[str, object]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            text, _notes = continue_in_xqarbiter(case, Path(tmp))
            export = Path(tmp) / case.export.name
            export.write_text(text, encoding="utf-8")
            verdict = check(args.bbp, export)
            verdict["export"] = case.export.name
            verdicts[case.name] = verdict
            print(json.dumps({case.name: verdict}, ensure_ascii=False))
            if args.write:
                case.export.write_text(text, encoding="utf-8")
    if args.write:
        VERDICTS.write_text(json.dumps(verdicts, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0 if all(v["exit_code"] == 0 for v in verdicts.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
