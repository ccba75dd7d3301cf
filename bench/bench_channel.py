"""The command line beside a running hall: how long a command takes through the owner's channel, and
how soon the phones see a result typed on the command line. Prints JSON.

Measured with ``xqarbiter serve`` owning the demo event (160 players, 公开组 round 1 paired):

- ``channel_round_trip_ms``: the channel alone — handshake, a command line sent, an answer back — to an
  owner whose handler answers at once (p50 / p95 over 200 calls, both transports);
- ``hosted_read_ms`` / ``hosted_write_ms``: ``pairings --json`` / ``result`` asked of ``serve`` from this
  process (the channel plus the owner running the command with its open file);
- ``cli_result_s``: a whole ``xqarbiter result`` process beside ``serve`` (interpreter start included),
  and the same command with nobody owning the file, for comparison;
- ``command_to_phone_s``: from the moment ``xqarbiter result`` returns (negative: the phone knew
  before the command had returned), and from its start, until a phone holding the refresh stream is
  told of the new version (goal: 2 s).

A process keeps one core busy for the whole run (``--no-busy`` to skip).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GROUP = "公开组"


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(ordered[int(len(ordered) * 0.95) - 1], 2),
        "max": round(ordered[-1], 2),
    }


def channel_alone(folder: Path, transport: str, calls: int) -> dict[str, float]:
    from app.channel.client import ask_owner
    from tests.cli.test_owner_channel import EchoOwner

    os.environ["XQARBITER_CHANNEL"] = transport
    path = folder / f"echo-{transport}.xqt"
    path.write_bytes(b"")
    owner = EchoOwner(path, folder / f"calls-{transport}.jsonl")
    try:
        times = []
        for _ in range(calls):
            started = time.perf_counter()
            answer = ask_owner(path, ["pairings", "x"], "/")
            times.append((time.perf_counter() - started) * 1000)
            assert answer is not None and answer.code == 0
    finally:
        owner.stop()
        os.environ.pop("XQARBITER_CHANNEL", None)
    return percentiles(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-busy", action="store_true", help="do not load a core with another process")
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    os.environ.setdefault("XQARBITER_RUN_DIR", tempfile.mkdtemp(prefix="xqrun-"))
    busy = None if args.no_busy else subprocess.Popen([sys.executable, "-c", "while True: pass"])
    folder = Path(tempfile.mkdtemp(prefix="bench-channel-"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    try:
        from app.channel.client import ask_owner
        from app.services.demo import create_demo
        from app.services.rounds import pair_next_round
        from tests.e2e.test_owner_processes import Phone, free_port, wait_for_channel

        path = folder / "event.xqt"
        db = create_demo(path)
        pair_next_round(db, GROUP, seed=1)
        db.close()
        direct_copy = folder / "direct.xqt"
        shutil.copy(path, direct_copy)

        alone = {t: channel_alone(folder, t, args.calls) for t in ("unix", "tcp")}

        def cli(*argv: str) -> float:
            started = time.perf_counter()
            run = subprocess.run(
                [sys.executable, "-m", "app.cli", *argv], capture_output=True, text=True, env=env, cwd=ROOT
            )
            assert run.returncode == 0, run.stderr
            return time.perf_counter() - started

        direct = [
            cli("result", str(direct_copy), "--group", GROUP, "--round", "1", "--board", str(b), "1-0")
            for b in range(1, 11)
        ]

        port = free_port()
        serve = subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", str(path), "--port", str(port)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        try:
            wait_for_channel(path, serve)
            reads, writes = [], []
            for board in range(1, 41):
                started = time.perf_counter()
                assert ask_owner(path, ["pairings", str(path), "--group", GROUP, "--json"], "/").code == 0  # type: ignore[union-attr]
                reads.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                code = ask_owner(
                    path,
                    ["result", str(path), "--group", GROUP, "--round", "1", "--board", str(board), "="],
                    "/",
                )
                writes.append((time.perf_counter() - started) * 1000)
                assert code is not None and code.code == 0
            beside, to_phone_end, to_phone_start = [], [], []
            phone = Phone(f"http://127.0.0.1:{port}")
            try:
                for board in range(41, 61):
                    started = time.monotonic()
                    beside.append(
                        cli(
                            "result",
                            str(path),
                            "--group",
                            GROUP,
                            "--round",
                            "1",
                            "--board",
                            str(board),
                            "1-0",
                        )
                    )
                    done = time.monotonic()
                    told = phone.first_version_after(started, done - started + 10)
                    to_phone_end.append(told - done)  # negative: told before the command had returned
                    to_phone_start.append(told - started)
            finally:
                phone.close()
        finally:
            serve.terminate()
            serve.wait(60)
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        print(
            json.dumps(
                {
                    "channel_round_trip_ms": alone,
                    "hosted_read_ms": percentiles(reads),
                    "hosted_write_ms": percentiles(writes),
                    "cli_result_s": {
                        "beside_serve": percentiles(beside),
                        "nobody_owning_the_file": percentiles(direct),
                    },
                    "command_to_phone_s": {
                        "from_the_command_returning": percentiles(to_phone_end),
                        "from_the_command_starting": percentiles(to_phone_start),
                    },
                    "busy_core": busy is not None,
                    "load_average": load,
                },
                indent=1,
            )
        )
    finally:
        if busy is not None:
            busy.kill()
            busy.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
