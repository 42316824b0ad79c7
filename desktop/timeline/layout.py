"""Where everything goes on the timeline, computed from a resolution without touching Qt.

x is the segment (rounds side by side), the TU, or the order of play; y is a row per combatant,
grouped by side. Steps of one group always share x; different groups in the same segment (or
TU) are spread a little around it so their order stays visible.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from core.model.values import Combatant, Resolution, Step, StepEvent
from core.printout.words import round_title
from desktop.plain_text import elide_name

ROUND_GAP = 1.0
"""Empty segments between two rounds laid side by side."""
SEGMENTS_PER_ROUND = 10
TU_PER_ROUND = 10
SIDE_GAP = 0.6
"""Extra space between the last row of a side and the next side's header row."""
SPREAD = 0.6
"""How wide (in x units) the groups sharing one segment or TU may spread."""
MIN_SPAN = 0.2


class Axis(StrEnum):
    SEGMENT = "segment"
    TU = "tu"
    SEQ = "seq"


class MarkKind(StrEnum):
    """One marker style; every step gets exactly one mark."""

    HIT = "hit"
    MISS = "miss"
    ATTACK = "attack"
    CAST = "cast"
    SPELL_EFFECT = "spell-effect"
    DISRUPTED = "disrupted"
    DEATH = "death"
    EXPIRY = "expiry"
    MOVE = "move"
    OTHER = "other"


class SpanKind(StrEnum):
    CASTING = "casting"
    CASTING_LOST = "casting-lost"
    CHARGE = "charge"
    WAITING = "waiting"


MARK_OF_EVENT: Mapping[StepEvent, MarkKind] = {
    StepEvent.HITS: MarkKind.HIT,
    StepEvent.MISSES: MarkKind.MISS,
    StepEvent.ATTACKS: MarkKind.ATTACK,
    StepEvent.READIED_TRIGGERS: MarkKind.ATTACK,
    StepEvent.BEGINS_CASTING: MarkKind.CAST,
    StepEvent.SPELL_TAKES_EFFECT: MarkKind.SPELL_EFFECT,
    StepEvent.SPELL_DISRUPTED: MarkKind.DISRUPTED,
    StepEvent.DIES: MarkKind.DEATH,
    StepEvent.EFFECT_EXPIRES: MarkKind.EXPIRY,
    StepEvent.MOVES: MarkKind.MOVE,
    StepEvent.CHARGES: MarkKind.MOVE,
    StepEvent.FLEES: MarkKind.MOVE,
}

_ATTACK_EVENTS = frozenset({StepEvent.HITS, StepEvent.MISSES, StepEvent.ATTACKS})
_OPENS_OTHER = frozenset({StepEvent.CHARGES, StepEvent.READIES, StepEvent.WAITS})


# The many small records are NamedTuples: as immutable and as readable as frozen dataclasses,
# but built several times faster, and a redraw of 200 combatants builds hundreds of them.


class Row(NamedTuple):
    cid: str
    label: str
    side: str
    y: float


class SideBand(NamedTuple):
    side: str
    header_y: float
    y0: float
    y1: float


class Mark(NamedTuple):
    seq: int
    kind: MarkKind
    x: float
    y: float


class Span(NamedTuple):
    seq: int
    """The step that opens the span (begins-casting, charges, readies, waits)."""
    kind: SpanKind
    x0: float
    x1: float
    y: float


class Arrow(NamedTuple):
    """A popcorn nomination, from the nominating row to the nominee's row."""

    seq: int
    x: float
    y0: float
    y1: float


class Guide(NamedTuple):
    """A faint vertical line through the steps of one simultaneous group."""

    group: int
    x: float
    y0: float
    y1: float


class RoundBlock(NamedTuple):
    round: int
    label: str
    x0: float
    x1: float
    surprise: bool = False


@dataclass(frozen=True, slots=True)
class TimelineLayout:
    axis: Axis
    rows: tuple[Row, ...] = ()
    sides: tuple[SideBand, ...] = ()
    marks: tuple[Mark, ...] = ()
    spans: tuple[Span, ...] = ()
    arrows: tuple[Arrow, ...] = ()
    guides: tuple[Guide, ...] = ()
    rounds: tuple[RoundBlock, ...] = ()
    ticks: tuple[tuple[float, str], ...] = ()
    """Labelled x ticks; empty means "let the axis choose"."""
    step_x: Mapping[int, float] = field(default_factory=dict)
    step_y: Mapping[int, float] = field(default_factory=dict)

    @property
    def x_range(self) -> tuple[float, float]:
        if self.axis is Axis.TU and self.ticks:
            return 0.0, self.ticks[-1][0]  # the clock from TU 0, past the last step
        if self.rounds:
            return self.rounds[0].x0, self.rounds[-1].x1
        if not self.step_x:  # nothing played yet: whole places, never "-0.4 … 1.4"
            return 0.5, 5.5
        xs = list(self.step_x.values())
        return min(xs) - 0.5, max(xs) + 0.5

    @property
    def y_range(self) -> tuple[float, float]:
        if not self.sides:
            return -1.0, 1.0
        return self.sides[0].y0, self.sides[-1].y1


def axis_for(system_id: str) -> Axis:
    """Gets the x axis a system's steps are drawn on."""
    return {"time-units": Axis.TU, "popcorn": Axis.SEQ}.get(system_id, Axis.SEGMENT)


def build_layout(
    resolution: Resolution, combatants: Sequence[Combatant] | None = None,
    rounds_started: int = 0,
) -> TimelineLayout:
    """Places every step of ``resolution``; ``combatants`` gives sides, names and row order;
    ``rounds_started``: rounds begun, drawn (empty) even before any step of theirs is known."""
    axis = axis_for(resolution.system)
    steps = resolution.steps
    rows, sides = _rows(steps, resolution, combatants)
    row_y = {row.cid: row.y for row in rows}
    if axis is Axis.SEGMENT:
        rounds, base_x, ticks = _segment_blocks(steps, rounds_started)
    elif axis is Axis.TU:
        rounds, base_x, ticks = _tu_blocks(steps)
    else:
        rounds, base_x, ticks = _seq_blocks(steps)
    step_x = _spread_groups(steps, base_x)
    marks = _marks(steps, step_x, row_y)
    step_y = {mark.seq: mark.y for mark in marks}
    return TimelineLayout(
        axis=axis,
        rows=rows,
        sides=sides,
        marks=marks,
        spans=_spans(steps, step_x, row_y, rounds),
        arrows=_arrows(steps, step_x, row_y),
        guides=_guides(steps, step_x, step_y),
        rounds=rounds,
        ticks=ticks,
        step_x=step_x,
        step_y=step_y,
    )


# --- rows ----------------------------------------------------------------------------------


def _rows(
    steps: Sequence[Step], resolution: Resolution, combatants: Sequence[Combatant] | None
) -> tuple[tuple[Row, ...], tuple[SideBand, ...]]:
    known = combatants or ()
    side_of = {c.id: c.side for c in known}
    label_of = {c.id: elide_name(c.label) for c in known}
    # Anyone the resolution names but the caller did not describe still gets a row, in the
    # order: the resolution's combatants, then actors, then targets (first mention wins).
    extra = dict.fromkeys(resolution.combatants)
    extra.update(dict.fromkeys([s.actor for s in steps]))
    extra.update(dict.fromkeys([s.target for s in steps if s.target]))
    order = [c.id for c in known] + [cid for cid in extra if cid not in side_of]
    default_side = "others" if known else "combatants"
    by_side: dict[str, list[str]] = {}
    for cid in order:
        side = side_of.get(cid, default_side)
        members = by_side.get(side)
        if members is None:
            by_side[side] = [cid]
        else:
            members.append(cid)
    rows: list[Row] = []
    bands: list[SideBand] = []
    y = 0.0
    for side, members in by_side.items():
        header_y = y
        for cid in members:
            y += 1.0
            rows.append(Row(cid, label_of.get(cid, cid), side, y))
        bands.append(SideBand(side, header_y, header_y - 0.5, y + 0.5))
        y += 1.0 + SIDE_GAP
    return tuple(rows), tuple(bands)


# --- x: one base position per step, then groups spread within a slot -------------------------

_Blocks = tuple[tuple[RoundBlock, ...], dict[int, float], tuple[tuple[float, str], ...]]


def _segment_blocks(steps: Sequence[Step], rounds_started: int = 0) -> _Blocks:
    by_round: dict[int, list[Step]] = defaultdict(list)
    for step in steps:
        by_round[step.round or 1].append(step)
    blocks: list[RoundBlock] = []
    base_x: dict[int, float] = {}
    ticks: list[tuple[float, str]] = []
    start = 0.0  # segment s of a round sits at start + s
    for rnd in range(1, max(max(by_round, default=1), rounds_started) + 1):
        in_round = by_round.get(rnd, [])
        # Surprise segments only when the whole round is: a "surprised" step alone (flagged
        # surprise) must not turn round 1 into S1…S6.
        surprise = bool(in_round) and all(s.surprise for s in in_round)
        width = (
            max((s.segment or 1 for s in in_round), default=1) if surprise else SEGMENTS_PER_ROUND
        )
        end = start + width
        for step in in_round:
            segment = step.segment
            base_x[step.seq] = start + segment if segment is not None else end
        after = bool(blocks) and blocks[-1].surprise and not surprise
        label = round_title(rnd, surprise, after)  # the printout's heading
        blocks.append(RoundBlock(rnd, label, start + 0.5, end + 0.5, surprise))
        ticks += [(start + s, f"S{s}" if surprise else str(s)) for s in range(1, width + 1)]
        start += width + ROUND_GAP
    return tuple(blocks), base_x, tuple(ticks)


def _tu_blocks(steps: Sequence[Step]) -> _Blocks:
    # Time units have no rounds (clock.count-up): the axis is the clock alone, ticked every 5.
    base_x = {s.seq: float(s.tu if s.tu is not None else 0) for s in steps}
    last = max(base_x.values(), default=0.0)
    end = max(TU_PER_ROUND, 5 * (int(last) // 5 + 1))
    ticks = tuple((float(t), str(t)) for t in range(0, end + 1, 5))
    return (), base_x, ticks


def _seq_blocks(steps: Sequence[Step]) -> _Blocks:
    # Popcorn has no clock: a group sits at the seq of its first step, so groups stay aligned.
    first_of_group: dict[object, float] = {}
    base_x: dict[int, float] = {}
    for step in steps:
        key = step.group if step.group is not None else ("seq", step.seq)
        base_x[step.seq] = first_of_group.setdefault(key, float(step.seq))
    by_round: dict[int, list[float]] = defaultdict(list)
    for step in steps:
        by_round[step.round or 1].append(base_x[step.seq])
    blocks = tuple(
        RoundBlock(rnd, f"Round {rnd}", min(xs) - 0.5, max(xs) + 0.5)
        for rnd, xs in sorted(by_round.items())
    )
    # Past ~80 steps a label per step would collide; the axis then picks its own.
    xs = sorted(set(base_x.values())) if len(steps) <= 80 else []
    ticks = tuple((x, str(int(x))) for x in xs)
    return blocks, base_x, ticks


def _spread_groups(steps: Sequence[Step], base_x: Mapping[int, float]) -> dict[int, float]:
    seqs = [s.seq for s in steps]
    xs = [base_x[seq] for seq in seqs]
    keys = [s.group if s.group is not None else ("seq", s.seq) for s in steps]
    # The groups in each slot, in order of first appearance (a dict: O(1) membership).
    groups_at: dict[float, dict[object, None]] = {}
    for x, group in zip(xs, keys, strict=True):
        slot = groups_at.get(x)
        if slot is None:
            groups_at[x] = {group: None}
        else:
            slot[group] = None
    offset: dict[object, float] = {}
    for groups in groups_at.values():
        n = len(groups)
        pitch = min(SPREAD / (n - 1), 0.25) if n > 1 else 0.0
        for k, group in enumerate(groups):
            offset[group] = (k - (n - 1) / 2) * pitch
    return {seq: x + offset[group] for seq, x, group in zip(seqs, xs, keys, strict=True)}


def _round_end(x: float, rounds: Sequence[RoundBlock]) -> float:
    """Gets where the round around ``x`` ends: an unfinished span is drawn up to there."""
    return next((b.x1 for b in rounds if b.x0 <= x <= b.x1), x + 1.0)


# --- marks, spans, arrows, guides ------------------------------------------------------------


def _marks(
    steps: Sequence[Step], step_x: Mapping[int, float], row_y: Mapping[str, float]
) -> tuple[Mark, ...]:
    # Marks of one actor at one x are stacked a little inside the row so none hides another.
    places = [(step_x[s.seq], row_y[s.actor]) for s in steps]
    count: dict[tuple[float, float], int] = {}
    for place in places:
        count[place] = count.get(place, 0) + 1
    stacked: dict[tuple[float, float], int] = {}  # marks already placed at a shared place
    kind_of = MARK_OF_EVENT.get
    other = MarkKind.OTHER
    marks: list[Mark] = []
    for step, place in zip(steps, places, strict=True):
        x, y = place
        n = count[place]
        if n > 1:
            k = stacked.get(place, 0)
            stacked[place] = k + 1
            y += (k - (n - 1) / 2) * min(0.5 / (n - 1), 0.25)
        marks.append(Mark(step.seq, kind_of(step.event, other), x, y))
    marks.sort(key=_by_seq)
    return tuple(marks)


def _by_seq(item: Mark | Span) -> int:
    return item.seq


def _spans(
    steps: Sequence[Step],
    step_x: Mapping[int, float],
    row_y: Mapping[str, float],
    rounds: Sequence[RoundBlock],
) -> tuple[Span, ...]:
    spans: list[Span] = []
    open_casts: dict[str, list[Step]] = defaultdict(list)
    open_other: dict[str, Step] = {}  # charges / readies / waits, closed by the actor's next act
    deaths: dict[str, float] = {}

    def close(opener: Step, kind: SpanKind, x1: float) -> None:
        x0 = step_x[opener.seq]
        spans.append(Span(opener.seq, kind, x0, max(x1, x0 + MIN_SPAN), row_y[opener.actor]))

    for step in steps:
        actor, event = step.actor, step.event
        if event is StepEvent.BEGINS_CASTING:
            open_casts[actor].append(step)
        elif event is StepEvent.SPELL_TAKES_EFFECT or event is StepEvent.SPELL_DISRUPTED:
            if open_casts[actor]:
                lost = event is StepEvent.SPELL_DISRUPTED
                kind = SpanKind.CASTING_LOST if lost else SpanKind.CASTING
                close(open_casts[actor].pop(0), kind, step_x[step.seq])
        elif event is StepEvent.DIES:
            deaths[actor] = step_x[step.seq]
        if open_other:
            opener = open_other.get(actor)
            if opener is not None and opener is not step:
                closes = event in _ATTACK_EVENTS or opener.event is not StepEvent.CHARGES
                if closes and event is not StepEvent.NOMINATES:
                    charge = opener.event is StepEvent.CHARGES
                    close(opener, SpanKind.CHARGE if charge else SpanKind.WAITING, step_x[step.seq])
                    del open_other[actor]
        if event in _OPENS_OTHER:
            open_other[actor] = step

    for actor, casts in open_casts.items():
        for opener in casts:
            end = deaths.get(actor)
            close(
                opener,
                SpanKind.CASTING,
                end if end is not None else _round_end(step_x[opener.seq], rounds),
            )
    for opener in open_other.values():
        kind = SpanKind.CHARGE if opener.event is StepEvent.CHARGES else SpanKind.WAITING
        close(opener, kind, _round_end(step_x[opener.seq], rounds))
    spans.sort(key=_by_seq)
    return tuple(spans)


def _arrows(
    steps: Iterable[Step], step_x: Mapping[int, float], row_y: Mapping[str, float]
) -> tuple[Arrow, ...]:
    return tuple(
        Arrow(s.seq, step_x[s.seq], row_y[s.actor], row_y[s.target])
        for s in steps
        if s.event is StepEvent.NOMINATES and s.target and s.target != s.actor
    )


def _guides(
    steps: Iterable[Step], step_x: Mapping[int, float], step_y: Mapping[int, float]
) -> tuple[Guide, ...]:
    members: dict[int, list[int]] = defaultdict(list)
    for step in steps:
        if step.group is not None:
            members[step.group].append(step.seq)
    return tuple(
        Guide(
            group,
            step_x[seqs[0]],
            min(step_y[s] for s in seqs) - 0.45,
            max(step_y[s] for s in seqs) + 0.45,
        )
        for group, seqs in members.items()
        if len(seqs) > 1
    )
