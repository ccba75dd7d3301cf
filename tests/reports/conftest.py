"""Shared synthetic input: the 160-player sample event after 11 rounds, rendered once per session."""

from __future__ import annotations

import io
from datetime import datetime

import pypdfium2 as pdfium
import pytest

from app.reports.pdf import render_document
from app.reports.sample import SampleEvent

PRINTED_AT = datetime(2024, 7, 28, 9, 30)


@pytest.fixture(scope="session")
def event() -> SampleEvent:
    return SampleEvent.generate(players=160, rounds=11, seed=2024)


class Rendered:
    def __init__(self, data: bytes) -> None:
        self.data = data
        pdf = pdfium.PdfDocument(data)
        self.pages = len(pdf)
        self.page_texts = [pdf[i].get_textpage().get_text_range() for i in range(self.pages)]
        self.text = "\n".join(self.page_texts)


def render(doc: str, inputs: object, **options: object) -> Rendered:
    buf = io.BytesIO()
    render_document(doc, inputs, buf, printed_at=PRINTED_AT, **options)
    return Rendered(buf.getvalue())


@pytest.fixture(scope="session")
def documents(event: SampleEvent) -> dict[str, Rendered]:
    """Every document of round 6 (mid-tournament) or after round 11, keyed by a short name."""
    return {
        "table-cards": render("table-cards", event.table_cards(6)),
        "pairings": render("pairings", event.pairing_list(6)),
        "pairings-by-name": render("pairings", event.pairing_list(6), sort_by_name=True),
        "results": render("results", event.pairing_list(5, with_results=True)),
        "standings": render("standings", event.standings()),
        "crosstable": render("crosstable", event.crosstable()),
        "teams": render("teams", event.team_standings()),
        "prizes": render("prizes", event.prize_list()),
        "record-sheets": render("record-sheets", event.record_sheets(6)),
        "entry-list": render("entry-list", event.entry_list()),
        "bracket": render("bracket", event.bracket()),
        "payout": render("payout", event.payout_sheet()),
        "entry-list-internal": render("entry-list", event.internal_entry_list()),
    }


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
)
