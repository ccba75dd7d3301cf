"""The static public site: one folder, self-contained, phone-friendly, no personal data."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.reports.html import PublicSite, SiteGroup, write_site
from app.reports.model import EntryLine, EntryList, EventHeader
from app.services import exports

from .conftest import PRINTED_AT, DemoEvent


@pytest.fixture(scope="module")
def site(event: DemoEvent, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    write_site(exports.public_site(event.db), out, PRINTED_AT)
    return out


def test_index_links_every_page(site: Path) -> None:
    pages = sorted(p.name for p in site.glob("*.html") if p.name != "index.html")
    # per group: entry list, 11 rounds, standings, crosstable, bracket; the open group's teams; the prizes
    assert len(pages) == 2 * (1 + 11 + 1 + 1 + 1) + 1 + 1
    index = (site / "index.html").read_text(encoding="utf-8")
    for name in pages:
        assert f'href="{name}"' in index


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
