"""The examples in the pairing modules' docstrings run as written."""

from __future__ import annotations

from types import ModuleType

import pytest

from app.engine.pairing import colours, criteria, engine, model, pool, tuning
from tests.doctests import run_doctests


@pytest.mark.parametrize("module", [criteria, pool, tuning, engine, model, colours], ids=lambda m: m.__name__)
def test_doctests(module: ModuleType) -> None:
    result = run_doctests(module)
    assert result.attempted > 0 and result.failed == 0
