"""What ``issoku balance-report`` does, kept out of the CLI module so it can be called and tested directly.

Play the study's tournament into the match store (resuming: stored games are skipped), then write
the report from everything the store holds.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from issoku.evaluation.config import StudyConfig, build_tournament, load_study
from issoku.evaluation.metrics import CompositionSpec
from issoku.evaluation.report import write_report
from issoku.evaluation.store import MatchStore
from issoku.evaluation.tournament import TournamentRun, run_tournament

DEFAULT_ENV = "breath_duel_v0"


def default_policies() -> tuple[str, ...]:
    """Every registered policy name (the scripted agents), the field a study plays by default."""
    from issoku.agents.registry import policy_names

    return tuple(policy_names())


def study_from_options(study_file: Path | None = None, env: str | None = None,
                       policies: Sequence[str] | None = None, games_per_pair: int | None = None,
                       base_seed: int | None = None, mirrors: bool | None = None) -> StudyConfig:
    """A study from a file (if given) with command-line options overriding its fields."""
    fields = load_study(study_file).model_dump() if study_file is not None else {}
    overrides = {"env": env, "policies": tuple(policies) if policies else None, "games_per_pair": games_per_pair,
                 "base_seed": base_seed, "mirrors": mirrors}
    fields.update({key: value for key, value in overrides.items() if value is not None})
    fields.setdefault("env", DEFAULT_ENV)
    if not fields.get("policies"):
        fields["policies"] = default_policies()
    return StudyConfig.model_validate(fields)


def balance_report(study: StudyConfig | None, db: Path, out: Path, workers: int | None = None,
                   batch_size: int = 16, bootstrap: int = 1000, seed: int = 0,
                   composition: CompositionSpec | None = None,
                   progress: bool = True) -> tuple[TournamentRun | None, Path]:
    """Run ``study`` (unless ``None``: report only) into the store at ``db``, then write the report into ``out``.

    ``composition`` defaults to the study's.
    """
    with MatchStore(db) as store:
        run = None
        if study is not None:
            run = run_tournament(build_tournament(study), store, workers=workers, batch_size=batch_size,
                                 progress=progress)
            composition = composition or study.composition()
        return run, write_report(store, out, bootstrap=bootstrap, seed=seed, composition=composition,
                                 progress=progress)
