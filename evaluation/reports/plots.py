"""The report's pictures: rating bars, matchup and combo heatmaps, restricted-play bars, as PNG files.

matplotlib is imported inside each function with the non-interactive Agg backend, so importing this
module costs nothing and the report runs on machines without a display.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from issoku.evaluation.stats.metrics import MatchupMatrix
from issoku.evaluation.stats.ratings import Ratings


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["text.parse_math"] = False  # a name with `$` is text, never mathtext (it crashed the plots)
    import matplotlib.pyplot as plt

    return plt


def _save(plt, fig, path: Path) -> Path:
    """Lay the figure out, write it as a PNG and free it (a report draws many)."""
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def contrasting_text_color(image, value: float) -> str:
    """Black on a light cell, white on a dark one: the cell's colour from the heatmap's own colormap and
    norm, weighed by perceived luminance (so a yellow viridis cell gets black numbers, a dark one white)."""
    red, green, blue, _ = image.cmap(image.norm(value))
    return "black" if 0.299 * red + 0.587 * green + 0.114 * blue > 0.5 else "white"


def _annotate(ax, image, values: np.ndarray) -> None:
    """Write each defined cell's value (two decimals) on a heatmap, in a colour that reads on its cell."""
    rows, columns = values.shape
    for i in range(rows):
        for j in range(columns):
            if not np.isnan(values[i, j]):
                ax.text(j, i, f"{values[i, j]:.2f}", ha="center", va="center", fontsize=8,
                        color=contrasting_text_color(image, values[i, j]))


def plot_ratings(ratings: Ratings, path: Path, title: str) -> Path:
    """Horizontal bars of the Elo ratings, strongest on top, with their bootstrap intervals."""
    plt = _pyplot()
    order = ratings.ranked()[::-1]
    names = [ratings.names[i] for i in order]
    elo = ratings.elo[order]
    errors = np.vstack([elo - ratings.low[order], ratings.high[order] - elo])
    fig, ax = plt.subplots(figsize=(7, 0.45 * len(names) + 1.5))
    ax.barh(names, elo, xerr=errors, color=np.where(elo >= 0, "#3b75af", "#c44e52"), capsize=4)
    ax.axvline(0.0, color="black", linewidth=0.8)
    ax.set_xlabel(f"Elo (Bradley-Terry, mean 0), {ratings.confidence:.0%} bootstrap interval")
    ax.set_title(title)
    return _save(plt, fig, path)


def plot_matchups(matchups: MatchupMatrix, order: list[int], path: Path, title: str) -> Path:
    """Heatmap of the row's score rate against the column (draws ½), annotated, in ``order``."""
    plt = _pyplot()
    names = [matchups.names[i] for i in order]
    rate = matchups.rate[np.ix_(order, order)]
    size = 0.7 * len(names) + 2.5
    fig, ax = plt.subplots(figsize=(size + 1, size))
    image = ax.imshow(np.ma.masked_invalid(rate), cmap="RdBu", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    _annotate(ax, image, rate)
    ax.set_xlabel("opponent")
    ax.set_ylabel("scores against the opponent")
    ax.set_title(title)
    fig.colorbar(image, ax=ax, label="score rate (draws ½)")
    return _save(plt, fig, path)


def plot_combo_table(weapons: list[str], rungs: list[str], best: np.ndarray, path: Path, title: str) -> Path:
    """Heatmap of each weapon's best expected Wounds per Energy at each rung (blank: out of reach)."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(1.2 * len(rungs) + 3, 0.45 * len(weapons) + 1.8))
    image = ax.imshow(np.ma.masked_invalid(best), cmap="viridis", aspect="auto")
    ax.set_xticks(range(len(rungs)), rungs, rotation=30, ha="right")
    ax.set_yticks(range(len(weapons)), weapons)
    _annotate(ax, image, best)
    ax.set_xlabel("rung of the ma")
    ax.set_title(title)
    fig.colorbar(image, ax=ax, label="best expected Wounds per Energy")
    return _save(plt, fig, path)


def plot_restricted(labels: list[str], drop: np.ndarray, low: np.ndarray, high: np.ndarray, path: Path,
                    title: str) -> Path:
    """Horizontal bars of the win-rate drop of each restriction, biggest on top, with its interval."""
    plt = _pyplot()
    order = np.argsort(drop)
    errors = np.vstack([drop[order] - low[order], high[order] - drop[order]])
    fig, ax = plt.subplots(figsize=(8, 0.4 * len(labels) + 1.5))
    ax.barh([labels[i] for i in order], drop[order], xerr=errors, capsize=3,
            color=np.where(drop[order] > 0, "#c44e52", "#3b75af"))
    ax.axvline(0.0, color="black", linewidth=0.8)
    ax.set_xlabel("win-rate drop against the unrestricted policy\n(½ − score), 95% Wilson interval")
    ax.set_title(title)
    return _save(plt, fig, path)
