"""Measuring play styles: does a styled agent play recognisably differently, and is it still strong?

Each agent is exported and rated on a benchmark suite's scale, argmax play, exactly as a ladder rung
(:mod:`issoku.evaluation.strength.ladder`): strength is measured in the plain game, never with the style's
training bonus. Its action shares (by action kind, and by each prefix of the styles involved) are read
from the same games in the match store, and compared with the first agent given (the neutral one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from issoku.agents.checkpoint import read_metadata
from issoku.evaluation.reports.html_report import code_span, escape_cell, escape_markdown
from issoku.evaluation.strength.reference_suite import SuiteConfig
from issoku.evaluation.strength.ladder import DETERMINISTIC, Rung, candidate_name, export_snapshots, rate_candidates
from issoku.evaluation.games.store import MatchStore
from issoku.training.shaping import action_shares, load_style
from issoku.common.backend import Workers


@dataclass(frozen=True)
class StyleProfile:
    """One agent's style (as trained), strength on the suite's scale, and action shares in the suite's games."""

    checkpoint: str
    style: str
    favoured: tuple[str, ...]
    """The action-name prefixes the style's training bonus favoured (none for a neutral agent)."""
    rating: Rung
    shares: dict[str, float]
    decisions: int


def profile_styles(checkpoints: Sequence[str | Path], suite: SuiteConfig, store: MatchStore, out: Path, *,
                   workers: Workers = None, progress: bool = True) -> list[StyleProfile]:
    """A :class:`StyleProfile` per checkpoint (exports go to ``out/snapshots/``, games to ``store``)."""
    styles = [read_metadata(checkpoint)["config"].get("style", "") for checkpoint in checkpoints]
    prefixes = sorted({prefix for style in styles if style for prefix in load_style(style).bonus})
    folders = export_snapshots(checkpoints, out)
    ratings = rate_candidates(folders, [DETERMINISTIC], suite, store, workers=workers, progress=progress, root=out)
    records = list(store.records(suite.env))
    profiles = []
    for checkpoint, style, folder, rating in zip(checkpoints, styles, folders, ratings):
        name = candidate_name(folder.name, DETERMINISTIC)
        actions = [action for record in records if name in record.policies
                   for action in record.actions[record.policies.index(name)]]
        favoured = tuple(sorted(load_style(style).bonus)) if style else ()
        profiles.append(StyleProfile(str(checkpoint), style or "neutral", favoured, rating,
                                     action_shares(actions, prefixes), len(actions)))
    return profiles


def run_label(checkpoint: str | Path) -> str:
    """``<run>/<stem>`` for a checkpoint in a run's ``checkpoints/`` folder, else the file's stem."""
    path = Path(checkpoint)
    return f"{path.parent.parent.name}/{path.stem}" if path.parent.name == "checkpoints" else path.stem


def format_profiles(profiles: Sequence[StyleProfile], top: int = 12) -> str:
    """A Markdown table: strength, then each action share with its change (points) against the first agent.

    The rows are every prefix a style favoured (marked *), then the ``top`` most played other kinds.
    """
    base = profiles[0]
    favoured = sorted({prefix for profile in profiles for prefix in profile.favoured})
    others = sorted({key for profile in profiles for key in profile.shares} - set(favoured),
                    key=lambda key: (-max(profile.shares.get(key, 0.0) for profile in profiles), key))
    rows = favoured + others[:top]
    # A style's name and a checkpoint's file name come from files someone else may have written: text, never Markdown.
    header = "| | " + " | ".join(f"{escape_markdown(p.style)} ({escape_markdown(run_label(p.checkpoint))})"
                                 for p in profiles) + " |"
    lines = [header, "|---|" + "---:|" * len(profiles),
             "| Elo on the suite [95 %] | " + " | ".join(
                 f"{p.rating.elo:+.0f} [{p.rating.low:+.0f}, {p.rating.high:+.0f}]" for p in profiles) + " |",
             "| decisions | " + " | ".join(str(p.decisions) for p in profiles) + " |"]
    for key in rows:
        cells = []
        for profile in profiles:
            share = profile.shares.get(key, 0.0)
            delta = (share - base.shares.get(key, 0.0)) * 100
            cells.append(f"{share:.1%}" if profile is base else f"{share:.1%} ({delta:+.1f})")
        lines.append(f"| {escape_cell(code_span(key))}{' *' if key in favoured else ''} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
