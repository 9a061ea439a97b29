"""A port rebuilds the observation from the manifest alone: for every env an export can describe, the manifest's
field encodings (meaning, scale, category and slot orders) applied to a position's game values give the env's
observation, byte for byte. The reading is ``examples/exported_opponent.py``'s (no issoku there), fed only the
manifest's ``observation.fields`` and the values, both through JSON as a port receives them."""

import copy
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from issoku.rules.kernel.encoding import FieldEncoding, field, scaled
from issoku.rules.kernel.protocol import ObservationSpec
from issoku.training.export import observation_schema, seeded_decisions
from issoku.training.make_env import make_aec_env

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "exported_opponent.py"
DESCRIBED_ENVS = ("breath_duel_v0", "tempo_duel_v0", "encounter_duel_v0", "breath_skirmish_v0")


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


@pytest.mark.parametrize("env_id", DESCRIBED_ENVS)
def test_the_manifest_alone_rebuilds_every_observation_of_seeded_games(env_id):
    env = make_aec_env(env_id, {})
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


@pytest.mark.parametrize("env_id", DESCRIBED_ENVS)
def test_a_wrong_scale_or_category_order_in_the_manifest_is_seen(env_id):
    """The check can fail: a divisor doubled or a one-hot order reversed changes the rebuilt observation."""
    env = make_aec_env(env_id, {})
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


@pytest.mark.parametrize("env_id", ("tempo_skirmish_v0", "encounter_skirmish_v0"))
def test_an_env_whose_encoding_is_not_described_says_so(env_id):
    """The tempo and encounter skirmishes' observations are not described yet: no encodings, rather than wrong ones,
    and golden vectors without game values."""
    env = make_aec_env(env_id, {})
    env.reset(seed=0)
    assert all(row["encoding"] is None for row in observation_schema(env))
    decision = next(seeded_decisions(env, 0))
    assert decision[2] is None and decision[3].tobytes() == env.observe(decision[1])["observation"].tobytes()
