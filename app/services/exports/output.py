"""Documents rendered and written: a PDF (or a tall picture) by name, the result workbook (the public
site: :mod:`app.services.public_pages`)."""

from __future__ import annotations

import io
from datetime import datetime
from pathlib import Path

from app.db.session import Database
from app.engine.types import UserError
from app.reports.documents import NAMES, kind, names
from app.services.collector import collection_paused
from app.services.exports.event import result_workbook, team_event_books
from app.services.exports.registry import document

#: Lists that can be ordered by number, name, rating or team (``order``).
ORDERED_DOCUMENTS = names(lambda d: d.ordered)
#: The public lists that can be made into one tall picture (for a WeChat group).
IMAGE_DOCUMENTS = names(lambda d: d.image)
#: Documents printed with full ID numbers and phones (内部): their files are owner-only (0600).
PRIVATE_DOCUMENTS = ("payout",)


def holds_personal_numbers(name: str, *, internal: bool = False) -> bool:
    """Whether document ``name`` carries full ID numbers or phones, so that its file must be readable
    by its owner only, as backups and snapshots are: the payout sheet and the internal entry list."""
    return name in PRIVATE_DOCUMENTS or (internal and name == "entry-list")


def render_pdf(
    db: Database,
    name: str,
    *,
    group: str | None = None,
    round_number: int | None = None,
    per_page: int = 2,
    by_name: bool = False,
    internal: bool = False,
    printed_at: datetime | None = None,
    base_url: str | None = None,
    order: str = "",
) -> bytes:
    """The PDF of document ``name`` as bytes (nothing is written if the document cannot exist).

    ``base_url``: the hall network's address for the QR codes (see :func:`document`). ``by_name`` sorts
    pairings and results by name, and orders the entry list and the check-in sheet by name unless
    ``order`` (no, name, rating, team) says otherwise."""
    from app.reports.pdf import render_document

    if by_name and not order and name in ORDERED_DOCUMENTS:
        order = "name"
    options = {"sort_by_name": True} if by_name and name in NAMES and kind(name).by_name else {}
    buf = io.BytesIO()
    with collection_paused():  # a results book's read model and layout: ~10⁶ objects, none cyclic garbage
        inputs = document(
            db,
            name,
            group=group,
            round_number=round_number,
            per_page=per_page,
            internal=internal,
            base_url=base_url,
            order=order,
        )
        render_document(name, inputs, buf, printed_at=printed_at or datetime.now(), **options)
    return buf.getvalue()


def render_image(db: Database, name: str, *, scale: float | None = None, **options: object) -> bytes:
    """Public list ``name`` as one tall PNG (its PDF pages stacked), for a WeChat group.

    ``options`` as for :func:`render_pdf`; refused for the table cards, record sheets and the internal
    documents (they are not lists to post).
    """
    from app.reports.image import DEFAULT_SCALE, tall_png

    if name not in IMAGE_DOCUMENTS:
        raise UserError(
            f"“{name}”不能做成图片；可选：{'、'.join(IMAGE_DOCUMENTS)}",
            f"{name!r} cannot be made into a picture; choose one of {', '.join(IMAGE_DOCUMENTS)}",
        )
    if options.get("internal"):
        raise UserError("内部名单不能做成公开图片", "an internal list cannot be made into a public picture")
    if scale is not None and not 0.5 <= scale <= 4:
        raise UserError(f"缩放比例 {scale} 无效（0.5–4）", f"invalid scale {scale} (0.5–4)")
    pdf = render_pdf(db, name, **options)  # type: ignore[arg-type]
    return tall_png(pdf, DEFAULT_SCALE if scale is None else scale)


def write_document(db: Database, name: str, out: str | Path, **options: object) -> Path:
    """Render document ``name`` (see :func:`render_pdf`) and write it to ``out`` in one go (a temporary
    file renamed into place: a failure leaves no truncated PDF)."""
    from app.files import check_output_path, write_atomic

    check_output_path(out)
    data = render_pdf(db, name, **options)  # type: ignore[arg-type]
    return write_atomic(
        out, data, private=holds_personal_numbers(name, internal=bool(options.get("internal")))
    )


def write_result_workbook(db: Database, out: str | Path) -> Path:
    from app.files import check_output_path, write_atomic
    from app.reports.excel import write_workbook

    check_output_path(out)
    buf = io.BytesIO()
    with collection_paused():
        with db.one_reading():
            data, teams = result_workbook(db), team_event_books(db)
        write_workbook(data, buf, teams)
    return write_atomic(out, buf.getvalue())
