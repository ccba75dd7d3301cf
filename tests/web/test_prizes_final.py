"""The hall shows the prize list only once it is final; whether it is, is known without building the
list while the event is running."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.services import exports
from app.services.demo import create_demo
from app.services.simulation import play_demo_to_end
from app.web.site import HallSite


def test_not_final_while_the_event_runs_and_the_list_is_not_built(db: Any, monkeypatch) -> None:
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("the prize list was built before the event is over")

    monkeypatch.setattr(exports, "prize_list_model", refuse)
    assert exports.prizes_final(db) is False
    site = HallSite(db)
    site.refresh()
    assert site.current is not None and site.current.prizes_final is False


@pytest.mark.slow
def test_final_once_every_group_has_played_its_last_round(tmp_path: Path) -> None:
    db = create_demo(tmp_path / "end.xqt", seed=2024)
    try:
        play_demo_to_end(db, seed=2024)
        assert exports.prizes_final(db) is True
        site = HallSite(db)
        site.refresh()
        assert site.current is not None and site.current.prizes_final is True
        assert ("prizes",) in site.all_keys()
    finally:
        db.close()
