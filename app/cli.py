"""xqarbiter — the headless command line (same services as the window)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    raise SystemExit("not yet")


if __name__ == "__main__":
    sys.exit(main())
