"""Every interface string of the window has an English translation in resources/i18n/xqarbiter_en.ts."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _script():  # scripts/update_translations.py, which collects the strings as Qt Linguist would
    spec = importlib.util.spec_from_file_location(
        "update_translations", ROOT / "scripts" / "update_translations.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_string_of_the_window_is_left_untranslated() -> None:
    script = _script()
    found = script.collect()
    known = script.existing()  # finished translations only
    missing = [
        (context, text) for context, texts in found.items() for text in texts if (context, text) not in known
    ]
    assert sum(len(t) for t in found.values()) > 500
    assert missing == []
