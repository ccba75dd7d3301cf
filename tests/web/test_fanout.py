"""The refresh streams' hub on its own (fake ASGI phones): every stream told of each new version, the
announcements spread out, a slow stream sent only the newest, pings, closing, going away."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from app.web.fanout import Hub


class Phone:
    """One refresh stream as the hub sees it: what it was sent, and when."""

    def __init__(self, hub: Hub, slow: float = 0.0) -> None:
        self.hub, self.slow = hub, slow
        self.status: int | None = None
        self.events: list[tuple[float, str]] = []
        self.ended = False
        self.gone = asyncio.Event()

    async def receive(self) -> dict[str, Any]:
        if not hasattr(self, "_asked"):
            self._asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            self.status = message["status"]
            return
        body = message.get("body", b"").decode()
        for line in body.splitlines():
            if line.startswith("data:") or line.startswith(": ping"):
                self.events.append((time.monotonic(), line))
        if not message.get("more_body", False):
            self.ended = True
        if self.slow:
            await asyncio.sleep(self.slow)

    def versions(self) -> list[str]:
        return [line[5:].strip() for _, line in self.events if line.startswith("data:")]

    def run(self) -> asyncio.Task[None]:
        return asyncio.get_running_loop().create_task(self.hub.serve({}, self.receive, self.send))


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_a_thousand_streams_are_told_spread_over_a_fraction_of_a_second() -> None:
    async def run() -> None:
        hub = Hub(batch=25, interval=0.01)
        hub.version = 7
        phones = [Phone(hub) for _ in range(1000)]
        tasks = [p.run() for p in phones]
        await settle()
        assert len(hub.streams) == 1000 and all(p.versions() == ["7"] for p in phones)
        started = time.monotonic()
        hub.publish(8)
        while any(p.versions()[-1] != "8" for p in phones) and time.monotonic() - started < 10:
            await asyncio.sleep(0.005)
        told = sorted((p.events[-1][0], i) for i, p in enumerate(phones))
        spread = told[-1][0] - told[0][0]
        assert all(p.versions() == ["7", "8"] for p in phones)
        assert 0.3 <= spread < 3.0  # 40 batches 10 ms apart (slower on a loaded machine)
        order = [i for _, i in told]
        assert order != sorted(order)  # a random order: no phone is always last
        hub.close()
        await asyncio.gather(*tasks)
        assert all(p.ended for p in phones) and not hub.streams

    asyncio.run(run())


def test_a_slow_stream_is_sent_only_the_newest_version() -> None:
    async def run() -> None:
        hub = Hub(batch=10, interval=0.0)
        slow = Phone(hub, slow=0.2)
        task = slow.run()
        await asyncio.sleep(0.25)
        for v in range(1, 6):  # five versions while its first write is still under way
            hub.publish(v)
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.5)
        assert slow.versions() == ["0", "1", "5"]
        hub.close()
        await task

    asyncio.run(run())


def test_pings_keep_a_quiet_stream_alive_and_a_phone_that_goes_away_is_forgotten() -> None:
    async def run() -> None:
        hub = Hub(ping_seconds=0.05)
        phone = Phone(hub)
        task = phone.run()
        await asyncio.sleep(0.2)
        assert sum(line == ": ping" for _, line in phone.events) >= 2
        phone.gone.set()
        await asyncio.wait_for(task, 2)
        assert not hub.streams

    asyncio.run(run())


def test_beyond_the_most_streams_a_phone_is_told_busy() -> None:
    async def run() -> None:
        hub = Hub(max_streams=3)
        phones = [Phone(hub) for _ in range(4)]
        tasks = [p.run() for p in phones]
        await settle()
        assert [p.status for p in phones] == [200, 200, 200, 503]
        hub.close()
        await asyncio.gather(*tasks)

    asyncio.run(run())
