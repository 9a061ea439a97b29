"""Degenerate strategies are rules findings: a policy that forces draws against every opponent, pairs that never
fight, one action that wins against everyone."""

from __future__ import annotations

from dataclasses import replace

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
                           "ma_heuristic. DEGENERATE (stalling): 35 of 40 games drawn (88% [74%, 95%]), at least 75% "
                           "against each of its 2 opponents (fewest against ma_heuristic: 75% [53%, 89%] of 20; "
                           "significant: every interval above 50% at 95%)")
    assert "random – turtle 20/20 100% [84%, 100%] (0 of 1 intervals above 90% at 95%: not significant)" in pairs


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
                           "decisions. DEGENERATE (one action): it scores above ½ against each of its 2 opponents, "
                           "80% [58%, 92%] (n=20) against other, its hardest (significant: every interval above 50% "
                           "at 95%)")
    varied = (("thrust", "parry", "cut"), ("parry", "cut"))
    assert one_action_lines("toy_v0", _games("spammer", "random", 20, lambda s: 1.0, varied)
                            + _games("spammer", "other", 20, lambda s: 1.0, varied)) == []


def test_stalling_pairs_and_a_vacuous_battery_name_the_rule_that_ended_their_drawn_games(tmp_path):
    """EN-G18 (the round limit) ends the encounter duel's drawn games: the degenerate lines name it, read from the
    engine by replaying the stored games, with each draw share's interval."""
    from issoku.evaluation.games.config import StudyConfig, build_tournament
    from issoku.evaluation.reports.degenerate import vacuous_battery_line
    from issoku.evaluation.games.store import MatchStore
    from issoku.evaluation.games.tournament import run_tournament

    study = StudyConfig.model_validate({"env": "encounter_duel_v0", "games_per_pair": 12,
                                        "policies": ["encounter_air", "encounter_earth", "encounter_void"]})
    with MatchStore(tmp_path / "m.sqlite") as store:
        run_tournament(build_tournament(study), store, workers=0, progress=False)
        records = list(store.records())
    *stalls, line = stall_lines("encounter_duel_v0", records, {})
    assert len(stalls) == 3 and all("DEGENERATE (stalling)" in stall and "Rests on EN-G18" in stall
                                    for stall in stalls), stalls  # each draws every game with both others
    assert "DEGENERATE (mutual stalling): 3 pairs draw at least 90% of their games: encounter_air – encounter_earth " \
           "12/12 100% [76%, 100%]" in line
    assert line.endswith(" Rests on EN-G18.") or " Rests on EN-G18, " in line, line
    renamed = [replace(r, policies=(f"{r.policies[0]} -attack", r.policies[1])) for r in records[:12]]
    (battery,) = vacuous_battery_line("encounter_duel_v0", renamed)
    assert battery.startswith("encounter_duel_v0: restricted play is vacuous: all 12 of its games were drawn, so it "
                              "measures no restriction. DEGENERATE (vacuous battery): draws 100% [76%, 100%] of 12 ")
    assert "Rests on EN-G18" in battery
    assert vacuous_battery_line("encounter_duel_v0", renamed + [make_record(("a -x", "a"), (1.0, -1.0))]) == []
