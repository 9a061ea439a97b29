import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from issoku.agents.policy import RandomLegal
from issoku.evaluation.games.match import play_match
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import (Loadout, PolicySpec, Tournament, make_jobs, run_tournament, run_tournaments,
                                          schedule)

from .toy_env import Perfect, TakeAwayEnv, TakeOne, take_away_env, toy_tournament

HERE = Path(__file__).resolve().parent


def test_schedule_swaps_seats_on_shared_seeds_and_keys_every_game_uniquely():
    scheduled = schedule(toy_tournament(games_per_pair=4, base_seed=10))
    assert len(scheduled) == 2 * 3 * 4  # loadouts x pairs x games
    assert len({spec.key for _, spec in scheduled}) == len(scheduled)
    first_pair = [spec for loadout, spec in scheduled if loadout.name == "small"][:4]
    assert [s.policies for s in first_pair] == [("perfect", "random"), ("random", "perfect")] * 2
    assert [s.seed for s in first_pair] == [10, 10, 11, 11]


def test_mirrors_add_each_policy_against_itself():
    tournament = Tournament(take_away_env, (PolicySpec("a", TakeOne), PolicySpec("b", TakeOne)), mirrors=True)
    assert tournament.pairs() == [("a", "a"), ("a", "b"), ("b", "b")]
    mirror = [spec for _, spec in schedule(tournament) if spec.policies == ("a", "a")]
    assert [spec.seed for spec in mirror] == list(range(tournament.games_per_pair))  # no seat swap to pair up
    assert len({spec.key for _, spec in schedule(tournament)}) == 3 * tournament.games_per_pair


def test_both_seats_get_their_final_reward_and_the_record_is_consistent():
    env = TakeAwayEnv(min_pile=4, max_pile=4)
    record = play_match(env, [Perfect(), TakeOne()], seed=0, key="k", loadout="x", loadout_kwargs={},
                        policy_names=("perfect", "take_one"))
    assert sorted(record.returns) == [-1.0, 1.0]
    assert record.returns[record.winner] == 1.0 and record.policies[record.winner] == "perfect"
    assert record.length == sum(len(a) for a in record.actions) and set(record.actions[0]) <= {"take1", "take2", "take3"}
    assert record.actions[record.first_seat]  # the first mover acted
    assert record.kinds == tuple(("take",) * len(seat) for seat in record.actions)


def test_a_policy_choosing_a_masked_out_action_is_an_error_not_a_loss():
    import numpy as np
    import pytest

    from issoku.envs import breath_duel_v0

    def masked_out(observation, mask):
        return int(np.flatnonzero(mask == 0)[0])

    with pytest.raises(ValueError, match="policy 'bad' chose a masked-out action"):
        play_match(breath_duel_v0.env(), [masked_out, RandomLegal(seed=0)], seed=0, key="k", loadout="x",
                   loadout_kwargs={}, policy_names=("bad", "random"))


def test_issoku_decision_kinds_are_recorded_by_name():
    from issoku.envs import tempo_duel_v0

    env = tempo_duel_v0.env()
    record = play_match(env, [RandomLegal(seed=0), RandomLegal(seed=1)], seed=0, key="k", loadout="x",
                        loadout_kwargs={}, policy_names=("a", "b"))
    kinds = {kind for seat in record.kinds for kind in seat}
    assert kinds and kinds <= set(env.ruleset.decision_kinds)


def test_a_truncated_game_is_a_draw_and_flagged():
    env = TakeAwayEnv(min_pile=20, max_pile=20, max_moves=3)
    record = play_match(env, [TakeOne(), TakeOne()], seed=1, key="k", loadout="x", loadout_kwargs={},
                        policy_names=("a", "b"))
    assert record.truncated and record.winner is None and record.length == 3 and record.returns == (0.0, 0.0)


def test_a_tournament_stores_every_game_once_and_a_rerun_plays_nothing(tmp_path):
    tournament = toy_tournament(games_per_pair=6)
    with MatchStore(tmp_path / "t.sqlite") as store:
        first = run_tournament(tournament, store, workers=0, batch_size=5, progress=False)
        assert (first.scheduled, first.already_stored, first.played) == (36, 0, 36)
        again = run_tournament(tournament, store, workers=0, progress=False)
        assert (again.already_stored, again.played) == (36, 0)
        records = list(store.records())
    wins = Counter(r.policies[r.winner] for r in records if "perfect" in r.policies and r.winner is not None)
    assert wins["perfect"] > 2 * sum(v for k, v in wins.items() if k != "perfect")
    assert {r.loadout for r in records} == {"small", "large"}


def test_tournaments_run_together_store_what_each_stores_alone_and_count_their_own_games(tmp_path):
    first, second = toy_tournament(games_per_pair=4), toy_tournament(games_per_pair=6, base_seed=100)
    with MatchStore(tmp_path / "alone.sqlite") as alone, MatchStore(tmp_path / "together.sqlite") as together:
        run_tournament(first, alone, workers=0, progress=False)
        run_tournament(second, alone, workers=0, progress=False)
        run_tournament(first, together, workers=0, progress=False)  # the first already stored, the second not
        runs = run_tournaments([first, second], together, workers=2, batch_size=5, progress=False)
        assert [(run.scheduled, run.already_stored, run.played) for run in runs] == [(24, 24, 0), (36, 0, 36)]
        assert list(alone.records()) == list(together.records())


def test_a_process_pool_stores_exactly_what_one_process_stores(tmp_path):
    tournament = toy_tournament(games_per_pair=4)
    with MatchStore(tmp_path / "inline.sqlite") as inline, MatchStore(tmp_path / "pool.sqlite") as pooled:
        run_tournament(tournament, inline, workers=0, progress=False)
        run_tournament(tournament, pooled, workers=2, batch_size=3, progress=False)
        assert list(inline.records()) == list(pooled.records())


def test_a_tournament_killed_halfway_resumes_without_losing_or_duplicating(tmp_path):
    script = ("import sys; from issoku.evaluation.games.store import MatchStore; "
              "from issoku.evaluation.games.tournament import run_tournament; "
              "from tests.evaluation.toy_env import toy_tournament; "
              "run_tournament(toy_tournament(games_per_pair=6, killer=True), MatchStore(sys.argv[1]), "
              "workers=0, batch_size=4, progress=False)")
    path = tmp_path / "killed.sqlite"
    env = {**os.environ, "PYTHONPATH": str(HERE.parent.parent), "TOY_KILL_AT": "15"}
    killed = subprocess.run([sys.executable, "-c", script, str(path)], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert killed.returncode == -9, killed.stderr
    with MatchStore(path) as store:
        survived = store.count()
    assert 0 < survived < 36

    env.pop("TOY_KILL_AT")
    resumed = subprocess.run([sys.executable, "-c", script, str(path)], env=env, capture_output=True, text=True, cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    with MatchStore(tmp_path / "whole.sqlite") as whole:
        run_tournament(toy_tournament(games_per_pair=6, killer=True), whole, workers=0, progress=False)
        expected = list(whole.records())
    with MatchStore(path) as store:
        assert store.count() == 36
        assert list(store.records()) == expected
        seats = store._db.execute("SELECT COUNT(*) FROM seats").fetchone()[0]
    assert seats == 72


def test_jobs_skip_stored_keys_and_run_on_across_loadouts_in_schedule_order():
    tournament = toy_tournament(games_per_pair=4)
    scheduled = schedule(tournament)
    stored = {spec.key for _, spec in scheduled[:5]}
    jobs = make_jobs(tournament, scheduled, stored, batch_size=4)
    played = [(loadout.name, m.key) for job in jobs for loadout, matches in job.parts() for m in matches]
    assert played == [(loadout.name, spec.key) for loadout, spec in scheduled[5:]]  # every unstored game, in order
    assert all(job.size == 4 for job in jobs[:-1]) and 0 < jobs[-1].size <= 4
    # a batch that reaches a loadout's last game runs on into the next loadout (one job, two parts)
    assert any(len(job.parts()) == 2 and job.parts()[0][0] != job.parts()[1][0] for job in jobs)


def test_policies_are_rebuilt_per_game_from_the_game_seed(tmp_path):
    tournament = Tournament(take_away_env, (PolicySpec("r1", RandomLegal), PolicySpec("r2", RandomLegal)),
                            (Loadout("d", {}),), games_per_pair=6, base_seed=3)
    with MatchStore(tmp_path / "a.sqlite") as a, MatchStore(tmp_path / "b.sqlite") as b:
        run_tournament(tournament, a, workers=0, batch_size=1, progress=False)
        run_tournament(tournament, b, workers=0, batch_size=6, progress=False)
        assert list(a.records()) == list(b.records())


class NeedsRuleset:
    """A policy built for one ruleset, like the scripted breath fighters."""

    def __init__(self, ruleset, seed=None):
        self.ruleset = ruleset

    def __call__(self, observation, action_mask):
        return 0


def test_a_factory_taking_a_ruleset_gets_the_envs_ruleset():
    from issoku.evaluation.games.tournament import make_seat_policy

    env = TakeAwayEnv()
    env.ruleset = "the rules"
    assert make_seat_policy(PolicySpec("s", NeedsRuleset), 3, env).ruleset == "the rules"
    assert isinstance(make_seat_policy(PolicySpec("r", RandomLegal), 3, env), RandomLegal)
