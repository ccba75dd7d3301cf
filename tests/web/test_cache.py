"""The kept answers (app/web/cache.py) in front of the hall application: a page's answer built once per
version and sent as kept, 304 for a matching tag, dropped when the file changes; what must never be
kept is not; the host rule still applies; one address cannot flood."""

from __future__ import annotations

import gzip
import re
import socket
import time
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.engine.types import GameResult
from app.services import hall
from app.services.results import enter_result
from app.web.app import ThreadOwner, _host_allowed, create_app, hall_of
from app.web.cache import PageCache
from app.web.server import HallServer
from app.web.site import HallSite

from .conftest import BASE


@pytest.fixture
def kept(db: Any, owner: ThreadOwner) -> Iterator[tuple[TestClient, PageCache, Any]]:
    application = create_app(db, owner, poll_seconds=0.05)
    state = hall_of(application)

    def version() -> int | None:
        return state.site.current.version if state.site.current is not None else None

    cache = PageCache(application, version=version, host_allowed=_host_allowed)
    with TestClient(cache, base_url=BASE) as client:
        yield client, cache, state


def test_a_page_is_built_once_per_version_and_sent_as_kept(kept: Any) -> None:
    client, cache, _ = kept
    first = client.get("/g/1/")
    second = client.get("/g/1/")
    assert first.status_code == second.status_code == 200
    assert cache.hits == 1 and cache.passed == 1
    assert second.content == first.content
    assert {k: v for k, v in second.headers.items() if k != "date"} == {
        k: v for k, v in first.headers.items() if k != "date"
    }
    assert "default-src 'none'" in second.headers["content-security-policy"]
    part = client.get("/g/1/?part=main")  # the refresh of <main>: kept apart from the whole page
    assert part.status_code == 200 and len(part.content) < len(first.content)
    assert client.get("/g/1/?part=main").content == part.content and cache.hits == 2


def test_a_matching_tag_gets_304_without_a_body(kept: Any) -> None:
    client, cache, _ = kept
    page = client.get("/g/1/standings")
    again = client.get("/g/1/standings", headers={"If-None-Match": page.headers["etag"]})
    assert again.status_code == 304 and again.content == b"" and cache.hits == 1
    assert again.headers["etag"] == page.headers["etag"] and "content-length" not in again.headers


def test_a_change_to_the_file_drops_what_was_kept(kept: Any, db: Any, owner: ThreadOwner) -> None:
    client, _, state = kept
    before = client.get("/g/1/")
    assert client.get("/g/1/").content == before.content
    owner.submit(lambda: enter_result(db, "公开组", 4, 9, GameResult.DRAW)).result()
    state.changed()
    deadline = time.monotonic() + 10
    while client.get("/version").text == before.headers["x-hall-version"] and time.monotonic() < deadline:
        time.sleep(0.05)
    after = client.get("/g/1/")
    assert after.headers["x-hall-version"] != before.headers["x-hall-version"]
    assert after.content != before.content
    assert client.get("/g/1/", headers={"If-None-Match": before.headers["etag"]}).status_code == 200


def test_deputies_and_foreign_hosts_are_never_answered_from_what_is_kept(kept: Any, db: Any) -> None:
    client, cache, _ = kept
    issued = hall.issue_deputy_token(db, "公开组", 9, 12, "张副裁判")
    for _ in range(2):
        assert client.get(hall.deputy_path(issued.token)).status_code == 200
    assert cache.hits == 0 and not cache.entries
    client.get("/g/1/")
    client.get("/g/1/")
    assert cache.hits == 1
    assert client.get("/g/1/", headers={"Host": "evil.example"}).status_code == 400  # DNS rebinding
    assert cache.hits == 1  # the foreign host went to the application, which refused it


def test_searches_are_kept_within_a_budget_of_their_own(db: Any, owner: ThreadOwner) -> None:
    application = create_app(db, owner)
    state = hall_of(application)

    def version() -> int | None:
        return state.site.current.version if state.site.current is not None else None

    cache = PageCache(application, version=version, host_allowed=_host_allowed, max_searches=2)
    with TestClient(cache, base_url=BASE) as client:
        for q in ("王", "李", "张"):
            first = client.get("/find", params={"q": q})
            assert first.status_code == 200 and client.get("/find", params={"q": q}).content == first.content
        assert cache.hits == 2 and cache.searches == 2  # the third search was not kept
        assert client.get("/g/1/").status_code == 200 and client.get("/g/1/").status_code == 200
        assert cache.hits == 3  # pages are still kept beyond the searches' budget


def test_gzip_and_plain_are_kept_apart(kept: Any) -> None:
    client, cache, _ = kept
    zipped = client.get("/g/1/", headers={"Accept-Encoding": "gzip"})
    plain = client.get("/g/1/", headers={"Accept-Encoding": "identity"})
    assert zipped.headers.get("content-encoding") == "gzip" and "content-encoding" not in plain.headers
    again = client.get("/g/1/", headers={"Accept-Encoding": "identity"})
    assert again.content == plain.content and "content-encoding" not in again.headers and cache.hits == 1


def test_one_address_cannot_flood(db: Any, owner: ThreadOwner) -> None:
    application = create_app(db, owner)
    cache = PageCache(application, version=lambda: None, host_allowed=_host_allowed, rate=(0.01, 20))
    flood = TestClient(cache, base_url=BASE, client=("192.168.1.50", 40000))
    codes = [flood.get("/static/hall.css").status_code for _ in range(40)]
    assert codes.count(200) == 20 and codes.count(429) == 20
    phone = TestClient(cache, base_url=BASE, client=("192.168.1.51", 40000))
    assert phone.get("/static/hall.css").status_code == 200  # another phone is not held back
    r = TestClient(cache, base_url=BASE, client=("192.168.1.50", 40001)).get("/")
    assert r.status_code == 429 and r.headers["retry-after"] == "5"
    assert r.headers["x-content-type-options"] == "nosniff"


def raw_get(port: int, path: str, extra: str = "") -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{extra}\r\n".encode())
        data = b""
        while b"\r\n\r\n" not in data:
            data += sock.recv(65536)
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(re.search(rb"content-length: (\d+)", head).group(1)) if b"content-length" in head else 0
        while len(body) < length:
            body += sock.recv(65536)
    return data if not length else head + b"\r\n\r\n" + body


def without_date(answer: bytes) -> bytes:
    """The answer without the date of the second (and the time the page was built, which it shows)."""
    return re.sub(rb"date: [^\r]*\r\n", b"", answer)


def comparable(answer: bytes) -> bytes:
    head, _, body = without_date(answer).partition(b"\r\n\r\n")
    if b"content-encoding: gzip" in head:
        body = gzip.decompress(body)
        head = re.sub(rb"content-length: \d+", b"", head)  # the time shown compresses differently
    return head + re.sub("更新于 [0-9:]+".encode(), b"", body)


@pytest.mark.parametrize("extra", ["", "Accept-Encoding: gzip, deflate\r\n"])
def test_the_fast_path_sends_the_same_answer_as_the_application(
    db: Any, owner: ThreadOwner, extra: str
) -> None:
    answers = {}
    for fast in (True, False):
        server = HallServer(db, owner, port=0, fast_path=fast)
        server.start()
        try:
            first = raw_get(server.port, "/g/1/?part=main", extra)
            second = raw_get(server.port, "/g/1/?part=main", extra)
            tag = re.search(rb"etag: ([^\r]*)", second).group(1).decode()
            unchanged = raw_get(server.port, "/g/1/?part=main", extra + f"If-None-Match: {tag}\r\n")
            assert server.cache is not None and server.cache.hits == 2 and server.cache.passed == 1
        finally:
            server.stop()
        assert without_date(first) == without_date(second) and b"date: " in second
        assert unchanged.startswith(b"HTTP/1.1 304 ")
        answers[fast] = (comparable(second), without_date(unchanged))
    assert answers[True] == answers[False]


def test_each_board_of_the_current_rounds_is_rendered_before_a_version_is_announced(db: Any) -> None:
    site = HallSite(db)
    site.refresh()
    snap = site.current
    assert snap is not None
    for g in snap.groups:
        assert g.current is not None
        boards = {r.board for r in snap.model(("round", g.index, g.current.number)).rows}
        assert boards and all(("board", g.index, g.current.number, b) in snap.pages for b in boards)
