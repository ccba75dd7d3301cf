"""Where the program's resources and the arbiter's data live (no Qt, usable by every layer)."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def resources_dir() -> Path:
    """``resources/`` beside the ``app`` package, or inside the PyInstaller bundle when frozen."""
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:
        return Path(bundle) / "resources"
    return Path(__file__).resolve().parent.parent / "resources"


def font_path() -> Path:
    return resources_dir() / "fonts" / "wqy-microhei.ttc"


def data_dir() -> Path:
    """The arbiter's own folder for tournaments (demo event, backups): %APPDATA% or ~/.local/share."""
    override = os.environ.get("XQARBITER_DATA")
    if override:
        base = Path(override)
    elif sys.platform == "win32":
        base = Path(os.environ.get("APPDATA", Path.home())) / "XiangqiArbiter"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "xqarbiter"
    base.mkdir(parents=True, exist_ok=True)
    return base
