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

from app.engine.knockout import ColourState  # noqa: E402
from app.engine.types import Colour, GameResult  # noqa: E402
from app.services.demo import create_demo  # noqa: E402
from app.services.knockout import bracket_of, choose_deciding_colour, create_knockout, draw_round_colours  # noqa: E402
from app.services.results import enter_result  # noqa: E402
from app.services.rounds import close_round, pair_next_round, round_view  # noqa: E402
from app.services.simulation import play_random_results  # noqa: E402
from app.ui.application import Program, application  # noqa: E402
from app.ui.document import TournamentDocument  # noqa: E402
from app.ui.i18n import install_language  # noqa: E402
from app.ui.main_window import VIEWS  # noqa: E402

OUT = ROOT / "docs" / "screenshots"
OPEN, LOCAL = "公开组", "天水本地组"
KNOCKOUT_RESULTS = (GameResult.RED_WIN, GameResult.DRAW, GameResult.BLACK_WIN, GameResult.DRAW)


def play_knockout_round(db: object, group: str, number: int) -> None:
    """Enter the knockout games of a round board by board (seeded cycle) until every match is decided."""
    step = 0
    while due := bracket_of(db, group).due_games(number):  # type: ignore[arg-type, union-attr]
        for d in due:
            if d.colours is ColourState.CHOICE_NEEDED:
                choose_deciding_colour(db, group, d.code, Colour.RED)  # type: ignore[arg-type]
                continue
            board = next(b for b in round_view(db, group, number).boards if b.match == d.code)  # type: ignore[arg-type]
            enter_result(db, group, number, board.board, KNOCKOUT_RESULTS[step % len(KNOCKOUT_RESULTS)])  # type: ignore[arg-type]
            step += 1


def build_event(path: Path) -> Path:
    db = create_demo(path, seed=2024)
    for number in range(1, 5):
        pair_next_round(db, OPEN, seed=number)
        if number < 4:
            play_random_results(db, OPEN, number, seed=number)
            close_round(db, OPEN, number)
    for board, result in ((1, "1-0"), (2, "="), (3, "0-1"), (5, "+-")):
        enter_result(db, OPEN, 4, board, GameResult.from_code(result))
    for number in range(1, 11):
        if number == 9:
            create_knockout(db, LOCAL)
        if number > 8:
            draw_round_colours(db, LOCAL, number, seed=900 + number)
        pair_next_round(db, LOCAL, seed=number)
        if number < 10:
            play_random_results(db, LOCAL, number, seed=number)
            if number > 8:
                play_knockout_round(db, LOCAL, number)
            close_round(db, LOCAL, number)
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
            window.group_box.setCurrentText(LOCAL if key == "bracket" else OPEN)
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
