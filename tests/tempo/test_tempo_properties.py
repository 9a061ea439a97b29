"""Invariants over random legal play: never stuck, AP and Health in bounds, masks honest, observations in
bounds, clones faithful, the same seed giving the same event log (in this process and a fresh one)."""

import subprocess
import sys
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from issoku.rules.kernel import IllegalActionError
from issoku.rules.tempo import TempoConfig, TempoDuel, load_roster
from issoku.rules.tempo.actions import PASS

ROSTER = load_roster()
PAIRS = sorted(product(ROSTER.fighters, repeat=2))
RULESETS = {pair: TempoDuel(TempoConfig(pair), roster=ROSTER) for pair in PAIRS}
LOW, HIGH = TempoDuel().observation_spec.bounds()


def random_game(ruleset, seed, choice_seed, record_events=True, check=None):
    state = ruleset.new_initial_state(seed, record_events=record_events)
    rng = np.random.default_rng(choice_seed)
    steps = 0
    while state.current_seat() is not None:
        legal = state.legal_actions()
        if check is not None:
            check(state, legal)
        state.apply(legal[rng.integers(len(legal))])
        steps += 1
    return state, steps


def _invariants(state, legal):
    rules = state.ruleset
    assert legal and legal[0] == PASS and legal == sorted(set(legal))
    assert state.decision_kind() in rules.decision_kinds
    assert all(0 <= ap <= rules.ap_per_round for ap in state.ap)
    assert all(hp <= rules.loadouts[seat][0].max_health for seat, hp in enumerate(state.hp))
    assert not state.is_terminal() and not state.is_truncated()
    for seat in (0, 1):
        obs = state.observation(seat)
        assert obs.shape == LOW.shape and obs.dtype == np.float32
        assert np.all(obs >= LOW) and np.all(obs <= HIGH)
    illegal = next((a for a in range(len(rules.action_names)) if a not in legal), None)
    if illegal is not None:
        with pytest.raises(IllegalActionError):
            state.apply(illegal)
        assert state.legal_actions() == legal


@settings(max_examples=40, deadline=None)
@given(pair=st.sampled_from(PAIRS), seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1),
       initiator=st.sampled_from([None, 0, 1]), start=st.integers(1, 12))
def test_random_play_is_never_stuck_and_stays_in_bounds(pair, seed, choice_seed, initiator, start):
    ruleset = TempoDuel(TempoConfig(pair, initiator, start), roster=ROSTER)
    state, _ = random_game(ruleset, seed, choice_seed, check=_invariants)
    assert state.is_terminal() != state.is_truncated()
    assert sum(state.returns()) == 0


@settings(max_examples=25, deadline=None)
@given(pair=st.sampled_from(PAIRS), seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_event_log(pair, seed, choice_seed):
    first, _ = random_game(RULESETS[pair], seed, choice_seed)
    second, _ = random_game(RULESETS[pair], seed, choice_seed)
    assert first.events.to_jsonl() == second.events.to_jsonl()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), choice_seed=st.integers(0, 2**32 - 1), cut=st.integers(0, 60))
def test_a_clone_plays_the_same_future(seed, choice_seed, cut):
    state = TempoDuel().new_initial_state(seed)
    rng = np.random.default_rng(choice_seed)
    for _ in range(cut):
        if state.current_seat() is None:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    twin = state.clone()
    while state.current_seat() is not None:
        legal = state.legal_actions()
        assert twin.legal_actions() == legal
        choice = legal[rng.integers(len(legal))]
        state.apply(choice)
        twin.apply(choice)
    assert twin.events.to_jsonl() == state.events.to_jsonl()


def test_event_log_is_identical_in_a_fresh_process():
    code = ("import numpy as np\n"
            "from issoku.rules.tempo import TempoConfig, TempoDuel\n"
            "s = TempoDuel(TempoConfig(('spearman', 'brawler'))).new_initial_state(123)\n"
            "rng = np.random.default_rng(9)\n"
            "while s.current_seat() is not None:\n"
            "    legal = s.legal_actions(); s.apply(legal[rng.integers(len(legal))])\n"
            "print(s.events.to_jsonl(), end='')\n")
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            for _ in range(2)]
    assert runs[0] == runs[1] and runs[0].count("\n") > 20


def test_two_thousand_random_games_finish():
    outcomes = {"decided": 0, "truncated": 0}
    for game in range(2000):
        state, steps = random_game(RULESETS[PAIRS[game % len(PAIRS)]], game, game + 1, record_events=False)
        assert steps > 0 and state.current_seat() is None and state.legal_actions() == []
        outcomes["decided" if state.is_terminal() else "truncated"] += 1
    assert outcomes["decided"] > 1000


@settings(max_examples=5, deadline=None)
@given(pair=st.sampled_from(PAIRS), seed=st.integers(0, 2**32 - 1))
def test_every_masked_in_action_is_accepted_and_every_other_rejected(pair, seed):
    state = RULESETS[pair].new_initial_state(seed, record_events=False)
    rng = np.random.default_rng(seed)
    for _ in range(150):
        if state.current_seat() is None:
            break
        legal = state.legal_actions()
        for flat in range(len(state.ruleset.action_names)):
            trial = state.clone()
            if flat in legal:
                trial.apply(flat)
            else:
                with pytest.raises(IllegalActionError):
                    trial.apply(flat)
        state.apply(legal[rng.integers(len(legal))])
