"""Render every PDF of the synthetic 160-player event and save each first page as PNG in docs/samples/.

Usage: python scripts/render_samples.py [--dpi 110] [--keep-pdf]
"""

from __future__ import annotations

import argparse
import io
import sys
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pypdfium2 as pdfium  # noqa: E402

from app.reports.pdf import render_document  # noqa: E402
from app.reports.sample import SampleEvent  # noqa: E402

PRINTED_AT = datetime(2024, 7, 28, 9, 30)


def sample_inputs(ev: SampleEvent) -> dict[str, tuple[str, object, dict[str, object]]]:
    """file stem → (document, read model, options): the demo event mid-tournament (round 6)."""
    return {
        "table-cards": ("table-cards", ev.table_cards(6), {}),
        "table-cards-4up": ("table-cards", ev.table_cards(6, per_page=4), {}),
        "pairings": ("pairings", ev.pairing_list(6), {}),
        "pairings-by-name": ("pairings", ev.pairing_list(6), {"sort_by_name": True}),
        "results": ("results", ev.pairing_list(5, with_results=True), {}),
        "standings": ("standings", ev.standings(), {}),
        "crosstable": ("crosstable", ev.crosstable(), {}),
        "teams": ("teams", ev.team_standings(), {}),
        "prizes": ("prizes", ev.prize_list(), {}),
        "payout": ("payout", ev.payout_sheet(), {}),
        "record-sheets": ("record-sheets", ev.record_sheets(6), {}),
        "entry-list": ("entry-list", ev.entry_list(), {}),
        "entry-list-internal": ("entry-list", ev.internal_entry_list(), {}),
        "bracket": ("bracket", ev.bracket(), {}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dpi", type=int, default=110)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "samples")
    parser.add_argument("--keep-pdf", action="store_true")
    parser.add_argument("--all-pages", action="store_true")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    ev = SampleEvent.generate()
    for stem, (doc, inputs, options) in sample_inputs(ev).items():
        buf = io.BytesIO()
        render_document(doc, inputs, buf, printed_at=PRINTED_AT, **options)
        data = buf.getvalue()
        if args.keep_pdf:
            (args.out / f"{stem}.pdf").write_bytes(data)
        pdf = pdfium.PdfDocument(data)
        pages = range(len(pdf)) if args.all_pages else range(1)
        for i in pages:
            image = pdf[i].render(scale=args.dpi / 72).to_pil()
            suffix = "" if i == 0 else f"-p{i + 1}"
            image = image.quantize(colors=16)  # small files; text stays crisp
            image.save(args.out / f"{stem}{suffix}.png", optimize=True)
        print(f"{stem}: {len(pdf)} pages")


if __name__ == "__main__":
    main()
