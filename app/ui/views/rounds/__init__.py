"""编排 Rounds: the round tabs, the pairing table, keyboard result entry and the board's actions.

- ``layout.py`` — the widgets and where they sit (:class:`RoundsLayout`, :class:`PairingTable`);
- ``view.py`` — :class:`RoundsView`: loading the rounds, result entry, pairing and closing a round;
- ``board_actions.py`` — :class:`BoardActions`: the menu of one board (pairing edits, explanations,
  discipline).
"""

from app.ui.views.rounds.view import RoundsView

__all__ = ["RoundsView"]
