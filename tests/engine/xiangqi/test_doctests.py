"""The examples in the xiangqi modules' docstrings are run as tests."""

import pytest

from app.engine.xiangqi import board, checks, notation, record
from tests.doctests import run_doctests


@pytest.mark.parametrize("module", [board, notation, record, checks])
def test_docstring_examples(module: object) -> None:
    result = run_doctests(module)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0
