"""Phone screenshots of the hall network's pages (赛场网络) for the README: docs/screenshots/hall-*.png.

The demo event mid-tournament (as ``scripts/screenshots.py`` builds it) is served on 127.0.0.1 by the
real hall server; Debian's chromium, driven by playwright, opens each page at a phone's width.

    .venv/bin/python scripts/hall_screenshots.py [OUT_DIR]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.services import hall  # noqa: E402
from app.services.demo import create_demo  # noqa: E402
from app.services.simulation import play_demo_midway  # noqa: E402
from app.web.app import ThreadOwner  # noqa: E402
from app.web.server import HallServer  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}

#: (file name, path or None for the deputy's page, text to type into the board search)
PAGES = (
    ("hall-index.png", "/", ""),
    ("hall-round.png", "/g/1/", ""),
    ("hall-search.png", "/g/1/", "王"),
    ("hall-board.png", "/g/1/r/4/b/7", ""),
    ("hall-standings.png", "/g/1/standings", ""),
    ("hall-bracket.png", "/g/2/bracket", ""),
    ("hall-deputy.png", None, ""),
)


def font_config(work: Path) -> dict[str, str]:
    """Environment for chromium: fontconfig that also knows the program's own CJK font (resources/fonts),
    so the pictures need no system font package."""
    conf = work / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
        '<include ignore_missing="yes">/etc/fonts/fonts.conf</include>'
        f"<dir>{ROOT / 'resources' / 'fonts'}</dir><cachedir>{work / 'fontcache'}</cachedir></fontconfig>",
        encoding="utf-8",
    )
    return {"FONTCONFIG_FILE": str(conf)}


def main() -> int:
    from playwright.sync_api import sync_playwright

    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    out.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="xq-hall-"))
    db = create_demo(work / "demo.xqt", seed=2024)
    play_demo_midway(db, seed=2024)
    issued = hall.issue_deputy_token(db, "公开组", 9, 12, "张副裁判")
    owner = ThreadOwner()
    server = HallServer(db, owner, port=0)
    url = server.start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS, env={**os.environ, **font_config(work)}
            )
            context = browser.new_context(
                viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="zh-CN"
            )
            page = context.new_page()
            for name, path, typed in PAGES:
                page.goto(url + (path or hall.deputy_path(issued.token)))
                if typed:
                    page.fill("#q", typed)
                if path is None:  # the deputy sends board 10 so the page shows an entry waiting
                    page.click("#b10 button[value=red_win]")
                    page.wait_for_selector(".notice")
                    page.evaluate("window.scrollTo(0, 0)")
                page.screenshot(path=str(out / name))
                print(out / name)
            browser.close()
    finally:
        server.stop()
        owner.close()
        db.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
