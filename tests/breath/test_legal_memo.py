"""The memo of breath and defend decisions (``BreathRuleset.legal_memo``) gives exactly what scanning every
candidate gives, at every breath and defend decision of random fights: core breath, the Ma duel (sparring and
hatashiai on a stage too), the 2v2 skirmish on its zone line, and each of them with casters (the spells module's
key and vetoes)."""

import random

import pytest

from issoku.envs.breath_duel_v0 import make_ruleset
from issoku.envs.breath_skirmish_v0 import make_ruleset as make_skirmish_ruleset
from issoku.rules.breath.modules import BreathModule

RULESETS = {
    "core": lambda: make_ruleset(ma=False),
    "ma": lambda: make_ruleset(),
    "ma_sparring_hatashiai": lambda: make_ruleset(["ronin", "kenshi"], mode="sparring", kind="hatashiai",
                                                  stage="high_ground"),
    "skirmish": lambda: make_skirmish_ruleset(),
    "casters_ma": lambda: make_ruleset(["onmyoji", "diviner"]),
    "casters_core": lambda: make_ruleset(["exorcist", "barrier_priest"], ma=False),
    "casters_skirmish": lambda: make_skirmish_ruleset([["onmyoji", "kenshi"], ["diviner", "ronin"]]),
}


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_memoised_breath_legal_actions_equal_a_full_scan(name):
    ruleset = RULESETS[name]()
    rng = random.Random(7)
    checked = 0
    for seed in range(40):
        state = ruleset.new_initial_state(seed, record_events=False)
        while state.current_seat() is not None:
            legal = state.legal_actions()
            if not state.stack:
                assert legal == state._scan_breath_legal(state.fighters[state.actor_seat])
                checked += 1
            elif state.stack[-1].kind == "defend":
                attack = state.stack[-1].context
                assert tuple(legal) == state._scan_defense_legal(attack.target, attack.technique, attack.reserved_only)
            state.apply(rng.choice(legal))
    assert checked > 500
    assert ruleset.legal_memo  # the memo was used, not bypassed


def test_a_module_overriding_a_legality_hook_without_a_key_turns_the_memo_off():
    class Veto(BreathModule):
        def attack_allowed(self, state, attacker, target, technique):
            return state.round % 2 == 0

    class Quiet(BreathModule):
        pass

    state = make_ruleset(ma=False).new_initial_state(0)  # a real state: the compiled build checks argument types
    fighter = state.fighters[0]
    assert Veto().legal_key(state, fighter) is None
    assert Quiet().legal_key(state, fighter) == ()
