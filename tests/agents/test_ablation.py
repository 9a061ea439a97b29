"""The observation-ablation measure: a policy blind to its observation measures 0 % and is flagged, one that reads
it is not, the figure repeats for a seed, the shipped breath and tempo agents read their observation and the first ones
did not."""

import numpy as np
import pytest

from issoku.agents.ablation import STATE_BLIND_SHARE, Ablation, measure_ablation
from issoku.agents.checkpoint import CheckpointPolicy, read_metadata
from issoku.envs.registry import make_env
from issoku.evaluation.games.policies import shipped_checkpoints
from issoku.training.config import CONFIGS_DIR


def first_legal(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """A fixed preference order: whatever the position, the lowest legal action."""
    return int(np.flatnonzero(action_mask)[0])


def observation_keyed(observation: np.ndarray, action_mask: np.ndarray) -> int:
    """A legal action picked by a digest of the observation: the zero observation always picks the first."""
    legal = np.flatnonzero(action_mask)
    return int(legal[int(abs(observation).sum() * 1000) % legal.size])


def test_a_policy_that_ignores_its_observation_measures_zero_and_is_state_blind():
    measured = measure_ablation(first_legal, make_env("breath_duel_v0"), games=4, seed=1)
    assert measured.decisions > 0 and measured.changed == 0 and measured.share == 0.0
    assert measured.state_blind and measured.describe().endswith("— state-blind")


def test_a_policy_that_reads_its_observation_is_not_state_blind():
    measured = measure_ablation(observation_keyed, make_env("breath_duel_v0"), games=4, seed=1)
    assert measured.share > STATE_BLIND_SHARE and not measured.state_blind
    assert "state-blind" not in measured.describe()


def test_the_same_seed_gives_the_same_figure_and_another_seed_other_games():
    env = make_env("tempo_duel_v0")
    first = measure_ablation(observation_keyed, env, games=4, seed=7)
    assert measure_ablation(observation_keyed, env, games=4, seed=7) == first
    assert measure_ablation(observation_keyed, env, games=4, seed=8).decisions != first.decisions


def test_a_sampling_policy_is_measured_on_its_greedy_choice_and_left_sampling():
    path = shipped_checkpoints()["breath_duel_v0"]
    sampling = CheckpointPolicy(path, deterministic=False, seed=0)
    env = make_env("breath_duel_v0")
    assert measure_ablation(sampling, env, games=4) == measure_ablation(CheckpointPolicy(path), env, games=4)
    assert not sampling.deterministic


def test_a_record_reads_back_and_no_games_is_refused():
    measured = Ablation(decisions=200, changed=30, games=2, seed=5)
    assert Ablation.from_dict(measured.as_dict()) == measured
    assert measured.as_dict() == {"decisions": 200, "changed": 30, "games": 2, "seed": 5, "share": 0.15,
                                  "state_blind": False, "neutral": "zeros"}
    with pytest.raises(ValueError, match="games must be at least 1"):
        measure_ablation(first_legal, make_env("breath_duel_v0"), games=0)


@pytest.mark.parametrize("env_id,teacher", [("breath_duel_v0", "ma_heuristic"), ("tempo_duel_v0", "tempo_combat_approach")])
def test_documents_the_shipped_agent_as_reading_and_the_first_one_as_state_blind(env_id, teacher):
    """The first shipped breath and tempo agents (kept as training opponents) were fixed preference orders over legal
    moves; the shipped ones, warm-started by imitating a scripted agent (``teacher``), read the position
    (docs/training.md, "Shipped checkpoints")."""
    env = make_env(env_id)
    assert read_metadata(shipped_checkpoints()[env_id])["config"]["imitate"] == teacher
    shipped = measure_ablation(CheckpointPolicy(shipped_checkpoints()[env_id]), env)
    first = measure_ablation(CheckpointPolicy(CONFIGS_DIR / "opponents" / f"{env_id}_blind.zip"), env)
    assert shipped.decisions > 1000 and not shipped.state_blind
    assert first.decisions > 1000 and first.state_blind and first.share == 0.0
