"""Each duel rule through the breath engine: scripted dice, the real action table, the event log."""

import pytest

from issoku.rules.breath.engine import BreathState
from issoku.rules.breath.ruleset import BreathConfig, FighterSpec
from issoku.rules.kernel.dice import ScriptedDice
from issoku.rules.kernel.protocol import IllegalActionError
from issoku.rules.ma.config import DuelMode, MaDuelConfig
from issoku.rules.ma.duel import ma_duel
from issoku.rules.ma.ladder import DuelKind, Rung

KENSHI = FighterSpec("kenshi", 0, armor="none")   # uchigatana, F3 P2 W1, footwork 2: Energy 13, guard 8
RONIN = FighterSpec("ronin", 1)                   # nodachi, F2 P3 W1, footwork 2: Energy 12, Wounds 8, guard 7


class Duel:
    """A duel under scripted dice, played by action names."""

    def __init__(self, dice=(), config=MaDuelConfig(), fighters=(KENSHI, RONIN)):
        self.ruleset = ma_duel(config, BreathConfig(fighters=fighters))
        self.module = self.ruleset.modules[0]
        self.state = BreathState.initial(self.ruleset, 0, dice=ScriptedDice(list(dice)))
        self.start = len(self.state.events)

    @property
    def data(self):
        return self.module.data(self.state)

    def legal(self):
        return [self.ruleset.action_names[a] for a in self.state.legal_actions()]

    def play(self, *names):
        for name in names:
            self.state.apply(self.ruleset.codec.by_name(name))
        return self

    def events(self, kind=None, rule=None):
        return [e for e in self.state.events if (kind is None or e.kind == kind) and (rule is None or e.rule == rule)]


CLOSE_IN = ("half_step:close", "yield")


@pytest.mark.rule("MA-001", "MA-G19")
def test_ma_001_the_canon_breath_is_unchanged_and_the_duel_is_one_on_one():
    duel = Duel()
    assert duel.ruleset.name == "ma_duel" and duel.ruleset.decision_kinds == ("breath", "defend", "counter", "resist")
    assert duel.events("breath_start")[0].data["limit"] == 5  # BR-008 as in the canon
    assert not any(name.startswith(("walk", "sprint", "leap")) for name in duel.ruleset.action_names)  # MA-G19
    with pytest.raises(ValueError, match="1:1"):
        ma_duel(breath=BreathConfig(fighters=(KENSHI, RONIN, FighterSpec("ashigaru", 1))))


@pytest.mark.rule("MA-008", "MA-009", "MA-051", "MA-T05", "MA-G22")
@pytest.mark.parametrize("kind, stage, rung, rule", [
    (DuelKind.IKKIUCHI, None, Rung.ISSOKU_ITTO, "MA-008"),
    (DuelKind.HATASHIAI, None, Rung.FAR, "MA-009"),
    (DuelKind.HATASHIAI, "narrow_path", Rung.ISSOKU_ITTO, "MA-051"),
])
def test_starting_ma_in_the_engine(kind, stage, rung, rule):
    duel = Duel(config=MaDuelConfig(kind=kind, stage=stage))
    assert duel.data.ladder.rung is rung and duel.events("ma_start")[0].rule == rule
    assert ("half_step:open" in duel.legal()) is (rung is Rung.ISSOKU_ITTO and stage is None)


@pytest.mark.rule("MA-016", "MA-041", "MA-T02", "MA-G29")
def test_ma_t02_step_in_cut_with_location_and_parry_is_5_and_one_more_half_step_overloads():
    duel = Duel(dice=[1, 1, 5, 5])
    duel.play(*CLOSE_IN, "attack:uchigatana.horizontal_cut")  # 1 + 2 = 3, a miss (2 + 6 < 10)
    duel.play("reserve:uchigatana.parry")
    assert duel.state.fighters[0].spent == 4 and not duel.events("overload_check")
    duel = Duel(dice=[1, 1, 5, 5])
    duel.play(*CLOSE_IN, "aim:attack_a:wrist", "reserve:uchigatana.parry")
    aimed = duel.events("energy_spent", "MA-041")[0].data
    assert (aimed["cost"], aimed["modifiers"]) == (3, (("hit_location", 1),))  # MA-G29: a named Rule 2 penalty
    assert duel.state.fighters[0].spent == 5 and not duel.events("overload_check")
    duel.play("half_step:close")
    check = duel.events("overload_check")[0]
    assert (check.data["spent"], check.data["excess"], check.data["total"], check.data["success"]) == (6, 1, 11, True)


@pytest.mark.rule("MA-014", "MA-G24")
def test_ma_014_equal_energy_contest_is_rolled_at_once():
    """MA-G24: Energy is compared before either side pays (13 vs 13), not after the step's 1 (12 vs 13)."""
    duel = Duel(dice=[2, 2, 9, 9], fighters=(KENSHI, FighterSpec("kenshi", 1, armor="none")))
    duel.play("half_step:close", "resist")
    contest = duel.events("half_step_contest")[0]
    assert contest.rule == "MA-014" and contest.data["winner"] == 1
    assert duel.data.ladder.rung is Rung.ISSOKU_ITTO


@pytest.mark.rule("MA-G01")
def test_ma_g01_resist_costs_1_outside_the_breath_and_needs_energy():
    duel = Duel(dice=[9, 9, 1, 1])
    assert duel.play("half_step:close").legal() == ["resist", "yield"]
    duel.play("resist")
    ronin = duel.state.fighters[1]
    assert ronin.energy == 11 and ronin.spent == 0
    assert duel.events(rule="MA-G01")[0].data["cost"] == 1


@pytest.mark.rule("MA-044", "MA-T01")
def test_ma_044_a_leg_wound_makes_the_half_step_cost_2_in_the_engine():
    duel = Duel(dice=[5, 4])
    duel.play("aim:attack_a:leg", "take_hit", "end_breath")
    assert duel.data.injuries[1].leg
    duel.play("half_step:close")
    spent = duel.events("energy_spent", "MA-011")[-1]
    assert (spent.actor, spent.data["cost"], spent.data["modifiers"]) == (1, 2, (("leg_wound", 1),))


@pytest.mark.rule("MA-024", "MA-025", "MA-022")
def test_range_vetoes_in_the_engine():
    duel = Duel()
    duel.play(*CLOSE_IN, *CLOSE_IN)  # close fighting
    assert any(name.startswith("attack:uchigatana") for name in duel.legal())
    duel.play("end_breath")
    assert duel.state.current_seat() == 1
    assert not any(name.startswith(("attack:", "aim:")) for name in duel.legal())  # nodachi, MA-024
    duel.play(*CLOSE_IN)  # the ronin closes to tsubazeriai
    duel.play("end_breath")
    legal = duel.legal()
    assert not any(name.startswith(("attack:", "aim:", "half_step")) for name in legal)  # MA-025
    assert {"push_out", "slip_away", "empty_hand:headbutt"} <= set(legal)


@pytest.mark.rule("MA-027", "MA-G06")
def test_ma_027_slip_away_and_its_counterattack_against_an_unreserved_foe():
    duel = Duel(dice=[9, 9, 1, 1, 5, 5])
    duel.play(*CLOSE_IN, *CLOSE_IN, *CLOSE_IN, "end_breath", "stand")
    duel.play("slip_away")
    assert duel.data.ladder.rung is Rung.ISSOKU_ITTO and duel.data.counter_owed == 0
    assert "slip_counter:attack_a" in duel.legal()
    duel.play("slip_counter:attack_a")  # no reservation: no defense at all, straight hit
    assert duel.events("hit")[-1].data["technique"] == "uchigatana.horizontal_cut"
    assert duel.state.decision_kind() == "breath" and "slip_counter:attack_a" not in duel.legal()


@pytest.mark.rule("MA-G06", "MA-G27")
def test_ma_g27_the_slip_away_counter_meets_only_a_reserved_defense():
    """A loser holding a reservation may use it or take the hit, never improvise a defense."""
    duel = Duel(dice=[9, 9, 1, 1, 5, 5])
    duel.play(*CLOSE_IN, *CLOSE_IN, *CLOSE_IN, "end_breath", "reserve:nodachi.parry", "end_breath")
    duel.play("slip_away", "slip_counter:attack_a")
    assert (duel.state.current_seat(), duel.state.decision_kind()) == (1, "defend")
    assert duel.legal() == ["use_reserved:nodachi.parry", "take_hit"]
    assert duel.state.clone().legal_actions() == duel.state.legal_actions()  # the pending attack clones with it


@pytest.mark.rule("MA-028", "MA-G07")
def test_ma_028_empty_hand_move_no_wounds_guard_minus_2_and_the_dagger_is_drawn():
    duel = Duel(dice=[6, 5])
    duel.play(*CLOSE_IN, *CLOSE_IN, *CLOSE_IN, "empty_hand:draw_dagger")
    check = duel.events("attack_check")[-1]
    assert check.data["technique"] == "unarmed.strike" and ("unarmed_combat", -3) in check.data["modifiers"]
    assert duel.state.fighters[0].weapon.key == "tanto"
    duel.play("take_hit")
    assert duel.events("hit")[-1].data["wounds"] == 0
    assert duel.data.guards[1].value == 7 - 2


@pytest.mark.rule("MA-028", "MA-G32")
def test_ma_g32_the_drawn_dagger_stays_in_hand():
    duel = Duel(dice=[1, 2])
    duel.play(*CLOSE_IN, *CLOSE_IN, *CLOSE_IN, "empty_hand:draw_dagger", "end_breath", "stand", "stand")
    assert duel.state.round == 2 and duel.state.fighters[0].weapon.key == "tanto"
    assert "pick_up" not in duel.legal() and not duel.data.injuries[0].disarmed


@pytest.mark.rule("MA-042", "MA-G15", "MA-039")
def test_ma_042_wrist_drop_then_pick_up_at_far_range():
    duel = Duel(dice=[5, 4, 3, 3])
    duel.play("aim:attack_a:wrist", "take_hit")  # wrist check 6 + 3 = 9 < 11
    assert duel.state.fighters[1].weapon.key == "unarmed" and duel.data.injuries[1].disarmed
    duel.play("end_breath")
    assert "pick_up" not in duel.legal()
    duel.play("half_step:open", "yield")
    assert duel.data.ladder.rung is Rung.FAR
    assert duel.events("guard_recovery", "MA-039")[0].actor == 1  # severing the distance
    duel.play("pick_up")
    assert duel.state.fighters[1].weapon.key == "nodachi"
    assert duel.events("energy_spent", "MA-G15")[0].data["cost"] == 2


@pytest.mark.rule("MA-045", "MA-G17", "MA-047", "MA-D04")
def test_ma_045_torso_extra_wound_and_bleeding_at_the_lull():
    duel = Duel(dice=[5, 4, 5, 5])
    duel.play("aim:attack_a:torso", "take_hit")
    assert duel.events("hit")[-1].data["wounds"] == 2 and duel.state.fighters[1].wounds == 6
    duel.play("stand", "stand")
    assert duel.state.fighters[1].wounds == 5  # bled 1 at the lull; wounds do not heal (MA-047)
    stop = duel.events("bleeding_stop")[0]
    assert (stop.data["way"], stop.data["total"], stop.data["success"]) == ("physique", 13, True)


@pytest.mark.rule("MA-048", "MA-G14", "MA-A05")
def test_ma_048_sparring_points_without_wounds_first_to_3():
    duel = Duel(dice=[5, 4, 5, 4, 9, 9, 5, 4], config=MaDuelConfig(mode=DuelMode.SPARRING))  # 9, 9: overload check
    assert not any(name.startswith("aim:") for name in duel.ruleset.action_names)
    for _ in range(2):
        duel.play("attack:uchigatana.horizontal_cut", "take_hit")
    assert duel.state.fighters[1].wounds == 8 and duel.data.score.points == [2, 0]
    duel.play("attack:uchigatana.horizontal_cut", "take_hit")
    assert duel.state.is_terminal() and duel.state.returns() == (1.0, -1.0)


@pytest.mark.rule("MA-023", "MA-T04", "MA-G26", "MA-G20")
def test_ma_023_the_nodachi_strips_the_uchigatana_stance_at_issoku_itto():
    duel = Duel(dice=[1, 1])
    duel.play("stance:middle_guard", "stand", "attack:nodachi.cut")
    assert duel.events("overpowered")[0].data == {"stance": "middle_guard", "defense_lost": 1}
    assert duel.events("attack_check")[0].data["defense"] == 10


@pytest.mark.rule("MA-023", "MA-G26")
def test_ma_g26_the_shorter_weapon_never_strips_the_longer_ones_stance():
    duel = Duel(dice=[1, 1])
    duel.play("reserve:uchigatana.parry", "stance:middle_guard", "end_breath")  # 11 < 12: the ronin's count
    duel.play("stance:middle_guard", "end_breath", "attack:uchigatana.horizontal_cut")
    assert not duel.events("overpowered")
    assert duel.events("attack_check")[0].data["defense"] == 11  # the ronin's middle guard counts


@pytest.mark.rule("MA-053", "MA-G21")
def test_ma_053_glare_on_attack_checks_and_contests_of_one_side():
    duel = Duel(dice=[5, 4, 5, 5, 5, 5], config=MaDuelConfig(stage="backlight", stage_side=0))
    duel.play("attack:uchigatana.horizontal_cut", "take_hit", "half_step:close", "resist")
    assert ("glare", -1) in duel.events("attack_check")[0].data["modifiers"]
    assert duel.events("half_step_contest")[0].data["parts"][0] == (("finesse", 3), ("footwork", 2), ("glare", -1))


@pytest.mark.rule("MA-050", "MA-A06", "MA-049")
def test_ma_050_sandbar_in_the_engine_contest():
    """Only the sandbar is imported, and only the initiator slips: 3 + 2 − 1 against 2 + 2."""
    duel = Duel(dice=[5, 5, 5, 5], config=MaDuelConfig(stage="sandbar"))
    duel.play("half_step:close", "resist")
    assert duel.events("half_step_contest")[0].data["modifiers"] == (4, 4)


@pytest.mark.rule("MA-052", "MA-T06")
def test_ma_052_high_ground_only_on_the_first_contest():
    duel = Duel(dice=[5, 5, 5, 5, 5, 5, 5, 5], config=MaDuelConfig(stage="high_ground", stage_side=1))
    duel.play("half_step:close", "resist", "half_step:close", "resist")
    first, second = duel.events("half_step_contest")
    assert first.data["modifiers"] == (5, 5) and second.data["modifiers"] == (5, 4)
    assert first.data["parts"][1] == (("finesse", 2), ("footwork", 2), ("high_ground", 1))


@pytest.mark.rule("MA-G13", "MA-038")
def test_ma_g13_no_lull_recovery_in_tsubazeriai():
    duel = Duel()
    duel.play(*CLOSE_IN, *CLOSE_IN, *CLOSE_IN, "stand", "stand")
    assert [e.rule for e in duel.events("guard_recovery")] == ["MA-G13", "MA-G13"]


def test_illegal_module_action_is_rejected_by_name():
    duel = Duel()
    with pytest.raises(IllegalActionError, match="push_out"):
        duel.play("push_out")


def test_options_change_the_fingerprint():
    assert ma_duel().fingerprint != ma_duel(MaDuelConfig(stage="sandbar")).fingerprint
    assert ma_duel().fingerprint == ma_duel().fingerprint


@pytest.mark.rule("MA-010", "MA-044", "MA-030")
def test_observation_is_ego_first_and_shares_the_rung():
    duel = Duel(dice=[5, 4])
    duel.play("aim:attack_a:leg", "take_hit")
    spec = duel.ruleset.observation_spec
    mine, theirs = (spec.unpack(duel.state.observation(seat)) for seat in (0, 1))
    assert list(mine["ma_rung"]) == list(theirs["ma_rung"]) == [0, 1, 0, 0, 0]
    leg = 2  # wrist, arm, leg, ...
    assert mine["ma_injuries"][6 + leg] == 1.0 and theirs["ma_injuries"][leg] == 1.0
    assert mine["ma_guard"][1] == theirs["ma_guard"][0] == pytest.approx(6 / 7)
    assert list(mine["ma_can_attack"]) == [1.0, 1.0]
    assert "ma: issoku_itto   guard 8/8 6/7" in duel.state.render_text()
    assert list(mine["ma_half_step_declared"]) == [0.0, 0.0]
    duel.play("half_step:open")  # the ronin must answer: it sees the kenshi opening the ma
    assert list(spec.unpack(duel.state.observation(1))["ma_half_step_declared"]) == [0.0, 1.0]


@pytest.mark.rule("MA-046", "BR-025", "BR-027")
def test_ma_046_a_face_wound_reaches_the_overload_check():
    """Seed 000: face/eyes "all checks −2"; seed 002: overload is 2d10 + Physique − excess ≥ 11. The ronin
    (Physique 3) overloads by 1 on dice 4 + 6: 12 unhurt, 10 with the face wound, so it fails."""
    duel = Duel(dice=[9, 8, 1, 2, 4, 6, 1, 2])
    duel.play("aim:attack_a:face", "take_hit", "stand")  # 17 + 3 + 3 = 23 ≥ 10: the face is cut
    assert duel.data.injuries[1].face
    duel.play("attack:nodachi.great_cut", "attack:nodachi.great_cut")  # 3 + 3 = 6 > 5
    check = duel.events("overload_check")[0].data
    assert (check["excess"], check["dice"], check["modifiers"]) == (1, (4, 6), (("face_wound", -2),))
    assert (check["total"], check["success"]) == (10, False) and duel.events("overload_failure")
    face_on_attacks = [e.data["modifiers"] for e in duel.events("attack_check") if e.actor == 1]
    assert all(("face_wound", -2) in modifiers for modifiers in face_on_attacks)


@pytest.mark.rule("MA-042", "MA-046", "MA-D03")
@pytest.mark.parametrize("faces, face_wound, dropped", [
    ([4, 4], False, True), ([4, 5], False, False), ([5, 4], True, True),  # 9: kept unhurt, dropped with the face
])
def test_ma_d03_wrist_check_in_a_fight_with_the_face_wound_on_it(faces, face_wound, dropped):
    """MA-D03 through the engine: a wrist hit on a Physique 2 ronin, dice 8 → 10 < 11 drops the nodachi,
    dice 9 → 11 keeps it (−1 on weapon attacks either way); a face wound's −2 is on this check too."""
    first = [9, 8] if face_wound else []
    duel = Duel(dice=first + [9, 7] + faces, fighters=(KENSHI, FighterSpec("ronin", 1, physique=2)))
    if face_wound:
        duel.play("aim:attack_a:face", "take_hit", "end_breath", "stand")  # the ronin keeps its 12
    duel.play("aim:attack_a:wrist", "take_hit")
    check = duel.events("wrist_check")[0].data
    assert (check["total"], check["success"]) == (sum(faces) + 2 - (2 if face_wound else 0), not dropped)
    assert duel.data.injuries[1].disarmed is dropped
    assert duel.data.injuries[1].attack_modifiers(with_weapon=True) == [("wrist_wound", -1)]


@pytest.mark.rule("MA-053", "MA-G21", "BR-025")
def test_ma_g21_glare_is_on_the_overload_check_too():
    """Backlight is −1 on every check of one side (MA-G21), the overload check included: Physique 2,
    excess 1, dice 5 + 5 → 10 + 2 − 1 − 1 = 10 < 11."""
    duel = Duel(dice=[1, 2, 1, 2, 5, 5, 1, 2], config=MaDuelConfig(stage="backlight", stage_side=0))
    duel.play(*["attack:uchigatana.horizontal_cut"] * 3)  # 2 + 2 + 2 = 6 > 5
    check = duel.events("overload_check")[0].data
    assert (check["modifiers"], check["total"], check["success"]) == ((("glare", -1),), 10, False)
