"""Whether a checkpoint may play in the env a command built for it: one check for ``balance-report``,
``benchmark``, ``head-to-head`` and ``hunt``, worded as ``issoku evaluate`` words it.

``issoku evaluate`` rebuilds the env a checkpoint was trained on from its metadata and refuses it when
that env's identity under today's rules differs from the one recorded (:func:`issoku.agents.checkpoint.check_compatible`):
the rules data changed since training (``rules_fingerprint``), or the code renumbered its actions or moved
its observation fields (``interface``). A command that plays the checkpoint in an env of its own (a study's
loadout, a suite, a hunt) checks the same, and in addition that this env has the checkpoint's env id, version
and interface: the network reads that env's observations and its action numbers must mean the same moves.
The rules fingerprint is the one of the training env (its fighters, its rules data), not of the env at hand,
so an agent trained on one matchup may be fielded in another loadout of the same rules, and on a rules
variant a study compares (it then plays rules it was not trained on, as a scripted agent does). A checkpoint
whose metadata holds no training config is checked against the env at hand on every field.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from issoku.rules.kernel.content import file_digest


def checkpoint_paths(entries: Iterable[str]) -> list[str]:
    """The checkpoint files among policy entries (``[name=]path.zip``, ``[name=]shipped:<env>``)."""
    from issoku.evaluation.policies import expand_shipped

    targets = (expand_shipped(entry) for entry in entries)
    return [target.partition("=")[2] or target for target in targets
            if (target.partition("=")[2] or target).endswith(".zip")]


@functools.lru_cache(maxsize=32)
def _trained_identity(checkpoint: str, digest: str, allow_imports: bool) -> dict[str, Any] | None:
    """The identity of the env ``checkpoint`` was trained on, rebuilt from its metadata under today's rules
    (None without a training config). ``digest`` keys the cache on the file's contents."""
    from issoku.agents.checkpoint import read_metadata
    from issoku.training.config import checkpoint_config
    from issoku.training.make_env import env_identity, make_config_env

    metadata = read_metadata(checkpoint)
    if not metadata.get("config"):
        return None
    config = checkpoint_config(checkpoint, metadata, allow_imports=allow_imports)
    trained = make_config_env(config)
    try:
        return env_identity(trained, config.env_id)
    finally:
        trained.close()


def check_checkpoint_fits(checkpoint: str | Path, env: Any, env_id: str, *, allow_imports: bool = False) -> None:
    """Refuse ``checkpoint`` for ``env`` (an AEC env named ``env_id``) with every difference listed
    (:class:`~issoku.agents.checkpoint.CheckpointMismatchError`); see the module docstring for what must match."""
    from issoku.agents.checkpoint import check_compatible, check_network_fits, metadata_path, read_metadata
    from issoku.training.make_env import env_identity

    metadata = read_metadata(checkpoint)
    here = env_identity(env, env_id)
    trained = _trained_identity(str(checkpoint), file_digest(metadata_path(checkpoint)), allow_imports)
    identity = {**here, "rules_fingerprint": trained["rules_fingerprint"]} if trained else here
    check_compatible(metadata, identity, what=f"checkpoint {checkpoint}")
    check_network_fits(checkpoint, env)



def check_tournament_checkpoints(tournament: Any, env_id: str, *, allow_imports: bool = False) -> None:
    """Every checkpoint policy of ``tournament`` checked in every one of its loadouts' envs (see
    :func:`check_checkpoint_fits`), before a game is played or a store written."""
    from issoku.evaluation.policies import CheckpointFactory, PerLoadoutFactory

    paths = [spec.factory.path for spec in tournament.policies if isinstance(spec.factory, CheckpointFactory)]
    paths += [path for spec in tournament.policies if isinstance(spec.factory, PerLoadoutFactory)
              for path in spec.factory.paths]
    for loadout in tournament.loadouts if paths else ():
        env = tournament.env_factory(**dict(loadout.kwargs))
        try:
            for path in paths:
                check_checkpoint_fits(path, env, env_id, allow_imports=allow_imports)
        finally:
            env.close()
