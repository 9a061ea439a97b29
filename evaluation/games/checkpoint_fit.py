"""Whether a checkpoint may play in the env a command built for it: one check for ``balance-report``,
``benchmark``, ``head-to-head`` and ``hunt``, worded as ``issoku evaluate`` words it.

``issoku evaluate`` rebuilds the env a checkpoint was trained on from its metadata and refuses it when
that env's identity under today's rules differs from the one recorded (:func:`issoku.agents.checkpoint.check_compatible`):
the rules data changed since training (``rules_fingerprint``), or the code renumbered its actions or moved
its observation fields (``interface``). A command that plays the checkpoint in an env of its own (a study's
loadout, a suite, a hunt) checks the same, and in addition that this env has the checkpoint's env id, version
and interface: the network reads that env's observations and its action numbers must mean the same moves.
The rules fingerprint checked is the one of the training env (its fighters, its matchups) rebuilt on today's
shipped data files, not of the env at hand, so an agent trained on one matchup may be fielded in another loadout
of the same rules, and on a rules variant a study compares. Shipped data edited in place since training is
refused there, except in the balance reports (``other_rules``): they treat an in-place edit as they treat a
variant, field the agent as a scripted one is fielded, and name it among the agents that played rules they were
not trained on (:func:`plays_other_rules`: its training matchup rebuilt on the games' rules data has another
fingerprint than the one it recorded). A checkpoint whose metadata holds no training config is checked against
the env at hand on every field.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from issoku.rules.kernel.content import file_digest


def checkpoint_paths(entries: Iterable[str]) -> list[str]:
    """The checkpoint files among policy entries (``[name=]path.zip``, ``[name=]shipped:<env>``)."""
    from issoku.evaluation.games.policies import expand_shipped

    targets = (expand_shipped(entry) for entry in entries)
    return [target.partition("=")[2] or target for target in targets
            if (target.partition("=")[2] or target).endswith(".zip")]


@functools.lru_cache(maxsize=32)
def _trained_fingerprint(checkpoint: str, digest: str, data: tuple[tuple[str, str], ...],
                         allow_imports: bool) -> str | None:
    """The rules fingerprint of the env ``checkpoint`` was trained on (its fighters, its matchups), rebuilt from its
    metadata on the rules data ``data`` names (data keywords; none: the shipped files as they are today); None
    without a training config. ``digest`` keys the cache on the metadata's contents."""
    from issoku.agents.checkpoint import read_metadata
    from issoku.training.config import checkpoint_config
    from issoku.training.make_env import env_identity, make_config_env

    metadata = read_metadata(checkpoint)
    if not metadata.get("config"):
        return None
    config = checkpoint_config(checkpoint, metadata, allow_imports=allow_imports)
    trained = make_config_env(config, **dict(data))
    try:
        return env_identity(trained, config.env_id)["rules_fingerprint"]
    finally:
        trained.close()


def plays_other_rules(checkpoint: str | Path, data: Mapping[str, object] | None = None, *,
                      allow_imports: bool = False) -> bool:
    """Whether ``checkpoint`` plays rules it was not trained on when the games load the rules data ``data`` names
    (:data:`~issoku.evaluation.games.records.DATA_KEYWORDS`; none: the shipped files as they are now, edited in place or
    not): its training matchup rebuilt on that data has another rules fingerprint than the one it recorded."""
    from issoku.agents.checkpoint import metadata_path, read_metadata

    chosen = tuple(sorted((key, str(value)) for key, value in (data or {}).items()))
    fingerprint = _trained_fingerprint(str(checkpoint), file_digest(metadata_path(checkpoint)), chosen, allow_imports)
    return fingerprint is not None and fingerprint != read_metadata(checkpoint).get("rules_fingerprint")


def check_checkpoint_fits(checkpoint: str | Path, env: Any, env_id: str, *, allow_imports: bool = False,
                          other_rules: bool = False) -> None:
    """Refuse ``checkpoint`` for ``env`` (an AEC env named ``env_id``) with every difference listed
    (:class:`~issoku.agents.checkpoint.CheckpointMismatchError`); see the module docstring for what must match.

    ``other_rules``: rules data it was not trained on is no difference, where the checkpoint's training config
    says what it was trained on. Only the balance reports pass it, since they name every such agent
    (:func:`plays_other_rules`); a benchmark, hunt, ladder or head-to-head would report its figure silently."""
    from issoku.agents.checkpoint import check_compatible, check_network_fits, metadata_path, read_metadata
    from issoku.training.make_env import env_identity

    metadata = read_metadata(checkpoint)
    here = env_identity(env, env_id)
    if not metadata.get("config"):
        identity = here
    elif other_rules:
        identity = {**here, "rules_fingerprint": metadata.get("rules_fingerprint")}
    else:
        trained = _trained_fingerprint(str(checkpoint), file_digest(metadata_path(checkpoint)), (), allow_imports)
        identity = {**here, "rules_fingerprint": trained}
    check_compatible(metadata, identity, what=f"checkpoint {checkpoint}")
    check_network_fits(checkpoint, env)


def check_tournament_checkpoints(tournament: Any, env_id: str, *, allow_imports: bool = False,
                                 other_rules: bool = False) -> None:
    """Every checkpoint policy of ``tournament`` checked in every one of its loadouts' envs (see
    :func:`check_checkpoint_fits`, ``other_rules`` included), before a game is played or a store written."""
    from issoku.evaluation.games.policies import CheckpointFactory, PerLoadoutFactory

    paths = [spec.factory.path for spec in tournament.policies if isinstance(spec.factory, CheckpointFactory)]
    paths += [path for spec in tournament.policies if isinstance(spec.factory, PerLoadoutFactory)
              for path in spec.factory.paths]
    for loadout in tournament.loadouts if paths else ():
        env = tournament.env_factory(**dict(loadout.kwargs))
        try:
            for path in paths:
                check_checkpoint_fits(path, env, env_id, allow_imports=allow_imports, other_rules=other_rules)
        finally:
            env.close()


def checkpoints_off_training(tournament: Any, data: Mapping[str, object], *,
                             allow_imports: bool = False) -> list[tuple[str, str]]:
    """``(policy name, checkpoint)`` for each checkpoint policy of ``tournament`` that plays rules it was not trained
    on when its games load the rules data ``data`` names (:func:`plays_other_rules`)."""
    from issoku.evaluation.games.policies import CheckpointFactory

    return [(spec.name, str(spec.factory.path)) for spec in tournament.policies
            if isinstance(spec.factory, CheckpointFactory)
            and plays_other_rules(spec.factory.path, data, allow_imports=allow_imports)]
