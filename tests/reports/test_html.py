"""The static public site: one folder, self-contained, phone-friendly, no personal data."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.reports.html import PublicSite, SiteGroup, write_site
from app.reports.model import EntryLine, EntryList, EventHeader
from app.services import public_pages

from .conftest import PRINTED_AT, DemoEvent


@pytest.fixture(scope="module")
def site(event: DemoEvent, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    write_site(public_pages.public_site(event.db), out, PRINTED_AT)
    return out


def test_index_links_every_page(site: Path) -> None:
    pages = sorted(p.name for p in site.glob("*.html") if p.name != "index.html")
    players = sorted(p.name for p in site.glob("g*-p*.html"))
    assert len(players) == 160  # every player's own page, linked from their name
    # per group: the entry list by 序号 and by name, 11 rounds by board and by name, standings, crosstable,
    # bracket; the open group's teams; the prizes; the schedule
    assert len(pages) - len(players) == 2 * (2 + 2 * 11 + 1 + 1 + 1) + 1 + 1 + 1
    index = (site / "index.html").read_text(encoding="utf-8")
    for name in pages:
        if not re.fullmatch(r"g\d-(p\d+|r\d+-names|entries-names)\.html", name):
            assert f'href="{name}"' in index, name
    reached, todo = set(), ["index.html"]
    while todo:  # and every page, a player's too, is reached by following links from the index
        name = todo.pop()
        if name in reached:
            continue
        reached.add(name)
        todo += re.findall(r'href="([^"#]+)', (site / name).read_text(encoding="utf-8"))
    assert reached == {"index.html", *pages}


def test_self_contained_and_responsive(site: Path) -> None:
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert 'name="viewport"' in text
        assert "<style>" in text
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)
        assert "<link" not in text and "<script" not in text


def test_no_id_or_phone_anywhere(site: Path, event: DemoEvent) -> None:
    text = "".join(p.read_text(encoding="utf-8") for p in site.glob("*.html"))
    assert len(event.players) == 160
    for p in event.players:
        assert p.id_number not in text
        assert p.phone not in text
        assert p.name in text


def test_text_is_escaped(tmp_path: Path) -> None:
    lines = (EntryLine(1, "<b>王</b>", "A&B", "男"),)
    site = PublicSite("赛", (SiteGroup("组", entries=EntryList(EventHeader("赛", "组"), lines)),))
    write_site(site, tmp_path, PRINTED_AT)
    text = (tmp_path / "g1-entries.html").read_text(encoding="utf-8")
    assert "&lt;b&gt;王&lt;/b&gt;" in text and "A&amp;B" in text
