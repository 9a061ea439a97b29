"""What a search spends, per env: state copies per second and MCTS simulations per second, beside OpenSpiel.

A search agent copies the state it searches from thousands of times per decision (every sampled world, every
root action's replay of it) and plays each copy on. Two rows per ruleset, on the positions of
:func:`benchmarks.search_speed.positions`:

- ``clone``: copies of an event-free state (the search's root, :func:`~issoku.agents.search.worlds.quiet_copy`);
- ``simulation``: :func:`~issoku.agents.search.mcts.search` at :data:`SIMULATIONS` simulations a decision, its
  defaults otherwise (scripted playouts to the end of the fight); the rate counts the simulations the search
  ran (its root visits), so the seconds of one decision are ``SIMULATIONS`` over it.

The anchor, measured in the same run, is OpenSpiel's C++ ``connect_four`` (the AEC rows' baseline game): its
``clone()`` and its ``MCTSBot`` (UCT, one random rollout per simulation). OpenSpiel is an optional extra
(``pip install -e .[bench]``); without it the anchor rows are left out and :func:`anchor_missing` says why.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from benchmarks.search_speed import positions
from benchmarks.timing import Stopwatch, Timing

SIMULATIONS = 200
"""Simulations per timed decision: the issue's Ma duel budget (0.2 s a decision on one core)."""
COPIES_PER_POSITION = 200
"""State copies timed per position in a ``clone`` sample."""
ANCHOR = "open_spiel connect_four"
"""The label of OpenSpiel's rows."""
ANCHOR_GAME = "connect_four"
ANCHOR_OPENING = 6
"""Random moves played into a connect four game before a timed decision (as the issoku positions are)."""


def clones(ruleset: Any, count: int, seed: int = 0) -> Timing:
    """``count * COPIES_PER_POSITION`` copies of event-free states, ``COPIES_PER_POSITION`` per position."""
    from issoku.agents.search.worlds import quiet_copy

    roots = [quiet_copy(state) for state in positions(ruleset, count, seed)]
    with Stopwatch() as watch:
        for root in roots:
            for _ in range(COPIES_PER_POSITION):
                root.clone()
    return watch.timing(len(roots) * COPIES_PER_POSITION)


def simulations(ruleset: Any, count: int, seed: int = 0) -> Timing:
    """The simulations of ``count`` searches of :data:`SIMULATIONS` each, one per position (the seat to move's)."""
    from issoku.agents.search.mcts import SearchBudget, search

    states = [state for state in positions(ruleset, count, seed) if len(state.legal_actions()) > 1]
    budget = SearchBudget(simulations=SIMULATIONS)
    done = 0
    with Stopwatch() as watch:
        for index, state in enumerate(states):
            found = search(state, state.current_seat(), budget, np.random.default_rng(seed * 1000 + index))
            done += sum(visits for visits, _ in found.values())
    return watch.timing(done)


def anchor_missing() -> str | None:
    """Why OpenSpiel's anchor cannot be measured here, or None when it can."""
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.algorithms import mcts  # noqa: F401
    except ImportError as error:
        return f"OpenSpiel is not installed ({error}); pip install -e .[bench] adds it where a wheel exists"
    return None


def _anchor_positions(count: int, seed: int) -> list[Any]:
    import pyspiel

    game = pyspiel.load_game(ANCHOR_GAME)
    rng = np.random.default_rng(seed)
    states = []
    for _ in range(count):
        state = game.new_initial_state()
        for _ in range(int(rng.integers(ANCHOR_OPENING + 1))):
            state.apply_action(int(rng.choice(state.legal_actions())))
        states.append(state)
    return states


def anchor_clones(count: int, seed: int = 0) -> Timing:
    """OpenSpiel's connect four: ``clone()`` timed as :func:`clones` times issoku's."""
    states = _anchor_positions(count, seed)
    with Stopwatch() as watch:
        for state in states:
            for _ in range(COPIES_PER_POSITION):
                state.clone()
    return watch.timing(len(states) * COPIES_PER_POSITION)


def anchor_simulations(count: int, seed: int = 0) -> Timing:
    """OpenSpiel's ``MCTSBot`` on connect four, :data:`SIMULATIONS` simulations (one random rollout each) a decision."""
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(ANCHOR_GAME)
    states = _anchor_positions(count, seed)
    with Stopwatch() as watch:
        for index, state in enumerate(states):
            rng = np.random.RandomState(seed * 1000 + index)
            bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=SIMULATIONS,
                               evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
            bot.step(state)
    return watch.timing(len(states) * SIMULATIONS)
