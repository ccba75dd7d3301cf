"""Collect the interface strings of ``app/ui`` into ``resources/i18n/xqarbiter_en.ts`` (Qt Linguist).

Reads the Python sources with ``ast`` (``self.tr("…")`` → context = enclosing class;
``tr("Ctx", "…")``, ``translate_noop("Ctx", "…")`` and ``QCoreApplication.translate("Ctx", "…")``),
keeps every translation already in the file, marks new strings unfinished, and drops strings no
longer used. (``pyside6-lupdate`` does not see our ``tr``/``translate_noop`` helpers, hence this.)
Run: ``python scripts/update_translations.py``; then ``make i18n`` compiles the ``.qm``.
"""

from __future__ import annotations

import ast
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TS = ROOT / "resources" / "i18n" / "xqarbiter_en.ts"


def collect() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "app" / "ui").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for cls_or_mod in [tree, *[n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]]:
            context = cls_or_mod.name if isinstance(cls_or_mod, ast.ClassDef) else None
            for node in ast.walk(cls_or_mod):
                if not isinstance(node, ast.Call):
                    continue
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                args = [
                    a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
                ]
                if name == "tr" and isinstance(func, ast.Attribute) and context and len(args) == 1:
                    pair = (context, args[0])
                elif name in ("tr", "translate", "translate_noop") and len(args) == 2 and len(node.args) == 2:
                    pair = (args[0], args[1])
                else:
                    continue
                texts = found.setdefault(pair[0], [])
                if pair[1] not in texts:
                    texts.append(pair[1])
    return found


def existing() -> dict[tuple[str, str], str]:
    if not TS.exists():
        return {}
    known = {}
    for ctx in ET.parse(TS).getroot().iter("context"):
        name = ctx.findtext("name", "")
        for msg in ctx.iter("message"):
            tr = msg.find("translation")
            if tr is not None and tr.text and tr.get("type") not in ("unfinished", "obsolete"):
                known[(name, msg.findtext("source", ""))] = tr.text
    return known


def write(found: dict[str, list[str]], known: dict[tuple[str, str], str]) -> int:
    root = ET.Element("TS", version="2.1", language="en_GB", sourcelanguage="zh_CN")
    missing = 0
    for context in sorted(found):
        ctx = ET.SubElement(root, "context")
        ET.SubElement(ctx, "name").text = context
        for text in found[context]:
            msg = ET.SubElement(ctx, "message")
            ET.SubElement(msg, "source").text = text
            tr = ET.SubElement(msg, "translation")
            if (context, text) in known:
                tr.text = known[(context, text)]
            else:
                tr.set("type", "unfinished")
                missing += 1
    ET.indent(root)
    TS.parent.mkdir(parents=True, exist_ok=True)
    TS.write_text(
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n'
        + ET.tostring(root, encoding="unicode")
        + "\n",
        encoding="utf-8",
    )
    return missing


if __name__ == "__main__":
    missing = write(collect(), existing())
    print(f"{TS.relative_to(ROOT)}: {missing} strings without a translation")
    sys.exit(0)
