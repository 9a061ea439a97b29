"""The heuristic Ma fighter against random-legal play, measured the way ``issoku head-to-head`` reports it.

The 500-duel figure lives in docs/results/heuristics_vs_random.md (scripts/heuristics_vs_random.py); here a small, fixed sample is asserted loosely (a clear win
over random play), so the test stays fast and cannot flap on one seed.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from issoku.cli import app
from issoku.evaluation.strength.head_to_head import head_to_head
from issoku.evaluation.games.store import MatchStore
from issoku.common.outcomes import Tally, wilson

DUELS = 60


@pytest.mark.parametrize("kind", ["ikkiuchi", "hatashiai"])
def test_ma_heuristic_clearly_beats_random_legal(kind):
    result = head_to_head("ma_heuristic", "random", DUELS, env_kwargs={"kind": kind})
    assert result.total.duels == DUELS and result.by_seat[0].duels == result.by_seat[1].duels == DUELS // 2
    win = result.total.win_rate()
    assert win.value >= 0.65 and win.low > 0.5, result.summary()


def test_the_same_seeds_give_the_same_counts_and_a_store_keeps_each_duel_once(tmp_path):
    db = tmp_path / "duels.sqlite"
    first = head_to_head("breath_aggressive", "random", 8, base_seed=3, db=db)
    again = head_to_head("breath_aggressive", "random", 8, base_seed=3, db=db)
    in_memory = head_to_head("breath_aggressive", "random", 8, base_seed=3)
    assert first == again == in_memory
    more = head_to_head("breath_aggressive", "random", 10, base_seed=3, db=db)  # 2 new duels, 8 reused
    with MatchStore(db) as store:
        assert more.total.duels == store.count() == 10


def test_tally_counts_wins_draws_losses_and_intervals():
    tally = Tally().add(1.0).add(1.0).add(0.5).add(0.0)
    assert (tally.wins, tally.draws, tally.losses, tally.duels) == (2, 1, 1, 4)
    assert tally.win_rate() == wilson(2, 4) and tally.score_rate() == wilson(2.5, 4)


def test_head_to_head_command_prints_counts_and_an_interval_and_refuses_bad_input():
    runner = CliRunner()
    result = runner.invoke(app, ["head-to-head", "-a", "breath_heuristic", "-n", "6", "--env-kwargs",
                                 '{"kind": "hatashiai"}'])
    assert result.exit_code == 0, result.output
    assert 'breath_heuristic vs random on breath_duel_v0 ({"kind":"hatashiai"}), 6 duels, seeds 0..2' in result.output
    assert "95% interval [" in result.output and "as seat 1" in result.output
    for bad in (["--env-kwargs", "[1]"], ["-a", "nobody"], ["--env-kwargs", '{"kind": "brawl"}'],
                ["-a", "random"]):
        refused = runner.invoke(app, ["head-to-head", "-n", "2", *bad])
        assert refused.exit_code == 2, (bad, refused.output)
