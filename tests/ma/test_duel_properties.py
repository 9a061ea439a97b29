"""Invariants of the Ma and Blade duel under random legal play, across its options."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from issoku.rules.breath.ruleset import BreathConfig, FighterSpec
from issoku.rules.kernel.protocol import IllegalActionError
from issoku.rules.ma.config import DuelMode, MaDuelConfig
from issoku.rules.ma.duel import ma_duel
from issoku.rules.ma.ladder import DuelKind, Rung

CONFIGS = [
    MaDuelConfig(),
    MaDuelConfig(kind=DuelKind.HATASHIAI, stage="narrow_path"),
    MaDuelConfig(kind=DuelKind.HATASHIAI, stage="backlight", step_in_edge=True),
    MaDuelConfig(mode=DuelMode.SPARRING, stage="high_ground"),
    MaDuelConfig(stage="sandbar", hit_locations=False, long_weapon_opening=True),
]
MATCHUPS = [
    (FighterSpec("kenshi", 0), FighterSpec("ronin", 1)),
    (FighterSpec("ashigaru", 0), FighterSpec("wildman", 1)),
    (FighterSpec("shinobi", 0), FighterSpec("mikkyo_monk", 1)),
]
RULESETS = {(c, m): ma_duel(CONFIGS[c], BreathConfig(fighters=MATCHUPS[m]))
            for c in range(len(CONFIGS)) for m in range(len(MATCHUPS))}


def random_play(ruleset, seed, max_steps=400, check=None):
    rng = np.random.default_rng(seed)
    state = ruleset.new_initial_state(seed)
    for _ in range(max_steps):
        if state.is_over():
            break
        legal = state.legal_actions()
        assert legal and legal == sorted(legal)
        if check is not None:
            check(state)
        state.apply(int(rng.choice(legal)))
    return state


@pytest.mark.rule("MA-002", "MA-010")
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), config=st.integers(0, len(CONFIGS) - 1),
       matchup=st.integers(0, len(MATCHUPS) - 1))
def test_the_ladder_stays_on_its_rungs_and_both_duelists_see_the_same_rung(seed, config, matchup):
    ruleset = RULESETS[(config, matchup)]
    module = ruleset.modules[0]
    spec = ruleset.observation_spec
    low, high = spec.bounds()

    def check(state):
        ladder = module.data(state).ladder
        assert ladder.farthest <= ladder.rung <= Rung.TSUBAZERIAI
        views = [state.observation(seat) for seat in (0, 1)]
        for view in views:
            assert view.dtype == np.float32 and np.all(view >= low) and np.all(view <= high)
            rung = view[spec.slice("ma_rung")]
            assert rung.sum() == 1.0 and rung[ladder.rung] == 1.0
        assert np.array_equal(views[0][spec.slice("ma_rung")], views[1][spec.slice("ma_rung")])

    random_play(ruleset, seed, check=check)


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_every_legal_action_is_accepted_and_others_rejected(config):
    ruleset = RULESETS[(config, 0)]
    rng = np.random.default_rng(config)
    state = ruleset.new_initial_state(config)
    for _ in range(60):
        if state.is_over():
            break
        legal = state.legal_actions()
        for action in legal:
            state.clone().apply(action)
        illegal = [a for a in range(len(ruleset.action_names)) if a not in legal]
        for action in rng.choice(illegal, size=min(5, len(illegal)), replace=False):
            with pytest.raises(IllegalActionError):
                state.clone().apply(int(action))
        state.apply(int(rng.choice(legal)))


@pytest.mark.parametrize("config", range(len(CONFIGS)))
def test_clone_and_seed_reproduce_the_same_log(config):
    ruleset = RULESETS[(config, 0)]
    first = random_play(ruleset, 7)
    assert random_play(ruleset, 7).events.to_jsonl() == first.events.to_jsonl()
    rng = np.random.default_rng(1)
    state = ruleset.new_initial_state(3)
    for _ in range(30):
        if state.is_over():
            break
        state.apply(int(rng.choice(state.legal_actions())))
    twin = state.clone()
    actions = []
    while not state.is_over() and len(actions) < 200:
        actions.append(int(rng.choice(state.legal_actions())))
        state.apply(actions[-1])
    for action in actions:
        twin.apply(action)
    assert twin.events.to_jsonl() == state.events.to_jsonl()


def test_random_duels_end():
    ends = [random_play(RULESETS[(0, 0)], seed, max_steps=5000).is_over() for seed in range(10)]
    assert all(ends)
