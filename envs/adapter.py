"""One PettingZoo AEC env over any ruleset that speaks the kernel protocol.

Every env in ``issoku.envs`` is this adapter plus a few lines that build a ruleset from keyword
arguments. The adapter only encodes: it follows ``state.current_seat()``, turns ``legal_actions()``
into the action mask, hands out ``state.observation(seat)``, and writes the cross-cutting env policy
once (pgx's template ``step``): order and bounds checks, illegal actions, rewards to every seat at the
end, truncation, defeated fighters leaving, rendering. It knows nothing of any particular game and
assumes nothing about the number of seats.

Conventions (PettingZoo classic):

* agents are the ruleset's ``seat_names``; ``observe(agent)`` is
  ``{"observation": float32 vector, "action_mask": int8 vector}``; the mask encodes ``legal_actions()``
  for the agent whose decision it is and is all zeros for every other agent. Masks are read-only and
  shared between steps (copy one to change it).
* infos: one dict per agent, made fresh by every ``reset``, holding integers only (TorchRL turns every
  entry into a tensor): ``decision_kind`` (the index of the decision the agent faces in
  ``metadata["decision_kinds"]``, −1 when it faces none), ``eliminated`` (1 once the rules took the
  agent's fighter out) and ``illegal_action`` (1 for an offender). The keys never change, so a library
  that builds its specs from the first infos keeps them. The mask is in the observation only, as in
  PettingZoo's classic games (TorchRL refuses a mask in both places).
* rewards are zero until the fight ends; then **every** agent gets ``state.returns()`` for its seat
  (+1 win, −1 loss, 0 draw; seats of one side share the outcome), whoever moved last — the loser of a
  fight that ends on the winner's move gets its −1 on that move. A truncated fight
  (``state.is_truncated()``, the round limit) pays ``state.returns()`` too, which the protocol makes 0
  for an undecided fight; its agents are truncated, not terminated. Opt-in, ``round_limit_payoff="health_lead"``
  pays such a fight each side's health lead instead (its mean share of health left less the other sides', in
  [−1, 1]): where most fights between beginners reach the round limit (under random play some envs decide
  3 % of their fights), every return is otherwise 0 and a learner has nothing to learn from. The rules
  are unchanged; a decided fight pays ±1 as before. The option is an env keyword, so it is part of every stored
  game's key, and a store reads a round-limit fight with a lead as won by the side ahead. (Training has its own,
  flat ``round_limit_reward`` for the learner alone, :mod:`issoku.training.shaping`; this one is the env's.)
* a seat the rules eliminate mid-fight (``state.is_eliminated(seat)``) stays in the env, never
  selected (the rules give it no decision), ``infos[agent]["eliminated"] == 1``, until the fight
  ends; then it gets its side's result like everyone else and leaves by PettingZoo's dead step. So a
  fallen fighter of the winning side is paid +1 and dying early is never worth more than fighting on.
* an illegal action (``illegal_action="terminate"``, the default, as PettingZoo's classic games) ends
  the fight: the offender gets ``illegal_reward`` (−1), everyone else 0,
  ``infos[offender]["illegal_action"] == 1`` and ``illegal_action_count`` counts it over the env's
  life. ``illegal_action="raise"`` raises :class:`~issoku.envs.errors.IllegalActionError` instead and
  changes nothing (for development). Nothing is ever repaired into a legal move.
* ``reset(seed)`` plays ``ruleset.new_initial_state(seed)``: the same seed and actions give the same
  fight. ``env.game_state`` is the live :class:`~issoku.rules.kernel.protocol.GameState` (events,
  ``clone()``) for scenarios, replays and search.

Speed: PettingZoo's wrappers (``OrderEnforcingWrapper``, ``AssertOutOfBoundsWrapper``,
``TerminateIllegalWrapper``) each add a Python call layer to every ``step``/``observe``/``last``; the
checks they make are done here inline instead; a mask is looked up once per decision (:func:`legal_mask`),
and only the info entries that change are rewritten.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterator
from typing import Any, cast

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils.conversions import turn_based_aec_to_parallel
from pettingzoo.utils.wrappers import BaseParallelWrapper

from issoku.envs.decision import Decision
from issoku.envs.decision import legal_mask as legal_mask  # its home for callers (agents, search)
from issoku.envs.errors import EnvOrderError, IllegalActionError
from issoku.rules.kernel.outcomes import health_leads
from issoku.rules.kernel.protocol import GameState, Ruleset

RENDER_MODES = ("human", "ansi", "rgb_array")
ILLEGAL_ACTION_POLICIES = ("raise", "terminate")
ROUND_LIMIT_PAYOFFS = ("draw", "health_lead")
"""What a fight stopped by the round limit pays: ``"draw"`` (the rules' returns, 0 for an undecided fight: the
default) or ``"health_lead"`` (each side's health lead, :func:`~issoku.rules.kernel.outcomes.health_leads`)."""
SEED_BLOCK = 64
"""Episode seeds drawn at once for unseeded resets."""


IDLE_MASKS = ("zeros", "placeholder")
"""What a parallel env's idle agents (all but the one deciding) are given as their action mask: ``"zeros"`` (no legal
action: the AEC env's own convention, the default) or ``"placeholder"`` (action 0 alone, which the step ignores)."""


def as_parallel(env: "RulesetAECEnv", idle_mask: str = "zeros") -> ParallelEnv:
    """``env`` as a PettingZoo ``ParallelEnv``: PettingZoo's turn-based conversion, in which each
    parallel step carries the one deciding agent's action (the others' are ignored). Its observations,
    masks, rewards and infos are the AEC env's; ``aec_to_parallel`` refuses these envs (one agent may
    decide several times in a row), this conversion does not need that.

    ``idle_mask="placeholder"`` gives every idle agent a mask with action 0 alone legal instead of none: a library
    that samples every agent's action from a masked categorical each step (TorchRL's ``PettingZooWrapper``) then
    samples that placeholder with probability 1 (log-probability 0, so no gradient), where an all-zero mask is no
    distribution at all. The step ignores it either way. The conversion's ``infos[agent]["active_agent"]`` (a
    string, added after each step) is left out there too: such a library turns every info into a tensor, and the
    masks already say who acts."""
    if idle_mask not in IDLE_MASKS:
        raise ValueError(f"idle_mask must be one of {IDLE_MASKS}, not {idle_mask!r}")
    parallel = turn_based_aec_to_parallel(env)
    return PlaceholderIdleMasks(parallel) if idle_mask == "placeholder" else parallel


class PlaceholderIdleMasks(BaseParallelWrapper):
    """A parallel env whose idle agents' all-zero masks read "action 0 only" (see :func:`as_parallel`)."""

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        observations, infos = self.env.reset(seed=seed, options=options)
        return self._placeholders(observations), infos

    def step(self, actions: dict) -> tuple[dict, dict, dict, dict, dict]:
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        infos = {agent: {key: value for key, value in info.items() if key != "active_agent"}
                 for agent, info in infos.items()}
        return self._placeholders(observations), rewards, terminations, truncations, infos

    @staticmethod
    def _placeholders(observations: dict) -> dict:
        patched = {}
        for agent, seen in observations.items():
            mask = seen["action_mask"]
            if not mask.any():
                mask = _placeholder_mask(len(mask))
                seen = {**seen, "action_mask": mask}
            patched[agent] = seen
        return patched


@functools.lru_cache(maxsize=16)
def _placeholder_mask(num_actions: int) -> np.ndarray:
    """The read-only mask with action 0 alone legal, one per action count."""
    mask = np.zeros(num_actions, dtype=np.int8)
    mask[0] = 1
    mask.flags.writeable = False
    return mask


def picture_of(ruleset: Ruleset, state: GameState) -> str | None:
    """The ruleset's own text picture of ``state``, if it draws one: the optional protocol hooks
    ``ruleset.render_text(state)`` or, failing that, ``state.render_text()``."""
    hook = getattr(ruleset, "render_text", None)
    if callable(hook):
        return hook(state)
    hook = getattr(state, "render_text", None)
    return hook() if callable(hook) else None


class AgentTurns:
    """What :meth:`RulesetAECEnv.agent_iter` returns: iterable as often as PettingZoo's ``AECIterable`` (each
    iteration yields at most ``max_iter`` agents), one generator per iteration."""

    __slots__ = ("env", "max_iter")

    def __init__(self, env: AECEnv, max_iter: int) -> None:
        self.env = env
        self.max_iter = max_iter

    def __iter__(self) -> Iterator[str]:
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


class RulesetAECEnv(AECEnv):
    """A PettingZoo AEC env playing one ``ruleset``; see the module docstring for the conventions.

    ``name`` is the env id shown by ``str(env)`` and ``metadata["name"]`` (default
    ``"<ruleset.name>_v<ruleset.version>"``). ``record_events`` switches the rules' event log on (needed
    for rendering and replays); by default it is on exactly when a ``render_mode`` is set, so training
    runs pay nothing for it.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "ruleset_env",
                                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, ruleset: Ruleset, *, render_mode: str | None = None, illegal_action: str = "terminate",
                 illegal_reward: float = -1.0, record_events: bool | None = None, name: str | None = None,
                 round_limit_payoff: str = "draw") -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, not {render_mode!r}")
        if illegal_action not in ILLEGAL_ACTION_POLICIES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_POLICIES}, not {illegal_action!r}")
        if round_limit_payoff not in ROUND_LIMIT_PAYOFFS:
            raise ValueError(f"round_limit_payoff must be one of {ROUND_LIMIT_PAYOFFS}, not {round_limit_payoff!r}")
        probe = ruleset.new_initial_state(0, record_events=False) if round_limit_payoff == "health_lead" else None
        if probe is not None and not hasattr(probe, "health_fractions"):
            raise ValueError(f"round_limit_payoff='health_lead' needs the health_fractions hook, which "
                             f"{ruleset.name}'s states lack")
        self.round_limit_payoff = round_limit_payoff
        self.ruleset = ruleset
        self.metadata = {**type(self).metadata, "name": name or f"{ruleset.name}_v{ruleset.version}",
                         "decision_kinds": tuple(ruleset.decision_kinds)}
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.record_events = render_mode is not None if record_events is None else record_events
        self.action_names: tuple[str, ...] = tuple(ruleset.action_names)
        self._action_ids = {action_name: action for action, action_name in enumerate(self.action_names)}
        self.possible_agents: list[str] = list(ruleset.seat_names)
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._num_actions = len(self.action_names)

        self.action_spaces = {agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents}
        self._decision = Decision(self.possible_agents, ruleset.decision_kinds, self._num_actions)
        """The decision in progress (seat −1 before a reset and once the fight is over): its seat, mask and legal
        set, kept up to date by every move."""
        self._no_mask = self._decision.no_mask
        """Every waiting agent's mask: all zeros, read-only."""

        self.game_state: GameState | None = None
        self.episode_seed: int | None = None
        self.illegal_action_count = 0
        self.num_steps = 0
        self._seed_rng: np.random.Generator | None = None
        self._seed_of_rng: int | None = None
        """The seed of the last seeded ``reset``, which seeds ``_seed_rng`` when it is first needed."""
        self._next_seeds: list[int] = []
        """The unseeded resets' next seeds, drawn from ``_seed_rng`` in blocks, last one first."""
        self._step_events_start = 0
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, int]] = {}
        # No agent decides before reset() (PettingZoo's AECEnv leaves the attribute unset until then); typed as
        # what it is from reset() on, where every reader runs.
        self.agent_selection: str = None  # type: ignore[assignment]

    # -- spaces and names ---------------------------------------------------------------------------
    @functools.cached_property
    def observation_spaces(self) -> dict[str, spaces.Dict]:  # type: ignore[override]
        """Each agent's observation space, built on first use: gymnasium's ``Box`` checks its bounds (about a
        millisecond for the four boxes of a duel), and a tournament builds an env per game it plays side by side
        and never asks (measured: 14 % of a 400-game study of a checkpoint against itself)."""
        low, high = self.ruleset.observation_spec.bounds()
        return {
            agent: spaces.Dict({
                "observation": spaces.Box(low, high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self._num_actions,), dtype=np.int8),
            })
            for agent in self.possible_agents
        }


    def observation_space(self, agent: str) -> spaces.Space:
        """The agent's ``Dict(observation=Box, action_mask=Box)`` space (one object per agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """``Discrete(len(action_names))``, the same for every agent."""
        return self.action_spaces[agent]

    def action_id(self, name: str) -> int:
        """The flat action called ``name`` (scenarios and scripts speak names)."""
        try:
            return self._action_ids[name]
        except KeyError:
            raise KeyError(f"{self.metadata['name']} has no action named {name!r}") from None

    def seat(self, agent: str) -> int:
        """The ruleset seat an agent plays."""
        return self._seat_of[agent]

    # -- the AEC protocol ---------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a fight: ``seed`` seeds it exactly as ``ruleset.new_initial_state(seed)`` would.

        Without a seed the next fight's seed is drawn from the generator of the last seed given, so a
        seeded run of several episodes is reproducible. ``options={"dice": dice}`` draws the fight's chance
        from ``dice`` (a kernel ``Dice``: ``ScriptedDice`` for a worked example) instead of the seed's dice;
        other options are accepted and unused.
        """
        if seed is not None:
            # The generator of later unseeded resets, made only when one comes: seeding one costs a third of
            # a fight's set-up, and tournaments reset every game with a seed of its own.
            self._seed_rng = None
            self._seed_of_rng = seed
            self._next_seeds = []
            episode_seed = int(seed)
        else:
            if not self._next_seeds:
                if self._seed_rng is None:
                    self._seed_rng = np.random.default_rng(self._seed_of_rng)
                # A block of draws is the same seeds as as many single draws (each is one bounded 64-bit
                # draw from the generator, nothing buffered between them) for a tenth of the cost each.
                self._next_seeds = self._seed_rng.integers(2**63 - 1, size=SEED_BLOCK).tolist()[::-1]
            episode_seed = self._next_seeds.pop()
        dice = (options or {}).get("dice")
        if dice is None:
            state = self.ruleset.new_initial_state(episode_seed, record_events=self.record_events)
        else:  # the protocol's optional keyword (every shipped ruleset takes it; its docstring says so)
            state = cast(Any, self.ruleset).new_initial_state(episode_seed, record_events=self.record_events,
                                                              dice=dice)
        self.game_state = state
        self.episode_seed = episode_seed
        self.num_steps = 0
        self._step_events_start = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {"decision_kind": -1, "eliminated": 0, "illegal_action": 0} for agent in self.agents}
        self._skip_agent_selection = None
        self._decision.start(state, self.infos)
        self.agent_selection = self._decision.agent

    @property
    def fight(self) -> GameState:
        """The fight in progress (the rules' state, as the last ``reset`` made it), for tools that read it (replays,
        traces); :class:`EnvOrderError` before ``reset()``."""
        state = self.game_state
        if state is None:
            raise EnvOrderError("no fight before reset()")
        return state

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's own view and its action mask (all zeros unless the decision is the agent's)."""
        state = self.game_state
        if state is None:
            raise EnvOrderError("observe() before reset()")
        seat = self._seat_of[agent]
        decision = self._decision
        return {"observation": state.observation(seat),
                "action_mask": decision.mask if seat == decision.seat else self._no_mask}

    def last(self, observe: bool = True) -> tuple:
        """PettingZoo's ``last()`` (its body, and ``observe``'s, not calls to them: it runs on every step), with a
        named error (not a bare assert) when called before ``reset()``."""
        state = self.game_state
        if state is None:
            raise EnvOrderError("last() before reset()")
        agent = self.agent_selection
        if observe:  # ``self.observe(agent)``'s body: a call less on every step
            seat = self._seat_of[agent]
            decision = self._decision
            seen: dict[str, np.ndarray] | None = {
                "observation": state.observation(seat),
                "action_mask": decision.mask if seat == decision.seat else self._no_mask}
        else:
            seen = None
        return (seen, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def agent_iter(self, max_iter: int = 2**63) -> "AgentTurns":
        """PettingZoo's ``agent_iter``: yields ``agent_selection`` while agents remain, at most ``max_iter`` times
        per iteration (a generator, which resumes for less than PettingZoo's iterator's ``__next__`` call)."""
        return AgentTurns(self, max_iter)

    def step(self, action: int | None) -> None:
        """Play ``action`` for ``agent_selection`` (``None`` for an agent that is done and leaving)."""
        state = self.game_state
        if state is None:
            raise EnvOrderError("step() before reset()")
        decision = self._decision
        if decision.seat < 0:  # nobody decides: the fight is over, every agent left is done and leaving
            if not self.agents:
                raise EnvOrderError("step() after every agent has left; call reset()")
            self._was_dead_step(action)
            return
        agent = self.agent_selection
        if action is None:
            raise TypeError(f"{agent} is deciding; action None is only for agents that are done")
        action = operator.index(action)  # TypeError for floats and the like; numpy ints pass
        legal = action in decision.legal
        if not legal and self.illegal_action == "raise":
            raise IllegalActionError(action, state.legal_actions(), self.action_names, state.decision_kind())
        self._cumulative_rewards[agent] = 0.0
        # Every reward is 0 here: only the step that ends the fight pays, and every step after it is a dead
        # step (whose ``_clear_rewards`` zeroes them), so rewards are accumulated only when this step ends it.
        if legal:
            if self.record_events:  # otherwise the log stays empty and the start at 0 (only rendering reads it)
                self._step_events_start = len(state.events)
            state.apply(action)
            self.num_steps += 1
            if decision.advance(state):
                self.agent_selection = decision.agent
            else:  # over: decided by the rules, or else cut off by a limit
                self._end(state, truncated=not state.is_terminal())
                self._accumulate_rewards()
        else:
            self._terminate_illegal(agent)
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- what happens after a move --------------------------------------------------------------------

    def _end(self, state: GameState, *, truncated: bool) -> None:
        """The fight ``state`` is over: every agent still here gets its seat's return (or, stopped by the round
        limit under ``round_limit_payoff="health_lead"``, its side's health lead) and is done."""
        lead = truncated and self.round_limit_payoff == "health_lead" and not any(state.returns())
        returns = health_leads(state) if lead else state.returns()
        done = self.truncations if truncated else self.terminations
        seat_of = self._seat_of
        for agent in self.agents:
            self.rewards[agent] = float(returns[seat_of[agent]])
            done[agent] = True
        self._finish_infos()

    def _terminate_illegal(self, agent: str) -> None:
        """``illegal_action="terminate"``: the fight ends, the offender pays ``illegal_reward``."""
        self.illegal_action_count += 1
        for other in self.agents:
            self.terminations[other] = True
        self.rewards[agent] = self.illegal_reward
        self._finish_infos()
        self.infos[agent]["illegal_action"] = 1

    def _finish_infos(self) -> None:
        """Nobody decides any more; the agent after the last mover leaves first (classic envs' order)."""
        mover = self.agent_selection
        self._decision.close()
        order = self.agents
        self.agent_selection = order[(order.index(mover) + 1) % len(order)]

    # -- rendering ----------------------------------------------------------------------------------

    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: return the text picture; ``"human"``: print it; ``"rgb_array"``: the same picture as an
        RGB frame of a fixed size (:mod:`issoku.envs.frames`). See :meth:`render_text`."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'human'")
            return None
        text = self.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        if self.render_mode == "rgb_array":
            from issoku.envs.frames import text_frame

            return text_frame(text)
        return text

    def render_text(self) -> str:
        """Whose decision it is, one line per seat, the ruleset's picture and the last step's events.

        The picture is the ruleset's optional text hook (:func:`picture_of`); a ruleset without one
        gets every seat's own observation, field by field.
        """
        state = self.game_state
        if state is None:
            raise EnvOrderError("render() before reset()")
        name = self.metadata["name"]
        acting = self._decision.seat
        if acting >= 0:
            header = f"{name}  step {self.num_steps}: {self.agent_selection} decides ({state.decision_kind()})"
        else:
            header = f"{name}  step {self.num_steps}: over ({'truncated' if state.is_truncated() else 'ended'})"
        lines = [header]
        returns = state.returns() if acting < 0 else None
        for seat, agent in enumerate(self.possible_agents):
            if seat == acting:
                status = "to decide"
            elif returns is not None:
                status = {1.0: "won", -1.0: "lost"}.get(float(returns[seat]), f"result {returns[seat]:+g}")
            elif state.is_eliminated(seat):
                status = "eliminated"
            else:
                status = "waiting"
            lines.append(f"  {agent:<12} team {self.ruleset.seat_teams[seat]}  {status}")
        picture = picture_of(self.ruleset, state)
        lines.append(picture if picture is not None else self._observation_dump(state))
        for event in state.events.since(self._step_events_start):
            lines.append("  " + event.describe(self.possible_agents))
        return "\n".join(lines)

    def _observation_dump(self, state: GameState) -> str:
        """The generic picture: each seat's own (ego-centric) observation in ``state``, one named field a line."""
        spec = self.ruleset.observation_spec
        lines = []
        for seat, agent in enumerate(self.possible_agents):
            lines.append(f"  {agent} sees:")
            for field_name, values in spec.unpack(state.observation(seat)).items():
                lines.append(f"    {field_name:<22} " + " ".join(f"{value:g}" for value in values))
        return "\n".join(lines)

    def close(self) -> None:
        """Nothing to release: rendering is text."""
