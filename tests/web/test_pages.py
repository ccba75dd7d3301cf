"""The hall's public pages: every page reachable, no personal number anywhere, search, what is shown when."""

from __future__ import annotations

import gzip
import re
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from starlette.testclient import TestClient

from app.engine.types import GameResult
from app.services import hall
from app.services.registration import list_players
from app.services.results import enter_result
from app.services.snapshot import import_snapshot
from app.web.app import ThreadOwner, create_app, hall_of
from app.web.site import path_of
from tests.factories import player, snapshot, swiss_round

from .conftest import BASE, started
from .htmltree import parse

ID_LIKE = re.compile(r"(?<!\d)\d{17}[\dXx](?!\d)|(?<!\d)\d{15}(?!\d)")
PHONE_LIKE = re.compile(r"(?<!\d)1[3-9]\d{9}(?!\d)")


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.scripts: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "a" and values.get("href"):
            self.hrefs.append(str(values["href"]))
        if tag == "script":
            self.scripts.append(values)


def crawl(client: TestClient, start: list[str]) -> dict[str, str]:
    """Every page reachable from ``start`` by following links on the hall (bounded)."""
    seen: dict[str, str] = {}
    todo = list(start)
    while todo and len(seen) < 2000:
        path = todo.pop()
        if path in seen:
            continue
        r = client.get(path)
        assert r.status_code == 200, (path, r.status_code)
        seen[path] = r.text
        for href in [a.attrs["href"] for a in parse(r.text).all("a") if a.attrs.get("href")]:
            url = urlsplit(urljoin(BASE + path, href))
            assert url.netloc in ("", "127.0.0.1"), f"{path} links outside the hall: {href}"
            if url.path not in seen:
                todo.append(url.path + (f"?{url.query}" if url.query else ""))
    return seen


def test_every_page_is_reachable_answers_and_carries_no_personal_number(
    db: Any, request: pytest.FixtureRequest
) -> None:
    issued = hall.issue_deputy_token(db, "公开组", 1, 60, "张副裁判")
    client = started(request)
    site = hall_of(client.app).site
    every = [path_of(k) for k in site.all_keys()]
    pages = crawl(client, ["/", *every])
    pages[hall.deputy_path(issued.token)] = client.get(hall.deputy_path(issued.token)).text
    pages["/find?q=1"] = client.get("/find?q=1").text
    assert {"/", "/g/1/", "/g/1/standings", "/g/1/crosstable", "/g/1/teams", "/g/2/bracket"} <= set(pages)
    assert len([p for p in pages if "/b/" in p]) > 100  # every board of every round has its page
    assert len([p for p in pages if "/p/" in p]) == 160  # and every player (their own pages)
    assert {"/schedule", "/g/1/entries/names", "/g/1/r/4/names"} <= set(pages)
    people = list_players(db)
    text = "\n".join(pages.values())
    for p in people:
        assert p.id_number not in text, p.name
        assert p.phone not in text, p.name
    for path, body in pages.items():
        assert not ID_LIKE.search(body), path
        assert not PHONE_LIKE.search(body), path
    assert sum(p.name in text for p in people) == len(people)  # and yet everybody is named


def test_pages_need_nothing_from_outside(reader: TestClient) -> None:
    for path in ("/", "/g/1/", "/g/1/standings", "/g/2/bracket", "/g/1/r/4/b/1"):
        body = reader.get(path).text
        parser = Links()
        parser.feed(body)
        assert parser.scripts == [{"src": "/static/hall.js?v=3", "defer": None}]
        assert "<style" not in body and " style=" not in body  # the CSP allows neither
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", body), path
    assert reader.get("/static/hall.css").headers["content-type"].startswith("text/css")
    assert "EventSource" in reader.get("/static/hall.js").text


def test_the_group_page_is_the_current_round_with_results_as_entered(client: TestClient, db: Any) -> None:
    body = client.get("/g/1/").text
    assert "公开组 第 4 轮" in body and "已录入 4 台" in body
    enter_result(db, "公开组", 4, 9, GameResult.DRAW)
    site = hall_of(client.app).site
    site.refresh()
    body = client.get("/g/1/").text
    assert "已录入 5 台" in body
    assert re.search(r'id="b9".*?<span class="res">和', body)


def test_standings_are_after_the_last_complete_round(reader: TestClient) -> None:
    assert "名次（第 3 轮后）" in reader.get("/g/1/standings").text
    assert "第 3 轮后" in reader.get("/g/1/crosstable").text
    index = reader.get("/").text
    assert "名次（第 3 轮后）" in index and "第 4 轮对阵与成绩" in index


def test_prizes_are_shown_only_once_final(reader: TestClient) -> None:
    assert reader.get("/prizes").status_code == 404
    assert "/prizes" not in reader.get("/").text


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("/g/9/", 404),
        ("/g/1/r/99/", 404),
        ("/g/1/r/4/b/999", 404),
        ("/g/0/standings", 404),
        ("/nothing", 404),
    ],
)
def test_pages_that_do_not_exist(reader: TestClient, path: str, status: int) -> None:
    assert reader.get(path).status_code == status


def test_board_search_on_the_server(reader: TestClient) -> None:
    body = reader.get("/g/1/r/4/").text
    boards = re.findall(r'<li class="board[^"]*" id="b(\d+)"', body)
    assert len(boards) == 60
    name = re.search(
        r'id="b17".*?<div class="p red"><b><a class="name" href="[^"]+">([^<]+)</a></b>', body
    ).group(1)
    found = reader.get("/g/1/r/4/", params={"q": name}).text
    assert 'id="b17"' in found and len(re.findall(r'<li class="board', found)) < 5
    assert 'id="b17"' in reader.get("/g/1/r/4/", params={"q": "17"}).text
    everywhere = reader.get("/find", params={"q": name}).text
    assert "公开组 第 4 轮" in everywhere and 'id="b17"' in everywhere
    assert "没有找到" in reader.get("/find", params={"q": "不存在的名字"}).text
    assert reader.get("/find", params={"q": "x" * 5000}).status_code == 200


def test_a_refresh_is_only_the_main_part(reader: TestClient) -> None:
    whole = reader.get("/g/1/")
    part = reader.get("/g/1/?part=main")
    assert part.text in whole.text and "<html" not in part.text
    assert part.headers["x-hall-version"] == whole.headers["x-hall-version"]


def test_pages_are_compressed_and_revalidated(reader: TestClient) -> None:
    r = reader.get("/g/1/", headers={"Accept-Encoding": "gzip"})
    assert r.headers["content-encoding"] == "gzip"
    raw = reader.get("/g/1/", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in raw.headers
    assert len(gzip.compress(raw.content)) < len(raw.content) / 3
    again = reader.get("/g/1/", headers={"If-None-Match": r.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_names_are_escaped(tmp_path: Any) -> None:
    players = [player(1, "<script>alert(1)</script>"), player(2, '"><img src=x>')]
    db = import_snapshot(snapshot(players, [swiss_round(1, [(1, 2, "pending")])]), tmp_path / "x.xqt")
    owner = ThreadOwner()
    try:
        with TestClient(create_app(db, owner), base_url=BASE) as c:
            for path in ("/g/1/", "/g/1/r/1/b/1", "/g/1/entries", "/find?q=%3Cscript"):
                body = c.get(path).text
                assert "<script>alert" not in body and "<img src=x>" not in body, path
                assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body, path
    finally:
        owner.close()
        db.close()
