"""The hall's security rules: no write without a token, 403 and nothing stored for a bad one, CSRF and
origin checks, rate limits, read-only pages, foreign Host names, the headers on every response."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from app.db.models import PendingResult
from app.engine.types import GameResult
from app.services import hall
from app.services.audit import audit_log
from app.services.results import ResultEntry, enter_results
from app.services.rounds import close_round
from app.services.tournaments import open_tournament
from app.web.app import ThreadOwner, create_app, hall_of
from tests.factories import copy_event

from .conftest import BASE


def stored(db: Any) -> int:
    with db.session() as s:
        return int(s.scalar(select(func.count(PendingResult.id))) or 0)


def audit_count(db: Any) -> int:
    return len(audit_log(db))


@pytest.fixture
def issued(db: Any) -> hall.IssuedToken:
    """A deputy's pass, issued before the hall starts (tests name it before ``client``): a pass issued
    after the start is a change of the file, and the hall would build its pages a second time."""
    return hall.issue_deputy_token(db, "公开组", 9, 12, "张副裁判")


class Passed(NamedTuple):
    """A hall whose file holds a deputy's pass: the client, the open file, the pass."""

    client: TestClient
    db: Any
    issued: hall.IssuedToken


@pytest.fixture(scope="module")
def _passed_hall(midway_template: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Passed]:
    folder = tmp_path_factory.mktemp("passed")
    database = open_tournament(copy_event(midway_template, folder / "event.xqt"))
    issued = hall.issue_deputy_token(database, "公开组", 9, 12, "张副裁判")
    o = ThreadOwner()
    try:
        with TestClient(create_app(database, o, poll_seconds=0.05), base_url=BASE) as c:
            yield Passed(c, database, issued)
    finally:
        o.close()
        database.close()


@pytest.fixture
def passed(_passed_hall: Passed) -> Iterator[Passed]:
    """What ``issued`` and ``client`` are together, for a test whose requests must store nothing: one
    hall per test module on a copy of the midway event with the pass issued before it started (every
    start builds the hot pages, ~0.1 s of CPU). Each test meets the limits as a new hall has them, and
    the file must be as it was after the test (it is checked: a test that stores something, or a
    request that writes, fails here)."""
    state = hall_of(_passed_hall.client.app)
    for limiter in (state.failures, state.requests):
        limiter._buckets.clear()
    before = hall.change_stamp(_passed_hall.db)
    yield _passed_hall
    assert hall.change_stamp(_passed_hall.db) == before, "a test given the shared hall changed the file"
    assert stored(_passed_hall.db) == 0


def csrf_of(client: TestClient, token: str) -> str:
    page = client.get(hall.deputy_path(token))
    assert page.status_code == 200
    return re.search(r'name="csrf" value="([A-Za-z0-9_-]+)"', page.text).group(1)


def post(client: TestClient, token: str, data: dict[str, str], **headers: str) -> Any:
    return client.post(
        hall.deputy_path(token), data=data, headers={"Origin": BASE, **headers}, follow_redirects=False
    )


def test_a_deputy_sends_a_result_that_waits_for_the_chief(issued, client: TestClient, db: Any) -> None:
    page = client.get(hall.deputy_path(issued.token))
    assert page.headers["cache-control"] == "no-store"
    assert [int(b) for b in re.findall(r'<li id="b(\d+)"', page.text)] == [9, 10, 11, 12]
    r = post(
        client, issued.token, {"csrf": csrf_of(client, issued.token), "board": "10", "result": "red_win"}
    )
    assert r.status_code == 303 and r.headers["location"].endswith("?sent=10#b10")
    [line] = hall.pending_results(db, "公开组", 4)
    assert (line.board, line.result, line.deputy) == (10, GameResult.RED_WIN, "张副裁判")
    assert line.device.startswith("testclient ")  # the client's address and its browser
    last = audit_log(db)[-1]
    assert last.action == "deputy_submit_result" and last.who == "副裁判 张副裁判"
    follow = client.get(r.headers["location"])
    assert "第 10 台已提交：红胜，待裁判长确认" in follow.text
    assert [b.result for b in [*hall.pending_results(db, "公开组", 4)]] == [GameResult.RED_WIN]


@pytest.mark.parametrize("token", ["wrong", "A" * 22, "x" * 300, "%00", "..%2f..%2fetc"])
def test_a_wrong_token_gets_403_and_nothing_is_stored(passed: Passed, token: str) -> None:
    client, db, issued = passed
    csrf = csrf_of(client, issued.token)
    before = audit_count(db)
    assert client.get(f"/d/{token}").status_code in (403, 404)
    r = post(client, token, {"csrf": csrf, "board": "10", "result": "red_win"})
    assert r.status_code in (403, 404)
    assert stored(db) == 0 and audit_count(db) == before


@pytest.mark.parametrize("method", ["GET", "POST", "PUT", "DELETE"])
@pytest.mark.parametrize("path", ["/d", "/d/"])
def test_a_missing_token_gets_403(reader: TestClient, reader_db: Any, path: str, method: str) -> None:
    r = reader.request(method, path, data={"board": "1", "result": "red_win"})
    assert r.status_code == 403
    assert stored(reader_db) == 0


def test_the_csrf_field_is_required(issued, client: TestClient, db: Any) -> None:
    for data in (
        {"board": "10", "result": "red_win"},
        {"csrf": "0" * 32, "board": "10", "result": "red_win"},
    ):
        assert post(client, issued.token, data).status_code == 403
    other = hall.issue_deputy_token(db, "公开组", 9, 12, "李副裁判")  # another deputy's field does not fit
    r = post(client, issued.token, {"csrf": csrf_of(client, other.token), "board": "10", "result": "red_win"})
    assert r.status_code == 403
    assert stored(db) == 0


def test_a_post_from_another_site_is_refused(issued, client: TestClient, db: Any) -> None:
    data = {"csrf": csrf_of(client, issued.token), "board": "10", "result": "red_win"}
    assert post(client, issued.token, data, Origin="http://evil.example").status_code == 403
    assert post(client, issued.token, data, Origin="null").status_code == 403
    assert post(client, issued.token, data, **{"Sec-Fetch-Site": "cross-site"}).status_code == 403
    assert stored(db) == 0
    assert post(client, issued.token, data, **{"Sec-Fetch-Site": "same-origin"}).status_code == 303


@pytest.mark.parametrize(
    ("data", "status"),
    [
        ({"board": "13", "result": "red_win"}, 403),  # outside the pass
        ({"board": "10", "result": "pending"}, 400),
        ({"board": "10", "result": "2-0"}, 400),
        ({"board": "-1", "result": "draw"}, 400),
        ({"board": "99999999999", "result": "draw"}, 400),
        ({"board": "", "result": "draw"}, 400),
    ],
)
def test_bad_entries_store_nothing(passed: Passed, data: dict[str, str], status: int) -> None:
    client, db, issued = passed
    r = post(client, issued.token, {"csrf": csrf_of(client, issued.token), **data})
    assert r.status_code == status
    assert stored(db) == 0


def test_only_a_small_urlencoded_form_is_read(passed: Passed) -> None:
    client, db, issued = passed
    csrf = csrf_of(client, issued.token)
    url = hall.deputy_path(issued.token)
    headers = {"Origin": BASE}
    body = f"csrf={csrf}&board=10&result=red_win"
    assert (
        client.post(url, content=body, headers={**headers, "Content-Type": "text/plain"}).status_code == 400
    )
    assert client.post(url, json={"csrf": csrf, "board": 10}, headers=headers).status_code == 400
    big = body + "&pad=" + "x" * 10_000
    r = client.post(
        url, content=big, headers={**headers, "Content-Type": "application/x-www-form-urlencoded"}
    )
    assert r.status_code == 400
    assert stored(db) == 0


def test_tokens_expire_at_the_close_of_the_round(client: TestClient, db: Any) -> None:
    issued = hall.issue_deputy_token(db, "公开组", 1, 60, "张副裁判")
    csrf = csrf_of(client, issued.token)
    pending = [b.board for b in hall.deputy_view(db, issued.token).boards if b.recorded.is_pending]
    assert pending  # the rest of the round's results, entered at once (one change, not one a board)
    enter_results(db, "公开组", 4, [ResultEntry(b, GameResult.DRAW) for b in pending])
    close_round(db, "公开组", 4)
    assert client.get(hall.deputy_path(issued.token)).status_code == 403
    assert post(client, issued.token, {"csrf": csrf, "board": "1", "result": "draw"}).status_code == 403
    assert stored(db) == 0


def test_a_revoked_token_is_refused(issued, client: TestClient, db: Any) -> None:
    csrf = csrf_of(client, issued.token)
    hall.revoke_deputy_token(db, issued.deputy_pass.id)
    assert post(client, issued.token, {"csrf": csrf, "board": "10", "result": "draw"}).status_code == 403
    assert stored(db) == 0


def test_repeated_failures_are_refused_for_a_while(passed: Passed) -> None:
    client, _, issued = passed
    statuses = [client.get(f"/d/guess{i:03d}").status_code for i in range(12)]
    assert statuses[:10] == [403] * 10 and statuses[-1] == 429
    assert client.get(hall.deputy_path(issued.token)).status_code == 429  # even with a good token now


def test_requests_are_rate_limited(passed: Passed) -> None:
    client, _, issued = passed
    statuses = [client.get(hall.deputy_path(issued.token)).status_code for _ in range(40)]
    assert statuses[0] == 200 and 429 in statuses


PUBLIC = [
    "/",
    "/g/1/",
    "/g/1/r/4/",
    "/g/1/r/4/b/1",
    "/g/1/standings",
    "/g/1/crosstable",
    "/g/1/teams",
    "/g/2/bracket",
    "/g/1/entries",
    "/find",
    "/events",
    "/version",
    "/static/hall.js",
]


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
def test_player_pages_never_accept_writes(passed: Passed, method: str) -> None:
    client, db, issued = passed
    csrf = csrf_of(client, issued.token)
    before = audit_count(db)
    for path in PUBLIC:
        r = client.request(
            method, path, data={"csrf": csrf, "board": "10", "result": "red_win", "token": issued.token}
        )
        assert r.status_code == 405, (method, path)
    assert stored(db) == 0 and audit_count(db) == before


@pytest.fixture
def read_only_client(db: Any) -> Iterator[TestClient]:
    with TestClient(create_app(db, None), base_url=BASE) as c:
        yield c


def test_without_an_owner_nothing_is_written(issued, read_only_client: TestClient, db: Any) -> None:
    csrf = csrf_of(read_only_client, issued.token)
    r = post(read_only_client, issued.token, {"csrf": csrf, "board": "10", "result": "draw"})
    assert r.status_code == 503
    assert stored(db) == 0


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("127.0.0.1:8080", 200),
        ("192.168.1.10:8080", 200),
        ("[::1]:8080", 200),
        ("localhost", 200),
        ("evil.example", 400),
        ("evil.example:8080", 400),
        ("127.0.0.1.nip.io", 400),
        ("", 400),
    ],
)
def test_only_addresses_are_accepted_as_host(reader: TestClient, host: str, status: int) -> None:
    assert reader.get("/", headers={"Host": host}).status_code == status


def test_security_headers_on_every_response(passed: Passed) -> None:
    client, _, issued = passed
    for path in ("/", "/g/1/", "/nothing", "/d/wrong", hall.deputy_path(issued.token), "/static/hall.css"):
        h = client.get(path).headers
        assert (
            "default-src 'none'" in h["content-security-policy"]
            and "script-src 'self'" in h["content-security-policy"]
        )
        assert "frame-ancestors 'none'" in h["content-security-policy"]
        assert h["x-content-type-options"] == "nosniff"
        assert h["referrer-policy"] == "same-origin"
        assert h["x-frame-options"] == "DENY"


def test_the_owner_runs_the_write_not_the_server(db: Any, issued) -> None:
    """The write happens in the owner's thread (the window's, in the program)."""
    import threading

    threads: list[str] = []

    class Recording(ThreadOwner):
        def submit(self, action):  # type: ignore[no-untyped-def]
            def run():  # type: ignore[no-untyped-def]
                threads.append(threading.current_thread().name)
                return action()

            return super().submit(run)

    owner = Recording()
    try:
        with TestClient(create_app(db, owner), base_url=BASE) as c:
            r = post(c, issued.token, {"csrf": csrf_of(c, issued.token), "board": "9", "result": "draw"})
            assert r.status_code == 303
    finally:
        owner.close()
    assert len(threads) == 1 and threads[0].startswith("hall-owner")
    assert stored(db) == 1
