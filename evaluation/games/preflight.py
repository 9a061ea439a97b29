"""What a playing command checks before it writes or plays anything: that every policy can take every seat of every
loadout, that every checkpoint fits the env it will play (worded as ``issoku evaluate`` words it), and the
checkpoints ``ladder`` and ``styles`` rate (``hunt``'s inputs: :mod:`~issoku.evaluation.strength.hunt_preflight`).

A bad input found mid-run costs the games already played and leaves a store, a TensorBoard folder or exports
behind; the one bad-input policy says it must be refused first, as one ValueError naming the option or file,
the field and why (the CLI turns it into one line and exit status 2). Each check builds the envs and policies
the run would build, once, and plays nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from issoku.evaluation.games.tournament import Tournament


def check_tournament_plays(tournament: Tournament, env_name: str, *, allow_imports: bool = False,
                           other_rules: bool = False) -> None:
    """Build every loadout's env and every policy in each of its seats (with the seat's loadout label), then check
    every checkpoint against every loadout's env; ValueError naming the loadout or policy on the first problem.

    A policy built for another ruleset (a Ma agent in a tempo study) or a per-loadout folder lacking a label's
    checkpoint fails here, not in a worker mid-run. ``other_rules``: see
    :func:`~issoku.evaluation.games.checkpoint_fit.check_checkpoint_fits` (the balance reports alone pass it).
    """
    from issoku.evaluation.games.checkpoint_fit import check_tournament_checkpoints
    from issoku.evaluation.games.tournament import make_seat_policy
    from issoku.common.inputs import one_line

    for loadout in tournament.loadouts:
        try:
            env = tournament.env_factory(**loadout.kwargs)
        except (TypeError, ValueError, KeyError) as error:
            raise ValueError(f"{env_name}: loadout {loadout.name!r}: {one_line(error)}") from None
        try:
            for spec in tournament.policies:
                try:
                    for label in loadout.seat_labels or ("",):
                        make_seat_policy(spec, 0, env, label)
                except (AttributeError, TypeError, ValueError, KeyError) as error:
                    raise ValueError(f"policies: {spec.name!r} cannot play {env_name} "
                                     f"({type(error).__name__}: {one_line(error)})") from None
        finally:
            env.close()
    check_tournament_checkpoints(tournament, env_name, allow_imports=allow_imports,  # every difference listed
                                 other_rules=other_rules)


def check_checkpoints_fit_suite(checkpoints: Sequence[str], suite: Any) -> None:
    """Refuse a checkpoint ``ladder`` or ``styles`` would export and rate on ``suite`` (a
    :class:`~issoku.evaluation.strength.reference_suite.SuiteConfig`) before any export or store is written: a missing file,
    or one that does not fit the suite's env (every difference listed, as ``issoku evaluate`` lists them)."""
    from issoku.evaluation.games.checkpoint_fit import check_checkpoint_fits
    from issoku.evaluation.games.config import build_tournament

    for checkpoint in checkpoints:
        if not Path(checkpoint).is_file():
            raise FileNotFoundError(f"checkpoint {checkpoint}: no such file")
    tournament = build_tournament(suite)
    env = tournament.env_factory(**dict(tournament.loadouts[0].kwargs))
    try:
        for checkpoint in checkpoints:
            check_checkpoint_fits(checkpoint, env, suite.env)
    finally:
        env.close()
