"""Dice notation (``d6``, ``2d6``, ``1d10+5-1``, ``d%``) and a roller over an injected RNG.

No library fitted: ``d20`` rolls with the global ``random`` module and ``dyce`` has no notation
parser, so this is a small recursive-descent parser, fuzzed by ``tests/core/test_dice.py``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from core.model.values import Roll

MAX_DICE = 1000
MAX_SIDES = 1000
MAX_MODIFIER = 1_000_000


class DiceError(ValueError):
    """A dice expression or a typed-in result the dice cannot produce."""


@dataclass(frozen=True, slots=True)
class DiceTerm:
    """``count`` dice of ``sides`` sides, added (sign +1) or subtracted (sign -1)."""

    count: int
    sides: int
    sign: int = 1


@dataclass(frozen=True, slots=True)
class DiceExpression:
    """A parsed sum of dice terms and a flat modifier."""

    terms: tuple[DiceTerm, ...]
    modifier: int = 0

    @property
    def minimum(self) -> int:
        """Gets the lowest total the dice can show."""
        return self.modifier + sum(
            t.count if t.sign > 0 else -t.count * t.sides for t in self.terms
        )

    @property
    def maximum(self) -> int:
        """Gets the highest total the dice can show."""
        return self.modifier + sum(
            t.count * t.sides if t.sign > 0 else -t.count for t in self.terms
        )

    def __str__(self) -> str:
        parts: list[str] = []
        for t in self.terms:
            text = f"{t.count}d{t.sides}"
            parts.append(("-" if t.sign < 0 else "+") + text)
        if self.modifier:
            parts.append(f"{self.modifier:+d}")
        text = "".join(parts) or "0"
        return text[1:] if text.startswith("+") else text


_DIGITS = frozenset("0123456789")  # str.isdigit() would also take "²" and other scripts' digits


def _number_end(source: str, pos: int, text: str) -> int:
    end = pos
    while end < len(source) and source[end] in _DIGITS:
        end += 1
    if end - pos > 7:
        raise DiceError(f"{text!r}: the number at position {pos + 1} is too long")
    return end


def parse_dice(text: str) -> DiceExpression:
    """Parses dice notation; raises :class:`DiceError` saying where and why it is wrong."""
    if not isinstance(text, str):
        raise DiceError(f"dice notation must be text, not {type(text).__name__}")
    source = text.strip().lower()
    if not source:
        raise DiceError("empty dice expression: write e.g. d6, 2d6 or 1d10+5")
    terms: list[DiceTerm] = []
    modifier = 0
    pos = 0
    sign = 1
    expect_term = True
    while pos < len(source):
        ch = source[pos]
        if ch.isspace():
            pos += 1
            continue
        if not expect_term:
            if ch not in "+-":
                raise DiceError(f"{text!r}: expected + or - at position {pos + 1}, found {ch!r}")
            sign = 1 if ch == "+" else -1
            expect_term = True
            pos += 1
            continue
        start = pos
        pos = _number_end(source, pos, text)
        number = source[start:pos]
        if pos < len(source) and source[pos] == "d":
            pos += 1
            count = int(number) if number else 1
            if pos < len(source) and source[pos] == "%":
                sides_text = "100"
                pos += 1
            else:
                side_start = pos
                pos = _number_end(source, pos, text)
                sides_text = source[side_start:pos]
            if not sides_text:
                raise DiceError(f"{text!r}: 'd' at position {pos} needs a number of sides")
            sides = int(sides_text)
            if not 1 <= count <= MAX_DICE:
                raise DiceError(f"{text!r}: between 1 and {MAX_DICE} dice, not {count}")
            if not 2 <= sides <= MAX_SIDES:
                raise DiceError(f"{text!r}: a die has 2 to {MAX_SIDES} sides, not {sides}")
            terms.append(DiceTerm(count, sides, sign))
        elif number:
            value = int(number)
            if value > MAX_MODIFIER:
                raise DiceError(f"{text!r}: modifier {value} is too large")
            modifier += sign * value
        else:
            raise DiceError(f"{text!r}: expected a number or a die at position {pos + 1}")
        expect_term = False
    if expect_term:
        raise DiceError(f"{text!r}: ends with an operator; add a number or a die after it")
    return DiceExpression(tuple(terms), modifier)


def manual_roll(expression: str, total: int, purpose: str = "") -> Roll:
    """Records a result the DM typed in from physical dice, refusing impossible totals."""
    parsed = parse_dice(expression)
    if isinstance(total, bool) or not isinstance(total, int):
        raise DiceError(f"a {parsed} result must be a whole number, not {total!r}")
    if not parsed.minimum <= total <= parsed.maximum:
        raise DiceError(
            f"{parsed} shows {parsed.minimum}–{parsed.maximum}; {total} is not possible"
        )
    return Roll(expression=str(parsed), total=total, manual=True, purpose=purpose)


class Roller:
    """Rolls dice with an injected :class:`random.Random`, so a seed replays the same rolls."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    @classmethod
    def seeded(cls, seed: int | None) -> Roller:
        """Makes a roller from a seed (None: seeded from the system's entropy)."""
        return cls(random.Random(seed))

    def roll(self, expression: str, purpose: str = "") -> Roll:
        """Rolls ``expression`` and returns every face and the total."""
        parsed = parse_dice(expression)
        faces: list[int] = []
        total = parsed.modifier
        for term in parsed.terms:
            for _ in range(term.count):
                face = self._rng.randint(1, term.sides)
                faces.append(face)
                total += term.sign * face
        return Roll(expression=str(parsed), total=total, dice=tuple(faces), purpose=purpose)
