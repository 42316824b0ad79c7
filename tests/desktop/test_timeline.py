"""The graphical timeline: where marks and bars land, their shapes, and the list ↔ timeline link."""

from __future__ import annotations

from html import escape
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QPalette
from pytestqt.qtbot import QtBot

from core.cli.commands import load_scenario, resolve_scenario
from core.model.scenario import parse_scenario
from core.model.values import Combatant, Resolution
from core.rules import find_system
from desktop.resolution.step_selection import StepSelectionSync
from desktop.resolution.steps_model import StepsModel, make_steps_view
from desktop.timeline import Axis, MarkKind, SpanKind, TimelineWidget, render_timeline_image

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"


def resolved(name: str) -> tuple[Resolution, tuple[Combatant, ...]]:
    scenario = load_scenario(SCENARIOS / f"{name}.json")
    return resolve_scenario(scenario), scenario.combatants


def timeline_for(qtbot: QtBot, name: str) -> TimelineWidget:
    widget = TimelineWidget()
    qtbot.addWidget(widget)
    widget.resize(900, 400)
    widget.set_resolution(*resolved(name))
    return widget


def marks(widget: TimelineWidget, kind: MarkKind) -> list[tuple[int, float, float]]:
    """Gets (seq, x, y) of every point of the kind, read back from the ONE scatter item."""
    return [(int(p.data()), p.pos().x(), p.pos().y()) for p in widget.mark_points(kind)]


def bars(widget: TimelineWidget, kind: SpanKind) -> list[tuple[float, float, float]]:
    """Gets (x0, x1, y centre) of every bar of the kind's ONE BarGraphItem."""
    opts = widget.bar_items[kind].opts
    x0, x1 = np.atleast_1d(opts["x0"]), np.atleast_1d(opts["x1"])
    y0 = np.atleast_1d(opts["y0"])
    half = opts["height"] / 2
    return [(float(a), float(b), float(c) + half) for a, b, c in zip(x0, x1, y0, strict=True)]


def row_y(widget: TimelineWidget, cid: str) -> float:
    return next(row.y for row in widget.timeline_layout.rows if row.cid == cid)


# --- positions --------------------------------------------------------------------------------


def test_side_d6_halvaine_casting_bar_and_orc_miss(qtbot: QtBot) -> None:
    widget = timeline_for(qtbot, "side-d6/halvaine-example")
    assert widget.timeline_layout.axis is Axis.SEGMENT
    assert bars(widget, SpanKind.CASTING) == [(4.0, 6.0, row_y(widget, "halvaine"))]
    assert marks(widget, MarkKind.MISS) == [(2, 5.0, row_y(widget, "orc-1"))]
    assert marks(widget, MarkKind.SPELL_EFFECT) == [(3, 6.0, row_y(widget, "halvaine"))]


def test_rows_are_grouped_by_side_with_a_gap(qtbot: QtBot) -> None:
    widget = timeline_for(qtbot, "side-d6/halvaine-example")
    rows = widget.timeline_layout.rows
    assert [(r.cid, r.side) for r in rows] == [
        ("halvaine", "party"), ("orc-1", "monsters"), ("orc-2", "monsters")
    ]
    assert rows[0].label == "Halvaine the Arcane"
    party, monsters = widget.timeline_layout.sides
    assert party.y1 < monsters.y0  # a gap between the sides' bands
    assert party.header_y < rows[0].y < monsters.header_y < rows[1].y
    left_ticks = widget.plot_item.getAxis("left")._tickLevels[0]
    assert ("PARTY ▾" in {t for _, t in left_ticks}) and ("orc-2" in {t for _, t in left_ticks})


def test_surprise_segments_are_marked_and_rounds_sit_side_by_side(qtbot: QtBot) -> None:
    widget = timeline_for(qtbot, "addict/surprise-segments-spell-carries-over")
    first, second = widget.timeline_layout.rounds
    assert first.surprise and not second.surprise
    assert first.x1 < second.x0  # side by side, surprise round first
    labels = dict(widget.timeline_layout.ticks)
    assert labels[1.0] == "S1" and labels[2.0] == "S2"
    # the shaman's 3-segment spell carries over from surprise segment 1 into round 2
    ((x0, x1, y),) = bars(widget, SpanKind.CASTING)
    assert x0 == 1.0 and second.x0 < x1 < second.x0 + 1 and y == row_y(widget, "shaman")


def test_simultaneous_steps_share_x_and_get_a_guide(qtbot: QtBot) -> None:
    widget = timeline_for(qtbot, "addict/surprise-segments-spell-carries-over")
    lay = widget.timeline_layout
    resolution, _ = resolved("addict/surprise-segments-spell-carries-over")
    by_group: dict[int, set[float]] = {}
    for step in resolution.steps:
        assert step.group is not None
        by_group.setdefault(step.group, set()).add(lay.step_x[step.seq])
    assert all(len(xs) == 1 for xs in by_group.values())
    # groups 5, 6, 7 all fall in segment 1 of round 2: kept in order around that segment
    assert min(by_group[5]) < min(by_group[6]) < min(by_group[7])
    guides = {g.group: g.x for g in lay.guides}
    assert guides[5] == min(by_group[5]) and guides[4] == min(by_group[4])
    # the ogre's hit and miss in one group: same x, stacked inside its row so neither hides
    ogre = [m for m in lay.marks if m.seq in (5, 6)]
    assert ogre[0].x == ogre[1].x and ogre[0].y != ogre[1].y


def test_time_units_x_is_in_tu_without_rounds(qtbot: QtBot) -> None:
    widget = timeline_for(qtbot, "time-units/fighters-several-attacks")
    lay = widget.timeline_layout
    assert lay.axis is Axis.TU
    assert (1, 5.0, row_y(widget, "hob")) in marks(widget, MarkKind.HIT)
    assert {lay.step_x[s] for s in (5, 6, 7)} == {12.0}  # the simultaneous group at TU 12
    # time-units.clock.count-up: no rounds, so no "Round n" marks and no top axis; TU ticks.
    assert lay.rounds == () and lay.x_range[0] == 0.0
    assert not widget.plot_item.getAxis("top").isVisible()
    assert [t for _, t in lay.ticks][:3] == ["0", "5", "10"]
    assert max(lay.step_x.values()) <= lay.x_range[1]


def test_popcorn_x_is_order_of_play_with_nomination_arrows(qtbot: QtBot) -> None:
    widget = timeline_for(qtbot, "popcorn/effect-durations-alice-example")
    lay = widget.timeline_layout
    assert lay.axis is Axis.SEQ
    assert all(lay.step_x[seq] == float(seq) for seq in lay.step_x)
    arrows = [(a.seq, a.y0, a.y1) for a in lay.arrows]
    y = {cid: row_y(widget, cid) for cid in ("alice", "bob", "goblin")}
    assert arrows[0] == (2, y["goblin"], y["bob"])
    assert [a[0] for a in arrows] == [2, 4, 9, 11, 13]  # alice nominating herself: no arrow
    xs, _ = widget.arrow_item.getData()
    assert len(xs) == 2 * len(arrows)  # one line item for all arrows
    assert len(widget.arrow_heads.points()) == len(arrows)
    assert bars(widget, SpanKind.CASTING) == [(5.0, 6.0, y["alice"])]


# --- kinds ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scenario", "kind", "symbol", "filled"),
    [
        ("side-d6/halvaine-spoiled", MarkKind.HIT, "t1", True),
        ("side-d6/halvaine-example", MarkKind.MISS, "o", False),
        ("side-d6/halvaine-spoiled", MarkKind.DISRUPTED, "x", True),
        ("addict/bleeding-and-death", MarkKind.DEATH, "star", True),
        ("time-units/duration-four-rounds", MarkKind.EXPIRY, "d", True),
        ("time-units/fighters-several-attacks", MarkKind.ATTACK, "t1", False),
    ],
)
def test_each_event_kind_has_its_own_shape(
    qtbot: QtBot, scenario: str, kind: MarkKind, symbol: str, filled: bool
) -> None:
    widget = timeline_for(qtbot, scenario)
    points = widget.mark_points(kind)
    assert len(points) > 0
    assert {p.symbol() for p in points} == {symbol}
    assert all((p.brush().style().name != "NoBrush") == filled for p in points)


def test_disrupted_spell_bar_ends_at_the_disruption(qtbot: QtBot) -> None:
    widget = timeline_for(qtbot, "side-d6/halvaine-spoiled")
    assert bars(widget, SpanKind.CASTING) == []
    ((_, disrupted_x, _),) = marks(widget, MarkKind.DISRUPTED)
    ((_, hit_x, _),) = marks(widget, MarkKind.HIT)
    assert bars(widget, SpanKind.CASTING_LOST) == [(4.0, disrupted_x, row_y(widget, "halvaine"))]
    # both in segment 5; the hit that spoils the spell comes first, so it is drawn first
    assert round(hit_x) == round(disrupted_x) == 5 and hit_x < disrupted_x


def test_tooltip_names_actor_target_and_rules_in_plain_words(qtbot: QtBot) -> None:
    widget = timeline_for(qtbot, "side-d6/halvaine-example")
    item = widget.mark_item
    (point,) = widget.mark_points(MarkKind.CAST)
    tip = item.opts["tip"](x=point.pos().x(), y=point.pos().y(), data=point.data())
    rule = find_system("side-d6").rules["side-d6.spell.starts-in-initiative-segment"]
    assert "Halvaine the Arcane" in tip and "orc-1" in tip and "segment 4" in tip
    assert rule.summary.split()[0] in tip
    assert "side-d6." not in tip and "initiative-segment" not in tip  # words, never a rule id


# --- live redraw ------------------------------------------------------------------------------


def test_a_new_resolution_redraws_the_same_items(qtbot: QtBot) -> None:
    widget = timeline_for(qtbot, "side-d6/halvaine-example")
    items_before = list(widget.plot_item.items)
    widget.set_resolution(*resolved("side-d6/halvaine-spoiled"))
    assert list(widget.plot_item.items) == items_before  # fed new arrays, nothing rebuilt
    assert marks(widget, MarkKind.MISS) == []
    assert [m[0] for m in marks(widget, MarkKind.HIT)] == [2]


def test_render_timeline_image_offscreen(qtbot: QtBot) -> None:
    image = render_timeline_image(*resolved("side-d6/halvaine-example")[:1], 640, 300)
    assert (image.width(), image.height()) == (640, 300)
    assert image.pixelColor(5, 5).lightness() > 200  # paper colours


def test_background_follows_a_dark_palette(qtbot: QtBot) -> None:
    widget = timeline_for(qtbot, "side-d6/halvaine-example")
    palette = QPalette(widget.palette())
    palette.setColor(QPalette.ColorRole.Base, QColor("#202020"))
    palette.setColor(QPalette.ColorRole.Text, QColor("#f0f0f0"))
    widget.setPalette(palette)
    assert widget.view.backgroundBrush().color().lightness() < 60
    assert widget.mark_item.points() is not None


# --- list ↔ timeline --------------------------------------------------------------------------


@pytest.fixture
def linked(qtbot: QtBot) -> tuple[StepSelectionSync, TimelineWidget, StepsModel]:
    timeline = TimelineWidget()
    model = StepsModel()
    view = make_steps_view(model)
    qtbot.addWidget(timeline)
    qtbot.addWidget(view)
    sync = StepSelectionSync(view, timeline)
    sync.set_resolution(*resolved("side-d6/halvaine-example"))
    return sync, timeline, model


def test_steps_model_rows_and_plain_words_tooltip(
    linked: tuple[StepSelectionSync, TimelineWidget, StepsModel],
) -> None:
    _, _, model = linked
    assert model.rowCount() == 3
    row = [model.index(1, c).data() for c in range(model.columnCount())]
    assert row[:5] == ["2", "rd 1 · seg 5", "orc-1", "misses", "Halvaine the Arcane"]
    # the Why column: the printout's words for why it came then, never a rule id
    assert row[5] == "a side acts in the segment shown by the other side's die, so higher is better"
    tip = str(model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole))
    assert "initiative.other-sides-die" not in tip
    summary = find_system("side-d6").rules["side-d6.initiative.other-sides-die"].summary
    assert escape(summary) in model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole)


def test_selecting_a_row_highlights_the_step_on_the_timeline(
    linked: tuple[StepSelectionSync, TimelineWidget, StepsModel],
) -> None:
    sync, timeline, _ = linked
    view = sync.parent()
    view.selectRow(1)
    assert timeline.highlighted_step == 2
    xs, ys = timeline.highlight_item.getData()
    assert (xs[0], ys[0]) == (5.0, row_y(timeline, "orc-1"))


def test_clicking_a_mark_selects_its_row(
    qtbot: QtBot, linked: tuple[StepSelectionSync, TimelineWidget, StepsModel]
) -> None:
    sync, timeline, _ = linked
    item = timeline.mark_item
    points = timeline.mark_points(MarkKind.SPELL_EFFECT)
    with qtbot.waitSignal(sync.step_selected) as signal:
        item.sigClicked.emit(item, [points[0]], None)
    assert signal.args == [3]
    assert sync.parent().currentIndex().row() == 2
    assert timeline.highlighted_step == 3


def test_new_resolution_keeps_the_selected_step(
    linked: tuple[StepSelectionSync, TimelineWidget, StepsModel],
) -> None:
    sync, timeline, _ = linked
    sync.select_step(2)
    sync.set_resolution(*resolved("side-d6/halvaine-spoiled"))
    assert sync.selected_step() == 2 and timeline.highlighted_step == 2


def test_legend_sample_click_hides_and_shows_its_kind(qtbot: QtBot) -> None:
    widget = timeline_for(qtbot, "side-d6/halvaine-spoiled")
    sample = widget.mark_samples[MarkKind.HIT]
    sample.setVisible(False)  # what clicking the legend sample does, then it tells the legend
    widget.legend.sigSampleClicked.emit(sample)
    assert marks(widget, MarkKind.HIT) == []
    assert len(marks(widget, MarkKind.DISRUPTED)) == 1
    widget.set_resolution(*resolved("side-d6/halvaine-spoiled"))  # stays hidden on redraw
    assert marks(widget, MarkKind.HIT) == []
    sample.setVisible(True)
    widget.legend.sigSampleClicked.emit(sample)
    assert [m[0] for m in marks(widget, MarkKind.HIT)] == [2]


def _tu_fight(rolls: dict[str, int]) -> tuple[Resolution, tuple[Combatant, ...]]:
    """Seven named fighters in a time-units fight, each acting once with the given d10."""
    names = ["Brannoc the Bold", "Sister Ysolde", "Halvaine the Arcane", "Pip Underbough",
             "Orc 1", "Orc 2", "Orc 3"]
    cast = [{"id": f"c{i}", "name": n, "side": "party" if i < 4 else "monsters", "hp": 9}
            for i, n in enumerate(names)]
    actions = [{"actor": f"c{i}", "action": "melee", "target": f"c{6 - i}",
                "roll": rolls.get(f"c{i}", 1 + i)} for i in range(7)]
    scenario = parse_scenario({"format": "combatdesk/scenario-1", "system": "time-units",
                               "combatants": cast, "actions": actions})
    return resolve_scenario(scenario), scenario.combatants


def test_every_row_is_named_and_the_rows_scroll_when_they_do_not_fit(qtbot: QtBot) -> None:
    widget = TimelineWidget()
    qtbot.addWidget(widget)
    widget.resize(900, 500)
    widget.show()
    resolution, cast = _tu_fight({})
    widget.set_resolution(resolution, cast)
    names = {c.label for c in cast}
    assert names <= set(widget.named_rows()) and widget.row_scroll.isHidden()
    widget.resize(900, 150)  # the DM drags the splitter down: rows scroll, none loses its name
    qtbot.wait(10)
    bar = widget.row_scroll
    assert not bar.isHidden() and bar.maximum() > 0
    seen: set[str] = set()
    for value in range(bar.maximum() + 1):
        bar.setValue(value)
        y_lo, y_hi = widget.plot_item.getViewBox().viewRange()[1]
        in_view = {r.label for r in widget.timeline_layout.rows if y_lo <= r.y <= y_hi}
        assert in_view and in_view <= set(widget.named_rows())  # every row in view is named
        seen |= in_view
    assert seen == names
    widget.scroll_to_row("c0")
    assert "Brannoc the Bold" in widget.named_rows()


def test_dice_that_re_sort_the_list_keep_the_same_step_selected(
    linked: tuple[StepSelectionSync, TimelineWidget, StepsModel],
) -> None:
    sync, timeline, model = linked
    sync.set_resolution(*_tu_fight({}))
    orc = next(s for s in model.steps() if s.actor == "c5")
    sync.select_step(orc.seq)
    sync.set_resolution(*_tu_fight({"c5": 10, "c0": 9}))  # new dice: the order changes
    now = next(s for s in model.steps() if s.seq == sync.selected_step())
    assert now.actor == "c5" and now.seq != orc.seq
    assert timeline.highlighted_step == now.seq


def test_a_selected_step_on_a_scrolled_out_row_scrolls_into_view(qtbot: QtBot) -> None:
    widget = TimelineWidget()
    qtbot.addWidget(widget)
    widget.resize(900, 150)
    widget.show()
    resolution, cast = _tu_fight({})
    widget.set_resolution(resolution, cast)
    qtbot.wait(10)
    last_row = next(s.seq for s in resolution.steps if s.actor == "c6")
    assert "Orc 3" not in widget.named_rows()
    widget.highlight_step(last_row)
    assert "Orc 3" in widget.named_rows()


def test_popcorn_places_are_whole_numbers_before_play(qtbot: QtBot) -> None:
    """The order-of-play axis labels whole places (1, 2, 3…), never "0.5 … 1.5", even before
    the first turn."""
    from core.model.values import Resolution
    from desktop.timeline.widget import TimelineWidget

    widget = TimelineWidget()
    qtbot.addWidget(widget)
    widget.set_resolution(Resolution(system="popcorn", steps=(), combatants={}, rolls=()))
    labels = [text for _, text in widget._drawn_ticks.get("bottom") or []]
    assert labels == ["1", "2", "3", "4", "5"]


def test_the_legend_keeps_its_place_when_the_last_waiting_blow_is_recorded(qtbot: QtBot) -> None:
    """The key lists every kind of mark the fight has shown: recording the last blow still
    waiting (its "attack (no outcome)" mark gone) and taking it back leave the legend, and so
    the plot under it, where they were; the labels are not made again at each."""
    import dataclasses

    from core.model.values import StepEvent
    from desktop.timeline.style import MARK_STYLES

    widget = timeline_for(qtbot, "side-d6/halvaine-spoiled")
    resolution, combatants = resolved("side-d6/halvaine-spoiled")
    hit = next(i for i, s in enumerate(resolution.steps) if s.event == StepEvent.HITS)
    steps = list(resolution.steps)
    steps[hit] = dataclasses.replace(steps[hit], event=StepEvent.ATTACKS)  # not recorded yet
    waiting = dataclasses.replace(resolution, steps=tuple(steps))
    widget.set_resolution(waiting, combatants)
    labels = [label.text for _sample, label in widget.legend.items]
    assert MARK_STYLES[MarkKind.ATTACK].label in labels and len(labels) >= 3
    first = [label for _sample, label in widget.legend.items]
    height = widget.legend.boundingRect().height()
    widget.set_resolution(resolution, combatants)  # the blow recorded: no waiting mark left
    assert marks(widget, MarkKind.ATTACK) == []
    assert [label for _sample, label in widget.legend.items] == first  # the same labels
    assert widget.legend.boundingRect().height() == height
    widget.set_resolution(waiting, combatants)  # and its Ctrl+Z
    assert [label for _sample, label in widget.legend.items] == first
