"""How a search plays a sampled world on past its tree: uniformly random, or the ruleset's best scripted agent.

Random playouts know nothing of a system's long game (the distance ladder of Ma and Blade, a tempo fighter's
AP over a round), so at a few hundred simulations they rate positions poorly. Playing the playouts with the
strongest scripted agent that fits the ruleset makes the search a policy improvement over that agent: every
action at the top of the tree is still tried and judged by what follows, so an option the scripted agent never
takes (a costed stance) is chosen whenever it pays, but what follows is played as a competent fighter would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from issoku.agents.scripted_from_state import state_chooser
from issoku.envs.adapter import legal_mask
from issoku.rules.kernel.protocol import GameState

Chooser = Callable[[GameState, int], int]
"""``choose(world, seat) -> action``: the playout's move for ``seat``, whose decision it is in ``world``."""

SCRIPTED_PLAYOUTS = ("ma_heuristic", "breath_heuristic", "tempo_heuristic", "tempo_focus_fire", "encounter_heuristic",
                     "encounter_focus_fire")
"""The scripted agents playouts use, strongest first: the first that builds for a ruleset plays every seat."""

PLAYOUT_KINDS = ("scripted", "random")


def random_chooser(uniform: Callable[[], float]) -> Chooser:
    """Uniformly random legal actions, drawn from ``uniform`` (a ``random.Random().random``)."""

    def choose(world: GameState, seat: int) -> int:
        legal = world.legal_actions()
        return legal[int(uniform() * len(legal))]

    return choose


def scripted_agent(ruleset: Any, seed: int) -> Any | None:
    """The first agent of :data:`SCRIPTED_PLAYOUTS` that builds for ``ruleset``, or None."""
    from issoku.agents.registry import make_policy

    for name in SCRIPTED_PLAYOUTS:
        try:
            return make_policy(name, seed=seed, ruleset=ruleset)
        except (TypeError, ValueError, KeyError):
            continue
    return None


def scripted_chooser(agent: Any) -> Chooser:
    """Moves of the scripted ``agent``, which reads the seat's observation and mask like any policy; an agent whose
    view can be read from the state (:func:`~issoku.agents.scripted_from_state.state_chooser`: the Ma, tempo and
    encounter duelists) is played that way, skipping the observation's encoding and decoding that would otherwise
    cost a third to a half of a playout."""
    direct = state_chooser(agent)
    if direct is not None:
        return direct

    def choose(world: GameState, seat: int) -> int:
        size = len(world.ruleset.action_names)
        return int(agent(world.observation(seat), legal_mask(world.legal_actions(), size)))

    return choose
