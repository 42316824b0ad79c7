"""The graphical timeline (pyqtgraph): import from here, not from the modules."""

from desktop.timeline.image import render_timeline_image
from desktop.timeline.layout import Axis, MarkKind, SpanKind, TimelineLayout, build_layout
from desktop.timeline.widget import TimelineWidget

__all__ = [
    "Axis",
    "MarkKind",
    "SpanKind",
    "TimelineLayout",
    "TimelineWidget",
    "build_layout",
    "render_timeline_image",
]
