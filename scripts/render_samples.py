"""Render every PDF of the demo event mid-tournament and save each first page as PNG in docs/samples/.

The event is the seeded demo (160 players) run through the services (``play_demo_midway``):
公开组 after three rounds with round 4 paired, 天水本地组 past the split with the knockout under way.

Usage: python scripts/render_samples.py [--dpi 110] [--keep-pdf]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import pypdfium2 as pdfium  # noqa: E402

from app.services.demo import create_demo  # noqa: E402
from app.services.exports import render_pdf  # noqa: E402
from app.services.simulation import play_demo_midway  # noqa: E402

PRINTED_AT = datetime(2024, 7, 28, 9, 30)


OPEN, LOCAL = "公开组", "天水本地组"


def sample_documents() -> dict[str, tuple[str, dict[str, object]]]:
    """file stem → (document, options for the exports service)."""
    return {
        "table-cards": ("table-cards", {"group": OPEN, "round_number": 4}),
        "table-cards-4up": ("table-cards", {"group": OPEN, "round_number": 4, "per_page": 4}),
        "pairings": ("pairings", {"group": OPEN, "round_number": 4}),
        "pairings-by-name": ("pairings", {"group": OPEN, "round_number": 4, "by_name": True}),
        "results": ("results", {"group": OPEN, "round_number": 3}),
        "standings": ("standings", {"group": OPEN, "round_number": 3}),
        "crosstable": ("crosstable", {"group": OPEN}),
        "teams": ("teams", {"group": OPEN}),
        "prizes": ("prizes", {}),
        "payout": ("payout", {}),
        "record-sheets": ("record-sheets", {"group": LOCAL, "round_number": 9}),
        "entry-list": ("entry-list", {"group": OPEN}),
        "entry-list-internal": ("entry-list", {"group": OPEN, "internal": True}),
        "bracket": ("bracket", {"group": LOCAL}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dpi", type=int, default=110)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "samples")
    parser.add_argument("--keep-pdf", action="store_true")
    parser.add_argument("--all-pages", action="store_true")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="xq-samples-"))
    db = create_demo(work / "demo.xqt", seed=2024)
    play_demo_midway(db, seed=2024)
    for stem, (doc, options) in sample_documents().items():
        data = render_pdf(db, doc, printed_at=PRINTED_AT, **options)  # type: ignore[arg-type]
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
