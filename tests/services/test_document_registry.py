"""One registry of documents: the services build, and the PDF renderer renders, exactly the documents it lists."""

from __future__ import annotations

import io
from datetime import datetime

import pytest

import app.reports.documents as documents_module
from app.engine.types import UserError
from app.reports.documents import NAMES, names
from app.reports.pdf import render_document
from app.services.exports.registry import BUILDERS
from tests.doctests import run_doctests


def test_the_services_build_exactly_the_registered_documents() -> None:
    assert tuple(BUILDERS) == NAMES


@pytest.mark.parametrize("name", NAMES)
def test_the_renderer_knows_every_registered_document(name: str) -> None:
    # a known document refuses a read model of the wrong kind; an unknown one is refused by name
    with pytest.raises(UserError, match="数据类型不对"):
        render_document(name, object(), io.BytesIO(), printed_at=datetime(2026, 1, 1))


def test_the_renderer_refuses_a_name_the_registry_does_not_list() -> None:
    with pytest.raises(UserError, match="未知的文档"):
        render_document("menu", object(), io.BytesIO(), printed_at=datetime(2026, 1, 1))


def test_the_registry_answers_what_the_menus_and_options_ask() -> None:
    assert names(lambda d: d.internal) == ("payout", "check-in", "avoidances")
    assert names(lambda d: d.ordered) == ("entry-list", "check-in")
    assert set(names(lambda d: d.image)).isdisjoint(names(lambda d: d.internal))  # pictures are public
    assert len(set(NAMES)) == len(NAMES)


def test_doctests() -> None:
    result = run_doctests(documents_module)
    assert result.attempted and not result.failed
