"""A deputy's page: which knockout game a board is on, a result for a game the board has moved past,
an expired pass said as such with the way back, a page that refreshes itself."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from app.engine.types import GameResult
from app.services import hall
from app.services.results import ResultEntry, enter_result, enter_results
from app.services.rounds import close_round, round_view
from app.services.tournaments import open_tournament
from app.web.app import ThreadOwner, create_app

from .conftest import BASE, started
from .htmltree import parse
from .stages import LOCAL
from .test_security import csrf_of, post, stored


@pytest.fixture
def knockout_db(stage_files: dict[str, Path], tmp_path: Path) -> Iterator[Any]:
    target = tmp_path / "knockout.xqt"
    shutil.copy(stage_files["knockout"], target)
    db = open_tournament(target)
    yield db
    db.close()


@pytest.fixture
def knockout_client(knockout_db: Any) -> Iterator[TestClient]:
    owner = ThreadOwner()
    try:
        with TestClient(create_app(knockout_db, owner, poll_seconds=0.05), base_url=BASE) as c:
            yield c
    finally:
        owner.close()


def _knockout_board(db: Any) -> int:
    return next(
        b.board for b in round_view(db, LOCAL, 10).boards if b.match is not None and b.result.is_pending
    )


def test_the_deputy_page_says_which_knockout_game_a_board_is_on(
    knockout_db: Any, request: pytest.FixtureRequest
) -> None:
    board = _knockout_board(knockout_db)
    issued = hall.issue_deputy_token(knockout_db, LOCAL, board, board, "李副裁判")
    knockout_client = started(request, "knockout_client")
    page = parse(knockout_client.get(hall.deputy_path(issued.token)).text)
    line = page.one("li", id=f"b{board}")
    assert "淘汰赛 第1局 慢棋" in line.one("span", "game").text() and "红黑可能互换" in line.text()
    assert line.one("input", name="game").attrs["value"] == "1"
    # the slow game is drawn: the board moves on to the rapid game, colours swapped
    enter_result(knockout_db, LOCAL, 10, board, GameResult.DRAW)
    again = parse(knockout_client.get(hall.deputy_path(issued.token)).text).one("li", id=f"b{board}")
    assert "淘汰赛 第2局 快棋（换先）" in again.one("span", "game").text()
    red_before = line.one("span", "red").text()[2:]
    assert again.one("span", "black").text()[2:] == red_before


def test_a_result_for_a_game_the_board_has_moved_past_is_refused(
    knockout_db: Any, request: pytest.FixtureRequest
) -> None:
    board = _knockout_board(knockout_db)
    issued = hall.issue_deputy_token(knockout_db, LOCAL, board, board, "李副裁判")
    knockout_client = started(request, "knockout_client")
    csrf = csrf_of(knockout_client, issued.token)
    enter_result(knockout_db, LOCAL, 10, board, GameResult.DRAW)  # the chief entered game 1 meanwhile
    before = stored(knockout_db)
    r = post(
        knockout_client, issued.token, {"csrf": csrf, "board": str(board), "game": "1", "result": "red_win"}
    )
    assert r.status_code == 400
    assert f"第 {board} 台已进入第 2 局" in r.text and "没有提交" in r.text
    assert stored(knockout_db) == before  # nothing stored for the wrong game
    page = parse(r.text).one("main")
    assert page.first("a", href=hall.deputy_path(issued.token)) is not None  # the way back to the page
    ok = post(
        knockout_client, issued.token, {"csrf": csrf, "board": str(board), "game": "2", "result": "red_win"}
    )
    assert ok.status_code == 303 and stored(knockout_db) == before + 1


def test_an_expired_pass_says_so_and_shows_the_way_back(db: Any, request: pytest.FixtureRequest) -> None:
    issued = hall.issue_deputy_token(db, "公开组", 9, 12, "张副裁判")
    client = started(request)
    csrf = csrf_of(client, issued.token)
    pending = [b.board for b in round_view(db, "公开组", 4).boards if b.result.is_pending]
    assert pending  # the round is open: the rest of its results entered at once (one change, not 50)
    enter_results(db, "公开组", 4, [ResultEntry(b, GameResult.DRAW) for b in pending])
    close_round(db, "公开组", 4)
    page = client.get(hall.deputy_path(issued.token))
    assert page.status_code == 403
    assert "第 4 轮已结束，录入令牌随之失效" in page.text and "页面已过期" not in page.text
    assert parse(page.text).one("main").first("a", href="/") is not None
    sent = post(client, issued.token, {"csrf": csrf, "board": "9", "result": "draw"})
    assert sent.status_code == 403 and "录入令牌随之失效" in sent.text and "页面已过期" not in sent.text


def test_a_page_from_before_the_hall_restarted_is_reopened_not_lost(
    db: Any, request: pytest.FixtureRequest
) -> None:
    issued = hall.issue_deputy_token(db, "公开组", 9, 12, "张副裁判")
    client = started(request)
    r = post(client, issued.token, {"csrf": "0" * 32, "board": "9", "result": "draw"})
    assert r.status_code == 403 and "重新打开" in r.text
    main = parse(r.text).one("main")
    assert main.first("a", href=hall.deputy_path(issued.token)) is not None
    assert stored(db) == 0


def test_the_deputy_page_refreshes_itself(db: Any, request: pytest.FixtureRequest) -> None:
    issued = hall.issue_deputy_token(db, "公开组", 9, 12, "张副裁判")
    client = started(request)
    whole = client.get(hall.deputy_path(issued.token))
    assert re.search(r'<script src="/static/hall.js\?v=3" defer>', whole.text)
    assert 'data-v="' in whole.text and 'data-v="0"' not in whole.text
    assert "本页随成绩自动更新" in whole.text
    part = client.get(hall.deputy_path(issued.token) + "?part=main")
    assert part.status_code == 200 and "<html" not in part.text and "副裁判录入" in part.text
    assert part.headers["cache-control"] == "no-store"
