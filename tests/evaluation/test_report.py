from dataclasses import replace
from pathlib import Path

import pytest

from issoku.evaluation.reports.analysis import analyse
from issoku.evaluation.stats.metrics import CompositionSpec
from issoku.evaluation.reports.report import write_report
from issoku.evaluation.games.store import MatchStore

from .factories import make_record


def loadout_study():
    """One policy in mirror play; the katana side wins 3 of 4 against the yari side from either seat."""
    records = []
    for seed in range(40):
        labels = ("katana", "yari") if seed % 2 == 0 else ("yari", "katana")
        katana_wins = seed % 8 < 6
        katana_seat = labels.index("katana")
        returns = [-1.0, -1.0]
        returns[katana_seat if katana_wins else 1 - katana_seat] = 1.0
        records.append(make_record(("p", "p"), tuple(returns), seed=seed, labels=labels, loadout=f"lo{seed % 2}"))
    return records


def test_analysis_of_a_mirror_loadout_study_rates_loadouts_and_explains_what_it_cannot_do():
    analysis = analyse(loadout_study(), bootstrap=50)
    assert analysis.by_policy is None and any("fewer than two policies" in n for n in analysis.notes)
    loadouts = analysis.by_loadout
    assert loadouts.games.names == ("katana", "yari")
    assert loadouts.matchups.rate[0, 1] == pytest.approx(0.75)
    assert loadouts.matchups.dominant() == [0]
    assert loadouts.equilibrium.support == (0,) and [d.dominated for d in loadouts.dominated] == [1]
    assert loadouts.ratings.elo[0] > loadouts.ratings.elo[1]


def test_analyse_refuses_mixed_envs_and_empty_input():
    with pytest.raises(ValueError, match="one env"):
        analyse([make_record(("a", "b"), (1.0, -1.0)), make_record(("a", "b"), (1.0, -1.0), env_id="x_v0")])
    with pytest.raises(ValueError, match="no matches"):
        analyse([])


def test_an_incomplete_round_robin_still_reports_ratings_without_a_nash(tmp_path):
    records = [make_record(("a", "b"), (1.0, -1.0), seed=s) for s in range(4)] + \
              [make_record(("b", "c"), (1.0, -1.0), seed=s) for s in range(4)]
    analysis = analyse(records, bootstrap=20)
    assert analysis.by_policy.equilibrium is None and any("never met" in n for n in analysis.notes)


def test_the_report_writes_markdown_and_plots_for_every_env(tmp_path):
    policy_games = [make_record(("a", "b"), (1.0, -1.0) if s % 3 else (0.0, 0.0), seed=s, env_id="duel_v0",
                                actions=(("cut", "feint", "end_breath", "parry"), ("parry",)),
                                kinds=(("breath", "breath", "breath", "defend"), ("defend",))) for s in range(12)]
    with MatchStore(tmp_path / "m.sqlite") as store:
        store.insert(policy_games + loadout_study())
        path = write_report(store, tmp_path / "out", bootstrap=30, progress=False,
                            compositions={"duel_v0": CompositionSpec("breath", ("end_breath",))})
    text = path.read_text()
    for heading in ("## duel_v0", "## toy_v0", "### Ratings of policies", "### Matchups between loadouts",
                    "### Meta-game among loadouts", "### Initiative and decisiveness", "### Strategy diversity",
                    "### Most used action sequences", "cut → feint", "### Most used compositions",
                    "| a | cut → feint → end_breath | 12 (100%) |", "composition entropy"):
        assert heading in text
    assert "**Dominant** (interval above ½ against every opponent): katana." in text
    pngs = sorted(p.name for p in (tmp_path / "out").glob("*.png"))
    assert pngs == ["duel_v0_policies_matchups.png", "duel_v0_policies_ratings.png",
                    "toy_v0_loadouts_matchups.png", "toy_v0_loadouts_ratings.png"]
    for png in pngs:
        assert f"]({png})" in text
        assert (tmp_path / "out" / png).read_bytes()[:4] == b"\x89PNG"


def test_a_breath_loadout_finding_names_the_project_decisions_that_drive_it():
    """'unarmed dominates' comes from Physique 4 (BR-G19/BR-G04) and a 1-Energy strike (BR-G13)."""
    from issoku.evaluation.reports.report import headlines

    records = []
    for seed in range(40):
        labels = ("unarmed", "yari") if seed % 2 == 0 else ("yari", "unarmed")
        returns = [-1.0, -1.0]
        returns[labels.index("unarmed") if seed % 8 < 6 else 1 - labels.index("unarmed")] = 1.0
        records.append(make_record(("p", "p"), tuple(returns), seed=seed, labels=labels, loadout=f"lo{seed % 2}",
                                   env_id="breath_duel_v0"))
    found = [line for line in headlines(analyse(records, bootstrap=20), None, (), records=records) if "loadout" in line]
    assert "strongest loadout **unarmed**" in found[0]
    assert "Driven by Physique 4 (proposed, BR-G19; Wounds = 5 + Physique, BR-G04), unarmed.strike cost 1 " \
           "(proposed, BR-G13), not by the seed text." in found[0]


def test_a_tempo_loadout_finding_names_its_decisions_and_a_variant_names_none():
    """Tempo's numbers are all project decisions (TP-G..); games on other data than the shipped files get no
    drivers (the provenance modules read the shipped data, not the variant's)."""
    from issoku.evaluation.reports.report import headlines

    records = []
    for seed in range(40):
        labels = ("knight", "fencer") if seed % 2 == 0 else ("fencer", "knight")
        returns = [-1.0, -1.0]
        returns[labels.index("knight") if seed % 8 < 6 else 1 - labels.index("knight")] = 1.0
        records.append(make_record(("p", "p"), tuple(returns), seed=seed, labels=labels, loadout=f"lo{seed % 2}",
                                   env_id="tempo_duel_v0"))
    analysis = analyse(records, bootstrap=20)
    found = [line for line in headlines(analysis, None, (), records=records) if "loadout" in line]
    assert "strongest loadout **knight**" in found[0]
    assert "Driven by Endurance 3 (proposed, TP-G01; Health = 10 + 2 × Endurance, TP-G03), heavy armour " \
           "rating 6 (proposed, TP-G02; soaks every Hit, TP-G03), not by the seed text." in found[0]
    pooled = [line for line in headlines(analysis, None, (), data=None, records=records) if "loadout" in line]
    assert "Driven by" not in pooled[0]  # versions pooled: no one data to name


def test_a_variant_finding_names_the_variant_values_not_the_shipped_ones():
    from issoku.evaluation.reports.report import _driven_by

    variant = Path(__file__).resolve().parents[1] / "data" / "variants" / "armour_tempo_medium"
    assert "medium armour rating 4 " in _driven_by("tempo_duel_v0", "spearman", {})
    assert "medium armour rating 8 " in _driven_by("tempo_duel_v0", "spearman", {"variant": str(variant)})
    assert _driven_by("tempo_duel_v0", "spearman", {"variant": "/no/such/variant"}) == ""


def test_the_ruleset_names_the_drivers_not_the_env_name():
    """The report asks the ruleset (its ``decision_drivers`` hook), so a skirmish of the same rules names the same
    decisions as its duel, and rules without the hook name none."""
    from issoku.evaluation.reports.report import _driven_by

    assert _driven_by("tempo_skirmish_v0", "knight", {}) == _driven_by("tempo_duel_v0", "knight", {}) != ""
    assert _driven_by("encounter_duel_v0", "kenshi", {}) == ""


class _HookedRules:
    def decision_drivers(self, label):
        return [f"{label} reach 9 (proposed, XX-G01)"]


def hooked_env(**kwargs):
    """An env of no shipped rules whose ruleset answers the provenance hook (registered by the test below)."""
    from types import SimpleNamespace

    return SimpleNamespace(unwrapped=SimpleNamespace(ruleset=_HookedRules()), close=lambda: None)


def test_any_ruleset_with_the_hook_is_asked(monkeypatch):
    from issoku.envs import registry
    from issoku.evaluation.reports.report import _driven_by

    monkeypatch.setitem(registry.ENV_FACTORIES, "hooked_v0", f"{__name__}:hooked_env")
    assert _driven_by("hooked_v0", "pike", {}) == " Driven by pike reach 9 (proposed, XX-G01), not by the seed text."


def test_env_ids_from_a_crafted_store_never_name_files_outside_out(tmp_path):
    crafted = [make_record(("a", "b"), (1.0, -1.0) if s % 2 else (-1.0, 1.0), seed=s, env_id="../../escaped")
               for s in range(6)]
    with MatchStore(tmp_path / "m.sqlite") as store:
        store.insert(crafted)
        write_report(store, tmp_path / "deep" / "out", bootstrap=10, progress=False)
    written = {p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file() and p.name != "m.sqlite"}
    assert written and all(p.parts[:2] == ("deep", "out") for p in written), written
    assert any(p.name == "report.html" for p in written)


def _duel(a: str, b: str, wins_of_a: int, games: int, env_id: str = "toy_v0") -> list:
    """``games`` games of ``a`` against ``b``, seats swapped and the first mover alternating, ``a`` winning the first
    ``wins_of_a``."""
    records = []
    for s in range(games):
        policies = (a, b) if s % 2 == 0 else (b, a)
        winner = policies.index(a) if s < wins_of_a else policies.index(b)
        returns = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
        records.append(make_record(policies, returns, seed=s, first_seat=(s // 2) % 2, env_id=env_id))
    return records


def _grid(a: str, b: str, wins_of_a: int, games: int, policy: str = "p", env_id: str = "toy_v0") -> list:
    """``games`` games of loadout ``a`` against loadout ``b``, both played by ``policy``, seats swapped, ``a``
    winning the first ``wins_of_a``."""
    records = []
    for s in range(games):
        labels = (a, b) if s % 2 == 0 else (b, a)
        winner = labels.index(a) if s < wins_of_a else labels.index(b)
        returns = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
        records.append(make_record((policy, policy), returns, seed=s, labels=labels, loadout=f"{a}-{b}-{s % 2}",
                                   first_seat=(s // 2) % 2, env_id=env_id))
    return records


def test_headlines_carry_a_verdict_a_severity_and_the_agents_and_a_tie_is_never_a_winner():
    """Headlines only for effects whose corrected interval excludes zero, each opening with a plain sentence, then
    its verdict and severity against the designer's thresholds, the kind of agents behind it and their names."""
    from issoku.evaluation.reports.findings import Thresholds
    from issoku.evaluation.reports.report import headlines

    grid = _grid("katana", "yari", 38, 40, policy="random")
    clear = headlines(analyse(grid, bootstrap=20), None, (), records=grid)
    assert clear[0].startswith("toy_v0: katana wins too often: it scores 95% against yari, the other loadout of its "
                               "grid. IMBALANCED, severe: strongest loadout **katana** (beats runner-up yari")
    assert "(scripted agents: random)." in clear[0]
    lenient = headlines(analyse(grid, bootstrap=20), None, (), records=grid,
                        thresholds=Thresholds(balance=0.5, severe=0.5))
    assert lenient[0].startswith("toy_v0: katana wins more often than the rest: it scores 95% against yari, the other "
                                 "loadout of its grid. BALANCED, slight: strongest loadout **katana**")
    tie = _grid("a", "b", 10, 20)
    tied = headlines(analyse(tie, bootstrap=20), None, (), records=tie)
    assert not any("strongest loadout **" in line for line in tied)
    (quiet,) = [line for line in tied if "not significant" in line]
    assert "no single strongest loadout: a and b are not separated" in quiet and "(undetermined)" in quiet


def test_a_strong_agent_is_skill_in_its_own_section_never_an_imbalance(tmp_path):
    """Which agent plays best is skill: the report gives it a section and a headline of its own (the ladder, how
    often the better agent wins) and never an IMBALANCED headline saying that one agent beats another."""
    from issoku.evaluation.reports.report import headlines, read_headlines
    from issoku.evaluation.reports.skill import skill_headline, skill_ladders

    duel = _duel("mine", "random", 38, 40) + _duel("mine", "other", 30, 40) + _duel("other", "random", 24, 40)
    analysis = analyse(duel, bootstrap=20)
    assert not any("mine" in line or "strongest policy" in line
                   for line in headlines(analysis, None, (), records=duel) if "not significant" not in line)
    (skill,) = skill_ladders(analysis.by_policy.games, bootstrap=20)
    assert [skill.ratings.names[i] for i in skill.ladder] == ["random", "other", "mine"]
    assert skill.stronger_wins.n == 120 and skill.stronger_wins.value == pytest.approx((38 + 30 + 24) / 120)
    assert skill.luck_share == pytest.approx(2 * (120 - 92) / 120)
    line = skill_headline("toy_v0", skill)
    assert line.startswith("toy_v0: skill: Skill decides fights: the better of two agents wins 77% of decided games, "
                           "a gradient from random to mine.") and line.endswith("Skill, not a rules finding.")
    with MatchStore(tmp_path / "m.sqlite") as store:
        store.insert(duel)
        report = write_report(store, tmp_path / "out", bootstrap=10, progress=False)
    assert "### Skill: who plays best, and how much it matters" in report.read_text()
    lines = read_headlines(report)
    assert lines[0].startswith("toy_v0: skill: Skill decides fights") and not any("IMBALANCED" in line for line in lines)


def test_agents_that_never_met_are_never_on_one_ladder():
    from issoku.evaluation.reports.skill import skill_ladders

    apart = _duel("a", "b", 30, 40) + _duel("c", "d", 20, 40)
    ladders = skill_ladders(analyse(apart, bootstrap=10).by_policy.games, bootstrap=10)
    assert sorted(sorted(skill.ratings.names) for skill in ladders) == [["a", "b"], ["c", "d"]]


def test_a_restriction_whose_loss_helps_the_agent_is_a_headline_too():
    from issoku.evaluation.reports.report import headlines
    from issoku.evaluation.design.restricted import restriction_results

    ordinary = _duel("random", "p", 20, 40)
    helps = [make_record(("random -x", "random") if s % 2 else ("random", "random -x"),
                         (-1.0, 1.0) if s % 2 == 0 else (1.0, -1.0), seed=100 + s) for s in range(40)]
    hurts = [make_record(("random -y", "random"), (-1.0, 1.0), seed=200 + s) for s in range(40)]
    found = headlines(analyse(ordinary, bootstrap=20), None, restriction_results(helps + hurts),
                      restricted_records=helps + hurts)
    assert any("random loses without **y** (win-rate drop): +50.0 pts" in line and "(scripted agents: random)" in line
               for line in found), found
    assert any("random plays better without **x** (win-rate drop): -50.0 pts" in line for line in found), found


def test_a_battery_whose_games_are_all_draws_is_vacuous_not_a_list_of_zero_effects():
    from issoku.evaluation.reports.report import headlines
    from issoku.evaluation.design.restricted import restriction_results

    ordinary = _duel("random", "p", 20, 40)
    drawn = [make_record(("stall -x", "stall") if s % 2 else ("stall", "stall -x"), (0.0, 0.0), seed=300 + s)
             for s in range(40)]
    found = headlines(analyse(ordinary, bootstrap=20), None, restriction_results(drawn), restricted_records=drawn)
    assert "toy_v0: restricted play is vacuous: all 40 of its games were drawn, so it measures no restriction. " \
           "DEGENERATE (vacuous battery): draws 100% [91%, 100%] of 40 (stall never decides a fight " \
           "against itself, restricted or not; significant: its interval above 50% at 95%)" in " ".join(found), found
    assert not any("without" in line for line in found), found


def test_the_report_lists_content_no_agent_used_as_untested_by_play(tmp_path):
    """Per content item (the ruleset's own action_content hook), its share of the decisions; content no
    agent used is listed, and the headlines say how much."""
    from issoku.evaluation.reports.coverage import coverage, content_map
    from issoku.envs.breath_duel_v0 import env as breath_env

    ruleset = breath_env().unwrapped.ruleset
    items = content_map(ruleset)
    assert items["attack:yari.thrust"] == items["counter:yari.thrust"] == ("technique:yari.thrust",)
    assert items["improvise:nodachi.parry"] == items["reserve:nodachi.parry"] == ("defence:nodachi.parry",)
    assert items["aim:attack_b:torso"] == ("location:torso",) and items["half_step:open"] == ("half_step:open",)
    actions = (("attack:uchigatana.thrust", "aim:attack_a:face", "end_breath"), ("take_hit", "stance:middle_guard"))
    records = [make_record(("p", "q"), (1.0, -1.0), seed=s, actions=actions, env_id="breath_duel_v0",
                           labels=("", "")) for s in range(4)]
    cover = coverage(records, items)
    used = {u.item: u for u in cover.uses if u.decisions}
    assert set(used) == {"technique:uchigatana.thrust", "location:face", "end_breath", "take_hit",
                         "stance:middle_guard"}
    assert used["location:face"].decision_share == pytest.approx(1 / 5) and used["take_hit"].users == (("q", 4),)
    assert "technique:yari.thrust" in {u.item for u in cover.untested()}
    with MatchStore(tmp_path / "m.sqlite") as store:
        store.insert([replace(r, loadout_kwargs={}) for r in records])
        report = write_report(store, tmp_path / "out", bootstrap=10, progress=False)
    text = report.read_text()
    assert "### Content coverage" in text and "`technique:yari.thrust`" in text.split("**Untested by play**")[1]
    assert f"breath_duel_v0: coverage: {len(cover.untested())} of {len(cover.uses)} content items untested" in text


def test_a_combo_no_fielded_loadout_can_play_is_not_headlined():
    """The default report headlined a kodachi combo though no loadout fields a kodachi."""
    from issoku.evaluation.design.combos import ComboCell, ComboTable
    from issoku.evaluation.reports.report import headlines

    cells = (ComboCell("kodachi", "near", ("kodachi.flurry_cut",), 3.0, 0.0, 1.0, True, 0),
             ComboCell("yari", "far", ("yari.thrust",), 2.0, 0.0, 1.0, True, 0),
             *(ComboCell(weapon, "near", (f"{weapon}.thrust",), 1.0, 0.0, 1.0, True, 0)
               for weapon in ("uchigatana", "ninjato", "tanto")))
    found = headlines(analyse(_duel("mine", "random", 38, 40), bootstrap=20), ComboTable(cells), (),
                      fielded={"kenshi", "yari", "uchigatana", "ninjato", "tanto"})
    combo = [line for line in found if "combo" in line]
    assert combo[0].startswith("toy_v0: One combo is far cheaper than the rest: yari: thrust at far buys 2.0× the "
                               "median Wounds per Energy. IMBALANCED, moderate: most suspicious combo **yari: thrust** at far: "
                               "2.00× the median (2.00 Wounds per Energy, exact; the engine's expectation against a "
                               "fixed defender) (no agents).")
    assert combo[1] == "toy_v0: combos of weapons no stored loadout fields are not headlined: kodachi."


def test_the_report_reads_games_in_an_order_no_agent_fingerprint_moves(tmp_path):
    # A change to an agent's code that keeps its decisions gives it a new fingerprint, hence new match keys for
    # the very same games. The report must not follow the keys: the same games stored under other keys, inserted
    # in another order, give the same text (bootstrap intervals, rule IDs of equal weight, example games).
    import hashlib

    from issoku.evaluation.games.studies import study_from_options
    from issoku.evaluation.games.config import build_tournament
    from issoku.evaluation.games.tournament import run_tournament

    study = study_from_options(env="tempo_duel_v0", games_per_pair=8, policies=[
        "random", "tempo_always_parry", "tempo_feint_counter", "tempo_heuristic"])
    texts = []
    with MatchStore(tmp_path / "a.sqlite") as store:
        run_tournament(build_tournament(study), store, workers=0, progress=False)
        played = list(store.records())
    rekeyed = [replace(r, key=hashlib.sha256(f"new code {r.key}".encode()).hexdigest()[:32]) for r in reversed(played)]
    for name, records in (("a", played), ("b", rekeyed)):
        with MatchStore(tmp_path / f"{name}.sqlite") as store:
            store.insert(records)
            path = write_report(store, tmp_path / f"out_{name}", bootstrap=50, progress=False, html=False)
        texts.append([line for line in path.read_text().splitlines() if not line.startswith("From `")])
    assert texts[0] == texts[1]
    assert any("skill: " in line and "Elo" in line for line in texts[0])


def test_the_report_states_each_learned_policys_observation_ablation_and_flags_a_state_blind_one(tmp_path):
    from issoku.agents.ablation import Ablation

    games = [make_record(("a", "b"), (1.0, -1.0), seed=s, env_id="duel_v0") for s in range(4)]
    ablations = {"duel_v0": [("a", "shipped:duel_v0", Ablation(decisions=1500, changed=3, games=100, seed=1)),
                             ("b", "runs/b.zip", Ablation(decisions=900, changed=300, games=100, seed=1)),
                             ("absent", "runs/c.zip", Ablation(decisions=10, changed=0, games=1, seed=1))]}
    with MatchStore(tmp_path / "m.sqlite") as store:
        store.insert(games)
        text = write_report(store, tmp_path / "out", bootstrap=20, progress=False, html=False,
                            ablations=ablations).read_text()
    blind = "a (shipped:duel_v0): 0.2% of 1,500 decisions change when its observation is zeroed — state-blind"
    reading = "b (runs/b.zip): 33.3% of 900 decisions change when its observation is zeroed"
    assert "### Do the learned policies read the game?" in text and f"- {blind}\n" in text
    assert f"- duel_v0: {blind}" in text.split("## duel_v0")[0]  # a headline too
    assert f"- {reading}\n" in text and "absent" not in text


def test_the_studies_name_the_checkpoint_behind_each_learned_policy_of_the_stored_envs():
    from issoku.evaluation.reports.commands import learned_ablations
    from issoku.evaluation.games.config import StudyConfig

    study = StudyConfig(env="breath_duel_v0", policies=("learned=shipped:breath_duel_v0", "random"))
    ((name, entry, measured),) = learned_ablations([study, study], ["breath_duel_v0"], games=4)["breath_duel_v0"]
    assert (name, entry) == ("learned", "shipped:breath_duel_v0") and measured.games == 4 and not measured.state_blind
    assert learned_ablations([study], ["tempo_duel_v0"]) == {}


def test_two_grids_that_never_met_are_rated_and_headlined_each_on_its_own_scale():
    """The weapon grid and the casters' grid never played each other: no headline or ranking puts them on one
    scale, and the weakest loadout of a grid is headlined like the strongest."""
    from issoku.evaluation.reports.fields import field_headlines, field_rankings, loadout_grids
    from issoku.evaluation.reports.report import headlines

    weapons = _grid("unarmed", "staff", 36, 40, policy="random") + _grid("unarmed", "yari", 30, 40, policy="random") \
        + _grid("yari", "staff", 20, 40, policy="random")
    casters = [replace(r, seed=r.seed + 1000) for r in
               _grid("ronin", "barrier_priest", 40, 40, policy="ma_heuristic")
               + _grid("ronin", "diviner", 22, 40, policy="ma_heuristic")
               + _grid("diviner", "barrier_priest", 38, 40, policy="ma_heuristic")]
    records = weapons + casters
    assert [grid.names for grid in loadout_grids(records)] == [("barrier_priest", "diviner", "ronin"),
                                                               ("staff", "unarmed", "yari")]
    lines = headlines(analyse(records, bootstrap=20), None, (), records=records)
    assert not any("never met" in line for line in lines)
    (weakest,) = [line for line in lines if line.startswith("toy_v0: barrier_priest loses too often")]
    assert "against the other 2 loadouts of its grid (scripted field)" in weakest
    assert "(scripted agents: ma_heuristic)" in weakest
    (strongest,) = [line for line in lines if line.startswith("toy_v0: unarmed wins too often")]
    assert "(scripted agents: random)" in strongest
    rankings = field_headlines("toy_v0", field_rankings(records, bootstrap=20))
    assert len(rankings) == 2 and all("(never met the other grids, so not on their scale)" in line for line in rankings)
    assert not any("ronin" in line and "unarmed" in line for line in rankings)


def test_every_headline_opens_with_a_plain_sentence_a_designer_can_read_aloud(tmp_path):
    """Each headline opens with one sentence of at most PLAIN_LIMIT characters; the statistics follow."""
    from issoku.evaluation.reports.findings import PLAIN_LIMIT
    from issoku.evaluation.reports.report import read_headlines

    grid = _grid("a_very_long_loadout_name_indeed", "yari", 38, 40, policy="random") \
        + _grid("a_very_long_loadout_name_indeed", "staff", 36, 40, policy="random") \
        + _grid("yari", "staff", 30, 40, policy="random")
    duel = _duel("mine", "random", 38, 40)
    hurts = [make_record(("random -y", "random"), (-1.0, 1.0), seed=200 + s) for s in range(40)]
    with MatchStore(tmp_path / "m.sqlite") as store:
        store.insert(grid + duel + hurts)
        report = write_report(store, tmp_path / "out", bootstrap=10, progress=False, html=False)
    verdicts = ("IMBALANCED", "BALANCED", "UNDETERMINED", "DEGENERATE", "Skill, not")
    lines = [line for line in read_headlines(report) if any(word in line for word in verdicts)]
    assert len(lines) >= 4, lines
    for line in lines:
        opening = line.split(": ", 1)[1].removeprefix("skill: ")
        sentence = opening.split(". ", 1)[0] + "."
        assert not any(word in sentence for word in verdicts), line  # the verdict follows the sentence
        assert len(sentence) <= PLAIN_LIMIT, sentence
    assert any(line.startswith("toy_v0: random leans on y: without it, it scores 0% against itself.") for line in lines)
