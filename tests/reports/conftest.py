"""Shared input: the real demo event (160 players, two groups) played to its end through the services,
every document of the open group rendered once per session.

The read models come from :mod:`app.services.exports`, exactly as the window and ``xqarbiter print``
build them; the tests here check what the reports layer makes of them.
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pypdfium2 as pdfium
import pytest

from app.db.session import Database
from app.engine.types import GameResult, ViolationKind
from app.reports.pdf import render_document
from app.services import exports
from app.services.discipline import record_violation
from app.services.registration import PlayerView, list_players
from app.services.rounds import round_view
from app.services.tournaments import open_tournament
from tests.conftest import built_once_folder
from tests.factories import copy_event

PRINTED_AT = datetime(2024, 7, 28, 9, 30)
OPEN, LOCAL = "公开组", "天水本地组"
CARDS_ROUND = 6  # a Swiss round with a bye: table cards, pairing list, record sheets
_FORFEITS = {GameResult.RED_FORFEIT, GameResult.BLACK_FORFEIT, GameResult.DOUBLE_FORFEIT}


@dataclass
class DemoEvent:
    db: Database
    players: list[PlayerView]  # every player of both groups, with the personal numbers
    results_round: int  # the first Swiss round of the open group with a forfeit (and a violation added)

    def model(self, doc: str, *, group: str | None = OPEN, **options: object) -> object:
        return exports.document(self.db, doc, group=group, **options)  # type: ignore[arg-type]

    def open_players(self) -> list[PlayerView]:
        return [p for p in self.players if p.group == OPEN]


@pytest.fixture(scope="session")
def event(tmp_path_factory: pytest.TempPathFactory, played_demo_file: Path) -> DemoEvent:
    db = open_tournament(copy_event(played_demo_file, tmp_path_factory.mktemp("reports") / "demo.xqt"))
    results_round = next(
        n for n in range(1, 9) if any(b.result in _FORFEITS for b in round_view(db, OPEN, n).boards)
    )
    talker = round_view(db, OPEN, results_round).boards[0].red.no
    record_violation(db, OPEN, talker, results_round, ViolationKind.OTHER, "对局中喧哗")
    return DemoEvent(db, list_players(db), results_round)


class Rendered:
    """A rendered PDF: its bytes, its number of pages, and (read when first asked for) the text of
    each page. A worker reads every document of the run; most tests look at a few of them."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pages = len(pdfium.PdfDocument(data))

    @functools.cached_property
    def page_texts(self) -> list[str]:
        pdf = pdfium.PdfDocument(self.data)
        return [pdf[i].get_textpage().get_text_range() for i in range(self.pages)]

    @functools.cached_property
    def text(self) -> str:
        return "\n".join(self.page_texts)


def render(doc: str, inputs: object, **options: object) -> Rendered:
    buf = io.BytesIO()
    render_document(doc, inputs, buf, printed_at=PRINTED_AT, **options)
    return Rendered(buf.getvalue())


def _render_every_document(
    event: DemoEvent, round_robin_event: DemoEvent, team_event: DemoEvent
) -> dict[str, bytes]:
    """Every document of the open group (round 6 mid-event, the results round, after round 11), by name."""
    n = CARDS_ROUND

    def pdf(doc: str, inputs: object, **options: object) -> bytes:
        buf = io.BytesIO()
        render_document(doc, inputs, buf, printed_at=PRINTED_AT, **options)
        return buf.getvalue()

    return {
        "table-cards": pdf("table-cards", event.model("table-cards", round_number=n)),
        "pairings": pdf("pairings", event.model("pairings", round_number=n)),
        "pairings-by-name": pdf("pairings", event.model("pairings", round_number=n), sort_by_name=True),
        "results": pdf("results", event.model("results", round_number=event.results_round)),
        "standings": pdf("standings", event.model("standings")),
        "crosstable": pdf("crosstable", event.model("crosstable")),
        "teams": pdf("teams", event.model("teams")),
        "prizes": pdf("prizes", event.model("prizes", group=None)),
        "record-sheets": pdf("record-sheets", event.model("record-sheets", round_number=n)),
        "entry-list": pdf("entry-list", event.model("entry-list")),
        "bracket": pdf("bracket", event.model("bracket")),
        "payout": pdf("payout", event.model("payout", group=None)),
        "entry-list-internal": pdf("entry-list", event.model("entry-list", internal=True)),
        "check-in": pdf("check-in", event.model("check-in")),
        "results-book": pdf("results-book", event.model("results-book", group=None)),
        "certificates": pdf("certificates", event.model("certificates", group=None)),
        "avoidances": pdf("avoidances", event.model("avoidances")),
        "order-of-play": pdf("order-of-play", round_robin_event.model("order-of-play")),
        "crosstable-round-robin": pdf("crosstable", round_robin_event.model("crosstable")),
        **{doc: pdf(doc, team_event.model(doc, group=TEAM_GROUP)) for doc in TEAM_DOCUMENTS},
    }


@pytest.fixture(scope="session")
def documents(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Rendered]:
    """Every document of the open group (round 6 mid-event, the results round, after round 11), by name:
    rendered once per test run for both workers (the same events, the same printing time), each worker
    reading the PDFs back."""

    def build(folder: Path) -> None:
        rendered = _render_every_document(
            request.getfixturevalue("event"),
            request.getfixturevalue("round_robin_event"),
            request.getfixturevalue("team_event"),
        )
        for name, data in rendered.items():
            (folder / f"{name}.pdf").write_bytes(data)

    shared = built_once_folder(tmp_path_factory, "rendered-documents", build)
    return {f.stem: Rendered(f.read_bytes()) for f in sorted(shared.glob("*.pdf"))}


TEAM_GROUP = "团体组"
TEAM_DOCUMENTS = (
    "team-cards",
    "team-sheets",
    "lineup-forms",
    "team-crosstable",
    "team-standings",
    "board-prizes",
)


def _team_event(folder: Path) -> None:
    from app.services.team_demo import create_team_demo, play_team_round
    from app.services.team_events import hand_in_lineup, pair_team_round, teams_of

    db = create_team_demo(folder / "teams.xqt", "team-swiss", teams=7, seed=2026)
    for number in (1, 2):
        pair_team_round(db, TEAM_GROUP, seed=number)
        play_team_round(db, TEAM_GROUP, number, seed=2026)
    pair_team_round(db, TEAM_GROUP, seed=3)
    team = teams_of(db, TEAM_GROUP)[0]
    hand_in_lineup(db, TEAM_GROUP, 3, team.name, [p.no for p in team.roster[:4]], handed_in_by="队长")
    db.close()


@pytest.fixture(scope="session")
def team_event(tmp_path_factory: pytest.TempPathFactory) -> DemoEvent:
    """A team Swiss of 7 teams (4 boards): two rounds played, round 3 paired, two line-ups handed in.
    Built once per test run for every worker (as the demo events are), each worker opening its copy."""
    shared = built_once_folder(tmp_path_factory, "team-event", _team_event)
    db = open_tournament(copy_event(shared / "teams.xqt", tmp_path_factory.mktemp("teams") / "teams.xqt"))
    return DemoEvent(db, list_players(db), 1)


def _round_robin_event(folder: Path) -> None:
    from app.services.format_demo import create_format_demo
    from app.services.simulation import play_group_to_end

    db = create_format_demo(folder / "rr.xqt", "round-robin", players=9, seed=2025)
    play_group_to_end(db, OPEN, seed=2025, last=4)
    db.close()


@pytest.fixture(scope="session")
def round_robin_event(tmp_path_factory: pytest.TempPathFactory) -> DemoEvent:
    """A round robin of 9 (one rests every round), 4 of its 9 rounds played. Built once per test run
    for every worker, each worker opening its copy."""
    shared = built_once_folder(tmp_path_factory, "round-robin-event", _round_robin_event)
    db = open_tournament(copy_event(shared / "rr.xqt", tmp_path_factory.mktemp("rr") / "rr.xqt"))
    return DemoEvent(db, list_players(db), 1)


PUBLIC = (
    "table-cards",
    "pairings",
    "pairings-by-name",
    "results",
    "standings",
    "crosstable",
    "teams",
    "prizes",
    "record-sheets",
    "entry-list",
    "bracket",
    "results-book",
    "certificates",
    "order-of-play",
    "crosstable-round-robin",
    "team-cards",
    "team-sheets",
    "lineup-forms",
    "team-crosstable",
    "team-standings",
    "board-prizes",
)
