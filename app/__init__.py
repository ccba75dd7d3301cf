"""Xiangqi Arbiter (象棋赛事编排系统)."""

#: the program's version, read without importlib.metadata (which costs a start-up); pyproject.toml
#: reads it from here (dynamic version)
__version__ = "0.1.0"
