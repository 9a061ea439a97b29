"""Printing a played scenario: readable text for designers, JSON lines for tools and golden files.

Text: the setup events, then each decision (who, what kind, which action) followed by the events it
produced, one line each with the rule ID first and every number named; then the ruleset's picture of
the final state if it draws one (the optional text hook, :func:`~issoku.envs.adapter.picture_of`) and the result.

JSON lines (canonical: sorted keys, no spaces, so the same scenario prints the same bytes): one line per
event exactly as :meth:`~issoku.rules.kernel.events.Event.to_json` writes it (it has a ``"rule"`` key),
one line per decision (``{"action": ..., "action_id": ..., "agent": ..., "decision_kind": ...,
"scripted": ..., "seat": ..., "step": n}``) before its events, and a last ``{"result": {...}}`` line.
"""

from __future__ import annotations

import json
from typing import Any

from issoku.envs.adapter import picture_of
from issoku.envs.scenario import Replay


def _canonical(record: dict[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"))


def result_record(replay: Replay) -> dict[str, Any]:
    """How the playback ended: per-agent returns, and whether the fight ended, was cut off, or goes on."""
    state = replay.state
    returns = state.returns()
    return {
        "env": replay.env.metadata["name"],
        "seed": replay.scenario.seed,
        "decisions": len(replay.decisions),
        "terminated": state.is_terminal(),
        "truncated": state.is_truncated(),
        "returns": {agent: float(returns[seat]) for seat, agent in enumerate(replay.env.possible_agents)},
    }


def format_jsonl(replay: Replay) -> str:
    """The replay as canonical JSON lines."""
    events = replay.state.events
    lines = [event.to_json() for event in events.since(0)[:replay.setup_events_end]]
    for decision in replay.decisions:
        lines.append(_canonical({"step": decision.step, "agent": decision.agent, "seat": decision.seat,
                                 "decision_kind": decision.decision_kind, "action": decision.action_name,
                                 "action_id": decision.action, "scripted": decision.scripted}))
        lines.extend(events[i].to_json() for i in range(decision.events_start, decision.events_end))
    lines.append(_canonical({"result": result_record(replay)}))
    return "".join(line + "\n" for line in lines)


def format_text(replay: Replay) -> str:
    """The replay as readable text."""
    scenario, env, state = replay.scenario, replay.env, replay.state
    names = env.possible_agents
    events = state.events
    title = f"{scenario.title}  " if scenario.title else ""
    lines = [f"{title}[{env.metadata['name']}, seed {scenario.seed}]"]
    if scenario.description:
        lines.append(scenario.description.strip())
    if replay.setup_events_end:
        lines.append("setup")
        lines.extend("    " + events[i].describe(names) for i in range(replay.setup_events_end))
    for decision in replay.decisions:
        source = "" if decision.scripted else "  (policy)"
        lines.append(f"{decision.step:>3}. {decision.agent} ({decision.decision_kind}): {decision.action_name}{source}")
        lines.extend("    " + events[i].describe(names) for i in range(decision.events_start, decision.events_end))
    picture = picture_of(env.ruleset, state)
    if picture is not None:
        lines.append(picture)
    lines.append(_result_line(replay))
    return "\n".join(lines) + "\n"


def _result_line(replay: Replay) -> str:
    record = result_record(replay)
    returns = ", ".join(f"{agent} {value:+g}" for agent, value in record["returns"].items())
    if record["terminated"]:
        return f"result: fight over after {record['decisions']} decisions: {returns}"
    if record["truncated"]:
        return f"result: cut off by the limit after {record['decisions']} decisions: {returns}"
    state = replay.state
    seat = state.current_seat()
    who = "nobody" if seat is None else replay.env.possible_agents[seat]
    return f"result: stopped after {record['decisions']} decisions; {who} to decide ({state.decision_kind()})"
