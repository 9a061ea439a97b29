"""``render_mode="rgb_array"``: the env's text picture drawn as an RGB frame, for video recorders.

Gymnasium's and PettingZoo's video tools want frames of one size for a whole episode, so every frame is
the same fixed grid of monospace cells (:data:`COLUMNS` x :data:`LINES`): longer lines are cut, fewer lines
leave blank space. matplotlib (already a dependency, for the balance report's plots) draws it, imported only
when a frame is asked for.
"""

from __future__ import annotations

import numpy as np

COLUMNS = 110
LINES = 36
DPI = 100
FONT_SIZE = 9


def text_frame(text: str) -> np.ndarray:
    """``text`` drawn black on white in a fixed grid of monospace cells: an ``(H, W, 3)`` uint8 array."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    lines = [line[:COLUMNS] for line in text.splitlines()[:LINES]]
    width, height = COLUMNS * FONT_SIZE * 0.63 / 72 + 0.2, LINES * FONT_SIZE * 1.25 / 72 + 0.2
    figure = Figure(figsize=(width, height), dpi=DPI, facecolor="white")
    canvas = FigureCanvasAgg(figure)
    figure.text(0.1 / width, 1 - 0.1 / height, "\n".join(lines), family="monospace", size=FONT_SIZE,
                va="top", ha="left", linespacing=1.25)
    canvas.draw()
    return np.asarray(canvas.buffer_rgba())[..., :3].copy()
