"""A port rebuilds the observation from the manifest alone: for every env an export can describe, the manifest's
field encodings (meaning, scale, category and slot orders) applied to a position's game values give the env's
observation, byte for byte. The reading is ``examples/exported_opponent.py``'s (no issoku there), fed only the
manifest's ``observation.fields`` and the values, both through JSON as a port receives them."""

import copy
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from issoku.rules.kernel.encoding import FieldEncoding, field, scaled
from issoku.rules.kernel.protocol import ObservationSpec
from issoku.training.checkpoints import latest_checkpoint
from issoku.training.config import TrainConfig
from issoku.training.export import describe, export_checkpoint, observation_schema
from issoku.training.make_env import make_aec_env
from issoku.training.selfplay import train

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "exported_opponent.py"
FOUR_A_SIDE = {"sides": [["kenshi", "yari_guard", "ono_brute", "tonfa_monk"]] * 2, "round_limit": 6}
"""An encounter skirmish whose every slot is filled (the default 2v2 leaves half of them empty), short fights."""
DESCRIBED = [
    pytest.param("breath_duel_v0", {}, id="breath_duel_v0"),
    pytest.param("tempo_duel_v0", {}, id="tempo_duel_v0"),
    pytest.param("encounter_duel_v0", {}, id="encounter_duel_v0"),
    pytest.param("breath_skirmish_v0", {}, id="breath_skirmish_v0"),
    pytest.param("tempo_skirmish_v0", {}, id="tempo_skirmish_v0"),
    pytest.param("encounter_skirmish_v0", FOUR_A_SIDE, id="encounter_skirmish_v0-4v4"),
    pytest.param("breath_duel_v0", {"fighters": ["onmyoji", "diviner"]}, id="breath_duel_v0-casters"),
    pytest.param("breath_duel_v0", {"fighters": ["exorcist", "barrier_priest", "kenshi"], "ma": False},
                 id="breath_duel_v0-no_ma_casters"),
    pytest.param("breath_skirmish_v0", {"sides": [["onmyoji", "kenshi"], ["diviner", "ronin"]]},
                 id="breath_skirmish_v0-casters"),
]
"""Every env, and the caster fights (the spells module's ``sp_*`` fields), as the playthroughs configure them."""


def port():
    """The example game loop as a module: its ``observation_from_values`` is the port's reading."""
    spec = importlib.util.spec_from_file_location("exported_opponent", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def positions(env, seeds):
    """(game values, observation) for every seat at every step of random legal play, the values through JSON."""
    for seed in seeds:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            observed, _, terminated, truncated, _ = env.last()
            state = env.unwrapped.game_state
            for seat in range(len(env.possible_agents)):
                yield json.loads(json.dumps(state.describe_observation(seat))), state.observation(seat)
            if terminated or truncated:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(observed["action_mask"]))))


@pytest.mark.parametrize(("env_id", "kwargs"), DESCRIBED)
def test_the_manifest_alone_rebuilds_every_observation_of_seeded_games(env_id, kwargs):
    env = make_aec_env(env_id, kwargs)
    env.reset(seed=0)
    fields = json.loads(json.dumps(observation_schema(env)))
    assert all(row["encoding"] is not None and row["encoding"]["meaning"] for row in fields)
    rebuild = port().observation_from_values
    checked, seen_parts = 0, set()
    for values, observation in positions(env, range(4)):
        assert rebuild(fields, values).tobytes() == observation.tobytes()
        checked += 1
        seen_parts |= {row["name"] for row in fields if values[row["name"]] is not None}
    assert checked > 200 and seen_parts == {row["name"] for row in fields}  # every field was given values


@pytest.mark.parametrize(("env_id", "kwargs"), DESCRIBED)
def test_a_wrong_scale_or_category_order_in_the_manifest_is_seen(env_id, kwargs):
    """The check can fail: a divisor doubled or a one-hot order reversed changes the rebuilt observation."""
    env = make_aec_env(env_id, kwargs)
    env.reset(seed=0)
    fields = json.loads(json.dumps(observation_schema(env)))
    rebuild = port().observation_from_values
    samples = list(positions(env, [1]))[::7]
    for kind in ("scaled", "one_hot"):
        wrong = copy.deepcopy(fields)
        for row in wrong:
            for part in row["encoding"]["parts"]:
                if part["kind"] == kind == "scaled":
                    part["divisor"] *= 2
                elif part["kind"] == kind == "one_hot":
                    part["categories"].reverse()
        assert any(rebuild(wrong, values).tobytes() != observation.tobytes() for values, observation in samples), kind


def test_slot_orders_are_named_ego_first():
    env = make_aec_env("breath_duel_v0", {})
    env.reset(seed=0)
    energy = next(row for row in observation_schema(env) if row["name"] == "energy")
    assert energy["encoding"]["slots"] == ["self", "enemy_0"]
    skirmish = make_aec_env("breath_skirmish_v0", {"sides": [["kenshi", "shinobi", "ronin"], ["ashigaru"]]})
    skirmish.reset(seed=0)
    fields = observation_schema(skirmish)
    assert next(row for row in fields if row["name"] == "energy")["encoding"]["slots"] == [
        "self", "ally_1", "ally_2", "ally_3", "enemy_0", "enemy_1", "enemy_2", "enemy_3"]  # padded to the capacity
    rebuild = port().observation_from_values
    for values, observation in list(positions(skirmish, [2]))[:300]:  # uneven sides: empty slots are null
        assert rebuild(fields, values).tobytes() == observation.tobytes()
    assert energy["encoding"]["parts"] == [{"name": "energy", "kind": "scaled", "meaning": "Energy left",
                                            "divisor": 20.0, "clip": [0.0, 1.0]}]


def test_a_spec_refuses_an_encoding_of_the_wrong_width():
    with pytest.raises(ValueError, match="'round': its encoding fills 1 floats, not 2"):
        ObservationSpec((("round", 2, 0.0, 1.0),), encodings=(field("the round", scaled("round", 10, "round")),))
    with pytest.raises(ValueError, match="1 field encodings for 2"):
        ObservationSpec((("a", 1, 0.0, 1.0), ("b", 1, 0.0, 1.0)),
                        encodings=(FieldEncoding("a", (scaled("a", 1, "a"),)),))


def test_a_tempo_skirmish_slot_field_lists_every_slot_in_turn():
    """The tempo skirmish is field-major: ``slot_health`` holds the observer's, then each ally's, then each enemy's;
    an offset reads 0.5 on the observer's own square, and the turn order is a ratio of places."""
    env = make_aec_env("tempo_skirmish_v0", {})
    env.reset(seed=0)
    fields = {row["name"]: row for row in observation_schema(env)}
    assert fields["slot_health"]["encoding"]["slots"] == ["self", "ally_1", "ally_2", "ally_3",
                                                          "enemy_0", "enemy_1", "enemy_2", "enemy_3"]
    values = env.unwrapped.game_state.describe_observation(0)
    assert values["slot_dx"][0] == {"dx": env.unwrapped.ruleset.max_distance}  # own square: (0 + cap) / (2 cap)
    assert [slot and slot["initiative"][1] for slot in values["slot_initiative"]] == [4, 4, None, None, 4, 4, None, None]


def test_spell_slots_summed_over_lists_are_the_encoders_float32_running_sum():
    """``sp_own_slots`` is described as the float32 of ``min(1, total / 5)``; the encoder adds ``left / 5`` per list
    in float32. The two agree for every split of up to 6 slots over up to 6 lists (past 5 both read 1)."""
    import itertools

    for lists in range(1, 7):
        for split in itertools.product(range(6), repeat=lists):
            if sum(split) > 6:
                continue
            cell = np.zeros(1, dtype=np.float32)
            for left in split:
                cell[0] = min(1.0, float(cell[0]) + left / 5)
            assert cell[0] == np.float32(min(1.0, sum(split) / 5)), split


@pytest.mark.slow
@pytest.mark.parametrize(("env_id", "kwargs"), [
    pytest.param("tempo_duel_v0", {}, id="tempo_duel_v0"),
    pytest.param("encounter_duel_v0", {}, id="encounter_duel_v0"),
    pytest.param("breath_skirmish_v0", {}, id="breath_skirmish_v0"),
    pytest.param("tempo_skirmish_v0", {}, id="tempo_skirmish_v0"),
    pytest.param("encounter_skirmish_v0", {}, id="encounter_skirmish_v0"),
    pytest.param("breath_duel_v0", {"fighters": ["onmyoji", "diviner"]}, id="breath_duel_v0-casters"),
])
def test_an_export_of_every_env_passes_the_ports_check_of_its_golden_vectors(env_id, kwargs, tmp_path):
    """A 32-step checkpoint of each env (tests/training/test_export.py does the breath duel) exported: every field
    described, golden vectors with game values, and ``examples/exported_opponent.py --check`` (the port's reading,
    run on the ONNX model) agrees with each observation and action issoku computed."""
    config = TrainConfig(env_id=env_id, env_kwargs=kwargs, n_envs=1, n_steps=32, batch_size=32, n_epochs=1,
                         net_arch=(16,), eval_every=0, final_eval_episodes=0, progress_bar=False, total_steps=32,
                         checkpoint_every=32, run_dir=str(tmp_path / "run"))
    train(config)
    manifest_path = export_checkpoint(latest_checkpoint(tmp_path / "run"), tmp_path / "opponent", ablation_games=2)
    assert "(each field encoding described)" in describe(manifest_path)
    golden = json.loads(manifest_path.read_text())["golden_vectors"]
    assert len(golden) == 6 and all(position["values"] is not None for position in golden)
    answer = subprocess.run([sys.executable, str(EXAMPLE), str(tmp_path / "opponent"), "--check"],
                            capture_output=True, text=True, timeout=120)
    assert answer.returncode == 0, answer.stdout + answer.stderr
    assert [line.endswith(" ok") and "observation equal" in line for line in answer.stdout.splitlines()] == [True] * 6
