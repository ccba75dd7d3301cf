"""``@frozen`` behaves as ``@dataclass(frozen=True, slots=True)``: each record shape below is made both
ways from the same class body and the two are compared value by value — text, equality, hash,
immutability, the dataclass functions, copying, pickling, pattern matching, ``__init__``'s signature."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import math
import pickle
from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine.records import frozen


def _shapes(decorate: Callable[[type], type]) -> dict[str, type]:
    """The record shapes, each decorated with ``decorate`` (the twins share their class bodies)."""

    class Empty:
        """No fields."""

    class One:
        """One field."""

        a: Any

    class Many:
        """Fields with defaults, a factory, a class variable."""

        LIMIT: ClassVar[int] = 3
        a: Any
        b: Any = 0
        c: tuple[int, ...] = ()
        d: list[int] = field(default_factory=list)

    class Options:
        """Fields left out of the text, the comparison, the hash."""

        a: Any
        hidden: Any = field(default=0, repr=False)
        loose: Any = field(default=0, compare=False)
        unhashed: Any = field(default=0, hash=False)
        hashed_only: Any = field(default=0, compare=False, hash=True)

    class OwnMethods:
        """The class's own comparison and text are kept; its hash comes from the fields."""

        a: Any
        b: Any = 0

        def __eq__(self, other: object) -> bool:
            return isinstance(other, type(self)) and self.a == other.a

        def __repr__(self) -> str:
            return f"own {self.a}"

    class OwnHash:
        """The class's own hash is kept."""

        a: Any

        def __hash__(self) -> int:
            return 7

    made = {cls.__name__: decorate(cls) for cls in (Empty, One, Many, Options, OwnMethods, OwnHash)}

    class Child(made["Many"]):  # type: ignore[misc, valid-type]
        """A record extending a record."""

        e: Any = None

    made["Child"] = decorate(Child)
    return made


def _dataclass(cls: type) -> type:
    return dataclass(frozen=True, slots=True)(cls)


OURS = _shapes(frozen)
THEIRS = _shapes(_dataclass)
VALUES = (0, 1, 1.0, -0.0, "甲", (1, 2), None, math.nan, frozenset({1}))


def _instances(name: str, values: tuple[Any, ...]) -> tuple[Any, Any]:
    names = [f.name for f in dataclasses.fields(THEIRS[name]) if f.init]
    args = dict(zip(names, values, strict=False))
    if "d" in args:
        args["d"] = [1] if args["d"] else []
    return OURS[name](**args), THEIRS[name](**args)


def test_each_shape_is_a_slotted_frozen_dataclass_like_its_twin() -> None:
    for name, ours in OURS.items():
        theirs = THEIRS[name]
        assert dataclasses.is_dataclass(ours)
        assert ours.__slots__ == theirs.__slots__  # type: ignore[attr-defined]
        assert ours.__match_args__ == theirs.__match_args__  # type: ignore[attr-defined]
        assert str(inspect.signature(ours)) == str(inspect.signature(theirs))
        assert [(f.name, f.type, f.repr, f.compare, f.hash) for f in dataclasses.fields(ours)] == [
            (f.name, f.type, f.repr, f.compare, f.hash) for f in dataclasses.fields(theirs)
        ]
        assert ("__hash__" in ours.__dict__) == ("__hash__" in theirs.__dict__)
        assert (ours.__hash__ is None) == (theirs.__hash__ is None)


value = st.sampled_from(VALUES)


@given(st.sampled_from(sorted(THEIRS)), st.tuples(*[value] * 6), st.tuples(*[value] * 6))
def test_text_equality_and_hash_are_the_dataclass_ones(
    name: str, first: tuple[Any, ...], second: tuple[Any, ...]
) -> None:
    ours_a, theirs_a = _instances(name, first)
    ours_b, theirs_b = _instances(name, second)
    assert repr(ours_a) == repr(theirs_a)
    assert (ours_a == ours_b) == (theirs_a == theirs_b)
    assert (ours_a != ours_b) == (theirs_a != theirs_b)
    assert (ours_a == ours_a) == (theirs_a == theirs_a)  # the same object: NaN fields compare equal
    assert (ours_a == theirs_a) is False  # another class: NotImplemented both ways
    try:
        expected: Any = hash(theirs_a)
    except TypeError as exc:  # an unhashable value (a list field)
        expected = type(exc)
    try:
        got: Any = hash(ours_a)
    except TypeError as exc:
        got = type(exc)
    assert got == expected


def test_frozen_copy_pickle_replace_and_match() -> None:
    for name in OURS:
        ours, theirs = _instances(name, (1, 2, (3,), [4], 5, 6))
        for victim in (ours, theirs):
            if dataclasses.fields(victim):
                with pytest.raises(FrozenInstanceError):
                    victim.a = 9
                with pytest.raises(FrozenInstanceError):
                    del victim.a
            with pytest.raises((AttributeError, TypeError)):
                victim.not_a_field = 1
        for twin in (copy.copy(ours), copy.deepcopy(ours)):
            assert twin == ours and repr(twin) == repr(ours)
        if dataclasses.fields(ours):
            changed = dataclasses.replace(ours, a="乙")
            assert changed.a == "乙" and repr(changed) == repr(dataclasses.replace(theirs, a="乙"))
            kind = OURS[name]
            match ours:
                case kind(1):  # positionally, through __match_args__
                    pass
                case _:
                    pytest.fail("pattern matching by keyword")
        assert dataclasses.asdict(ours) == dataclasses.asdict(theirs)


def test_recursive_text_is_cut_as_dataclass_cuts_it() -> None:
    ours, theirs = OURS["One"]([]), THEIRS["One"]([])
    ours.a.append(ours)
    theirs.a.append(theirs)
    assert repr(ours) == repr(theirs) == "_shapes.<locals>.One(a=[...])"


def test_the_programs_records_pickle_and_compare() -> None:
    from app.engine.regulations import preset, regulations_from_dict, regulations_to_dict

    reg = preset("tianshui-2024")
    again = pickle.loads(pickle.dumps(reg))
    assert again == reg and hash(again) == hash(reg) and repr(again) == repr(reg)
    assert regulations_from_dict(regulations_to_dict(reg)) == reg
    assert reg.__dataclass_params__.frozen  # type: ignore[attr-defined]
