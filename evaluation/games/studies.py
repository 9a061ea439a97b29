"""Which studies a command runs, and whether they can play: the shipped default studies, a study from a file with
command-line options over it, and the checks that refuse a study before its store is created or a game played.

``balance-report``, ``head-to-head``, ``levers``, ``hunt`` and ``--variant`` all choose and check studies this way.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from issoku.evaluation.games.config import StudyConfig, build_tournament, check_study_names, load_study
from issoku.evaluation.games.preflight import check_tournament_plays
from issoku.evaluation.games.tournament import Loadout, Tournament
from issoku.evaluation.stats.metrics import CompositionSpec

DEFAULT_ENV = "breath_duel_v0"
STUDIES_DIR = Path(__file__).resolve().parents[1] / "studies"


def default_policies() -> tuple[str, ...]:
    """Every registered policy name (the scripted agents), the field a study plays by default."""
    from issoku.agents.registry import policy_names

    return tuple(policy_names())


def default_studies() -> list[Path]:
    """The shipped studies of the default report, in run order."""
    return sorted(STUDIES_DIR.glob("*.toml"))


def study_from_options(study_file: Path | None = None, env: str | None = None,
                       policies: Sequence[str] | None = None, games_per_pair: int | None = None,
                       base_seed: int | None = None, mirrors: bool | None = None, *,
                       allow_imports: bool = False) -> StudyConfig:
    """A study from a file (if given) with command-line options overriding its fields.

    The file's names may be import paths only with ``allow_imports``; options the user typed may always.
    """
    fields = load_study(study_file, allow_imports=allow_imports).model_dump() if study_file is not None else {}
    overrides = {"env": env, "policies": tuple(policies) if policies else None, "games_per_pair": games_per_pair,
                 "base_seed": base_seed, "mirrors": mirrors}
    fields.update({key: value for key, value in overrides.items() if value is not None})
    fields.setdefault("env", DEFAULT_ENV)
    if not fields.get("policies"):
        fields["policies"] = default_policies()
    study = StudyConfig.model_validate(fields)
    check_study_names(study, str(study_file or "balance-report"))
    return study


def check_study_plays(study: StudyConfig, composition: CompositionSpec | None = None, *,
                      other_rules: bool = False) -> None:
    """Build every loadout's env and every policy on it, check every checkpoint, the composition spec, the combo
    table's weapons and the restricted-play battery's action table against the rules, so a study that cannot play
    fails (ValueError naming the field) before the store is created or a game played (of this study or any other).

    A policy built for another ruleset (a Ma agent in a tempo study) fails here, not in a worker mid-run
    (:func:`~issoku.evaluation.games.preflight.check_tournament_plays`; ``other_rules``: a checkpoint may play rules data it
    was not trained on, for a report that names it).
    """
    tournament = build_tournament(study)
    check_tournament_plays(tournament, study.env, other_rules=other_rules)
    env = tournament.env_factory(**tournament.loadouts[-1].kwargs)
    ruleset: Any = getattr(env.unwrapped, "ruleset", None)  # an env of another library may have none
    env.close()
    spec = composition or study.composition()
    kinds = getattr(ruleset, "decision_kinds", None)
    if spec is not None and kinds is not None:
        if spec.kind not in kinds:
            raise ValueError(f"composition_kind {spec.kind!r} is not a decision kind of {study.env} "
                             f"({', '.join(kinds)})")
        actions = set(ruleset.action_names) | {name.split(":", 1)[0] for name in ruleset.action_names}
        unknown = [name for name in spec.closing if name not in actions]
        if unknown:
            raise ValueError(f"composition_end {unknown} are not actions of {study.env}")
    if study.combo_table is not None:
        weapons = getattr(getattr(ruleset, "catalog", None), "weapons", None)
        if weapons is None:
            raise ValueError(f"combo_table: {study.env} has no weapon catalog to tabulate (the combo table reads the "
                             "breath rules' weapons)")
        unknown = [name for name in study.combo_table.weapons or () if name not in weapons]
        if unknown:
            raise ValueError(f"combo_table.weapons: unknown weapon {unknown[0]!r} of {study.env} (known: "
                             f"{', '.join(sorted(weapons))})")
    if study.restricted_play is not None:
        restricted_action_names(study, tournament)


def check_studies_play(studies: Sequence[StudyConfig], sources: Sequence[str] = (),
                       composition: CompositionSpec | None = None, *, other_rules: bool = False) -> None:
    """:func:`check_study_plays` for every study before the first game of any; a problem's message names the study's
    file (``sources[i]``, where given) unless it already does."""
    for index, study in enumerate(studies):
        try:
            check_study_plays(study, composition, other_rules=other_rules)
        except ValueError as error:
            where = sources[index] if index < len(sources) else ""
            if not where or str(error).startswith(where):
                raise
            raise ValueError(f"{where}: {error}") from None


def restricted_action_names(study: StudyConfig, tournament: Tournament) -> tuple[list[str], list[Loadout]]:
    """The action table the restricted-play battery restricts, and the loadouts it plays in; ValueError when the env
    names no actions or those loadouts' tables differ (the battery needs one)."""
    config = study.restricted_play
    assert config is not None
    loadouts = list(tournament.loadouts[:config.loadouts] if config.loadouts else tournament.loadouts)
    tables = []
    for loadout in loadouts:
        env = tournament.env_factory(**loadout.kwargs)
        tables.append(tuple(getattr(env.unwrapped, "action_names", ())))
        env_id = str(env.metadata.get("name"))
        env.close()
    if not tables[0]:
        raise ValueError(f"restricted_play: needs an env that names its actions (env.action_names); {env_id} does not")
    if any(table != tables[0] for table in tables):
        raise ValueError(f"restricted_play: the loadouts of {env_id} have different action tables; "
                         "set restricted_play.loadouts to those that share one")
    return list(tables[0]), loadouts
