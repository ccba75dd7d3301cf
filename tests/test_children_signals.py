"""The processes the tests start can be stopped with SIGINT (Ctrl+C) even when the run itself was
started with SIGINT ignored, as a background job of a non-interactive shell is (tests/conftest.py)."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = (
    "import signal, subprocess, sys\n"
    "signal.signal(signal.SIGINT, signal.SIG_IGN)\n"  # as a background job of a script starts
    "import tests.conftest\n"
    "code = 'import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)'\n"
    "print(subprocess.run([sys.executable, '-c', code], capture_output=True, text=True).stdout.strip())\n"
)


def test_a_child_of_a_run_started_with_sigint_ignored_takes_ctrl_c() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True", done.stdout + done.stderr


def test_this_run_handles_sigint() -> None:
    assert signal.getsignal(signal.SIGINT) is not signal.SIG_IGN
