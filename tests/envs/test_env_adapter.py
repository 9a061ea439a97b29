"""The generic AEC adapter over the toy ruleset: conformance, rewards, elimination, illegal actions."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from issoku.envs.adapter import RulesetAECEnv
from issoku.envs.errors import EnvOrderError, IllegalActionError

from .toy_ruleset import ToyRace


def make_env(num_seats: int = 2, **kwargs) -> RulesetAECEnv:
    rules = {key: kwargs.pop(key) for key in ("target", "max_turns", "with_renderer") if key in kwargs}
    return RulesetAECEnv(ToyRace(num_seats, **rules), **kwargs)


def play(env: RulesetAECEnv, names: list[str]) -> None:
    """Step the deciding agent through ``names`` (action names), no dead steps in between."""
    for name in names:
        env.step(env.action_id(name))


def drain(env: RulesetAECEnv) -> dict[str, float]:
    """Let every finished agent leave by its dead step; what ``last()`` showed each of them."""
    seen = {}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last()
        assert terminated or truncated
        seen[agent] = reward
        env.step(None)
    return seen


@pytest.mark.parametrize("num_seats", [2, 3])
@pytest.mark.parametrize("render_mode", [None, "ansi"])
def test_pettingzoo_api_test(num_seats, render_mode):
    api_test(make_env(num_seats, render_mode=render_mode), num_cycles=200)


@pytest.mark.parametrize("num_seats", [2, 3])
def test_pettingzoo_seed_test(num_seats):
    seed_test(lambda: make_env(num_seats), num_cycles=200)


def test_same_seed_same_fight_over_several_episodes():
    def run(seed):
        env = make_env(3, record_events=True)
        logs = []
        env.reset(seed=seed)
        for _ in range(3):
            rng = np.random.default_rng(7)
            for agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            logs.append(env.game_state.events.to_jsonl())
            env.reset()
        return logs

    first = run(11)
    assert first == run(11)
    assert first != run(12)


def test_unseeded_resets_after_a_seeded_one_draw_their_seeds_from_its_generator():
    env = make_env(2)
    env.reset(seed=5)
    seeds = [env.episode_seed]
    for _ in range(3):
        env.reset()
        seeds.append(env.episode_seed)
    draws = np.random.default_rng(5)
    assert seeds == [5] + [int(draws.integers(2**63 - 1)) for _ in range(3)]


def test_unseeded_resets_past_a_block_of_seeds_are_the_single_draws_in_order():
    from issoku.envs.adapter import SEED_BLOCK

    env = make_env(2)
    env.reset(seed=9)
    seeds = []
    for _ in range(2 * SEED_BLOCK + 3):
        env.reset()
        seeds.append(env.episode_seed)
    draws = np.random.default_rng(9)
    assert seeds == [int(draws.integers(2**63 - 1)) for _ in range(2 * SEED_BLOCK + 3)]
    env.reset(seed=9)  # a seeded reset starts the stream again
    env.reset()
    assert env.episode_seed == seeds[0]


def test_agent_iter_yields_what_pettingzoos_iterator_yields_and_stops_at_max_iter():
    from pettingzoo.utils.env import AECIterable

    def turns(env, iterable):
        env.reset(seed=3)
        seen = []
        for _ in range(2):  # iterated twice, as an AECIterable can be: each pass counts max_iter afresh
            for agent in iterable(env):
                seen.append(agent)
                _, _, terminated, truncated, _ = env.last()
                env.step(None if terminated or truncated else int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
        return seen

    ours = turns(make_env(3), lambda env: env.agent_iter(4))
    theirs = turns(make_env(3), lambda env: AECIterable(env, 4))
    assert ours == theirs and len(ours) == 8
    everything = turns(make_env(3), lambda env: env.agent_iter())
    assert everything == turns(make_env(3), lambda env: AECIterable(env, 2**63))


def test_agents_spaces_and_names_follow_the_ruleset():
    env = make_env(3)
    assert env.possible_agents == ["racer_0", "racer_1", "racer_2"]
    assert str(env) == "toy_race_v1"
    assert make_env(name="toy_race_v9").metadata["name"] == "toy_race_v9"
    space = env.observation_space("racer_1")
    assert space["observation"].shape == (ToyRace(3).observation_spec.size,)
    assert space["action_mask"].dtype == np.int8
    assert env.action_space("racer_0").n == 6
    assert env.action_id("strike") == 3
    with pytest.raises(KeyError, match="no action named 'fly'"):
        env.action_id("fly")


def test_only_the_deciding_agent_has_a_mask_and_its_info_names_the_decision():
    env = make_env(2)
    env.reset(seed=0)
    play(env, ["strike"])  # racer_1 must answer racer_0's strike
    assert env.agent_selection == "racer_1"
    answer = env.observe("racer_1")["action_mask"]
    assert [env.action_names[a] for a in np.flatnonzero(answer)] == ["dodge", "block"]
    assert not env.observe("racer_0")["action_mask"].any()
    assert env.metadata["decision_kinds"][env.infos["racer_1"]["decision_kind"]] == "answer"
    assert env.infos["racer_0"]["decision_kind"] == -1
    with pytest.raises(ValueError):
        answer[0] = 1  # masks are read-only: legality is checked against them


def test_loser_gets_minus_one_when_the_fight_ends_on_the_winners_move():
    env = make_env(2, target=2)
    env.reset(seed=0)
    play(env, ["step", "step", "step"])  # racer_0 reaches the goal on its own move
    assert env.terminations == {"racer_0": True, "racer_1": True}
    assert env.rewards == {"racer_0": 1.0, "racer_1": -1.0}
    assert env.agent_selection == "racer_1"  # the loser leaves first and sees its -1 in last()
    assert drain(env) == {"racer_1": -1.0, "racer_0": 1.0}
    assert env.agents == []


def test_winner_gets_plus_one_when_the_loser_ends_the_fight_on_its_own_move():
    env = make_env(2)
    env.reset(seed=0)
    # racer_1 blocks three strikes and is knocked out on its own answer.
    play(env, ["strike", "block", "step", "strike", "block", "step", "strike", "block"])
    assert env.rewards == {"racer_0": 1.0, "racer_1": -1.0}
    assert drain(env) == {"racer_0": 1.0, "racer_1": -1.0}


def test_round_limit_truncates_with_zero_rewards():
    env = make_env(2, max_turns=2)
    env.reset(seed=0)
    play(env, ["step", "step"])
    assert env.truncations == {"racer_0": True, "racer_1": True}
    assert env.terminations == {"racer_0": False, "racer_1": False}
    assert drain(env) == {"racer_0": 0.0, "racer_1": 0.0}


def test_eliminated_seat_stays_unselected_until_the_end_and_gets_its_result():
    env = make_env(3)
    env.reset(seed=0)
    play(env, ["strike", "block", "step", "step"] * 2 + ["strike", "block"])  # racer_1 blocks down to 0 hp
    assert env.infos["racer_1"]["eliminated"] == 1
    assert env.agents == ["racer_0", "racer_1", "racer_2"]
    assert env.agent_selection == "racer_2"  # racer_0's turn passed racer_1's empty seat
    assert not env.terminations["racer_1"] and env.rewards["racer_1"] == 0.0
    seen = []
    for name in ["strike", "block", "step", "strike", "block", "step", "strike", "block"]:  # racer_0 falls
        seen.append(env.agent_selection)
        env.step(env.action_id(name))
    assert "racer_1" not in seen
    assert env.rewards == {"racer_0": -1.0, "racer_1": -1.0, "racer_2": 1.0}
    assert drain(env) == {"racer_0": -1.0, "racer_1": -1.0, "racer_2": 1.0}


def test_infos_are_one_dict_per_agent_fresh_each_reset_with_numbers_only():
    env = make_env(3)
    env.reset(seed=0)
    for info in env.infos.values():
        assert set(info) == {"decision_kind", "eliminated", "illegal_action"}
        assert all(type(value) is int for value in info.values())
    env.infos["racer_0"]["written_by_a_wrapper"] = 1
    assert "written_by_a_wrapper" not in env.infos["racer_1"]
    env.reset(seed=1)
    assert "written_by_a_wrapper" not in env.infos["racer_0"]


def test_illegal_action_raises_a_named_error_and_changes_nothing():
    env = make_env(2, illegal_action="raise")
    env.reset(seed=0)
    before = env.observe("racer_0")["observation"].copy()
    for action in (env.action_id("dodge"), 99, -1):
        with pytest.raises(IllegalActionError, match="legal: \\['step', 'dash', 'boost', 'strike'\\]"):
            env.step(action)
    assert env.agent_selection == "racer_0"
    assert np.array_equal(env.observe("racer_0")["observation"], before)
    with pytest.raises(TypeError):
        env.step(1.5)
    with pytest.raises(TypeError):
        env.step(None)


def test_illegal_action_by_default_ends_the_fight_and_penalises_only_the_offender():
    env = make_env(3, illegal_reward=-5)
    env.reset(seed=0)
    play(env, ["step"])
    env.step(env.action_id("block"))  # racer_1 is not answering anything
    assert env.illegal_action_count == 1
    assert env.rewards == {"racer_0": 0.0, "racer_1": -5.0, "racer_2": 0.0}
    assert all(env.terminations.values())
    assert env.infos["racer_1"]["illegal_action"] == 1 and env.infos["racer_0"]["illegal_action"] == 0
    assert drain(env) == {"racer_2": 0.0, "racer_0": 0.0, "racer_1": -5.0}


def test_bad_options_and_out_of_order_calls_are_named_errors():
    with pytest.raises(ValueError, match="render_mode"):
        make_env(render_mode="video")
    with pytest.raises(ValueError, match="illegal_action"):
        make_env(illegal_action="repair")
    env = make_env()
    with pytest.raises(EnvOrderError):
        env.step(0)
    with pytest.raises(EnvOrderError):
        env.observe("racer_0")
    with pytest.raises(EnvOrderError, match=r"last\(\) before reset\(\)"):
        env.last()
    env.reset(seed=0)
    play(env, ["step"] * 15)
    drain(env)
    with pytest.raises(EnvOrderError):
        env.step(None)


def test_ansi_render_uses_the_ruleset_hook_and_the_last_events():
    env = make_env(2, with_renderer=True, render_mode="ansi")
    env.reset(seed=0)
    play(env, ["boost"])
    text = env.render()
    assert "racer_1 decides (move)" in text
    assert "racer_0: #" in text  # the ruleset's own picture
    assert "[TOY-04 ] advance" in text  # the boost's event, rule ID first


def test_ansi_render_without_a_hook_dumps_every_seats_observation_fields():
    env = make_env(2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert text.count("own_secret") == 2 and "decision_kind" in text
    with pytest.warns(UserWarning, match="without a render_mode"):
        assert make_env(2).render() is None


def test_human_render_prints_each_step(capsys):
    env = make_env(2, render_mode="human")
    env.reset(seed=0)
    play(env, ["step"])
    assert "racer_1 decides" in capsys.readouterr().out


def test_events_are_off_unless_rendering_or_asked_for():
    env = make_env(2)
    env.reset(seed=0)
    play(env, ["step"])
    assert len(env.game_state.events) == 0
    env = make_env(2, record_events=True)
    env.reset(seed=0)
    play(env, ["step"])
    assert [event.kind for event in env.game_state.events] == ["secrets_rolled", "advance"]


def test_adapter_names_no_ruleset():
    source = (Path(__file__).resolve().parents[2] / "envs" / "adapter.py").read_text().lower()
    words = set(re.findall(r"[a-z]+", source))  # identifiers split at underscores and punctuation
    assert not words & {"breath", "tempo", "ma", "blade", "kenjutsu", "toy", "racer"}


def _random_fight(env, seed: int) -> dict[str, float]:
    """Each agent's total reward over one fight of uniformly random legal actions (the same for a seed)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals


@pytest.mark.parametrize("env_id", ["encounter_duel_v0", "tempo_duel_v0", "breath_skirmish_v0"])
def test_round_limit_payoff_health_lead_pays_a_stopped_fight_each_sides_lead_and_a_decided_one_as_before(env_id):
    """The opt-in sparse-reward cure: the same fights, played alike; a fight the round limit stopped pays each side
    its health lead (zero-sum between sides) instead of 0; a decided fight pays +-1 either way."""
    from issoku.envs.registry import resolve_env
    from issoku.rules.kernel.outcomes import health_leads

    factory = resolve_env(env_id)
    plain, informed = factory(), factory(round_limit_payoff="health_lead")
    stopped = informative = 0
    for seed in range(30):
        before, after = _random_fight(plain, seed), _random_fight(informed, seed)
        state = informed.unwrapped.game_state
        if any(state.returns()):
            assert after == before
        else:
            stopped += 1
            assert set(before.values()) == {0.0}
            leads = health_leads(state)
            informative += any(leads)
            assert after == {agent: leads[seat] for seat, agent in enumerate(informed.possible_agents)}
            assert sum(leads[seat] for seat in range(len(leads))
                       if state.ruleset.seat_teams[seat] == 0) == pytest.approx(
                -sum(leads[seat] for seat in range(len(leads)) if state.ruleset.seat_teams[seat] == 1))
    assert stopped > 0 and informative > 0  # the round limit stops fights, and most with one side ahead


def test_round_limit_payoff_is_checked_and_needs_the_health_hook():
    with pytest.raises(ValueError, match="round_limit_payoff must be one of"):
        RulesetAECEnv(ToyRace(2), round_limit_payoff="closest")
    with pytest.raises(ValueError, match="needs the health_fractions hook"):
        RulesetAECEnv(ToyRace(2), round_limit_payoff="health_lead")


def test_pettingzoo_api_test_with_health_lead_round_limits():
    from issoku.envs import encounter_duel_v0

    api_test(encounter_duel_v0.env(round_limit_payoff="health_lead"), num_cycles=200)


def test_rllib_observation_keys_rename_the_observation_and_nothing_else():
    """RLlib's action-masking module reads "observations"; the shipped wrapper renames the one key (RLlib itself
    runs it in its own venv: tests/examples/test_rllib.py)."""
    from issoku.envs import breath_skirmish_v0
    from issoku.envs.rllib_keys import RLlibObservationKeys

    plain, renamed = breath_skirmish_v0.env(), RLlibObservationKeys(breath_skirmish_v0.env())
    plain.reset(seed=4)
    renamed.reset(seed=4)
    for agent in plain.agents:
        before, after = plain.observe(agent), renamed.observe(agent)
        assert set(after) == {"observations", "action_mask"}
        assert (after["observations"] == before["observation"]).all()
        assert (after["action_mask"] == before["action_mask"]).all()
        assert renamed.observation_space(agent)["observations"] == plain.observation_space(agent)["observation"]
        assert renamed.observation_space(agent).contains(after)
    api_test(RLlibObservationKeys(breath_skirmish_v0.env()), num_cycles=100)
