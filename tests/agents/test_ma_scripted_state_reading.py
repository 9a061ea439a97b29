"""The Ma duelists read a state as they read its observation: the same view, the same choice, so a search's
playouts (which call :meth:`MaScripted.choose`) play exactly as the agents play in an env."""

import random

import pytest

from issoku.agents.ma_scripted import MaAggressive, MaDefensive, MaDistanceKeeper, MaHeuristic
from issoku.envs.adapter import legal_mask
from issoku.envs.registry import make_env

AGENTS = (MaAggressive, MaDefensive, MaDistanceKeeper, MaHeuristic)
SETUPS = ({}, {"fighters": ["onmyoji", "diviner"]})


@pytest.mark.rule("MA-011", "MA-G01")
@pytest.mark.parametrize("setup", SETUPS, ids=("default", "casters"))
@pytest.mark.parametrize("agent_class", AGENTS, ids=lambda cls: cls.__name__)
def test_reading_the_state_gives_the_observations_view_and_choice(agent_class, setup):
    ruleset = make_env("breath_duel_v0", **setup).ruleset
    by_observation, by_state = agent_class(ruleset, seed=3), agent_class(ruleset, seed=3)
    size = len(ruleset.action_names)
    rng = random.Random(0)
    decisions = 0
    kinds = set()
    for fight in range(25):
        state = ruleset.new_initial_state(fight, record_events=False)
        while (seat := state.current_seat()) is not None:
            observation = state.observation(seat)
            view = by_observation.sight.read(observation)
            assert by_state.sight.read_state(state, seat) == view
            kinds.add(view.breath.kind)
            mask = legal_mask(state.legal_actions(), size)
            chosen = by_observation(observation, mask)
            assert by_state.choose(state, seat) == chosen
            legal = state.legal_actions()  # half the fight played by the agent, half at random: varied positions
            state.apply(chosen if rng.random() < 0.5 else legal[rng.randrange(len(legal))])
            decisions += 1
    assert decisions > 600 and {"breath", "defend", "resist"} <= kinds
