"""Traces for the replay viewer: a replayed action list is the same fight, for scenarios, policies and stored
games; the page embeds the fight safely."""

import json
from pathlib import Path

import pytest

from issoku.envs.registry import make_env
from issoku.envs.replay import format_jsonl
from issoku.envs.teams import seat_teams
from issoku.envs.trace import TraceError, replaying, trace
from issoku.envs.viewer import render_html, rule_statements
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import PolicySpec, Tournament, run_tournament
from issoku.evaluation.games.viewing import play_scenario, trace_fight, trace_scenario, trace_stored

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").glob("*/*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_a_scenarios_trace_holds_every_event_of_its_replay_in_order(path):
    fight, title = trace_scenario(path)
    played = play_scenario(path)
    logged = [json.loads(line) for line in format_jsonl(played).splitlines() if '"rule"' in line]
    traced = [event for frame in fight.frames for event in frame.events]
    assert [json.loads(json.dumps(event)) for event in traced] == logged
    assert [frame.action for frame in fight.frames[1:]] == [decision.action_name for decision in played.decisions]
    assert all(frame.action in frame.legal for frame in fight.frames[1:]) and title


def test_every_frame_shows_each_seats_named_fields_and_the_rulesets_picture():
    fight, _ = trace_fight("breath_duel_v0", 5, ["ma_heuristic", "ma_aggressive"], {})
    env = make_env("breath_duel_v0")
    names = set(env.unwrapped.ruleset.observation_spec.names)
    assert all(set(frame.seats[agent]) == names for frame in fight.frames for agent in fight.agents)
    assert all("ladder" in frame.picture for frame in fight.frames)
    assert fight.terminated and sorted(fight.returns.values()) == [-1.0, 1.0]


def test_a_stored_game_replays_to_its_recorded_result(tmp_path):
    tournament = Tournament(lambda **kwargs: make_env("tempo_duel_v0", **kwargs),
                            (PolicySpec("random", _random()), PolicySpec("heur", _heuristic())), games_per_pair=2)
    with MatchStore(tmp_path / "m.sqlite") as store:
        run_tournament(tournament, store, workers=0, progress=False)
        records = list(store.records())
    for record in records:
        fight, title = trace_stored(tmp_path / "m.sqlite", record.key)
        assert [frame.action for frame in fight.frames[1:] if frame.agent == record.agents[0]] == list(record.actions[0])
        assert tuple(fight.returns.values()) == record.returns and record.key in title
    with pytest.raises(TraceError, match="no game with that key"):
        trace_stored(tmp_path / "m.sqlite", "nope")


def test_a_game_stored_under_other_rules_is_refused(tmp_path):
    tournament = Tournament(lambda **kwargs: make_env("tempo_duel_v0", **kwargs),
                            (PolicySpec("random", _random()), PolicySpec("heur", _heuristic())), games_per_pair=1)
    with MatchStore(tmp_path / "m.sqlite") as store:
        run_tournament(tournament, store, workers=0, progress=False)
        key = next(store.records()).key
        store._db.execute("UPDATE matches SET rules_fingerprint = 'other' WHERE key = ?", (key,))
        store._db.commit()
    with pytest.raises(TraceError, match="another fight"):
        trace_stored(tmp_path / "m.sqlite", key)


def test_a_replay_that_runs_out_of_actions_stops_there():
    env = make_env("breath_duel_v0", record_events=True)
    fight = trace(env, 3, replaying([]))
    assert len(fight.frames) == 1 and not fight.terminated


def test_a_learned_agent_plays_a_viewed_fight_named_as_head_to_head_names_it(tmp_path):
    """``view -a`` takes what ``head-to-head -a`` takes: a registered policy, ``shipped:<env>`` or a checkpoint file;
    a checkpoint of another env is refused with its differences, before a move is traced."""
    from issoku.agents.checkpoint import CheckpointMismatchError
    from issoku.evaluation.games.policies import shipped_checkpoints

    fight, title = trace_fight("breath_duel_v0", 3, ["shipped:breath_duel_v0", "ma_heuristic"], {})
    assert title == "breath_duel_v0 seed 3: shipped:breath_duel_v0 vs ma_heuristic" and len(fight.frames) > 2
    again, _ = trace_fight("breath_duel_v0", 3, [str(shipped_checkpoints()["breath_duel_v0"]), "ma_heuristic"], {})
    assert [frame.action for frame in again.frames] == [frame.action for frame in fight.frames]  # seeded alike
    with pytest.raises(CheckpointMismatchError, match="env_id"):
        trace_fight("tempo_duel_v0", 3, ["shipped:breath_duel_v0"], {})
    with pytest.raises(ValueError, match="no checkpoint file"):
        trace_fight("breath_duel_v0", 3, [str(tmp_path / "none.zip")], {})


def test_the_timeline_holds_each_fighters_own_guard_energy_and_wounds_at_every_step():
    from issoku.envs.viewer import timeline

    fight, _ = trace_fight("breath_duel_v0", 2, ["ma_heuristic"], {})
    series = {(s["agent"], s["field"]): s["values"] for s in timeline(fight)}
    assert set(series) == {(agent, field) for agent in fight.agents for field in ("guard", "energy", "wounds")}
    a, b = fight.agents
    # a fighter's own value is the first of its observation's pair, the second of its opponent's
    assert series[(a, "energy")] == [frame.seats[b]["energy"][1] for frame in fight.frames]
    assert len(set(series[(a, "energy")])) > 1  # it moves over the fight
    tempo, _ = trace_fight("tempo_duel_v0", 2, ["random"], {})
    assert {s["field"] for s in timeline(tempo)} == {"health", "ap"}


def test_the_page_embeds_the_fight_so_no_string_can_close_the_script():
    fight, _ = trace_fight("tempo_duel_v0", 1, ["random"], {})
    rule = next(event["rule"] for frame in fight.frames for event in frame.events)
    page = render_html(fight, title="</script><script>alert(1)</script>", rules={rule: "</script><b>x</b>"})
    assert page.count("</script>") == 2  # only the page's own two script elements close
    assert "<b>x</b>" not in page and "&lt;/script&gt;" in page


def test_rule_statements_come_from_the_repositorys_docs():
    statements = rule_statements()
    assert statements and all(key.split("-")[0] in {"BR", "MA", "SP", "EN", "TP"} for key in statements)
    assert "MA-G01" in statements and "resist" in statements["MA-G01"]
    assert "Physique" in statements["BR-025"] and statements["BR-025"].endswith("(br.md)")  # docs/rules/reference
    reference, decision = statements["BR-G04"].split("\n")  # the reference's text first, then the decision
    assert "Wounds track" in reference and reference.endswith("(br.md)") and "tests/" not in reference
    assert decision.startswith("Decision: ") and decision.endswith("(breath.md)")


def test_a_page_embeds_the_statements_of_the_rules_its_fight_names_only():
    fight, _ = trace_fight("tempo_duel_v0", 1, ["random"], {})
    named = {event["rule"] for frame in fight.frames for event in frame.events}
    page = json.loads(render_html(fight, title="t").split('id="data">', 1)[1].split("</script>", 1)[0])
    assert set(page["rules"]) == named & set(rule_statements()) and named & set(rule_statements())


def _random():
    from issoku.agents.registry import POLICY_FACTORIES
    from issoku.envs.registry import import_object

    return import_object(POLICY_FACTORIES["random"])


def _heuristic():
    from issoku.agents.registry import POLICY_FACTORIES
    from issoku.envs.registry import import_object

    return import_object(POLICY_FACTORIES["tempo_heuristic"])


@pytest.mark.parametrize("env_id", ["breath_duel_v0", "tempo_duel_v0", "breath_skirmish_v0"])
def test_rgb_array_frames_keep_one_size_through_an_episode_and_show_the_picture(env_id):
    import numpy as np

    env = make_env(env_id, render_mode="rgb_array")
    env.reset(seed=4)
    rng = np.random.default_rng(4)
    frames = [env.render()]
    for _ in range(6):
        observation, *_ = env.last()
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        frames.append(env.render())
    assert len({frame.shape for frame in frames}) == 1 and frames[0].dtype == np.uint8 and frames[0].shape[2] == 3
    assert all((frame < 128).mean() > 0.005 for frame in frames)  # dark text on white
    assert not np.array_equal(frames[0], frames[-1])


def test_a_stored_team_fight_replays_each_teams_decisions_to_its_members(tmp_path):
    tournament = Tournament(lambda **kwargs: make_env("breath_skirmish_v0", **kwargs),
                            (PolicySpec("random", _random()), PolicySpec("heur", _named("breath_heuristic"))),
                            games_per_pair=2)
    with MatchStore(tmp_path / "m.sqlite") as store:
        run_tournament(tournament, store, workers=0, progress=False)
        records = list(store.records())
    for record in records:
        assert record.agents == ("team_0", "team_1")
        fight, _ = trace_stored(tmp_path / "m.sqlite", record.key)
        team = dict(zip(fight.agents, (f"team_{t}" for t in seat_teams(make_env("breath_skirmish_v0")))))
        for seat, played in zip(record.agents, record.actions):
            assert [frame.action for frame in fight.frames[1:] if team[frame.agent] == seat] == list(played)
        assert {fight.returns[agent] for agent in fight.agents if team[agent] == "team_0"} == {record.returns[0]}


def _named(name):
    from issoku.agents.registry import POLICY_FACTORIES
    from issoku.envs.registry import import_object

    return import_object(POLICY_FACTORIES[name])
