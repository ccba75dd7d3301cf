"""Regenerate docs/screenshots/<view>-zh.png and -en.png from the demo field, mid-tournament.

Offscreen (QT_QPA_PLATFORM=offscreen). The event is the demo field (seeded) with round 1 played
and round 2 paired and partly entered. Until the pairing service exists the rounds are paired by a
plain fold (tests/ui/sample_event.py) — the pictures show the window, not Swiss pairings.
Run: ``make screenshots``.
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

from app.engine.types import GameResult  # noqa: E402
from app.services.results import enter_result  # noqa: E402
from app.ui.application import Program, application  # noqa: E402
from app.ui.document import TournamentDocument  # noqa: E402
from app.ui.i18n import install_language  # noqa: E402
from app.ui.main_window import VIEWS  # noqa: E402
from tests.ui.sample_event import make_event  # noqa: E402

OUT = ROOT / "docs" / "screenshots"


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="xq-shots-"))
    os.environ["XQARBITER_DATA"] = str(work / "data")
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(work / "settings"))
    path = make_event(work / "demo.xqt", rounds=2, played=1)
    app = application()
    OUT.mkdir(parents=True, exist_ok=True)
    document = TournamentDocument.open(path)
    for board, result in ((1, "1-0"), (2, "="), (3, "0-1"), (5, "+-")):
        enter_result(document.db, document.group, 2, board, GameResult.from_code(result))
    document.notify()
    program = Program()
    for language in ("zh", "en"):
        install_language(language)
        window = program.show(document)
        window.resize(1280, 800)
        for key, _label in VIEWS:
            window.show_view(key)
            app.processEvents()
            target = OUT / f"{key}-{language}.png"
            window.grab().save(str(target))
            print(target.relative_to(ROOT))
        window.document = None
        document.setParent(None)
        window.close()
    install_language("zh")
    return 0


if __name__ == "__main__":
    sys.exit(main())
