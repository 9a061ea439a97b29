"""Duel an agent in the terminal (``issoku play``): your legal actions as a numbered menu.

The agent is a checkpoint ``.zip`` or a folder written by ``issoku export`` (played through onnxruntime,
as a game would), or, with ``--env``, a registered agent (a search agent such as ``mcts_large``). Its metadata names the env and its config; the env is rebuilt from them and refused if
its version or rules fingerprint no longer match the checkpoint. The agent plays its most probable
legal action. When the env renders text (``render_mode="ansi"``), the fight is shown before each of
your decisions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from issoku.agents.checkpoint import check_compatible, check_network_fits
from issoku.agents.exported import load_trained
from issoku.agents.state_reading import watch_state
from issoku.training.config import ConfigError, checkpoint_config
from issoku.training.make_env import action_names, env_identity, make_config_env

Menu = Sequence[tuple[int, str]]
"""The legal actions offered to the person: (action, name) pairs."""


def ask_in_terminal(menu: Menu, *, read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> int:
    """Show ``menu`` numbered from 1 and read choices until one is valid; return its action."""
    for number, (_, name) in enumerate(menu, start=1):
        write(f"  {number:>3}. {name}")
    while True:
        answer = read("your move> ").strip()
        if answer.isdigit() and 1 <= int(answer) <= len(menu):
            return menu[int(answer) - 1][0]
        write(f"enter a number from 1 to {len(menu)}")


LEGEND = ("legend: E[...] is Energy, W[...] Wounds left, G[...] guard; the ladder brackets the rung in play; "
          "(3 Energy) after a move is what it costs you now (docs/envs.md)")
"""Printed once, before a fight whose picture draws these bars (docs/envs.md, "What render_mode draws")."""


def priced(env: Any, action: int, name: str) -> str:
    """A menu entry: the action's name and, where the rules give one, its cost now (the state's optional
    ``action_cost`` hook, :class:`issoku.rules.kernel.protocol.GameState`)."""
    cost = getattr(getattr(env, "game_state", None), "action_cost", None)
    price = cost(int(action)) if cost is not None else None
    return f"{name}  ({price})" if price else name


def play(checkpoint: str | Path, *, seat: int | None, seed: int, choose: Callable[[Menu], int],
         write: Callable[[str], None] = print, rung: int | None = None, allow_imports: bool = False,
         env_id: str | None = None) -> float:
    """One fight between a person (``choose``) and an agent; returns the person's reward.

    The agent is the checkpoint's (or a ladder's rung), on the env its metadata names (an import path only with
    ``allow_imports``); or, with ``env_id``, ``checkpoint`` is a registered policy name (a search agent,
    ``mcts_large``; a scripted one) played on that env."""
    if env_id is not None:
        return _play_registered(str(checkpoint), env_id, seat=seat, seed=seed, choose=choose, write=write)
    agent, metadata = load_trained(checkpoint, deterministic=True, seed=seed, rung=rung)
    config = checkpoint_config(checkpoint, metadata, allow_imports=allow_imports)
    env = make_config_env(config)
    renders = "ansi" in env.metadata.get("render_modes", ())
    if renders:
        env = make_config_env(config, render_mode="ansi")
    check_compatible(metadata, env_identity(env, config.env_id), what=f"checkpoint {checkpoint}")
    if Path(checkpoint).is_file():  # a checkpoint zip
        check_network_fits(checkpoint, env)
    else:  # an export: its graph was checked against its manifest; the manifest's sizes against this env
        agent.check_fits(env)
    return fight(env, agent, seat=seat, seed=seed, choose=choose, write=write)


def _play_registered(name: str, env_id: str, *, seat: int | None, seed: int, choose: Callable[[Menu], int],
                     write: Callable[[str], None]) -> float:
    """:func:`play` against the registered policy ``name`` on ``env_id`` (built with text rendering where it has it)."""
    from issoku.agents.registry import make_policy
    from issoku.envs.registry import make_env

    env = make_env(env_id)
    if "ansi" in env.metadata.get("render_modes", ()):
        env = make_env(env_id, render_mode="ansi")
    agent = make_policy(name, seed=seed, ruleset=env.unwrapped.ruleset, allow_imports=False)
    return fight(env, agent, seat=seat, seed=seed, choose=choose, write=write)


def fight(env: Any, agent: Any, *, seat: int | None, seed: int, choose: Callable[[Menu], int],
          write: Callable[[str], None] = print) -> float:
    """The fight itself: the person's seat from ``seat`` (else drawn from ``seed``), the agent in every other; the
    agent is handed the game state if it searches it (:func:`issoku.agents.state_reading.watch_state`)."""
    renders = env.render_mode == "ansi"
    names = action_names(env)
    env.reset(seed=seed)
    watch_state(agent, lambda: env.unwrapped.game_state)
    seats = list(env.possible_agents)
    if seat is not None and not 0 <= seat < len(seats):
        raise ConfigError(f"seat must be in 0..{len(seats) - 1}, not {seat}")
    person = seats[seat if seat is not None else int(np.random.default_rng(seed).integers(len(seats)))]
    write(f"you play {person}; the agent plays {', '.join(s for s in seats if s != person)}")
    if renders and any(bar in str(env.render()) for bar in ("E[", "W[", "G[")):
        write(LEGEND)
    result = 0.0
    for current in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            if current == person:
                result = float(reward)
            env.step(None)
            continue
        mask = observation["action_mask"]
        if current == person:
            if renders:
                write(str(env.render()))
            action = choose([(a, priced(env.unwrapped, a, names[a])) for a in map(int, np.flatnonzero(mask))])
        else:
            action = agent(observation["observation"], mask)
            write(f"{current} (agent) plays {names[action]}")
        env.step(action)
    if renders:
        write(str(env.render()))
    outcome = "you won" if result > 0 else "you lost" if result < 0 else "a draw"
    write(f"fight over: {outcome} (reward {result:+g})")
    return result


def play_in_terminal(checkpoint: str, *, seat: int | None, seed: int, rung: int | None = None,
                     allow_imports: bool = False, env_id: str | None = None) -> None:
    """``issoku play``: :func:`play` with the numbered menu read from standard input."""
    import typer

    from issoku.common.inputs import one_line_errors

    try:
        with one_line_errors("play"):
            play(checkpoint, seat=seat, seed=seed, choose=ask_in_terminal, rung=rung, allow_imports=allow_imports,
                 env_id=env_id)
    except (EOFError, KeyboardInterrupt):
        typer.echo("\nfight abandoned")
