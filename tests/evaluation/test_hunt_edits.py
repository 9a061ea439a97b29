"""A hunt on a rules variant names the edited data: its diff, and each action resting on an edit with the best
response's share of it against the mixture's (docs/balance.md, "A learned-only planted exploit")."""

from dataclasses import replace

import pytest

from issoku.evaluation.reports.coverage import build_ruleset, content_map
from issoku.evaluation.strength.hunt import HuntConfig, Iteration, format_report, variant_changes
from issoku.evaluation.strength.hunt_edits import EditedPlay, edited_play, finding_lines, gain_over_control, touches, verdict
from issoku.evaluation.games.records import MatchRecord
from issoku.rules.variant import Change

PARRY = "tests/data/variants/learned_only_tanto_parry"
EDIT = "breath/data/weapons.toml: tanto / parry: check_bonus (absent) → 5"
CONFIG = HuntConfig(env_id="breath_duel_v0", population=("ma_heuristic",), out="unused", variant=PARRY)


def _game(index: int, policies: tuple[str, str], actions: tuple[tuple[str, ...], tuple[str, ...]]) -> MatchRecord:
    """A stored game as the hunt reads it (never replayed: its fingerprint matches no rules, so no rule IDs)."""
    return MatchRecord(key=f"g{index}", env_id="breath_duel_v0", rules_fingerprint="stub", loadout="default",
                       loadout_kwargs={"variant": PARRY}, seat_labels=(), seed=index, agents=("player_0", "player_1"),
                       policies=policies, returns=(1.0, -1.0), winner=0, first_seat=0,
                       length=sum(map(len, actions)), truncated=False, actions=actions, kinds=((), ()))


def _hunt_games(br_parries: int) -> tuple[list[MatchRecord], list[MatchRecord]]:
    """Ten games of br1 against the mixture (ma_heuristic), br1 improvising a tanto parry ``br_parries`` times in
    each game's ten decisions; and ten of the mixture against itself, one seat parrying once a game (a 5 % share)."""
    mixture = [_game(i, ("ma_heuristic", "ma_heuristic"), (("improvise:tanto.parry",) + ("end_breath",) * 9,
                                                            ("end_breath",) * 10)) for i in range(10)]
    br = [_game(100 + i, ("br1", "ma_heuristic"),
                (("improvise:tanto.parry",) * (br_parries + i % 2) + ("end_breath",) * (10 - br_parries - i % 2),
                 ("end_breath",) * 10)) for i in range(10)]
    return br, mixture


def _plays(br_parries: int) -> list:
    br, mixture = _hunt_games(br_parries)
    content = content_map(build_ruleset(br))
    return edited_play(variant_changes(CONFIG), content, "br1", br, {"ma_heuristic": 1.0}, mixture)


def test_an_action_touches_the_entry_its_content_item_names():
    parry = Change("breath/data/weapons.toml", "tanto / parry", "check_bonus", 0, 5)
    assert touches("defence:tanto.parry", parry)
    assert not touches("defence:nodachi.parry", parry) and not touches("technique:tanto.thrust", parry)
    assert touches("stance:spear_wall", Change("breath/data/stances.toml", "spear_wall", "cost", 2, 0))
    assert touches("react:counter_attack",
                   Change("tempo/data/weapons.toml", "spear / ap_by_action", "counter_attack", None, 1))


def test_a_best_response_that_plays_the_edited_defence_far_more_is_a_finding_naming_the_edit():
    plays = _plays(br_parries=4)  # 45 % of br1's decisions against 5 % of the mixture's
    assert [play.action for play in plays] == ["improvise:tanto.parry", "reserve:tanto.parry",
                                               "use_reserved:tanto.parry"]
    found = plays[0]
    assert found.rose and found.share == 0.45 and found.mixture_share == 0.05 and found.edits == [EDIT]
    assert not plays[1].played and not plays[2].played
    lines = finding_lines("br1", plays, (0.31, 0.12, 0.5))
    assert lines[0] == (f"FOUND: br1 plays `improvise:tanto.parry` 5.0% → 45.0% of decisions (significantly more than "
                        f"the mixture: +40.0 pts [{100 * found.low:+.1f}, {100 * found.high:+.1f}]) (edited: {EDIT}); "
                        "gain +0.31 [+0.12, +0.50]")
    assert lines[1] == (f"untested by play: no game of the hunt played `reserve:tanto.parry`, `use_reserved:tanto.parry` "
                        f"(edited: {EDIT}): the hunt cannot speak about it.")


def test_the_same_share_as_the_mixture_is_no_finding():
    (play, *_) = _plays(br_parries=0)  # 5 % against 5 %: the interval holds zero
    assert play.played and not play.rose and play.low < 0 < play.high
    assert finding_lines("br1", [play], (0.0, -0.1, 0.1))[0].startswith("br1 plays `improvise:tanto.parry` 5.0% → 5.0%")


def test_a_share_its_warm_start_already_had_is_no_finding_even_over_a_mixture_that_never_plays_it():
    """Learned-only content: the scripted mixture never plays it, so the warm start is the baseline that counts."""
    br, mixture = _hunt_games(br_parries=4)
    warm = [replace(game, key=f"w{game.key}", policies=("warm_start", "ma_heuristic")) for game in br]
    (play, *_) = edited_play(variant_changes(CONFIG), content_map(build_ruleset(br)), "br1", br, {"ma_heuristic": 1.0},
                             mixture, "warm_start", warm)
    assert play.low > 0 and play.warm_share == play.share and not play.rose
    line = finding_lines("br1", [play], (0.0, -0.1, 0.1))[0]
    assert line.startswith("USED: br1 plays `improvise:tanto.parry` 5.0% → 45.0% of decisions (significantly more than "
                           "the mixture")
    assert "; not significantly more than its warm start, which played it 45.0%: +0.0 pts" in line


def test_the_hunt_report_on_a_variant_opens_with_its_diff_and_what_the_best_response_made_of_it():
    iteration = Iteration(population=["ma_heuristic"], mixture={"ma_heuristic": 1.0}, best_response="agents/br1.zip",
                          gain=0.31, gain_low=0.12, gain_high=0.5, gain_by_opponent={"ma_heuristic": 0.31},
                          kind_shares={}, mixture_kind_shares={}, edited=_plays(br_parries=4))
    report = format_report(CONFIG, [iteration])
    assert report.startswith(f"# Hunt on breath_duel_v0 (rules variant {PARRY})")
    assert f"## What changed\n\n- `{EDIT}`\n" in report
    assert "## The edited data in play\n\nFOUND: " in report
    assert "\n- FOUND: br1 plays `improvise:tanto.parry` 5.0% → 45.0%" in report
    assert report.index("## What changed") < report.index("| iteration |")
    assert "# Hunt on breath_duel_v0\n" in format_report(replace(CONFIG, variant=""), [iteration])  # no variant: no diff


SCRIPTED = ("ma_aggressive", "ma_defensive", "ma_distance_keeper", "ma_heuristic", "breath_heuristic")
"""The scripted breath agents that choose (``random`` tries every legal action, the dagger's included)."""


@pytest.mark.parametrize("variant", ["tests/data/variants/learned_only_tanto_thrust", PARRY])
def test_a_learned_only_variant_leaves_every_scripted_agents_games_byte_identical(tmp_path, variant):
    """Learned-only: no scripted agent plays the edited technique, so their games under the variant are
    the shipped rules' games, action for action and result for result; only a learner can find the edit."""
    from issoku.envs.registry import resolve_env
    from issoku.evaluation.games.policies import resolve_policy
    from issoku.evaluation.games.store import MatchStore
    from issoku.evaluation.games.tournament import Loadout, Tournament, run_tournament

    def games(kwargs: dict, name: str) -> list[tuple]:
        tournament = Tournament(env_factory=resolve_env("breath_duel_v0"), policies=tuple(map(resolve_policy, SCRIPTED)),
                                loadouts=(Loadout("default", kwargs),), games_per_pair=3)
        with MatchStore(tmp_path / f"{name}.sqlite") as store:
            run_tournament(tournament, store, workers=0, progress=False)
            return sorted((r.seed, r.policies, r.actions, r.returns, r.winner, r.length) for r in store.records())

    shipped, planted = games({}, "shipped"), games({"variant": variant}, "planted")
    assert len(planted) == 30 and planted == shipped


def test_a_finding_is_attributed_to_the_edit_only_when_the_control_plays_it_significantly_less():
    """``hunt --control``: the same training on the base rules is the baseline that says whether the edit caused it
    (the shares below: a control that counter-thrusts 2.0 % against the variant's 1.5 % explains the finding away)."""
    found = EditedPlay("counter:tanto.thrust", [EDIT], 0.015, 0.0, 0.011, 0.019, 0.0, 0.011, 0.019, True)
    assert found.rose and not found.attributed and verdict(found) == "FOUND: "  # no control run: no attribution
    shared = replace(found, control_share=0.020, control_low=-0.011, control_high=0.001)
    assert shared.rose and not shared.attributed
    assert verdict(shared) == "FOUND but the control plays it as much, not attributable to the edit: "
    attributed = replace(found, control_share=0.0, control_low=0.011, control_high=0.019)
    assert attributed.attributed and verdict(attributed) == "ATTRIBUTED: "
    assert verdict(replace(attributed, warm_low=-0.01)) == "USED: "  # no finding, whatever the control
    line = finding_lines("br1", [shared], (0.50, 0.33, 0.67), (0.21, 0.02, 0.40))[0]
    assert ("; not significantly more than the control (the same training on the base rules), which played it 2.0%: "
            "-0.5 pts [-1.1, +0.1])") in line
    assert line.endswith("gain +0.50 [+0.33, +0.67], the control's +0.21 [+0.02, +0.40]: +0.29 [+0.04, +0.54] over it")


def test_the_gain_over_the_control_combines_the_two_intervals_as_independent():
    gain, low, high = gain_over_control((0.50, 0.33, 0.67), (0.21, 0.02, 0.40))
    assert gain == pytest.approx(0.29) and high - gain == pytest.approx(gain - low) == pytest.approx((0.17 ** 2 + 0.19 ** 2) ** 0.5)


def test_a_control_that_plays_the_edited_action_as_often_withholds_the_attribution():
    br, mixture = _hunt_games(br_parries=4)
    control = [replace(game, key=f"c{game.key}", policies=("control1", "ma_heuristic")) for game in br]
    content = content_map(build_ruleset(br))
    (shared, *_) = edited_play(variant_changes(CONFIG), content, "br1", br, {"ma_heuristic": 1.0}, mixture,
                               control="control1", control_records=control)
    assert shared.rose and shared.control_share == shared.share and not shared.attributed
    quiet = [replace(game, actions=(("end_breath",) * 10, game.actions[1])) for game in control]
    (found, *_) = edited_play(variant_changes(CONFIG), content, "br1", br, {"ma_heuristic": 1.0}, mixture,
                              control="control1", control_records=quiet)
    assert found.control_share == 0.0 and found.attributed
    assert finding_lines("br1", [found], (0.3, 0.1, 0.5), (0.0, -0.1, 0.1))[0].startswith("ATTRIBUTED: br1 plays")
