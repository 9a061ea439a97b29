"""The report's pictures read: no text cut off at the figure's edge, numbers legible on every heatmap cell."""

import numpy as np
import pytest
from matplotlib.figure import Figure

from issoku.evaluation.reports.plots import plot_combo_table, plot_restricted


@pytest.fixture
def saved(monkeypatch):
    """The figures the plots save, drawn, captured before they are closed."""
    figures = []
    real = Figure.savefig

    def capture(fig, *args, **kwargs):
        fig.draw_without_rendering()
        figures.append(fig)
        return real(fig, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", capture)
    return figures


def _texts_outside(fig):
    """The title, axis labels and row labels of ``fig`` that reach past its left or right edge (cut off in
    the PNG), give or take a few pixels of font metrics."""
    (ax,) = fig.axes
    box = fig.bbox
    texts = [ax.title, ax.xaxis.label, ax.yaxis.label, *ax.get_yticklabels()]
    return [text.get_text() for text in texts if text.get_text()
            and not box.x0 - 3 <= text.get_window_extent().x0 <= text.get_window_extent().x1 <= box.x1 + 3]


def test_the_restricted_play_plot_keeps_its_axis_label_inside_the_figure(saved, tmp_path):
    labels = ["half_step:close>stance:guard_stance", "kata:kiai>aim:attack_b:torso", "attack:uchigatana.thrust"]
    plot_restricted(labels, np.array([0.07, -0.01, 0.0]), np.array([-0.03, -0.1, -0.09]),
                    np.array([0.16, 0.08, 0.09]), tmp_path / "r.png", "breath_duel_v0: restricted play of ma_heuristic")
    (fig,) = saved
    assert _texts_outside(fig) == []


def test_heatmap_numbers_contrast_with_their_cells(saved, tmp_path):
    best = np.array([[0.1, 0.5, 1.0], [np.nan, 0.3, 0.9]])
    plot_combo_table(["kodachi", "yari"], ["far", "near", "close"], best, tmp_path / "c.png", "combos")
    (fig,) = saved
    colours = {text.get_text(): text.get_color() for text in fig.axes[0].texts}
    assert colours["1.00"] == "black" and colours["0.90"] == "black"  # viridis' yellow end
    assert colours["0.10"] == "white"  # its dark purple end
