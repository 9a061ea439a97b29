"""The state-machine protocol every ruleset implements (OpenSpiel's Game/State split).

A :class:`Ruleset` is the immutable game: configuration, content data, the action table, the
observation schema. A :class:`GameState` is one fight in progress: whose decision it is and of what
kind, the legal actions, ``apply``, terminal / truncated, returns, the event log, ``clone``.

Seats are absolute integers ``0..num_seats-1``; each belongs to a team (side). Nothing here assumes
two seats or any particular system: the generic env adapter in ``issoku.envs`` speaks only this
protocol, so a ruleset that implements it plugs in unchanged.

Actions are flat integers ``0..len(action_names)-1``. Each ruleset keeps its own structured orders
(technique × hit location, reserve X, reply Y) and maps them with an :class:`~issoku.rules.kernel.codec.ActionCodec`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from issoku.rules.kernel.encoding import FieldEncoding
    from issoku.rules.kernel.events import EventLog


class IllegalActionError(ValueError):
    """An action outside ``legal_actions()`` was applied. Never silently repaired into a legal one."""

    def __init__(self, action: int, legal: Sequence[int], action_names: Sequence[str] | None = None,
                 decision_kind: str | None = None) -> None:
        self.action = action
        self.legal = tuple(legal)
        name = action_names[action] if action_names is not None and 0 <= action < len(action_names) else "?"
        legal_names = [action_names[a] for a in self.legal] if action_names is not None else list(self.legal)
        where = f" at a {decision_kind!r} decision" if decision_kind else ""
        super().__init__(f"illegal action {action} ({name}){where}; legal: {legal_names}")


@dataclass(frozen=True)
class ObservationSpec:
    """A flat float32 observation with named slices, so tests, docs and encoders share one schema.

    ``fields`` is an ordered tuple of ``(name, size, low, high)``; every value a ruleset writes into a
    field must lie in ``[low, high]``.
    """

    fields: tuple[tuple[str, int, float, float], ...]
    encodings: tuple["FieldEncoding", ...] | None = field(default=None, compare=False)
    """Per field, in order, what fills it from game values (:mod:`issoku.rules.kernel.encoding`), or None where a
    ruleset does not describe its encoding; a field's encoding must be exactly as wide as the field."""
    _offsets: dict[str, slice] = field(init=False, repr=False, compare=False)
    _size: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        offsets: dict[str, slice] = {}
        start = 0
        for name, size, low, high in self.fields:
            if name in offsets:
                raise ValueError(f"observation field {name!r} appears twice")
            if size <= 0 or low > high:
                raise ValueError(f"observation field {name!r}: size must be > 0 and low <= high")
            offsets[name] = slice(start, start + size)
            start += size
        if self.encodings is not None:
            if len(self.encodings) != len(self.fields):
                raise ValueError(f"{len(self.encodings)} field encodings for {len(self.fields)} observation fields")
            for (name, size, _, _), encoding in zip(self.fields, self.encodings):
                if encoding.width != size:
                    raise ValueError(f"observation field {name!r}: its encoding fills {encoding.width} floats, not {size}")
        object.__setattr__(self, "_offsets", offsets)
        object.__setattr__(self, "_size", start)  # zeros() runs once per observation: no re-summing there

    @property
    def size(self) -> int:
        """Length of the flat vector."""
        return self._size

    @property
    def names(self) -> tuple[str, ...]:
        """Field names in order."""
        return tuple(name for name, *_ in self.fields)

    def slice(self, name: str) -> slice:
        """Where field ``name`` lives in the flat vector."""
        return self._offsets[name]

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per-element low and high bounds (for a ``gymnasium.spaces.Box``)."""
        # One repeat per bound, not an array per field: every env instance asks, and tournaments make many.
        sizes = [size for _, size, _, _ in self.fields]
        low = np.repeat(np.array([lo for _, _, lo, _ in self.fields], dtype=np.float32), sizes)
        high = np.repeat(np.array([hi for _, _, _, hi in self.fields], dtype=np.float32), sizes)
        return low, high

    def zeros(self) -> np.ndarray:
        """An empty observation vector."""
        return np.zeros(self._size, dtype=np.float32)

    def unpack(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Split a flat vector into its named fields (for tests, debugging and docs)."""
        return {name: vector[self._offsets[name]] for name in self.names}


@runtime_checkable
class Ruleset(Protocol):
    """An immutable game definition: one configured fight type.

    Optional hook (not part of the structural check, so a ruleset may leave it out):
    ``render_text(state) -> str``, a text picture of ``state`` (the ladder, bars, whatever the system
    draws); a ``GameState.render_text() -> str`` method serves the same purpose (the ruleset's hook
    wins if both exist). The env adapter's ``render_mode="ansi"``/``"human"`` shows it above the last
    step's events, falling back to a generic dump of every seat's observation fields; the replay
    printer shows it after the last decision.

    Content hook (every shipped ruleset has it; :func:`action_content` gives the default to one that lacks it):
    ``action_content(name) -> tuple[str, ...]``, the content items an action of the table exercises, each
    ``"<category>:<item>"`` (``attack:yari.thrust`` and ``counter:yari.thrust`` both exercise
    ``technique:yari.thrust``; ``aim:attack_a:torso`` the hit location ``location:torso``). The balance report
    measures how often play used each item and lists those no agent used (``issoku.evaluation.reports.coverage``).
    """

    # Read-only members (properties here, plain attributes in a ruleset): a ruleset may narrow them (a duel's
    # ``seat_names`` is a pair), which a settable protocol attribute would forbid.
    @property
    def name(self) -> str:
        """Short id, e.g. ``"breath_duel"``."""
        ...

    @property
    def version(self) -> int:
        """Bumped whenever the meaning of actions, observations or rules changes."""
        ...

    @property
    def seat_names(self) -> tuple[str, ...]:
        """One agent name per seat, e.g. ``("player_0", "player_1")``."""
        ...

    @property
    def seat_teams(self) -> tuple[int, ...]:
        """The team (side) of each seat; seats of one team share rewards."""
        ...

    @property
    def action_names(self) -> tuple[str, ...]:
        """Stable names of the flat actions; the action space is ``Discrete(len(action_names))``."""
        ...

    @property
    def decision_kinds(self) -> tuple[str, ...]:
        """Every kind of decision a state can ask for (``"breath"``, ``"defend"``, ...)."""
        ...

    @property
    def observation_spec(self) -> ObservationSpec:
        """The named schema of :meth:`GameState.observation`."""
        ...

    @property
    def fingerprint(self) -> str:
        """Hash of the configuration and content data: checkpoints and match records compare it."""
        ...

    def new_initial_state(self, seed: int | None = None, *, record_events: bool = True) -> "GameState":
        """A fresh fight whose chance is drawn from ``numpy.random.default_rng(seed)``.

        A ruleset whose fights can be replayed on scripted dice (scenario files with ``dice``) also takes a
        keyword ``dice`` (a kernel ``Dice``) to draw from instead; the shipped rulesets all do."""
        ...


@runtime_checkable
class GameState(Protocol):
    """One fight in progress.

    Optional hooks (not part of the structural check):

    - ``action_cost(action) -> str | None``, what a legal action costs the seat deciding now as the rules price
      it (``"3 Energy"``, ``"2 AP"``), or None where they give no price; ``issoku play`` shows it beside each
      menu entry.
    - ``set_dice(dice)``: draw chance from ``dice`` (a kernel ``Dice``) from now on. Every shipped state has it:
      analysis enumerates chance through it, and search agents resample the future rolls through it, since a
      clone carries the seeded dice, whose future no player may know.
    - ``resample_hidden(seat, rng)``: redraw, in place, whatever ``seat`` cannot see (another seat's secret
      declaration) among what is consistent with what ``seat`` has seen, drawing from ``rng`` (a
      ``numpy.random.Generator``) the same amount whatever the state. A state without it hides nothing but its
      dice. Information-set search calls it on each sampled world, so it never plans on another seat's secret.
    - ``health_fractions() -> tuple[float, ...]``: each seat's share of what it can lose that it still has
      (1 untouched, 0 out of the fight), as its rules count it (Wounds, Health). Search agents score an unfinished
      playout with it.
    - ``describe_observation(seat) -> dict``: the game values ``observation(seat)`` is made of, in the terms of
      ``ruleset.observation_spec.encodings`` (:mod:`issoku.rules.kernel.encoding`); an export ships them with its
      golden vectors, so a port in another language can check its own encoder. Read from the state, not from the
      observation, so the two agree only if the encodings say truly what the encoder does.
    """

    @property
    def ruleset(self) -> Ruleset:
        """The rules of the fight (read-only here, so a state may name its own ruleset class)."""
        ...

    events: "EventLog"
    """The fight's event log (settable: a search's copies swap in a log that records nothing)."""

    def current_seat(self) -> int | None:
        """The seat whose decision it is, or None once the fight is over."""
        ...

    def decision_kind(self) -> str:
        """What the current seat is deciding (one of ``ruleset.decision_kinds``)."""
        ...

    def legal_actions(self) -> list[int]:
        """Legal flat actions for the current seat, ascending; never empty while the fight goes on."""
        ...

    def apply(self, action: int) -> None:
        """Play ``action`` for the current seat; raises :class:`IllegalActionError` if it is not legal."""
        ...

    def is_terminal(self) -> bool:
        """The fight ended by its rules (a side defeated)."""
        ...

    def is_truncated(self) -> bool:
        """The fight was cut off by a limit (the round limit), not decided."""
        ...

    def is_eliminated(self, seat: int) -> bool:
        """The seat's fighter is out of the fight (its agent leaves the env)."""
        ...

    def returns(self) -> tuple[float, ...]:
        """Per-seat outcome: +1 win, −1 loss, 0 draw or undecided."""
        ...

    def observation(self, seat: int) -> np.ndarray:
        """What ``seat`` may know, ego-centric, as a float32 vector of ``ruleset.observation_spec``."""
        ...

    def clone(self) -> "GameState":
        """An independent copy, dice included: applying the same actions gives the same future."""
        ...


def action_content(ruleset: Any, name: str) -> tuple[str, ...]:
    """The content items action ``name`` exercises: the ruleset's ``action_content`` hook, else the action itself
    (its category the part before the first ``:``)."""
    hook = getattr(ruleset, "action_content", None)
    return tuple(hook(name)) if hook is not None else (name,)
