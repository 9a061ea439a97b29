"""Degenerate strategies are rules findings: a policy that forces draws against every opponent, pairs that never
fight, one action that wins against everyone."""

from __future__ import annotations

from issoku.evaluation.reports.degenerate import one_action_lines, stall_lines

from .factories import make_record


def _games(a: str, b: str, games: int, outcome, actions=((), ())) -> list:
    """``games`` games of ``a`` against ``b``, seats swapped; ``outcome(s)`` is a's return in game ``s`` (0: draw)."""
    records = []
    for s in range(games):
        policies = (a, b) if s % 2 == 0 else (b, a)
        mine = outcome(s)
        returns = (mine, -mine) if s % 2 == 0 else (-mine, mine)
        played = actions if s % 2 == 0 else actions[::-1]
        records.append(make_record(policies, returns, seed=s, actions=played))
    return records


def test_a_policy_that_draws_against_every_opponent_even_the_strongest_is_a_stall():
    store = (_games("turtle", "random", 20, lambda s: 0.0) + _games("turtle", "ma_heuristic", 20,
                                                                  lambda s: 0.0 if s % 4 else -1.0)
             + _games("ma_heuristic", "random", 20, lambda s: 1.0))
    line, pairs = stall_lines("toy_v0", store, {"ma_heuristic": 300.0, "random": -200.0, "turtle": 0.0})
    assert "random – turtle 20/20" in pairs and "ma_heuristic – turtle" not in pairs  # 15 of 20 drawn: under 90 %
    assert line.startswith("toy_v0: turtle forces draws: it never commits and cannot be punished, even by "
                           "ma_heuristic. DEGENERATE (stalling): 35 of 40 games drawn, at least 75% against each of "
                           "its 2 opponents")


def test_a_policy_that_the_strongest_opponent_beats_does_not_stall_but_a_pair_that_always_draws_is_named():
    store = (_games("turtle", "random", 20, lambda s: 0.0) + _games("turtle", "ma_heuristic", 20, lambda s: -1.0)
             + _games("ma_heuristic", "random", 20, lambda s: 1.0))
    (line,) = stall_lines("toy_v0", store, {})
    assert line.startswith("toy_v0: Some pairs of fighters never fight each other") and "random – turtle 20/20" in line


def test_one_action_that_beats_every_opponent_is_a_finding_and_a_varied_winner_is_not():
    spam = (("thrust",) * 9 + ("parry",), ("parry", "cut"))
    store = (_games("spammer", "random", 20, lambda s: 1.0, spam) + _games("spammer", "other", 20,
                                                                           lambda s: 1.0 if s % 5 else -1.0, spam))
    (line,) = one_action_lines("toy_v0", store)
    assert line.startswith("toy_v0: One action wins whatever the opponent does: spammer plays thrust in 90% of its "
                           "decisions. DEGENERATE (one action)")
    varied = (("thrust", "parry", "cut"), ("parry", "cut"))
    assert one_action_lines("toy_v0", _games("spammer", "random", 20, lambda s: 1.0, varied)
                            + _games("spammer", "other", 20, lambda s: 1.0, varied)) == []
