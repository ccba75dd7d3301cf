"""Every printed document of two versions of the program, compared: byte for byte, else pixel for pixel.

``--before`` is a folder holding another version's ``app`` package and ``resources`` (for instance
``git archive main app resources | tar -x -C /tmp/before``); "after" is this checkout's. Each version
renders, in a process of its own, every document that the events hold (each group; table cards at 1,
2 and 4 a page, with the hall's QR codes too; pairings and results also by name; the entry list by
number and internal), with a fixed print time and ReportLab's invariant mode (a PDF's date and file
identifier fixed), so that the same document is the same bytes. Where the bytes differ, every page of
both is rendered with pypdfium2 (``--dpi``, print resolution by default) and compared pixel for pixel,
and their text by page too; a difference is reported and the exit code is 1.

    python bench/compare_pdfs.py --before /tmp/before [--big] [--dpi 300]

The events: the demo (160 players in two groups) played to the end, through round 3, and midway (a
round half entered, a knockout under way), built here;
``--big`` adds the 5,000-player event of :mod:`big_event` (its documents' pages compared pixel for pixel
only on the first, middle and last three pages of each: a full comparison at print resolution takes
hours).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

HERE = Path(__file__).resolve().parent.parent

#: run by each version: the documents of an event, one PDF each, into a folder
_RENDER = r"""
import json, sys
from datetime import datetime
from pathlib import Path
from app.engine.types import UserError
from app.services.exports import render_pdf
from app.services.tournaments import open_tournament

event, out, cases = Path(sys.argv[1]), Path(sys.argv[2]), json.loads(sys.argv[3])
db = open_tournament(event, read_only=True)
made = {}
try:
    for key, name, options in cases:
        try:
            data = render_pdf(db, name, printed_at=datetime(2026, 5, 1, 9, 30), **options)
        except UserError as exc:
            made[key] = "refused: " + str(exc)
            continue
        (out / f"{key}.pdf").write_bytes(data)
        made[key] = "written"
finally:
    db.close()
print(json.dumps(made))
"""


def cases_for(event: Path, big: bool) -> list[tuple[str, str, dict[str, object]]]:
    """Every document of every group of ``event`` (some are refused: a group without teams)."""
    from app.reports.documents import NAMES
    from app.services.tournaments import open_tournament, tournament_info

    db = open_tournament(event, read_only=True)
    try:
        groups = [g.name for g in tournament_info(db).groups if g.players]
    finally:
        db.close()
    out: list[tuple[str, str, dict[str, object]]] = []
    for g, group in enumerate(groups):
        for name in NAMES:
            out.append((f"g{g}-{name}", name, {"group": group}))
        for per_page in (1, 4) if not big else (4,):
            out.append(
                (f"g{g}-table-cards-{per_page}", "table-cards", {"group": group, "per_page": per_page})
            )
        qr = {"group": group, "base_url": "http://192.168.1.20:8000"}
        out.append((f"g{g}-table-cards-qr", "table-cards", {**qr, "per_page": 4}))
        out.append((f"g{g}-pairings-qr", "pairings", qr))
        out.append((f"g{g}-table-cards-r1", "table-cards", {"group": group, "round_number": 1}))
        for name in ("pairings", "results"):
            out.append((f"g{g}-{name}-by-name", name, {"group": group, "by_name": True}))
        out.append((f"g{g}-entry-list-no", "entry-list", {"group": group, "order": "no"}))
        out.append((f"g{g}-entry-list-internal", "entry-list", {"group": group, "internal": True}))
    return out


def render(
    root: Path, event: Path, out: Path, cases: list[tuple[str, str, dict[str, object]]]
) -> dict[str, str]:
    out.mkdir(parents=True)
    env = {**os.environ, "PYTHONPATH": str(root), "RL_invariant": "1", "XQARBITER_DATA": str(out / "data")}
    done = subprocess.run(
        [sys.executable, "-c", _RENDER, str(event), str(out), json.dumps(cases)],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        timeout=3600,
    )
    made: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    return made


def pages_differ(a: Path, b: Path, dpi: int, sample: bool) -> list[str]:
    """The pages of two PDFs that render differently (or whose text differs); [] if none."""
    import pypdfium2 as pdfium

    x, y = pdfium.PdfDocument(a), pdfium.PdfDocument(b)
    try:
        if len(x) != len(y):
            return [f"{len(x)} pages against {len(y)}"]
        n = len(x)
        pages = range(n)
        if sample and n > 9:
            pages = sorted({*range(3), *range(n // 2 - 1, n // 2 + 2), *range(n - 3, n)})
        bad = []
        for i in pages:
            p, q = x[i], y[i]
            if p.get_textpage().get_text_range() != q.get_textpage().get_text_range():
                bad.append(f"page {i + 1}: text")
                continue
            one = p.render(scale=dpi / 72).to_pil()
            two = q.render(scale=dpi / 72).to_pil()
            if one.size != two.size or one.tobytes() != two.tobytes():
                bad.append(f"page {i + 1}: pixels")
        return bad
    finally:
        x.close()
        y.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--before", required=True, type=Path, help="a folder holding the other version's app/"
    )
    parser.add_argument("--big", action="store_true", help="also the 5,000-player event (slow)")
    parser.add_argument("--dpi", type=int, default=300)
    args = parser.parse_args()
    from app.services.demo import create_demo
    from app.services.simulation import play_demo_midway

    failed = False
    with tempfile.TemporaryDirectory(prefix="xq-pdfs-") as tmp:
        work = Path(tmp)
        events = []
        for played in ("end", 3, "midway"):
            path = work / f"demo-{played}.xqt"
            if played == "midway":  # 公开组 round 4 half entered; 天水本地组's knockout under way
                db = create_demo(path, seed=2024)
                play_demo_midway(db, seed=2024)
            else:
                db = create_demo(path, seed=2024, played_to=played)
            db.close()
            events.append((path, False))
        if args.big:
            from big_event import big_event

            events.append((big_event(5000), True))
        for event, big in events:
            cases = cases_for(event, big)
            made = {
                side: render(root, event, work / f"{event.stem}-{side}", cases)
                for side, root in (("before", args.before.resolve()), ("after", HERE))
            }
            same = pixels = 0
            for key, _, _ in cases:
                if made["before"][key] != made["after"][key]:
                    print(f"{event.name} {key}: {made['before'][key]} / {made['after'][key]}")
                    failed = True
                    continue
                if made["before"][key] != "written":
                    continue
                a, b = (work / f"{event.stem}-{side}" / f"{key}.pdf" for side in ("before", "after"))
                if a.read_bytes() == b.read_bytes():
                    same += 1
                    continue
                bad = pages_differ(a, b, args.dpi, big)
                if bad:
                    print(f"{event.name} {key}: {bad[:5]}")
                    failed = True
                else:
                    pixels += 1
            refused = sum(v != "written" for v in made["after"].values())
            print(
                json.dumps(
                    {
                        "event": event.name,
                        "documents": len(cases),
                        "refused (both)": refused,
                        "same bytes": same,
                        "same pixels": pixels,
                        "dpi": args.dpi,
                    },
                    ensure_ascii=False,
                )
            )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
