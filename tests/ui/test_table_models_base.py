"""Every table model of the window is a FixedColumnsModel: rowCount / columnCount / headers live in one place."""

from __future__ import annotations

import ast
from pathlib import Path

import app.ui

UI = Path(app.ui.__file__).parent
QT_COUNTS = {"rowCount", "columnCount", "headerData"}


def test_only_the_base_defines_row_and_column_counts_and_headers() -> None:
    defined: list[str] = []
    models: list[str] = []
    for path in UI.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ClassDef):
                continue
            bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
            assert "QAbstractTableModel" not in bases or node.name == "FixedColumnsModel", node.name
            if "FixedColumnsModel" in bases:
                models.append(node.name)
            defined += [
                f"{path.name}:{node.name}.{f.name}"
                for f in node.body
                if isinstance(f, ast.FunctionDef)
                and f.name in QT_COUNTS - {"columnCount"}
                and node.name != "FixedColumnsModel"
            ]
    assert defined == []
    assert {"PairingTableModel", "PlayerTableModel", "StandingsTableModel", "AuditModel"} <= set(models)
