"""Reading JSON documents from outside (snapshots, bulk results) and saying exactly what is wrong.

A document is read whole, strictly — UTF-8 (a BOM is allowed), no duplicate keys, no ``NaN`` or
``Infinity``, at most :data:`MAX_DEPTH` levels deep — and then validated against one schema (pydantic
models, see :mod:`app.services.schemas`) before anything is written. Every error names its JSON path
(``players[3].status``) in Chinese and English.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from app.engine.types import UserError
from app.files import read_limited

MAX_DEPTH = 32
MAX_JSON_BYTES = 64 * 1024 * 1024
MAX_ERRORS_SHOWN = 10


class DocumentError(UserError):
    """A document that cannot be read or does not fit its schema; nothing was written."""


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


class _Duplicate(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def _no_constant(name: str) -> Any:
    raise _BadConstant(name)


class _BadConstant(ValueError):
    pass


def depth_of(value: Any) -> int:
    """How deeply lists and objects nest (iteratively: a hostile document cannot exhaust the stack)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            deepest = max(deepest, depth)
            stack.extend((v, depth + 1) for v in item)
    return deepest


def parse_json_text(text: str, what_zh: str, what_en: str) -> Any:
    """Strict JSON: one clear :class:`DocumentError` for anything else."""
    try:
        data = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except _Duplicate as exc:
        raise DocumentError(
            f"{what_zh}中字段“{exc.key}”在同一对象里出现了两次",
            f"{what_en}: the key {exc.key!r} appears twice",
        ) from None
    except _BadConstant as exc:
        raise DocumentError(
            f"{what_zh}中有 JSON 不允许的数值 {exc}", f"{what_en}: {exc} is not a JSON number"
        ) from None
    except RecursionError:
        raise DocumentError(f"{what_zh}嵌套层次过深", f"{what_en} is nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise DocumentError(
            f"{what_zh}不是有效的 JSON（第 {exc.lineno} 行第 {exc.colno} 列：{exc.msg}）",
            f"{what_en} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})",
        ) from None
    except ValueError as exc:  # e.g. an integer with more digits than Python converts
        raise DocumentError(
            f"{what_zh}中有无法读取的数值（{exc}）", f"{what_en}: unreadable number ({exc})"
        ) from None
    if depth_of(data) > MAX_DEPTH:
        raise DocumentError(
            f"{what_zh}嵌套层次过深（超过 {MAX_DEPTH} 层）",
            f"{what_en} is nested more than {MAX_DEPTH} levels deep",
        )
    return data


def decode_document(raw: bytes, what_zh: str, what_en: str) -> str:
    """UTF-8 text (with or without a BOM); anything else is refused, never guessed."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DocumentError(
            f"{what_zh}不是 UTF-8 编码（第 {exc.start} 个字节无法解码），请另存为 UTF-8",
            f"{what_en} is not UTF-8 (byte {exc.start} does not decode); save it as UTF-8",
        ) from None


def read_json_document(path: Path, what_zh: str, what_en: str, *, max_bytes: int = MAX_JSON_BYTES) -> Any:
    """A JSON file read strictly (see the module docstring)."""
    raw = read_limited(path, max_bytes, what_zh=what_zh, what_en=what_en)
    name_zh, name_en = f"{what_zh} {path.name} ", f"the {what_en} {path.name}"
    return parse_json_text(decode_document(raw, name_zh, name_en), name_zh, name_en)


# --------------------------------------------------------------------------- schema errors

_MESSAGES: dict[str, tuple[str, str]] = {
    "missing": ("缺少此字段", "is missing"),
    "extra_forbidden": ("是未知字段", "is not a known field"),
    "int_type": ("应为整数", "must be a whole number"),
    "int_parsing": ("应为整数", "must be a whole number"),
    "int_from_float": ("应为整数", "must be a whole number"),
    "bool_type": ("应为 true 或 false", "must be true or false"),
    "bool_parsing": ("应为 true 或 false", "must be true or false"),
    "string_type": ("应为文字", "must be text"),
    "list_type": ("应为列表", "must be a list"),
    "dict_type": ("应为对象", "must be an object"),
    "model_type": ("应为对象", "must be an object"),
    "model_attributes_type": ("应为对象", "must be an object"),
    "tuple_type": ("应为列表", "must be a list"),
    "none_required": ("应为 null", "must be null"),
    "enum": ("不是允许的值", "is not an allowed value"),
    "literal_error": ("不是允许的值", "is not an allowed value"),
    "greater_than_equal": ("数值过小", "is too small"),
    "greater_than": ("数值过小", "is too small"),
    "less_than_equal": ("数值过大", "is too large"),
    "less_than": ("数值过大", "is too large"),
    "string_too_long": ("过长", "is too long"),
    "string_too_short": ("不能为空", "must not be empty"),
    "too_long": ("项数过多", "has too many items"),
    "too_short": ("项数过少", "has too few items"),
    "date_from_datetime_parsing": ("不是有效的日期", "is not a valid date"),
    "date_parsing": ("不是有效的日期", "is not a valid date"),
    "date_type": ("不是有效的日期", "is not a valid date"),
    "datetime_parsing": ("不是有效的日期时间", "is not a valid date-time"),
    "datetime_from_date_parsing": ("不是有效的日期时间", "is not a valid date-time"),
    "datetime_type": ("不是有效的日期时间", "is not a valid date-time"),
}


_FIELD_ZH = {
    "result": "结果",
    "board": "台次",
    "round": "轮次",
    "name": "名称",
    "group": "组别",
    "status": "状态",
    "kind": "类型",
    "no": "序号",
    "red": "红方",
    "black": "黑方",
    "player": "棋手",
    "id_number": "证件号码",
    "birth_date": "出生日期",
    "team": "代表队",
}


def json_path(loc: tuple[int | str, ...], root: str = "") -> str:
    """``("players", 3, "status")`` → ``players[3].status``."""
    out = root
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "（整个文件）"


def _labelled(loc: tuple[int | str, ...], root: str) -> str:
    last = next((p for p in reversed(loc) if isinstance(p, str)), None)
    label = _FIELD_ZH.get(last or "")
    return json_path(loc, root) + (f"（{label}）" if label else "")


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "…"


def schema_error(exc: Any, what_zh: str, what_en: str, *, root: str = "") -> DocumentError:
    """A pydantic ``ValidationError`` as one message listing each error with its JSON path."""
    lines_zh: list[str] = []
    lines_en: list[str] = []
    errors = exc.errors(include_url=False)
    for err in errors[:MAX_ERRORS_SHOWN]:
        where = _labelled(tuple(p for p in err["loc"] if not _is_union_tag(p)), root)
        kind = err["type"]
        given = "" if kind == "missing" else f"（现为 {_shown(err.get('input'))}）"
        given_en = "" if kind == "missing" else f" (given: {_shown(err.get('input'))})"
        if kind == "value_error":
            ctx_error = err.get("ctx", {}).get("error")
            if isinstance(ctx_error, UserError):
                lines_zh.append(f"{where}：{ctx_error.zh}")
                lines_en.append(f"{where}: {ctx_error.en}")
            else:
                text = str(ctx_error) if ctx_error is not None else err["msg"]
                lines_zh.append(f"{where}：{text}{given}")
                lines_en.append(f"{where}: {text}{given_en}")
            continue
        zh, en = _MESSAGES.get(kind, (err["msg"], err["msg"]))
        if kind in ("enum", "literal_error"):
            expected = err.get("ctx", {}).get("expected", "")
            zh, en = f"{zh}（可选：{expected}）", f"{en} ({expected})"
        elif (
            "limit_value" in err.get("ctx", {})
            or "max_length" in err.get("ctx", {})
            or "min_length" in err.get("ctx", {})
        ):
            ctx = err["ctx"]
            limit = ctx.get("limit_value", ctx.get("max_length", ctx.get("min_length")))
            zh, en = f"{zh}（界限 {limit}）", f"{en} (limit {limit})"
        lines_zh.append(f"{where}：{zh}{given}")
        lines_en.append(f"{where}: {en}{given_en}")
    more = len(errors) - MAX_ERRORS_SHOWN
    tail_zh = f"\n……另有 {more} 处错误" if more > 0 else ""
    tail_en = f"\n… and {more} more" if more > 0 else ""
    return DocumentError(
        f"{what_zh}有 {len(errors)} 处错误，未做任何修改：\n" + "\n".join(lines_zh) + tail_zh,
        f"{what_en} has {len(errors)} error(s); nothing was changed:\n" + "\n".join(lines_en) + tail_en,
    )


def _is_union_tag(part: int | str) -> bool:
    return isinstance(part, str) and (part.startswith("function-") or "[" in part)


__all__ = [
    "MAX_DEPTH",
    "DocumentError",
    "decode_document",
    "depth_of",
    "json_path",
    "parse_json_text",
    "read_json_document",
    "schema_error",
]
