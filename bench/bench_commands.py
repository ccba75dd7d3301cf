"""Every command at event size, as a whole process: CPU seconds, wall seconds and peak memory.

Each case runs ``xqarbiter`` (the installed command beside this Python) in a fresh process, on a
copy of the tournament file where the command writes, and reads the child's own CPU time and peak
resident memory from the operating system (``os.wait4``). A third process keeps one core busy
while measuring (``--no-busy`` to skip), as on an arbiter's laptop with the window open.

Cases (``--only`` picks some by name):

- ``pair-160``: ``xqarbiter pair`` of round 6 of a 160-player group, against bbpPairings
  (``--dutch``) pairing the same round from the same file's ``export-trf --for-pairing`` (the
  executable is found at ``--bbp``, default /work/ext/bbp/bbpPairings.exe; it is built outside the
  project). Goal: our CPU ≤ bbpPairings'.
- ``excel-5000``: the result workbook of 5,000 players after 11 rounds. Goal ≤ 5 s CPU, ≤ 150 MB.
- ``table-cards-5000``: the table cards of a round of 2,500 boards. Goal ≤ 2 s.
- ``standings-5000``: ``xqarbiter standings`` of 5,000 players after 11 rounds. Goal ≤ 1 s.
- ``html-5000``: ``xqarbiter html``. Goal ≤ 5 s.
- ``print-5000:<document>``: ``xqarbiter print`` of every document. Goal ≤ 5 s each.

The events are built once by :mod:`bench.big_event` (a few minutes for 5,000 players) and kept in
the temporary folder. Prints one JSON object per case; best of ``--repeat`` runs (default 3).

    python bench/bench_commands.py [--only pair-160 excel-5000 …] [--repeat N] [--no-busy]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from big_event import GROUP, big_event

XQARBITER = str(Path(sys.executable).with_name("xqarbiter"))
BBP = "/work/ext/bbp/bbpPairings.exe"
DOCUMENTS = (
    "table-cards",
    "pairings",
    "results",
    "standings",
    "crosstable",
    "teams",
    "prizes",
    "payout",
    "record-sheets",
    "entry-list",
    "bracket",
    "check-in",
    "results-book",
    "certificates",
    "avoidances",
)


# as installed on a laptop: the modules' bytecode is cached (a development shell may forbid writing it)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def run(argv: Sequence[str], cwd: Path | None = None) -> dict[str, float]:
    """Run one process to its end: its CPU seconds (user + system), wall seconds, peak memory (MB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, cwd=cwd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({proc.returncode}): {err}")
    return {
        "cpu_seconds": usage.ru_utime + usage.ru_stime,
        "wall_seconds": wall,
        "peak_memory_mb": usage.ru_maxrss / 1024,  # Linux: kilobytes
    }


def best(runs: list[dict[str, float]]) -> dict[str, float]:
    chosen = min(runs, key=lambda r: r["cpu_seconds"])
    return {k: round(v, 3) for k, v in chosen.items()}


def report(case: str, measured: dict[str, float], **extra: object) -> None:
    print(json.dumps({"case": case, **measured, **extra}, ensure_ascii=False), flush=True)


def pair_160(repeat: int, work: Path, bbp: str) -> None:
    source = big_event(160, rounds=5)
    trf = work / "pair160.trf"
    subprocess.run(
        [XQARBITER, "export-trf", str(source), "--group", GROUP, "--for-pairing", "--out", str(trf)],
        check=True,
    )
    ours = []
    for t in range(repeat):
        copy = work / f"pair160-{t}.xqt"
        shutil.copy(source, copy)
        ours.append(run([XQARBITER, "pair", str(copy), "--group", GROUP, "--seed", "1"]))
    theirs = None
    if Path(bbp).is_file():
        theirs = best(
            [run([bbp, "--dutch", str(trf), "-p", str(work / "bbp-out.txt")]) for _ in range(repeat)]
        )
    mine = best(ours)
    ratio = None if theirs is None else round(mine["cpu_seconds"] / theirs["cpu_seconds"], 2)
    report(
        "pair-160 (round 6 of a 160-player group)",
        mine,
        bbppairings=theirs,
        cpu_ratio_to_bbppairings=ratio,
        goal="cpu ≤ bbpPairings'",
    )


def on_5000(case: str, repeat: int, work: Path, argv: Sequence[str], goal: str, copy: bool = False) -> None:
    source = big_event(5000)
    runs = []
    for t in range(repeat):
        path = source
        if copy:
            path = work / f"copy-{t}.xqt"
            shutil.copy(source, path)
        runs.append(run([XQARBITER, *[str(path) if a == "FILE" else a for a in argv]]))
    report(case, best(runs), players=5000, rounds=11, goal=goal)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", default=None, help="case names (prefixes)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-busy", action="store_true", help="do not load a core with another process")
    parser.add_argument("--bbp", default=BBP, help="the bbpPairings executable")
    args = parser.parse_args()

    def wanted(name: str) -> bool:
        return args.only is None or any(name.startswith(w) for w in args.only)  # results-book ≠ results

    subprocess.run(  # the bytecode of every module, once (as an installed program has it)
        [sys.executable, "-m", "compileall", "-q", str(Path(__file__).resolve().parent.parent / "app")],
        env=ENV,
        check=True,
    )
    busy = None if args.no_busy else subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        with tempfile.TemporaryDirectory(prefix="xq-bench-commands-") as tmp:
            work = Path(tmp)
            if wanted("pair-160"):
                pair_160(args.repeat, work, args.bbp)
            out = str(work / "out")
            if wanted("excel-5000"):
                on_5000(
                    "excel-5000",
                    args.repeat,
                    work,
                    ["excel", "FILE", "-o", out + ".xlsx"],
                    "≤ 5 s CPU, ≤ 150 MB",
                )
            if wanted("table-cards-5000"):
                on_5000(
                    "table-cards-5000 (2,500 boards of round 1)",
                    args.repeat,
                    work,
                    ["print", "FILE", "table-cards", "--round", "1", "-o", out + ".pdf"],
                    "≤ 2 s",
                )
            if wanted("standings-5000"):
                on_5000("standings-5000", args.repeat, work, ["standings", "FILE", "--group", GROUP], "≤ 1 s")
            if wanted("html-5000"):
                on_5000("html-5000", args.repeat, work, ["html", "FILE", "-o", out + "-site"], "≤ 5 s")
            for doc in DOCUMENTS:
                if wanted(f"print-5000:{doc}"):
                    argv = ["print", "FILE", doc, "-o", out + ".pdf"]
                    if doc == "record-sheets":
                        argv += ["--round", "11"]
                    on_5000(f"print-5000:{doc}", args.repeat, work, argv, "≤ 5 s")
    finally:
        if busy is not None:
            busy.kill()
            busy.wait()


if __name__ == "__main__":
    main()
