"""Information-set Monte Carlo tree search on a rules engine, with chance and hidden information sampled.

Each simulation plays one sampled world (:func:`~issoku.agents.search.worlds.sample_world`: fresh dice, other
seats' secrets redrawn) down one tree, so the statistics average over what the searching seat cannot know.
The tree is an information-set tree: below each edge, the next node is chosen by what the seat deciding there
sees (its observation), so a decision after a roll is made knowing the roll's outcome as the player would, and
never knowing a secret of another seat. Where different samples offer different legal actions, selection
counts how often each action was available (ISMCTS's availability counts, Cowling, Powley and Whitehouse 2012)
in place of the parent's visits.

Every seat in the tree plays for its own returns (a skirmish's teammates share theirs), chooses by UCB1 and
expands one new action per simulation; a playout then plays uniformly random legal actions up to a depth and
is scored by :func:`~issoku.agents.search.worlds.team_values` (the returns if the fight ended). The decision is
the root action visited most. A seeded generator makes the whole search deterministic; a time limit, when
given, stops it early (and so makes it depend on the machine).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from issoku.agents.search.playouts import PLAYOUT_KINDS, Chooser, random_chooser, scripted_agent, scripted_chooser
from issoku.agents.search.worlds import quiet_copy, sample_world, team_values
from issoku.rules.kernel.protocol import GameState


@dataclass(frozen=True)
class SearchBudget:
    """How much a search may spend on one decision."""

    simulations: int = 200
    """Simulations (sampled worlds played down the tree), the deterministic budget."""
    rollout_depth: int = 20
    """Random decisions a playout plays past the tree before it is scored (0: score the leaf itself)."""
    exploration: float = 1.0
    """UCB1's exploration constant (values lie in [-1, 1])."""
    time_limit: float | None = None
    """Seconds after which the search stops even if simulations remain (None: no limit)."""
    prior: float = 0.0
    """Progressive bias toward the playout agent's own choice at each node: ``prior / (1 + visits)`` added to that
    action's score, so the search leaves a competent move only on evidence (0: no bias)."""
    playout: str = "scripted"
    """Who plays past the tree: ``"scripted"`` (the ruleset's best scripted agent, random where none fits) or
    ``"random"`` (:mod:`~issoku.agents.search.playouts`)."""

    def __post_init__(self) -> None:
        if self.simulations < 1 or self.rollout_depth < 0 or self.exploration < 0 or self.prior < 0:
            raise ValueError(f"a search budget needs simulations >= 1 and rollout_depth, exploration, prior >= 0, "
                             f"not {self}")
        if self.playout not in PLAYOUT_KINDS:
            raise ValueError(f"playout must be one of {PLAYOUT_KINDS}, not {self.playout!r}")
        if self.time_limit is not None and self.time_limit <= 0:
            raise ValueError(f"time_limit must be > 0 seconds or None, not {self.time_limit}")


class _Node:
    """One information set in the tree: its edges by action, and the playout agent's own choice there (the hint)."""

    __slots__ = ("edges", "hint")

    def __init__(self) -> None:
        self.edges: dict[int, _Edge] = {}
        self.hint: int | None = None


class _Edge:
    """One action at one node: visits, the sum of the deciding seat's values, availability, the nodes below."""

    __slots__ = ("visits", "total", "available", "below")

    def __init__(self) -> None:
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.below: dict[tuple[int, bytes], _Node] = {}


def playout(world: GameState, depth: int, choose: Chooser) -> tuple[float, ...]:
    """Play up to ``depth`` decisions of ``choose`` on ``world`` (in place), then score it."""
    for _ in range(depth):
        seat = world.current_seat()
        if seat is None:
            break
        world.apply(choose(world, seat))
    return team_values(world)


def chooser_for(state: GameState, budget: SearchBudget, rng: np.random.Generator,
                uniform: Callable[[], float]) -> Chooser:
    """The playout chooser ``budget`` asks for, seeded from ``rng``."""
    if budget.playout == "scripted":
        agent = scripted_agent(state.ruleset, int(rng.integers(2**63 - 1)))
        if agent is not None:
            return scripted_chooser(agent)
    return random_chooser(uniform)


def search(state: GameState, seat: int, budget: SearchBudget, rng: np.random.Generator) -> dict[int, tuple[int, float]]:
    """Search ``state`` for ``seat`` (whose decision it is); return each root action's (visits, mean value)."""
    if state.current_seat() != seat:
        raise ValueError(f"search for seat {seat}, but the decision is seat {state.current_seat()}'s")
    root = quiet_copy(state)
    legal = root.legal_actions()
    if len(legal) == 1:
        return {legal[0]: (0, 0.0)}
    uniform = random.Random(int(rng.integers(2**63 - 1))).random
    choose = chooser_for(state, budget, rng, uniform)
    tree = _Node()
    deadline = None if budget.time_limit is None else time.perf_counter() + budget.time_limit
    for done in range(budget.simulations):
        if deadline is not None and done and time.perf_counter() > deadline:
            break
        _simulate(tree, sample_world(root, seat, rng), budget, uniform, choose)
    edges = tree.edges
    return {action: (edges[action].visits, edges[action].total / max(1, edges[action].visits))
            for action in legal if action in edges}


def best_action(statistics: dict[int, tuple[int, float]]) -> int:
    """The action visited most; ties go to the higher mean value, then to the lower action number."""
    return max(statistics, key=lambda action: (statistics[action][0], statistics[action][1], -action))


def _simulate(node: _Node, world: GameState, budget: SearchBudget, uniform: Callable[[], float],
              choose: Chooser) -> None:
    """One simulation: select down the tree, expand one action, play out, back the values up."""
    path: list[tuple[_Edge, int]] = []
    c, prior = budget.exploration, budget.prior
    while True:
        seat = world.current_seat()
        if seat is None:
            break
        legal = world.legal_actions()
        edges = node.edges
        if prior and node.hint is None:
            node.hint = choose(world, seat)
        fresh = [action for action in legal if action not in edges]
        if fresh:
            action = node.hint if node.hint in fresh else fresh[int(uniform() * len(fresh))]
            edges[action] = _Edge()
            for available in legal:
                if available in edges:
                    edges[available].available += 1
            world.apply(action)
            path.append((edges[action], seat))
            break
        best, best_score = legal[0], -math.inf
        for action in legal:
            edge = edges[action]
            edge.available += 1
            score = edge.total / edge.visits + c * math.sqrt(math.log(edge.available) / edge.visits)
            if action == node.hint:
                score += prior / (1 + edge.visits)
            if score > best_score:
                best, best_score = action, score
        edge = edges[best]
        world.apply(best)
        path.append((edge, seat))
        after = world.current_seat()
        if after is None:
            break
        key = (after, world.observation(after).tobytes())
        below = edge.below.get(key)
        if below is None:
            below = edge.below[key] = _Node()
        node = below
    values = playout(world, budget.rollout_depth, choose)
    for edge, seat in path:
        edge.visits += 1
        edge.total += values[seat]
