"""Golden observations: a digest of every seat's observation and of the legal actions at every decision
of seeded random fights, for the core fight, the Ma duel (three set-ups) and the 2v2 skirmish.

The encoder and the legal-action memo are tuned for speed; this holds them to the same bytes. When a
change to the observation or the rules is meant, regenerate with
``ISSOKU_REGENERATE_GOLDEN=1 pytest tests/breath/test_observation_golden.py`` and say so in the commit.
"""

import hashlib
import json
import os
import random
from pathlib import Path

import pytest

from issoku.envs.breath_duel_v0 import make_ruleset
from issoku.envs.breath_skirmish_v0 import make_ruleset as make_skirmish_ruleset

GOLDEN = Path(__file__).parent / "golden" / "observations.json"
RULESETS = {
    "core_1v1": lambda: make_ruleset(ma=False),
    "core_2v1": lambda: make_ruleset(["kenshi", "ronin", {"archetype": "ashigaru", "side": 1}], ma=False),
    "ma_ikkiuchi": lambda: make_ruleset(),
    "ma_sparring_high_ground": lambda: make_ruleset(["ronin", "kenshi"], mode="sparring", kind="hatashiai",
                                                    stage="high_ground"),
    "ma_hatashiai_backlight": lambda: make_ruleset(["ashigaru", "wildman"], kind="hatashiai", stage="backlight"),
    "skirmish_2v2": lambda: make_skirmish_ruleset(),
}
FIGHTS = 12


def digest(ruleset) -> str:
    """sha256 over every decision of ``FIGHTS`` seeded random-legal fights: all seats' observations
    (float32 bytes), then the legal actions."""
    sha = hashlib.sha256()
    rng = random.Random(1)
    for seed in range(FIGHTS):
        state = ruleset.new_initial_state(seed, record_events=False)
        while True:
            for seat in range(ruleset.num_seats):
                sha.update(state.observation(seat).tobytes())
            if state.current_seat() is None:
                break
            legal = state.legal_actions()
            sha.update(repr(legal).encode())
            state.apply(rng.choice(legal))
    return sha.hexdigest()


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_observations_and_legal_actions_match_the_golden_digest(name):
    got = digest(RULESETS[name]())
    golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
    if os.environ.get("ISSOKU_REGENERATE_GOLDEN"):
        golden[name] = got
        GOLDEN.write_text(json.dumps(golden, indent=2, sort_keys=True) + "\n")
    assert got == golden[name], f"{name}: observations or legal actions changed"
