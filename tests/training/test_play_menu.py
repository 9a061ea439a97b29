"""Terminal play's menu prices each action as the rules charge it (the states' ``action_cost`` hook), and
the play shows the legend of the picture's bars once."""

import numpy as np
import pytest

from issoku.envs.registry import resolve_env
from issoku.training.play import LEGEND, priced

PAID_AT_ONCE = {"attack", "reserve", "stance", "kata"}  # orders whose Energy is paid when chosen (BR-045, 018, 078, 010)


def _walk(env_id, seeds, visit, **kwargs):
    """Random legal play of ``env_id``'s rules; ``visit(env, state)`` at every decision."""
    env = resolve_env(env_id)(**kwargs)
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = env.unwrapped.ruleset.new_initial_state(seed)  # with its event log
        while state.current_seat() is not None:
            visit(env.unwrapped, state)
            state.apply(int(rng.choice(state.legal_actions())))


@pytest.mark.rule("BR-045", "BR-018", "BR-078", "BR-010")
@pytest.mark.parametrize("ma", [False, True])
def test_a_breath_menu_price_is_the_energy_the_engine_charges(ma):
    checked = []

    def visit(env, state):
        seat = state.current_seat()
        for action in state.legal_actions():
            slot = env.ruleset.slots[action]
            if slot.kind not in PAID_AT_ONCE:
                continue
            after = state.clone()
            after.apply(action)
            spent = [event.data["cost"] for event in list(after.events)[len(state.events):]
                     if event.kind == "energy_spent" and event.actor == seat]
            assert state.action_cost(action) == f"{spent[0] if spent else 0} Energy", slot
            checked.append(slot.kind)

    _walk("breath_duel_v0", range(3), visit, ma=ma)
    assert {"attack", "reserve"} <= set(checked)


@pytest.mark.rule("TP-004", "TP-005", "TP-006")
def test_a_tempo_menu_price_is_the_ap_the_engine_charges():
    checked = []

    def visit(env, state):
        seat = state.current_seat()
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action)
            paid = [event.data["extra" if event.kind == "counter_tempo" else "cost"]
                    for event in list(after.events)[len(state.events):]
                    if event.kind in ("declare", "react", "counter_tempo") and event.actor == seat]
            assert state.action_cost(action) == f"{paid[0] if paid else 0} AP", env.ruleset.action_names[action]
            checked.append(state.decision_kind())

    _walk("tempo_duel_v0", range(3), visit)
    assert {"act", "react"} <= set(checked)


def test_a_menu_entry_shows_its_price_or_just_its_name():
    env = resolve_env("breath_duel_v0")()
    env.reset(seed=1)
    state = env.unwrapped.game_state
    names = env.unwrapped.ruleset.action_names
    entries = [priced(env.unwrapped, action, names[action]) for action in state.legal_actions()]
    assert any(entry.endswith(" Energy)") for entry in entries)
    assert "end_breath" not in names or all("(" not in e for e in entries if e.startswith("end_breath"))
    assert "E[...]" in LEGEND and "W[...]" in LEGEND and "G[...]" in LEGEND


def test_a_person_can_play_a_registered_search_agent_on_an_env():
    """``issoku play mcts_small --env tempo_duel_v0``: the agent is handed the game state; the fight ends."""
    from issoku.training.play import play

    lines = []
    result = play("mcts_small", seat=0, seed=3, choose=lambda menu: menu[-1][0], write=lines.append,
                  env_id="tempo_duel_v0")
    assert result in (-1.0, 0.0, 1.0)
    assert any("(agent) plays" in line for line in lines) and lines[-1].startswith("fight over")
