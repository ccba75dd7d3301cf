"""The hall shows the prize list only once it is final; whether it is, is known without building the
list while the event is running."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.services import exports
from app.services.tournaments import open_tournament
from app.web.site import HallSite


def test_not_final_while_the_event_runs_and_the_list_is_not_built(db: Any, monkeypatch) -> None:
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("the prize list was built before the event is over")

    monkeypatch.setattr(exports, "prize_list_model", refuse)
    assert exports.prizes_final(db) is False
    site = HallSite(db)
    site.refresh()
    assert site.current is not None and site.current.prizes_final is False


def test_final_once_every_group_has_played_its_last_round(played_demo: Path) -> None:
    # the demo event played to its end (tests/conftest.py: built once per run, this test's own copy)
    db = open_tournament(played_demo)
    try:
        assert exports.prizes_final(db) is True
        site = HallSite(db)
        site.refresh()
        assert site.current is not None and site.current.prizes_final is True
        assert ("prizes",) in site.all_keys()
    finally:
        db.close()
