"""The feint is secret (TP-027, TP-G13): nothing the opponent observes or may do depends on it."""

import numpy as np
import pytest

from issoku.rules.tempo import TempoDuel
from tempo_helpers import duel, play


def _pair(declaration_faces=(10, 10, 9)):
    return duel(list(declaration_faces)), duel(list(declaration_faces))


def _opponent_view(state):
    return state.observation(1), state.legal_actions(), state.current_seat(), state.decision_kind(), list(state.ap)


@pytest.mark.rule("TP-G13", "TP-027")
def test_tp_g13_opponent_cannot_tell_a_feint_from_an_attack_when_reacting():
    feint, attack = _pair()
    play(feint, "proactive:feint")
    play(attack, "proactive:melee_attack")
    f_obs, f_legal, *f_rest = _opponent_view(feint)
    a_obs, a_legal, *a_rest = _opponent_view(attack)
    assert np.array_equal(f_obs, a_obs) and f_legal == a_legal and f_rest == a_rest


@pytest.mark.rule("TP-G13", "TP-047")
@pytest.mark.parametrize("reaction", ["react:parry", "react:counter_attack"])
def test_tp_g13_the_counter_decision_is_asked_either_way(reaction):
    # After a Parry only a feint has a replacement, yet a real attacker is asked too (its only option: pass),
    # so who decides next reveals nothing.
    feint, attack = _pair()
    play(feint, "proactive:feint", reaction)
    play(attack, "proactive:melee_attack", reaction)
    assert feint.decision_kind() == attack.decision_kind() == "counter"
    assert feint.current_seat() == attack.current_seat() == 0
    assert np.array_equal(feint.observation(1), attack.observation(1))


@pytest.mark.rule("TP-G13")
def test_tp_g13_the_declarer_sees_its_own_feint():
    feint, attack = _pair()
    play(feint, "proactive:feint")
    play(attack, "proactive:melee_attack")
    spec = feint.ruleset.observation_spec
    assert not np.array_equal(feint.observation(0)[spec.slice("declared")],
                              attack.observation(0)[spec.slice("declared")])


@pytest.mark.rule("TP-G13")
def test_tp_g13_the_log_reveals_the_feint_only_when_it_resolves():
    feint, attack = _pair()
    play(feint, "proactive:feint")
    play(attack, "proactive:melee_attack")
    assert feint.events.to_jsonl() == attack.events.to_jsonl()       # a rendered log leaks nothing
    play(feint, "react:parry", "pass")
    assert "feint_revealed" in [e.kind for e in feint.events]


@pytest.mark.rule("TP-G13", "TP-G04")
def test_tp_g13_a_feint_costs_what_an_attack_costs():
    ruleset = TempoDuel()
    for loadout in ruleset.loadouts[0]:
        costs = dict(zip(ruleset.action_names, loadout.costs))
        assert costs["proactive:feint"] == costs["proactive:melee_attack"]
