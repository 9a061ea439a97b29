"""A hunt folder is data: resuming it imports nothing it names; it resumes only its own ``agents/brN.zip``."""

from __future__ import annotations

import json
from dataclasses import asdict

import pytest

from issoku.evaluation.strength.hunt import HuntConfig, saved_iterations
from tests.security.helpers import issoku, one_line_refusal, payload_module

POPULATION = ("random", "breath_heuristic")


def _iteration(best_response: str, **more: object) -> dict:
    return {"population": list(POPULATION), "mixture": {"random": 1.0}, "best_response": best_response, "gain": 0.1,
            "gain_low": 0.0, "gain_high": 0.2, "gain_by_opponent": {"random": 0.1}, "kind_shares": {},
            "mixture_kind_shares": {}, **more}


def _hunt_folder(tmp_path, *iterations: dict) -> HuntConfig:
    config = HuntConfig(env_id="breath_duel_v0", population=POPULATION, out=str(tmp_path / "h"), iterations=3, steps=64,
                        games_per_pair=2, workers=0)
    (tmp_path / "h").mkdir()
    (tmp_path / "h" / "hunt.json").write_text(json.dumps({"config": asdict(config), "iterations": list(iterations)}))
    return config


def test_a_received_hunt_folder_naming_a_module_runs_no_code(tmp_path):
    """The attack: ``best_response`` in hunt.json names a module on the path; ``issoku hunt`` resumed it and imported
    it (no --allow-imports, which hunt does not even have). Now: one line naming the file and field, exit 2."""
    marker = payload_module(tmp_path)
    config = _hunt_folder(tmp_path, _iteration("trust_payload:Payload"))
    before = sorted(p.name for p in (tmp_path / "h").iterdir())
    result = issoku("hunt", "--env", "breath_duel_v0", "-p", "random", "-p", "breath_heuristic", "--out", config.out,
                    "--iterations", "3", "--steps", "64", "-n", "2", "-j", "0", pythonpath=tmp_path)
    assert not marker.exists(), "a name from hunt.json was imported"
    one_line_refusal(result, "hunt.json", "iterations[0].best_response", "trust_payload:Payload")
    assert sorted(p.name for p in (tmp_path / "h").iterdir()) == before  # nothing written


@pytest.mark.parametrize("saved", ["../elsewhere/agents/br1.zip.py", "/tmp/agents/br2.zip", "br1.zip", 7])
def test_a_best_response_other_than_the_hunts_own_checkpoint_is_refused(tmp_path, saved):
    config = _hunt_folder(tmp_path, _iteration(saved))
    (tmp_path / "h" / "agents").mkdir()
    (tmp_path / "h" / "agents" / "br1.zip").write_bytes(b"")
    with pytest.raises(ValueError, match=r"iterations\[0\]\.best_response: .* is not this hunt's own agents/br1.zip"):
        saved_iterations(config)


def test_a_moved_hunt_folder_resumes_its_own_checkpoints_and_controls(tmp_path):
    """The saved paths name the folder where the hunt ran; a resume uses the same files in the folder it is given."""
    config = _hunt_folder(tmp_path, _iteration("/old/place/agents/br1.zip", control="/old/place/agents/control1.zip"))
    (tmp_path / "h" / "agents").mkdir()
    for name in ("br1.zip", "control1.zip"):
        (tmp_path / "h" / "agents" / name).write_bytes(b"")
    (iteration,) = saved_iterations(config)
    assert iteration.best_response == str(tmp_path / "h" / "agents" / "br1.zip")
    assert iteration.control == str(tmp_path / "h" / "agents" / "control1.zip")


def test_a_missing_own_checkpoint_or_a_malformed_entry_is_one_line(tmp_path):
    config = _hunt_folder(tmp_path, _iteration("x/agents/br1.zip"))
    with pytest.raises(ValueError, match="br1.zip: no such checkpoint"):
        saved_iterations(config)
    config = _hunt_folder(tmp_path / "b", {**_iteration("x/agents/br1.zip"), "surprise": 1}) if (tmp_path / "b").mkdir() is None else None
    with pytest.raises(ValueError, match=r"iterations\[0\]: not an iteration"):
        saved_iterations(config)
