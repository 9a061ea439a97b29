"""A difficulty ladder: opponents at measured strengths, from training snapshots and sampling temperature.

A game wants "an opponent about +200 Elo over the heuristic", not "the checkpoint". Two cheap knobs span
a wide range of strength without any new training: *which snapshot* of a run plays (early ones are
weak), and *how it picks* (argmax is the agent at its best; sampling at temperature T > 1 plays more of
its second thoughts). Each (snapshot, temperature) candidate is exported to ONNX and rated on a benchmark
suite's fixed Elo scale (:mod:`issoku.evaluation.strength.reference_suite`), playing through the export exactly as a
game would run it. The ladder keeps the rungs whose ratings spread most evenly from the weakest to the
strongest candidate, each with its interval, and writes them into the export folder as ``ladder.json``.

A rating against the references alone need not predict how two rungs fare against each other (strategies are
not transitive), so the ladder then plays each adjacent pair of rungs too, rates the rungs on all their games
and checks the ratings on games they did not see (:mod:`issoku.evaluation.strength.ladder_check`): ``ladder.json`` keeps
each rung's per-reference scores, the held-out checks, the intransitivity measured and the warnings printed.

The ratings are measured, never assumed: a temperature does not promise a strength, so a rung's figure
is always its own games' fit against the suite's references. Each rung also carries its export's observation
ablation (:mod:`issoku.agents.ablation`): a state-blind rung plays a fixed preference order over legal moves,
however strong, and the table says so.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from issoku.agents.ablation import Ablation, measure_ablation
from issoku.agents.checkpoint import CheckpointMismatchError, read_metadata
from issoku.agents.exported import LADDER, MANIFEST, ExportedPolicy, read_manifest
from issoku.evaluation.strength.ladder_check import (Intransitivity, PairCheck, format_checks, held_out_checks,
                                            intransitivity, joint_ratings, warnings)
from issoku.evaluation.stats.pairings import games_between
from issoku.evaluation.strength.reference_suite import SuiteConfig, build_tournament, run_benchmark, suite_tournament
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import PolicySpec, run_tournament
from issoku.rules.kernel.content import file_digest
from issoku.common.backend import Workers

SNAPSHOTS = "snapshots"
DETERMINISTIC = 0.0
"""Temperature 0 names argmax play (the agent at its best)."""
DEFAULT_TEMPERATURES = (DETERMINISTIC, 1.0, 2.0, 4.0)


@dataclass(frozen=True)
class ExportFactory:
    """A picklable factory: an export folder played at a temperature (0 = argmax), seeded per game."""

    folder: str
    temperature: float

    def __call__(self, seed: int | None = None) -> ExportedPolicy:
        policy = copy.copy(_loaded_export(self.folder))
        policy.deterministic = self.temperature == DETERMINISTIC
        policy.temperature = 1.0 if policy.deterministic else self.temperature
        policy.seed(seed)
        return policy


@functools.lru_cache(maxsize=16)
def _loaded_export(folder: str) -> ExportedPolicy:
    """An export's ONNX session, opened once per process and shared by the games' policy copies (read-only)."""
    return ExportedPolicy(folder)


@dataclass(frozen=True)
class Rung:
    """One measured opponent: which export plays, at which temperature, and its rating on the suite's scale."""

    name: str
    export: str
    """The export folder, relative to the ladder's folder."""
    temperature: float
    elo: float
    low: float
    high: float
    score: float
    games: int
    ablation: dict[str, Any] | None = None
    """The export's observation ablation (:meth:`~issoku.agents.ablation.Ablation.as_dict`); None in a ladder
    written before rungs recorded it."""
    per_reference: dict[str, dict[str, float]] | None = None
    """Per reference: the score against it, its Wilson interval and the games; None in a ladder written before
    rungs recorded it."""
    rung_games: int = 0
    """Games against the adjacent rungs, fitted with the reference games into ``elo`` (0: rated on the references
    alone, as every candidate not kept as a rung is)."""


def candidate_name(snapshot: str, temperature: float) -> str:
    """``<snapshot label>@argmax`` or ``<snapshot label>@T2``: unique per (snapshot, temperature)."""
    return f"{snapshot}@{'argmax' if temperature == DETERMINISTIC else f'T{temperature:g}'}"


def suite_env(suite: SuiteConfig) -> Any:
    """An env of the suite's first loadout (the env its games are played on)."""
    tournament = build_tournament(suite)
    return tournament.env_factory(**dict(tournament.loadouts[0].kwargs))


def check_suite_fits(manifest: dict[str, Any], suite: SuiteConfig, where: str) -> None:
    """Refuse an export whose env or interface is not the suite's env (every difference listed).

    The loadouts may differ: a ladder rates an agent trained on many matchups in the suite's one; the
    action numbering and observation layout (the interface digest) must not.
    """
    from issoku.training.make_env import env_identity

    identity = env_identity(suite_env(suite), suite.env)
    differences = [f"{key}: export has {manifest.get(key)!r}, suite {suite.name} has {identity[key]!r}"
                   for key in ("env_id", "env_version", "rules_version", "interface")
                   if manifest.get(key) != identity[key]]
    if differences:
        raise CheckpointMismatchError(f"{where} cannot play suite {suite.name}:\n  " + "\n  ".join(differences))


def snapshot_label(checkpoint: str | Path) -> str:
    """A unique, readable folder name for a checkpoint's export: ``<run>.<stem>-<digest>``.

    Runs name their checkpoints alike (``step_000000122880``), so the run folder and the file's digest
    keep two runs' snapshots apart, and an edited file never reuses an old export.
    """
    path = Path(checkpoint)
    run = f"{path.parent.parent.name}." if path.parent.name == "checkpoints" else ""
    return f"{run}{path.stem}-{file_digest(path)[:8]}"


def export_snapshots(checkpoints: Sequence[str | Path], out: Path) -> list[Path]:
    """Export each checkpoint to ``out/snapshots/<label>/`` (skipping one already exported from the same file)."""
    from issoku.training.export import export_checkpoint

    folders = []
    for checkpoint in checkpoints:
        read_metadata(checkpoint)  # a missing .json is refused before any export is written
        if not Path(checkpoint).is_file():
            raise FileNotFoundError(f"checkpoint {checkpoint}: no such file")
        folder = out / SNAPSHOTS / snapshot_label(checkpoint)
        if not (folder / MANIFEST).is_file():
            export_checkpoint(checkpoint, folder)
        folders.append(folder)
    return folders


def rate_candidates(folders: Sequence[Path], temperatures: Sequence[float], suite: SuiteConfig, store: MatchStore,
                    *, workers: Workers = None, bootstrap: int = 1000, progress: bool = True,
                    root: Path | None = None) -> list[Rung]:
    """Every (export, temperature) rated on ``suite``'s scale; games go to ``store`` (a rerun plays nothing again).

    Each carries its export's observation ablation: the manifest's, or, for an export written before manifests
    recorded it, measured here on the suite's env."""
    rungs = []
    for folder in folders:
        manifest = read_manifest(folder)
        check_suite_fits(manifest, suite, str(folder))
        ablation = manifest.get("ablation") or measure_ablation(ExportedPolicy(folder), suite_env(suite)).as_dict()
        for temperature in temperatures:
            spec = candidate_spec(folder, float(temperature), manifest)
            result = run_benchmark(suite, spec, store, workers=workers, bootstrap=bootstrap, progress=progress)
            per_reference = {name: {"score": round(p.value, 4), "low": round(p.low, 4), "high": round(p.high, 4),
                                    "games": p.n} for name, p in result.per_reference.items()}
            rungs.append(Rung(spec.name, str(folder.relative_to(root)) if root else str(folder), float(temperature),
                              round(result.elo, 1), round(result.low, 1), round(result.high, 1),
                              round(result.overall.value, 4), result.overall.n, ablation, per_reference))
    return rungs


def candidate_spec(folder: Path, temperature: float, manifest: dict[str, Any]) -> PolicySpec:
    """The export in ``folder`` played at ``temperature``, named and fingerprinted as a ladder candidate."""
    return PolicySpec(candidate_name(folder.name, temperature), ExportFactory(str(folder), temperature),
                      f"{manifest['model_sha256'][:16]}@{temperature:g}")


@dataclass(frozen=True)
class LadderCheck:
    """The rungs rated on all their games (weakest first), the held-out pair checks, and intransitivity."""

    rungs: list[Rung]
    checks: list[PairCheck]
    intransitivity: Intransitivity
    warnings: list[str]


def play_rung_pairs(rungs: Sequence[Rung], suite: SuiteConfig, store: MatchStore, *, root: Path | None = None,
                    games_per_pair: int | None = None, workers: Workers = None, bootstrap: int = 1000,
                    progress: bool = True) -> LadderCheck:
    """Play each adjacent pair of ``rungs`` (weakest first on the references alone) as the suite plays its games
    (``games_per_pair`` a pair, by default the suite's), rate the rungs on every game with the references held at
    their suite ratings (weakest first again, by those ratings), and check the ratings on each pair held out (a
    rerun plays nothing again)."""
    specs = tuple(candidate_spec(Path(root or "") / rung.export, rung.temperature,
                                 read_manifest(Path(root or "") / rung.export)) for rung in rungs)
    pairs = tuple((upper.name, lower.name) for lower, upper in zip(specs, specs[1:]))
    if pairs:
        run_tournament(suite_tournament(suite, specs, pairs, games_per_pair), store, workers=workers,
                       progress=progress)
    names = suite.reference_names + tuple(rung.name for rung in rungs)
    games = games_between(store.records(), names=names)
    ratings = joint_ratings(games, suite.reference_elo, bootstrap=bootstrap)
    _, played = games.matrices()
    among_rungs = [names.index(rung.name) for rung in rungs]
    rated = sorted((replace(rung, elo=round(float(ratings.elo[i]), 1), low=round(float(ratings.low[i]), 1),
                            high=round(float(ratings.high[i]), 1), rung_games=int(played[i, among_rungs].sum()))
                    for rung, i in zip(rungs, among_rungs)), key=lambda rung: rung.elo)
    by_rating = [(a, b) if ratings.elo[names.index(a)] >= ratings.elo[names.index(b)] else (b, a) for a, b in pairs]
    checks = held_out_checks(games, by_rating, suite.reference_elo)
    measure = intransitivity(games, ratings)
    return LadderCheck(rated, checks, measure, warnings(checks, measure, rung_labels(rated)))


def rung_labels(rungs: Sequence[Rung]) -> dict[str, str]:
    """``{name: "rung 2"}``: how the checks and warnings name the rungs (the table gives their names)."""
    return {rung.name: f"rung {index}" for index, rung in enumerate(rungs, 1)}


def pick_rungs(candidates: Sequence[Rung], count: int) -> list[Rung]:
    """``count`` candidates whose ratings lie closest to evenly spaced targets from the weakest to the strongest.

    Each target takes the nearest candidate not taken yet, so rungs are distinct; weakest first.
    """
    ordered = sorted(candidates, key=lambda rung: rung.elo)
    if count >= len(ordered):
        return ordered
    targets = np.linspace(ordered[0].elo, ordered[-1].elo, count)
    chosen: list[Rung] = []
    for target in targets:
        free = [rung for rung in ordered if rung not in chosen]
        chosen.append(min(free, key=lambda rung: (abs(rung.elo - target), rung.name)))
    return sorted(chosen, key=lambda rung: rung.elo)


def closest_rung(rungs: Sequence[Rung], target_elo: float) -> Rung:
    """The rung whose measured rating is nearest ``target_elo`` (on the suite's scale)."""
    return min(rungs, key=lambda rung: (abs(rung.elo - target_elo), rung.name))


def write_ladder(out: Path, suite: SuiteConfig, check: LadderCheck, candidates: Sequence[Rung]) -> Path:
    """``out/ladder.json``: the suite the ratings are on, the rungs (weakest first, rated on all their games),
    every candidate measured (on the references alone), the held-out checks, intransitivity and the warnings."""
    path = out / LADDER
    data = {"suite": suite.name, "suite_version": suite.version, "reference_elo": suite.reference_elo,
            "rungs": [asdict(rung) for rung in check.rungs], "candidates": [asdict(rung) for rung in candidates],
            "checks": [pair.as_dict() for pair in check.checks], "intransitivity": check.intransitivity.as_dict(),
            "warnings": check.warnings}
    path.write_text(json.dumps(data, indent=2) + "\n")
    return path


def read_ladder(out: str | Path) -> dict[str, Any]:
    """A ladder file as written by :func:`write_ladder`, its rungs as :class:`Rung`."""
    data = json.loads((Path(out) / LADDER).read_text())
    return {**data, "rungs": [Rung(**rung) for rung in data["rungs"]],
            "candidates": [Rung(**rung) for rung in data["candidates"]]}


def format_ladder(suite: SuiteConfig, check: LadderCheck) -> str:
    """What ``issoku ladder`` prints: the rung table (each reference's rating for orientation, each rung's score
    against each reference), the held-out checks, intransitivity and the warnings."""
    lines = [f"ladder on suite {suite.name} v{suite.version} (references: "
             + ", ".join(f"{name} {elo:+.0f}" for name, elo in suite.reference_elo.items())
             + "; rungs rated on their reference and rung-against-rung games)"]
    for index, rung in enumerate(check.rungs, 1):
        lines.append(f"  rung {index}: {rung.name:<32} {rung.elo:+6.0f} Elo [{rung.low:+.0f}, {rung.high:+.0f}]  "
                     f"score {rung.score:.1%} (n={rung.games}) + {rung.rung_games} rung games{_ablation_note(rung)}")
        lines.append("      vs " + ", ".join(f"{name} {result['score']:.0%}" for name, result in
                                             (rung.per_reference or {}).items()))
    lines.append(format_checks(check.checks, check.intransitivity, rung_labels(check.rungs)))
    lines += [f"WARNING: {warning}" for warning in check.warnings]
    return "\n".join(lines)


def _ablation_note(rung: Rung) -> str:
    """``"  zeroed obs changes 0.0% — state-blind"``: the rung's observation ablation, short; nothing when unmeasured."""
    if rung.ablation is None:
        return ""
    measured = Ablation.from_dict(rung.ablation)
    return f"  zeroed obs changes {measured.share:.1%}{measured.flag}"
