"""The balance report: Markdown tables and PNG plots written from the match store.

One section per env in the store. Each says who is strongest (ratings with intervals), who beats
whom (matchup matrix), what a rational field would play (Nash mixture) and never play (dominated),
which loadouts dominate, whether moving first matters, how decisive games are, and how varied the
play is. Every number comes from :func:`issoku.evaluation.reports.analysis.analyse`, except each learned policy's
observation ablation (:mod:`issoku.agents.ablation`), which the caller measures: whether the policy reads the
game at all, so that a state-blind policy's rating is read as what it is, the strength of a fixed preference
order over legal moves.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import partial
from types import MappingProxyType
from pathlib import Path

import numpy as np
from tqdm import tqdm

from issoku.agents.ablation import STATE_BLIND_SHARE, Ablation
from issoku.envs.registry import resolve_env
from issoku.evaluation.reports.analysis import BalanceAnalysis, SideAnalysis, analyse, analyse_sides
from issoku.evaluation.games.checkpoint_fit import checkpoint_paths, plays_other_rules
from issoku.evaluation.design.combo_play import (PLAYED_GAMES, Breath, category_play, composition_play, policy_economy,
                                          replay_breaths)
from issoku.evaluation.design.combos import ATTACK_PREFIX, COMBO_TABLE, ComboCell, ComboTable, combo_usage
from issoku.evaluation.reports.coverage import Coverage, build_ruleset, content_map, coverage, fielded_content
from issoku.evaluation.reports.example_games import Example, combo_games, decided_games, lopsided_wins
from issoku.evaluation.reports.degenerate import one_action_lines, stall_lines, vacuous_battery_line
from issoku.evaluation.reports.fields import CrossPlay, FieldRanking, field_headlines, field_rankings
from issoku.evaluation.reports.findings import (Finding, Thresholds, agent_kinds, corrected, level_text, points, policies_of,
                                        score_finding)
from issoku.evaluation.reports.html_report import code_span, escape_cell, escape_markdown, write_html_report
from issoku.evaluation.reports.csv_output import write_csv
from issoku.evaluation.stats.metagame import name_mixture
from issoku.evaluation.stats.metrics import CompositionSpec, SequenceUse, matchup_matrix
from issoku.evaluation.stats.pairings import Side, by_label, by_policy
from issoku.evaluation.stats.power import detectable_text
from issoku.evaluation.reports.plots import plot_combo_table, plot_matchups, plot_ratings, plot_restricted
from issoku.evaluation.games.records import MatchRecord
from issoku.evaluation.design.restricted import (COMBO, RestrictionResult, battery_coverage, is_restricted, listing,
                                          restriction_results)
from issoku.evaluation.reports.rule_trail import OPENING, RuleTrails, Trail, fallback_lever, lever_for, most_used, read_levers
from issoku.evaluation.reports.skill import skill_headline, skill_ladders, skill_section
from issoku.evaluation.stats.sequential import (BALANCED, IMBALANCED, UNDETERMINED, CellPairs, SequentialTest,
                                          SequentialVerdict, by_seat_label, cell_verdicts, verdict_text)
from issoku.evaluation.games.store import MatchStore
from issoku.rules.breath.kinds import BREATH
from issoku.evaluation.games.versions import DATA_KEYWORDS, VersionGroup, rules_version, split_versions
from issoku.evaluation.games.viewing import write_replays
from issoku.common.outcomes import Proportion


def _pct(p: Proportion) -> str:
    if not p.n:
        return "n/a"
    return f"{p.value:.1%} [{p.low:.1%}, {p.high:.1%}] (n={p.n})"


def _table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    lines = ["| " + " | ".join(map(escape_cell, header)) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(escape_cell(cell) for cell in row) + " |" for row in rows]
    return lines + [""]


def file_stem(env: str) -> str:
    """``env`` as a safe file-name stem: env ids come from the match store, a file that may have been sent, and
    must never name a path outside ``--out`` (``../../x`` becomes ``.._.._x`` plus a digest, so two ids never share a stem)."""
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", env).lstrip(".") or "env"
    return safe if safe == env else f"{safe}-{hashlib.sha256(env.encode()).hexdigest()[:8]}"


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


def render_env_section(analysis: BalanceAnalysis, out_dir: Path,
                       grids: Sequence[tuple[str, SideAnalysis]] | None = None) -> list[str]:
    """The Markdown section (and PNG files in ``out_dir``) of one env's analysis; ``grids``: the loadouts rated per
    grid that met (:func:`grid_sides`), each titled, in place of the analysis's pooled loadout ratings."""
    env = analysis.env_id
    lines = [f"## {env}", "",
             f"{analysis.games} games; policies: {', '.join(analysis.policies)}; "
             f"loadouts: {listing(analysis.loadouts)}; rules fingerprints (fighters included): "
             f"{listing([f'`{fp[:16]}`' for fp in analysis.rules_fingerprints])}.", ""]
    lines += [f"> {note}" for note in analysis.notes] + ([""] if analysis.notes else [])
    if analysis.by_policy is not None:
        lines += _side_section(analysis.by_policy, "policies", "policy", env, f"{file_stem(env)}_policies", out_dir)
    if grids is not None:
        for i, (title, side) in enumerate(grids):
            slug = f"{file_stem(env)}_loadouts" + (f"_{i + 1}" if i else "")
            lines += _side_section(side, title, "loadout", env, slug, out_dir)
    elif analysis.by_loadout is not None:
        lines += _side_section(analysis.by_loadout, "loadouts", "loadout", env, f"{file_stem(env)}_loadouts", out_dir)
    d = analysis.decisiveness
    lines += ["### Initiative and decisiveness", ""]
    lines += _table(["measure", "rate [interval] (n)"],
                    [("first mover's score (balanced by move order)", _pct(analysis.first_mover.score))]
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


def grid_sides(rankings: Sequence[FieldRanking], bootstrap: int, seed: int,
               confidence: float) -> list[tuple[str, SideAnalysis]]:
    """Each loadout grid's ratings, matchups and meta-game, titled by its field and agents when there are several
    (loadouts that never met are never on one scale: :mod:`issoku.evaluation.stats.connected`)."""
    sides = []
    for ranking in rankings:
        side = analyse_sides(list(ranking.grid.records), by_label, "loadouts", bootstrap, seed, confidence, [])
        if side is None:  # a grid holds two loadouts or more: never None
            continue
        title = ("loadouts" if len(rankings) == 1 else
                 f"loadouts, {ranking.field} field ({', '.join(ranking.grid.policies)}; "
                 f"{', '.join(ranking.grid.names)})")
        sides.append((title, side))
    return sides


def ablation_lines(ablations: Sequence[tuple[str, str, Ablation]], policies: Sequence[str]) -> list[str]:
    """``"learned (shipped:breath_duel_v0): 0.0% of 1,499 decisions change ... — state-blind"``, one per learned
    policy ``(name, entry, ablation)`` that played (its name among ``policies``)."""
    return [f"{escape_markdown(name)} ({escape_markdown(entry)}): {measured.describe()}"
            for name, entry, measured in ablations if escape_markdown(name) in policies]


def off_training_lines(env: str, learned: Sequence[tuple[str, str, Ablation]], policies: Sequence[str],
                       data: Mapping[str, object] | None) -> list[str]:
    """A line per learned policy ``(name, entry, ablation)`` that played (its name among ``policies``) on rules data
    it was not trained on (:func:`~issoku.evaluation.games.checkpoint_fit.plays_other_rules`; ``data``: the data keywords
    the games loaded; None, versions pooled: not judged; nor is a checkpoint not on this machine). A variant, or
    shipped data edited in place, fields it alike; the report says so."""
    if data is None:
        return []
    lines = []
    for name, entry, _ in learned:
        try:
            paths = [path for path in checkpoint_paths([entry]) if Path(path).is_file()]
        except ValueError:  # a shipped agent this installation does not ship: not judged
            continue
        if escape_markdown(name) in policies and paths and plays_other_rules(paths[0], data):
            lines.append(f"{env}: {escape_markdown(name)} ({escape_markdown(entry)}) plays rules it was not trained "
                         "on: its games measure it on these rules data, off its training.")
    return lines


def ablation_section(lines: Sequence[str]) -> list[str]:
    """The section stating whether each learned policy reads its observation (none without learned policies)."""
    if not lines:
        return []
    return ["### Do the learned policies read the game?", "",
            "Each learned policy's greedy choice on its real observation and on an all-zero one under the same action "
            f"mask, over seeded games against a random opponent: under {STATE_BLIND_SHARE:.0%} of its decisions "
            "changing, it is state-blind, a fixed preference order over the legal moves, and its games measure that "
            "order, not play that reads the position.", ""] + [f"- {line}" for line in lines] + [""]


def _usage_table(uses: Sequence[SequenceUse], what: str) -> list[str]:
    return _table(["policy", what, "used in", "score when used", "overall score"],
                  [(u.policy, " → ".join(u.sequence), f"{u.used_in} ({u.share:.0%})", _pct(u.score_when_used),
                    f"{u.score_overall:.1%}") for u in uses])


def combo_section(table: ComboTable, env: str, out_dir: Path, records: Sequence[MatchRecord] = (),
                  composition: CompositionSpec | None = None, top: int = 10, per_weapon: int = 3,
                  confidence: float = 0.95) -> list[str]:
    """Suspicious combos (ranked), the best composition per weapon and rung (heatmap), the whole table as CSV.

    With ``records`` and a ``composition`` spec, each suspicious combo also says how often the stored
    games played it (in a breath, any order, aimed attacks aside) and the score of those who did.
    """
    suspicious = table.suspicious(top, per_weapon)
    usage, seats = combo_usage(records, composition, confidence) if composition is not None else ({}, 0)
    lines = ["### Suspicious combos", "",
             "Breath compositions ranked by their best expected Wounds per Energy (over the rungs) against a "
             f"fixed defender ({table.defender}, taking every hit), as a multiple of the median composition's. "
             f"At most {per_weapon} per weapon. Exact: enumerated over every die face; otherwise Monte Carlo "
             "(± standard error of the Wounds)."
             + (f" Played: the seats (of {seats} in the stored games) whose breaths included it, and their score."
                if seats else ""), ""]

    def played(cell: ComboCell) -> tuple[str, ...]:
        if not seats:
            return ()
        if cell.aim:  # an aim names an attack slot, not a weapon's technique: not counted
            return ("—", "—")
        score = usage.get(tuple(sorted(cell.composition)))
        return (f"{score.n} ({score.n / seats:.0%})", _pct(score)) if score else ("0", "n/a")

    lines += _table(["rank", "composition", "rung", "Wounds / Energy", "× median", "Wounds", "guard shaved",
                     "Energy", "how"] + (["played", "score when played"] if seats else []),
                    [(rank + 1, cell.name, cell.rung, f"{cell.wounds_per_energy:.3f}", f"{ratio:.2f}",
                      f"{cell.wounds:.3f}", f"{cell.guard:.3f}", f"{cell.energy:.2f}",
                      "exact" if cell.exact else f"MC n={cell.samples} ±{cell.wounds_se:.3f}") + played(cell)
                     for rank, (cell, ratio) in enumerate(suspicious)])
    weapons, rungs = table.weapons(), table.rungs()
    best = np.full((len(weapons), len(rungs)), np.nan)
    for cell in table.cells:
        i, j = weapons.index(cell.weapon), rungs.index(cell.rung)
        if cell.energy and not cell.wounds_per_energy <= best[i, j]:
            best[i, j] = cell.wounds_per_energy
    png = plot_combo_table(weapons, rungs, best, out_dir / f"{file_stem(env)}_combos.png", f"{env}: combo table")
    csv_path = out_dir / f"{file_stem(env)}_combos.csv"
    write_csv(csv_path, ["weapon", "rung", "composition", "aim", "wounds", "guard_shaved", "energy",
                         "wounds_per_energy", "guard_per_energy", "exact", "samples", "wounds_se"],
              ([cell.weapon, cell.rung, " + ".join(cell.composition), cell.aim, cell.wounds, cell.guard, cell.energy,
                cell.wounds_per_energy, cell.guard_per_energy, cell.exact, cell.samples, cell.wounds_se]
               for cell in table.cells))
    lines += ["### Combo table", "",
              f"{len(table.cells)} cells: every composition of every weapon at every rung it reaches "
              f"(whole table: [{csv_path.name}]({csv_path.name})). Best Wounds per Energy per weapon and rung:", "",
              f"![combo table]({png.name})", ""]
    return lines


def played_combo_section(breaths: Sequence[Breath], energy: Mapping[str, int], games: int, top: int = 12) -> list[str]:
    """The combo table over every maneuver, from replayed games (:mod:`issoku.evaluation.design.combo_play`): the most
    played breath compositions and what they bought, where the Energy went, and each policy's economy."""
    if not breaths:
        return []
    plays = composition_play(breaths)
    lines = ["### Played compositions (every maneuver)", "",
             f"Every breath of {games} replayed stored games (the first by key, event for event): its composition is "
             "every maneuver it played (attacks, aimed attacks, stances, reserved defences, half-steps, [Kata]), and "
             "it bought the Wounds its attacks dealt, the blocks its seat made before its next breath (what a reserve "
             "or a guard buys) and the Energy it left when it ended. Against real opponents, so defences and "
             f"footwork are priced too. {len(breaths)} breaths, {len(plays)} compositions; the {min(top, len(plays))} "
             "most played:", ""]
    lines += _table(["composition", "breaths (share)", "Energy", "Wounds", "Wounds / Energy", "blocks after",
                     "Energy left at end", "played most by"],
                    [(" + ".join(p.composition) or "(nothing: ended at once)", f"{p.breaths} ({p.breaths / len(breaths):.0%})",
                      f"{p.energy:.2f}", f"{p.wounds:.2f}", f"{p.wounds_per_energy:.3f}", f"{p.blocks:.2f}",
                      f"{p.left:.1f}", ", ".join(f"{name} {count}" for name, count in p.players[:2]))
                     for p in plays[:top]])
    lines += ["### Energy economy", "",
              "Where the Energy went (every `energy_spent` event by what paid it, in a breath or out of one: a "
              "defence improvised on the opponent's breath), how many breaths included each kind of maneuver, and the "
              "Wounds per Energy of the breaths with it against those without it.", ""]
    lines += _table(["maneuver", "Energy (share)", "breaths with it", "Wounds / Energy with it", "without it"],
                    [(c.category, f"{c.energy} ({c.energy_share:.0%})", c.breaths, f"{c.with_it:.3f}",
                      f"{c.without_it:.3f}") for c in category_play(breaths, energy)])
    lines += _table(["policy", "breaths", "Energy per breath", "Energy left when it chose to end", "ended by choice",
                     "Energy per Wound dealt"],
                    [(e.policy, e.breaths, f"{e.spent:.2f}", f"{e.left_when_chosen:.1f}", f"{e.chosen_share:.0%}",
                      f"{e.energy_per_wound:.2f}") for e in policy_economy(breaths)])
    return lines


def restricted_section(results: Sequence[RestrictionResult], env: str, out_dir: Path,
                       covered: Sequence[str] = ()) -> list[str]:
    """Restricted play: the win-rate drop of each restriction, table and bars; ``covered`` says what the battery
    covered of the base policy's play (:func:`~issoku.evaluation.design.restricted.battery_coverage`)."""
    labels = [COMBO.join(r.banned) for r in results]
    drop = np.array([r.drop for r in results])
    low = np.array([r.drop_interval[0] for r in results])
    high = np.array([r.drop_interval[1] for r in results])
    png = plot_restricted(labels, drop, low, high, out_dir / f"{file_stem(env)}_restricted.png",
                          f"{env}: restricted play of {results[0].base}")
    lines = ["### Restricted play", "",
             f"{results[0].base} with one action (or a two-action combo, `a>b`: b never right after a) masked out, "
             "against itself unrestricted, seats swapped. Drop = ½ − the restricted score; a big drop marks "
             "a load-bearing maneuver, a drop near 0 one the policy can do without, a negative drop one whose loss "
             "helps it (it plays the move to its own harm). Intervals here are uncorrected; the headlines correct "
             "them for the number of effects tested.", ""]
    lines += [f"Coverage: {line}" for line in covered] + ([""] if covered else [])
    lines += _table(["masked out", "win-rate drop [interval]", "restricted score (n)"],
                    [(label, f"{r.drop:+.3f} [{r.drop_interval[0]:+.3f}, {r.drop_interval[1]:+.3f}]",
                      _pct(r.score)) for label, r in zip(labels, results)])
    return lines + [f"![restricted play]({png.name})", ""]


SEQUENTIAL_KINDS = (("policy", by_policy), ("loadout", by_seat_label))
"""The cells the sequential tests cover: policy against policy, loadout label against loadout label."""


def sequential_verdicts(records: Sequence[MatchRecord],
                        test: SequentialTest) -> list[tuple[str, list[tuple[CellPairs, SequentialVerdict]]]]:
    """Per kind of cell that has any, every cell's pairs and sequential verdict."""
    found = [(what, cell_verdicts(records, side, test)) for what, side in SEQUENTIAL_KINDS]
    return [(what, cells) for what, cells in found if cells]


def sequential_section(verdicts: Sequence[tuple[str, Sequence[tuple[CellPairs, SequentialVerdict]]]],
                       test: SequentialTest) -> list[str]:
    """Each matchup cell's GSPRT verdict (:mod:`issoku.evaluation.stats.sequential`), and the games a δ needs at the
    variance the pairs showed."""
    if not verdicts:
        return []
    lines = ["### Sequential tests", "", test.describe(), "",
             "Pairs: two games on one seed with the sides in swapped seats, walked in seed order; a cell stops at "
             "the pair where its test decides (later pairs do not change it). Mean: the first side's mean pair "
             "score over the pairs used.", ""]
    for what, cells in verdicts:
        variances = sorted(verdict.variance for _, verdict in cells)
        measured = variances[len(variances) // 2]
        at_delta, _, worst = (2 * math.ceil(pairs) for pairs in test.expected_pairs(measured))
        lines += _table([f"{what} cell", "verdict", "pairs used / paired", "mean of first (used)", "LLR up / down",
                         "unpaired games"],
                        [(f"{cell.first} – {cell.second}", verdict_text(cell, verdict),
                          f"{verdict.pairs} / {verdict.available}",
                          f"{sum(cell.outcomes[:verdict.pairs]) / verdict.pairs:.3f}" if verdict.pairs else "n/a",
                          f"{verdict.llr_up:+.2f} / {verdict.llr_down:+.2f}", cell.unpaired)
                         for cell, verdict in cells])
        lines += [f"At the median per-pair variance these {what} cells showed ({measured:.3f}), a cell expects "
                  f"about {at_delta} games at ±δ and {worst} at worst.", ""]
    return lines


def sequential_headline(env: str, verdicts: Sequence[tuple[str, Sequence[tuple[CellPairs, SequentialVerdict]]]],
                        test: SequentialTest) -> list[str]:
    """One line: how the section's cells ended, per kind of cell, naming the imbalanced ones (up to three)."""
    parts = []
    for what, cells in verdicts:
        counts = [sum(verdict.verdict == name for _, verdict in cells) for name in (IMBALANCED, BALANCED, UNDETERMINED)]
        named = [verdict_text(cell, verdict).replace("imbalanced", f"{cell.first} – {cell.second}")
                 for cell, verdict in cells if verdict.verdict == IMBALANCED]
        parts.append(f"{what} cells {counts[0]} imbalanced" + (f" ({'; '.join(named)})" if 0 < len(named) <= 3 else "")
                     + f", {counts[1]} balanced within ±δ, {counts[2]} undetermined")
    return [f"{env}: sequential tests (GSPRT on seat-swapped pairs, δ = ±{points(test.delta)} pts, α = {test.alpha:g}, "
            f"β = {test.beta:g}): " + "; ".join(parts) + "."] if parts else []


def coverage_section(cover: Coverage) -> list[str]:
    """Content coverage: each content item's share of the decisions and of the games, and what no agent used."""
    lines = ["### Content coverage", "",
             "How often the field of agents used each content item of the rules (the ruleset's content hook maps "
             "every action of its table to the items it exercises: a technique however it is played, a defence "
             "however it is used, a stance, a hit location, a reply...), from the games' recorded actions "
             f"({cover.games} games, {cover.decisions} decisions; restricted-play games left out). An item no agent "
             "used is **untested by play**: no finding of this report speaks about it.", ""]
    if not cover.universe:
        lines += ["> The rules of these games could not be rebuilt from the store (an env that is not registered), "
                  "so only the items seen in play are listed and none can be called untested.", ""]
    lines += _table(["category", "items", "used", "untested", "share of decisions"],
                    [(name, items, used, items - used, f"{share:.1%}") for name, items, used, share in cover.categories()])
    used = sorted((u for u in cover.uses if u.decisions), key=lambda u: (u.category, -u.decisions, u.item))
    lines += _table(["item", "decisions (share)", "games (share)", "most use by"],
                    [(u.item, f"{u.decisions} ({u.decision_share:.1%})", f"{u.games} ({u.game_share:.0%})",
                      ", ".join(f"{name} {count}" for name, count in u.users[:3])) for u in used])
    untested = cover.untested()
    if untested:
        lines += [f"**Untested by play** ({len(untested)} of {len(cover.uses)} items): "
                  + ", ".join(f"`{u.item}`" for u in untested) + ".", ""]
    elif cover.universe:
        lines += ["Every content item was used in play.", ""]
    return lines


def write_report(store: MatchStore, out_dir: str | Path, env_ids: Sequence[str] | None = None,
                 bootstrap: int = 1000, seed: int = 0, confidence: float = 0.95, ngram: int = 2,
                 compositions: Mapping[str, CompositionSpec] | None = None,
                 combo_tables: Mapping[str, ComboTable] | None = None, progress: bool = True,
                 pool_versions: bool = False, thresholds: Thresholds = Thresholds(), html: bool = True,
                 ablations: Mapping[str, Sequence[tuple[str, str, Ablation]]] | None = None,
                 suggest: Suggest | None = None, cross: CrossPlay | None = None) -> Path:
    """Write ``report.md`` and its PNG plots into ``out_dir`` from the matches in ``store``; returns the file.

    ``thresholds`` set what the headlines' verdicts call balanced and severe (:mod:`issoku.evaluation.reports.findings`).
    With ``html``, also ``report.html`` (:mod:`issoku.evaluation.reports.html_report`): the same report, its tables
    sortable, each headline linked to replay pages of the games that show it, written to ``games/``.

    ``compositions`` says per env id how decisions group into compositions; ``combo_tables`` adds a
    combo table section per env id (default: the latest the store keeps). Restricted-play games
    (:mod:`issoku.evaluation.design.restricted`) get their own section and stay out of every other measure.
    Each rules version gets its own section (:mod:`issoku.evaluation.games.versions`); ``pool_versions`` mixes
    them, and the headlines say so. ``ablations``: per env id, each learned policy's name, entry and observation
    ablation (:func:`~issoku.evaluation.reports.commands.learned_ablations`), stated in its env's section and headlines.
    ``suggest`` ends each loadout and combo headline with a data edit verified on fresh seeds
    (:mod:`issoku.evaluation.design.suggest`); ``cross`` ends each ``DISAGREE`` line with its cross-play
    (:mod:`issoku.evaluation.reports.cross_play`: which field is stronger, which reading to trust).
    """
    compositions = compositions or {}
    ablations = ablations or {}
    if combo_tables is None:
        combo_tables = {env: ComboTable.from_json(body) for env, body in store.latest_artifacts(COMBO_TABLE).items()}
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    env_ids = list(env_ids) if env_ids is not None else store.env_ids()
    lines: list[str] = []
    summary: list[str] = []
    examples: dict[str, list[Example]] = {}
    captions: dict[str, str] = {}
    levers = read_levers(out_dir / LEVERS)
    groups = [group for env in env_ids
              for group in split_versions(env, [as_written(r) for r in store.records(env_id=env)], pool_versions)]
    versions = {group.env_id: sum(g.env_id == group.env_id for g in groups) for group in groups}
    for group in tqdm(groups, desc="report", unit="env", disable=not progress):
        env, stored, label = group.env_id, group.records, escape_markdown(group.label)
        table = combo_tables.get(env) if versions[env] == 1 or not group.version else None  # one table per env
        records = [record for record in stored if not is_restricted(record)]
        summary += [f"- {line}" for line in group.warnings]
        if not records:
            lines += [f"## {label}", "", "No games stored for this env.", ""]
            continue
        analysis = replace(analyse(records, bootstrap=bootstrap, seed=seed, confidence=confidence, ngram=ngram,
                                   composition=compositions.get(env)), env_id=label)
        rankings = field_rankings(records, bootstrap, seed, confidence)
        lines += render_env_section(analysis, out_dir, grid_sides(rankings, bootstrap, seed, confidence))
        skills = (skill_ladders(analysis.by_policy.games, bootstrap, seed, confidence)
                  if analysis.by_policy is not None else [])
        lines += skill_section(skills)
        summary += [f"- {skill_headline(label, skill)}" for skill in skills]
        learned = ablation_lines(ablations.get(env, ()), analysis.policies)
        lines += ablation_section(learned)
        summary += [f"- {label}: {line}" for line in learned]
        summary += [f"- {line}" for line in off_training_lines(label, ablations.get(env, ()), analysis.policies,
                                                                _data_keywords(group))]
        verdicts = sequential_verdicts(records, thresholds.sequential)
        lines += sequential_section(verdicts, thresholds.sequential)
        ruleset = build_ruleset(records)
        cover = coverage(records, content_map(ruleset) if ruleset is not None else None)
        lines += coverage_section(cover)
        if table is not None:
            lines += combo_section(table, env, out_dir, records, compositions.get(env),
                                   confidence=confidence)
        if any(BREATH in seat for record in records[:PLAYED_GAMES] for seat in record.kinds):
            breaths, energy = replay_breaths(records)
            lines += played_combo_section(breaths, energy, min(len(records), PLAYED_GAMES))
        restricted_records = [record for record in stored if is_restricted(record)]
        restricted = restriction_results(restricted_records, confidence)
        if restricted:
            lines += restricted_section(restricted, label, out_dir,
                                        battery_coverage(records, restricted_records))
        found, notes = findings(analysis, table, restricted, data=_data_keywords(group), thresholds=thresholds,
                                confidence=confidence, records=records,
                                fielded=fielded_content(records) if table is not None else None,
                                restricted_records=restricted_records, levers=levers, rankings=rankings,
                                suggest=suggest)
        for finding in found:
            text = finding.line(thresholds)
            summary.append(f"- {text}")
            examples[text] = finding.games(records, restricted_records, compositions.get(env))
            captions[text] = finding.shows
        summary += [f"- {line}" for line in notes + sequential_headline(label, verdicts, thresholds.sequential)
                    + coverage_headline(label, cover)
                    + field_headlines(label, rankings, cross)]
    intro = ["# issoku balance report", "",
             f"From {code_span(store.path)}: {store.count()} stored games. Intervals are {confidence:.0%}; "
             f"bootstrap: {bootstrap} resamples, seed {seed}.", "", thresholds.describe(), "",
             "Headlines are the effects whose corrected interval excludes zero (Bonferroni over each section's "
             "effects); the rest are listed as not significant, never as winners.", "",
             thresholds.sequential.describe(), "",
             HEADLINES, ""] + summary + [""]
    path = out_dir / "report.md"
    path.write_text("\n".join(intro + lines))
    if html:
        write_html_report(path, write_replays(examples, out_dir / REPLAYS, report=path.with_suffix(".html")),
                          captions)
    return path


def as_written(record: MatchRecord) -> MatchRecord:
    """``record`` with the names the report writes (policies, loadout, seat labels) as Markdown text
    (:func:`~issoku.evaluation.reports.html_report.escape_markdown`): a name from a crafted store, study or variant stays text in
    ``report.md`` and ``report.html`` (no link, image, heading or extra table column). Names of letters, digits and
    ``_ . - = : / > !`` read the same."""
    return replace(record, policies=tuple(map(escape_markdown, record.policies)),
                   loadout=escape_markdown(record.loadout), seat_labels=tuple(map(escape_markdown, record.seat_labels)))


REPLAYS = "games"
"""The folder, beside ``report.md``, of the replay pages the HTML report links."""
LEVERS = "levers.csv"
"""A levers CSV (``issoku levers``) beside ``report.md``: the headlines name its levers."""


HEADLINES = "## Headlines"
Suggest = Callable[[Finding, Sequence[str]], str]
"""A finding and its data items to the clause that ends its headline ("" for none)."""
SHIPPED_DATA: Mapping[str, object] = MappingProxyType({})
"""No data keywords: the games loaded the shipped rules data."""


def _data_keywords(group: VersionGroup) -> dict[str, object] | None:
    """The data keywords one rules version's games loaded; None when versions were pooled (no one data)."""
    if not group.records or len({rules_version(record) for record in group.records}) > 1:
        return None
    first = group.records[0].loadout_kwargs
    return {key: first[key] for key in DATA_KEYWORDS if first.get(key) is not None}


def findings(analysis: BalanceAnalysis, table: ComboTable | None, restricted: Sequence[RestrictionResult], *,
             data: Mapping[str, object] | None = SHIPPED_DATA, thresholds: Thresholds = Thresholds(),
             confidence: float = 0.95, records: Sequence[MatchRecord] | None = None, fielded: set[str] | None = None,
             restricted_records: Sequence[MatchRecord] = (), most: int = 3,
             levers: Sequence[Mapping[str, str]] = (), rankings: Sequence[FieldRanking] | None = None,
             suggest: Suggest | None = None) -> tuple[list[Finding], list[str]]:
    """The rules findings a designer reads first, each opening with a plain sentence, then its verdict, severity,
    the agents behind it and the games that show it: the strongest and the weakest loadout of each grid of loadouts
    that met (:func:`~issoku.evaluation.reports.fields.loadout_grids`; the strongest shown by its most lopsided wins), the
    first mover, the restrictions that hurt (games they decided) or help most (effects whose Bonferroni-corrected
    interval excludes zero), the top combo of a fielded weapon (games that played it); then the lines that follow
    them: degenerate strategies (:mod:`issoku.evaluation.reports.degenerate`), what was not measured, combos not
    headlined, and one line for what was not significant. Which policy plays best is skill, not a rules finding
    (:mod:`issoku.evaluation.reports.skill`).

    ``data``: the data keywords the games' env loaded (``{}``: the shipped files; ``None``: versions pooled, so
    none), whose provenance the strongest loadout's finding names. ``records`` (the section's games) name the
    agents; ``fielded`` (content keys the loadouts field) keeps a combo no loadout can play out of the headlines.
    Each headline ends with its rule trail (:func:`with_trails`; ``levers``: the rows of a levers CSV; ``suggest``:
    the verified edit, searched only on the shipped rules' games). ``rankings``: the section's loadout grids, rated
    (:func:`~issoku.evaluation.reports.fields.field_rankings`; computed from ``records`` when not given).
    """
    env = analysis.env_id
    everyone = agent_kinds(analysis.policies)
    if rankings is None:
        rankings = field_rankings(records or (), confidence=confidence)
    sides, heads, named = _grid_findings(env, rankings, data, confidence)
    first = analysis.first_mover

    def first_interval(level: float) -> tuple[float, float]:
        low, high = first.interval(level)
        return low - 0.5, high - 0.5

    firsts = [Finding(env, "first mover's score (games balanced by move order)", first.score.value - 0.5,
                      *first_interval(confidence), everyone, f" (n={first.score.n})", first_interval, about=("first",))
              ] if first.score.n else []
    restricted_agents = agent_kinds(policies_of(restricted_records)) if restricted_records else everyone
    vacuous = bool(restricted) and bool(restricted_records) and all(r.winner is None for r in restricted_records)
    if vacuous:  # every game a draw: each restriction's "+0.0" would read as a measurement of nothing
        restricted = []
    drops = [replace(score_finding(env, f"{result.base} without **{COMBO.join(result.banned)}**",
                                   result.score.successes, result.score.n, restricted_agents,
                                   f" (restricted score {result.score.value:.1%}, n={result.score.n})", sign=-1.0,
                                   pick=partial(_decided, result), shows="games it decided",
                                   about=("actions", *result.banned)), players=(result.base,))
             for result in restricted]
    family = corrected(sides + heads + firsts + drops, confidence)
    cut = [len(sides), len(sides) + len(heads), len(sides) + len(heads) + len(firsts)]
    sides, heads, firsts, drops = family[:cut[0]], family[cut[0]:cut[1]], family[cut[1]:cut[2]], family[cut[2]:]
    several = len({id(ranking) for ranking, _, _ in named}) > 1
    sides = [_grid_opening(side, head, ranking, thresholds, several)
             for side, head, ranking in zip(sides, heads, named)]
    firsts = [replace(f, plain=_first_mover_opening(f)) for f in firsts]
    found = [f for f in sides + firsts if f.significant]
    quiet = [f for f in sides + firsts + drops if not f.significant]
    hurts = sorted((f for f in drops if f.significant and f.effect > 0), key=lambda f: -f.effect)
    helps = sorted((f for f in drops if f.significant and f.effect < 0), key=lambda f: f.effect)
    found += [replace(f, subject=f.subject.replace(" without ", " loses without ", 1) + " (win-rate drop)",
                      plain=_restriction_opening(f)) for f in hurts[:most]]
    found += [replace(f, subject=f.subject.replace(" without ", " plays better without ", 1) + " (win-rate drop)",
                      plain=_restriction_opening(f),
                      pick=None, shows="")  # the games a restriction decided are its losses: none show a gain
              for f in helps[:most]]
    strength = ({name: float(elo) for name, elo in zip(analysis.by_policy.ratings.names,
                                                       analysis.by_policy.ratings.elo)}
                if analysis.by_policy is not None else {})
    notes = (stall_lines(env, records or (), strength, confidence) + one_action_lines(env, records or (), confidence)
             + (vacuous_battery_line(env, restricted_records, confidence) if vacuous else []))
    if not first.score.n and first.left_out:
        notes.append(f"{env}: first mover not measured: in every pairing of sides one side always moved first "
                     f"({first.left_out} games), so moving first cannot be told from being that side.")
    more = len(hurts[most:]) + len(helps[most:])
    if more:
        notes.append(f"{env}: {more} more significant restrictions (see Restricted play).")
    if table is not None:
        combo, skipped = _combo_finding(env, table, fielded)
        found += [combo] if combo is not None else []
        notes += skipped
    notes += detectable_notes(analysis, len(family))
    found = with_trails(found, records or (), levers, suggest if data == SHIPPED_DATA else None)
    if quiet:
        notes.append(f"{env}: not significant ({level_text(family, confidence)}; each interval includes zero, so no "
                     "winner or effect is claimed): " + "; ".join(_quiet(f, thresholds) for f in quiet[:6])
                     + (f"; and {len(quiet) - 6} more" if len(quiet) > 6 else "") + ".")
    return found, notes


def _grid_findings(env: str, rankings: Sequence[FieldRanking], data: Mapping[str, object] | None,
                   confidence: float) -> tuple[list[Finding], list[Finding], list[tuple[FieldRanking, str, str]]]:
    """Per grid of loadouts that met: its strongest and (with three or more) its weakest loadout against the rest
    of the grid, the strongest against the runner-up (which tells a winner from a tie), and what each side
    finding is about (its grid, its loadout, the loadout it is compared with)."""
    sides: list[Finding] = []
    heads: list[Finding] = []
    named: list[tuple[FieldRanking, str, str]] = []
    for ranking in rankings:
        grid, ratings = ranking.grid, ranking.ratings
        matchups = matchup_matrix(grid.games(), confidence)
        order = ratings.ranked()
        ends = [order[0], order[-1]] if len(order) >= 3 else [order[0]]
        for end in ends:
            name = ratings.names[end]
            other = ratings.names[order[1] if end == order[0] else order[-2]]
            dominant = [matchups.names[i] for i in matchups.dominant()]
            detail = (f" ({ratings.elo[end]:+.0f} Elo [{ratings.low[end]:+.0f}, {ratings.high[end]:+.0f}] on its "
                      f"grid's scale; dominant: {', '.join(dominant) if dominant else 'none'})"
                      + _driven_by(env, name, data))
            top = end == order[0]
            sides.append(replace(score_finding(env, f"loadout **{name}** against the rest of its grid",
                                               float(matchups.scores[end].sum()), int(matchups.games[end].sum()),
                                               agent_kinds(grid.policies), detail,
                                               pick=partial(_lopsided, by_label, name) if top else None,
                                               shows=f"{name}'s most lopsided wins" if top else "",
                                               about=("loadout", name)), players=tuple(grid.policies)))
            j = ratings.names.index(other)
            met = int(matchups.games[end, j])
            heads.append(score_finding(env, f"loadout {name} against {other}", float(matchups.scores[end, j]), met,
                                       "", f" (n={met})"))
            named.append((ranking, name, other))
    return sides, heads, named


def _grid_opening(side: Finding, head: Finding, about: tuple[FieldRanking, str, str],
                  thresholds: Thresholds, several: bool = False) -> Finding:
    """A loadout finding with its subject (a winner, or a tie with its neighbour) and its plain opening;
    ``several``: the section has more than one grid, so the subject names the grid's field."""
    ranking, name, other = about
    top = name == ranking.ratings.names[ranking.ratings.ranked()[0]]
    ratio = (f"{head.effect + 0.5:.1%} [{head.low + 0.5:.1%}, {head.high + 0.5:.1%}]" if head.detail != " (n=0)"
             else "they never met")
    others = len(ranking.grid.names) - 1
    rest = f"the other {others} loadouts of its grid" if others > 1 else f"{other}, the other loadout of its grid"
    if head.significant:
        subject = (f"{'strongest' if top else 'weakest'} loadout **{name}** ({'beats' if top else 'loses to'} "
                   f"{'runner-up' if top else 'next-weakest'} {other}: {ratio}); against {rest}")
    else:
        subject = (f"no single {'strongest' if top else 'weakest'} loadout: **{name}** and **{other}** are not "
                   f"separated (head-to-head {ratio}); {name} against {rest}")
    if several:
        subject += f" ({ranking.field} field)"
    how = ("too often" if side.verdict(thresholds) == "imbalanced" else "more often than the rest")
    plain = f"{name} {'wins' if top else 'loses'} {how}: it scores {side.effect + 0.5:.0%} against {rest}."
    return replace(side, subject=subject, plain=plain)


def _first_mover_opening(finding: Finding) -> str:
    """``Moving first is worth +9 points of score.`` (or moving second)."""
    who = "first" if finding.effect >= 0 else "second"
    return f"Moving {who} is an edge: the {who} mover scores {abs(finding.effect) + 0.5:.0%} in games balanced by order."


def _restriction_opening(finding: Finding) -> str:
    """``learned needs half_step:close: without it, it scores 12 % against itself.``"""
    base, _, banned = finding.subject.replace("**", "").partition(" without ")
    score = 0.5 - finding.effect
    if finding.effect > 0:
        return f"{base} leans on {banned}: without it, it scores {score:.0%} against itself."
    return f"{base} is better off without {banned}: it scores {score:.0%} against itself when it never plays it."


def detectable_notes(analysis: BalanceAnalysis, tests: int, alpha: float = 0.05) -> list[str]:
    """One line per kind of side: the smallest edge against the field the section detects (:mod:`issoku.evaluation.
    power`), at the fewest games a side played, corrected as the headlines are: what "not significant" is worth."""
    parts = []
    for what, side in (("policy", analysis.by_policy), ("loadout", analysis.by_loadout)):
        if side is not None and len(side.matchups.names):
            parts.append(f"a {what} against the field "
                         f"{detectable_text(int(side.matchups.games.sum(axis=1).min()), tests, alpha)}")
    return [f"{analysis.env_id}: smallest effect this section can detect: {'; '.join(parts)}; a smaller edge may be "
            "real and go unseen."] if parts else []


def with_trails(found: Sequence[Finding], records: Sequence[MatchRecord],
                levers: Sequence[Mapping[str, str]] = (), suggest: Suggest | None = None) -> list[Finding]:
    """``found`` with each finding's rule trail (:mod:`issoku.evaluation.reports.rule_trail`) read from ``records`` (the
    section's ordinary games, replayed) and ``levers`` (a levers CSV's rows; none: the fallback lever); ``suggest``:
    the verified edit that ends a finding's trail (:class:`issoku.evaluation.design.suggest.Suggester`)."""
    if not found or not records:
        return list(found)
    trails = RuleTrails(records, build_ruleset(records))
    out = []
    for finding in found:
        kind, names = (finding.about[0], finding.about[1:]) if finding.about else ("", ())
        figure = ""
        if kind in ("policy", "loadout"):
            actions = most_used(records, names[0], by_label=kind == "loadout")
            figure = f"{kind} {names[0]}: score"
        elif kind == "first":
            actions = [OPENING]
        else:
            actions = list(names)
        data = trails.data_of(a for a in actions if a != OPENING)
        lever = (lever_for(levers, figure, data, first_mover=kind == "first")
                 or ("the initiative rules above (a rules choice, not a data field)" if kind == "first"
                     else fallback_lever(data)))
        edit = suggest(finding, data) if suggest is not None else ""
        out.append(replace(finding, trail=Trail(trails.rules_of(actions), data, lever, edit)))
    return out


def headlines(analysis: BalanceAnalysis, table: ComboTable | None, restricted: Sequence[RestrictionResult], *,
              data: Mapping[str, object] | None = SHIPPED_DATA, thresholds: Thresholds = Thresholds(),
              confidence: float = 0.95, records: Sequence[MatchRecord] | None = None, fielded: set[str] | None = None,
              restricted_records: Sequence[MatchRecord] = ()) -> list[str]:
    """The headline lines of one env section: each of :func:`findings`' findings as a line with its verdict,
    then the lines that follow them (the arguments are :func:`findings`')."""
    found, notes = findings(analysis, table, restricted, data=data, thresholds=thresholds, confidence=confidence,
                            records=records, fielded=fielded, restricted_records=restricted_records)
    return [finding.line(thresholds) for finding in found] + notes


def _quiet(finding: Finding, thresholds: Thresholds) -> str:
    """A not-significant finding in a few words with its verdict (balanced, or undetermined: more games would tell)."""
    return (f"{finding.subject.replace('**', '')} {points(finding.effect, True)} pts "
            f"[{points(finding.low, True)}, {points(finding.high, True)}] ({finding.verdict(thresholds)})")


def _combo_finding(env: str, table: ComboTable, fielded: set[str] | None) -> tuple[Finding | None, list[str]]:
    """The most suspicious combo of a weapon some loadout fields (exact, or Monte Carlo with a ±1.96 se band;
    judged against the combo thresholds), shown by the games that played it; and a line naming the weapons no
    loadout fields, whose combos are skipped."""
    ranked = table.suspicious()
    skipped = sorted({cell.weapon for cell, _ in ranked if fielded is not None and cell.weapon not in fielded})
    playable = [(cell, ratio) for cell, ratio in ranked if fielded is None or cell.weapon in fielded]
    finding = None
    if playable:
        cell, ratio = playable[0]
        spread = 1.96 * cell.wounds_se / cell.wounds if cell.wounds and not cell.exact else 0.0
        finding = Finding(env, f"most suspicious combo **{cell.name}** at {cell.rung}", ratio, ratio * (1 - spread),
                          ratio * (1 + spread), "no",
                          f" ({cell.wounds_per_energy:.2f} Wounds per Energy, "
                          + ("exact" if cell.exact else f"Monte Carlo n={cell.samples}")
                          + "; the engine's expectation against a fixed defender)", kind="ratio",
                          plain=f"One combo is far cheaper than the rest: {cell.name} at {cell.rung} buys "
                                f"{ratio:.1f}× the median Wounds per Energy.",
                          pick=None if cell.aim else partial(_combo, cell.composition), shows="games that played it",
                          about=("actions", *((f"aim:{cell.aim}",) if cell.aim else
                                              (f"{ATTACK_PREFIX}{key}" for key in cell.composition))))
    notes = [f"{env}: combos of weapons no stored loadout fields are not headlined: {', '.join(skipped)}."] \
        if skipped else []
    return finding, notes


def coverage_headline(env: str, cover: Coverage) -> list[str]:
    """One line: how much of the content no agent used (the findings cannot speak about it)."""
    untested = cover.untested()
    if not cover.universe or not untested:
        return []
    by_category: dict[str, int] = {}
    for use in untested:
        by_category[use.category] = by_category.get(use.category, 0) + 1
    return [f"{env}: coverage: {len(untested)} of {len(cover.uses)} content items untested by play (no agent used "
            f"them, so no finding speaks about them): "
            + ", ".join(f"{category} {count}" for category, count in sorted(by_category.items())) + "."]


def _lopsided(side: Side, name: str, records: Sequence[MatchRecord], restricted: Sequence[MatchRecord],
              composition: CompositionSpec | None) -> list[Example]:
    return lopsided_wins(records, side, name)


def _combo(combo: tuple[str, ...], records: Sequence[MatchRecord], restricted: Sequence[MatchRecord],
           composition: CompositionSpec | None) -> list[Example]:
    return combo_games(records, composition, combo) if composition is not None else []


def _decided(result: RestrictionResult, records: Sequence[MatchRecord], restricted: Sequence[MatchRecord],
             composition: CompositionSpec | None) -> list[Example]:
    return decided_games(restricted, result)


def _driven_by(env: str, loadout: str, data: Mapping[str, object] | None) -> str:
    """" Driven by ..." naming the project decisions behind a loadout's standout values, so a designer sees
    what to change and that the seed text is not at fault; "" when the seed states them all. The ruleset answers
    (its ``decision_drivers`` hook: the breath rulesets read the ``source`` each value carries, the tempo ones
    name decisions for all their numbers); a ruleset without the hook names none. ``data``: the ``variant`` /
    ``data`` keywords the games' env loaded (:data:`~issoku.evaluation.games.versions.DATA_KEYWORDS`; ``{}``: the
    shipped files), with which the env is built again to read them as it read them; "" when that cannot be done
    here (a store from another machine, an env not registered) or when versions were pooled (``None``)."""
    if data is None:
        return ""
    try:
        game = resolve_env(env, allow_imports=False)(**dict(data))  # a store's env id never imports code
    except Exception:  # unreadable data, an unknown or foreign env: no provenance to name
        return ""
    try:
        hook = getattr(getattr(game.unwrapped, "ruleset", None), "decision_drivers", None)
        drivers = hook(loadout) if hook is not None else []
    finally:
        game.close()
    return f" Driven by {', '.join(drivers)}, not by the seed text." if drivers else ""


def read_headlines(report: str | Path) -> list[str]:
    """The headline lines of a written report (what the command prints when it is done)."""
    text = Path(report).read_text().split(HEADLINES, 1)[-1].split("\n## ", 1)[0]
    return [line[2:].replace("**", "") for line in text.splitlines() if line.startswith("- ")]
