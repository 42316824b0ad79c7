"""Moved to :mod:`desktop.elided_label` (the roster's forms use it too)."""

from desktop.elided_label import ElidedLabel

__all__ = ["ElidedLabel"]
