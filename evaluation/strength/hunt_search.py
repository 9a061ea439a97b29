"""Search as a hunt's best-response oracle (``issoku hunt --oracle search``): no training, the rules engine looked ahead.

A PSRO iteration needs a best response to the field's Nash mixture. PPO learns one in tens of thousands of
steps and still reads the game through a network; a tree search on the rules engine computes one at every
decision: MCTS whose playouts meet the mixture's members, one drawn by its weight for each sampled world
(:mod:`issoku.agents.search.opponents`). It adapts at once to a rules variant, and it plays the options no
trained or scripted agent took (a costed stance) whenever they pay against the field.

A best response here is data, not a file: its name (``bs<N>``), the mixture it answers (saved in ``hunt.json``)
and the simulation budget rebuild it exactly on a resume. A member of the mixture that searches itself (an
earlier ``bs<N>``, ``mcts_small``) is played by the scripted playout agent inside the playouts, so the cost of a
decision stays one search.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from issoku.agents.policy import Policy
from issoku.agents.search.agents import MCTS
from issoku.agents.search.mcts import SearchBudget
from issoku.agents.search.opponents import OpponentField
from issoku.evaluation.games.policies import code_fingerprint, resolve_policy
from issoku.evaluation.games.tournament import PolicySpec, factory_takes
from issoku.common.backend import SHIPPED

ORACLES = ("ppo", "search")
"""How a hunt finds each best response: PPO training against the mixture, or tree search against it."""

SEARCH_STEM = "bs"
"""A search best response's name: ``bs<iteration>`` (a PPO one is the checkpoint ``agents/br<iteration>.zip``)."""


@functools.lru_cache(maxsize=64)
def _member_spec(entry: str) -> PolicySpec:
    """A member's policy spec, resolved once per process (a checkpoint's digest is read once, not every game)."""
    return resolve_policy(entry)


@dataclass(frozen=True)
class MemberBuilder:
    """Builds one mixture member's policy for the ruleset being searched (picklable: it travels to workers)."""

    entry: str | None = field(default=None, metadata=SHIPPED)
    """The member's policy entry (a registry name or a checkpoint), or None: played by the scripted playout agent."""

    def __call__(self, seed: int, ruleset: Any) -> Policy | None:
        if self.entry is None:
            return None
        factory = _member_spec(self.entry).factory
        policy = factory(seed=seed, **({"ruleset": ruleset} if factory_takes(factory, "ruleset") else {}))
        return None if getattr(policy, "reads_state", False) else policy


@dataclass(frozen=True)
class SearchResponse:
    """The factory of one search best response: MCTS at ``simulations`` a decision against the mixture."""

    entries: tuple[str | None, ...] = field(metadata=SHIPPED)
    """Each mixture member's policy entry (None: a member that searches, played by the scripted playout agent)."""
    weights: tuple[float, ...]
    simulations: int

    reads_state = True
    """Its policies search the game state (:mod:`issoku.agents.state_reading`)."""

    def __call__(self, seed: int | None = None) -> MCTS:
        return MCTS(seed, SearchBudget(simulations=self.simulations),
                    OpponentField(tuple(map(MemberBuilder, self.entries)), self.weights))


def search_response_spec(name: str, mixture: Mapping[str, float], entries: Mapping[str, str | None],
                         simulations: int) -> PolicySpec:
    """The population entry of a search best response ``name`` to ``mixture`` (member name -> weight), its members
    built from ``entries`` (member name -> policy entry, None for a member that searches).

    Its fingerprint covers the search code, the budget, the mixture and each member's own fingerprint, so a resumed
    hunt replays nothing it stored for another version of any of them."""
    members = tuple(mixture)
    factory = SearchResponse(tuple(entries[member] for member in members), tuple(mixture.values()), simulations)
    identity = {"code": code_fingerprint(MCTS), "simulations": simulations,
                "mixture": [[member, weight, _member_fingerprint(entries[member])]
                            for member, weight in mixture.items()]}
    digest = hashlib.sha256(json.dumps(identity, sort_keys=True).encode()).hexdigest()[:16]
    return PolicySpec(name, factory, digest)


def _member_fingerprint(entry: str | None) -> str:
    return "" if entry is None else _member_spec(entry).fingerprint
