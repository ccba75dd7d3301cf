"""The hall's pages in headless chromium at 360, 390 and 1280 px: accessibility (axe-core, no level A/AA
violation), tap targets of at least 44×44 px, table headers that stay, round tabs and amounts on screen,
keyboard access to wide tables, "这是我", pages that hold when the Wi-Fi drops, a deputy's result typed
offline, a game record stepped through.

axe-core comes from tests/web/axe (``npm ci`` by ``make test``); it is injected into the page by the
test (the context bypasses the hall's Content-Security-Policy for that), never fetched from a network.
Under ``CI=true`` a missing axe-core fails, as a missing browser does.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.engine.types import GameResult
from app.services import hall
from app.services.game_records import attach_record
from app.services.results import enter_result
from app.services.tournaments import open_tournament
from app.web.app import ThreadOwner
from app.web.server import HallServer

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = (360, 390, 1280)
SHORT_GAME = "1. 炮二平五 马８进７\n2. 马二进三 车９平８\n3. 车一平二 马２进３\n1-0\n"


def _axe_source() -> str:
    if not AXE.exists():
        problem = "axe-core is not installed: run make axe (npm ci in tests/web/axe)"
        if os.environ.get("CI") == "true":
            pytest.fail(problem)
        pytest.skip(problem)
    return AXE.read_text(encoding="utf-8")


@pytest.fixture
def hall_db(db: Any) -> Any:
    """The midway event with a game record on board 1 of the open group's round 4."""
    attach_record(db, "公开组", 4, 1, SHORT_GAME)
    return db


@pytest.fixture
def site(hall_db: Any, owner: ThreadOwner) -> Iterator[tuple[str, HallServer]]:
    server = HallServer(hall_db, owner, port=0, poll_seconds=0.2)
    url = server.start()
    yield url, server
    server.stop()


@pytest.fixture(scope="module")
def final_site(stage_files: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The finished event served read-only (the prize list exists only then)."""
    target = tmp_path_factory.mktemp("final") / "final.xqt"
    shutil.copy(stage_files["final"], target)
    db = open_tournament(target, read_only=True)
    server = HallServer(db, None, port=0, poll_seconds=0.2)
    url = server.start()
    yield url
    server.stop()
    db.close()


def _context(browser: Any, width: int, **options: Any) -> Any:
    mobile = width < 700
    return browser.new_context(
        viewport={"width": width, "height": 800 if mobile else 900},
        is_mobile=mobile,
        has_touch=mobile,
        locale="zh-CN",
        **options,
    )


def _pages(url: str, db: Any) -> list[str]:
    issued = hall.issue_deputy_token(db, "公开组", 1, 12, "张副裁判")
    return [
        "/",
        "/g/1/",
        "/g/1/r/2/",
        "/g/1/r/4/names",
        "/g/1/r/4/b/1",
        "/g/1/r/4/b/1/game/1",
        "/g/1/p/17",
        "/g/2/p/1",
        "/g/1/standings",
        "/g/1/crosstable",
        "/g/1/teams",
        "/g/2/",
        "/g/2/bracket",
        "/g/1/entries",
        "/g/1/entries/names",
        "/schedule",
        "/find?q=1",
        "/nothing-here",
        hall.deputy_path(issued.token),
    ]


AXE_RUN = """async () => {
  const r = await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']}});
  return r.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
}"""


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_passes_axe_at_level_aa(
    browser: Any, site: tuple[str, HallServer], hall_db: Any, final_site: str, width: int
) -> None:
    source = _axe_source()
    context = _context(browser, width, bypass_csp=True)
    page = context.new_page()
    try:
        found = {}
        every = [
            *(site[0] + p for p in _pages(site[0], hall_db)),
            final_site + "/prizes",
            final_site + "/g/2/standings",
        ]
        # every page at a phone's width; a sample of the kinds at the narrowest phone and on a laptop
        sample = ("/g/1/r/4/b/1/game/1", "/g/1/p/17", "/g/1/crosstable", "/g/2/bracket", "/prizes", "/d/")
        for path in every if width == 390 else [p for p in every if any(k in p for k in sample)]:
            page.goto(path)
            if "/d/" in path:  # a result sent: the 已提交待确认 line is on the page too
                page.click("#b11 button[value=black_win]")
                page.wait_for_selector("#b11 .sent")
            page.add_script_tag(content=source)
            violations = page.evaluate(AXE_RUN)
            if violations:
                found[path] = violations
        assert found == {}
    finally:
        context.close()


TARGETS = """() => {
  const small = [];
  for (const el of document.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea')) {
    if (el.offsetParent === null && getComputedStyle(el).position !== 'fixed') continue;
    const r = el.getBoundingClientRect();
    if (r.width < 43.5 || r.height < 43.5) small.push(`${el.tagName} "${(el.textContent || el.value || '').trim().slice(0, 12)}" ${Math.round(r.width)}×${Math.round(r.height)}`);
  }
  return small;
}"""


@pytest.mark.parametrize("width", (360, 1280))
def test_every_tap_target_is_at_least_44_by_44_and_nothing_is_wider_than_the_screen(
    browser: Any, site: tuple[str, HallServer], hall_db: Any, width: int
) -> None:
    context = _context(browser, width)
    page = context.new_page()
    try:
        small, wide = {}, []
        for path in _pages(site[0], hall_db):
            page.goto(site[0] + path)
            if page.evaluate(TARGETS):
                small[path] = page.evaluate(TARGETS)[:5]
            if not page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"):
                wide.append(path)
        assert small == {} and wide == []
    finally:
        context.close()


def test_table_headers_stay_while_a_long_table_scrolls(browser: Any, site: tuple[str, HallServer]) -> None:
    context = _context(browser, 390)
    page = context.new_page()
    try:
        page.goto(site[0] + "/g/1/crosstable")
        page.eval_on_selector(".wrap", "w => { w.scrollIntoView(); w.scrollTop = 1500; }")
        page.wait_for_timeout(100)
        box = page.eval_on_selector(".wrap", "w => w.getBoundingClientRect().top")
        head = page.eval_on_selector("thead th", "th => th.getBoundingClientRect().top")
        assert abs(head - box) <= 2  # the header row is at the top of the scrolled table
        shown = page.eval_on_selector(
            "thead th",
            "th => { const r = th.getBoundingClientRect(); return document.elementFromPoint(r.left + 5, r.top + 5) === th; }",
        )
        assert shown and page.eval_on_selector(".wrap", "w => w.scrollTop") > 1000
    finally:
        context.close()


def test_on_a_narrow_phone_the_current_round_the_team_totals_and_the_amounts_are_on_screen(
    browser: Any, site: tuple[str, HallServer], final_site: str
) -> None:
    context = _context(browser, 360)
    page = context.new_page()
    try:
        page.goto(site[0] + "/g/2/")  # 天水本地组: round 10 of 10 paired
        tab = page.eval_on_selector(
            "nav.rounds a[aria-current]",
            "a => { const r = a.getBoundingClientRect(); return [r.left, r.right, a.textContent]; }",
        )
        assert tab[2] == "10" and tab[0] >= 0 and tab[1] <= 360
        page.goto(site[0] + "/g/1/teams")
        right = page.eval_on_selector("tbody tr td:nth-child(3)", "td => td.getBoundingClientRect().right")
        assert right <= 360  # 名次和 without scrolling sideways
        page.goto(final_site + "/prizes")
        amounts = page.eval_on_selector_all(
            "tbody tr td:nth-child(3)", "tds => tds.map(td => td.getBoundingClientRect().right)"
        )
        assert amounts and max(amounts) <= 360
        for path in ("/g/1/", "/g/1/r/4/b/7"):
            page.goto(site[0] + path)
            broken = page.eval_on_selector_all(
                ".nw", "els => els.filter(e => e.getClientRects().length > 1).length"
            )
            assert broken == 0, path  # "6 分" never breaks across lines
    finally:
        context.close()


def test_a_wide_table_is_reached_and_scrolled_from_the_keyboard(
    browser: Any, site: tuple[str, HallServer]
) -> None:
    context = _context(browser, 390)
    page = context.new_page()
    try:
        page.goto(site[0] + "/g/1/crosstable")
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.classList.contains('wrap')"):
                break
        assert page.evaluate("document.activeElement.getAttribute('role')") == "region"
        for _ in range(6):
            page.keyboard.press("ArrowRight")
        assert page.eval_on_selector(".wrap", "w => w.scrollLeft") > 0
    finally:
        context.close()


def test_this_is_me_is_kept_in_the_browser_and_shows_my_board_first(
    browser: Any, site: tuple[str, HallServer]
) -> None:
    context = _context(browser, 390)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(site[0] + "/g/1/r/4/")
        red = page.get_attribute("#b17", "data-n").split()[0]
        name = page.inner_text("#b17 .p.red b")
        page.goto(site[0] + f"/g/1/p/{red}")
        page.wait_for_selector("#this-is-me:not([hidden])")
        before = len(requests)
        page.click("#this-is-me")
        assert page.get_attribute("#this-is-me", "aria-pressed") == "true"
        page.wait_for_timeout(300)
        assert requests[before:] == []  # nothing sent
        kept = page.evaluate("JSON.parse(localStorage.getItem('xq.me'))")
        assert kept == {"gi": "1", "no": red, "name": name}
        page.goto(site[0] + "/")
        page.wait_for_selector("#me:not([hidden])")
        assert f"{red}号 {name}" in page.inner_text(
            "#me"
        ) and "第 4 轮已编排：第 17 台，执红" in page.inner_text("#me")
        page.goto(site[0] + "/g/1/")
        first = page.eval_on_selector("ol.boards li", "li => [li.id, li.className]")
        assert first[0] == "b17" and "me" in first[1]
    finally:
        context.close()


def test_a_page_seen_keeps_working_offline_and_refreshes_when_the_network_is_back(
    browser: Any, site: tuple[str, HallServer], hall_db: Any, owner: ThreadOwner
) -> None:
    url, server = site
    context = _context(browser, 390)
    page = context.new_page()
    try:
        page.goto(url + "/g/1/standings")
        page.goto(url + "/g/1/")
        assert page.inner_text("#b9 .res").startswith("—")
        context.set_offline(True)
        page.wait_for_selector("#net:not([hidden])", timeout=15_000)
        assert page.inner_text("#net").startswith("离线，0 分钟前")
        page.click("nav.tabs a:has-text('名次')")  # followed in the page: the copy kept when it was seen
        page.wait_for_function("() => document.querySelector('main h1').textContent.includes('名次')")
        assert page.url.endswith("/g/1/standings") and "离线" in page.inner_text("#net")
        page.go_back()
        page.wait_for_selector("#b9")
        owner.submit(lambda: enter_result(hall_db, "公开组", 4, 9, GameResult.DRAW)).result()
        server.changed()
        context.set_offline(False)
        page.wait_for_function(
            "() => document.querySelector('#b9 .res').textContent.startsWith('和')", timeout=20_000
        )
        assert page.is_hidden("#net")
    finally:
        context.close()


def test_a_deputys_result_typed_offline_waits_on_the_phone_and_is_sent_when_the_network_is_back(
    browser: Any, site: tuple[str, HallServer], hall_db: Any
) -> None:
    url, _ = site
    issued = hall.issue_deputy_token(hall_db, "公开组", 9, 12, "张副裁判")
    context = _context(browser, 390)
    page = context.new_page()
    try:
        page.goto(url + hall.deputy_path(issued.token))
        context.set_offline(True)
        page.click("#b11 button[value=black_win]")
        page.wait_for_selector("#b11 .unsent:not([hidden])")
        assert "尚未发送：黑胜" in page.inner_text("#b11 .unsent")
        assert "等待网络" in page.inner_text("#queue")
        assert hall.pending_results(hall_db, "公开组", 4) == []
        context.set_offline(False)
        page.wait_for_selector("#b11 .sent", timeout=20_000)
        assert "已提交待确认：黑胜" in page.inner_text("#b11")
        [line] = hall.pending_results(hall_db, "公开组", 4)
        assert (line.board, line.result) == (11, GameResult.BLACK_WIN)
        assert page.evaluate("JSON.parse(localStorage.getItem('xq.queue'))") == []
        # a result that can no longer be sent says so and stays on the phone, marked
        context.set_offline(True)
        page.click("#b12 button[value=draw]")
        page.wait_for_selector("#b12 .unsent:not([hidden])")
        hall.revoke_deputy_token(hall_db, issued.deputy_pass.id)
        context.set_offline(False)
        page.wait_for_function(
            "() => document.querySelector('#b12 .unsent').textContent.startsWith('未提交')", timeout=20_000
        )
        assert "已被裁判长收回" in page.inner_text("#b12 .unsent") and "（和）" in page.inner_text(
            "#b12 .unsent"
        )
        assert len(hall.pending_results(hall_db, "公开组", 4)) == 1
    finally:
        context.close()


def test_the_deputy_page_follows_the_chiefs_entries(
    browser: Any, site: tuple[str, HallServer], hall_db: Any, owner: ThreadOwner
) -> None:
    url, server = site
    issued = hall.issue_deputy_token(hall_db, "公开组", 9, 12, "张副裁判")
    context = _context(browser, 390)
    page = context.new_page()
    try:
        page.goto(url + hall.deputy_path(issued.token))
        assert "已录入" not in page.inner_text("#b10")
        owner.submit(lambda: enter_result(hall_db, "公开组", 4, 10, GameResult.RED_WIN)).result()
        server.changed()
        page.wait_for_selector("#b10 .rec", timeout=15_000)
        assert "已录入：红胜" in page.inner_text("#b10")
    finally:
        context.close()


def test_a_game_record_is_stepped_through_on_the_board(browser: Any, site: tuple[str, HallServer]) -> None:
    context = _context(browser, 390)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        page.goto(site[0] + "/g/1/r/4/b/1")
        page.click("text=看棋谱")
        page.wait_for_selector(".viewer")
        assert page.inner_text("#ply").endswith("（6/6）")  # opens on the final position
        page.click("nav.steps a[data-go='0']")
        assert page.inner_text("#ply") == "开局（0/6）"
        start = page.eval_on_selector_all("g.pieces g", "gs => gs.map(g => g.getAttribute('transform'))")
        assert len(start) == 32
        page.click("nav.steps a[data-go='+1']")
        assert page.inner_text("#ply").startswith("1.炮二平五")
        after = page.eval_on_selector_all("g.pieces g", "gs => gs.map(g => g.getAttribute('transform'))")
        assert len(after) == 32 and after != start
        page.keyboard.press("ArrowRight")
        assert "马８进７" in page.inner_text("#ply") and page.url.endswith("/game/1")
        assert problems == []
    finally:
        context.close()


def test_a_number_typed_in_the_search_says_board_or_number(
    browser: Any, site: tuple[str, HallServer]
) -> None:
    context = _context(browser, 390)
    page = context.new_page()
    try:
        page.goto(site[0] + "/g/1/r/4/")
        page.fill("#q", "9")  # the list narrows as one types, no request
        count = page.inner_text("#count")
        assert "台次 9 有 1 台" in count and "序号 9 有 1 人" in count
        assert page.inner_text("#b9 .why").startswith("台次 9")
        shown = page.eval_on_selector_all(
            "li.board",
            "els => els.filter(e => e.offsetParent !== null).map(e => e.querySelector('.why').textContent)",
        )
        assert (
            sorted(shown) == sorted(w for w in shown if w.startswith("台次 9") or w.endswith("序号 9"))
            and len(shown) == 2
        )
    finally:
        context.close()


@pytest.fixture(scope="module")
def team_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A team Swiss played through (seven teams: a bye each round), served read-only."""
    from app.services.team_demo import GROUP, create_team_demo, play_team_event_to_end

    db = create_team_demo(tmp_path_factory.mktemp("team") / "team.xqt", "team-swiss", teams=7, seed=2026)
    play_team_event_to_end(db, GROUP, seed=3)
    server = HallServer(db, None, port=0, poll_seconds=0.2)
    url = server.start()
    yield url
    server.stop()
    db.close()


#: a team competition's kinds of page: a round, a match, a team, the standings, the crosstable, the entries
TEAM_PAGES = ("/g/1/", "/g/1/r/2/m/1", "/g/1/t/3", "/g/1/standings", "/g/1/crosstable", "/g/1/entries")


@pytest.mark.parametrize("width", WIDTHS)
def test_a_team_competitions_pages_pass_axe_at_level_aa(browser: Any, team_site: str, width: int) -> None:
    source = _axe_source()
    context = _context(browser, width, bypass_csp=True)
    page = context.new_page()
    try:
        found = {}
        for path in TEAM_PAGES:
            page.goto(team_site + path)
            page.add_script_tag(content=source)
            violations = page.evaluate(AXE_RUN)
            if violations:
                found[path] = violations
        assert found == {}
    finally:
        context.close()


@pytest.mark.parametrize("width", (360, 390, 1280))
def test_a_team_competitions_tap_targets_are_44_px_and_no_page_is_too_wide(
    browser: Any, team_site: str, width: int
) -> None:
    context = _context(browser, width)
    page = context.new_page()
    try:
        small, wide = {}, []
        for path in TEAM_PAGES:
            page.goto(team_site + path)
            if page.evaluate(TARGETS):
                small[path] = page.evaluate(TARGETS)[:5]
            if not page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"):
                wide.append(path)
        assert small == {} and wide == []
    finally:
        context.close()
