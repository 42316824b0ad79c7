"""Renders a :class:`~core.printout.rows.Summary` as one self-contained HTML page.

The page skeleton is ``resources/summary.html.tmpl`` (``string.Template``); the tables are
built here. Every text that came from a user (names, ids, spells, notes, options) goes
through :func:`html.escape`, and the template only ever receives escaped text or fragments
built from escaped text. Timeline pictures are embedded as base64 ``data:`` SVG images so the
file stands alone (the printing code swaps them for rendered images: Qt cannot show those).
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence
from html import escape
from string import Template

from core import __version__
from core.model.resources import resource
from core.printout.rows import (
    Axis,
    OptionRow,
    RollRow,
    RoundSummary,
    StateRow,
    Summary,
    TimelineStep,
)
from core.printout.timeline_svg import render_timeline_svg
from core.printout.words import entered_words

TEMPLATE_NAME = "summary.html.tmpl"
PICTURE_WIDTH = 660
"""Printed width of a timeline picture in CSS pixels: A4 and Letter with 15 mm margins leave
about 680 px of text width, less the document's own margin."""


_SURROGATE = re.compile("[\ud800-\udfff]")


def whole_text(text: str) -> str:
    """Gets ``text`` with every lone surrogate (half of a character, which a JSON file can
    spell as ``\\ud800``) shown as the replacement mark: it has no UTF-8 form, so a page
    holding it could not be written, embedded or printed."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def _e(text: object) -> str:
    return escape(whole_text(str(text)), quote=True)


def _table(
    headers: Sequence[str],
    rows: Sequence[Sequence[str]],
    widths: str = "",
    columns: Sequence[int] = (),
) -> str:
    """Builds a table from already-escaped cells (headers are our own words).

    ``columns`` gives each column's share of the width in percent, when the default split
    would squeeze the long text.
    """
    head = "".join(
        f'<th width="{columns[i]}%">{h}</th>' if i < len(columns) else f"<th>{h}</th>"
        for i, h in enumerate(headers)
    )
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    width = f' width="{widths}"' if widths else ""
    return (
        f'<table border="1" cellspacing="0" cellpadding="3"{width}>'
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def _options(rows: Sequence[OptionRow]) -> str:
    if not rows:
        return "<p>This system has no options.</p>"
    return _table(
        ["Option", "Value", "What it decides"],
        [
            [
                f"<b>{_e(r.name)}</b>" if not r.is_default else _e(r.name),
                _e(r.value)
                + (
                    " <i>(as the source)</i>"
                    if r.is_default
                    else f" <b>(house rule; the source: {_e(r.default)})</b>"
                ),
                f'<span class="small">{_e(r.meaning)}</span>',
            ]
            for r in rows
        ],
        "100%",
        (28, 27, 45),
    )


def _rolls(rows: Sequence[RollRow]) -> str:
    return _table(
        ["Round", "What for", "Dice", "Faces", "Total", "Entered"],
        [
            [
                "before round 1" if r.round is None else str(r.round),
                _e(r.purpose or "—"),
                _e(r.expression),
                _e(", ".join(str(d) for d in r.dice) or "—"),
                f"<b>{r.total}</b>",
                entered_words(r.manual),
            ]
            for r in rows
        ],
        "100%",
        (12, 34, 8, 12, 8, 26),
    )


def _states(rows: Sequence[StateRow]) -> str:
    return _table(
        ["Combatant", "Side", "HP", "Status"],
        [[_e(r.name), _e(r.side), _e(r.hp), _e(r.status)] for r in rows],
    )


def svg_img(svg: str, alt: str) -> str:
    """Embeds an SVG picture as a self-contained ``<img>``."""
    data = base64.b64encode(whole_text(svg).encode("utf-8")).decode("ascii")
    return f'<img src="data:image/svg+xml;base64,{data}" width="{PICTURE_WIDTH}" alt="{_e(alt)}">'


def _picture(summary: Summary, steps: Sequence[TimelineStep], axis: Axis, alt: str) -> str:
    caption = {"segments": "segment", "tu": "TU", "turns": "order of play"}.get(axis.kind, "")
    svg = render_timeline_svg(summary.combatants, steps, axis, caption)
    across = {
        "segments": "segments run left to right",
        "tu": "the TU clock runs left to right",
        "turns": "turns run left to right in the order played",
    }.get(axis.kind, "time runs left to right")
    return (
        f"<p>{svg_img(svg, alt)}</p>"
        f'<p class="small note">One row a combatant; {across}.</p>'
    )


def _play(rnd: RoundSummary) -> str:
    if not rnd.play:
        return f"<p>{_e(rnd.quiet)}</p>"
    rows = [
        [
            _e(p.when) + (" ≡" if p.simultaneous else ""),
            _e(p.text),
            f'<span class="small">{_e(p.why)}</span>',
        ]
        for p in rnd.play
    ]
    return _table(["When", "What happens", "Why then"], rows, "100%", (14, 50, 36))


def _round(summary: Summary, rnd: RoundSummary) -> str:
    # Rounds follow one another on the page (issue 24): a page each left short rounds on
    # near-empty pages. The printer keeps a round's heading with what follows it
    # (desktop.page_breaks).
    out = [f"<h2>{_e(rnd.title)}</h2>"]
    out.append("<h3>Order of play</h3>")
    out.append(_play(rnd))
    if any(p.simultaneous for p in rnd.play):
        out.append('<p class="small note">≡ happens at the same time as its neighbours.</p>')
    out.append("<h3>Timeline</h3>")
    out.append(_picture(summary, rnd.timeline, rnd.axis, f"timeline of {rnd.title}"))
    if rnd.hits:
        out.append("<h3>Hits and damage</h3>")
        out.append(
            _table(
                ["When", "Attacker", "Target", "Result", "With", "Damage", "Target HP after"],
                [
                    [
                        _e(h.when),
                        _e(h.actor),
                        _e(h.target or "—"),
                        {"hit": "<b>HIT</b>", "miss": "miss"}.get(h.result, "no outcome"),
                        _e(h.means or "—"),
                        "—" if h.damage is None else str(h.damage),
                        "—" if h.hp_after is None else str(h.hp_after),
                    ]
                    for h in rnd.hits
                ],
            )
        )
    if rnd.spells:
        out.append("<h3>Spells</h3>")
        words = {"begun": "begun", "cast": "<b>CAST</b>", "lost": "<b><i>LOST</i></b>"}
        out.append(
            _table(
                ["When", "Caster", "Spell", "Outcome", "Details"],
                [
                    [_e(s.when), _e(s.caster), _e(s.spell), words[s.outcome], _e(s.details)]
                    for s in rnd.spells
                ],
            )
        )
    if rnd.notes:
        out.append("<h3>Morale, bleeding, deaths and flight</h3>")
        out.append(
            _table(
                ["When", "Who", "What"],
                [[_e(n.when), _e(n.actor), _e(n.text)] for n in rnd.notes],
            )
        )
    if rnd.effects:
        out.append("<h3>Effects running at the end of the round</h3>")
        out.append(
            _table(
                ["Effect", "On", "From", "Started", "Remaining"],
                [
                    [_e(f.name), _e(f.target or "—"), _e(f.source), _e(f.started), _e(f.remaining)]
                    for f in rnd.effects
                ],
            )
        )
        if rnd.effects_note:
            out.append(f'<p class="small note">{_e(rnd.effects_note)}</p>')
    out.append(f"<h3>Hit points and status after round {rnd.number}</h3>")
    out.append(_states(rnd.states))
    out.append(f"<h3>{_e(rnd.declarations_title)}</h3>")
    if rnd.declarations:
        out.append(
            _table(
                ["Who", "Action", "Target", "Details"],
                [
                    [_e(d.actor), _e(d.action), _e(d.target or "—"), _e(d.details)]
                    for d in rnd.declarations
                ],
            )
        )
    else:
        out.append("<p>Nothing declared.</p>")
    return "\n".join(out)


def _appendix(summary: Summary) -> str:
    out = ["<h2>Appendix: rules and dice</h2>"]  # after the fight, not on a page of its own
    rolls = [*summary.encounter_rolls, *(r for rnd in summary.rounds for r in rnd.rolls)]
    out.append("<h3>Dice</h3>")
    out.append(_rolls(rolls) if rolls else "<p>No dice in these rounds.</p>")
    out.append("<h3>Rules that placed each step</h3>")
    out.append('<p class="small">Rule ids as Combat Desk&#8217;s rule catalogue lists them, '
               'each with its source and heading.</p>')
    out.append(
        _table(
            ["Round", "#", "When", "Who", "Rules"],
            [
                [
                    str(rnd.number),
                    str(s.seq),
                    _e(s.when),
                    _e(s.actor),
                    f'<span class="small">{", ".join(_e(b) for b in s.because)}</span>',
                ]
                for rnd in summary.rounds
                for s in rnd.steps
            ],
            "100%",
            (8, 5, 15, 20, 52),
        )
    )
    out.append("<h3>Options</h3>")
    out.append(_options(summary.options))
    return "\n".join(out)


def _house_rules(summary: Summary) -> str:
    if not summary.house_rules:
        return ""
    items = "".join(f"<li>{_e(h.sentence())}</li>" for h in summary.house_rules)
    return f"<h3>House rules in play</h3><ul>{items}</ul>"


def _covers(summary: Summary) -> str:
    state = "the fight is still running" if summary.running else "the fight is over"
    return f"{summary.scope}; {state}"


def render_html(summary: Summary, appendix: bool = True) -> str:
    """Renders the summary page; ``appendix`` adds the dice, rule ids and options at the end."""
    template = Template(resource(TEMPLATE_NAME).read_text(encoding="utf-8"))
    encounter_timeline = ""
    if summary.encounter_axis is not None:
        encounter_timeline = "<h2>Timeline of the encounter</h2>" + _picture(
            summary, summary.encounter_timeline, summary.encounter_axis, "encounter timeline"
        )
    notes = "".join(f'<p class="note small">{_e(n)}</p>' for n in summary.notes)
    note = f"<p>{_e(summary.scenario_note)}</p>" if summary.scenario_note else ""
    ended = not summary.running and summary.last_round == summary.round_count
    final = ""
    if ended:
        final = "<h2>End of the encounter</h2>" + _states(summary.final_states)
    return whole_text(template.substitute(
        title=_e(summary.title),
        system_title=_e(summary.system_title),
        scope=_e(_covers(summary)),
        scenario_note=note,
        notes=notes,
        house_rules=_house_rules(summary),
        encounter_timeline=encounter_timeline,
        rounds="\n".join(
            _round(summary, r) for r in summary.rounds
        ),
        final_states=final,
        appendix=_appendix(summary) if appendix else "",
        version=_e(__version__),
    ))
