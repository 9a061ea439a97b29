"""Scenarios: a fight fixed in a TOML file (env, options, seed or scripted dice, decisions, expected
events), played back. The one scenario format and loader: ``issoku replay``, ``issoku view`` and the
tests all read scenarios through this module.

A designer writes down a situation and reads exactly what the rules did with it; a test pins it. The
format (validated; unknown keys are errors)::

    env = "breath_duel_v0"          # a registered env id (issoku.envs.registry)
    seed = 7                        # the fight's seed: same file, same fight, byte for byte
    title = "Thrust to the wrist"   # optional
    description = "..."             # optional
    actions = [                     # optional: one entry per decision, in order, by action NAME
        "close",                    #   whoever is deciding plays it
        { agent = "player_1", action = "reply:parry" },   # or checked against the deciding agent
    ]
    policy = "random"               # optional: an agents-registry name that plays every seat after the script
    policy_seed = 0                 # optional (default: seed)
    max_steps = 10000               # optional cap on decisions (script plus policy)
    dice = [15, 3, 10]              # optional: every die face in the order the rules roll them, instead of
                                    #   the seed's dice (a worked example; then no policy, and running out
                                    #   of faces is an error)
    expect = [                      # optional: events the log must hold, in this order (others may lie
                                    #   between); each names a rule and a kind, optionally the actor, and
                                    #   any data fields it checks
        { rule = "TP-046", kind = "statuses", why = "bind", statuses = ["bound", "bound"] },
    ]

    [env_kwargs]                    # keyword arguments for the env factory (fighters, options...)
    round_limit = 12

    [final]                         # optional: where the playback must stop
    decision = "act"                #   the decision kind then asked for
    seat = 1                        #   the seat deciding it

Without ``policy`` the playback stops when the script runs out, fight over or not. Agents that are
done leave by their dead step on their own; the script lists decisions only. :func:`play` takes the
policy object itself (the envs layer does not know the agents registry; the ``issoku replay`` command
resolves ``policy`` by name, handing ruleset-built agents the ruleset of :func:`scenario_env`), and
raises :class:`ScenarioMismatch` when the played fight breaks ``expect`` or ``final``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, model_validator

from issoku.common.inputs import BadInput
from issoku.envs.adapter import RulesetAECEnv
from issoku.envs.errors import IllegalActionError
from issoku.envs.registry import make_env, refuse_imports, resolve_env
from issoku.rules.kernel.content import load_model
from issoku.rules.kernel.dice import ScriptedDice
from issoku.rules.kernel.protocol import GameState

PolicyFn = Callable[[np.ndarray, np.ndarray], int]


class ScenarioError(ValueError):
    """A scenario cannot be played as written (wrong agent, unknown or illegal action), with the step."""


class ScenarioMismatch(ScenarioError):
    """The played fight differs from what the scenario expects (an event or the final decision); ``replay``
    is the fight as it was played, for showing its log."""

    def __init__(self, message: str, replay: Replay) -> None:
        super().__init__(message)
        self.replay = replay


class ScriptedDecision(BaseModel):
    """One scripted decision: an action name, optionally checked against the deciding agent."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    action: str
    agent: str | None = None


class ExpectedEvent(BaseModel):
    """One expected event: ``rule`` and ``kind``, optionally ``actor``; any other key is a data field."""

    model_config = ConfigDict(extra="allow", frozen=True)

    rule: str
    kind: str
    actor: int | None = Field(default=None, ge=0)

    def matches(self, event: dict[str, Any]) -> bool:
        """Does a logged event (as :meth:`~issoku.rules.kernel.events.Event.to_dict`) carry every field this
        expectation names? (A logged tuple equals an expected list.)"""
        wanted = {"rule": self.rule, "kind": self.kind, **(self.model_extra or {})}
        if self.actor is not None:
            wanted["actor"] = self.actor
        return all(_same(event.get(key), value) for key, value in wanted.items())


def _same(logged: Any, expected: Any) -> bool:
    if isinstance(logged, tuple):
        return isinstance(expected, list) and list(logged) == expected
    return bool(logged == expected)


class Final(BaseModel):
    """Where a scenario's playback must stop (every field optional)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    decision: str | None = None
    seat: int | None = Field(default=None, ge=0)


class Scenario(BaseModel):
    """A validated scenario file (see the module docstring for the format)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    env: str
    seed: int = Field(ge=0)
    title: str = ""
    description: str = ""
    env_kwargs: dict[str, Any] = Field(default_factory=dict)
    actions: tuple[str | ScriptedDecision, ...] = ()
    policy: str | None = None
    policy_seed: int | None = Field(default=None, ge=0)
    max_steps: int = Field(default=10_000, ge=1)
    dice: tuple[int, ...] | None = None
    expect: tuple[ExpectedEvent, ...] = ()
    final: Final = Final()

    @model_validator(mode="after")
    def _scripted_dice_play_the_script_only(self) -> Scenario:
        if self.dice is not None and self.policy is not None:
            raise ValueError("a scenario with scripted dice plays its script only: drop policy or dice")
        return self

    def reset_options(self) -> dict[str, Any] | None:
        """The env ``reset`` options that draw this scenario's chance: its scripted dice, if it has them."""
        return None if self.dice is None else {"dice": ScriptedDice(list(self.dice))}

    def decisions(self) -> list[ScriptedDecision]:
        """The script with bare names turned into :class:`ScriptedDecision` entries."""
        return [entry if isinstance(entry, ScriptedDecision) else ScriptedDecision(action=entry)
                for entry in self.actions]


SHIPPED_SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
"""The worked-example scenarios: the checkout's ``scenarios/``, or the copy an installed wheel ships beside the layers."""


def shipped_scenario(path: Path) -> Path:
    """``path`` itself when it is a file; otherwise the shipped scenario it names, so an installed user can write
    ``breath_duel/closing_the_ma`` (or ``scenarios/breath_duel/closing_the_ma.toml``, as the docs do) from any
    folder; else ``path`` unchanged, for the caller's "no such file"."""
    if path.exists() or path.is_absolute():
        return path
    parts = path.parts[1:] if path.parts[:1] == ("scenarios",) else path.parts
    if not parts:
        return path
    candidate = SHIPPED_SCENARIOS.joinpath(*parts)
    candidate = candidate if candidate.suffix == ".toml" else candidate.with_name(candidate.name + ".toml")
    return candidate if candidate.is_file() else path


def check_scenario_file(path: Path, name: str) -> None:
    """Refuse a scenario that is neither a file nor a shipped scenario's name, saying how to list those."""
    if not path.exists():
        raise BadInput(f"{name}: no such file, nor a shipped scenario (`issoku replay --list` names them)")


def shipped_scenario_names() -> list[str]:
    """Every shipped scenario as ``<folder>/<name>``, what :func:`shipped_scenario` accepts."""
    return sorted(found.relative_to(SHIPPED_SCENARIOS).with_suffix("").as_posix()
                  for found in SHIPPED_SCENARIOS.rglob("*.toml"))


def load_scenario(path: Path | str) -> Scenario:
    """Read and validate a scenario file (a :class:`~issoku.rules.kernel.content.DataError` names what is wrong)."""
    return load_model(path, Scenario)


def check_scenario_names(scenario: Scenario, where: str, *, allow_imports: bool = False) -> None:
    """Refuse a scenario's env and policy import paths unless ``allow_imports`` (a scenario is data), and
    an env id no resolver knows."""
    refuse_imports([("env", scenario.env), ("policy", scenario.policy or "")], where, allow_imports=allow_imports)
    resolve_env(scenario.env, where=where)


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision as played: who, what, and which events it produced (``events[start:end]``)."""

    step: int
    agent: str
    seat: int
    decision_kind: str
    action: int
    action_name: str
    scripted: bool
    events_start: int
    events_end: int


@dataclass(frozen=True, slots=True)
class Replay:
    """A played scenario: the final state (with its event log) and the decisions that led there."""

    scenario: Scenario
    env: RulesetAECEnv
    state: GameState
    decisions: tuple[Decision, ...]
    setup_events_end: int

    @property
    def over(self) -> bool:
        """The fight ended (decided or truncated), rather than the script running out."""
        return self.state.is_terminal() or self.state.is_truncated()


def scenario_env(scenario: Scenario) -> RulesetAECEnv:
    """A fresh env of the scenario's id and keyword arguments, recording events (not yet reset).

    Build it first when the play-out policy needs the ruleset (a scripted agent built for one)."""
    return make_env(scenario.env, **{**scenario.env_kwargs, "record_events": True, "illegal_action": "raise"})


def play(scenario: Scenario, policy: PolicyFn | None = None, env: RulesetAECEnv | None = None) -> Replay:
    """Play ``scenario`` with its events recorded; ``policy`` plays every seat once the script is done.

    ``env``: one from :func:`scenario_env` (default: a new one)."""
    env = env if env is not None else scenario_env(scenario)
    env.reset(seed=scenario.seed, options=scenario.reset_options())
    state = env.fight
    script = scenario.decisions()
    setup_end = len(state.events)
    decisions: list[Decision] = []
    while env.agents and len(decisions) < scenario.max_steps:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        step = len(decisions) + 1
        scripted = step <= len(script)
        if scripted:
            action = _scripted_action(env, script[step - 1], step)
        elif policy is not None:
            seen = env.observe(agent)
            action = int(policy(seen["observation"], seen["action_mask"]))
        else:
            break
        kind = state.decision_kind()
        start = len(state.events)
        try:
            env.step(action)
        except IllegalActionError as error:
            raise ScenarioError(f"decision {step} ({agent}): {error}") from None
        except IndexError as error:
            if scenario.dice is None:
                raise
            raise ScenarioError(f"decision {step} ({agent}): {error}") from None
        decisions.append(Decision(step, agent, env.seat(agent), kind, action, env.action_names[action], scripted,
                                  start, len(state.events)))
    played = Replay(scenario, env, state, tuple(decisions), setup_end)
    check_expectations(played)
    return played


def check_expectations(played: Replay) -> None:
    """Raise :class:`ScenarioMismatch` unless the log holds the scenario's ``expect`` events in order and the
    playback stopped where its ``final`` says."""
    state, scenario = played.state, played.scenario
    logged = [event.to_dict() for event in state.events]
    position = 0
    for want in scenario.expect:
        while position < len(logged) and not want.matches(logged[position]):
            position += 1
        if position == len(logged):
            raise ScenarioMismatch(f"expected event not found in order: {want!r}", played)
        position += 1
    final = scenario.final.model_dump(exclude_none=True)
    actual = {"decision": state.decision_kind(), "seat": state.current_seat()} if final else {}
    for key, value in final.items():
        if actual[key] != value:
            raise ScenarioMismatch(f"final {key} is {actual[key]!r}, expected {value!r}", played)


def _scripted_action(env: RulesetAECEnv, entry: ScriptedDecision, step: int) -> int:
    agent = env.agent_selection
    if entry.agent is not None and entry.agent != agent:
        raise ScenarioError(f"decision {step}: the script expects {entry.agent} to decide, but it is {agent}'s "
                            f"{env.fight.decision_kind()!r} decision")
    try:
        return env.action_id(entry.action)
    except KeyError as error:
        raise ScenarioError(f"decision {step} ({agent}): {error.args[0]}") from None
