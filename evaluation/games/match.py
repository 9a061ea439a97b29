"""Play seeded games of any PettingZoo AEC env between policies, many side by side, and record them.

:func:`play_matches` is the one game loop of evaluation (tournaments and everything built on them,
``issoku evaluate``): games run in lockstep, one env each, and every round's decisions of learned
policies go through one forward pass per network (:mod:`issoku.agents.batched`); :func:`play_match` is
the same loop with one env and one game.

Works with every env following the PettingZoo classic convention: each observation is a dict with
``"observation"`` and ``"action_mask"``, and a policy maps those two arrays to an action
(:class:`issoku.agents.Policy`). Nothing here knows a ruleset: an env that exposes ``action_names``
(the issoku adapter does) gets its actions recorded by name, others by number; an env whose
``unwrapped.ruleset`` has a ``fingerprint`` gets it recorded, so matches under changed rules data
never mix with older ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from issoku.agents.batched import Batchable, decide
from issoku.agents.numpy_actor import one_blas_thread
from issoku.agents.policy import Policy
from issoku.agents.state_reading import watch_state
from issoku.evaluation.games.records import MatchRecord, winner_of

DEFAULT_MAX_DECISIONS = 100_000
LOCKSTEP_WIDTH = 32
"""The most games a worker plays side by side (the largest batch of a learned policy's forward pass). Wider
batches share more of a forward pass, but every live game keeps its env and state in the cache: measured on
the 2-core development machine (1 MiB of L2 per core), a checkpoint against itself cost about 15 % less CPU
per decision 24 to 32 games wide than 48 to 64 wide, and against a scripted agent no width stood out."""


def env_id(env: AECEnv) -> str:
    """The env's versioned id (``metadata["name"]``, e.g. ``breath_duel_v0``), else its class name."""
    return str(env.metadata.get("name") or type(env.unwrapped).__name__)


def rules_fingerprint(env: AECEnv) -> str:
    """The digest of the rules the env plays (its ruleset's ``fingerprint``), else the env class's full name."""
    ruleset = getattr(env.unwrapped, "ruleset", None)
    fingerprint = getattr(ruleset, "fingerprint", None) or getattr(env.unwrapped, "fingerprint", None)
    if fingerprint:
        return str(fingerprint)
    cls = type(env.unwrapped)
    return f"{cls.__module__}.{cls.__qualname__}"


def action_namer(env: AECEnv):
    """A function from action number to its recorded name (the env's ``action_names`` when it has them)."""
    names = getattr(env.unwrapped, "action_names", None)
    if names is None:
        return str
    names = tuple(names)
    return lambda action: names[action]


def kind_namer(env: AECEnv) -> Callable[[Any], str]:
    """A function from ``infos[agent]["decision_kind"]`` to its recorded name: issoku envs give an index
    into ``metadata["decision_kinds"]`` (−1: none), other envs may give a name or nothing ("")."""
    kinds = tuple(env.unwrapped.metadata.get("decision_kinds", ()))

    def name(kind: Any) -> str:
        if isinstance(kind, (int, np.integer)) and not isinstance(kind, bool):
            return kinds[kind] if 0 <= kind < len(kinds) else ""
        return str(kind or "")

    return name


@dataclass(frozen=True)
class MatchGame:
    """One game to play: a policy object per seat (in ``possible_agents`` order, owned by this game alone),
    its seed, and what its record carries."""

    seat_policies: tuple[Policy, ...]
    seed: int
    key: str
    loadout: str
    loadout_kwargs: Mapping[str, Any]
    policy_names: tuple[str, ...]
    seat_labels: tuple[str, ...] | None = None
    max_decisions: int = DEFAULT_MAX_DECISIONS


class _Running:
    """One game in progress on its env: steps the dead seats itself, stops at each decision."""

    def __init__(self, env: AECEnv, game: MatchGame) -> None:
        agents = list(env.possible_agents)
        if len(game.seat_policies) != len(agents):
            raise ValueError(f"{len(game.seat_policies)} policies for {len(agents)} seats")
        self.env, self.game, self.agents = env, game, agents
        self.seat_of = {agent: seat for seat, agent in enumerate(agents)}
        env.reset(seed=game.seed)
        for policy in game.seat_policies:
            watch_state(policy, lambda: env.unwrapped.game_state)
        self.returns = [0.0] * len(agents)
        # per seat, as played: action numbers and the infos' decision kinds, named once in :meth:`record`
        self.actions: list[list[int]] = [[] for _ in agents]
        self.kinds: list[list[Any]] = [[] for _ in agents]
        self.first_seat: int | None = None
        self.truncated = False
        self.decisions = 0
        self._turns = env.agent_iter()
        self._seat = 0
        self._mask: np.ndarray = np.zeros(0)
        self._kind: Any = None

    def pending(self) -> tuple[Policy, np.ndarray, np.ndarray] | None:
        """The next decision ``(policy, observation, mask)``, after stepping any dead seats; None once the game is over."""
        env = self.env
        for agent in self._turns:
            observation, _, terminated, was_truncated, info = env.last()
            if terminated or was_truncated:
                self.truncated = self.truncated or (was_truncated and not terminated)
                self._step(None)
                continue
            if self.decisions >= self.game.max_decisions:
                self.truncated = True
                return None
            self._seat = self.seat_of[agent]
            self._mask = observation["action_mask"]
            self._kind = info.get("decision_kind")
            return self.game.seat_policies[self._seat], observation["observation"], self._mask
        return None

    def act(self, action: int) -> None:
        """Play ``action`` for the seat :meth:`pending` named (ValueError when it is masked out)."""
        seat, mask = self._seat, self._mask
        if not 0 <= action < len(mask) or not mask[action]:
            # the env would end the fight and score it as a loss (its default): a lab must not
            # count a policy's bug as a result
            raise ValueError(f"policy {self.game.policy_names[seat]!r} chose a masked-out action {action} for "
                             f"{self.agents[seat]} (game seed {self.game.seed}, decision {self.decisions + 1})")
        self.actions[seat].append(action)
        self.kinds[seat].append(self._kind)
        self.first_seat = seat if self.first_seat is None else self.first_seat
        self.decisions += 1
        self._step(action)

    def _step(self, action: int | None) -> None:
        self.env.step(action)
        for other, reward in self.env.rewards.items():
            if reward:  # most steps pay nothing: adding their zeros changes no sum
                self.returns[self.seat_of[other]] += float(reward)

    def record(self) -> MatchRecord:
        """The finished game's record."""
        env, game = self.env, self.game
        name_of, kind_of = action_namer(env), kind_namer(env)
        return MatchRecord(
            key=game.key, env_id=env_id(env), rules_fingerprint=rules_fingerprint(env), loadout=game.loadout,
            loadout_kwargs=dict(game.loadout_kwargs), seat_labels=tuple(game.seat_labels or ("",) * len(self.agents)),
            seed=int(game.seed), agents=tuple(self.agents), policies=tuple(game.policy_names),
            returns=tuple(self.returns), winner=winner_of(self.returns), first_seat=self.first_seat,
            length=self.decisions, truncated=self.truncated,
            actions=tuple(tuple(map(name_of, actions)) for actions in self.actions),
            kinds=tuple(tuple(map(kind_of, kinds)) for kinds in self.kinds))


def lockstep_width(games: Sequence[MatchGame], most: int | None = None) -> int:
    """How many envs to play ``games`` on side by side: up to ``most`` (default :data:`LOCKSTEP_WIDTH`) when a policy evaluates a network
    (:class:`~issoku.agents.batched.Batchable`: its decisions then share forward passes), else one
    (building an env costs about as much as a tenth of a scripted game, and scripted decisions have
    nothing to share)."""
    batchable = any(isinstance(policy, Batchable) for game in games for policy in game.seat_policies)
    return max(1, min(len(games), LOCKSTEP_WIDTH if most is None else most)) if batchable else 1


def play_matches(envs: Sequence[AECEnv] | Mapping[str, Sequence[AECEnv]], games: Iterable[MatchGame],
                 started: Callable[[int, AECEnv], None] | None = None) -> list[MatchRecord]:
    """Play ``games`` in lockstep on ``envs`` (one game per env at a time) and return their records in order.

    ``envs`` by loadout name (a job of several loadouts): each game plays on an env of its ``loadout``, and the
    decisions of all of them are still batched together.

    Each round collects the pending decision of every running game and hands them to
    :func:`issoku.agents.batched.decide`, which evaluates each learned policy's network once for all of its
    decisions; a finished game's env takes the next game. Every game is played exactly as it would be
    alone (its own env reset with its seed, its own policy objects, the same actions: see
    :mod:`issoku.agents.batched`), so the records do not depend on ``len(envs)``. ``started(index, env)``
    is called right after game ``index`` is reset.

    Returns are the sum of every step's ``env.rewards``, so a seat that loses on the opponent's move
    is counted too. numpy's BLAS runs on one thread meanwhile (:func:`~issoku.agents.numpy_actor.one_blas_thread`).
    A policy that chooses a masked-out action is a bug, never a result: ValueError. A game
    still running after its ``max_decisions`` is stopped and recorded as truncated.
    """
    if not envs:
        raise ValueError("play_matches needs at least one env")
    pools: dict[str | None, Sequence[AECEnv]] = {}  # each game's lane: its loadout's envs (None: any env)
    if isinstance(envs, Mapping):
        for loadout, pool in envs.items():
            pools[loadout] = pool
    else:
        pools[None] = envs
    waiting: dict[str | None, list[tuple[int, MatchGame]]] = {lane: [] for lane in pools}
    for index, game in enumerate(games):
        lane = game.loadout if isinstance(envs, Mapping) else None
        if lane not in waiting:
            raise ValueError(f"no env for loadout {lane!r} (envs for: {', '.join(map(str, pools))})")
        waiting[lane].append((index, game))
    queues = {lane: iter(queued) for lane, queued in waiting.items()}
    total = sum(len(queued) for queued in waiting.values())
    records: dict[int, MatchRecord] = {}
    active: list[tuple[int, _Running, tuple[Policy, np.ndarray, np.ndarray]]] = []

    def start(env: AECEnv, queue: Iterator[tuple[int, MatchGame]]) -> None:
        """Start games of ``queue`` on ``env`` until one waits for a decision (or none is left)."""
        for index, game in queue:
            running = _Running(env, game)
            if started is not None:
                started(index, env)
            request = running.pending()
            if request is None:
                records[index] = running.record()
                continue
            active.append((index, running, request))
            return

    queue_of: dict[int, Iterator[tuple[int, MatchGame]]] = {}
    with one_blas_thread():  # a worker's batches stay on its one core (see issoku.agents.numpy_actor)
        for lane, pool in pools.items():
            for env in pool:
                queue_of[id(env)] = queues[lane]
                start(env, queues[lane])
        while active:
            actions = decide([request for _, _, request in active])
            current, active[:] = list(active), []
            for (index, running, _), action in zip(current, actions):
                running.act(action)
                request = running.pending()
                if request is not None:
                    active.append((index, running, request))
                else:
                    records[index] = running.record()
                    start(running.env, queue_of[id(running.env)])
    if len(records) != total:
        raise ValueError(f"{total - len(records)} games had no env of their loadout to play on")
    return [records[index] for index in range(total)]


def play_match(env: AECEnv, seat_policies: Sequence[Policy], seed: int, *, key: str, loadout: str,
               loadout_kwargs: Mapping[str, Any], policy_names: Sequence[str],
               seat_labels: Sequence[str] | None = None,
               max_decisions: int = DEFAULT_MAX_DECISIONS) -> MatchRecord:
    """Reset ``env`` with ``seed``, let ``seat_policies`` (in ``possible_agents`` order) play it out, record it:
    :func:`play_matches` with one env and one game."""
    game = MatchGame(tuple(seat_policies), seed, key, loadout, loadout_kwargs, tuple(policy_names),
                     tuple(seat_labels) if seat_labels else None, max_decisions)
    return play_matches([env], [game])[0]
