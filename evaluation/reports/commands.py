"""What ``issoku balance-report`` does, kept out of the CLI module so it can be called and tested directly.

Run each study in turn — its tournament into the match store (resuming: stored games are skipped),
its restricted-play battery, its combo table — then write one report from everything the store
holds. With no study named, the shipped default studies (``studies/*.toml``: both duels, policies and
loadouts) run: that is the README's main command.
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from issoku.agents.ablation import DEFAULT_GAMES, Ablation, measure_ablation
from issoku.evaluation.design.combos import COMBO_TABLE, ComboTable, combo_table
from issoku.envs.registry import resolve_env
from issoku.evaluation.reports.findings import Thresholds
from issoku.evaluation.games.config import StudyConfig, build_tournament, load_study
from issoku.training.finetune import FineTuneJob, fine_tune_all
from issoku.evaluation.games.match import rules_fingerprint
from issoku.evaluation.stats.metrics import CompositionSpec
from issoku.evaluation.stats.pairings import games_between
from issoku.evaluation.games.policies import CheckpointFactory, resolve_policy
from issoku.evaluation.stats.ratings import rate
from issoku.evaluation.games.records import canonical_json
from issoku.evaluation.reports.report import write_report
from issoku.evaluation.reports.cross_play import CROSS_BUDGET, CrossPlayer
from issoku.evaluation.design.suggest import EDIT_BUDGET, Suggester, edits_store
from issoku.evaluation.design.restricted import battery, is_restricted, restricted_tournament
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.sequential_play import run_sequential
from issoku.evaluation.games.studies import check_studies_play, default_studies, restricted_action_names
from issoku.evaluation.games.tournament import Loadout, TournamentRun, run_tournament
from issoku.common.backend import Workers


@dataclass(frozen=True)
class StudyRun:
    """What one study did: its tournament, its restricted-play battery (if any)."""

    env: str
    tournament: TournamentRun
    restricted: TournamentRun | None = None


def strongest_policy(store: MatchStore, study: StudyConfig) -> str:
    """The study's highest-rated policy on the games the store holds (plain Bradley-Terry fit)."""
    names = tuple(spec.name for spec in build_tournament(study).policies)
    if len(names) == 1:
        return names[0]
    records = [r for r in store.records(env_id=_env_id(study)) if not is_restricted(r)]
    ratings = rate(games_between(records, names=names), bootstrap=0)
    return ratings.names[ratings.ranked()[0]]


def _env_id(study: StudyConfig) -> str:
    env = resolve_env(study.env)()
    try:
        return str(env.metadata.get("name") or study.env)
    finally:
        env.close()


def learned_ablations(studies: Sequence[StudyConfig], env_ids: Sequence[str],
                      games: int = DEFAULT_GAMES) -> dict[str, list[tuple[str, str, Ablation]]]:
    """Per env id of ``env_ids``, each checkpoint the studies field there: its policy name, its entry as the study
    wrote it (``shipped:breath_duel_v0``) and its observation ablation on the study's first loadout (``games``
    games).

    The store keeps a policy's name, not its file, so the studies say which checkpoint a name stands for; the
    first study to name one wins. A ``per_loadout:`` field is not measured (each of its checkpoints plays one
    loadout's seats only).
    """
    found: dict[str, list[tuple[str, str, Ablation]]] = {}
    measured: set[tuple[str, str]] = set()  # (env id, policy name)
    for study in studies:
        env_id = _env_id(study)
        if env_id not in env_ids:
            continue
        tournament = build_tournament(study)
        learned = [(entry, spec) for entry, spec in zip(study.policies, tournament.policies)
                   if isinstance(spec.factory, CheckpointFactory) and (env_id, spec.name) not in measured]
        if not learned:
            continue
        env = tournament.env_factory(**tournament.loadouts[0].kwargs)
        for entry, spec in learned:
            measured.add((env_id, spec.name))
            found.setdefault(env_id, []).append((spec.name, entry.partition("=")[2] or entry,
                                                 measure_ablation(spec.factory(), env, games=games)))
        env.close()
    return found


def run_restricted_play(study: StudyConfig, store: MatchStore, workers: Workers, batch_size: int,
                        progress: bool) -> TournamentRun:
    """The study's restricted-play battery (its ``restricted_play`` section) into the store."""
    config = study.restricted_play
    assert config is not None, "called only for a study with a restricted_play section"
    tournament = build_tournament(study)
    policy = config.policy or strongest_policy(store, study)
    base = {spec.name: spec for spec in tournament.policies}.get(policy) or resolve_policy(policy)
    action_names, loadouts = restricted_action_names(study, tournament)
    env_id = _env_id(study)
    records = [r for r in store.records(env_id=env_id, loadouts=[lo.name for lo in loadouts]) if not is_restricted(r)]
    restrictions = battery(records, base.name, action_names, config.maneuvers, config.combos, study.composition(),
                           config.replies)
    if not restrictions:
        return TournamentRun(0, 0, 0)
    tuned = {}
    if config.fine_tune_steps and isinstance(base.factory, CheckpointFactory):
        number = {name: i for i, name in enumerate(action_names)}
        folder = store.path.parent / "fine_tuned"
        steps, stem = config.fine_tune_steps, Path(base.factory.path).stem
        jobs = [FineTuneJob(tournament.env_factory, dict(loadouts[0].kwargs), base.factory.path,  # tuned in the first
                            tuple(number[name] for name in banned), steps, study.base_seed,
                            str(folder / f"{stem}-{_slug(banned)}-{steps}.zip"))
                for banned in restrictions]
        paths = fine_tune_all(jobs, workers, progress)
        tuned = {banned: resolve_policy(path) for banned, path in zip(restrictions, paths)}
    restricted = restricted_tournament(base, restrictions, action_names, tournament.env_factory, loadouts,
                                       config.games, study.base_seed, tuned)
    return run_tournament(restricted, store, workers=workers, batch_size=batch_size, progress=progress)


def _slug(banned: Sequence[str]) -> str:
    """A file-name-safe form of a restriction."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", ">".join(banned))


def study_combo_table(study: StudyConfig, store: MatchStore, workers: Workers, progress: bool) -> ComboTable:
    """The study's combo table, on the rules of its first loadout (whatever fighters that loadout names).

    Kept in the store under a digest of the rules fingerprint, the env options and the table's
    settings, so a rerun reuses it and a report-only run shows it.
    """
    config = study.combo_table
    assert config is not None, "called only for a study with a combo_table section"
    loadout: Loadout = build_tournament(study).loadouts[0]
    kwargs = {key: value for key, value in loadout.kwargs.items() if key != "fighters"}
    factory = resolve_env(study.env)
    probe = factory(**kwargs)
    env_id, fingerprint = str(probe.metadata.get("name") or study.env), rules_fingerprint(probe)
    probe.close()
    key = hashlib.sha256(canonical_json({"env": env_id, "rules": fingerprint, "kwargs": kwargs,
                                         "table": config.model_dump(), "seed": study.base_seed}).encode()).hexdigest()
    stored = store.artifact(key)
    if stored is not None:
        return ComboTable.from_json(stored)
    table = combo_table(factory, kwargs, weapons=config.weapons, samples=config.samples,
                        exact_dice=config.exact_dice, seed=study.base_seed, workers=workers, progress=progress)
    store.put_artifact(key, env_id, COMBO_TABLE, table.to_json())
    return table


def _say(message: str) -> None:
    """A progress note on stderr (stdout stays the command's result)."""
    print(message, file=sys.stderr, flush=True)


def balance_report(studies: Sequence[StudyConfig], db: Path, out: Path, workers: Workers = None,
                   batch_size: int = 16, bootstrap: int = 1000, seed: int = 0,
                   composition: CompositionSpec | None = None,
                   progress: bool = True, pool_versions: bool = False,
                   thresholds: Thresholds = Thresholds(), sequential: bool = False,
                   sources: Sequence[str] = (), ablation_games: int = DEFAULT_GAMES,
                   edit_budget: int = EDIT_BUDGET, cross_budget: int = CROSS_BUDGET) -> tuple[list[StudyRun], Path]:
    """Run every study (none: report only) into the store at ``db``, then write the report into ``out``.

    ``composition`` overrides the studies' own composition specs for every env; ``pool_versions`` mixes
    the rules versions the store holds (else each has its own section); ``thresholds`` set the headlines' verdicts
    and the sequential tests' design. ``sequential`` plays each study's cells only until their test decides
    (:mod:`issoku.evaluation.games.sequential_play`), after saying how many games a cell expects to need. ``sources``: the
    studies' files, named in a bad study's message. The report states each learned policy's observation ablation
    (:func:`learned_ablations`, over these studies and the shipped ones, ``ablation_games`` games each). Each loadout
    headline ends with a data edit verified on fresh seeds, searched within ``edit_budget`` games
    (:mod:`issoku.evaluation.design.suggest`; 0, or no study to play: none); each ``DISAGREE`` line with a cross-play of the
    two fields, ``cross_budget`` games an env section (:mod:`issoku.evaluation.reports.cross_play`; 0: none).
    """
    check_studies_play(studies, sources, composition, other_rules=True)  # every study before the first game of any
    if sequential and studies:
        _say(thresholds.sequential.describe())
    runs: list[StudyRun] = []
    compositions: dict[str, CompositionSpec] = {}
    with MatchStore(db, exclusive=True, on_wait=_say) as store:
        for study in studies:
            env_id = _env_id(study)
            play = partial(run_sequential, test=thresholds.sequential) if sequential else run_tournament
            played = play(build_tournament(study), store, workers=workers, batch_size=batch_size, progress=progress)
            restricted = (run_restricted_play(study, store, workers, batch_size, progress)
                          if study.restricted_play is not None else None)
            if study.combo_table is not None:
                study_combo_table(study, store, workers, progress)  # kept in the store for the report
            spec = study.composition()
            if spec is not None:
                compositions.setdefault(env_id, spec)
            runs.append(StudyRun(env_id, played, restricted))
        defaults = list(map(load_study, default_studies()))
        for default in defaults:  # the shipped studies describe their envs too
            spec = default.composition()
            if spec is not None:
                compositions.setdefault(default.env, spec)
        if composition is not None:
            compositions = {env_id: composition for env_id in store.env_ids()}
        ablations = learned_ablations([*studies, *defaults], store.env_ids(), ablation_games)
        with ExitStack() as stack:  # the edits' games have a store of their own: the report reads every game of its
            edits = (stack.enter_context(MatchStore(edits_store(db)))
                     if studies and (edit_budget or cross_budget) else None)
            tables = {env: ComboTable.from_json(body) for env, body in store.latest_artifacts(COMBO_TABLE).items()}
            suggest = (Suggester([*studies, *defaults], edits, out, edit_budget, combo_tables=tables,
                                 band=thresholds.balance).clause
                       if edits and edit_budget else None)
            cross = (CrossPlayer([*studies, *defaults], edits, cross_budget, workers).clauses
                     if edits and cross_budget else None)
            return runs, write_report(store, out, bootstrap=bootstrap, seed=seed, compositions=compositions,
                                      progress=progress, pool_versions=pool_versions, thresholds=thresholds,
                                      ablations=ablations, suggest=suggest, cross=cross)
