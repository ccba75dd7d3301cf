"""A bounded stress of what runs together: the window's services with the hall on, a file dialog,
and other processes reading the file meanwhile (docs/file-safety.md).

The window runs in a child process (``tests/stress_hall.py``: a SIGBUS would kill it, so it is watched
from outside) for :data:`SECONDS`: results typed as fast as an arbiter types, rounds closed and
paired, a phone reading pages, a save dialog shown on the tournament's folder every 3 s. Beside it:
the command line polling the pairings, a plain SQLite reader (what a read-only second window does),
and this test asking the kernel every half second whether the window still holds SQLite's locks.

The control run adds the one thing no code may do — ``open(FILE-shm).close()`` in the window's
process every 2 s — and must be caught (the window killed, its locks seen gone, or the file damaged):
the harness can fail.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.sqlite_locks import held_by

# a stress of real processes for SECONDS each (make test only; the fast loop leaves the stress tests out)
pytestmark = [
    pytest.mark.stress,
    pytest.mark.skipif(
        not Path("/proc/locks").exists(), reason="POSIX record locks listed in /proc/locks (Linux)"
    ),
]

ROOT = Path(__file__).resolve().parents[2]
SECONDS = 25.0
CLI = [sys.executable, "-m", "app.cli"]
READER = """
import sqlite3, sys, time, pathlib
path, stop = sys.argv[1], pathlib.Path(sys.argv[2])
reads = errors = 0
while not stop.exists():
    try:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
        con.execute("SELECT count(*), sum(result = 'pending') FROM games").fetchone()
        con.close()
        reads += 1
    except sqlite3.Error as exc:
        errors += 1
        print("reader:", exc, flush=True)
    time.sleep(0.02)
print("reads", reads, "errors", errors, flush=True)
"""


@dataclass
class Outcome:
    code: int | None = None
    summary: dict[str, object] = field(default_factory=dict)
    locks_lost: list[dict[str, bool]] = field(default_factory=list)
    poll_failures: list[str] = field(default_factory=list)
    polls: int = 0
    stderr: str = ""

    @property
    def failed(self) -> bool:
        return self.code != 0 or bool(self.locks_lost) or bool(self.summary.get("problems"))


@pytest.fixture(scope="module")
def paired_event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from app.services.demo import create_demo
    from app.services.rounds import pair_next_round

    path = tmp_path_factory.mktemp("stress") / "template.xqt"
    db = create_demo(path, seed=2024)
    pair_next_round(db, "公开组", seed=1)
    db.close()
    return path


def run_stress(template: Path, folder: Path, *, control: bool, seconds: float = SECONDS) -> Outcome:
    path = folder / "event.xqt"
    path.write_bytes(template.read_bytes())
    stop_file = folder / "stop"
    phase = folder / "phase"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    args = [
        sys.executable,
        "-X",
        "faulthandler",
        "-m",
        "tests.stress_hall",
        str(path),
        "--seconds",
        str(seconds),
        "--phase-file",
        str(phase),
    ]
    window = subprocess.Popen(
        [*args, *(["--control"] if control else [])],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    outcome = Outcome()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not phase.exists() and window.poll() is None:
        time.sleep(0.1)
    reader = subprocess.Popen(
        [sys.executable, "-c", READER, str(path), str(stop_file)], stdout=subprocess.PIPE, text=True
    )
    done = threading.Event()

    def poll_pairings() -> None:
        while not done.is_set():
            run = subprocess.run(
                [*CLI, "pairings", str(path), "--group", "公开组", "--json"],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                timeout=60,
            )
            outcome.polls += 1
            if run.returncode != 0 and window.poll() is None:
                outcome.poll_failures.append(run.stderr.strip()[-300:])

    pollers = [threading.Thread(target=poll_pairings, daemon=True) for _ in range(2)]
    for p in pollers:
        p.start()
    try:
        while window.poll() is None and time.monotonic() < deadline + seconds:
            seen = held_by(path, window.pid)
            if not all(seen.values()):
                # a connection being opened holds FILE's lock a moment before it maps FILE-shm (the
                # window then has no mapping to lose): a lost lock is one still lost a moment later
                time.sleep(0.05)
                seen = held_by(path, window.pid)
            if window.poll() is None and _running(phase) and not all(seen.values()):
                outcome.locks_lost.append(seen)
                if control:
                    break  # caught: no need to wait for the crash
            time.sleep(0.5)
    finally:
        if window.poll() is None and control and outcome.locks_lost:
            window.send_signal(signal.SIGKILL)
        try:
            out, err = window.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            window.kill()
            out, err = window.communicate()
        done.set()
        stop_file.write_text("stop")
        reader_out, _ = reader.communicate(timeout=60)
        for p in pollers:
            p.join(90)
    outcome.code = window.returncode
    outcome.stderr = err[-2000:]
    lines = [line for line in out.splitlines() if line.startswith("{")]
    outcome.summary = json.loads(lines[-1]) if lines else {}
    if "errors 0" not in reader_out:
        outcome.poll_failures.append(reader_out.strip()[-500:])
    return outcome


def _running(phase: Path) -> bool:
    try:
        return phase.read_text() == "running"
    except OSError:
        return False


def test_window_with_the_hall_dialogs_and_other_readers_runs_clean(
    paired_event: Path, tmp_path: Path
) -> None:
    outcome = run_stress(paired_event, tmp_path, control=False)
    assert outcome.code == 0, (outcome.code, outcome.summary, outcome.stderr)
    assert not outcome.locks_lost, outcome.locks_lost[:3]
    assert not outcome.poll_failures, outcome.poll_failures[:3]
    summary = outcome.summary
    assert summary["problems"] == [] and summary["entered"] == summary["stored"], summary
    assert (
        int(summary["entered"]) > 20 and int(summary["dialogs"]) >= 5 and int(summary["phone_reads"]) > 50
    ), summary
    assert outcome.polls >= 4


def test_the_harness_catches_a_raw_open_of_the_index_in_the_windows_process(
    paired_event: Path, tmp_path: Path
) -> None:
    outcome = run_stress(paired_event, tmp_path, control=True)
    assert outcome.failed, outcome
