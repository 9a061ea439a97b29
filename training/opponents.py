"""The opponent pool: scripted agents and frozen snapshots of the learner, sampled by PFSP.

Prioritized fictitious self-play (AlphaStar's ``f_hard``): an opponent is drawn with weight
``max((1 - w) ** power, floor)`` where ``w`` is the learner's recent score against it (win 1, draw ½,
loss 0, over the last ``window`` games, Laplace-smoothed so an unplayed opponent counts as ½). The
learner therefore trains mostly against what it still loses to, while the floor keeps beaten
opponents in rotation so it does not forget how to beat them.

Snapshots are earlier checkpoints of the learner, loaded read-only as
:class:`~issoku.agents.checkpoint.CheckpointPolicy`; only the newest ``max_snapshots`` are kept.
The pool is shared by all envs of one process (``DummyVecEnv``) so every result updates it at once.
"""

from __future__ import annotations

import inspect
import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from issoku.agents.checkpoint import CheckpointPolicy, metadata_path
from issoku.agents.policy import Policy
from issoku.agents.registry import resolve_policy_factory
from issoku.training.config import ConfigError

SCRIPTED_KIND = "scripted"
SNAPSHOT_KIND = "snapshot"


@dataclass
class Opponent:
    """One pool member: a policy with a unique name and where it came from."""

    name: str
    policy: Policy
    kind: str = SCRIPTED_KIND
    source: str = ""
    """The scripted agent's registry name, or the snapshot's checkpoint path."""
    scores: deque = field(default_factory=deque)
    """The learner's recent scores against this opponent (1 win, 0.5 draw, 0 loss)."""
    seed: int | None = None
    """A snapshot's sampling seed (so a resumed run rebuilds it exactly)."""


def scripted_policy(name: str, seed: int, ruleset: Any = None) -> Policy:
    """A scripted agent: a name from ``issoku.agents.registry`` or an import path ``package.module:Factory``; or a
    checkpoint file (``*.zip``, with its ``.json``), a frozen learned agent playing greedily.

    A factory with a ``ruleset`` parameter (a scripted agent built for one ruleset, such as
    ``issoku.agents.breath_scripted:Heuristic``) gets the env's ``ruleset`` (the convention of
    ``issoku.evaluation`` tournaments too).
    """
    if name.endswith(".zip"):  # a checkpoint file: a fixed learned opponent, playing its most probable action
        return CheckpointPolicy(checkpoint_file(name), deterministic=True, seed=seed)
    try:
        factory = resolve_policy_factory(name)
    except (KeyError, ValueError) as error:
        raise ConfigError(f"unknown scripted agent {name!r}: {error}") from None
    if "ruleset" not in inspect.signature(factory).parameters:
        return factory(seed=seed)
    if ruleset is None:
        raise ConfigError(f"scripted agent {name!r} is built for an issoku ruleset, and this env has none")
    return factory(seed=seed, ruleset=ruleset)


def checkpoint_file(name: str) -> Path:
    """A pool member's checkpoint file: ``name`` from where the command runs, else inside the installed issoku
    package (the shipped configs name ``training/configs/opponents/*.zip``, which the wheel ships too)."""
    import issoku

    for path in (Path(name), Path(issoku.__file__).parent / name):
        if path.is_file():
            return path
    raise ConfigError(f"opponent checkpoint {name!r} not found")


def score_of(learner_return: float) -> float:
    """The learner's game score from its return: win 1, draw ½, loss 0."""
    return 1.0 if learner_return > 0 else 0.0 if learner_return < 0 else 0.5


class OpponentPool:
    """Named opponents with PFSP sampling weights from the learner's recent results."""

    def __init__(self, opponents: Iterable[Opponent] = (), *, window: int = 200, power: float = 2.0,
                 floor: float = 0.05, max_snapshots: int = 8) -> None:
        self.window = window
        self.power = power
        self.floor = floor
        self.max_snapshots = max_snapshots
        self._members: dict[str, Opponent] = {}
        for opponent in opponents:
            self.add(opponent)

    def add(self, opponent: Opponent) -> None:
        """Add a member; names are unique. Evicts the oldest snapshot beyond ``max_snapshots``."""
        if opponent.name in self._members:
            raise ValueError(f"opponent pool already has a member named {opponent.name!r}")
        opponent.scores = deque(opponent.scores, maxlen=self.window)
        self._members[opponent.name] = opponent
        snapshots = [m for m in self._members.values() if m.kind == SNAPSHOT_KIND]
        for old in snapshots[:max(0, len(snapshots) - self.max_snapshots)]:
            del self._members[old.name]

    def add_snapshot(self, checkpoint: str | Path, name: str, seed: int) -> None:
        """Add a frozen learner checkpoint (sampling its actions, so it plays varied games)."""
        policy = CheckpointPolicy(checkpoint, deterministic=False, seed=seed)
        self.add(Opponent(name, policy, SNAPSHOT_KIND, str(checkpoint), seed=seed))

    @property
    def names(self) -> list[str]:
        """Member names in insertion order."""
        return list(self._members)

    def __len__(self) -> int:
        return len(self._members)

    def win_rate(self, name: str) -> float:
        """The learner's Laplace-smoothed recent score against ``name`` (½ before any game)."""
        scores = self._members[name].scores
        return (sum(scores) + 1.0) / (len(scores) + 2.0)

    def probabilities(self) -> dict[str, float]:
        """The PFSP sampling probability of each member."""
        weights = np.array([max((1.0 - self.win_rate(name)) ** self.power, self.floor) for name in self._members])
        return dict(zip(self._members, (weights / weights.sum()).tolist()))

    def sample(self, rng: np.random.Generator) -> tuple[str, Policy]:
        """Draw an opponent by PFSP weight with the caller's generator."""
        if not self._members:
            raise RuntimeError("the opponent pool is empty")
        probabilities = self.probabilities()
        name = list(probabilities)[int(rng.choice(len(probabilities), p=list(probabilities.values())))]
        return name, self._members[name].policy

    def record(self, name: str, learner_return: float) -> None:
        """Record a finished game against ``name`` (ignored if the member was evicted meanwhile)."""
        member = self._members.get(name)
        if member is not None:
            member.scores.append(score_of(learner_return))

    def state(self) -> list[dict[str, Any]]:
        """A JSON-ready description of every member and its recent scores (saved in checkpoint metadata)."""
        return [{"name": m.name, "kind": m.kind, "source": m.source, "scores": list(m.scores),
                 **({"seed": m.seed} if m.seed is not None else {})}
                for m in self._members.values()]

    def restore(self, state: list[dict[str, Any]], load_snapshot: Callable[[str, str, int | None], None], *,
                checkpoint_dir: str | Path) -> None:
        """Rebuild snapshots (via ``load_snapshot(path, name, seed)``) and scores from :meth:`state`.

        ``state`` comes from a checkpoint's JSON, a file that may have been sent or edited: a snapshot
        is loaded only from ``checkpoint_dir`` (the resumed checkpoint's folder) under a checkpoint file
        name (``step_<steps>.zip``), whatever folder its ``source`` names (so a moved run still resumes);
        any other source is refused, a missing file skipped (the run's folder was pruned).
        """
        for entry in state:
            if entry["kind"] == SNAPSHOT_KIND and entry["name"] not in self._members:
                path = snapshot_file(entry["source"], checkpoint_dir)
                if path.is_file() and metadata_path(path).is_file():
                    load_snapshot(str(path), entry["name"], entry.get("seed"))
            if entry["name"] in self._members:
                self._members[entry["name"]].scores.extend(entry["scores"])


def snapshot_file(source: str, checkpoint_dir: str | Path) -> Path:
    """Where a pool entry's snapshot lives: its file name in ``checkpoint_dir``, if a checkpoint's name."""
    from issoku.agents.checkpoint_zip import CheckpointError

    name = Path(str(source)).name
    if not re.fullmatch(r"step_\d{12}\.zip", name):
        raise CheckpointError(f"pool entry source {source!r} is not a checkpoint of this run (step_<12 digits>.zip)")
    return Path(checkpoint_dir) / name
