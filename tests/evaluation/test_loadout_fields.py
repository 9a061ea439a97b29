"""Per-loadout learned agents (issoku finetune-loadouts, ``per_loadout:DIR``) and the scripted/learned field
headlines of a loadout study: plumbing on the toy game and the disagreement logic on hand-made records."""

import json

import pytest

from issoku.evaluation.reports.commands import balance_report
from issoku.evaluation.games.config import StudyConfig
from issoku.evaluation.reports.fields import field_headlines, field_of, field_rankings
from issoku.evaluation.strength.loadout_agents import finetune_loadouts, loadout_jobs, plan_loadout_agents
from issoku.evaluation.games.policies import resolve_policy
from issoku.evaluation.games.store import MatchStore
from issoku.training.finetune import fine_tune_loadout

from tests.evaluation.factories import make_record
from tests.evaluation.toy_env import take_away_fighters
from tests.training.test_finetune import tiny_checkpoint

ENV = "tests.evaluation.toy_env:take_away_fighters"
GRID = {"seat_key": "fighters", "labels": ["a", "bb"], "mirrors": True}


def grid_study(policies):
    return StudyConfig.model_validate({"env": ENV, "policies": policies, "games_per_pair": 4, "mirrors": True,
                                       "loadout_grid": GRID})


def test_one_agent_per_label_written_once_then_each_seat_played_by_its_loadouts_agent(tmp_path):
    checkpoint = tiny_checkpoint(tmp_path, ENV, take_away_fighters())
    study_file = tmp_path / "study.toml"
    study_file.write_text(f'env = "{ENV}"\npolicies = ["per_loadout:not_yet"]\n[loadout_grid]\nseat_key = "fighters"\n'
                          'labels = ["a", "bb"]\nmirrors = true\n')
    jobs = plan_loadout_agents(study_file, str(checkpoint), steps=32, seed=5, out=tmp_path / "agents",
                               allow_imports=True)
    assert [(job.label, job.fighter, job.seed) for job in jobs] == [("a", "a", 5), ("bb", "bb", 6)]
    assert jobs[0].opponents == ("a", "bb")
    paths = finetune_loadouts(jobs, workers=0, progress=False)
    assert paths == [str(tmp_path / "agents" / "a.zip"), str(tmp_path / "agents" / "bb.zip")]
    tuned = json.loads((tmp_path / "agents" / "bb.json").read_text())["fine_tuned"]
    assert (tuned["loadout"], tuned["fighter"], tuned["steps"], tuned["seed"]) == ("bb", "bb", 32, 6)
    stamp = (tmp_path / "agents" / "a.zip").stat().st_mtime_ns
    assert finetune_loadouts(jobs, workers=0, progress=False) == paths
    assert (tmp_path / "agents" / "a.zip").stat().st_mtime_ns == stamp  # reused, not retrained

    with pytest.raises(ValueError, match="a.zip was fine-tuned as .* not as this run asks"):
        plan_loadout_agents(study_file, str(checkpoint), steps=64, seed=5, out=tmp_path / "agents", allow_imports=True)
    assert len(plan_loadout_agents(study_file, str(checkpoint), steps=32, seed=5, out=tmp_path / "agents",
                                   allow_imports=True)) == 2  # the same settings: reused

    spec = resolve_policy(f"tuned=per_loadout:{tmp_path / 'agents'}")
    assert spec.factory.labels == ("a", "bb")
    with pytest.raises(ValueError, match="no fine-tuned checkpoint .*ccc.zip for loadout 'ccc'"):
        spec.factory(seed=0, seat_label="ccc")

    runs, report = balance_report([grid_study(["random"]), grid_study([f"tuned=per_loadout:{tmp_path / 'agents'}"])],
                                  tmp_path / "m.sqlite", tmp_path / "out", workers=0, bootstrap=10, progress=False)
    with MatchStore(tmp_path / "m.sqlite") as store:
        fields = {field_of(record) for record in store.records()}
    assert fields == {"scripted", "learned"}
    text = report.read_text()
    assert "loadouts in the scripted field (random): " in text
    assert "loadouts in the learned field (tuned): " in text


def test_fine_tuning_a_loadout_is_deterministic_given_its_seed(tmp_path):
    checkpoint = tiny_checkpoint(tmp_path, ENV, take_away_fighters())
    [job] = loadout_jobs(grid_study(["random"]), str(checkpoint), steps=32, seed=0, out=tmp_path)[:1]
    import io
    import zipfile

    def weights(blob):
        return zipfile.ZipFile(io.BytesIO(blob)).read("policy.pth")

    assert weights(fine_tune_loadout(job)) == weights(fine_tune_loadout(job))


def test_a_study_without_a_grid_is_refused_naming_the_field():
    study = StudyConfig.model_validate({"env": ENV, "policies": ["random"]})
    with pytest.raises(ValueError, match="s.toml: loadout_grid: the study has none"):
        loadout_jobs(study, "x.zip", 32, 0, "out", where="s.toml")


def games(policy, score_of, games_per_pair=40):
    """Seat-swapped games between every pair of labels, the first label of a pair winning ``score_of(a, b)`` of them."""
    records = []
    labels = ("unarmed", "ninjato", "staff")
    for a in labels:
        for b in labels:
            if a == b:
                continue
            wins = round(score_of(a, b) * games_per_pair)
            for g in range(games_per_pair):
                returns = (1.0, -1.0) if g < wins else (-1.0, 1.0)
                records.append(make_record((policy, policy), returns, seed=g, loadout=f"{a}-vs-{b}", labels=(a, b),
                                           env_id="toy_v0"))
    return records


ORDER = {"unarmed": 2, "ninjato": 1, "staff": 0}


def test_every_loadout_one_field_puts_above_the_field_and_another_below_it_is_flagged():
    scripted = games("random", lambda a, b: 0.9 if ORDER[a] > ORDER[b] else 0.1)  # unarmed >> ninjato >> staff
    flipped = games("tuned", lambda a, b: 0.9 if ORDER[a] < ORDER[b] else 0.1)  # the learned field: staff on top
    lines = field_headlines("toy_v0", field_rankings(scripted + flipped, bootstrap=50))
    flags = [line for line in lines if "DISAGREE" in line]
    assert len(flags) == 2 and not any("ninjato" in line.split("DISAGREE")[1] for line in flags)  # ninjato 2nd in both
    assert flags[0].startswith("toy_v0: DISAGREE: unarmed strongest in the scripted field (+")
    assert "above the field) but weakest in the learned field (" in flags[0] and "below the field)" in flags[0]


AGREE = "field do not contradict each other: no loadout is above the field in one and below it in another."


def test_fields_that_agree_get_one_line_saying_so_and_one_field_gets_none():
    strong = games("random", lambda a, b: 0.9 if ORDER[a] > ORDER[b] else 0.1)
    same = games("tuned", lambda a, b: 0.85 if ORDER[a] > ORDER[b] else 0.15)
    assert field_headlines("toy_v0", field_rankings(strong + same, bootstrap=50))[-1] == \
        f"toy_v0: the scripted and the learned {AGREE}"
    assert field_headlines("toy_v0", field_rankings(strong, bootstrap=50)) == []


def test_a_place_swap_or_a_level_verdict_beside_a_decided_one_is_no_disagreement():
    strong = games("random", lambda a, b: 0.9 if ORDER[a] > ORDER[b] else 0.1)
    swapped = {"unarmed": 1, "ninjato": 2, "staff": 0}  # ninjato and unarmed swap places; the field is small
    few = games("tuned", lambda a, b: 0.75 if swapped[a] > swapped[b] else 0.25, games_per_pair=4)
    assert field_headlines("toy_v0", field_rankings(strong + few, bootstrap=50))[-1] == \
        f"toy_v0: the scripted and the learned {AGREE}"


def test_places_are_named_among_the_loadouts_both_fields_rate():
    scripted = games("random", lambda a, b: 0.9 if ORDER[a] > ORDER[b] else 0.1)
    extra = [make_record(("random", "random"), (1.0, -1.0) if g % 4 else (-1.0, 1.0), seed=g, loadout=f"caster-vs-{b}",
                         labels=("caster", b), env_id="toy_v0") for b in ORDER for g in range(40)]
    flipped = games("tuned", lambda a, b: 0.9 if ORDER[a] < ORDER[b] else 0.1)
    rankings = field_rankings(scripted + extra + flipped, bootstrap=50)
    flags = [line for line in field_headlines("toy_v0", rankings) if "DISAGREE" in line]
    assert flags[0].startswith("toy_v0: DISAGREE: unarmed strongest in the scripted field")  # not 2nd, behind caster


def test_search_agents_are_a_field_of_their_own_compared_with_each_other_field():
    scripted = games("random", lambda a, b: 0.9 if ORDER[a] > ORDER[b] else 0.1)
    search = games("mcts_small", lambda a, b: 0.9 if ORDER[a] < ORDER[b] else 0.1)  # search puts staff on top
    learned = games("tuned", lambda a, b: 0.85 if ORDER[a] > ORDER[b] else 0.15)
    assert {field_of(record) for record in search} == {"search"}
    mixed = make_record(("mcts_small", "tuned"), (1.0, -1.0), labels=("a", "b"))
    assert field_of(mixed) == "learned"  # a checkpoint in the game makes it the learned field's
    lines = field_headlines("toy_v0", field_rankings(scripted + search + learned, bootstrap=50))
    assert [line.split(" (")[0] for line in lines[:3]] == [
        f"toy_v0: loadouts in the {field} field" for field in ("scripted", "search", "learned")]
    flags = [line.split("DISAGREE: ")[1] for line in lines if "DISAGREE" in line]
    assert len(flags) == 4  # unarmed and staff, scripted against search and search against learned
    assert sum(" in the search field " in flag for flag in flags) == 4
    assert field_headlines("toy_v0", field_rankings(scripted + learned + games(
        "one_step", lambda a, b: 0.88 if ORDER[a] > ORDER[b] else 0.12), bootstrap=50))[-1] == \
        f"toy_v0: the scripted, the search and the learned {AGREE}"


def test_agent_kinds_name_search_apart_from_scripted_and_learned():
    from issoku.evaluation.reports.findings import agent_kinds

    assert agent_kinds(["ma_heuristic", "random"]) == "scripted"
    assert agent_kinds(["mcts_large"]) == "search"
    assert agent_kinds(["one_step -attack:a", "ma_heuristic"]) == "scripted + search"
    assert agent_kinds(["tuned", "mcts_small", "random"]) == "scripted + search + learned or imported"
