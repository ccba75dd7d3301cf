"""Crash safety: a process entering results is killed with SIGKILL at random moments, again and again.

After every kill the file must open (taking over the dead process's lock), pass ``integrity_check``
and hold every result the process had reported as committed (a result is reported only after
``enter_result`` returned, i.e. after the commit with ``synchronous=FULL``).
"""

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.db.integrity import integrity_problems
from app.selftest import sample_snapshot
from app.services.snapshot import export_snapshot, import_snapshot
from app.services.tournaments import open_tournament

KILLS = 50
BOARDS = 20
CODES = ("red_win", "draw", "black_win", "red_forfeit", "black_forfeit")

# A zygote imports the program once, then forks one writer per round of the test: each writer is a
# separate process killed with a real SIGKILL, without paying the start-up (imports) fifty times.
ZYGOTE = """
import os, sys
from app.services.results import enter_result
from app.services.tournaments import open_tournament

path, group, boards = sys.argv[1], sys.argv[2], int(sys.argv[3])
codes = ("red_win", "draw", "black_win", "red_forfeit", "black_forfeit")
for command in sys.stdin:
    word, arg = command.split()
    if word == "reap":
        os.waitpid(int(arg), 0)
        print("reaped", flush=True)
        continue
    pid = os.fork()
    if pid:
        print("pid", pid, flush=True)
        continue
    db = open_tournament(path, take_over=True)  # the writer: runs until it is killed
    print("ready", flush=True)
    i = int(arg)
    while True:
        enter_result(db, group, 1, i % boards + 1, codes[i % len(codes)])
        print(i, flush=True)
        i += 1
"""

pytestmark = [
    pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL is POSIX"),
    pytest.mark.stress,
    pytest.mark.serial,
]


def _expected(i: int) -> tuple[int, str]:
    return i % BOARDS + 1, CODES[i % len(CODES)]


def test_results_survive_fifty_kills(tmp_path: Path) -> None:
    path = tmp_path / "crash.xqt"
    snapshot = sample_snapshot(2 * BOARDS, rounds=1)
    group = snapshot["rounds"][0]["group"]
    import_snapshot(snapshot, path).close()
    rng = random.Random(20240726)
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2]))
    committed: dict[int, str] = {}  # board → last result reported as committed
    next_i = 0
    total_reported = 0
    zygote = subprocess.Popen(
        [sys.executable, "-c", ZYGOTE, str(path), group, str(BOARDS)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert zygote.stdin is not None and zygote.stdout is not None

    def hung(_signum: int, _frame: object) -> None:
        raise TimeoutError("the crash test stopped making progress (a pipe read never returned)")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(240)  # fail, never hang the whole suite
    try:
        for kill in range(KILLS):
            zygote.stdin.write(f"go {next_i}\n")
            zygote.stdin.flush()
            word, pid = zygote.stdout.readline().split()
            assert word == "pid"
            assert zygote.stdout.readline().strip() == "ready", f"kill {kill}: the writer did not start"
            out = []
            if kill % 2:
                # every other kill waits for a first commit, so that a loaded machine (slow commits) still
                # kills writers in the middle of a run of commits, not only before the first one
                out.append(zygote.stdout.readline().strip())
            time.sleep(rng.uniform(0.0, 0.08))
            os.kill(int(pid), signal.SIGKILL)
            zygote.stdin.write(f"reap {pid}\n")
            zygote.stdin.flush()
            for line in zygote.stdout:
                text = line.strip()
                if text.endswith("reaped"):
                    # a writer killed in the middle of printing leaves a partial number before the zygote's
                    # "reaped": that entry is not reported (it is the in-flight one below)
                    break
                out.append(text)
            else:
                pytest.fail("the zygote died")
            reported = [int(x) for x in out]
            assert reported == list(range(next_i, next_i + len(reported)))
            for i in reported:
                board, code = _expected(i)
                committed[board] = code
            in_flight = _expected(next_i + len(reported))  # may or may not have committed
            next_i += len(reported) + 1  # never reuse the in-flight number: its outcome is unknown
            total_reported += len(reported)

            assert integrity_problems(path, writable=True) == [], f"kill {kill}: file damaged"
            db = open_tournament(path, take_over=True)  # the dead writer's lock is taken over
            try:
                games = {g["board"]: g["result"] for g in export_snapshot(db)["rounds"][0]["games"]}
            finally:
                db.close()
            for board, code in committed.items():
                if games[board] != code:
                    assert (board, games[board]) == in_flight, f"kill {kill}: board {board} lost {code}"
                    committed[board] = games[board]
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        zygote.kill()
        zygote.wait(timeout=10)
    assert total_reported >= KILLS // 2, "the writers were killed before they ever committed"
