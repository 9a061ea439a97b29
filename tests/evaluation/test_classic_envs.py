"""Tournaments on PettingZoo's own classic envs: the evaluation layer assumes only the classic convention.

PettingZoo's classic envs import pygame for rendering only; where pygame is absent an empty stand-in
module lets them load (nothing here renders).
"""

import importlib.util
import sys
import types

import numpy as np

from issoku.agents.policy import RandomLegal
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import PolicySpec, Tournament, run_tournament

if importlib.util.find_spec("pygame") is None:
    sys.modules.setdefault("pygame", types.ModuleType("pygame"))

from pettingzoo.classic.connect_four import connect_four  # noqa: E402
from pettingzoo.classic.tictactoe import tictactoe  # noqa: E402


class FirstLegal:
    """Plays the lowest legal action (a fixed, beatable strategy)."""

    def __init__(self, seed: int | None = None) -> None:
        pass

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask)[0])


def play(env_factory, tmp_path, workers):
    tournament = Tournament(env_factory, (PolicySpec("random", RandomLegal), PolicySpec("first", FirstLegal)),
                            games_per_pair=10)
    with MatchStore(tmp_path / "classic.sqlite") as store:
        run = run_tournament(tournament, store, workers=workers, batch_size=3, progress=False)
        return run, list(store.records())


def test_tictactoe_records_are_consistent(tmp_path):
    run, records = play(tictactoe.env, tmp_path, workers=2)
    assert run.played == 10 and {r.env_id for r in records} == {"tictactoe_v3"}
    for record in records:
        assert sum(record.returns) == 0.0 and record.first_seat == 0  # player_1 always opens
        assert len(record.actions[0]) - len(record.actions[1]) in (0, 1)
        assert record.winner is None or record.returns[record.winner] == 1.0
        assert set(record.actions[0]) <= {str(cell) for cell in range(9)}


def test_connect_four_seats_swap_and_each_game_is_stored_once(tmp_path):
    run, records = play(connect_four.env, tmp_path, workers=0)
    assert run.played == 10 and len({r.key for r in records}) == 10
    assert sorted(r.policies for r in records).count(("first", "random")) == 5
    assert all(r.length == len(r.actions[0]) + len(r.actions[1]) for r in records)
