"""A knockout round whose continuing Swiss is not paired yet is not complete on the hall's pages either.

After the split, the knockout games of a round can all be in while the players outside the knockout
still wait for their pairing. The window says so (积分编排部分未编排) instead of 成绩已齐; the index and
the round's page say the same, and stop saying it once the Swiss part is paired.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from app.services.public_pages import write_public_site
from app.services.rounds import pair_next_round, rounds_of
from app.services.tournaments import open_tournament
from app.web.app import ThreadOwner, create_app, hall_of

from .conftest import BASE

LOCAL = "天水本地组"
DUE = "积分编排部分未编排"


@pytest.fixture(scope="module")
def knockout_played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """天水本地组: 8 Swiss rounds played and closed, the knockout's round 9 games all decided, the
    continuing Swiss of round 9 not paired."""
    from app.services.demo import create_demo
    from app.services.knockout import create_knockout, draw_round_colours
    from app.services.rounds import close_round
    from app.services.simulation import play_knockout_round, play_random_results

    path = tmp_path_factory.mktemp("due") / "template.xqt"
    db = create_demo(path, seed=2024)
    for number in range(1, 9):
        pair_next_round(db, LOCAL, seed=number)
        play_random_results(db, LOCAL, number, seed=number)
        close_round(db, LOCAL, number)
    create_knockout(db, LOCAL)
    draw_round_colours(db, LOCAL, 9, seed=9)
    play_knockout_round(db, LOCAL, 9, seed=9)
    db.close()
    return path


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_pages_say_the_swiss_part_is_due_until_it_is_paired(
    knockout_played: Path, tmp_path: Path
) -> None:
    target = tmp_path / "event.xqt"
    shutil.copy(knockout_played, target)
    db = open_tournament(target)
    owner = ThreadOwner()
    try:
        last = rounds_of(db, LOCAL)[-1]
        assert last.number == 9 and last.pending == 0 and last.swiss_due  # what the window reads
        with TestClient(create_app(db, owner, poll_seconds=0.05), base_url=BASE) as client:
            index = _text(client.get("/").text)
            local = index[index.index(LOCAL) :]
            assert DUE in local.split("公开组")[0], local[:400]
            site = hall_of(client.app).site  # type: ignore[arg-type]
            gi = next(g.index for g in site.snapshot().groups if g.name == LOCAL)
            page = _text(client.get(f"/g/{gi}/r/9").text)
            assert DUE in page and "成绩公告" not in page
            # the published folder says the same
            folder = tmp_path / "site"
            write_public_site(db, folder)
            published = _text((folder / "index.html").read_text(encoding="utf-8"))
            assert DUE in published[published.index(LOCAL) :].split("公开组")[0]
            rounds = [_text(f.read_text(encoding="utf-8")) for f in folder.rglob("*.html")]
            nine = [t for t in rounds if f"{LOCAL} 第 9 轮" in t and "台，已录入" in t]
            assert nine and all(DUE in t for t in nine)
            pair_next_round(db, LOCAL, seed=99)  # the continuing Swiss of round 9
            site.refresh()
            assert not rounds_of(db, LOCAL)[-1].swiss_due
            assert DUE not in _text(client.get("/").text)
            assert DUE not in _text(client.get(f"/g/{gi}/r/9").text)
    finally:
        owner.close()
        db.close()
