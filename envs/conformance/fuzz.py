"""``python -m issoku.envs.conformance.fuzz [--decisions N] [--seed S] [--config NAME]``: random legal play over every env
and config, checking the invariants at every decision; prints decisions played and violations per config.

Invariants (a violation is printed with its config, seed and decision, and makes the exit status 1):

* **mask = legal set**: the deciding agent's mask marks exactly ``game_state.legal_actions()``, and is
  never all zero;
* **observation in space**: ``observation_space(agent).contains(observation)``, and no NaN in it;
* **rewards**: every reward finite; when an agent leaves (its dead step), its accumulated reward equals
  the rules' ``returns()`` for its seat as they stand then (agents leave only when the fight is over,
  a fallen fighter too, so these are the final returns, as docs/envs.md says); at the end the returns are
  zero-sum between sides (winners ``+r``, losers ``-r``, or all zero);
* **termination bound**: every episode ends (terminated or truncated) within :data:`MAX_EPISODE_DECISIONS`.

CI runs a short version (``tests/test_fuzz.py``); docs/envs.md gives a long run's figures.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from issoku.envs.registry import make_env

MAX_EPISODE_DECISIONS = 20_000
"""No fight of any shipped config runs this long (round limits end them far sooner)."""

CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "breath_duel_v0": ("breath_duel_v0", {}),
    "breath_duel_v0-no_ma": ("breath_duel_v0", {"ma": False}),
    "breath_duel_v0-hatashiai": ("breath_duel_v0", {"kind": "hatashiai"}),
    "breath_duel_v0-sparring": ("breath_duel_v0", {"mode": "sparring"}),
    "breath_duel_v0-sandbar": ("breath_duel_v0", {"stage": "sandbar"}),
    "breath_duel_v0-narrow_path": ("breath_duel_v0", {"stage": "narrow_path"}),
    "breath_duel_v0-high_ground": ("breath_duel_v0", {"stage": "high_ground"}),
    "breath_duel_v0-backlight": ("breath_duel_v0", {"stage": "backlight"}),
    "breath_duel_v0-wildman_vs_monk": ("breath_duel_v0", {"fighters": ["wildman", "mikkyo_monk"]}),
    "breath_duel_v0-casters": ("breath_duel_v0", {"fighters": ["onmyoji", "diviner"]}),
    "breath_duel_v0-no_ma_casters": ("breath_duel_v0", {"fighters": ["exorcist", "barrier_priest", "kenshi"],
                                                        "ma": False}),
    "breath_skirmish_v0": ("breath_skirmish_v0", {}),
    "breath_skirmish_v0-1v1": ("breath_skirmish_v0", {"sides": [["kenshi"], ["ronin"]]}),
    "breath_skirmish_v0-1v3": ("breath_skirmish_v0", {"sides": [["wildman"], ["ashigaru", "shinobi", "ronin"]]}),
    "breath_skirmish_v0-casters": ("breath_skirmish_v0", {"sides": [["onmyoji", "kenshi"], ["diviner", "ronin"]]}),
    "breath_skirmish_v0-4v4": ("breath_skirmish_v0", {"sides": [["kenshi", "shinobi", "ronin", "ashigaru"],
                                                                 ["mikkyo_monk", "wildman", "kenshi", "ronin"]]}),
    "tempo_duel_v0": ("tempo_duel_v0", {}),
    "tempo_duel_v0-knight_vs_fencer": ("tempo_duel_v0", {"fighters": ["knight", "fencer"], "start_distance": 8}),
    "tempo_skirmish_v0": ("tempo_skirmish_v0", {}),
    "tempo_skirmish_v0-1v3": ("tempo_skirmish_v0", {"sides": [["spearman"], ["archer", "crossbowman", "brawler"]]}),
    "tempo_skirmish_v0-4v4": ("tempo_skirmish_v0", {"sides": [["fencer", "knight", "spearman", "brawler"],
                                                               ["archer", "crossbowman", "knife_fighter", "knight"]],
                                                     "start_distance": 2}),
    "encounter_duel_v0": ("encounter_duel_v0", {}),
    "encounter_duel_v0-kusari_vs_monk_focused": ("encounter_duel_v0", {"fighters": ["kusari_fighter", "tonfa_monk"],
                                                                      "start_distance": 1, "focused_attack": True}),
    "encounter_skirmish_v0": ("encounter_skirmish_v0", {}),
    "encounter_skirmish_v0-1v3_mooks": ("encounter_skirmish_v0", {"sides": [["kenshi"], ["bandit", "bandit", "bandit"]],
                                                                  "start_distance": 2}),
    "encounter_skirmish_v0-4v4": ("encounter_skirmish_v0", {"sides": [["kenshi", "yari_guard", "archer", "tonfa_monk"],
                                                                       ["ono_brute", "bandit", "bandit", "kusari_fighter"]],
                                                             "start_distance": 1}),
}
"""Every env id and the configurations fuzzed (and transcribed by :mod:`issoku.envs.conformance.playthroughs`)."""


def make_config(name: str) -> Any:
    """A fresh env of config ``name``."""
    env_id, kwargs = CONFIGS[name]
    return make_env(env_id, **kwargs)


@dataclass
class FuzzReport:
    """What fuzzing one config did: episodes, decisions and the invariants broken (not a duel tally:
    wins and losses are :class:`issoku.common.outcomes.Tally`'s job)."""

    episodes: int = 0
    decisions: int = 0
    violations: list[str] = field(default_factory=list)


def check_decision(env: Any, agent: str, observation: dict[str, np.ndarray]) -> str | None:
    """The first invariant a live decision breaks, or None."""
    mask = observation["action_mask"]
    legal = sorted(env.game_state.legal_actions())
    if not legal or np.flatnonzero(mask).tolist() != legal:
        return f"mask {np.flatnonzero(mask).tolist()[:8]}... != legal set {legal[:8]}..."
    if np.isnan(observation["observation"]).any():
        return "NaN in the observation"
    if not env.observation_space(agent).contains(observation):
        return "observation outside its space"
    return None


def check_leaving(env: Any, agent: str, total: float) -> str | None:
    """Whether an agent leaving now carries the rules' return for its seat as it stands."""
    expected = env.game_state.returns()[env.possible_agents.index(agent)]
    if not math.isclose(total, expected):
        return f"{agent} leaves with {total} accumulated but the rules return {expected}"
    return None


def check_end(env: Any, totals: dict[str, float]) -> str | None:
    """The first invariant a finished episode breaks, or None."""
    returns = env.game_state.returns()
    top = max(returns)
    if any(value not in (top, -top) for value in returns) or (top != 0 and -top not in returns):
        return f"returns {returns} are not zero-sum between sides"
    return None


def play_episode(env: Any, seed: int, rng: np.random.Generator, tally: FuzzReport, where: str) -> None:
    """One random-legal episode, checking every decision and the end."""
    env.reset(seed=seed)
    totals: dict[str, float] = {}
    decisions = 0
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if not math.isfinite(reward):
            tally.violations.append(f"{where} seed {seed}: reward {reward} for {agent}")
            return
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            problem = check_leaving(env, agent, totals[agent])
            if problem is not None:
                tally.violations.append(f"{where} seed {seed} decision {decisions}: {problem}")
                return
            env.step(None)
            continue
        problem = check_decision(env, agent, observation)
        if problem is not None:
            tally.violations.append(f"{where} seed {seed} decision {decisions}: {problem}")
            return
        if decisions >= MAX_EPISODE_DECISIONS:
            tally.violations.append(f"{where} seed {seed}: no end after {decisions} decisions")
            return
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        decisions += 1
    tally.decisions += decisions
    tally.episodes += 1
    problem = check_end(env, totals)
    if problem is not None:
        tally.violations.append(f"{where} seed {seed}: {problem}")


def fuzz(name: str, decisions: int, seed: int = 0) -> FuzzReport:
    """Random-legal episodes of config ``name`` until at least ``decisions`` decisions were played."""
    env = make_config(name)
    rng = np.random.default_rng(seed)
    tally = FuzzReport()
    episode = 0
    while tally.decisions < decisions and len(tally.violations) < 10:
        play_episode(env, seed + episode, rng, tally, name)
        episode += 1
    env.close()
    return tally


def main(argv: list[str] | None = None, write: Callable[[str], None] = print) -> int:
    parser = argparse.ArgumentParser(prog="python -m issoku.envs.conformance.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=100_000, help="decisions per config (default %(default)s)")
    parser.add_argument("--seed", type=int, default=0, help="first episode seed (then +1 per episode)")
    parser.add_argument("--config", action="append", choices=sorted(CONFIGS), help="only these configs (repeat)")
    args = parser.parse_args(argv)
    if args.decisions < 1 or args.seed < 0:
        parser.error("--decisions must be at least 1 and --seed at least 0")
    total = FuzzReport()
    for name in args.config or CONFIGS:
        start = time.perf_counter()
        tally = fuzz(name, args.decisions, args.seed)
        seconds = time.perf_counter() - start
        write(f"{name:<34} {tally.episodes:>8,} episodes {tally.decisions:>11,} decisions "
              f"{len(tally.violations):>3} violations  ({tally.decisions / seconds:,.0f}/s)")
        for violation in tally.violations:
            write(f"  VIOLATION {violation}")
        total.episodes += tally.episodes
        total.decisions += tally.decisions
        total.violations += tally.violations
    write(f"{'all':<34} {total.episodes:>8,} episodes {total.decisions:>11,} decisions "
          f"{len(total.violations):>3} violations")
    return 1 if total.violations else 0


if __name__ == "__main__":
    sys.exit(main())
