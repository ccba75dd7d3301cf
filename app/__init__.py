"""Xiangqi Arbiter (象棋赛事编排系统)."""

#: the program's version: the package's metadata reads it from here (pyproject: dynamic version)
__version__ = "0.1.0"
