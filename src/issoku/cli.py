"""The ``issoku`` command: one entry point, each subcommand owned by the layer that does the work.

Subcommands import their layer lazily so that ``issoku --help`` stays fast and a layer's heavy
dependencies (torch) load only when used.
"""

from __future__ import annotations

from pathlib import Path

import typer

app = typer.Typer(help="issoku: a reinforcement-learning lab for tabletop combat rules.", no_args_is_help=True,
                  add_completion=False)


@app.command()
def version() -> None:
    """Print the issoku version."""
    from issoku import __version__

    typer.echo(__version__)


@app.command()
def replay(
    scenario: Path = typer.Argument(..., help="A scenario TOML file (format: docs/envs.md)."),
    json_lines: bool = typer.Option(False, "--json", help="Print canonical JSON lines instead of text."),
) -> None:
    """Play a scenario and print its event log, rule by rule."""
    from issoku.agents.registry import make_policy
    from issoku.envs.replay import format_jsonl, format_text
    from issoku.envs.scenario import load_scenario, play

    from issoku.envs.registry import UnknownNameError
    from issoku.envs.scenario import ScenarioError
    from issoku.rules.kernel.content import DataError

    try:
        spec = load_scenario(scenario)
        policy = None
        if spec.policy is not None:
            policy = make_policy(spec.policy, seed=spec.seed if spec.policy_seed is None else spec.policy_seed)
        played = play(spec, policy)
    except (DataError, ScenarioError, UnknownNameError) as error:
        typer.echo(f"{scenario}: {error}", err=True)
        raise typer.Exit(2) from None
    typer.echo(format_jsonl(played) if json_lines else format_text(played), nl=False)


def main() -> None:
    """Entry point for ``python -m issoku``."""
    app()
