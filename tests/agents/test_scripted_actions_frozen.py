"""The scripted duelists' actions, frozen: seeded tournament games must play exactly as they did before
the observation reading was made faster (branch scripted-speed).

The digests were computed on main before that change. A change that alters a single decision of a scripted
agent changes a digest; then the balance figures, reference suites and golden playthroughs move with it, and
the digests here are re-taken only on purpose (with the reason in the commit).
"""

import functools
import hashlib

import pytest

from issoku.envs.registry import resolve_env
from issoku.evaluation.games.policies import resolve_policy
from issoku.evaluation.games.tournament import Job, Loadout, MatchSpec, PolicySpec, run_job


def _recording(factory, log):
    """``factory`` whose policies append every action they choose to ``log``."""
    def make(seed=None, ruleset=None):
        policy = factory(seed=seed, ruleset=ruleset)

        def act(observation, mask):
            action = policy(observation, mask)
            log.append(int(action))
            return action
        return act
    return make


def action_digest(env_id: str, names: tuple[str, str], count: int) -> tuple[str, int]:
    """(sha256 prefix of every action, decisions) of ``count`` seeded games between ``names``, seats swapped."""
    log: list[int] = []
    specs = tuple(PolicySpec(f"{name}{seat}", _recording(resolve_policy(name).factory, log))
                  for seat, name in enumerate(names))
    labels = tuple(spec.name for spec in specs)
    matches = tuple(MatchSpec(str(game), game // 2, labels if game % 2 == 0 else labels[::-1]) for game in range(count))
    run_job(Job(functools.partial(resolve_env(env_id)), Loadout("default"), specs, matches, 100_000), 1)
    return hashlib.sha256(repr(log).encode()).hexdigest()[:16], len(log)


FROZEN = [
    ("breath_duel_v0", ("ma_heuristic", "ma_aggressive"), 200, ("5e228324a30e1659", 5738)),
    ("breath_duel_v0", ("ma_heuristic", "ma_defensive"), 50, ("904115b3595ed9c4", 2112)),
    ("breath_duel_v0", ("ma_heuristic", "ma_distance_keeper"), 50, ("122dcc9921c049d3", 1721)),
    ("breath_duel_v0", ("ma_aggressive", "ma_spells_caster"), 50, ("431aca4c71c5cd33", 2125)),
    ("breath_duel_v0", ("ma_defensive", "ma_distance_keeper"), 50, ("d6501733a93791fd", 3574)),
    ("breath_skirmish_v0", ("breath_aggressive", "breath_defensive"), 25, ("af9c2d16dbc11745", 1588)),
    ("breath_skirmish_v0", ("breath_defensive", "breath_heuristic"), 25, ("4da700a89767439a", 1577)),
]
"""(env, pairing, games, (digest, decisions)) as main played them before the faster reading."""


@pytest.mark.parametrize(("env_id", "names", "count", "frozen"), FROZEN, ids=lambda v: v if isinstance(v, str) else None)
def test_scripted_agents_choose_the_actions_frozen_before_the_faster_reading(env_id, names, count, frozen):
    assert action_digest(env_id, names, count) == frozen
