"""The fuzz harness (a short run over every env and config) and the golden playthroughs (one per config)."""

from pathlib import Path

import pytest

from issoku.envs.conformance import fuzz, playthroughs
from issoku.envs.conformance.fuzz import CONFIGS, FuzzReport, fuzz as run_fuzz, make_config, play_episode


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_a_short_fuzz_finds_no_violation(name):
    tally = run_fuzz(name, decisions=300, seed=11)
    assert tally.decisions >= 300 and tally.violations == []


def test_the_fuzz_harness_reports_a_mask_that_differs_from_the_legal_set():
    import numpy as np

    env = make_config("tempo_duel_v0")
    honest = env.last

    def lying_last(*args, **kwargs):
        observation, *rest = honest(*args, **kwargs)
        mask = observation["action_mask"].copy()
        mask[np.flatnonzero(mask == 0)[:1]] = 1  # one illegal action marked legal
        return ({**observation, "action_mask": mask}, *rest)

    env.last = lying_last
    tally = FuzzReport()
    play_episode(env, 0, np.random.default_rng(0), tally, "lying")
    assert tally.violations and "!= legal set" in tally.violations[0]


def test_the_command_prints_totals_and_fails_on_a_violation(monkeypatch):
    lines = []
    assert fuzz.main(["--decisions", "50", "--config", "tempo_duel_v0"], write=lines.append) == 0
    assert lines[-1].split()[0] == "all" and "0 violations" in lines[-1]
    monkeypatch.setattr(fuzz, "check_end", lambda env, totals: "planted")
    assert fuzz.main(["--decisions", "50", "--config", "tempo_duel_v0"], write=lines.append) == 1


GOLDEN = Path(__file__).resolve().parent / "playthroughs"
GOLDEN_KINDS = {"hashes": (playthroughs.path_of, playthroughs.transcript),
                "readable": (playthroughs.readable_path_of, playthroughs.readable_transcript)}
"""Each golden file of a playthrough: the hashes, and the same episode written out (state, observation by field,
legal actions, events with rule IDs)."""


@pytest.mark.parametrize("kind", sorted(GOLDEN_KINDS))
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_golden_playthrough_is_unchanged(name, kind):
    path_of, transcript = GOLDEN_KINDS[kind]
    golden = GOLDEN / path_of(name).name  # this checkout's files, also when issoku is installed from a wheel
    assert golden.is_file(), f"missing {golden}: python -m issoku.envs.conformance.playthroughs --update"
    assert transcript(name) == golden.read_text(), (
        f"{name} plays differently from {golden} ({kind}); if the change is deliberate, run "
        "python -m issoku.envs.conformance.playthroughs --update and commit the diff")


def test_a_readable_playthrough_names_fields_actions_and_rule_ids():
    text = playthroughs.readable_transcript("encounter_duel_v0", decisions=6)
    assert text.count("\n## ") == 7 and "## before the first decision" in text
    assert "observation (player_1's first, every field):" in text and "  self_stance: 0 0 0 0 1" in text
    assert "legal (5): stance:air stance:earth stance:fire stance:void stance:water" in text
    assert "[EN-002 ] initiative" in text and "-> stance:" in text
