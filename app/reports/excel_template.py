"""The registration form (报名表, 附件 2) as an empty Excel template, and its column names.

``FORM_COLUMNS`` is shared with the import (``app/services/excel_import.py``): the label written in
the template and the variants of it that the import accepts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from openpyxl import Workbook
from openpyxl.comments import Comment
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.worksheet.datavalidation import DataValidation


@dataclass(frozen=True, slots=True)
class FormColumn:
    field: str  # PlayerEntry field
    label: str  # written in the template
    aliases: tuple[str, ...]  # other header names accepted on import
    width: float
    note: str  # comment on the header cell


FORM_COLUMNS: tuple[FormColumn, ...] = (
    FormColumn("name", "姓名", ("选手姓名", "棋手姓名", "运动员姓名", "参赛者姓名", "名字"), 12, "必填"),
    FormColumn("gender", "性别", (), 6, "男 / 女（可不填，按身份证号判断）"),
    FormColumn(
        "id_type", "证件类型", ("证件种类",), 14, "不填即为居民身份证；另可填 护照、港澳通行证、台胞证"
    ),
    FormColumn(
        "id_number",
        "身份证号",
        ("身份证号码", "身份证", "证件号码", "证件号", "公民身份号码", "身份证件号码"),
        22,
        "必填，18 位；本列为文本格式，请勿改成数字（会丢失末几位）",
    ),
    FormColumn(
        "birth_date",
        "出生日期",
        ("出生年月日", "生日", "出生年月"),
        12,
        "使用身份证以外的证件时必填，如 1990-01-01",
    ),
    FormColumn(
        "phone",
        "手机号",
        ("手机", "手机号码", "电话", "联系电话", "电话号码", "联系方式"),
        14,
        "必填，11 位大陆手机号",
    ),
    FormColumn("group", "组别", ("参赛组别", "组", "组名"), 12, "从下拉列表选择"),
    FormColumn(
        "team",
        "代表队",
        ("队名", "队伍", "参赛队", "代表队名称", "团体", "团体名称"),
        18,
        "团体报名填写（本地组不设团体）",
    ),
    FormColumn(
        "unit",
        "单位",
        ("工作单位", "所在单位", "单位名称"),
        18,
        "工作单位；不填代表队时在设团体的组别中作为队名",
    ),
    FormColumn(
        "region", "地区", ("所在地区", "地市", "省市", "籍贯"), 12, "如 甘肃天水（同地区回避、本地奖项用）"
    ),
    FormColumn("rating", "等级分", ("等级", "积分等级分"), 8, "无等级分可不填"),
    FormColumn(
        "rating_rank",
        "等级分排名",
        ("排名", "全国排名", "等级分名次"),
        8,
        "等级分排行榜上的名次（第几名）；无排名可不填",
    ),
    FormColumn("insurance", "保险", ("意外保险", "意外保险证明", "保险证明"), 8, "已提交意外保险证明填“是”"),
    FormColumn("pledge", "承诺书", ("安全承诺书",), 8, "已签承诺书填“是”"),
    FormColumn(
        "fee_paid",
        "缴费",
        ("已缴费", "交费", "服务费", "赛事服务费", "缴费情况"),
        8,
        "已缴 100 元服务费填“是”",
    ),
    FormColumn("checked_in", "报到", ("已报到",), 8, "已报到填“是”"),
    FormColumn("notes", "备注", ("说明",), 20, ""),
)

TITLE = "象棋比赛报名表"  # without an event or a regulation file to name it


def template_title(event_name: str) -> str:
    """The form's title for an event: its name and 报名表."""
    return f"{event_name}报名表" if event_name else TITLE


INSTRUCTIONS = (
    "填表说明：每行一名选手；姓名、身份证号（或其他证件号码）、手机号、组别必填；"
    "身份证号列已设为文本格式，请直接输入 18 位号码；保险、承诺书、缴费、报到填“是”或留空。"
)
HEADER_ROW = 3
TEMPLATE_ROWS = 200


def header_key(text: str) -> str:
    """A header cell reduced for matching: no spaces, marks (*, ：) or bracketed remarks.

    >>> header_key(" 身份证号（必填）* ")
    '身份证号'
    """
    key = re.sub(r"[（(【\[].*?[）)】\]]", "", text)
    return re.sub(r"[\s*＊:：/]+", "", key)


def write_registration_template(
    path: Path | str,
    groups: Sequence[str] = ("公开组", "天水本地组"),
    *,
    title: str = TITLE,
) -> Path:
    """Write the empty registration form (附件 2) to ``path`` and return it."""
    wb = Workbook()
    ws = wb.active
    ws.title = "报名表"
    last = len(FORM_COLUMNS)
    ws.cell(row=1, column=1, value=title).font = Font(size=14, bold=True)
    ws.merge_cells(start_row=1, start_column=1, end_row=1, end_column=last)
    ws.cell(row=1, column=1).alignment = Alignment(horizontal="center", vertical="center")
    ws.row_dimensions[1].height = 28
    ws.cell(row=2, column=1, value=INSTRUCTIONS).alignment = Alignment(wrap_text=True, vertical="top")
    ws.merge_cells(start_row=2, start_column=1, end_row=2, end_column=last)
    ws.row_dimensions[2].height = 36

    thin = Side(style="thin", color="888888")
    fill = PatternFill("solid", fgColor="DDEBF7")
    for col, column in enumerate(FORM_COLUMNS, start=1):
        cell = ws.cell(row=HEADER_ROW, column=col, value=column.label)
        cell.font = Font(bold=True)
        cell.fill = fill
        cell.alignment = Alignment(horizontal="center")
        cell.border = Border(top=thin, bottom=thin, left=thin, right=thin)
        if column.note:
            cell.comment = Comment(column.note, "xqarbiter")
        letter = cell.column_letter
        ws.column_dimensions[letter].width = column.width
        if column.field in ("id_number", "phone"):
            for row in range(HEADER_ROW + 1, HEADER_ROW + 1 + TEMPLATE_ROWS):
                ws.cell(row=row, column=col).number_format = "@"  # text: long numbers stay exact
        if column.field == "birth_date":
            for row in range(HEADER_ROW + 1, HEADER_ROW + 1 + TEMPLATE_ROWS):
                ws.cell(row=row, column=col).number_format = "yyyy-mm-dd"
    ws.freeze_panes = ws.cell(row=HEADER_ROW + 1, column=1)

    def choose(field: str, options: Sequence[str]) -> None:
        options = [o for o in options if '"' not in o and "," not in o]  # a list validation cannot hold them
        if not options:
            return
        col = next(i for i, c in enumerate(FORM_COLUMNS, start=1) if c.field == field)
        letter = ws.cell(row=HEADER_ROW, column=col).column_letter
        formula = '"' + ",".join(options) + '"'
        dv = DataValidation(type="list", formula1=formula, allow_blank=True, showErrorMessage=True)
        dv.error, dv.errorTitle = "请从下拉列表中选择", "输入无效"
        ws.add_data_validation(dv)
        dv.add(f"{letter}{HEADER_ROW + 1}:{letter}{HEADER_ROW + TEMPLATE_ROWS}")

    choose("group", groups)
    choose("gender", ("男", "女"))
    choose("id_type", ("居民身份证", "护照", "港澳居民来往内地通行证", "台湾居民来往大陆通行证"))
    for flag in ("insurance", "pledge", "fee_paid", "checked_in"):
        choose(flag, ("是", "否"))
    import io

    from app.files import write_atomic

    buf = io.BytesIO()
    wb.save(buf)
    return write_atomic(path, buf.getvalue())
