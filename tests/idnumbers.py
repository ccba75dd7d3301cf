"""Valid ID numbers for tests, with the check character computed independently of the engine.

ISO 7064 MOD 11-2 (the definition GB 11643-1999 cites): weight of position i (1-based from the
left) is 2**(18 - i) mod 11, and the check value is (12 - sum mod 11) mod 11, 10 written X.
"""

from __future__ import annotations

from datetime import date


def check_char(first17: str) -> str:
    total = sum(int(d) * (2 ** (17 - i) % 11) for i, d in enumerate(first17))
    value = (12 - total % 11) % 11
    return "X" if value == 10 else str(value)


def make_id(birth: date, serial: int = 1, region: str = "620502", male: bool = True) -> str:
    """An 18-character ID number for ``birth``; ``serial`` (0..49) makes it unique."""
    order = f"{serial % 50:02d}{(1 if male else 0) + 2 * (serial // 50 % 5)}"
    first17 = f"{region}{birth:%Y%m%d}{order}"
    assert len(first17) == 17
    return first17 + check_char(first17)
