"""Marker shapes and colours: Okabe–Ito hues, and a distinct SHAPE per kind for colour-blind DMs.

Neutral marks use the widget palette's text colour, so they read on light and dark palettes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from PySide6.QtGui import QColor

from desktop.timeline.layout import MarkKind, SpanKind

# Okabe & Ito (2008), "Color Universal Design": distinguishable with every common colour-vision
# deficiency. Black and yellow are left out: one vanishes on dark, the other on light backgrounds.
ORANGE = "#E69F00"
SKY_BLUE = "#56B4E9"
BLUISH_GREEN = "#009E73"
BLUE = "#0072B2"
VERMILLION = "#D55E00"
REDDISH_PURPLE = "#CC79A7"
FOREGROUND = "fg"
"""Stands for the palette's text colour."""


@dataclass(frozen=True, slots=True)
class MarkStyle:
    label: str
    symbol: str
    colour: str
    filled: bool
    size: float = 13.0


@dataclass(frozen=True, slots=True)
class SpanStyle:
    label: str
    colour: str
    alpha: int


MARK_STYLES: Mapping[MarkKind, MarkStyle] = {
    MarkKind.HIT: MarkStyle("hit", "t1", VERMILLION, True, 15),
    MarkKind.MISS: MarkStyle("miss", "o", SKY_BLUE, False, 13),
    MarkKind.ATTACK: MarkStyle("attack (no outcome)", "t1", ORANGE, False, 15),
    MarkKind.CAST: MarkStyle("begins casting", "|", BLUE, True, 14),
    MarkKind.SPELL_EFFECT: MarkStyle("spell takes effect", "h", BLUE, True, 14),
    MarkKind.DISRUPTED: MarkStyle("spell disrupted", "x", REDDISH_PURPLE, True, 17),
    MarkKind.DEATH: MarkStyle("dies", "star", FOREGROUND, True, 17),
    MarkKind.EXPIRY: MarkStyle("effect expires", "d", BLUISH_GREEN, True, 13),
    MarkKind.MOVE: MarkStyle("moves / charges / flees", "arrow_right", ORANGE, True, 22),
    MarkKind.OTHER: MarkStyle("other", "s", FOREGROUND, False, 9),
}

SPAN_STYLES: Mapping[SpanKind, SpanStyle] = {
    SpanKind.CASTING: SpanStyle("casting", BLUE, 110),
    SpanKind.CASTING_LOST: SpanStyle("casting (lost)", REDDISH_PURPLE, 110),
    SpanKind.CHARGE: SpanStyle("charging", ORANGE, 110),
    SpanKind.WAITING: SpanStyle("waiting / readied", FOREGROUND, 45),
}

SPAN_HEIGHT = 0.34
"""Bar thickness as a share of a row."""


def is_dark(background: QColor) -> bool:
    """Tells whether a background is dark (so colours need lightening)."""
    return background.lightnessF() < 0.5


def resolve_colour(colour: str, foreground: QColor, dark: bool, alpha: int = 255) -> QColor:
    """Turns a style colour into a QColor for the current palette."""
    out = QColor(foreground) if colour == FOREGROUND else QColor(colour)
    if dark and colour in (BLUE, REDDISH_PURPLE, VERMILLION):
        out = out.lighter(140)  # these three lose contrast on a dark background
    out.setAlpha(alpha)
    return out
