"""Information-set Monte Carlo tree search on a rules engine, with chance and hidden information sampled.

Each simulation plays one sampled world (:func:`~issoku.agents.search.worlds.sample_world`: fresh dice, other
seats' secrets redrawn) down one tree, so the statistics average over what the searching seat cannot know.
The tree is an information-set tree: below each edge, the next node is chosen by what the seat deciding there
sees (its observation), so a decision after a roll is made knowing the roll's outcome as the player would, and
never knowing a secret of another seat. Where different samples offer different legal actions, selection
counts how often each action was available (ISMCTS's availability counts, Cowling, Powley and Whitehouse 2012)
in place of the parent's visits.

Below the root every seat plays for its own returns (a skirmish's teammates share theirs) and chooses by UCB1,
with first-play urgency for untried actions and a progressive bias toward the playout agent's own choice; the
tree grows a node only below an edge visited ``expand_after`` times. At the root (by default) the simulations
are shared by sequential halving on common worlds (:func:`_halve`). A playout plays the ruleset's best scripted
agent (:mod:`~issoku.agents.search.playouts`) up to a depth and is scored by
:func:`~issoku.agents.search.worlds.team_values` (the returns if the fight ended). The decision is the root
action visited most. A seeded generator makes the whole search deterministic; a time limit, when given, stops
it early (and so makes it depend on the machine).

Why these choices, measured against the scripted heuristics (docs/agents.md): random playouts, UCB at the
root and a tree grown at every visit lost to ``ma_heuristic`` and ``encounter_heuristic`` at a few hundred
simulations, because dice noise swamps the differences between actions and a young node averages its own
exploring blunders; competent playouts, common worlds at the root and a grown-only-when-visited tree fixed that.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from issoku.agents.search.lookahead import look_ahead
from issoku.agents.search.opponents import FieldPolicies, ModelledOpponents
from issoku.agents.search.playouts import PLAYOUT_KINDS, Chooser, random_chooser, scripted_agent, scripted_chooser
from issoku.agents.search.worlds import quiet_copy, sample_world, team_values
from issoku.rules.kernel.protocol import GameState


ROOT_RULES = ("ucb", "halving")


@dataclass(frozen=True)
class SearchBudget:
    """How much a search may spend on one decision."""

    simulations: int = 200
    """Simulations (sampled worlds played down the tree), the deterministic budget. The root's halving judges at
    most as many actions as it can give a world each round (:func:`root_width`: 12 at 50, 64 at 400); where more
    are legal it judges the playout agent's own choice and the others a short look-ahead rates best."""
    rollout_depth: int = 200
    """Decisions a playout plays past the tree before it is scored (0: score the leaf itself); 200 plays a duel to
    its end with the scripted playouts."""
    exploration: float = 1.0
    """UCB1's exploration constant (values lie in [-1, 1])."""
    time_limit: float | None = None
    """Seconds after which the search stops even if simulations remain (None: no limit)."""
    prior: float = 2.0
    """Progressive bias toward the playout agent's own choice at each node: ``prior / (1 + visits)`` added to that
    action's score, so the search leaves a competent move only on evidence (0: no bias)."""
    expand_after: int = 256
    """Visits an edge needs before the tree grows a node below it; until then simulations through it go on as
    playouts. Node values average every simulation through them, the exploring ones included, so a young node
    with many legal actions (an encounter attack and its raises) rates the position by its own blunders; a
    threshold keeps such positions rated by competent play until they have been visited enough."""
    root: str = "halving"
    """How the root's simulations are shared among its actions: ``"ucb"`` (the tree's own rule) or ``"halving"``
    (sequential halving on common worlds: every surviving action is simulated on the same sampled worlds, the
    worse half dropped each round, the playout agent's own choice kept to the last round; :func:`search`)."""
    playout: str = "scripted"
    """Who plays past the tree: ``"scripted"`` (the ruleset's best scripted agent, random where none fits) or
    ``"random"`` (:mod:`~issoku.agents.search.playouts`)."""

    def __post_init__(self) -> None:
        if (self.simulations < 1 or self.rollout_depth < 0 or self.exploration < 0 or self.prior < 0
                or self.expand_after < 1):
            raise ValueError("a search budget needs simulations, expand_after >= 1 and rollout_depth, exploration, "
                             f"prior >= 0, not {self}")
        if self.root not in ROOT_RULES:
            raise ValueError(f"root must be one of {ROOT_RULES}, not {self.root!r}")
        if self.playout not in PLAYOUT_KINDS:
            raise ValueError(f"playout must be one of {PLAYOUT_KINDS}, not {self.playout!r}")
        if self.time_limit is not None and self.time_limit <= 0:
            raise ValueError(f"time_limit must be > 0 seconds or None, not {self.time_limit}")


class _Node:
    """One information set in the tree: its edges by action, its visits and the deciding seat's value sum there,
    and the playout agent's own choice there (the hint)."""

    __slots__ = ("edges", "visits", "total", "hint")

    def __init__(self) -> None:
        self.edges: dict[int, _Edge] = {}
        self.visits = 0
        self.total = 0.0
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


def search(state: GameState, seat: int, budget: SearchBudget, rng: np.random.Generator,
           opponents: FieldPolicies | None = None) -> dict[int, tuple[int, float]]:
    """Search ``state`` for ``seat`` (whose decision it is); return each root action's (visits, mean value).

    ``opponents``: the field the other sides' playout moves come from, one member drawn per sampled world
    (:mod:`~issoku.agents.search.opponents`); by default the playout agent plays them too."""
    if state.current_seat() != seat:
        raise ValueError(f"search for seat {seat}, but the decision is seat {state.current_seat()}'s")
    root = quiet_copy(state)
    legal = root.legal_actions()
    if len(legal) == 1:
        return {legal[0]: (0, 0.0)}
    uniform = random.Random(int(rng.integers(2**63 - 1))).random
    choose = chooser_for(state, budget, rng, uniform)
    if opponents is not None:
        choose = ModelledOpponents(choose, opponents, state.ruleset.seat_teams, seat, uniform)
    tree = _Node()
    deadline = None if budget.time_limit is None else time.perf_counter() + budget.time_limit
    if budget.root == "halving":
        _halve(tree, root, seat, legal, budget, rng, choose, deadline)
    else:
        for done in range(budget.simulations):
            if deadline is not None and done and time.perf_counter() > deadline:
                break
            _simulate(tree, _new_world(root, seat, rng, choose), budget, choose)
    edges = tree.edges
    return {action: (edges[action].visits, edges[action].total / max(1, edges[action].visits))
            for action in legal if action in edges}


def _new_world(root: GameState, seat: int, rng: np.random.Generator, choose: Chooser) -> GameState:
    """A sampled world (:func:`~issoku.agents.search.worlds.sample_world`), with the opponent it meets drawn anew
    where the playouts model a field (:meth:`~issoku.agents.search.opponents.ModelledOpponents.redraw`)."""
    if isinstance(choose, ModelledOpponents):
        choose.redraw()
    return sample_world(root, seat, rng)


def _halve(tree: _Node, root: GameState, seat: int, legal: list[int], budget: SearchBudget,
           rng: np.random.Generator, choose: Chooser, deadline: float | None) -> None:
    """Sequential halving at the root on common worlds (Karnin, Koren and Somekh 2013; the root of Gumbel MuZero).

    Dice decide most fights, so two actions simulated on different dice differ mostly by luck. Here each round
    samples worlds and plays every surviving action on each of them (clones of one world: the same dice stream,
    the same redrawn secrets), below the root by the tree's own rule; the actions are ranked by their mean value
    over the same worlds, and the worse half is dropped. The playout agent's own choice survives to the last
    round, so the search leaves it only for an action that beat it on the same worlds. The final action has
    the most visits (the last round's survivors all have the same), then the best mean."""
    hint = choose(root, seat)
    alive = _candidates(root, seat, legal, hint, budget.simulations, rng)
    spent = 0
    while True:
        rounds = max(1, math.ceil(math.log2(len(alive))))  # this one and those left: what is left is shared out
        share = max(1, (budget.simulations - spent) // (rounds * len(alive)))
        for _ in range(share):
            if deadline is not None and spent and time.perf_counter() > deadline:
                return
            world = _new_world(root, seat, rng, choose)
            for action in alive:
                _simulate(tree, world.clone(), budget, choose, first=action)
            spent += len(alive)
        if len(alive) <= 2 or spent >= budget.simulations:
            if len(alive) == 2 and hint in alive:
                other = alive[0] if alive[1] == hint else alive[1]
                edges = tree.edges
                if edges[other].total <= edges[hint].total:  # a tie is no evidence: keep the agent's choice
                    edges[hint].visits += 1
            return
        edges = tree.edges
        alive.sort(key=lambda action: (-edges[action].total / edges[action].visits, action != hint, action))
        keep = alive[:max(2, len(alive) // 2)]
        if hint in alive and hint not in keep:
            keep[-1] = hint
        alive = keep


def root_width(simulations: int) -> int:
    """The most root actions sequential halving can judge with ``simulations``: ``n`` such that every round (about
    ``n`` simulations each, ``ceil(log2 n)`` rounds) gives each surviving action at least one sampled world."""
    width = 2
    while (width + 1) * math.ceil(math.log2(width + 1)) <= simulations:
        width += 1
    return width


SCREEN_SAMPLES = 2
"""Sampled worlds per action when the root has more legal actions than halving can judge (:func:`_candidates`)."""


def _candidates(root: GameState, seat: int, legal: list[int], hint: int, simulations: int,
                rng: np.random.Generator) -> list[int]:
    """The root actions halving judges: all of them when the budget allows (:func:`root_width`), else the playout
    agent's own choice and the others that a one-step look-ahead on :data:`SCREEN_SAMPLES` worlds each rates best,
    in legal order.

    Why: with more legal actions than simulations (an encounter attack and its raises: about 50 actions), one round
    of one world each spends the whole budget, and the most visited action is then whichever drew the luckiest
    world. A short look-ahead (play until the other side has answered, score the health) is far cheaper than a
    playout, and it screens out the actions that lose at once; halving then judges the rest on several worlds each.
    Its draws depend only on the number of legal actions, so two states the seat cannot tell apart draw alike."""
    width = root_width(simulations)
    if len(legal) <= width:
        return list(legal)
    means = look_ahead(root, seat, SCREEN_SAMPLES, rng)
    kept = set(sorted((action for action in legal if action != hint), key=lambda action: (-means[action], action))
               [:width - 1])
    return [action for action in legal if action == hint or action in kept]


def best_action(statistics: dict[int, tuple[int, float]]) -> int:
    """The action visited most; ties go to the higher mean value, then to the lower action number."""
    return max(statistics, key=lambda action: (statistics[action][0], statistics[action][1], -action))


def _simulate(node: _Node, world: GameState, budget: SearchBudget, choose: Chooser, first: int | None = None) -> None:
    """One simulation: select down the tree, expand one action, play out, back the values up (``first``: the root
    action to take, chosen by the caller).

    An action not tried yet at a node scores as the node's mean value so far (first-play urgency) plus the
    exploration term at no visits, so a node with more legal actions than the budget has simulations (an encounter
    attack and its raises) still spends them on the promising ones instead of trying each once."""
    path: list[tuple[_Node, _Edge, int]] = []
    c, prior = budget.exploration, budget.prior
    while True:
        seat = world.current_seat()
        if seat is None:
            break
        legal = world.legal_actions()
        edges = node.edges
        if prior and node.hint is None:
            node.hint = choose(world, seat)
        node.visits += 1
        untried = node.total / (node.visits - 1) if node.visits > 1 else 0.0
        untried_bonus = c * math.sqrt(math.log(node.visits))
        best, best_score, best_edge = legal[0], -math.inf, None
        for action in (legal if first is None else (first,)):
            edge = edges.get(action)
            if edge is None:
                score, visits = untried + untried_bonus, 0
            else:
                edge.available += 1
                visits = edge.visits
                score = edge.total / visits + c * math.sqrt(math.log(edge.available) / (visits + 1))
            if action == node.hint:
                score += prior / (1 + visits)
            if score > best_score:
                best, best_score, best_edge = action, score, edge
        first = None
        world.apply(best)
        if best_edge is None:
            best_edge = edges[best] = _Edge()
            best_edge.available = 1
            path.append((node, best_edge, seat))
            break
        path.append((node, best_edge, seat))
        after = world.current_seat()
        if after is None or best_edge.visits < budget.expand_after:
            break
        key = (after, world.observation(after).tobytes())
        below = best_edge.below.get(key)
        if below is None:
            below = best_edge.below[key] = _Node()
        node = below
    values = playout(world, budget.rollout_depth, choose)
    for visited, edge, seat in path:
        visited.total += values[seat]
        edge.visits += 1
        edge.total += values[seat]
