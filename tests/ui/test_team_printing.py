"""The team competition's documents from the window's 打印 menu: offered for a team group only, and the
round documents printed for the round shown in the 团体赛 view."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ui.main_window import MainWindow
from app.ui.printing import TEAM_PRINTED, PrintPreviewDialog


@pytest.fixture
def team_window(qtbot, tmp_path: Path) -> MainWindow:
    from app.services.team_demo import GROUP, create_team_demo, play_team_round
    from app.services.team_events import pair_team_round

    path = tmp_path / "team.xqt"
    db = create_team_demo(path, "team-swiss", teams=8, seed=7)
    pair_team_round(db, GROUP, seed=1)
    play_team_round(db, GROUP, 1, seed=1)
    pair_team_round(db, GROUP, seed=2)
    db.close()
    window = MainWindow()
    qtbot.addWidget(window)
    assert window.open_file(path)
    window.show()
    yield window
    window.close()


def test_team_documents_are_offered_and_printed_for_the_round_shown(team_window: MainWindow) -> None:
    window = team_window
    assert all(window.print_actions[name].isVisible() for name in TEAM_PRINTED)
    view = window.show_view("team_matches")
    box = view.round_box
    box.setCurrentIndex(box.findData(1))
    assert window._team_round() == 1
    for name in ("team-sheets", "team-standings", "board-prizes", "lineup-forms"):
        window.print_actions[name].trigger()
        preview = window.preview
        assert isinstance(preview, PrintPreviewDialog) and len(preview.images) >= 1, name
        assert "团体组" in preview.windowTitle()
        preview.close()


def test_an_individual_event_does_not_offer_the_team_documents(window: MainWindow) -> None:
    assert not any(window.print_actions[name].isVisible() for name in TEAM_PRINTED)
    assert window.print_actions["standings"].isVisible()
