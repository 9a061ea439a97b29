"""A PSRO hunt for dominant strategies (``issoku hunt``): best responses (learned or searched) against the field's Nash mixture.

Scripted agents have blind spots; a finding that rests on them speaks about the agents, not the
rules. Policy-Space Response Oracles (Lanctot et al. 2017; OpenSpiel's ``psro_v2``) close that gap
by letting a learner search for what beats the field. One iteration, read in :func:`hunt`:

1. play every pair of the population (starting from the scripted agents) into the match store
   (seeded, keyed, resumable: :func:`~issoku.evaluation.games.tournament.run_tournament`);
2. solve the meta-game: the Nash mixture of the payoff matrix (:func:`~issoku.evaluation.stats.metagame.nash_equilibrium`);
3. find a best response to that mixture: by default train a MaskablePPO learner against it (each
   episode's opponent drawn by the mixture's weights; warm-started from a checkpoint when one is given;
   loadouts randomized when ``matchups`` are given); with ``oracle="search"``, a tree search whose
   playouts meet the mixture (:mod:`~issoku.evaluation.strength.hunt_search`), with no training;
4. measure its gain over the mixture, ``Σ σ_j · E[return vs j]`` with a 95 % interval (normal, per
   opponent variances): an exploitability estimate, NashConv-style, in return units ``[-1, 1]``;
5. add it to the population; stop when the gain's upper bound falls under ``threshold`` (the field
   is no longer exploitable by this budget) or after ``iterations``.

Every iteration is written to ``hunt.json`` with the population, mixture, gain and how the new agent's
action kinds differ from the mixture's, so a designer reads what the best response found. A killed
hunt resumes: played games come from the store, finished best responses are reused (a best response
killed mid-training is retrained from its start, losing at most that iteration's training).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

import numpy as np

from issoku.evaluation.reports.html_report import code_span, escape_markdown
from issoku.evaluation.strength.hunt_edits import (Z95, EditedPlay, edited_play, finding_lines, gain_over_control, interval_text,
                                         untouched_edits)
from issoku.evaluation.strength.hunt_search import SEARCH_STEM, search_response_spec
from issoku.evaluation.stats.metagame import nash_equilibrium, payoff_matrix
from issoku.evaluation.stats.pairings import games_between
from issoku.evaluation.games.records import MatchRecord
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import Loadout, PolicySpec, Tournament, run_tournament
from issoku.common.backend import SHIPPED, Backend
from issoku.training.make_env import action_kind
from issoku.training.opponents import OpponentPool

@dataclass(frozen=True)
class HuntConfig:
    """Everything that defines a hunt; saved in ``hunt.json`` so a resume continues the same hunt."""

    env_id: str
    population: tuple[str, ...]
    """The starting field: policy entries as ``balance-report -p`` takes them (registry names, checkpoints)."""
    out: str
    iterations: int = 3
    steps: int = 20_000
    """Learner decisions per best response."""
    games_per_pair: int = 40
    """Games per pair in the payoff matrix, and per opponent when measuring a best response's gain."""
    threshold: float = 0.05
    """Stop once the gain's 95 % upper bound is below this (return units: 0.05 is a 2.5-point score edge)."""
    seed: int = 0
    warm_start: str = field(default="", metadata=SHIPPED)
    """A checkpoint every best response starts from (same rules fingerprint and interface), or none."""
    matchups: tuple[str, ...] = ()
    """Fighter names: randomized loadouts while training (see ``TrainConfig.matchups``)."""
    variant: str = ""
    """A rules variant folder (:mod:`issoku.rules.variant`) the hunt plays and trains on, or none (the shipped rules).
    A warm start from an agent of the shipped rules then explores what the variant's changes allow."""
    control: bool = False
    """With a variant: also train each iteration's best response on the shipped rules (same seed, steps, warm start and
    mixture) and play it against the mixture there, a measurement that never joins the population; a finding on the
    edited data is ATTRIBUTED to the edit only when the variant's best response plays it more than this control."""
    workers: int = 2
    """Tournament processes (the payoff matrix and the gain games)."""
    n_envs: int = 8
    """Training envs of a best response."""
    subprocess_envs: bool = False
    """One process per training env (``SubprocVecEnv``) instead of all in this one (``DummyVecEnv``). Measured
    slower on the shared 2-core machine (docs/benchmarks.md): an env step costs less than the pipe round trip."""
    n_steps: int = 256
    """PPO rollout length per env (8 envs x 256: the 2,048-step rollout of ``TrainConfig``'s defaults)."""
    batch_size: int = 256
    """PPO minibatch."""
    progress: bool = True
    oracle: str = "ppo"
    """How each best response is found: ``"ppo"`` (a MaskablePPO learner trained against the mixture) or
    ``"search"`` (MCTS whose playouts meet the mixture, :mod:`issoku.evaluation.strength.hunt_search`: no training)."""
    search_simulations: int = 200
    """With the search oracle: simulations a decision."""


@dataclass
class Iteration:
    """One PSRO iteration as reported."""

    population: list[str]
    mixture: dict[str, float]
    best_response: str
    gain: float
    gain_low: float
    gain_high: float
    gain_by_opponent: dict[str, float]
    kind_shares: dict[str, float]
    mixture_kind_shares: dict[str, float]
    wall_s: float = 0.0
    differences: list[str] = field(default_factory=list)
    """Action kinds whose share moved most, mixture -> best response."""
    action_differences: list[str] = field(default_factory=list)
    """Whole actions whose share moved most (what the best response found)."""
    edited: list[EditedPlay] = field(default_factory=list)
    """On a rules variant: each action resting on the edited data, the best response's share of it against the
    mixture's (:mod:`issoku.evaluation.strength.hunt_edits`)."""
    control: str = ""
    """With ``--control``: the control best response's checkpoint (trained on the base rules; not in the population)..."""
    control_gain: tuple[float, float, float] | None = None
    """...and its gain over the mixture on the base rules, ``(gain, low, high)``."""

    @classmethod
    def from_json(cls, entry: Mapping[str, Any]) -> Iteration:
        """An iteration as ``hunt.json`` stores it (a hunt saved before ``edited`` existed has none)."""
        control_gain = entry.get("control_gain")
        return cls(**{**entry, "edited": [EditedPlay(**play) for play in entry.get("edited", [])],
                      "control_gain": tuple(control_gain) if control_gain else None})


def gain_interval(scores_by_opponent: Mapping[str, Sequence[float]], mixture: Mapping[str, float]) -> tuple[float, float, float]:
    """``(gain, low, high)``: the mixture-weighted mean return (``2·score - 1``) with a 95 % normal interval.

    The variance adds each opponent's ``σ_j² · s_j² / n_j``, where ``s_j²`` is taken with one pseudo-win
    and one pseudo-loss added (as the opponent pool smooths win rates): a run of identical results (all
    draws, say) would otherwise claim a zero-width interval and stop the hunt on no evidence.
    """
    gain = variance = 0.0
    for name, weight in mixture.items():
        returns = 2.0 * np.asarray(scores_by_opponent[name], dtype=float) - 1.0
        if weight <= 0 or returns.size == 0:
            continue
        gain += weight * returns.mean()
        variance += weight ** 2 * np.append(returns, [1.0, -1.0]).var(ddof=1) / returns.size
    half = Z95 * math.sqrt(variance)
    return gain, gain - half, gain + half


def action_shares(records: Sequence[MatchRecord], policy: str,
                  label: Callable[[str], str] = action_kind) -> dict[str, float]:
    """Share of each action label in ``policy``'s decisions over ``records``: by default the action kind
    (``attack``, ``stance``, ``reserve``...); ``label=str`` gives whole actions (``stance:middle_guard``)."""
    counts: Counter[str] = Counter()
    for record in records:
        for seat, name in enumerate(record.policies):
            if name == policy:
                counts.update(label(action) for action in record.actions[seat])
    total = sum(counts.values())
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))  # ties by name, not by which game came first
    return {item: count / total for item, count in ranked} if total else {}


def differences(new: Mapping[str, float], old: Mapping[str, float], min_change: float = 0.05,
                limit: int = 8) -> list[str]:
    """Labels whose share moved by at least ``min_change``, largest change first (at most ``limit``), in words."""
    changes = {kind: new.get(kind, 0.0) - old.get(kind, 0.0) for kind in set(new) | set(old)}
    ranked = sorted((item for item in changes.items() if abs(item[1]) >= min_change), key=lambda item: (-abs(item[1]), item[0]))
    return [f"{kind}: {old.get(kind, 0.0):.0%} -> {new.get(kind, 0.0):.0%}" for kind, _ in ranked[:limit]]


def _population_specs(config: HuntConfig, learned: Sequence[str]) -> list[PolicySpec]:
    from issoku.evaluation.games.policies import resolve_policy

    return [resolve_policy(entry) for entry in (*config.population, *learned)]


def _best_response_specs(config: HuntConfig, done: Sequence[Iteration]) -> tuple[list[PolicySpec], dict[str, str | None]]:
    """The population's best responses so far, and every member's policy entry by name (a search best response's:
    None, as :mod:`~issoku.evaluation.strength.hunt_search` models a member that searches)."""
    entries: dict[str, str | None] = dict(map(_named_entry, config.population))
    specs = []
    for iteration in done:
        spec = _best_response_spec(config, iteration.best_response, iteration.mixture, entries)
        specs.append(spec)
        entries[spec.name] = None if config.oracle == "search" else iteration.best_response
    return specs, entries


def _best_response_spec(config: HuntConfig, best_response: str, mixture: Mapping[str, float],
                        entries: Mapping[str, str | None]) -> PolicySpec:
    """One best response as a population member: a search one rebuilt from its mixture, a PPO one from its checkpoint."""
    from issoku.evaluation.games.policies import resolve_policy

    if config.oracle == "search":
        return search_response_spec(best_response, mixture, entries, config.search_simulations)
    return resolve_policy(best_response)


def _tournament(config: HuntConfig, specs: Sequence[PolicySpec], pairings: Sequence[tuple[str, str]] | None,
                seed_offset: int) -> Tournament:
    from issoku.envs.registry import resolve_env

    return Tournament(env_factory=resolve_env(config.env_id), policies=tuple(specs),
                      loadouts=(Loadout("default", env_kwargs(config)),),
                      games_per_pair=config.games_per_pair, base_seed=config.seed + seed_offset,
                      pairings=tuple(pairings) if pairings is not None else None)


def env_kwargs(config: HuntConfig) -> dict[str, Any]:
    """The env keyword arguments of the hunt's games and training: its rules variant, if any."""
    return {"variant": config.variant} if config.variant else {}


def _records(store: MatchStore, config: HuntConfig, names: Sequence[str]) -> list[MatchRecord]:
    wanted = set(names)
    return [r for r in store.records(config.env_id) if r.num_seats == 2 and set(r.policies) <= wanted]


def hunt(config: HuntConfig, backend: Backend | None = None) -> list[Iteration]:
    """Run (or resume) the hunt; every finished iteration is also in ``<out>/hunt.json``.

    ``backend`` (a :class:`~issoku.common.backend.Backend`: Ray) plays the tournaments and trains the best
    responses on its workers; by default the tournaments use a local pool of ``config.workers`` processes and
    the best responses train in this process. Either way only this process writes the store and the files.
    """
    import time

    from stable_baselines3.common.logger import configure

    from issoku.training.checkpoints import atomic_write_json

    out = Path(config.out)
    done = saved_iterations(config)  # checked before the folder is made
    out.mkdir(parents=True, exist_ok=True)
    state_path = out / "hunt.json"
    writer = configure(str(out / "tb" / "hunt"), ["tensorboard"])
    learned, entries = _best_response_specs(config, done)
    changes = variant_changes(config)
    with MatchStore(out / "matches.sqlite") as store:
        for index in range(len(done), config.iterations):
            started = time.monotonic()
            specs = [*_population_specs(config, ()), *learned]
            names = [spec.name for spec in specs]
            workers = config.workers if backend is None else backend
            run_tournament(_tournament(config, specs, None, 0), store, workers=workers, progress=config.progress)
            records = _records(store, config, names)
            games = games_between(records, names=names)
            equilibrium = nash_equilibrium(payoff_matrix(*games.matrices()))
            mixture = {names[i]: float(equilibrium.mixture[i]) for i in equilibrium.support}
            if config.oracle == "search":
                checkpoint = f"{SEARCH_STEM}{index + 1}"
            else:
                checkpoint = train_best_response(config, mixture, index, out, backend)
            br_spec = _best_response_spec(config, checkpoint, mixture, entries)
            measured = _tournament(config, [*specs, br_spec], [(br_spec.name, name) for name in mixture],
                                   1_000_000 * (index + 1))
            run_tournament(measured, store, workers=workers, progress=config.progress)
            br_records = _records(store, config, [*names, br_spec.name])
            scores = scores_against(br_records, br_spec.name, mixture)
            gain, low, high = gain_interval(scores, mixture)
            control = (measure_control(config, mixture, specs, index, out, backend, workers)
                       if config.control else None)
            warm_name, warm_records = _warm_start_games(config, store, specs, mixture, index, workers)
            new_shares = action_shares(br_records, br_spec.name)
            old_shares = _mixture_shares(records, mixture, action_kind)
            iteration = Iteration(
                population=names, mixture=mixture, best_response=checkpoint, gain=gain, gain_low=low, gain_high=high,
                gain_by_opponent={name: float(2 * np.mean(s) - 1) for name, s in scores.items() if s},
                kind_shares=new_shares, mixture_kind_shares=old_shares, wall_s=time.monotonic() - started,
                differences=differences(new_shares, old_shares),
                action_differences=differences(action_shares(br_records, br_spec.name, str),
                                               _mixture_shares(records, mixture, str), min_change=0.02),
                edited=_edited_play(changes, records, br_records, br_spec.name, mixture, warm_name, warm_records,
                                    control),
                control=control.checkpoint if control else "", control_gain=control.gain if control else None)
            done.append(iteration)
            learned.append(br_spec)
            entries[br_spec.name] = None if config.oracle == "search" else checkpoint
            atomic_write_json(state_path, {"config": asdict(config), "changes": [str(c) for c in changes],
                                           "iterations": [asdict(i) for i in done]})
            for key, value in (("gain", gain), ("gain_low", low), ("gain_high", high),
                               *((("control_gain", control.gain[0]),) if control else ()),
                               ("population", len(names)), ("wall_s", iteration.wall_s)):
                writer.record(f"hunt/{key}", value)
            writer.dump(step=index)
            if high < config.threshold:
                break
    writer.close()
    return done


def scores_against(records: Sequence[MatchRecord], policy: str, mixture: Mapping[str, float]) -> dict[str, list[float]]:
    """``policy``'s score in each of its games against each mixture member (by member)."""
    scores: dict[str, list[float]] = {name: [] for name in mixture}
    for record in records:
        if policy in record.policies and record.policies[0] != record.policies[1]:
            seat = record.policies.index(policy)
            other = record.policies[1 - seat]
            if other in scores:
                scores[other].append(record.score(seat))
    return scores


CONTROL = "control"
"""The control best responses' file stem (``agents/control<N>.zip``): not ``br*``, so never in the population."""


@dataclass(frozen=True)
class Control:
    """One iteration's control: the best response trained and measured on the base rules (see ``HuntConfig.control``)."""

    checkpoint: str
    name: str
    records: list[MatchRecord]
    """Its games against the mixture on the base rules."""
    gain: tuple[float, float, float]


def measure_control(config: HuntConfig, mixture: Mapping[str, float], specs: Sequence[PolicySpec], index: int,
                    out: Path, backend: Backend | None, workers: Any) -> Control:
    """Train (or reuse) iteration ``index``'s control best response on the base rules with everything else the
    variant's best response had (seed, steps, warm start, mixture), and play it against the mixture there, with the
    measured best response's game seeds, into ``control.sqlite`` (the variant's store keeps only the variant's games)."""
    base = replace(config, variant="")
    checkpoint = train_best_response(base, mixture, index, out, backend, stem=CONTROL)
    spec = _population_specs(base, [checkpoint])[-1]
    with MatchStore(out / "control.sqlite") as store:
        run_tournament(_tournament(base, [*specs, spec], [(spec.name, name) for name in mixture], 1_000_000 * (index + 1)),
                       store, workers=workers, progress=config.progress)
        records = [record for record in _records(store, base, [*mixture, spec.name]) if spec.name in record.policies]
    gain = gain_interval(scores_against(records, spec.name, mixture), mixture)
    return Control(checkpoint, spec.name, records, (float(gain[0]), float(gain[1]), float(gain[2])))


def variant_changes(config: HuntConfig) -> list[Any]:
    """The hunt's variant against the shipped rules as ``balance-report --variant`` diffs it ([] without a variant)."""
    from issoku.rules.variant import Variant, data_diff

    return data_diff(Variant(None), Variant(config.variant)) if config.variant else []


WARM_START = "warm_start"
"""The warm-start agent's name in the games it plays against a mixture (when it is not in the field itself)."""


def _warm_start_games(config: HuntConfig, store: MatchStore, specs: Sequence[PolicySpec], mixture: Mapping[str, float],
                      index: int, workers: Any) -> tuple[str | None, list[MatchRecord]]:
    """On a variant, the warm-start agent's games against the mixture (its name and records): the baseline of what
    the best response made of the edit (its field member's games, or games played here when it is no member)."""
    from issoku.evaluation.games.policies import expand_shipped, resolve_policy

    if not (config.variant and config.warm_start):
        return None, []
    member = warm_start_member(config)
    if member is None:
        warm = resolve_policy(f"{WARM_START}={_named_entry(expand_shipped(config.warm_start))[1]}")
        run_tournament(_tournament(config, [*specs, warm], [(WARM_START, name) for name in mixture],
                                   1_000_000 * (index + 1) + 500_000), store, workers=workers, progress=config.progress)
    name = member or WARM_START
    return name, [record for record in store.records(config.env_id) if name in record.policies
                  and set(record.policies) <= {name, *mixture}]


def warm_start_member(config: HuntConfig) -> str | None:
    """The population member that is the warm-start checkpoint itself (the shipped agent in the default field), if any."""
    from issoku.evaluation.games.policies import expand_shipped

    if not config.warm_start:
        return None
    target = Path(_named_entry(expand_shipped(config.warm_start))[1]).resolve()
    for entry in config.population:
        name, path = _named_entry(expand_shipped(entry))
        if path.endswith(".zip") and Path(path).resolve() == target:
            return name
    return None


def _edited_play(changes: Sequence[Any], records: Sequence[MatchRecord], br_records: Sequence[MatchRecord],
                 best_response: str, mixture: Mapping[str, float], warm_name: str | None,
                 warm_records: Sequence[MatchRecord], control: Control | None = None) -> list[EditedPlay]:
    """Each action resting on the variant's edits, as the best response, the mixture, the warm start and the control
    played it; [] without edits."""
    from issoku.evaluation.reports.coverage import build_ruleset, content_map
    from issoku.evaluation.reports.rule_trail import RuleTrails

    ruleset = build_ruleset(br_records) if changes else None
    if ruleset is None:
        return []
    mine = [record for record in br_records if best_response in record.policies]
    return edited_play(changes, content_map(ruleset), best_response, mine, mixture, records, warm_name, warm_records,
                       RuleTrails(mine, ruleset).rules_of, control.name if control else None,
                       control.records if control else ())


def own_checkpoint(out: Path, stem: str, index: int, saved: object, where: str) -> str:
    """Iteration ``index``'s own checkpoint ``<out>/agents/<stem><index + 1>.zip`` (its path as a resume uses it).

    ``saved`` is what ``hunt.json`` says the checkpoint is: only data. A hunt folder may have been moved (its saved
    paths name the old folder), so only the file name and its ``agents`` folder are compared; anything else (an import
    path, another folder's checkpoint) is refused, and the name is never resolved or imported."""
    path = out / "agents" / f"{stem}{index + 1}.zip"
    if not isinstance(saved, str) or Path(saved).name != path.name or Path(saved).parent.name != "agents":
        raise ValueError(f"{where}: {saved!r} is not this hunt's own agents/{path.name} (a hunt resumes only the "
                         "checkpoints in its own folder)")
    if not path.is_file():
        raise ValueError(f"{where}: {path}: no such checkpoint (the hunt folder is incomplete)")
    return str(path)


def own_best_response(config: HuntConfig, index: int, saved: object, where: str) -> str:
    """Iteration ``index``'s best response as a resume uses it: a PPO hunt's own checkpoint (:func:`own_checkpoint`),
    a search hunt's name ``bs<index + 1>`` (rebuilt from its saved mixture; nothing else is accepted)."""
    if config.oracle != "search":
        return own_checkpoint(Path(config.out), "br", index, saved, where)
    name = f"{SEARCH_STEM}{index + 1}"
    if saved != name:
        raise ValueError(f"{where}: {saved!r} is not this search hunt's best response {name!r}")
    return name


def check_search_mixture(config: HuntConfig, index: int, mixture: object, where: str) -> None:
    """A search hunt rebuilds iteration ``index``'s best response from its saved mixture: every member must be one the
    hunt had by then (the starting field's names, the earlier ``bs<N>``) with a weight >= 0, the weights summing to
    more than 0; a name is looked up, never resolved or imported."""
    known = {_named_entry(entry)[0] for entry in config.population} | {f"{SEARCH_STEM}{n}" for n in range(1, index + 1)}
    if not isinstance(mixture, dict) or not mixture:
        raise ValueError(f"{where}: not a mixture (an object of member names and weights)")
    for name, weight in mixture.items():
        if name not in known:
            raise ValueError(f"{where}: {name!r} is no member of this hunt by iteration {index + 1} "
                             f"(members: {', '.join(sorted(known))})")
        if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not 0 <= weight <= 1:
            raise ValueError(f"{where}.{name}: the weight must be a number in [0, 1], not {weight!r}")
    if sum(mixture.values()) <= 0:
        raise ValueError(f"{where}: the weights sum to 0")


def saved_iterations(config: HuntConfig) -> list[Iteration]:
    """The finished iterations of the hunt in ``config.out`` (none if it has no ``hunt.json``), checked as data before
    any of it is used: the settings are this hunt's, every entry has the fields of an :class:`Iteration`, and each best
    response (and control) is the hunt's own ``agents/brN.zip`` (``controlN.zip``). A name in the file never becomes an
    import: the resumed population is the command line's plus those checkpoints."""
    from issoku.common.inputs import read_json

    state_path = Path(config.out) / "hunt.json"
    if not state_path.exists():
        return []
    saved = read_json(state_path)
    if not isinstance(saved, dict) or not isinstance(saved.get("config"), dict) \
            or not isinstance(saved.get("iterations"), list):
        raise ValueError(f"{state_path}: not a hunt's state (an object with 'config' and 'iterations')")
    check_same_hunt(saved["config"], config, state_path)
    names = {item.name for item in fields(Iteration)}
    required = {item.name for item in fields(Iteration) if item.default is MISSING and item.default_factory is MISSING}
    done = []
    for number, entry in enumerate(saved["iterations"]):
        where = f"{state_path}: iterations[{number}]"
        if not isinstance(entry, dict) or not required <= set(entry) or not set(entry) <= names:
            raise ValueError(f"{where}: not an iteration (fields {', '.join(sorted(required))})")
        try:
            iteration = Iteration.from_json(entry)
        except (TypeError, ValueError) as error:
            raise ValueError(f"{where}: {error}") from None
        iteration.best_response = own_best_response(config, number, entry["best_response"], f"{where}.best_response")
        if config.oracle == "search":
            check_search_mixture(config, number, iteration.mixture, f"{where}.mixture")
        if iteration.control:
            iteration.control = own_checkpoint(Path(config.out), CONTROL, number, entry["control"], f"{where}.control")
        done.append(iteration)
    return done


RESUMABLE_CHANGES = ("iterations", "threshold", "workers", "progress", "subprocess_envs")
"""Settings a resumed hunt may change: they decide how far it goes and how it runs, not what it finds."""


def check_same_hunt(saved: Mapping[str, Any], config: HuntConfig, where: Path) -> None:
    """Refuse to resume a hunt under other settings (its iterations would mix two hunts), every difference named."""
    current = json.loads(json.dumps(asdict(config)))
    defaults = {item.name: item.default for item in fields(HuntConfig)}  # a hunt saved before a setting existed
    changed = [f"{key}: the hunt in {where} was run with {saved.get(key, defaults[key])!r}, not {value!r}"
               for key, value in current.items()
               if key not in RESUMABLE_CHANGES and saved.get(key, defaults[key]) != value]
    if changed:
        raise ValueError("cannot resume with other settings (choose another --out):\n  " + "\n  ".join(changed))


def _mixture_shares(records: Sequence[MatchRecord], mixture: Mapping[str, float],
                    label: Callable[[str], str]) -> dict[str, float]:
    """The action shares of the mixture: each member's shares (over all its games) weighted by its weight."""
    total: dict[str, float] = {}
    for name, weight in mixture.items():
        for kind, share in action_shares(records, name, label).items():
            total[kind] = total.get(kind, 0.0) + weight * share
    return dict(sorted(total.items(), key=lambda item: -item[1]))


@dataclass(frozen=True)
class _MixtureEnv:
    """A picklable builder of one best-response training env: the learner's seat against the mixture."""

    train_config: Any
    members: tuple[tuple[str, str], ...]
    """``(name, policy entry)`` of each mixture member."""
    weights: tuple[float, ...]

    def __call__(self) -> Any:
        import torch

        from issoku.training.make_env import make_config_env, make_selfplay_env, ruleset_of

        torch.set_num_threads(1)
        probe = make_config_env(self.train_config)
        pool = MixturePool(mixture_opponents(self.members, self.train_config.seed, ruleset_of(probe)), self.weights)
        probe.close()
        return make_selfplay_env(self.train_config, pool)


def mixture_opponents(members: Sequence[tuple[str, str]], seed: int, ruleset: Any) -> list[Any]:
    """The pool members of a mixture: scripted agents by name, checkpoints through ``CheckpointPolicy``."""
    from issoku.agents.checkpoint import CheckpointPolicy
    from issoku.training.opponents import SNAPSHOT_KIND, Opponent, scripted_policy

    opponents = []
    for index, (name, entry) in enumerate(members):
        if entry.endswith(".zip"):
            opponents.append(Opponent(name, CheckpointPolicy(entry, seed=seed + index), SNAPSHOT_KIND, entry))
        else:
            opponents.append(Opponent(name, scripted_policy(entry, seed + index, ruleset), source=entry))
    return opponents


class MixturePool(OpponentPool):
    """An opponent pool sampled by fixed weights (the meta-game's Nash mixture) instead of PFSP."""

    def __init__(self, opponents: Sequence[Any], weights: Sequence[float]) -> None:
        super().__init__(opponents, max_snapshots=len(opponents))
        self._weights = np.asarray(weights, dtype=float) / float(np.sum(weights))

    def probabilities(self) -> dict[str, float]:
        """The mixture's weights, whatever the results."""
        return dict(zip(self.names, self._weights.tolist()))


def best_response_learner(config: HuntConfig, members: Sequence[tuple[str, str]], weights: Sequence[float],
                          seed: int, tensorboard_log: str | None = None) -> tuple[Any, dict[str, Any]]:
    """A MaskablePPO learner against the mixture of ``members`` (``(name, policy entry)``) with ``weights``, on
    ``config.workers`` envs (one process each when more than one), new or warm-started; and the env's identity."""
    import torch
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    from issoku.agents.checkpoint import clip_range_of, read_metadata
    from issoku.agents.checkpoint_zip import load_model
    from issoku.evaluation.games.checkpoint_fit import check_checkpoint_fits
    from issoku.training.config import TrainConfig
    from issoku.training.make_env import env_identity, make_config_env
    from issoku.training.selfplay import new_model

    torch.set_num_threads(1)
    train_config = TrainConfig(env_id=config.env_id, env_kwargs=env_kwargs(config), matchups=config.matchups,
                               seed=seed, n_envs=config.n_envs,
                               n_steps=config.n_steps, batch_size=config.batch_size, total_steps=config.steps)
    probe = make_config_env(train_config)
    identity = env_identity(probe, config.env_id)
    try:
        if config.warm_start:
            check_checkpoint_fits(config.warm_start, probe, config.env_id)
    finally:
        probe.close()
    builder = _MixtureEnv(train_config, tuple(members), tuple(weights))
    env = (SubprocVecEnv if config.subprocess_envs else DummyVecEnv)([builder] * config.n_envs)
    env.seed(seed)
    if config.warm_start:
        metadata = read_metadata(config.warm_start)
        model = load_model(config.warm_start, env=env, clip_range=clip_range_of(metadata),
                           tensorboard_log=tensorboard_log, seed=seed)
    else:
        model = new_model(train_config, env, tensorboard_log)
    return model, {**identity, "config": train_config.to_json()}


@dataclass(frozen=True)
class BestResponseJob:
    """One best response's training: everything a worker needs (the mixture's checkpoints travel with it)."""

    config: HuntConfig
    names: tuple[str, ...]
    """The mixture's members..."""
    entries: tuple[str, ...] = field(metadata=SHIPPED)
    """...and their policy entries (registry names, or checkpoint files)."""
    weights: tuple[float, ...] = ()
    seed: int = 0
    index: int = 0
    tensorboard_log: str | None = None
    """Where the learner's curves go: the hunt's ``tb`` folder in this process; none on a remote worker."""
    stem: str = "br"
    """The checkpoint's file stem: ``br`` for the population's best responses, ``control`` for a control."""


def best_response(job: BestResponseJob) -> tuple[bytes, int, dict[str, Any]]:
    """Train one best response; its checkpoint's bytes, learner steps and env identity (the caller writes them)."""
    import tempfile

    model, identity = best_response_learner(job.config, list(zip(job.names, job.entries)), job.weights, job.seed,
                                            job.tensorboard_log)
    try:
        model.learn(job.config.steps, tb_log_name=f"{job.stem}{job.index + 1}",
                    progress_bar=job.config.progress and job.tensorboard_log is not None,
                    reset_num_timesteps=not job.config.warm_start)
    finally:
        model.get_env().close()
    with tempfile.TemporaryDirectory() as scratch:
        model.save(Path(scratch) / "br.zip")
        return (Path(scratch) / "br.zip").read_bytes(), int(model.num_timesteps), identity


def _named_entry(entry: str) -> tuple[str, str]:
    """``(name, policy entry)`` as a tournament names the policy: ``name=`` if given, else a checkpoint's stem."""
    name, sep, target = entry.partition("=")
    if sep:
        return name, target
    return (Path(entry).stem if entry.endswith(".zip") else entry), entry


def train_best_response(config: HuntConfig, mixture: Mapping[str, float], index: int, out: Path,
                        backend: Backend | None = None, stem: str = "br") -> str:
    """Train (or reuse) iteration ``index``'s best response to ``mixture`` (``agents/<stem><index + 1>.zip``); the
    checkpoint's path.

    With a ``backend`` (Ray) the training is a job on a worker, its checkpoint's bytes written here;
    otherwise it trains in this process, as the local runs always have.
    """
    from issoku.agents.checkpoint import metadata_path
    from issoku.common.backend import InProcess
    from issoku.training.checkpoints import atomic_write_json

    path = out / "agents" / f"{stem}{index + 1}.zip"
    if path.exists() and metadata_path(path).exists():
        return str(path)
    entries = dict(map(_named_entry, (*config.population, *(str(p) for p in sorted((out / "agents").glob("br*.zip"))))))
    seed = config.seed + 7919 * (index + 1)
    job = BestResponseJob(config, tuple(mixture), tuple(entries.get(name, name) for name in mixture),
                          tuple(mixture.values()), seed, index, None if backend else str(out / "tb"), stem)
    [(_, (trained, steps, identity))] = list((backend or InProcess()).map_unordered(best_response, [job]))
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.stem + ".partial.zip")
    partial.write_bytes(trained)
    atomic_write_json(metadata_path(path), {
        **identity, "steps": steps, "seed": seed, "pool": [],
        "hunt": {"iteration": index + 1, "mixture": dict(mixture), "warm_start": config.warm_start,
                 "role": "control (base rules; not in the population)" if stem == CONTROL else "best response"}})
    partial.replace(path)
    return str(path)


def default_population(env_id: str) -> tuple[str, ...]:
    """The field of the env's shipped policy study, ``evaluation/studies/*_<env>_policies.toml`` (scripted agents and the shipped learned one)."""
    from issoku.evaluation.games.studies import STUDIES_DIR
    from issoku.evaluation.games.config import load_study

    from issoku.evaluation.games.policies import expand_shipped

    for path in sorted(STUDIES_DIR.glob(f"*_{env_id}_policies.toml")):
        return tuple(map(expand_shipped, load_study(path).policies))
    raise ValueError(f"hunt: no shipped policy study for {env_id!r}; name the starting field with --policy")


def check_checkpoints(config: HuntConfig) -> None:
    """Refuse a population or warm-start checkpoint built for other rules or another interface, every difference listed
    (:class:`~issoku.agents.checkpoint.CheckpointMismatchError`, as ``issoku evaluate`` does:
    :func:`~issoku.evaluation.games.checkpoint_fit.check_checkpoint_fits`)."""
    from issoku.evaluation.games.checkpoint_fit import check_checkpoint_fits, checkpoint_paths
    from issoku.training.config import TrainConfig
    from issoku.training.make_env import make_config_env

    paths = checkpoint_paths((*config.population, *([config.warm_start] if config.warm_start else [])))
    if not paths:
        return
    probe = make_config_env(TrainConfig(env_id=config.env_id, env_kwargs=env_kwargs(config), matchups=config.matchups))
    try:
        for path in paths:
            check_checkpoint_fits(path, probe, config.env_id)
    finally:
        probe.close()


def format_report(config: HuntConfig, iterations: Sequence[Iteration]) -> str:
    """The hunt as Markdown: one section per iteration (population, mixture, gain, what the best response does)."""
    lines = [f"# Hunt on {escape_markdown(config.env_id)}"
             + (f" (rules variant {escape_markdown(config.variant)})" if config.variant else ""), "",
             f"{len(iterations)} iteration(s); {_oracle_text(config)}, "
             f"{config.games_per_pair} games per pair, seed {config.seed}, stop when the gain's 95 % upper bound "
             f"< {config.threshold}.", ""]
    if config.variant:
        lines += _variant_sections(config, iterations)
    lines += ["| iteration | population | gain over the mixture (95 % CI) | wall s |", "|---|---|---|---|"]
    for number, it in enumerate(iterations, 1):
        lines.append(f"| {number} | {len(it.population)} | {it.gain:+.3f} ({it.gain_low:+.3f} to {it.gain_high:+.3f}) "
                     f"| {it.wall_s:.0f} |")
    for number, it in enumerate(iterations, 1):
        mixture = ", ".join(f"{escape_markdown(name)} {weight:.2f}" for name, weight in it.mixture.items())
        against = ", ".join(f"{escape_markdown(name)} {gain:+.2f}" for name, gain in it.gain_by_opponent.items())
        lines += ["", f"## Iteration {number}: {Path(it.best_response).stem}", "",
                  f"- population: {', '.join(map(escape_markdown, it.population))}", f"- Nash mixture: {mixture}",
                  f"- gain over the mixture: {it.gain:+.3f} (95 % CI {it.gain_low:+.3f} to {it.gain_high:+.3f}); "
                  f"by opponent: {against}",
                  *([f"- the control ({Path(it.control).stem}: the same training on the shipped rules, not in the "
                     f"population) gained {interval_text(it.control_gain)} there; the best response's gain over it: "
                     f"{interval_text(gain_over_control((it.gain, it.gain_low, it.gain_high), it.control_gain))}"]
                    if it.control_gain else []),
                  f"- what it does differently (action-kind shares, mixture -> best response): "
                  f"{'; '.join(map(escape_markdown, it.differences)) or 'no kind moved by 5 points or more'}",
                  f"- actions it plays more or less than the mixture: "
                  f"{'; '.join(map(escape_markdown, it.action_differences)) or 'none moved by 2 points or more'}"]
    return "\n".join(lines) + "\n"


def _oracle_text(config: HuntConfig) -> str:
    if config.oracle == "search":
        return (f"search best responses (MCTS, {config.search_simulations} simulations a decision, its playouts "
                "against the mixture)")
    return f"{config.steps} learner steps per best response"


def _variant_sections(config: HuntConfig, iterations: Sequence[Iteration]) -> list[str]:
    """*What changed* (the variant's diff, as ``balance-report --variant`` writes it) and what each best response made
    of the edited data: the actions resting on it, FOUND where one rose significantly over the mixture."""
    from issoku.evaluation.reports.coverage import content_map
    from issoku.evaluation.design.variants import what_changed
    from issoku.envs.registry import resolve_env

    changes = variant_changes(config)
    env = resolve_env(config.env_id)(**env_kwargs(config))
    try:
        unseen = untouched_edits(changes, content_map(env.unwrapped.ruleset))
    finally:
        env.close()
    lines = [*what_changed(changes), ""]
    if unseen:
        lines += [f"No action rests directly on {'; '.join(map(code_span, unseen))}: the per-action view below "
                  "cannot see it (the gain and the shares of the iterations still can).", ""]
    lines += ["## The edited data in play", "",
              "FOUND: the best response plays it significantly more than the mixture and than its warm start; USED: more "
              "than the mixture only. Either says what training moved toward on these rules, not that the edit caused "
              "it: a best response may move the same way on the base rules. "
              + ("The control (the same training on the shipped rules, not in the population) tells them apart: "
                 "ATTRIBUTED is a finding the variant's best response also plays significantly more than the control; "
                 "a finding the control plays as much is not attributable to the edit. The gain is compared the same "
                 "way (the two intervals combined as independent)."
                 if config.control else
                 "To attribute a move or a gain to the edit, run the same hunt with --control (docs/balance.md)."), ""]
    for it in iterations:
        found = finding_lines(Path(it.best_response).stem, it.edited, (it.gain, it.gain_low, it.gain_high),
                              it.control_gain)
        lines += [f"- {line}" for line in found] or [f"- {Path(it.best_response).stem}: no action rests on the edits."]
    return [*lines, ""]


def cli_hunt(config: HuntConfig, backend: str = "local", ray_address: str | None = None) -> None:
    """``issoku hunt``: check the inputs, run (or resume) the hunt (on ``backend``), write and print ``hunt.md``."""
    import typer

    from issoku.agents.checkpoint import CheckpointMismatchError
    from issoku.common.backend import make_backend
    from issoku.common.inputs import one_line
    from issoku.training.config import ConfigError

    try:
        check_checkpoints(config)
        chosen = make_backend(backend, config.workers, ray_address)
        iterations = hunt(config, None if chosen is None or isinstance(chosen, int) else chosen)
    except (CheckpointMismatchError, ConfigError, ValueError, KeyError) as error:
        typer.echo(f"hunt: {one_line(error)}", err=True)  # the one bad-input policy: one line, exit 2
        raise typer.Exit(code=2) from None
    report = format_report(config, iterations)
    (Path(config.out) / "hunt.md").write_text(report)
    typer.echo(report, nl=False)
