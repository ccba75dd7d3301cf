"""Xiangqi Arbiter (象棋赛事编排系统)."""

#: the program's version, read without importlib.metadata (which costs a start-up); a test keeps it
#: equal to pyproject.toml's
__version__ = "0.1.0"
