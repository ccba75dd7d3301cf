"""The public pages' quick paths write what the general ones do.

The lists by name, the players' own pages and every page's frame are written by Python functions;
the template code they replaced is kept here as the reference and rendered beside them, on events of
every kind: the demo played to its end (two groups, a knockout, forfeits, absences), a round robin
with a rest, a double elimination, a team competition (whose players have no pages). The static
folder reads the standings once for the standings page and the players' pages: the players' pages
built so are those the hall builds on their own. (The whole pages of twelve demo events are compared
before and after a change by ``bench/html_pages.py``.)
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from markupsafe import Markup, escape

from app.reports import html
from app.reports.html import HALL, StaticLinks, _env, _shown
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


def _reference(source: str, **context: object) -> str:
    return _env.from_string(source).render(ref_name=ref_name, ref_opponent=ref_opponent, **context)


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


def _contexts(monkeypatch: pytest.MonkeyPatch, page: Any, *args: object) -> dict[str, Any]:
    """The context a page function hands its template (the template itself not rendered)."""
    seen: dict[str, Any] = {}
    monkeypatch.setattr(html, "render", lambda template, **context: seen.update(context) or "")
    page(*args)
    monkeypatch.undo()
    return seen


def test_lists_by_name_and_players_rows_are_the_template_loops(
    events: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = players = 0
    for db in events:
        site = public_site(db)
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


def test_the_frame_is_the_template(events: list[Any]) -> None:
    css = Markup(html.asset("hall.css"))
    nav = html.group_nav(HALL, 1, "公开组 <&>", ["standings", "entries"], "standings")
    for links in LINKS:
        for kwargs in ({}, {"version": 7, "nav": nav}, {"refresh": False, "at": AT}, {"nav": nav, "at": AT}):
            for title, event in (("名次", "赛事"), ('"引号" & <b>', "A 'x' 赛")):
                quick = html.frame(links, event, title, "<p>正文</p>", css=css, **kwargs)  # type: ignore[arg-type]
                refresh = kwargs.get("refresh", True)
                expected = _env.from_string(FRAME).render(
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


def test_the_players_pages_of_the_static_folder_are_the_halls(events: list[Any]) -> None:
    """The static folder hands the standings it read to the players' pages; the hall's players' pages
    read their own."""
    compared = 0
    for db in events:
        for g in public_site(db).groups:
            if g.players is not None:
                assert g.players == player_book(db, g.name)
                compared += 1
    assert compared >= 4
