"""print / excel / html: every document from the command line.

A document that cannot exist yet is refused on stderr with exit code 2 and no output file: the
document is built and rendered in memory first, and written only once it is complete.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from app.cli.common import ROUND, number_between, open_file, output_path, write_output
from app.engine.types import UserError
from app.reports.documents import NAMES, names

IMAGE_NAMES = ", ".join(names(lambda d: d.image))
BASE_URL_HELP = (
    "the hall network's address for the QR codes (default: the one recorded when it was served on a "
    'network; "" prints none)'
)

# from the document registry, which imports nothing: the parser loads no service and no renderer
DOCUMENT_NAMES = ", ".join(NAMES)


def cmd_print(args: argparse.Namespace) -> int:
    from app.services.exports import render_pdf

    out = output_path(args.out)
    with open_file(args.file, read_only=True) as db:
        data = render_pdf(
            db,
            args.document,
            group=args.group,
            round_number=args.round,
            per_page=args.per_page,
            by_name=args.by_name,
            internal=args.internal,
            order=args.order or "",
            base_url=args.base_url,
        )
    from app.services.exports import holds_personal_numbers

    write_output(out, data, private=holds_personal_numbers(args.document, internal=args.internal))
    print(f"已生成 {args.out}")
    return 0


def cmd_image(args: argparse.Namespace) -> int:
    from app.services.exports import render_image

    out = output_path(args.out)
    with open_file(args.file, read_only=True) as db:
        data = render_image(
            db,
            args.document,
            group=args.group,
            round_number=args.round,
            by_name=args.by_name,
            scale=args.scale,
            base_url=args.base_url,
        )
    write_output(out, data)
    print(f"已生成长图 {args.out}")
    return 0


def cmd_excel(args: argparse.Namespace) -> int:
    import io

    from app.reports.excel import write_workbook
    from app.services.exports import collection_paused, result_workbook, team_event_books

    out = output_path(args.out)
    buf = io.BytesIO()
    with collection_paused():  # hundreds of thousands of read-model objects: nothing cyclic to free
        with open_file(args.file, read_only=True) as db:
            data, teams = result_workbook(db), team_event_books(db)
        write_workbook(data, buf, teams)
    write_output(out, buf.getvalue())
    print(f"已导出成绩册 {args.out}")
    return 0


def cmd_html(args: argparse.Namespace) -> int:
    from app.services.public_pages import write_public_site

    if not args.out.strip():
        raise UserError("没有给出网页要导出到的文件夹", "no output folder was given")
    with open_file(args.file, read_only=True) as db:
        files = write_public_site(db, Path(args.out))
    print(f"已导出网页 {Path(args.out)}/index.html（{len(files)} 页）")
    return 0


def register(sub: Any) -> None:
    p = sub.add_parser("print", help="print a document as PDF / 打印文档")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("document", metavar="DOC", help=DOCUMENT_NAMES)
    p.add_argument("--group", default=None, help="required when the tournament has several groups")
    p.add_argument("--round", type=ROUND, default=None, help="default: the group's latest paired round")
    p.add_argument("--per-page", type=int, choices=(1, 2, 4), default=2, help="table cards per A4 page")
    p.add_argument("--by-name", action="store_true", help="pairings/results sorted by name (notice board)")
    p.add_argument("--internal", action="store_true", help="entry list: internal variant (内部)")
    p.add_argument(
        "--order",
        choices=["team", "no", "name", "rating"],
        default=None,
        help="entry list / check-in sheet: by team (default), number, name (pinyin) or rating",
    )
    p.add_argument("--base-url", default=None, help=BASE_URL_HELP)
    p.add_argument("-o", "--out", required=True, help="the PDF file to write")
    p.set_defaults(func=cmd_print)

    p = sub.add_parser("image", help="a public list as one tall PNG for WeChat / 存为长图")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("document", metavar="DOC", help=IMAGE_NAMES)
    p.add_argument("--group", default=None, help="required when the tournament has several groups")
    p.add_argument("--round", type=ROUND, default=None, help="default: the group's latest paired round")
    p.add_argument("--by-name", action="store_true", help="pairings/results sorted by name (notice board)")
    p.add_argument(
        "--scale",
        type=number_between("比例", "scale", 0.5, 4.0),
        default=None,
        help="pixels per point, 0.5–4 (default 2: 144 dpi)",
    )
    p.add_argument("--base-url", default=None, help=BASE_URL_HELP)
    p.add_argument("-o", "--out", required=True, help="the PNG file to write")
    p.set_defaults(func=cmd_image)

    p = sub.add_parser("excel", help="export the result workbook / 导出成绩册 (xlsx)")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("-o", "--out", required=True, help="the .xlsx file to write")
    p.set_defaults(func=cmd_excel)

    p = sub.add_parser("html", help="export the public web pages / 导出网页")
    p.add_argument("file", help="the tournament file (.xqt)")
    p.add_argument("-o", "--out", required=True, help="the output folder")
    p.set_defaults(func=cmd_html)
