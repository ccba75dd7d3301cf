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
    parser.add_argument(
        "--self-test", action="store_true", help="check the installed program headless and exit (0 = ok)"
    )
    args = parser.parse_args(argv)
    if args.self_test:
        from app.selftest import run_self_test

        return run_self_test()

    from app.ui.application import run

    return run(Path(args.file) if args.file else None, demo=args.demo, screenshot=args.screenshot)


if __name__ == "__main__":
    sys.exit(main())
