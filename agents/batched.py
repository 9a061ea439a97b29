"""Many games' decisions at once: one forward pass per network for every decision pending on it.

A learned policy (a checkpoint, an ONNX export) costs one network evaluation per decision, and at a
batch of one that evaluation is almost all fixed overhead. Lockstep play
(:func:`issoku.evaluation.games.match.play_matches`) runs many games side by side and hands every pending
decision of a round to :func:`decide`, which evaluates each network once for all the decisions waiting
on it. A policy takes part by offering :meth:`Batchable.begin`; every other policy (the scripted agents)
is simply called.

**Same actions as one at a time.** One-at-a-time play is the same path with a batch of one
(:func:`decide_one`, what ``policy(observation, mask)`` runs), and a batch must never pick otherwise.
A batched matrix product may differ from the batch-of-one product in the last bits of a float32 (the
BLAS kernel and its summation order depend on the batch size), which can move an action only where
two legal actions are (nearly) tied: the argmax of two probabilities within :data:`TIE_MARGIN` of each
other, or a sampling draw within :data:`TIE_MARGIN` of a boundary between two actions. :func:`choose`
detects exactly those cases and, for a row that came from a larger batch, evaluates that decision
alone (a batch of one) and chooses from those probabilities. The batched probabilities differ from the
batch-of-one ones by about 1e-7 (float32 rounding), far inside the margin, so a decision not flagged
picks what the batch of one picks; a flagged one is the batch of one. Ties recomputed this way are rare
(an untrained network's exact ties, a draw falling within 1e-4 of a boundary) and cost one extra
forward pass each.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import NamedTuple, Protocol, runtime_checkable

import numpy as np

from issoku.agents.policy import Policy

TIE_MARGIN = 1e-4
"""Relative closeness (of two probabilities, or of a draw to a boundary) under which a batched row is
re-evaluated alone; some thousand times the float32 differences between batch sizes."""

Forward = Callable[[np.ndarray, np.ndarray], np.ndarray]
"""``(observations (B, obs), masks (B, actions)) -> masked probabilities (B, actions)``, float64, rows summing to 1."""


class Decision(NamedTuple):
    """One decision a batchable policy has begun: what to evaluate, on which network, and how to finish."""

    group: Hashable
    """Decisions with equal groups share one forward pass (the network object itself, say)."""
    forward: Forward
    observation: np.ndarray
    mask: np.ndarray
    """The mask the network sees (a restricted policy's own mask, not the env's)."""
    finish: Callable[[np.ndarray, bool], int]
    """``finish(probabilities_row, alone) -> action``; ``alone``: the row chooses as a batch of one would (it came
    from one, or :func:`decide` checked that it is not near a tie), so ``finish`` needs no re-evaluation."""
    greedy: bool = False
    """``finish`` plays the row's most probable action (:func:`choose` with ``deterministic``): :func:`decide`
    then checks a whole batch's rows for near ties at once instead of one row at a time."""


@runtime_checkable
class Batchable(Protocol):
    """A policy whose decisions can join a batch: ``begin`` returns the :class:`Decision`, or None to be called."""

    def begin(self, observation: np.ndarray, action_mask: np.ndarray) -> Decision | None: ...


class SeededSampling:
    """A learned policy's sampling generator: ``seed`` fixes it, and it is made on the first sampled decision.

    Every game seeds its own copy of a policy, and seeding a generator costs about as much as a decision;
    a deterministic policy never draws, so it never pays. The generator made later is the one ``seed``
    would have made at once, since nothing draws from it before.
    """

    _seed: int | None = None
    _rng: np.random.Generator | None = None

    def seed(self, seed: int | None) -> None:
        """Restart the sampling generator (envs call this on reset so one seed fixes an episode)."""
        self._seed = seed
        self._rng = None

    def sampling_rng(self) -> np.random.Generator:
        """The generator sampled decisions draw from."""
        if self._rng is None:
            self._rng = np.random.default_rng(self._seed)
        return self._rng


def begin(policy: Policy, observation: np.ndarray, action_mask: np.ndarray) -> Decision | None:
    """``policy.begin(observation, action_mask)`` for a batchable policy, else None (call the policy)."""
    start = getattr(policy, "begin", None)
    return start(observation, action_mask) if start is not None else None


def decide_one(decision: Decision) -> int:
    """A begun decision evaluated alone (a batch of one): what one-at-a-time play runs."""
    row = decision.forward(decision.observation[None], decision.mask[None])[0]
    return decision.finish(row, True)


def decide(requests: Sequence[tuple[Policy, np.ndarray, np.ndarray]]) -> list[int]:
    """The action of every ``(policy, observation, action_mask)``, batched per network.

    Non-batchable policies are called in order; the batchable decisions of one group are stacked and
    evaluated in one forward pass, then finished row by row in order. Each policy object must belong to
    one game (its generator advances once per decision of that game), so the order of the requests
    never changes an action.
    """
    actions: list[int | None] = [None] * len(requests)
    groups: dict[Hashable, list[tuple[int, Decision]]] = {}
    for index, (policy, observation, mask) in enumerate(requests):
        decision = begin(policy, observation, mask)
        if decision is None:
            actions[index] = int(policy(observation, mask))
        else:
            groups.setdefault(decision.group, []).append((index, decision))
    for members in groups.values():
        if len(members) == 1:
            index, decision = members[0]
            actions[index] = decide_one(decision)
            continue
        first = members[0][1]
        masks = np.array([decision.mask for _, decision in members])  # np.stack, without its per-array wrappers
        rows = first.forward(np.array([decision.observation for _, decision in members]), masks)
        near = near_ties(rows, masks)
        for row, tied, (index, decision) in zip(rows, near, members):
            if not decision.greedy:
                actions[index] = decision.finish(row, False)
            elif tied:
                actions[index] = decide_one(decision)
            else:
                actions[index] = decision.finish(row, True)
    return [int(action) for action in actions]  # type: ignore[arg-type]


def near_ties(probabilities: np.ndarray, masks: np.ndarray) -> list[bool]:
    """Per row of a batch: whether its two most probable legal actions lie within :data:`TIE_MARGIN` of each
    other (the check :func:`choose` makes of one deterministic row, for every row at once).

    Masked-out actions have probability zero, so the top two of a whole row are its top two legal ones
    when it has two legal actions, and (1, 0), never near, when it has one. An all-zero mask is refused
    here, as :func:`choose` refuses it.
    """
    if not masks.any(axis=1).all():
        raise ValueError("a learned policy got an all-zero action mask")
    top_two = np.partition(probabilities, -2, axis=1)[:, -2:]
    return (top_two[:, 0] >= top_two[:, 1] * (1.0 - TIE_MARGIN)).tolist()


def masked_softmax(logits: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Row-wise softmax of ``logits`` (B, actions) in float64 with masked-out actions at probability zero."""
    logits = np.asarray(logits, dtype=np.float64)
    logits[np.asarray(masks) == 0] = -np.inf
    weights = np.exp(logits - logits.max(axis=1, keepdims=True))
    return weights / weights.sum(axis=1, keepdims=True)


def choose(probabilities: np.ndarray, mask: np.ndarray, *, deterministic: bool, rng: np.random.Generator | None,
           alone: bool, again: Callable[[], np.ndarray], temperature: float = 1.0) -> int:
    """The action a learned policy plays from its masked ``probabilities`` (one row).

    ``deterministic``: the most probable legal action (the first of exact equals; ``rng`` may be None);
    otherwise one draw of ``rng`` against the cumulative legal probabilities (raised to ``1 / temperature``). When the row came
    from a larger batch (not ``alone``) and the choice is within :data:`TIE_MARGIN` of going the other
    way, ``again()`` (the decision evaluated alone) gives the probabilities to choose from instead; the
    generator is drawn once either way.

    Runs once per decision, so it calls the arrays' methods (``nonzero``, ``partition``, ``argmax``,
    ``cumsum``...), which compute what numpy's functions of the same names do without their Python
    wrappers (a few microseconds per decision).
    """
    legal = np.asarray(mask).ravel().nonzero()[0]  # np.flatnonzero(mask)
    if legal.size == 0:
        raise ValueError("a learned policy got an all-zero action mask")
    if deterministic:
        row = np.asarray(probabilities, dtype=np.float64)
        if not alone and legal.size > 1:
            top_two = row[legal]  # a copy, partitioned in place: np.partition(row[legal], -2)
            top_two.partition(-2)
            if top_two[-2] >= top_two[-1] * (1.0 - TIE_MARGIN):
                row = np.asarray(again(), dtype=np.float64)
        return int(row.argmax())
    if rng is None:
        raise ValueError("a sampled decision needs a generator")
    draw = rng.random()
    pick, near = _sample(probabilities, legal, draw, temperature)
    if near and not alone:
        pick, _ = _sample(again(), legal, draw, temperature)
    return int(legal[pick])


def _sample(probabilities: np.ndarray, legal: np.ndarray, draw: float, temperature: float) -> tuple[int, bool]:
    """The index into ``legal`` that ``draw`` picks, and whether it lies within :data:`TIE_MARGIN` of a boundary."""
    weights = np.asarray(probabilities, dtype=np.float64)[legal]
    if temperature != 1.0:
        weights = weights ** (1.0 / temperature)
    if not weights.sum() > 0:  # every legal probability underflowed: uniform
        weights = np.ones_like(weights)
    cumulative = weights.cumsum()
    total = cumulative[-1]
    target = draw * total
    pick = min(int(cumulative.searchsorted(target, side="right")), legal.size - 1)
    inner = cumulative[:-1]
    near = bool(inner.size and abs(inner - target).min() <= TIE_MARGIN * total)
    return pick, near
