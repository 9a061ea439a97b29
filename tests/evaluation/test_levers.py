"""``issoku levers``: one-at-a-time sensitivity over the numbers of the rules data."""

import csv
import tomllib
from dataclasses import replace
from types import SimpleNamespace

import tomli_w
from typer.testing import CliRunner

from issoku.cli import app
from issoku.evaluation.design.levers import (COLUMNS, Lever, field_rank, kept_for_tables, kept_own, loadout_table,
                                      loadouts_study, plan, ranking, run_levers)
from issoku.evaluation.stats.paired import PairedDifference
from issoku.evaluation.design.variants import Shift, changed_twins
from issoku.rules.variant import (RULES_DIR, Change, NumericField, Variant, data_diff, numeric_fields, shipped_files,
                                  write_override)

ARMOUR = "tempo/data/armour.toml"
STANCES = "breath/data/stances.toml"


def test_every_shipped_data_file_round_trips_through_the_toml_writer():
    for relative in shipped_files():
        raw = tomllib.loads((RULES_DIR / relative).read_text())
        assert tomllib.loads(tomli_w.dumps(raw)) == raw, relative


def test_an_override_is_a_variant_with_exactly_that_one_edit(tmp_path):
    fields = numeric_fields("breath/data/weapons.toml")
    parry = next(f for f in fields if f.address == ("weapon", 1, "technique", 2, "cost"))  # nodachi's parry
    variant = write_override(tmp_path / "v", parry, parry.value - 1)
    assert [str(c) for c in data_diff(Variant(), variant)] == ["breath/data/weapons.toml: nodachi / parry: cost 2 → 1"]
    assert all(not isinstance(f.value, bool) for relative in shipped_files() for f in numeric_fields(relative))


def test_the_halving_plan_screens_everything_then_halves_within_the_budget():
    rounds = plan(20, 100_000, 35)
    assert [size for size, _ in rounds] == [20, 10, 5, 3]
    assert all(more % 2 == 0 for _, more in rounds) and rounds[0][1] >= 2
    assert sum(more * (size + 1) * 35 for size, more in rounds) <= 100_000
    assert plan(20, 1, 35) == [(20, 2), (10, 0), (5, 0), (3, 0)]  # the screen's floor, whatever the budget
    assert plan(20, 1, 35, screen=8) == [(20, 8), (10, 0), (5, 0), (3, 0)]  # --screen-games raises the floor


def _lever(name: str, delta: float, half_width: float) -> Lever:
    move = PairedDifference(0.5, 0.5 + delta, delta, delta - half_width, delta + half_width, 0.5, 0.5, 40)
    return Lever(Change(ARMOUR, name, "rating", 4, 5), RULES_DIR, NumericField(ARMOUR, (name,), 4),
                 shifts=[Shift("tempo_duel_v0", "loadout knight: score", ("knight",), "rate", move),
                         Shift("tempo_duel_v0", "knight vs fencer: knight's score", ("knight",), "rate",
                               replace(move, delta=9.0, low=8.0, high=10.0))])


def test_rank_z_puts_a_sure_small_move_before_a_noisy_big_one():
    noisy, sure = _lever("noisy", 0.30, 0.40), _lever("sure", 0.10, 0.05)
    assert (noisy.effect, sure.effect) == (0.30, 0.10)  # the matchup figures are left out
    assert abs(noisy.z - 0.75) < 1e-9 and abs(sure.z - 2.0) < 1e-9
    assert sorted([sure, noisy], key=ranking("effect")) == [noisy, sure]
    assert sorted([noisy, sure], key=ranking("z")) == [sure, noisy]


def _moves(name: str, own: tuple[str, ...], **deltas: float) -> Lever:
    """A lever that moved each loadout of ``deltas`` by that much (interval ±0.05)."""
    shifts = [Shift("tempo_duel_v0", f"loadout {side}: score", (side,), "rate",
                    PairedDifference(0.5, 0.5 + d, d, d - 0.05, d + 0.05, 0.5, 0.5, 40)) for side, d in deltas.items()]
    return Lever(Change(ARMOUR, name, "rating", 4, 5), RULES_DIR, NumericField(ARMOUR, (name,), 4), round=0,
                 shifts=shifts, own=own)


def test_each_loadout_keeps_its_own_leaders_through_the_halving_and_focus_ranks_by_its_score():
    big = _moves("big", ("knight",), knight=0.30, fencer=-0.20, spearman=-0.04)
    through = _moves("through", ("fencer",), knight=-0.10, fencer=0.25, spearman=-0.06)
    small = _moves("small", ("spearman",), knight=0.0, fencer=0.0, spearman=0.05)  # the spearman's own number
    idle = _moves("idle", ("knight",), knight=0.0, fencer=0.0, spearman=0.0)
    levers = [big, through, small, idle]
    assert [lever.name for lever in loadout_table(levers, "spearman")][:2] == [through.name, small.name]
    assert [lever.name for lever in loadout_table(levers, "spearman", own=True)] == [small.name]
    # kept at 1: each table's leader and each table's best own lever; a lever that moved nothing leads nothing
    assert kept_for_tables(levers, ["knight", "fencer", "spearman"], 1, "effect") == [big, through, small]
    assert kept_for_tables(levers, ["spearman"], 1, "effect") == [through, small]
    assert sorted(levers, key=ranking("effect", ("spearman",)))[:2] == [through, small]
    assert sorted(levers, key=ranking("effect"))[0] == big


def test_focus_keeps_every_own_lever_but_the_inert_ones():
    """``kept_own``: an own lever is kept until it has played and changed no game's play (``changed`` 0)."""
    unplayed, inert, moving, foreign = (_moves(name, own, knight=0.0) for name, own in
                                        (("unplayed", ("knight",)), ("inert", ("knight",)), ("moving", ("knight",)),
                                         ("foreign", ("fencer",))))
    unplayed.changed, inert.changed, moving.changed, foreign.changed = -1, 0, 3, 5
    assert kept_own([unplayed, inert, moving, foreign], ["knight"]) == [unplayed, moving]


def test_changed_twins_counts_the_games_played_otherwise_than_their_twin():
    def game(seed: int, loadout: str, *actions: str) -> SimpleNamespace:
        return SimpleNamespace(loadout=loadout, policies=("a", "b"), seed=seed, actions=(actions, ()))
    base = [game(0, "x", "cut"), game(1, "x", "cut"), game(0, "y", "parry")]
    assert changed_twins(base, [game(0, "x", "cut"), game(1, "x", "cut"), game(0, "y", "parry")]) == 0
    assert changed_twins(base, [game(0, "x", "cut"), game(1, "x", "thrust"), game(0, "y", "take_hit")]) == 2
    assert changed_twins(base, [game(2, "x", "thrust")]) == 0  # no twin: not counted


def test_a_planted_armour_exploit_ranks_first_and_the_run_is_deterministic(tmp_path):
    # ±4 on the tempo armour numbers: "medium: rating 4 → 8" is the planted exploit tests/data/variants/armour_tempo_medium.
    study = loadouts_study("tempo_duel_v0")
    ranked, rounds = run_levers(study, 2000, tmp_path / "a", tmp_path / "a.sqlite", step=4, files=[ARMOUR])
    assert ranked[0].name == "tempo/data/armour.toml: medium: rating 4 → 8"
    assert ranked[0].figure("side").figure == "loadout spearman: score" and ranked[0].effect > 0.1
    assert rounds[0].levers > rounds[-1].levers
    with (tmp_path / "a" / "levers.csv").open() as handle:
        rows = list(csv.reader(handle))
    fighters = ["brawler", "fencer", "knife_fighter", "knight", "spearman"]
    assert rows[0] == [*COLUMNS, *(f"rank_{name}" for name in fighters)] and len(rows) == 1 + 16  # 8 numbers, ±
    records = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    assert any(r["status"].startswith("invalid: ") for r in records)  # a negative rating is refused by the schema
    planted = next(r for r in records if r["lever"] == ranked[0].name)
    assert "spearman" in planted["own_loadouts"].split(";") and planted["own_rank"] == planted["rank_spearman"] == "1"
    assert "### spearman" in (tmp_path / "a" / "levers.md").read_text()
    assert "## Schedule (successive halving)" in (tmp_path / "a" / "levers.md").read_text()
    run_levers(study, 2000, tmp_path / "b", tmp_path / "b.sqlite", step=4, files=[ARMOUR])
    assert (tmp_path / "a" / "levers.csv").read_bytes() == (tmp_path / "b" / "levers.csv").read_bytes()


def test_a_planted_breath_stance_exploit_ranks_in_the_top_3_of_the_field_and_of_its_loadouts_table(tmp_path):
    # ±2 on the breath stances, ranked by z: "spear_wall: cost 2 → 0" is tests/data/variants/stance_spear_wall_cost;
    # the yari fields the spear wall, so the yari's table is the planted field's loadout's table.
    study = loadouts_study("breath_duel_v0")
    ranked, _ = run_levers(study, 1000, tmp_path / "s", tmp_path / "s.sqlite", step=2, files=[STANCES],
                           order=ranking("z"), loadout_top=3, rank="z")
    assert field_rank(ranked, STANCES, "spear_wall", "cost") in (1, 2, 3)
    planted = next(lever for lever in ranked if lever.name == f"{STANCES}: spear_wall: cost 2 → 0")
    assert planted.figure("side").figure == "loadout yari: score" and planted.effect > 0 and planted.own == ("yari",)
    assert field_rank(loadout_table(ranked, "yari", "z"), STANCES, "spear_wall", "cost") in (1, 2, 3)
    assert field_rank(loadout_table(ranked, "yari", "z", own=True), STANCES, "spear_wall", "cost") == 1


def test_bad_inputs_are_one_line_exit_2(tmp_path):
    runner = CliRunner()
    for args in (["--env", "nope"], ["--env", "tempo_duel_v0", "--budget", "0"],
                 ["--env", "encounter_duel_v0", "--variant", str(tmp_path / "missing")],
                 ["--env", "tempo_duel_v0", "--file", "nope.toml"], ["--env", "tempo_duel_v0", "--screen-games", "3"], ["--env", "tempo_duel_v0", "--rank", "loudest"],
                 ["--env", "tempo_duel_v0", "--file", ARMOUR, "--focus", "knight", "--focus", "samurai"],
                 ["--env", "tempo_duel_v0", "--loadout-top", "-1"]):
        result = runner.invoke(app, ["levers", *args, "--out", str(tmp_path / "out")])
        assert result.exit_code == 2, (args, result.output)
        assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("levers: "), result.output
        assert "samurai" not in args or result.output.startswith("levers: --focus samurai: "), result.output
    assert not (tmp_path / "out").exists()


def test_focus_ranks_by_that_loadout_and_writes_only_its_table(tmp_path):
    out = tmp_path / "focus"
    result = CliRunner().invoke(app, ["levers", "--env", "tempo_duel_v0", "--file", ARMOUR, "--step", "4",
                                      "--budget", "1", "--focus", "spearman", "--out", str(out)])
    assert result.exit_code == 0, result.output
    with (out / "levers.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [name for name in rows[0] if name.startswith("rank_")] == ["rank_spearman"]
    played = [row for row in rows if row["effect"]]
    assert [int(row["rank_spearman"]) for row in played] == list(range(1, len(played) + 1))  # the field table is its
    assert played[0]["lever"] == f"{ARMOUR}: medium: rating 4 → 8" and played[0]["own_loadouts"] == "spearman"
    summary = (out / "levers.md").read_text()
    assert "### spearman" in summary and "### knight" not in summary and "spearman's own top levers: " in result.output


def test_make_levers_writes_folders_only_for_the_numbers_it_keeps(tmp_path):
    """autobalance's locality stage keeps a few numbers of a file: the others get no lever and no variant folder
    (before, every number of the file was written out and then filtered)."""
    from issoku.evaluation.design.levers import make_levers
    file = "tempo/data/armour.toml"
    kept = make_levers(tmp_path, 1, [file], keep=lambda number: number.address[:2] == ("armour", "medium"))
    everything = make_levers(tmp_path / "all", 1, [file])
    assert kept and len(kept) < len(everything)
    assert all(lever.number.address[:2] == ("armour", "medium") for lever in kept)
    assert sorted(path.name for path in tmp_path.iterdir() if path.name != "all") == sorted(
        lever.folder.name for lever in kept)


def test_a_lever_under_another_out_folder_reuses_the_stored_games(tmp_path):
    # A lever's games are keyed by the rules it loads (the fingerprint digests the files' bytes), not by the folder
    # it was written to: a second --out into the same --db plays nothing new and ranks the same.
    study = loadouts_study("tempo_duel_v0")
    db = tmp_path / "m.sqlite"
    _, first = run_levers(study, 300, tmp_path / "a", db, step=4, files=[ARMOUR])
    _, again = run_levers(study, 300, tmp_path / "b", db, step=4, files=[ARMOUR])
    assert sum(r.played for r in first) > 0 and [r.played for r in again] == [0] * len(again)
    assert (tmp_path / "a" / "levers.csv").read_bytes() == (tmp_path / "b" / "levers.csv").read_bytes()


def test_the_match_key_follows_the_rules_content_not_the_folder_that_holds_it():
    from issoku.evaluation.games.records import match_key

    def key(fingerprint: str, **kwargs: object) -> str:
        return match_key("tempo_duel_v0", fingerprint, "spearman", kwargs, ("a", "b"), ("", ""), 3)

    assert key("fp1", variant="out_a/variants/x") == key("fp1", variant="out_b/variants/x") == key("fp1")
    assert key("fp1", variant="out_a/variants/x") != key("fp2", variant="out_a/variants/x")
    assert key("fp1", fighters=["knight", "spearman"]) != key("fp1", fighters=["spearman", "knight"])


def test_focus_keeps_every_own_lever_of_the_focused_loadouts_to_the_last_round(tmp_path):
    """Focused, the own table ranks every own lever on the finalists' games: none is dropped by a screen's noise,
    except the inert ones (they changed no game of the focused loadouts at the screen: more games replay the base's).
    The knight (heavy armour) and the spearman (medium) own 8 levers of the file's 14 played at ±1, more than the
    field's 4 finalists, so the field's halving alone drops some of them."""
    out = tmp_path / "own"
    result = CliRunner().invoke(app, ["levers", "--env", "tempo_duel_v0", "--file", ARMOUR, "--budget", "1600",
                                      "--focus", "knight", "--focus", "spearman", "--out", str(out),
                                      "--db", str(tmp_path / "own.sqlite")])
    assert result.exit_code == 0, result.output
    with (out / "levers.csv").open() as handle:
        rows = [row for row in csv.DictReader(handle) if row["effect"]]
    last = max(int(row["round"]) for row in rows)
    own = [row for row in rows if {"knight", "spearman"} & set(row["own_loadouts"].split(";"))]
    assert len(own) == 8 and last > 0 and any(int(row["round"]) < last for row in rows)  # the halving dropped some
    # an own lever that changed some game's play plays to the last round...
    moved = [row for row in own if int(row["games_changed"]) > 0]
    assert moved and all(int(row["round"]) == last for row in moved), [(row["lever"], row["round"]) for row in own]
    # ...and only an inert one (every screen game played as the base's: none here) would stop earlier
    assert all(row["games_changed"] == "0" for row in own if int(row["round"]) < last)
    finalists = max(int(row["games_per_pair"]) for row in rows)
    assert finalists > 2 and all(int(row["games_per_pair"]) == finalists for row in moved)  # the finalists' games
    summary = (out / "levers.md").read_text()
    assert all(f"`{row['lever']}`" in summary for row in own)  # a focused table lists every own lever
    assert "Every own lever of knight, spearman played every round" in summary
    # without it (the field's halving alone; the screen alone decides at a budget of 1) only 4 reach the last round
    study = loadouts_study("tempo_duel_v0")
    ranked, _ = run_levers(study, 1, tmp_path / "field", tmp_path / "own.sqlite", files=[ARMOUR],
                           order=ranking("effect", ("knight", "spearman")), tables=["knight", "spearman"])
    assert sum(1 for lever in ranked if lever.own and set(lever.own) & {"knight", "spearman"}
               and lever.shifts and lever.round == last) <= 4


def test_levers_nudge_the_encounter_armour_and_own_each_armour_to_the_loadouts_that_wear_it(tmp_path):
    out = tmp_path / "enc"
    result = CliRunner().invoke(app, ["levers", "--env", "encounter_duel_v0", "--file", "encounters/data/armour.toml",
                                      "--budget", "200", "--out", str(out)])
    assert result.exit_code == 0, result.output
    with (out / "levers.csv").open() as handle:
        rows = {row["lever"]: row for row in csv.DictReader(handle)}
    assert len(rows) == 12  # bonus and reduction of none, light and heavy, each ±1
    played = [row for row in rows.values() if row["effect"]]
    assert played and all(row["file"] == "encounters/data/armour.toml" for row in played)
    assert rows["encounters/data/armour.toml: heavy: bonus 10 → 11"]["own_loadouts"] == "ono"
    assert rows["encounters/data/armour.toml: none: bonus 0 → 1"]["own_loadouts"] == "tonfa;wakizashi"
