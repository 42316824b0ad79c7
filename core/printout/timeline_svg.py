"""The round's timeline as an SVG picture, in pure Python, for the printed summary.

One row per combatant, grouped by side; x is the segment, the TU or the order of play. Each
kind of step has its own marker SHAPE so the picture reads on a black-and-white printer; the
SVG keeps to SVG Tiny (no patterns, no CSS) so that Qt's QSvgRenderer draws it too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

from core.model.values import StepEvent
from core.printout.rows import Axis, Combatant, TimelineStep

WIDTH = 720
LABEL_WIDTH = 150
RIGHT_PAD = 14
AXIS_HEIGHT = 30
SIDE_HEIGHT = 16
ROW_HEIGHT = 22
MARK = 5.0
FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'

# Misc events drawn as a letter in a small box; nominations are left out (every popcorn turn
# has one, and the order of the columns already shows them).
LETTERS: dict[StepEvent, str] = {
    StepEvent.MORALE_CHECK: "M",
    StepEvent.WAITS: "W",
    StepEvent.READIES: "R",
    StepEvent.READIED_TRIGGERS: "T",
    StepEvent.PARLEYS: "P",
    StepEvent.EFFECT_EXPIRES: "E",
    StepEvent.SURPRISED: "S",
    StepEvent.ACTS: "A",
    StepEvent.CONDITION_STARTS: "C",
    StepEvent.CONDITION_ENDS: "C",
    StepEvent.CANNOT_ACT: "X",
}
SKIPPED = frozenset({StepEvent.NOMINATES})
SPAN_EVENTS = frozenset(
    {StepEvent.BEGINS_CASTING, StepEvent.SPELL_TAKES_EFFECT, StepEvent.SPELL_DISRUPTED}
)


def _e(text: str) -> str:
    return escape(text, quote=True)


def _f(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


# --- marker shapes ------------------------------------------------------------------------------


def _diamond(x: float, y: float, fill: str) -> str:
    m = MARK + 1
    pts = f"{_f(x)},{_f(y - m)} {_f(x + m)},{_f(y)} {_f(x)},{_f(y + m)} {_f(x - m)},{_f(y)}"
    return f'<polygon points="{pts}" fill="{fill}" stroke="black" stroke-width="1.2"/>'


def _triangle(x: float, y: float, fill: str, up: bool = True) -> str:
    m = MARK + 1
    if up:
        pts = f"{_f(x)},{_f(y - m)} {_f(x + m)},{_f(y + m - 1)} {_f(x - m)},{_f(y + m - 1)}"
    else:
        pts = f"{_f(x)},{_f(y + m)} {_f(x + m)},{_f(y - m + 1)} {_f(x - m)},{_f(y - m + 1)}"
    return f'<polygon points="{pts}" fill="{fill}" stroke="black" stroke-width="1.2"/>'


def _circle(x: float, y: float) -> str:
    return (
        f'<circle cx="{_f(x)}" cy="{_f(y)}" r="{_f(MARK)}" fill="white" stroke="black" '
        'stroke-width="1.4"/>'
    )


def _cross(x: float, y: float) -> str:
    m = MARK + 1.5
    return (
        f'<line x1="{_f(x - m)}" y1="{_f(y - m)}" x2="{_f(x + m)}" y2="{_f(y + m)}" '
        'stroke="black" stroke-width="2.6"/>'
        f'<line x1="{_f(x - m)}" y1="{_f(y + m)}" x2="{_f(x + m)}" y2="{_f(y - m)}" '
        'stroke="black" stroke-width="2.6"/>'
    )


def _death(x: float, y: float) -> str:
    m = MARK + 1
    return (
        f'<rect x="{_f(x - m)}" y="{_f(y - m)}" width="{_f(2 * m)}" height="{_f(2 * m)}" '
        'fill="black"/>'
        f'<line x1="{_f(x)}" y1="{_f(y - m + 2)}" x2="{_f(x)}" y2="{_f(y + m - 2)}" '
        'stroke="white" stroke-width="1.6"/>'
        f'<line x1="{_f(x - m + 3)}" y1="{_f(y - 1.5)}" x2="{_f(x + m - 3)}" y2="{_f(y - 1.5)}" '
        'stroke="white" stroke-width="1.6"/>'
    )


def _star(x: float, y: float) -> str:
    outer, inner = MARK + 2.5, (MARK + 2.5) * 0.45
    pts = []
    for i in range(10):
        # pentagram points, starting at the top; cos/sin of 36° steps precomputed for clarity
        radius = outer if i % 2 == 0 else inner
        cos, sin = _UNIT[i]
        pts.append(f"{_f(x + radius * sin)},{_f(y - radius * cos)}")
    return f'<polygon points="{" ".join(pts)}" fill="black" stroke="black" stroke-width="0.6"/>'


_UNIT = (
    (1.0, 0.0),
    (0.809, 0.588),
    (0.309, 0.951),
    (-0.309, 0.951),
    (-0.809, 0.588),
    (-1.0, 0.0),
    (-0.809, -0.588),
    (-0.309, -0.951),
    (0.309, -0.951),
    (0.809, -0.588),
)


def _arrow(x: float, y: float, left: bool = False, double: bool = False) -> str:
    m = MARK + 1
    sign = -1 if left else 1
    tip = x + sign * m
    out = (
        f'<line x1="{_f(x - sign * m)}" y1="{_f(y)}" x2="{_f(tip)}" y2="{_f(y)}" '
        'stroke="black" stroke-width="1.6"/>'
        f'<polyline points="{_f(tip - sign * 4)},{_f(y - 4)} {_f(tip)},{_f(y)} '
        f'{_f(tip - sign * 4)},{_f(y + 4)}" fill="none" stroke="black" stroke-width="1.6"/>'
    )
    if double:
        t2 = tip - sign * 4
        out += (
            f'<polyline points="{_f(t2 - sign * 4)},{_f(y - 4)} {_f(t2)},{_f(y)} '
            f'{_f(t2 - sign * 4)},{_f(y + 4)}" fill="none" stroke="black" stroke-width="1.6"/>'
        )
    return out


def _letter(x: float, y: float, letter: str) -> str:
    m = MARK + 1
    return (
        f'<rect x="{_f(x - m)}" y="{_f(y - m)}" width="{_f(2 * m)}" height="{_f(2 * m)}" '
        'fill="white" stroke="black" stroke-width="1"/>'
        f'<text x="{_f(x)}" y="{_f(y + 3.5)}" font-size="9" font-weight="bold" '
        f'text-anchor="middle" {FONT}>{_e(letter)}</text>'
    )


def marker(event: StepEvent, x: float, y: float) -> str:
    """Draws the marker of one step (spell spans are drawn apart, as bars)."""
    if event == StepEvent.HITS:
        return _triangle(x, y, "black")
    if event == StepEvent.MISSES:
        return _circle(x, y)
    if event == StepEvent.ATTACKS:
        return _diamond(x, y, "white")
    if event == StepEvent.DIES:
        return _death(x, y)
    if event == StepEvent.SPELL_TAKES_EFFECT:
        return _star(x, y)
    if event == StepEvent.SPELL_DISRUPTED:
        return _cross(x, y)
    if event == StepEvent.BEGINS_CASTING:
        return (
            f'<line x1="{_f(x)}" y1="{_f(y - MARK - 2)}" x2="{_f(x)}" y2="{_f(y + MARK + 2)}" '
            'stroke="black" stroke-width="2.4"/>'
        )
    if event == StepEvent.MOVES:
        return _arrow(x, y)
    if event == StepEvent.CHARGES:
        return _arrow(x, y, double=True)
    if event == StepEvent.FLEES:
        return _arrow(x, y, left=True, double=True)
    if event == StepEvent.BLEEDS:
        return _triangle(x, y, "white", up=False)
    return _letter(x, y, LETTERS.get(event, "?"))


LEGEND: tuple[tuple[StepEvent, str], ...] = (
    (StepEvent.ATTACKS, "attack"),
    (StepEvent.HITS, "hit (with damage)"),
    (StepEvent.MISSES, "miss"),
    (StepEvent.BEGINS_CASTING, "begins casting"),
    (StepEvent.SPELL_TAKES_EFFECT, "spell takes effect"),
    (StepEvent.SPELL_DISRUPTED, "spell lost"),
    (StepEvent.DIES, "death"),
    (StepEvent.MOVES, "moves"),
    (StepEvent.CHARGES, "charges"),
    (StepEvent.FLEES, "flees"),
    (StepEvent.BLEEDS, "bleeds"),
    (StepEvent.MORALE_CHECK, "morale"),
    (StepEvent.WAITS, "waits"),
    (StepEvent.READIES, "readies"),
    (StepEvent.READIED_TRIGGERS, "readied action"),
    (StepEvent.PARLEYS, "parleys"),
    (StepEvent.EFFECT_EXPIRES, "effect ends"),
    (StepEvent.SURPRISED, "surprised"),
    (StepEvent.ACTS, "acts"),
    (StepEvent.CONDITION_STARTS, "condition starts or ends"),
    (StepEvent.CANNOT_ACT, "cannot act (condition)"),
)


# --- layout -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Row:
    cid: str | None
    """None for a side heading."""
    label: str
    y: float


def _rows(combatants: Sequence[Combatant]) -> list[_Row]:
    rows: list[_Row] = []
    y = float(AXIS_HEIGHT)
    for side in dict.fromkeys(c.side for c in combatants):
        rows.append(_Row(None, side, y + SIDE_HEIGHT - 4))
        y += SIDE_HEIGHT
        for c in combatants:
            if c.side == side:
                rows.append(_Row(c.cid, c.name, y + ROW_HEIGHT / 2))
                y += ROW_HEIGHT
    return rows


def _clip(text: str, limit: int = 22) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def render_timeline_svg(
    combatants: Sequence[Combatant],
    steps: Sequence[TimelineStep],
    axis: Axis,
    caption: str = "",
) -> str:
    """Renders one timeline picture; ``caption`` names what the x axis counts."""
    rows = _rows(combatants)
    row_y: dict[str, float] = {r.cid: r.y for r in rows if r.cid is not None}
    plot_left, plot_right = LABEL_WIDTH + 6, WIDTH - RIGHT_PAD
    span = (axis.end - axis.start) or 1.0

    def px(x: float) -> float:
        return plot_left + (x - axis.start) / span * (plot_right - plot_left)

    body_top = AXIS_HEIGHT
    body_bottom = rows[-1].y + ROW_HEIGHT / 2 if rows else body_top
    used = {s.event for s in steps if s.event not in SKIPPED and s.actor in row_y}
    legend_items = [(ev, text) for ev, text in LEGEND if ev in used]
    per_line = 5
    legend_lines = (len(legend_items) + per_line - 1) // per_line
    height = body_bottom + 12 + legend_lines * 18 + 6
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny" '
        f'width="{WIDTH}" height="{_f(height)}" viewBox="0 0 {WIDTH} {_f(height)}">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{_f(height)}" fill="white"/>',
    ]
    for lo, hi in axis.shaded:
        out.append(
            f'<rect x="{_f(px(lo))}" y="{body_top}" width="{_f(px(hi) - px(lo))}" '
            f'height="{_f(body_bottom - body_top)}" fill="#e6e6e6"/>'
        )
        out.append(
            f'<text x="{_f(px(hi) - 3)}" y="{body_top - 18}" font-size="8" text-anchor="end" '
            f'font-style="italic" {FONT}>surprise segments</text>'
        )
    # a thin rule under each row helps the eye follow it across the page
    for r in rows:
        if r.cid is None:
            out.append(
                f'<text x="2" y="{_f(r.y)}" font-size="10" font-weight="bold" {FONT}>'
                f"{_e(_clip(r.label, 28))}</text>"
                f'<line x1="0" y1="{_f(r.y + 3)}" x2="{plot_right}" y2="{_f(r.y + 3)}" '
                'stroke="black" stroke-width="0.6"/>'
            )
        else:
            out.append(
                f'<text x="10" y="{_f(r.y + 3.5)}" font-size="10" {FONT}>'
                f"{_e(_clip(r.label))}</text>"
                f'<line x1="{plot_left}" y1="{_f(r.y + ROW_HEIGHT / 2)}" x2="{plot_right}" '
                f'y2="{_f(r.y + ROW_HEIGHT / 2)}" stroke="#bbbbbb" stroke-width="0.5"/>'
            )
    for x, label in axis.labels:
        out.append(
            f'<line x1="{_f(px(x))}" y1="{body_top - 4}" x2="{_f(px(x))}" y2="{_f(body_bottom)}" '
            'stroke="#999999" stroke-width="0.5" stroke-dasharray="2,3"/>'
            f'<text x="{_f(px(x))}" y="{body_top - 7}" font-size="9" text-anchor="middle" '
            f"{FONT}>{_e(label)}</text>"
        )
    for x, label in axis.marks:  # a new round starts on this TU: the line sits just before it
        out.append(
            f'<line x1="{_f(px(x - 0.5))}" y1="{body_top - 20}" x2="{_f(px(x - 0.5))}" '
            f'y2="{_f(body_bottom)}" stroke="black" stroke-width="1.6"/>'
            f'<text x="{_f(px(x - 0.5) + 3)}" y="{body_top - 18}" font-size="8" '
            f'font-style="italic" {FONT}>{_e(label)}</text>'
        )
    if caption:
        out.append(
            f'<text x="2" y="{body_top - 7}" font-size="9" font-style="italic" {FONT}>'
            f"{_e(caption)}</text>"
        )
    out.append(
        f'<rect x="{plot_left}" y="{body_top}" width="{plot_right - plot_left}" '
        f'height="{_f(body_bottom - body_top)}" fill="none" stroke="black" stroke-width="0.8"/>'
    )
    out += _spans(steps, row_y, px, axis)
    out += _markers(steps, row_y, px, axis)
    out += _legend(legend_items, body_bottom + 14, per_line)
    out.append("</svg>")
    return "\n".join(out)


def _spans(
    steps: Sequence[TimelineStep],
    row_y: dict[str, float],
    px: Callable[[float], float],
    axis: Axis,
) -> list[str]:
    """Bars from begins-casting to takes-effect (solid grey) or to the loss (dashed, white)."""
    out: list[str] = []
    open_at: dict[str, float] = {}
    ends: list[tuple[str, float, float, bool]] = []
    for s in steps:
        if s.span_key is None or s.actor not in row_y:
            continue
        if s.event == StepEvent.BEGINS_CASTING:
            open_at[s.span_key] = s.x
        elif s.span_key in open_at or s.continued:  # else: lost before casting began
            start = open_at.pop(s.span_key, axis.start)  # axis.start: begun in an earlier round
            ends.append((s.actor, start, s.x, s.event == StepEvent.SPELL_DISRUPTED))
    for key, start in open_at.items():  # still casting when the picture ends
        ends.append((key.split("|", 1)[0], start, axis.end, False))
    for actor, start, end, lost in ends:
        y = row_y[actor]
        x0, x1 = px(start), px(end)
        if x1 - x0 < 4:
            x1 = x0 + 4
        style = (
            'fill="white" stroke="black" stroke-width="1.2" stroke-dasharray="4,2"'
            if lost
            else 'fill="#c8c8c8" stroke="black" stroke-width="1"'
        )
        out.append(f'<rect x="{_f(x0)}" y="{_f(y - 4)}" width="{_f(x1 - x0)}" height="8" {style}/>')
    return out


def _markers(
    steps: Sequence[TimelineStep],
    row_y: dict[str, float],
    px: Callable[[float], float],
    axis: Axis,
) -> list[str]:
    cells: dict[tuple[str, float], list[TimelineStep]] = {}
    for s in steps:
        if s.event in SKIPPED or s.actor not in row_y:
            continue
        cells.setdefault((s.actor, s.x), []).append(s)
    unit = px(axis.start + 1) - px(axis.start)
    out: list[str] = []
    for (actor, x), items in cells.items():
        # several steps in one cell sit side by side, squeezed to stay inside the cell
        gap = min(18.0, max(8.0, (unit - 4) / max(len(items), 1)))
        for i, s in enumerate(items):
            cx = px(x) + (i - (len(items) - 1) / 2) * gap
            cy = row_y[actor]
            out.append(marker(s.event, cx, cy))
            if s.event in (StepEvent.HITS, StepEvent.SPELL_TAKES_EFFECT) and s.damage:
                out.append(
                    f'<text x="{_f(cx + MARK + 2)}" y="{_f(cy - 3)}" font-size="8" '
                    f'font-weight="bold" {FONT}>{s.damage}</text>'
                )
    return out


def _legend(items: Sequence[tuple[StepEvent, str]], top: float, per_line: int) -> list[str]:
    out: list[str] = []
    col = (WIDTH - 10) / per_line
    for i, (event, text) in enumerate(items):
        x = 10 + (i % per_line) * col
        y = top + (i // per_line) * 18
        if event == StepEvent.SPELL_TAKES_EFFECT:
            out.append(
                f'<rect x="{_f(x - 12)}" y="{_f(y - 4)}" width="14" height="8" fill="#c8c8c8" '
                'stroke="black" stroke-width="1"/>'
            )
        if event == StepEvent.SPELL_DISRUPTED:
            out.append(
                f'<rect x="{_f(x - 12)}" y="{_f(y - 4)}" width="14" height="8" fill="white" '
                'stroke="black" stroke-width="1.2" stroke-dasharray="4,2"/>'
            )
        out.append(marker(event, x + 4, y))
        out.append(
            f'<text x="{_f(x + 16)}" y="{_f(y + 3.5)}" font-size="9" {FONT}>{_e(text)}</text>'
        )
    return out
