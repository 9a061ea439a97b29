"""The ``issoku`` command: one entry point, each subcommand owned by the layer that does the work.

Subcommands import their layer lazily so that ``issoku --help`` stays fast and a layer's heavy
dependencies (torch) load only when used.
"""

from __future__ import annotations

from typing import Optional

import typer

app = typer.Typer(help="issoku: a reinforcement-learning lab for tabletop combat rules.", no_args_is_help=True,
                  add_completion=False)


@app.command()
def version() -> None:
    """Print the issoku version."""
    from issoku import __version__

    typer.echo(__version__)


@app.command()
def train(
    env: Optional[str] = typer.Option(None, help="Env id: an issoku env (breath_duel_v0), a PettingZoo classic id, or module:factory."),
    total_steps: Optional[int] = typer.Option(None, help="Learner steps in total (including those before a resume)."),
    seed: Optional[int] = typer.Option(None, help="Run seed (network, fights, seats, opponents)."),
    run_dir: Optional[str] = typer.Option(None, help="Run directory (default runs/<env>-seed<seed>)."),
    resume: bool = typer.Option(False, "--resume", help="Continue the run in --run-dir from its newest checkpoint."),
    set_: list[str] = typer.Option([], "--set", help="Any other config field, as key=value (repeatable); see issoku.training.config."),
) -> None:
    """Train an agent by MaskablePPO self-play against a PFSP opponent pool (checkpoints, TensorBoard, resume)."""
    from issoku.training.selfplay import cli_train

    given = {"env_id": env, "total_steps": total_steps, "seed": seed, "run_dir": run_dir}
    cli_train({key: value for key, value in given.items() if value is not None}, set_, resume=resume)


@app.command()
def play(
    checkpoint: str = typer.Argument(..., help="A checkpoint .zip written by issoku train."),
    seat: Optional[int] = typer.Option(None, help="Your seat index (default: drawn from the seed)."),
    seed: int = typer.Option(0, help="Fight seed."),
) -> None:
    """Duel a trained agent in the terminal, choosing your moves from a numbered menu of legal actions."""
    from issoku.training.play import play_in_terminal

    play_in_terminal(checkpoint, seat=seat, seed=seed)


def main() -> None:
    """Entry point for ``python -m issoku``."""
    app()
