"""The breath engine narrows each breath decision to a fighter's candidate actions; under the Ma module
that shortcut must give exactly the legal actions a scan of the whole action table gives."""

from __future__ import annotations

import numpy as np
import pytest

from issoku.rules.breath.ruleset import BreathConfig, FighterSpec
from issoku.rules.ma.config import MaDuelConfig
from issoku.rules.ma.duel import ma_duel
from issoku.rules.ma.ladder import DuelKind

PAIRINGS = [("uchigatana", "yari"), ("nodachi", "kodachi"), ("tanto", "bow"), ("unarmed", "teppo")]


@pytest.mark.parametrize("kind", list(DuelKind))
@pytest.mark.parametrize("first, second", PAIRINGS)
def test_candidate_shortcut_equals_a_full_scan(first, second, kind):
    rules = ma_duel(MaDuelConfig(kind=kind), BreathConfig(fighters=(FighterSpec("kenshi", 0, weapon=first),
                                                                    FighterSpec("shinobi", 1, weapon=second))))
    breath_decisions = 0
    for seed in range(3):
        state = rules.new_initial_state(seed, record_events=False)
        rng = np.random.default_rng(seed)
        while not state.is_over():
            legal = state.legal_actions()
            if state.decision_kind() == "breath":
                actor = state.fighters[state.current_seat()]
                assert legal == [a for a, slot in enumerate(rules.slots) if state._maneuver_legal(actor, slot)]
                breath_decisions += 1
            state.apply(int(rng.choice(legal)))
    assert breath_decisions > 0
