"""The balance report: Markdown tables and PNG plots written from the match store.

One section per env in the store. Each says who is strongest (ratings with intervals), who beats
whom (matchup matrix), what a rational field would play (Nash mixture) and never play (dominated),
which loadouts dominate, whether moving first matters, how decisive games are, and how varied the
play is. Every number comes from :func:`issoku.evaluation.analysis.analyse`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tqdm import tqdm

from issoku.evaluation.analysis import BalanceAnalysis, SideAnalysis, analyse
from issoku.evaluation.metagame import name_mixture
from issoku.evaluation.metrics import CompositionSpec, Proportion, SequenceUse
from issoku.evaluation.plots import plot_matchups, plot_ratings
from issoku.evaluation.store import MatchStore


def _pct(p: Proportion) -> str:
    if not p.n:
        return "n/a"
    return f"{p.value:.1%} [{p.low:.1%}, {p.high:.1%}] (n={p.n})"


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return lines + [""]


def _side_section(sides: SideAnalysis, what: str, one: str, env_id: str, slug: str, out_dir: Path) -> list[str]:
    """Ratings, matchups, meta-game and dominance among one kind of side, with its two plots."""
    ratings, matchups = sides.ratings, sides.matchups
    order = ratings.ranked()
    level = f"{ratings.confidence:.0%}"
    lines = [f"### Ratings of {what}", "",
             f"Bradley-Terry fit of every game at once (draws ½), Elo scale centred on the mean, "
             f"{level} bootstrap intervals.", ""]
    lines += _table(["rank", one, "Elo", f"{level} interval", "games"],
                    [(rank + 1, ratings.names[i], f"{ratings.elo[i]:+.0f}",
                      f"[{ratings.low[i]:+.0f}, {ratings.high[i]:+.0f}]", int(ratings.games[i]))
                     for rank, i in enumerate(order)])
    ratings_png = plot_ratings(ratings, out_dir / f"{slug}_ratings.png", f"{env_id}: {what}")
    lines += [f"![ratings of {what}]({ratings_png.name})", "", f"### Matchups between {what}", "",
              f"Row's score against column (draws ½), Wilson {level} interval.", ""]
    lines += _table([""] + [matchups.names[j] for j in order],
                    [[f"**{matchups.names[i]}**"] + [
                        "—" if i == j or not matchups.games[i, j] else
                        f"{matchups.rate[i, j]:.2f} [{matchups.low[i, j]:.2f}, {matchups.high[i, j]:.2f}]"
                        for j in order] for i in order])
    heatmap_png = plot_matchups(matchups, order, out_dir / f"{slug}_matchups.png", f"{env_id}: {what}")
    lines += [f"![matchups between {what}]({heatmap_png.name})", ""]
    dominant = matchups.dominant()
    lines.append("**Dominant** (interval above ½ against every opponent): "
                 + (", ".join(matchups.names[i] for i in dominant) if dominant else "none") + ".")
    lines.append("")
    if sides.equilibrium is not None:
        mixture = name_mixture(sides.equilibrium.mixture, sides.games.names)
        lines += [f"### Meta-game among {what}", "",
                  "Nash equilibrium of the symmetric zero-sum game whose payoff is the expected return "
                  f"(value {round(sides.equilibrium.value, 3) + 0.0:+.3f}): "
                  + ", ".join(f"{name} {weight:.0%}" for name, weight in mixture.items()) + ".", ""]
        if sides.dominated:
            lines += _table(["dominated", "by (mixture)", "margin (expected return)"],
                            [(sides.games.names[d.dominated],
                              ", ".join(f"{sides.games.names[k]} {w:.0%}" for k, w in d.by.items()),
                              f"{d.margin:.3f}") for d in sides.dominated])
        else:
            lines += ["No strategy is strictly dominated.", ""]
    return lines


def render_env_section(analysis: BalanceAnalysis, out_dir: Path) -> list[str]:
    """The Markdown section (and PNG files in ``out_dir``) of one env's analysis."""
    env = analysis.env_id
    lines = [f"## {env}", "",
             f"{analysis.games} games; policies: {', '.join(analysis.policies)}; "
             f"loadouts: {', '.join(analysis.loadouts)}; rules fingerprint: "
             f"{', '.join(f'`{fp[:16]}`' for fp in analysis.rules_fingerprints)}.", ""]
    lines += [f"> {note}" for note in analysis.notes] + ([""] if analysis.notes else [])
    if analysis.by_policy is not None:
        lines += _side_section(analysis.by_policy, "policies", "policy", env, f"{env}_policies", out_dir)
    if analysis.by_loadout is not None:
        lines += _side_section(analysis.by_loadout, "loadouts", "loadout", env, f"{env}_loadouts", out_dir)
    d = analysis.decisiveness
    lines += ["### Initiative and decisiveness", ""]
    lines += _table(["measure", "rate [interval] (n)"],
                    [("first mover's score", _pct(analysis.first_mover))]
                    + [(f"score of seat {agent}", _pct(p)) for agent, p in zip(analysis.agents, analysis.seats)]
                    + [("draws", _pct(d.draws)), ("timeouts (truncated)", _pct(d.timeouts))])
    lines += [f"Game length: mean {d.mean_length:.1f}, median {d.median_length:.0f} decisions.", "",
              "### Strategy diversity", "",
              "Entropy (bits) of each policy's whole action sequences and of its single actions.", ""]
    with_compositions = bool(analysis.compositions)
    lines += _table(["policy", "seats played", "distinct sequences", "sequence entropy", "distinct actions",
                     "action entropy"] + (["distinct compositions", "composition entropy"] if with_compositions else []),
                    [(x.policy, x.seats, x.distinct_sequences, f"{x.sequence_entropy:.2f}", x.distinct_actions,
                      f"{x.action_entropy:.2f}")
                     + ((x.distinct_compositions, f"{x.composition_entropy:.2f}") if with_compositions else ())
                     for x in analysis.diversity])
    if with_compositions:
        lines += ["### Most used compositions", "",
                  "The compositions (a seat's decisions of one kind, up to the closing action) each policy plays "
                  "in most games, and its score in those games against its overall score: a composition used "
                  "often that scores far above the overall score is a candidate degenerate combo.", ""]
        lines += _usage_table(analysis.compositions, "composition")
    if analysis.sequences:
        lines += ["### Most used action sequences", "",
                  "Runs of consecutive actions each policy plays most, and its score in the games where it "
                  "played them (against its overall score).", ""]
        lines += _usage_table(analysis.sequences, "sequence")
    return lines


def _usage_table(uses: Sequence[SequenceUse], what: str) -> list[str]:
    return _table(["policy", what, "used in", "score when used", "overall score"],
                  [(u.policy, " → ".join(u.sequence), f"{u.used_in} ({u.share:.0%})", _pct(u.score_when_used),
                    f"{u.score_overall:.1%}") for u in uses])


def write_report(store: MatchStore, out_dir: str | Path, env_ids: Sequence[str] | None = None,
                 bootstrap: int = 1000, seed: int = 0, confidence: float = 0.95, ngram: int = 2,
                 composition: CompositionSpec | None = None, progress: bool = True) -> Path:
    """Write ``report.md`` and its PNG plots into ``out_dir`` from the matches in ``store``; returns the file.

    ``composition`` applies to every env whose decisions have its kind.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    env_ids = list(env_ids) if env_ids is not None else store.env_ids()
    lines = ["# issoku balance report", "",
             f"From `{store.path}`: {store.count()} stored games. Intervals are {confidence:.0%}; "
             f"bootstrap: {bootstrap} resamples, seed {seed}.", ""]
    for env in tqdm(env_ids, desc="report", unit="env", disable=not progress):
        records = list(store.records(env_id=env))
        if not records:
            lines += [f"## {env}", "", "No games stored for this env.", ""]
            continue
        analysis = analyse(records, bootstrap=bootstrap, seed=seed, confidence=confidence, ngram=ngram,
                           composition=composition)
        lines += render_env_section(analysis, out_dir)
    path = out_dir / "report.md"
    path.write_text("\n".join(lines))
    return path
