"""Every public page of a set of demo events, written to a folder, to compare two versions of the code.

For each event (the default demo mid-way and at its end, each ``--format`` demo part-played and played
through, team competitions), writes the static site (``xqarbiter html``) and every page of the hall
(each page's whole HTML), both at a fixed print time, under ``OUT/<event>/``. Run it before and after
a change to the renderer and compare the two folders (``diff -r``): every page must be the same byte
for byte. The events are built once into the temporary folder.

    python bench/html_pages.py OUT [--only NAME …]
    diff -r BEFORE AFTER
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
import tempfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from app.db.session import Database
from app.services.public_pages import write_public_site

AT = datetime(2026, 7, 26, 9, 30, 15)
EVENTS = Path(tempfile.gettempdir()) / "xq-html-pages-events-v1"
GROUP = "团体组"


def _demo(played_to: int | str) -> Callable[[Path], Database]:
    def build(path: Path) -> Database:
        from app.services.demo import create_demo

        return create_demo(path, seed=2024, players=160, absent=2, played_to=played_to)

    return build


def _format(name: str, played_to: int | str, players: int | None = None) -> Callable[[Path], Database]:
    def build(path: Path) -> Database:
        from app.services.format_demo import create_format_demo

        return create_format_demo(path, name, players=players, seed=2025, played_to=played_to)

    return build


def _team(name: str, rounds: int | None) -> Callable[[Path], Database]:
    def build(path: Path) -> Database:
        from app.services.team_demo import create_team_demo, play_team_event_to_end, play_team_round
        from app.services.team_events import pair_team_round

        db = create_team_demo(path, name, seed=2026)
        if rounds is None:
            play_team_event_to_end(db, GROUP, seed=2026)
            return db
        for n in range(1, rounds + 1):
            pair_team_round(db, GROUP, seed=n)
            play_team_round(db, GROUP, n, seed=2026)
        pair_team_round(db, GROUP, seed=rounds + 1)
        return db

    return build


CASES: dict[str, Callable[[Path], Database]] = {
    "demo-r3": _demo(3),
    "demo-end": _demo("end"),
    "swiss-r2": _format("swiss", 2),
    "swiss-knockout-end": _format("swiss-knockout", "end"),
    "round-robin-r3": _format("round-robin", 3, 9),
    "double-round-robin-end": _format("double-round-robin", "end", 6),
    "knockout-end": _format("knockout", "end"),
    "double-elimination-end": _format("double-elimination", "end"),
    "groups-then-knockout-end": _format("groups-then-knockout", "end"),
    "team-swiss-r2": _team("team-swiss", 2),
    "team-round-robin-end": _team("team-round-robin", None),
    "team-knockout-end": _team("team-knockout", None),
}


def event(name: str) -> Path:
    """The event's file, built once."""
    path = EVENTS / f"{name}.xqt"
    if not path.exists():
        EVENTS.mkdir(exist_ok=True)
        part = path.with_suffix(".part")
        part.unlink(missing_ok=True)
        CASES[name](part).close()
        part.rename(path)
    return path


def write_pages(name: str, out: Path) -> int:
    """The static site and every hall page of event ``name`` under ``out/name``; the number of pages."""
    from app.db.session import open_database
    from app.web.site import HallSite, path_of

    folder = out / name
    if folder.exists():
        shutil.rmtree(folder)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "event.xqt"
        shutil.copy(event(name), copy)
        db = open_database(copy)
        folder.mkdir(parents=True)
        try:
            files = write_public_site(db, folder / "static", AT)
            site = HallSite(db, clock=lambda: AT)
            hall = folder / "hall"
            hall.mkdir()
            keys = site.all_keys()
            for key in keys:
                page = site.page(key)
                file = hashlib.blake2b(path_of(key).encode(), digest_size=8).hexdigest()
                (hall / f"{file}.html").write_bytes(path_of(key).encode() + b"\n" + page.full)
        finally:
            db.close()
    return len(files) + len(keys)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for name in CASES:
        if args.only is None or name in args.only:
            print(name, write_pages(name, args.out), "pages", flush=True)


if __name__ == "__main__":
    main()
