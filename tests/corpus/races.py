"""Two real processes racing for one tournament file's lock.

Two worker processes are started once and take commands on stdin; for each round both are told the
same instant (``t0``) and busy-wait for it, then try to take the lock at once:

- ``create``: no lock file exists — exactly one may win, the other is told the file is in use;
- ``take-over``: a stale lock of a dead process is there and both pass ``take_over`` — exactly one may
  win (before the fix both did, 60 of 60);
- ``churn``: both workers take and release the lock as fast as they can, without ``take_over`` —
  neither may ever be told the other's live lock is stale (before the fix a lock created empty and
  filled afterwards was judged stale: 150 times of 150 in the issue's tries).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

WORKER = r"""
import os, sys, time, traceback
from pathlib import Path
if sys.argv[1] == "slow":  # a slow disk, or a writer descheduled while it writes: 100 ms per write
    _write = os.write
    os.write = lambda fd, data: (time.sleep(0.1), _write(fd, data))[1]
from app.db.lock import FileLockedError, StaleLockError, TournamentLock

held = None
for line in sys.stdin:
    words = line.split()
    try:
        if words[0] == "race":
            path, t0, take_over = Path(words[1]), float(words[2]), words[3] == "1"
            while time.time() < t0:
                pass
            try:
                held = TournamentLock.acquire(path, take_over=take_over)
                print("won", flush=True)
            except FileLockedError:
                print("locked", flush=True)
            except StaleLockError:
                print("stale", flush=True)  # a live lock judged stale: the defect
        elif words[0] == "release":
            if held is not None:
                held.release()
                held = None
            print("released", flush=True)
        elif words[0] == "probe":
            path, seconds = Path(words[1]), float(words[2])
            end = time.time() + seconds
            counts = {"won": 0, "locked": 0, "stale": 0}
            while time.time() < end:
                try:
                    TournamentLock.acquire(path).release()
                    counts["won"] += 1
                except FileLockedError:
                    counts["locked"] += 1
                except StaleLockError:
                    counts["stale"] += 1
            print("probed", counts["won"], counts["locked"], counts["stale"], flush=True)
    except Exception:
        print("traceback", traceback.format_exc().replace("\n", " | "), flush=True)
"""


@dataclass
class RaceReport:
    """What the races did; :attr:`sound` when every round had one winner and no live lock was judged stale."""

    rounds: dict[str, int] = field(default_factory=dict)
    single_winner: dict[str, int] = field(default_factory=dict)
    double_winner: dict[str, int] = field(default_factory=dict)
    no_winner: dict[str, int] = field(default_factory=dict)
    judged_stale: dict[str, int] = field(default_factory=dict)  # a live lock called stale
    tracebacks: list[str] = field(default_factory=list)
    probes: int = 0
    probes_judged_stale: int = 0

    @property
    def sound(self) -> bool:
        return (
            not self.tracebacks
            and not any(self.double_winner.values())
            and not any(self.no_winner.values())
            and not any(self.judged_stale.values())
            and self.probes_judged_stale == 0
            and self.probes > 0
        )


def _worker(root: Path, slow: bool) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(root))
    return subprocess.Popen(
        [sys.executable, "-c", WORKER, "slow" if slow else "fast"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        cwd=root,  # ``python -c`` puts the current folder first on the path: it must be ``root``
    )


def _say(proc: subprocess.Popen[str], line: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()


def _hear(proc: subprocess.Popen[str]) -> str:
    assert proc.stdout is not None
    return proc.stdout.readline().strip()


def _stale_lock(path: Path) -> None:
    Path(str(path) + ".lock").write_text(
        json.dumps(
            {
                "pid": 2**22 + 4321,  # above any pid this machine hands out: a process that is gone
                "host": socket.gethostname(),
                "time": "2024-07-26T09:00:00",
                "program": "xqarbiter",
                "version": "0.1.0",
            }
        ),
        encoding="utf-8",
    )


def run_races(
    rounds: int = 30, churn_seconds: float = 1.5, *, slow: bool = True, root: Path = ROOT
) -> RaceReport:
    """``slow``: every write of the workers takes 100 ms (the window a lock file created empty and filled
    afterwards leaves open becomes wide); ``root``: the source tree the workers import the program
    from (to run the same races against another version)."""
    report = RaceReport()
    a, b = _worker(root, slow), _worker(root, slow)
    try:
        with tempfile.TemporaryDirectory(prefix="xq-race-") as tmp:
            for kind in ("create", "take-over"):
                report.rounds[kind] = report.single_winner[kind] = report.judged_stale[kind] = 0
                report.double_winner[kind] = report.no_winner[kind] = 0
                for i in range(rounds):
                    path = Path(tmp) / f"{kind}-{i}.xqt"
                    path.write_bytes(b"")
                    if kind == "take-over":
                        _stale_lock(path)
                    t0 = time.time() + 0.05
                    flag = "1" if kind == "take-over" else "0"
                    for w in (a, b):
                        _say(w, f"race {path} {t0} {flag}")
                    answers = [_hear(a), _hear(b)]
                    for w in (a, b):
                        _say(w, "release")
                        _hear(w)
                    report.rounds[kind] += 1
                    report.tracebacks += [x for x in answers if x.startswith("traceback")]
                    report.judged_stale[kind] += answers.count("stale")
                    winners = answers.count("won")
                    if winners == 1:
                        report.single_winner[kind] += 1
                    elif winners > 1:
                        report.double_winner[kind] += 1
                    else:
                        report.no_winner[kind] += 1
            path = Path(tmp) / "churn.xqt"
            path.write_bytes(b"")
            for w in (a, b):
                _say(w, f"probe {path} {churn_seconds}")
            for answer in (_hear(a), _hear(b)):
                if answer.startswith("traceback"):
                    report.tracebacks.append(answer)
                elif answer.startswith("probed"):
                    won, locked, stale = (int(x) for x in answer.split()[1:])
                    report.probes += won + locked + stale
                    report.probes_judged_stale += stale
    finally:
        for w in (a, b):
            w.kill()
            w.wait(timeout=10)
    return report


__all__ = ["RaceReport", "run_races"]
