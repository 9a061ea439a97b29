"""The skirmish scenario files replay with their expected events (``issoku replay`` reads them the same way)."""

from pathlib import Path

import pytest

from issoku.envs.scenario import load_scenario, play

SCENARIOS = sorted((Path(__file__).resolve().parents[2] / "scenarios" / "tempo_skirmish").glob("*.toml"))


@pytest.mark.rule("TP-005", "TP-008", "TP-023", "TP-037", "TP-G03", "TP-G04", "TP-G06", "TP-G07", "TP-G08", "TP-G12")
@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_skirmish_scenario_replays(path):
    play(load_scenario(path))


@pytest.mark.rule("TP-G08", "TP-037", "TP-G04")
def test_the_crossfire_leaves_the_fencer_hurt_short_of_the_archer_and_the_crossbow_empty():
    state = play(load_scenario(SCENARIOS[0])).state
    assert state.hp[0] == 9 and state.distance_between(0, 2) == 5
    assert state.loaded == [True, True, True, False]
    assert (state.decision_kind(), state.current_seat()) == ("act", 2)
