"""Regenerate docs/screenshots/<view>-zh.png and -en.png from the demo field, mid-tournament.

Offscreen (QT_QPA_PLATFORM=offscreen). The event is the demo (``create_demo``, seeded), run through
the services: 公开组 with rounds 1–3 played (Swiss pairings by ``pair_next_round``, random results)
and round 4 paired and partly entered; 天水本地组 played past the split — the knockout created,
round 9 played and round 10's colours drawn — for the bracket view. Every view is shown with
公开组 except the bracket (天水本地组). Run: ``make screenshots``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QSettings  # noqa: E402

from app.services.demo import create_demo  # noqa: E402
from app.services.simulation import play_demo_midway  # noqa: E402
from app.ui.application import Program, application  # noqa: E402
from app.ui.document import TournamentDocument  # noqa: E402
from app.ui.i18n import install_language  # noqa: E402
from app.ui.main_window import VIEWS  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
OPEN, LOCAL = "公开组", "天水本地组"


def build_event(path: Path) -> Path:
    db = create_demo(path, seed=2024)
    play_demo_midway(db, seed=2024)
    db.close()
    return path


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="xq-shots-"))
    os.environ["XQARBITER_DATA"] = str(work / "data")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(work / "settings"))
    path = build_event(work / "demo.xqt")
    app = application()
    OUT.mkdir(parents=True, exist_ok=True)
    document = TournamentDocument.open(path)
    program = Program()
    for language in ("zh", "en"):
        install_language(language)
        window = program.show(document)
        window.resize(1280, 800)
        for key, _label in VIEWS:
            if key == "team_matches":  # empty in an individual event: shot on a team competition below
                continue
            window.group_box.setCurrentText(LOCAL if key == "bracket" else OPEN)
            window.show_view(key)
            app.processEvents()
            target = OUT / f"{key}-{language}.png"
            window.grab().save(str(target))
            print(target.relative_to(ROOT))
        window.document = None
        document.setParent(None)
        window.close()
    # the team views on a team competition (a team Swiss: round 2 paired, its line-ups not yet in)
    team = TournamentDocument.open(build_team_event(work / "team.xqt"))
    for language in ("zh", "en"):
        install_language(language)
        window = program.show(team)
        window.resize(1280, 800)
        for key in ("teams", "team_matches"):
            window.show_view(key)
            app.processEvents()
            target = OUT / f"{key}-team-{language}.png"
            window.grab().save(str(target))
            print(target.relative_to(ROOT))
        window.document = None
        team.setParent(None)
        window.close()
    install_language("zh")
    return 0


def build_team_event(path: Path) -> Path:
    from app.services.team_demo import GROUP, create_team_demo, play_team_round
    from app.services.team_events import pair_team_round

    db = create_team_demo(path, "team-swiss", teams=12, seed=2024)
    pair_team_round(db, GROUP, seed=1)
    play_team_round(db, GROUP, 1, seed=1)
    pair_team_round(db, GROUP, seed=2)
    play_team_round(db, GROUP, 2, seed=2)
    db.close()
    return path


if __name__ == "__main__":
    sys.exit(main())
