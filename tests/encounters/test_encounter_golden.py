"""Golden event logs: seeded encounter duels between scripted fighters, diffed event by event.

A diff means the rules' behaviour moved; when that is meant, regenerate with
``ISSOKU_REGENERATE_GOLDEN=1 pytest tests/encounters/test_encounter_golden.py`` and review the diff.
"""

from pathlib import Path

import pytest

from issoku.agents.encounter_scripted import SCRIPTED
from issoku.agents.play import play_fight
from issoku.rules.encounters import EncounterConfig, EncounterDuel
from tests.golden import assert_matches_golden

GOLDEN = Path(__file__).parent / "golden"
CASES = [
    (("kenshi", "ono_brute"), ("heuristic", "aggressive"), 7),
    (("yari_guard", "tonfa_monk"), ("defensive", "heuristic"), 3),
    (("archer", "bandit"), ("heuristic", "heuristic"), 11),
]


@pytest.mark.parametrize("fighters,agents,seed", CASES, ids=lambda case: str(case))
def test_seeded_duel_matches_its_golden_log(fighters, agents, seed):
    state = play_fight(EncounterDuel(EncounterConfig(fighters)).new_initial_state(seed),
                       [SCRIPTED[agents[0]](seed=seed), SCRIPTED[agents[1]](seed=seed + 1)])
    name = f"{fighters[0]}_{agents[0]}_vs_{fighters[1]}_{agents[1]}_seed{seed}.jsonl"
    assert_matches_golden(GOLDEN / name, state.events)
