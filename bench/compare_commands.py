"""Two versions of the program, the same commands, interleaved: CPU, peak memory, and the outputs compared.

``pair-160`` pairs round 6 of the 160-player bench event (:func:`big_event.big_event`), each run on a
fresh copy of it, and also compares every row the two versions stored (the times of day aside).

``--before`` is a folder holding another version's ``app`` package (for instance
``git archive main app | tar -x -C /tmp/before``); the version measured "after" is this checkout's.
Each case runs ``python -m app.cli …`` in a fresh process with ``PYTHONPATH`` at one version, then
at the other, ``--repeat`` times, alternating (on a shared machine the load changes from minute to
minute: run one after the other, the two columns see the same load). Every run's standard output
and output folder are kept and compared byte for byte with the other version's: a difference
stops the comparison. One core is kept busy by another process (``--no-busy`` to skip).

Each version has its own arbiter folder (``XQARBITER_DATA``) for the run: the record of files
already checked (:mod:`app.db.checked`) starts empty, so the first run of "after" checks the file
and the later ones find it checked (reported as ``cpu_first`` and ``cpu_seconds``, the best of the
others).

    python bench/compare_commands.py --before /tmp/before [--only standings html pair-160] [--repeat 3]
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from big_event import GROUP, big_event

HERE = Path(__file__).resolve().parent.parent
# ReportLab's invariant mode: a PDF's date and file identifier fixed, so two versions' PDFs can be compared
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"RL_invariant": "1"}


def run(root: Path, argv: list[str], data: Path, out: Path) -> dict[str, float]:
    env = {**ENV, "PYTHONPATH": str(root), "XQARBITER_DATA": str(data)}
    start = time.perf_counter()
    with open(out, "wb") as stdout:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app.cli", *argv], cwd=root, env=env, stdout=stdout, stderr=subprocess.PIPE
        )
        _, status, usage = os.wait4(proc.pid, 0)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise RuntimeError(f"{' '.join(argv)} failed under {root}: {err}")
    return {
        "cpu_seconds": usage.ru_utime + usage.ru_stime,
        "wall_seconds": time.perf_counter() - start,
        "peak_memory_mb": usage.ru_maxrss / 1024,
    }


_STAMP = re.compile(rb"(\d{4}-\d\d-\d\d )?\d\d:\d\d(:\d\d)?")


def _same_page(a: Path, b: Path) -> bool:
    """Byte for byte, but for the time of day (a page says when it was made: 更新于 09:30:15)."""
    x, y = a.read_bytes(), b.read_bytes()
    return x == y or _STAMP.sub(b"", x) == _STAMP.sub(b"", y)


def same_tree(a: Path, b: Path) -> list[str]:
    """The files that differ (or exist on one side only) between two output folders."""
    cmp = filecmp.dircmp(a, b)
    out = [str(a / n) for n in cmp.left_only + cmp.right_only]
    out += [str(a / n) for n in cmp.common_files if not _same_page(a / n, b / n)]
    for name in cmp.common_dirs:
        out += same_tree(a / name, b / name)
    return out


def same_pdf(a: Path, b: Path) -> bool:
    """Byte for byte; else (the print time on every page is to the minute) the text of every page,
    but for the time of day."""
    if a.read_bytes() == b.read_bytes():
        return True
    from pypdf import PdfReader

    x, y = PdfReader(a).pages, PdfReader(b).pages
    return len(x) == len(y) and all(
        _STAMP.sub(b"", p.extract_text().encode()) == _STAMP.sub(b"", q.extract_text().encode())
        for p, q in zip(x, y, strict=True)
    )


def stored_rows(path: Path) -> bytes:
    """Every row of a tournament file as SQL text, the times of day aside (a run stamps when it paired)."""
    with sqlite3.connect(path) as con:
        return _STAMP.sub(b"", "\n".join(con.iterdump()).encode())


def same_xlsx(a: Path, b: Path) -> bool:
    """The same parts in the same order, each byte for byte but the time the workbook was made
    (``docProps/core.xml``: compared without its dates)."""
    import zipfile

    with zipfile.ZipFile(a) as x, zipfile.ZipFile(b) as y:
        if x.namelist() != y.namelist():
            return False
        stamp = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ?")
        return all(
            x.read(n) == y.read(n)
            or (n == "docProps/core.xml" and stamp.sub(b"", x.read(n)) == stamp.sub(b"", y.read(n)))
            for n in x.namelist()
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--before", required=True, type=Path, help="a folder holding the other version's app/"
    )
    parser.add_argument("--only", nargs="*", default=["standings", "standings-json", "html"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-busy", action="store_true")
    args = parser.parse_args()
    event = str(big_event(5000)) if set(args.only) - {"pair-160"} else ""
    small = str(big_event(160, rounds=5)) if "pair-160" in args.only else ""
    cases = {
        "pair-160": ["pair", "FILE", "--group", GROUP, "--seed", "1"],
        "standings": ["standings", event, "--group", GROUP],
        "standings-json": ["standings", event, "--group", GROUP, "--json"],
        "standings-after-8": ["standings", event, "--group", GROUP, "--after-round", "8"],
        "standings-final": ["standings", event, "--group", GROUP, "--final"],
        "excel": ["excel", event, "-o", "OUT.xlsx"],
        "html": ["html", event, "-o", "OUT"],
        "results-book": ["print", event, "results-book", "-o", "OUT.pdf"],
        "table-cards": ["print", event, "table-cards", "--round", "1", "-o", "OUT.pdf"],
    }
    roots = {"before": args.before.resolve(), "after": HERE}
    for root in roots.values():
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(root / "app")], env=ENV, check=True)
    busy = None if args.no_busy else subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        with tempfile.TemporaryDirectory(prefix="xq-compare-") as tmp:
            work = Path(tmp)
            for case in args.only:
                runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
                for t in range(args.repeat):
                    for side, root in roots.items():
                        site = work / f"{case}-{side}-{t}"
                        argv = [a.replace("OUT", str(site)) for a in cases[case]]
                        if "FILE" in argv:  # a command that writes: a fresh copy for each run
                            shutil.copy(small, f"{site}.xqt")
                            argv = [f"{site}.xqt" if a == "FILE" else a for a in argv]
                        runs[side].append(
                            run(root, argv, work / f"data-{side}", work / f"{case}-{side}-{t}.txt")
                        )
                    said = [
                        (work / f"{case}-{side}-{t}.txt")
                        .read_bytes()
                        .replace(str(work / f"{case}-{side}-{t}").encode(), b"OUT")
                        for side in roots
                    ]
                    said = [
                        s.replace(f"{case}-{side}-{t}".encode(), b"RUN")
                        for s, side in zip(said, roots, strict=True)
                    ]
                    differ = [] if said[0] == said[1] else ["standard output"]
                    if "FILE" in cases[case]:
                        stored = [stored_rows(work / f"{case}-{side}-{t}.xqt") for side in roots]
                        differ += [] if stored[0] == stored[1] else ["the rows stored"]
                    if "OUT" in cases[case]:
                        differ += same_tree(work / f"{case}-before-{t}", work / f"{case}-after-{t}")
                    if "OUT.pdf" in cases[case]:
                        pdfs = [work / f"{case}-{side}-{t}.pdf" for side in roots]
                        differ += [] if same_pdf(*pdfs) else [str(pdfs[0])]
                    if "OUT.xlsx" in cases[case]:
                        books = [work / f"{case}-{side}-{t}.xlsx" for side in roots]
                        differ += [] if same_xlsx(*books) else [str(books[0])]
                    if differ:
                        raise SystemExit(f"{case}: the outputs differ: {differ[:5]}")
                report = {"case": case, "outputs": "identical", "load_average": os.getloadavg()[0]}
                for side, measured in runs.items():
                    report[side] = {
                        "cpu_first": round(measured[0]["cpu_seconds"], 3),
                        "cpu_seconds": round(min(m["cpu_seconds"] for m in measured[1:] or measured), 3),
                        "peak_memory_mb": round(max(m["peak_memory_mb"] for m in measured), 1),
                    }
                print(json.dumps(report, ensure_ascii=False), flush=True)
    finally:
        if busy is not None:
            busy.kill()
            busy.wait()


if __name__ == "__main__":
    main()
