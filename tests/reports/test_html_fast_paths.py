"""The public pages' quick paths write what the general ones do.

The lists by name, the players' own pages (the whole page and its rows) and every page's frame are
written by Python functions;
the template code they replaced is kept here as the reference and rendered beside them, on events of
every kind: the demo played to its end (two groups, a knockout, forfeits, absences), a round robin
with a rest, a double elimination, a team competition (whose players have no pages). The static
folder reads the standings once for the standings page and the players' pages: the players' pages
built so are those the hall builds on their own. (The whole pages of twelve demo events are compared
before and after a change by ``bench/html_pages.py``.)
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import replace
from datetime import datetime
from typing import Any

import pytest
from jinja2 import Template
from markupsafe import Markup, escape

from app.reports import html
from app.reports.html import HALL, StaticLinks, _env, _shown
from app.reports.model import NextGame
from app.services.format_demo import create_format_demo
from app.services.public_pages import player_book, public_site
from app.services.simulation import play_group_to_end
from tests.reports.conftest import DemoEvent

AT = datetime(2024, 7, 28, 9, 30, 15)
LINKS = (HALL, StaticLinks({1: 3, 2: 3}))

NAME_ROWS = """{% for x in lines %}{% if loop.first or x.letter != lines[loop.index0 - 1].letter %}<tr class="letter" id="L-{{ x.letter }}"><th colspan="6" scope="rowgroup">{{ x.letter }}</th></tr>
{% endif %}<tr><td class="t s">{{ ref_name(links, gi, x.player) }}</td><td>{{ x.player.no }}</td>{% if x.board is not none %}<td><a href="{{ links.board(gi, number, x.board) }}">{{ x.board }}</a></td><td>{{ x.colour }}</td><td class="t">{{ x.opponent.no }} {{ ref_name(links, gi, x.opponent) }}</td><td>{{ x.result or "—" }}</td>{% else %}<td colspan="4">{{ x.label }}</td>{% endif %}</tr>
{% endfor %}"""

PLAYER_ROWS = """{% for r in c.rounds %}{% for x in r.games %}<tr>{% if loop.first %}<th scope="row" rowspan="{{ r.games|length }}">{{ r.round }}</th>{% endif %}
{% if x.board is not none %}<td><a href="{{ links.board(gi, r.round, x.board) }}">{{ x.board }}</a></td><td>{{ x.colour }}</td><td class="t">{{ ref_opponent(links, gi, x.opponent, x.opponent_name) }}{% if x.stage %}<small class="stage">{{ x.stage }}</small>{% endif %}</td><td>{{ x.outcome or "待赛" }}{% if x.result_zh == "和（黑胜）" %}<small>和（黑胜）</small>{% endif %}{% if x.record and links.record(gi, r.round, x.board, x.record) %}<a class="rec" href="{{ links.record(gi, r.round, x.board, x.record) }}">棋谱</a>{% endif %}</td>
{% else %}<td colspan="3"></td><td>{{ x.outcome }}</td>{% endif %}
{% if loop.first %}<td rowspan="{{ r.games|length }}">{{ r.score_after if r.score_after is not none else "—" }}</td>{% endif %}</tr>
{% endfor %}{% endfor %}"""

PLAYER = """{% from "_macros.html" import stamp %}
<h1>{{ c.no }}号 {{ c.name }}{% if c.note %}（{{ c.note }}）{% endif %}</h1>
<p class="meta">{{ book.header.group }}{% if c.unit %} · {{ c.unit }}{% endif %}</p>
{% if links.live %}<div class="me-box"><button type="button" id="this-is-me" data-gi="{{ gi }}" data-no="{{ c.no }}" data-name="{{ c.name }}" hidden>这是我</button><small id="me-note" hidden>标记只保存在本机浏览器，不会发送；首页和对阵页会先显示你的台次。</small></div>{% endif %}
<section class="card next" aria-label="下一盘">
{% if c.next_game %}{% set n = c.next_game %}<p class="next-head">第 {{ n.round }} 轮 · <a href="{{ links.board(gi, n.round, n.board) }}">第 {{ n.board }} 台</a> · 执{{ n.colour }}</p>
<p>对手：{{ opponent(links, gi, n.opponent, n.opponent_name) }}</p>
<p class="meta">{% if n.stage %}{{ n.stage }} · {% endif %}{% if n.starts %}开赛 {{ n.starts }} · {% endif %}用时 {{ n.time_control }}</p>
{% elif c.unpaired %}<p class="next-head">本轮{{ c.unpaired }}</p>
{% elif c.note %}<p class="next-head">{{ c.note }}，不再编排</p>
{% else %}<p class="next-head">下一轮尚未编排</p><p class="meta">编排后本页自动显示台次。</p>{% endif %}
</section>
<section aria-label="名次">
<h2>名次{% if book.basis %}<small>（{{ book.basis }}）</small>{% endif %}</h2>
{% if c.rank %}<p class="place"><b>第 {{ c.rank }} 名</b> · 积分 {{ c.score }}</p>
{% if c.tiebreaks %}<dl class="tb">{% for label, v in c.tiebreaks %}<div><dt>{{ label }}</dt><dd>{{ v }}</dd></div>{% endfor %}</dl>{% endif %}
<ul class="nb">
{% if c.above %}<li>上一名：第 {{ c.above.rank }} 名 {{ opponent(links, gi, c.above.no, c.above.name) }}<br><small>区分依据：{{ c.above.why or "—" }}</small></li>{% endif %}
{% if c.below %}<li>下一名：第 {{ c.below.rank }} 名 {{ opponent(links, gi, c.below.no, c.below.name) }}<br><small>区分依据：{{ c.below.why or "—" }}</small></li>{% endif %}
</ul>
{% else %}<p class="msg">积分 {{ c.score }}{% if not book.basis %} · 第 1 轮成绩录齐后产生名次{% endif %}</p>{% endif %}
</section>
<h2>每轮成绩</h2>
{% if c.rounds %}
<div class="wrap" tabindex="0" role="region" aria-label="每轮成绩（可左右滚动）"><table><thead><tr><th scope="col">轮次</th><th scope="col">台次</th><th scope="col">执色</th><th scope="col" class="t">对手</th><th scope="col">结果</th><th scope="col">积分</th></tr></thead><tbody>
{{ player_rows(links, gi, c) }}</tbody></table></div>
{% else %}<p class="msg">尚无对局。</p>{% endif %}
<div class="links"><a href="{{ links.group(gi) }}">本组对阵</a>{% if book.basis %}<a href="{{ links.page(gi, 'standings') }}">名次表</a>{% endif %}<a href="{{ links.schedule() }}">赛程</a></div>
{{ stamp(at) }}
"""

FRAME = """<!DOCTYPE html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>{{ title }} · {{ event }}</title>
{% if links.live %}
<link rel="stylesheet" href="{{ links.css }}">{% if script %}<script src="{{ links.js }}" defer></script>{% endif %}
{% else %}
<style>{{ css }}</style>
{% endif %}
</head>
<body><header><a class="home" href="{{ links.home() }}">{{ event }}</a></header>
{% if nav %}<nav class="tabs" aria-label="本组页面">{% for n in nav %}<a href="{{ n.href }}"{% if n.current %} aria-current="page"{% endif %}>{{ n.label }}</a>{% endfor %}</nav>{% endif %}
{% if links.live and script %}<p id="net" class="net" role="status" hidden></p>{% endif %}
<main data-v="{{ version }}">{{ main }}</main>
{% if links.live %}
<footer>赛场网络{% if script %} · 本页随成绩自动更新{% endif %} · 不含身份证号和电话</footer>
{% else %}
<footer>更新时间：{{ at.strftime("%Y-%m-%d %H:%M") if at else "" }} · 不含身份证号和电话</footer>
{% endif %}
</body></html>
"""


def _e(value: object) -> Markup:
    return escape(_shown(value))


def ref_name(links: Any, gi: int, p: Any) -> Markup:
    href = links.player(gi, p.no)
    return Markup(f'<a class="name" href="{_e(href)}">{_e(p.name)}</a>') if href else _e(p.name)


def ref_opponent(links: Any, gi: int, no: int | None, name: str) -> Markup:
    if not no:
        return Markup("")
    href = links.player(gi, no)
    text = f"{_e(no)} {_e(name)}"
    return Markup(f'<a href="{_e(href)}">{text}</a>' if href else text)


@functools.cache
def _compiled(source: str) -> Template:
    """A reference template compiled once (``from_string`` compiles it on every call)."""
    return _env.from_string(source)


def _reference(source: str, **context: object) -> str:
    return _compiled(source).render(ref_name=ref_name, ref_opponent=ref_opponent, **context)


@pytest.fixture(scope="module")
def events(
    event: DemoEvent, team_event: DemoEvent, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Any]]:
    folder = tmp_path_factory.mktemp("fast-paths")
    rr = create_format_demo(folder / "rr.xqt", "round-robin", players=7, seed=4)
    play_group_to_end(rr, "公开组", seed=4, last=3)
    de = create_format_demo(folder / "de.xqt", "double-elimination", players=8, seed=5, played_to="end")
    yield [event.db, team_event.db, rr, de]
    rr.close()
    de.close()


@pytest.fixture(scope="module")
def sites(events: list[Any]) -> list[Any]:
    """The public site's read model of every event, read once for the module (the tests only read it)."""
    return [public_site(db) for db in events]


def _contexts(monkeypatch: pytest.MonkeyPatch, page: Any, *args: object) -> dict[str, Any]:
    """The context a page function hands its template (the template itself not rendered)."""
    seen: dict[str, Any] = {}
    monkeypatch.setattr(html, "render", lambda template, **context: seen.update(context) or "")
    page(*args)
    monkeypatch.undo()
    return seen


def test_lists_by_name_and_players_rows_are_the_template_loops(
    sites: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = players = 0
    for site in sites:
        for gi, g in enumerate(site.groups, start=1):
            for links in LINKS:
                for r in g.rounds:
                    n = r.header.round or 0
                    ctx = _contexts(monkeypatch, html.names_main, links, r, gi, n, [n], AT)
                    quick = html.name_rows(links, gi, n, ctx["lines"])
                    assert quick == _reference(NAME_ROWS, links=links, gi=gi, number=n, lines=ctx["lines"])
                    rows += len(ctx["lines"])
                for c in g.players.players if g.players else ():
                    expected = _reference(PLAYER_ROWS, links=links, gi=gi, c=c)
                    assert html.player_rows(links, gi, c) == expected, c.no
                    players += 1
    assert rows > 1000 and players > 300  # every kind of line was met: byes, absences, knockout games


def test_the_players_pages_are_the_template(sites: list[Any]) -> None:
    """Every player's whole page on both kinds of links (the hall's "这是我" button only on its own),
    and hostile values: a name, a unit, a neighbour, a next game's stage."""
    pages = 0
    seen = set()
    for site in sites:
        for gi, g in enumerate(site.groups, start=1):
            if g.players is None:
                continue
            cards = list(g.players.players)
            for c in cards[:3]:  # what a finished event's pages no longer show: a next game, a rest …
                cards += [
                    replace(
                        c,
                        next_game=NextGame(4, 7, "红", 12, "李四<b>", "决赛 & 加赛", "7月26日 09:00", "20′"),
                    ),
                    replace(c, next_game=NextGame(4, 7, "黑", 12, "李四", time_control="15′+10″")),
                    replace(c, next_game=None, unpaired="轮空"),
                    replace(c, next_game=None, note="退赛"),
                    replace(c, rank=None, tiebreaks=(), above=None, below=None),
                    replace(c, rounds=()),
                ]
            for links in LINKS:
                for c in cards:
                    expected = _reference(PLAYER, links=links, book=g.players, c=c, gi=gi, at=AT)
                    assert html.player_main(links, g.players, c, gi, AT) == expected, c.no
                    seen |= {
                        ("next", c.next_game is not None),
                        ("stage", bool(c.next_game and c.next_game.stage)),
                        ("unpaired", bool(c.unpaired)),
                        ("note", bool(c.note)),
                        ("rank", c.rank is not None),
                        ("tiebreaks", bool(c.tiebreaks)),
                        ("above", c.above is not None),
                        ("below", c.below is not None),
                        ("rounds", bool(c.rounds)),
                    }
                    pages += 1
    # every branch of the page was met, each way
    assert len(seen) == 18 and pages > 400
    hostile = "<script>\"x\"&'y'"
    book = g.players
    assert book is not None
    card = book.players[0]
    for c, basis in (
        (replace(card, name=hostile, unit=hostile, note=hostile), hostile),
        (replace(card, rank=None, above=None, below=None, rounds=()), ""),
    ):
        b = replace(book, basis=basis, header=replace(book.header, group=hostile))
        for links in LINKS:
            page = html.player_main(links, b, c, 1, AT)
            assert page == _reference(PLAYER, links=links, book=b, c=c, gi=1, at=AT)
            assert "<script>" not in page


def test_the_frame_is_the_template(events: list[Any]) -> None:
    css = Markup(html.asset("hall.css"))
    nav = html.group_nav(HALL, 1, "公开组 <&>", ["standings", "entries"], "standings")
    for links in LINKS:
        for kwargs in ({}, {"version": 7, "nav": nav}, {"refresh": False, "at": AT}, {"nav": nav, "at": AT}):
            for title, event in (("名次", "赛事"), ('"引号" & <b>', "A 'x' 赛")):
                quick = html.frame(links, event, title, "<p>正文</p>", css=css, **kwargs)  # type: ignore[arg-type]
                refresh = kwargs.get("refresh", True)
                expected = _compiled(FRAME).render(
                    links=links,
                    event=event,
                    title=title,
                    main=Markup("<p>正文</p>"),
                    version=kwargs.get("version", 0),
                    nav=kwargs.get("nav", ()),
                    script=refresh and links.live,
                    css=css if not links.live else "",
                    at=kwargs.get("at"),
                )
                assert quick == expected
                # the static folder writes the stylesheet's bytes between the two parts
                head, tail = html.frame_parts(links, event, title, "<p>正文</p>", **kwargs)  # type: ignore[arg-type]
                assert "".join((head, "" if links.live else str(css), tail)) == quick
                assert ("<style>" in head) is (not links.live) and "<style>" not in tail


def test_the_players_pages_of_the_static_folder_are_the_halls(events: list[Any], sites: list[Any]) -> None:
    """The static folder hands the standings it read to the players' pages; the hall's players' pages
    read their own."""
    compared = 0
    for db, site in zip(events, sites, strict=True):
        for g in site.groups:
            if g.players is not None:
                assert g.players == player_book(db, g.name)
                compared += 1
    assert compared >= 4
