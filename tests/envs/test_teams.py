"""The team view: two-seat envs pass through unchanged; more agents must form exactly two teams.

The team view's play (one policy per side, side outcomes as returns) is tested on the breath skirmish,
the env it exists for: ``tests/skirmish/test_commands.py``."""

from types import SimpleNamespace

import pytest

from issoku.envs.teams import as_two_seats, seat_teams

from tests.evaluation.toy_env import TakeAwayEnv


def test_a_two_seat_env_is_played_as_it_is():
    env = TakeAwayEnv()
    assert as_two_seats(env) is env and seat_teams(env) == (0, 1)


def test_agents_on_more_than_two_teams_are_refused():
    three = SimpleNamespace(possible_agents=["a", "b", "c"], metadata={"name": "three_v0"})
    three.unwrapped = three  # no ruleset: every agent is its own team
    with pytest.raises(ValueError, match="three_v0 has 3 agents on 3 teams"):
        as_two_seats(three)
