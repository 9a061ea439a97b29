"""Search agents as policies: they decide from the game state, seen through what their seat may know.

A policy is ``(observation, action_mask) -> action`` (:mod:`issoku.agents.policy`); a search agent also needs
the state to search from. Whoever runs the game hands it a way to read that state before the first decision,
``agent.watch(state_of)`` (:func:`issoku.agents.state_reading.watch_state`; the tournaments, ``issoku play``,
``issoku view``, head-to-head and engine-level play all do), and the agent checks at every decision that the
mask it was given is the state's legal set. It never uses the state as it is: every playout starts from a
sampled world (:mod:`issoku.agents.search.worlds`).

The registered rungs (``random`` < ``one_step`` < ``mcts_small`` < ``mcts_large``, measured in docs/agents.md):

- ``one_step``: :mod:`~issoku.agents.search.lookahead`, 8 sampled worlds per action;
- ``mcts_small``: :mod:`~issoku.agents.search.mcts`, 50 simulations a decision;
- ``mcts_large``: 400 simulations a decision, the strongest rung (about a third of a second a decision in the Ma duel
  on one core: ``python -m benchmarks --sections search`` measures it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from issoku.agents.search import lookahead, mcts, opponents, playouts, worlds
from issoku.agents.search.lookahead import look_ahead
from issoku.agents.search.mcts import SearchBudget, best_action, search
from issoku.agents.search.opponents import FieldPolicies, OpponentField
from issoku.rules.kernel.protocol import GameState

SEARCH_MODULES = (lookahead, mcts, opponents, playouts, worlds)
"""Every module a search agent's decisions depend on. Named here because the lab keys stored games by the code
fingerprint of an agent's factory, which covers the modules its own module imports
(:func:`issoku.evaluation.games.policies.code_fingerprint`): an edit to the playouts or the world sampling then makes
the rungs play their games anew instead of reusing the old version's."""

StateSource = Callable[[], GameState]
"""Returns the state of the game being played now (``lambda: env.unwrapped.game_state``)."""


class NotWatchingError(RuntimeError):
    """A search agent was asked to decide without a state to read, or with a mask from another game."""


class StateSearcher:
    """The part every search agent shares: its seeded generator, the state it watches, the mask check."""

    reads_state = True
    """Marks a policy that decides from the game state (:func:`issoku.agents.state_reading.watch_state` hands it one)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(seed)
        self._state_of: StateSource | None = None

    def seed(self, seed: int | None) -> None:
        """Restart the generator (one seed fixes every decision of a game)."""
        self._rng = np.random.default_rng(seed)

    def watch(self, state_of: StateSource) -> None:
        """Read the game's state through ``state_of`` at each decision."""
        self._state_of = state_of

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if self._state_of is None:
            raise NotWatchingError(
                f"{type(self).__name__} searches the game state: call watch(lambda: env.unwrapped.game_state) "
                "before play (issoku's game loops do it for you)")
        state = self._state_of()
        seat = state.current_seat()
        legal = state.legal_actions()
        if seat is None or len(legal) != int(np.count_nonzero(action_mask)) or not all(action_mask[legal]):
            raise NotWatchingError(f"{type(self).__name__} was handed a mask that is not the legal set of the state "
                                   "it watches: watch() the env whose decision this is")
        return self.decide(state, seat)

    def decide(self, state: GameState, seat: int) -> int:
        """The action for ``seat``, whose decision it is in ``state``."""
        raise NotImplementedError


class OneStepLookahead(StateSearcher):
    """One move ahead on sampled worlds (:func:`~issoku.agents.search.lookahead.look_ahead`)."""

    def __init__(self, seed: int | None = None, samples: int = 8) -> None:
        super().__init__(seed)
        self.samples = samples

    def decide(self, state: GameState, seat: int) -> int:
        means = look_ahead(state, seat, self.samples, self._rng)
        return max(means, key=lambda action: (means[action], -action))


class MCTS(StateSearcher):
    """Information-set MCTS with sampled chance (:func:`~issoku.agents.search.mcts.search`) at ``budget``.

    With ``opponents`` (an :class:`~issoku.agents.search.opponents.OpponentField`) its playouts meet that field
    instead of the scripted agent: a search best response to it (a hunt's oracle). The field's policies are built
    at the first decision, for the ruleset being played, and kept for the game."""

    def __init__(self, seed: int | None = None, budget: SearchBudget | None = None,
                 opponents: OpponentField | None = None, **budget_fields: Any) -> None:
        super().__init__(seed)
        self.budget = budget if budget is not None else SearchBudget(**budget_fields)
        self.opponents = opponents
        self._field: FieldPolicies | None = None

    def seed(self, seed: int | None) -> None:
        super().seed(seed)
        self._field = None

    def decide(self, state: GameState, seat: int) -> int:
        if self.opponents is not None and self._field is None:
            self._field = self.opponents.build(int(self._rng.integers(2**31)), state.ruleset)
        return best_action(search(state, seat, self.budget, self._rng, self._field))


SMALL_SIMULATIONS = 50
LARGE_SIMULATIONS = 400


def searches_state(factory: Callable[..., MCTS]) -> Callable[..., MCTS]:
    """Mark a factory whose policies read the game state (as :attr:`StateSearcher.reads_state` marks the classes),
    so the registry can tell a search agent from a scripted one by name, before building it."""
    factory.reads_state = True  # type: ignore[attr-defined]
    return factory


@searches_state
def mcts_small(seed: int | None = None) -> MCTS:
    """The small rung: 50 simulations a decision."""
    return MCTS(seed, SearchBudget(simulations=SMALL_SIMULATIONS))


@searches_state
def mcts_large(seed: int | None = None) -> MCTS:
    """The large rung: 400 simulations a decision."""
    return MCTS(seed, SearchBudget(simulations=LARGE_SIMULATIONS))
