"""Properties over random play: legality is the mask, clones replay, observations stay in bounds, and
every EN rule the engine implements is named by a test."""

import re
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from issoku.envs import encounter_duel_v0
from issoku.rules.encounters import ACTION_NAMES, EncounterConfig, EncounterDuel
from issoku.rules.encounters.actions import CODEC, ORDERS

from tests.envs.mask_property import play_checking_masks

HERE = Path(__file__).parent
IMPLEMENTED = (
    [f"EN-{n:03d}" for n in (*range(1, 19), 20, 22, 23, 27, 29, 30, 31)]
    + [f"EN-{n:03d}" for n in range(35, 82) if n != 38]
    + [f"EN-{n:03d}" for n in (83, 85, 86, 87, 88, 89, 90, 91, 93, 94, 95, 97, 99, 101, 102, 103, 104, 105, 106,
                                107, 108, 109, 112, 113, 116, 117, 118, 119, 121, 122)]
    + [f"EN-T{n:02d}" for n in range(1, 13)] + [f"EN-D{n:02d}" for n in range(1, 6)]
    + [f"EN-G{n:02d}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 10, 13, 15, 16, 18, 19)]
    + [f"EN-A{n:02d}" for n in range(1, 12)]
)


def test_every_implemented_en_rule_is_named_by_a_test():
    text = "".join(path.read_text() for path in HERE.glob("*.py") if path.name != Path(__file__).name)
    text += (HERE.parents[1] / "tests" / "envs" / "test_env_encounter_duel_v0.py").read_text()
    named = set(re.findall(r"EN-[0-9TGDA]\d+", text))
    missing = [rule for rule in IMPLEMENTED if rule not in named]
    assert not missing, f"rules without a test: {missing}"


def test_action_codec_round_trips_and_derives_its_size():
    assert len(ACTION_NAMES) == len(ORDERS) == len(set(ACTION_NAMES))
    for flat, order in enumerate(ORDERS):
        assert CODEC.decode(CODEC.encode(order)) == order and CODEC.by_name(ACTION_NAMES[flat]) == flat


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), policy_seed=st.integers(0, 1000),
       pair=st.sampled_from([("kenshi", "ono_brute"), ("tonfa_monk", "archer"), ("yari_guard", "bandit"),
                             ("kusari_fighter", "tonfa_monk")]), focused_attack=st.booleans())
def test_masked_in_accepted_masked_out_rejected(seed, policy_seed, pair, focused_attack):
    env = encounter_duel_v0.env(pair, start_distance=2, focused_attack=focused_attack, illegal_action="raise")
    play_checking_masks(env, seed, policy_seed, max_decisions=120)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 60))
def test_a_clone_replays_the_same_future_and_observations_stay_in_bounds(seed, cut):
    ruleset = EncounterDuel(EncounterConfig(start_distance=1))
    state = ruleset.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(cut):
        if state.current_seat() is None:
            return
        state.apply(int(rng.choice(state.legal_actions())))
    twin = state.clone()
    moves = np.random.default_rng(seed + 1)
    for _ in range(300):
        if state.current_seat() is None:
            break
        for seat in (0, 1):
            obs = state.observation(seat)
            assert obs.shape == (ruleset.observation_spec.size,) and 0 <= obs.min() and obs.max() <= 1
        choice = int(moves.choice(state.legal_actions()))
        state.apply(choice)
        twin.apply(choice)
    assert state.events.to_jsonl() == twin.events.to_jsonl()


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 40))
def test_a_clone_copies_every_slot_of_the_state_and_its_fighters(seed, cut):
    """The clones name their fields one by one (compiled classes keep no ``__slots__`` to loop over): a field added
    to ``__slots__`` and not to ``clone`` fails here, before it shows as a wrong replay."""
    state = EncounterDuel(EncounterConfig(start_distance=1)).new_initial_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(cut):
        if state.current_seat() is None:
            break
        state.apply(int(rng.choice(state.legal_actions())))
    twin = state.clone()
    for original, copy in [(state, twin), *zip(state.fighters, twin.fighters)]:
        for name in type(original).__slots__:
            if name not in ("events", "_dice", "fighters"):  # cloned objects of their own, compared by replay above
                assert getattr(copy, name) == getattr(original, name), name
