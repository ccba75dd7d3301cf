"""A small, bounded run of the load tool (bench/hall_load.py) against the real server on 127.0.0.1:
every request answered, every phone's refresh stream told of a change and every phone shown the
result. (Speed is measured by bench/bench_hall.py, not here.)"""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from app.engine.types import GameResult
from app.services import hall
from app.services.results import enter_result
from app.web.app import ThreadOwner
from app.web.server import HallServer
from bench.hall_load import delivery, run_load


@pytest.mark.stress
@pytest.mark.serial
def test_twenty_phones_are_served_and_told_of_a_change(db: Any, owner: ThreadOwner) -> None:
    server = HallServer(db, owner, port=0, poll_seconds=0.2)
    url = server.start()
    commits: list[tuple[int, float]] = []
    try:

        def enter() -> None:
            enter_result(db, "公开组", 4, 9, GameResult.DRAW)
            commits.append((hall.change_stamp(db), time.monotonic()))

        def chief() -> None:
            owner.submit(enter).result()
            server.changed()

        timer = threading.Timer(1.0, chief)
        timer.start()
        figures, tally, _, ended = asyncio.run(run_load(url, clients=20, duration=5.0, think=0.2, budget=60))
        timer.join()
    finally:
        server.stop()
    assert figures["errors"] == 0, figures["first_errors"]
    assert set(figures["statuses"]) <= {"200", "304"}
    assert sum(figures["statuses"].values()) == figures["requests"] > 20
    assert figures["streams_opened"] == 20
    assert figures["versions_seen"] >= 2  # the first version, then the one after the result
    assert figures["refreshes"] >= 20  # every phone fetched its page again
    reached = delivery(tally.seen, commits, ended, window=1.0)
    assert reached["changes_counted"] == 1
    assert reached["not_reached"] == 0 and reached["deliveries"] == 20  # every phone has the result


def test_the_load_tool_only_targets_loopback() -> None:
    with pytest.raises(ValueError, match="loopback"):
        asyncio.run(run_load("http://192.168.1.10:8080", clients=1, duration=1))
    with pytest.raises(ValueError):
        asyncio.run(run_load("http://127.0.0.1:1", clients=50_000, duration=1))
