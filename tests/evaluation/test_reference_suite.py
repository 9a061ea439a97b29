import math

import numpy as np
import pytest

from issoku.evaluation.strength.reference_suite import SuiteConfig, calibrate, fixed_scale_elo, score_candidate

from .factories import make_record

SUITE = SuiteConfig(name="toy", version=1, env="toy_v0", policies=("weak", "strong"), games_per_pair=4,
                    reference_elo={"weak": 0.0, "strong": 200.0})


def test_fixed_scale_elo_matches_the_closed_form_against_one_reference():
    # 3 of 4 against a 100-rated reference: 100 + 400·log10(3).
    elo = fixed_scale_elo(np.full(4, 100.0), np.array([1.0, 1.0, 1.0, 0.0]), prior=0.0)
    assert elo == pytest.approx(100 + 400 * math.log10(3))


def test_fixed_scale_elo_is_finite_for_a_perfect_score_and_grows_with_it():
    few = fixed_scale_elo(np.full(4, 0.0), np.ones(4))
    many = fixed_scale_elo(np.full(40, 0.0), np.ones(40))
    assert math.isfinite(few) and few < many


def test_a_candidate_is_scored_per_reference_and_on_the_suite_scale():
    records = []
    for seed in range(8):  # half the games from each seat
        seats = ("cand", "weak") if seed % 2 else ("weak", "cand")
        won = seed < 6
        returns = (1.0, -1.0) if (seats[0] == "cand") == won else (-1.0, 1.0)
        records.append(make_record(seats, returns, seed=seed))
        strong_seats = ("cand", "strong") if seed % 2 else ("strong", "cand")
        records.append(make_record(strong_seats, (0.0, 0.0), seed=seed))
    result = score_candidate(records, SUITE, "cand", bootstrap=200)
    assert result.per_reference["weak"].value == pytest.approx(0.75)
    assert result.per_reference["strong"].value == pytest.approx(0.5)
    assert result.overall.n == 16
    assert 0.0 < result.elo < 200.0 + 1e-9 and result.low <= result.elo <= result.high


def test_an_uncalibrated_suite_and_a_suite_naming_unknown_references_are_refused():
    with pytest.raises(ValueError, match="not calibrated"):
        score_candidate([], SuiteConfig(name="x", version=1, env="e", policies=("a",)), "c")
    with pytest.raises(ValueError, match="not in the suite"):
        SuiteConfig(name="x", version=1, env="e", policies=("a",), reference_elo={"b": 0.0})


def test_calibration_anchors_the_first_reference_at_zero():
    records = [make_record(("weak", "strong"), (-1.0, 1.0) if s % 4 else (1.0, -1.0), seed=s) for s in range(40)]
    ratings = calibrate(records, SUITE)
    assert ratings["weak"] == 0.0 and ratings["strong"] > 100.0


def always_take_one(observation, action_mask):
    """A plain policy callable (no factory): what a researcher may hand the benchmark."""
    return 0


TOY_SUITE = SuiteConfig(name="toy", version=1, env="tests.evaluation.toy_env:take_away_env",
                        policies=("perfect=tests.evaluation.toy_env:Perfect",
                                  "take_one=tests.evaluation.toy_env:TakeOne"),
                        games_per_pair=6, reference_elo={"perfect": 400.0, "take_one": 0.0})


def test_policies_parse_as_registered_names_factories_plain_callables_and_checkpoints(tmp_path):
    from issoku.agents.policy import RandomLegal
    from issoku.evaluation.games.policies import CheckpointFactory, FixedCallable, resolve_policy

    assert resolve_policy("random").factory is RandomLegal
    named = resolve_policy("mine=tests.evaluation.toy_env:Perfect")
    assert named.name == "mine" and named.factory(seed=1)(np.array([5.0, 0.0]), np.ones(3)) == 0
    plain = resolve_policy("tests.evaluation.test_reference_suite:always_take_one")
    assert plain.name == "always_take_one" and isinstance(plain.factory, FixedCallable)
    assert plain.factory(seed=3) is always_take_one
    with pytest.raises(ValueError, match="no checkpoint"):
        resolve_policy("missing/model.zip")
    checkpoint = tmp_path / "model_100.zip"
    checkpoint.write_bytes(b"weights")
    spec = resolve_policy(str(checkpoint))  # loaded only when a game needs it
    assert spec.name == "model_100" and spec.factory == CheckpointFactory(str(checkpoint)) and spec.fingerprint
    assert resolve_policy(f"v2={checkpoint}").name == "v2"


def test_a_benchmark_run_plays_only_against_the_references_and_resumes(tmp_path):
    from issoku.evaluation.strength.reference_suite import format_result, run_benchmark
    from issoku.evaluation.games.policies import resolve_policy
    from issoku.evaluation.games.store import MatchStore

    candidate = resolve_policy("tests.evaluation.test_reference_suite:always_take_one")
    with MatchStore(tmp_path / "m.sqlite") as store:
        result = run_benchmark(TOY_SUITE, candidate, store, workers=0, bootstrap=50, progress=False)
        assert store.count() == 12 and {p for r in store.records() for p in r.policies} == {
            "always_take_one", "perfect", "take_one"}
        again = run_benchmark(TOY_SUITE, candidate, store, workers=0, bootstrap=50, progress=False)
        assert store.count() == 12 and again.elo == result.elo
    assert result.per_reference["take_one"].value == pytest.approx(0.5)  # a mirror of its own play
    assert result.per_reference["perfect"].value < 0.5 and result.elo < 400.0
    assert "suite toy v1: always_take_one" in format_result(result)


def test_the_shipped_suites_are_calibrated_for_every_reference():
    from issoku.evaluation.strength.reference_suite import load_suite, shipped_suites

    assert {"breath_duel_v0", "tempo_duel_v0"} <= set(shipped_suites())
    for name in shipped_suites():
        suite = load_suite(name)
        assert set(suite.reference_elo) == set(suite.reference_names) and suite.reference_elo["random"] == 0.0
        assert set(suite.reference_fingerprints) == set(suite.reference_names)


def test_the_shipped_suites_were_calibrated_on_the_references_code_as_it_is():
    """A reference whose code moved since calibration puts every benchmark off its scale (the command warns):
    an edit to a scripted agent means `issoku benchmark --suite NAME --calibrate`, then the version decision."""
    from issoku.evaluation.games.policies import resolve_policy
    from issoku.evaluation.strength.reference_suite import load_suite, shipped_suites

    for name in shipped_suites():
        suite = load_suite(name)
        stale = [ref for ref in suite.reference_names
                 if resolve_policy(ref).fingerprint != suite.reference_fingerprints[ref]]
        assert stale == [], f"suite {name}: recalibrate, {stale} changed"


def test_the_shipped_suites_were_calibrated_on_the_rules_as_they_are():
    """A rules change that moves a suite's fingerprint (the encounter rulesets' version 1) leaves its ratings from
    games of other rules: `issoku benchmark --suite NAME --calibrate`, then the version decision."""
    from issoku.evaluation.strength.reference_suite import load_suite, shipped_suites, suite_rules_fingerprint

    moved = {name: (load_suite(name).rules_fingerprint, suite_rules_fingerprint(load_suite(name)))
             for name in shipped_suites()}
    assert {name: pair for name, pair in moved.items() if pair[0] != pair[1]} == {}, "recalibrate"


def test_a_suite_calibrated_on_other_rules_is_flagged(tmp_path):
    from issoku.evaluation.strength.reference_suite import format_result, run_benchmark
    from issoku.evaluation.games.policies import resolve_policy
    from issoku.evaluation.games.store import MatchStore

    suite = TOY_SUITE.model_copy(update={"rules_fingerprint": "rules-of-another-day"})
    with MatchStore(tmp_path / "m.sqlite") as store:
        result = run_benchmark(suite, resolve_policy("tests.evaluation.test_reference_suite:always_take_one"), store,
                               workers=0, bootstrap=10, progress=False)
    assert result.rules_moved and "WARNING: the rules changed since suite toy v1" in format_result(result)


def test_a_reference_edited_since_calibration_is_flagged(tmp_path):
    from issoku.evaluation.strength.reference_suite import format_result, run_benchmark
    from issoku.evaluation.games.policies import resolve_policy
    from issoku.evaluation.games.store import MatchStore

    perfect = resolve_policy("perfect=tests.evaluation.toy_env:Perfect").fingerprint
    suite = TOY_SUITE.model_copy(update={"reference_fingerprints": {"perfect": perfect, "take_one": "old-code"}})
    with MatchStore(tmp_path / "m.sqlite") as store:
        result = run_benchmark(suite, resolve_policy("tests.evaluation.test_reference_suite:always_take_one"), store,
                               workers=0, bootstrap=10, progress=False)
    assert result.stale == ("take_one",) and "WARNING: take_one changed" in format_result(result)


def test_a_policy_fingerprint_follows_its_code(tmp_path, monkeypatch):
    import importlib
    import sys

    from issoku.evaluation.games.policies import code_fingerprint

    module = tmp_path / "my_agent_mod.py"
    module.write_text("class Agent:\n    def __init__(self, seed=None):\n        pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    first = code_fingerprint(importlib.import_module("my_agent_mod").Agent)
    module.write_text("class Agent:\n    def __init__(self, seed=None):\n        self.greedy = True\n")
    edited = code_fingerprint(importlib.reload(sys.modules["my_agent_mod"]).Agent)
    assert first and edited and first != edited


def test_a_reference_named_as_the_candidate_is_refused_with_the_way_that_works(tmp_path):
    from typer.testing import CliRunner

    from issoku.cli import app

    result = CliRunner().invoke(app, ["benchmark", "ma_heuristic", "--suite", "breath_duel_v0",
                                      "--db", str(tmp_path / "m.sqlite")])
    assert result.exit_code == 2
    assert "score it under another: issoku benchmark mine=ma_heuristic --suite breath_duel_v0" in result.output
