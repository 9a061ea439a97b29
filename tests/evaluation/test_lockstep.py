"""Lockstep play with batched inference: many games at once play exactly as one at a time.

A tiny trained ``breath_duel_v0`` checkpoint (the default 128x128 network) plays deterministic,
sampled and restricted against scripted agents and itself; the same games are played on one env one
after another and on many envs side by side, and must agree record for record and event for event.
"""

import functools

import numpy as np
import pytest

from issoku.agents.batched import TIE_MARGIN, Decision, choose, decide
from issoku.agents.policy import RandomLegal
from issoku.envs import breath_duel_v0
from issoku.evaluation.games.match import MatchGame, lockstep_width, play_matches
from issoku.evaluation.games.policies import CheckpointFactory, resolve_policy
from issoku.evaluation.design.restricted import Restricted
from issoku.evaluation.games.tournament import Job, Loadout, MatchSpec, policy_seed, run_job


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory):
    """A breath_duel_v0 checkpoint after one tiny rollout (128 learner steps)."""
    from issoku.training.config import TrainConfig
    from issoku.training.selfplay import train

    config = TrainConfig(env_id="breath_duel_v0", n_envs=2, n_steps=64, batch_size=64, n_epochs=1, total_steps=128,
                         checkpoint_every=128, eval_every=0, final_eval_episodes=2, progress_bar=False,
                         run_dir=str(tmp_path_factory.mktemp("lockstep_run")))
    return train(config)["checkpoint"]


def _games(checkpoint, ruleset, count=24):
    """Mixed games: deterministic and sampled checkpoints, a restricted one, scripted and random opponents."""
    factory = CheckpointFactory(checkpoint)

    def sampled(seed):
        policy = factory(seed=seed)
        policy.deterministic = False
        return policy

    makers = [
        lambda seed: factory(seed=seed),
        sampled,
        lambda seed: Restricted(factory, (3,))(seed=seed),
        lambda seed: resolve_policy("ma_heuristic").factory(seed=seed, ruleset=ruleset),
        lambda seed: RandomLegal(seed=seed),
    ]
    games = []
    for index in range(count):
        seed = 100 + index // 2
        pair = (makers[index % 3], makers[(index // 3) % len(makers)])
        games.append(MatchGame(tuple(make(policy_seed(seed, seat)) for seat, make in enumerate(pair)), seed,
                               f"g{index}", "default", {}, (f"a{index % 3}", f"b{(index // 3) % len(makers)}")))
    return games


def _play(checkpoint, width):
    """Records and event logs of the mixed games on ``width`` envs."""
    envs = [breath_duel_v0.env(ma=True, record_events=True) for _ in range(width)]
    states = {}
    records = play_matches(envs, _games(checkpoint, envs[0].unwrapped.ruleset),
                           started=lambda index, env: states.__setitem__(index, env.unwrapped.game_state))
    return records, [states[index].events.to_jsonl() for index in range(len(records))]


def test_many_games_side_by_side_play_exactly_as_one_at_a_time(checkpoint):
    alone, alone_events = _play(checkpoint, 1)
    together, together_events = _play(checkpoint, 24)
    assert together == alone
    assert together_events == alone_events
    assert all(events for events in alone_events)
    assert len({record.actions for record in alone}) > 12  # the games differ from one another


def test_a_tournament_job_plays_the_same_games_at_any_width(checkpoint):
    policies = (resolve_policy(f"ck={checkpoint}"), resolve_policy("ma_heuristic"))
    matches = tuple(MatchSpec(f"k{game}", 7 + game // 2, ("ck", "ma_heuristic") if game % 2 == 0
                              else ("ma_heuristic", "ck")) for game in range(12))
    job = Job(functools.partial(breath_duel_v0.env, ma=True), Loadout("default"), policies, matches, 1000)
    assert run_job(job) == run_job(job, width=1) == run_job(job, width=5)


def test_a_job_across_loadouts_plays_each_game_in_its_own_loadout_the_same_at_any_width(checkpoint):
    """A batch that runs on across loadouts (``Job.more``) batches their decisions together, each game on an env
    of its own loadout: the records are those of each loadout's games played alone, one at a time."""
    policies = (resolve_policy(f"ck={checkpoint}"), resolve_policy("ma_heuristic"))
    loadouts = (Loadout("kenshi-ronin", {"fighters": ["kenshi", "ronin"]}, ("kenshi", "ronin")),
                Loadout("ashigaru-kenshi", {"fighters": ["ashigaru", "kenshi"]}, ("ashigaru", "kenshi")))
    runs = [tuple(MatchSpec(f"{loadout.name}{game}", 3 + game // 2, ("ck", "ma_heuristic") if game % 2 == 0
                            else ("ma_heuristic", "ck")) for game in range(count))
            for loadout, count in zip(loadouts, (3, 5))]
    env = functools.partial(breath_duel_v0.env, ma=True)
    job = Job(env, loadouts[0], policies, runs[0], 1000, more=((loadouts[1], runs[1]),))
    alone = [record for loadout, run in zip(loadouts, runs) for record in run_job(Job(env, loadout, policies, run, 1000),
                                                                                   width=1)]
    assert run_job(job) == run_job(job, width=1) == run_job(job, width=2) == alone
    assert [record.loadout for record in alone] == ["kenshi-ronin"] * 3 + ["ashigaru-kenshi"] * 5
    assert {record.seat_labels for record in alone} == {("kenshi", "ronin"), ("ashigaru", "kenshi")}


def test_only_games_with_a_learned_policy_are_played_side_by_side(checkpoint):
    scripted = [MatchGame((RandomLegal(seed=0), RandomLegal(seed=1)), 0, "k", "", {}, ("a", "b"))] * 5
    assert lockstep_width(scripted) == 1
    learned = [MatchGame((CheckpointFactory(checkpoint)(seed=0), RandomLegal(seed=1)), 0, "k", "", {}, ("a", "b"))] * 5
    assert lockstep_width(learned) == 5 and lockstep_width(learned, most=3) == 3


class _Wobbly:
    """A batchable policy whose network's rows move by 1e-7 between a batch of one and a bigger batch."""

    def __init__(self, probabilities, deterministic=True, seed=0):
        self.row = np.asarray(probabilities, dtype=np.float64)
        self.deterministic = deterministic
        self.rng = np.random.default_rng(seed)

    def forward(self, observations, masks):
        rows = np.repeat(self.row[None], len(observations), axis=0)
        if len(observations) > 1:
            rows[:, 0] += 1e-7
            rows[:, 1] -= 1e-7
        return rows

    def begin(self, observation, mask):
        return Decision("wobbly", self.forward, observation, mask, lambda row, alone: choose(
            row, mask, deterministic=self.deterministic, rng=self.rng, alone=alone,
            again=lambda: self.forward(observation[None], mask[None])[0]))


def test_a_near_tie_in_a_batch_is_decided_as_a_batch_of_one():
    observation, mask = np.zeros(2, dtype=np.float32), np.ones(3, dtype=np.int8)
    flipped = [0.4 - 1e-7, 0.4, 0.2]  # alone: 1; batched: 0 by 1e-7, within the margin, so decided alone
    batched_row = _Wobbly(flipped).forward(np.stack([observation] * 2), np.stack([mask] * 2))[0]
    assert int(np.argmax(batched_row)) == 0  # what the batch would pick without the margin
    alone = decide([(_Wobbly(flipped), observation, mask)])
    assert alone == [1]
    assert decide([(_Wobbly(flipped), observation, mask) for _ in range(4)]) == alone * 4
    clear = [0.4 - 10 * TIE_MARGIN, 0.4, 0.2 + 10 * TIE_MARGIN]  # no near tie: the batched row is used as it is
    assert decide([(_Wobbly(clear), observation, mask) for _ in range(4)]) == [1] * 4


def test_a_draw_near_a_boundary_in_a_batch_is_decided_as_a_batch_of_one():
    observation, mask = np.zeros(2, dtype=np.float32), np.ones(3, dtype=np.int8)
    draw = np.random.default_rng(5).random()
    # the boundary between actions 0 and 1 sits just under the draw alone, just over it in a batch
    row = [draw - 5e-8, 0.5 * (1 - draw + 5e-8), 0.5 * (1 - draw + 5e-8)]
    wobbly = _Wobbly(row, deterministic=False, seed=5)
    batched_row = wobbly.forward(np.stack([observation] * 2), np.stack([mask] * 2))[0]
    taken_as_is = choose(batched_row, mask, deterministic=False, rng=np.random.default_rng(5), alone=True,
                         again=lambda: None)
    assert taken_as_is == 0  # what the batch would pick without the margin
    alone = decide([(wobbly, observation, mask)])
    assert alone == [1]
    assert decide([(_Wobbly(row, deterministic=False, seed=5), observation, mask) for _ in range(3)]) == alone * 3


def test_the_actor_loaded_alone_gives_the_same_logits_as_the_sb3_model(checkpoint, monkeypatch):
    import torch
    from stable_baselines3.common.preprocessing import preprocess_obs

    from issoku.agents import checkpoint as checkpoint_module
    from issoku.agents.checkpoint import CheckpointPolicy
    from issoku.agents.checkpoint_zip import NotPlainActorError, load_actor, load_model

    policy = load_model(checkpoint).policy
    observations = torch.as_tensor(np.random.default_rng(0).random((7, policy.observation_space.shape[0]),
                                                                    dtype=np.float32))
    with torch.inference_mode():
        expected = policy.action_net(policy.mlp_extractor.forward_actor(
            policy.pi_features_extractor(preprocess_obs(observations, policy.observation_space))))
        assert torch.equal(load_actor(checkpoint)(observations), expected)
    masks = np.ones((7, policy.action_space.n), dtype=np.int8)
    light = CheckpointPolicy(checkpoint).action_probabilities_batch(observations.numpy(), masks)

    def refuse(path):
        raise NotPlainActorError("not plain")

    monkeypatch.setattr("issoku.agents.checkpoint_zip.load_actor", refuse)
    fallback = checkpoint_module.CheckpointPolicy(checkpoint)  # through SB3's model
    assert np.array_equal(fallback.action_probabilities_batch(observations.numpy(), masks), light)
