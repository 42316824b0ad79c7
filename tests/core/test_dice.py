"""Dice notation and rolling: parsing, fuzzing, seeded rolls and typed-in results."""

import contextlib
import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.model.dice import DiceError, Roller, manual_roll, parse_dice


@pytest.mark.parametrize(
    ("text", "canonical", "low", "high"),
    [
        ("d6", "1d6", 1, 6),
        ("2d6", "2d6", 2, 12),
        ("1d10+5-1", "1d10+4", 5, 14),
        (" 3D8 + 1 ", "3d8+1", 4, 25),
        ("d%", "1d100", 1, 100),
        ("1d8-1", "1d8-1", 0, 7),
        ("2d4-1d6", "2d4-1d6", -4, 7),
        ("7", "+7", 7, 7),
    ],
)
def test_parses_the_notation_a_dm_writes(text: str, canonical: str, low: int, high: int) -> None:
    parsed = parse_dice(text)
    assert str(parsed).lstrip("+") == canonical.lstrip("+")
    assert (parsed.minimum, parsed.maximum) == (low, high)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty"),
        ("d", "number of sides"),
        ("2d", "number of sides"),
        ("d1", "2 to 1000 sides"),
        ("0d6", "between 1 and 1000 dice"),
        ("1d6+", "ends with an operator"),
        ("1d6 2", "expected + or -"),
        ("abc", "expected a number or a die"),
        ("1d6*2", "expected + or -"),
        ("5000d6", "between 1 and 1000 dice"),
    ],
)
def test_refuses_bad_notation_with_a_specific_reason(text: str, reason: str) -> None:
    with pytest.raises(DiceError, match=re.escape(reason)):
        parse_dice(text)


@given(st.text(max_size=40))
def test_fuzz_any_text_parses_or_raises_dice_error_only(text: str) -> None:
    try:
        parsed = parse_dice(text)
    except DiceError:
        return
    assert parse_dice(str(parsed)) == parsed
    assert parsed.minimum <= parsed.maximum


@given(
    st.lists(st.sampled_from(["d", "D", "%", "+", "-", " ", "1", "2", "6", "0", "9"]), max_size=20)
)
def test_fuzz_dice_alphabet_never_escapes_as_another_error(chars: list[str]) -> None:
    with contextlib.suppress(DiceError):
        parse_dice("".join(chars))


@given(st.integers(1, 20), st.integers(2, 100), st.integers(-50, 50), st.integers())
def test_rolls_stay_within_the_dice_and_replay_from_a_seed(
    count: int, sides: int, mod: int, seed: int
) -> None:
    expression = f"{count}d{sides}{mod:+d}"
    first = Roller(random.Random(seed)).roll(expression, "test")
    again = Roller(random.Random(seed)).roll(expression, "test")
    assert first == again
    assert len(first.dice) == count and all(1 <= f <= sides for f in first.dice)
    assert first.total == sum(first.dice) + mod
    assert not first.manual


def test_every_roll_can_be_typed_in_from_physical_dice() -> None:
    roll = manual_roll("2d6", 7, "reaction")
    assert roll.manual and roll.total == 7 and roll.purpose == "reaction"


def test_a_typed_in_result_the_dice_cannot_show_is_refused() -> None:
    with pytest.raises(DiceError, match="1d6 shows 1–6; 7 is not possible"):
        manual_roll("d6", 7)
    with pytest.raises(DiceError, match="whole number"):
        manual_roll("d6", "3")  # type: ignore[arg-type]
