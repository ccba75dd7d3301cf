"""python -m app [FILE.xqt] [--demo] — open the arbiter's window."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="xqarbiter-gui", description="象棋赛事编排系统")
    parser.add_argument("file", nargs="?", help="tournament file (.xqt)")
    parser.add_argument("--demo", action="store_true", help="open the demo tournament (created once)")
    parser.add_argument("--screenshot", default=None, help="render the window to this PNG and exit")
    args = parser.parse_args(argv)

    from app.ui.application import run

    return run(Path(args.file) if args.file else None, demo=args.demo, screenshot=args.screenshot)


if __name__ == "__main__":
    sys.exit(main())
