"""The scripted encounter fighters: registered, legal everywhere, and the heuristic beats random play.

The 500-duel figure is in docs/rules/encounters.md (``issoku head-to-head -a encounter_heuristic -o random
-n 500 --env encounter_duel_v0``); here a fixed sample is asserted loosely so the test stays fast.
"""

import random

import numpy as np
import pytest

from issoku.agents.encounter_scripted import SCRIPTED, expected_total, read
from issoku.agents.encounter_state_view import read_state
from issoku.agents.scripted_from_state import state_chooser
from issoku.agents.play import play_fight
from issoku.agents.registry import make_policy
from issoku.envs.adapter import legal_mask
from issoku.evaluation.strength.head_to_head import head_to_head
from issoku.rules.encounters import EncounterConfig, EncounterDuel


STANCE_AGENTS = [f"encounter_{stance}" for stance in ("air", "earth", "fire", "void", "water")]


@pytest.mark.parametrize("name", ["encounter_aggressive", "encounter_defensive", "encounter_heuristic", *STANCE_AGENTS])
def test_each_scripted_fighter_plays_legal_moves_to_an_end(name):
    for fighters in (("kenshi", "ono_brute"), ("archer", "tonfa_monk")):
        ruleset = EncounterDuel(EncounterConfig(fighters))
        for seed in range(5):
            state = play_fight(ruleset.new_initial_state(seed), [make_policy(name, seed=seed), make_policy(name)])
            assert state.current_seat() is None


def test_the_heuristic_clearly_beats_random_legal_play():
    result = head_to_head("encounter_heuristic", "random", 60, env="encounter_duel_v0")
    win = result.total.win_rate()
    assert win.value >= 0.9 and win.low > 0.8, result.summary()


def test_expected_pool_totals_are_fixed_and_ordered():
    assert expected_total(5, 3) == expected_total(5, 3)
    assert expected_total(3, 3) < expected_total(5, 3) < expected_total(5, 4)
    assert 16 < expected_total(3, 3) < 20          # three exploding d10s: 3 × 6.11
    assert set(SCRIPTED) == {"aggressive", "defensive", "heuristic"}


def test_the_heuristic_raises_only_what_its_roll_clears():
    from issoku.agents.encounter_scripted import Heuristic, View

    def view(atn):
        return View("act", "water", 0, 0, "water", atn, {}, (8, 3), 0.0)
    assert Heuristic().attack(view(60)) == "attack"
    assert Heuristic().attack(view(15)).startswith("attack:feint")


@pytest.mark.parametrize("name", STANCE_AGENTS)
def test_a_stance_archetype_takes_its_stance_whenever_it_may(name):
    """The balance study's stance archetypes (EN-005, EN-011): every stance decision picks the committed stance
    when it is legal (Prone and Stunned narrow the choice, EN-113, EN-121); in Earth stance the Earth defence
    (EN-062) is made first."""
    from issoku.rules.encounters.actions import ACTION_NAMES

    stance = name.removeprefix("encounter_")
    ruleset = EncounterDuel(EncounterConfig(("kenshi", "ono_brute")))
    chosen, earth_defended = [], False
    for seed in range(4):
        state = ruleset.new_initial_state(seed)
        agents = [make_policy(name, seed=seed), make_policy("encounter_heuristic", seed=seed)]
        while state.current_seat() is not None:
            seat = state.current_seat()
            legal = state.legal_actions()
            mask = np.zeros(len(ACTION_NAMES), dtype=np.int8)
            mask[legal] = 1
            action = int(agents[seat](state.observation(seat), mask))
            if seat == 0 and state.decision_kind() == "stance" and ACTION_NAMES.index(f"stance:{stance}") in legal:
                chosen.append(ACTION_NAMES[action])
            earth_defended |= seat == 0 and ACTION_NAMES[action] == "earth_defend"
            state.apply(action)
    assert chosen and set(chosen) == {f"stance:{stance}"}
    assert earth_defended == (stance == "earth")


@pytest.mark.rule("EN-109")
@pytest.mark.parametrize("name", ["encounter_aggressive", "encounter_defensive", "encounter_heuristic", "encounter_earth"])
def test_reading_the_state_gives_the_observations_view_and_choice(name):
    """A search's playouts read the state (:func:`~issoku.agents.scripted_from_state.state_chooser`): they must
    play exactly as the agent plays in an env (Endure read off the pending damage, EN-109, among the rest)."""
    by_observation, by_state = make_policy(name, seed=3), make_policy(name, seed=3)
    by_state_chooser = state_chooser(by_state)
    rng = random.Random(0)
    kinds = set()
    decisions = 0
    for game, fighters in enumerate((("kenshi", "ono_brute"), ("archer", "tonfa_monk"), ("yari_guard", "kenshi")) * 4):
        ruleset = EncounterDuel(EncounterConfig(fighters))
        state = ruleset.new_initial_state(game, record_events=False)
        while (seat := state.current_seat()) is not None:
            observation = state.observation(seat)
            view = read(observation)
            assert read_state(state, seat) == view
            kinds.add(view.decision)
            chosen = by_observation(observation, legal_mask(state.legal_actions(), len(ruleset.action_names)))
            assert by_state_chooser(state, seat) == chosen
            legal = state.legal_actions()  # half the fight played by the agent, half at random: varied positions
            state.apply(chosen if rng.random() < 0.5 else legal[rng.randrange(len(legal))])
            decisions += 1
    assert decisions > 300 and len(kinds) >= 4, kinds
