"""Numbers a client puts in a path, a query or a form: a number too long for ``int()``, or digits
``int()`` does not read (①, ²), is "no such page" or "invalid", never a 500."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.services import hall

from .conftest import BASE, started

NINES = "9" * 5000


@pytest.mark.parametrize(
    "path",
    [
        f"/g/1/r/2/b/{NINES}",
        f"/g/{NINES}",
        f"/g/{NINES}/",
        f"/g/1/r/{NINES}",
        f"/g/1/r/{NINES}/",
        f"/g/{NINES}/r/1/b/1",
        *(f"/g/{NINES}/{kind}" for kind in ("standings", "crosstable", "teams", "bracket", "entries")),
        "/g/1/r/2/b/1000000000",  # ten digits: beyond any board
        "/g/01/",  # a leading zero: not the page's address
    ],
)
def test_a_number_no_page_has_is_404(reader: TestClient, path: str) -> None:
    r = reader.get(path, follow_redirects=False)
    assert r.status_code == 404, (path[:40], r.status_code)


def test_the_pages_numbers_still_work(reader: TestClient) -> None:
    assert reader.get("/g/1/r/2/b/1").status_code == 200
    assert reader.get("/g/1/r/4/").status_code == 200
    assert reader.get("/g/1", follow_redirects=False).status_code == 301


def test_a_deputys_numbers_in_the_query_and_the_form(db: Any, request: pytest.FixtureRequest) -> None:
    issued = hall.issue_deputy_token(db, "公开组", 9, 12, "张副裁判")
    client = started(request)
    path = hall.deputy_path(issued.token)
    for sent in (NINES, "①", "²", "-1", "1e3"):
        page = client.get(path, params={"sent": sent})
        assert page.status_code == 200 and "已提交" not in page.text
    csrf = re.search(r'name="csrf" value="([A-Za-z0-9_-]+)"', client.get(path).text).group(1)
    for board in ("①", "٣", NINES, "10.0"):
        r = client.post(
            path,
            data={"csrf": csrf, "board": board, "result": "red_win"},
            headers={"Origin": BASE},
            follow_redirects=False,
        )
        assert r.status_code == 400, board[:10]
    assert hall.pending_results(db, "公开组", 4) == []
