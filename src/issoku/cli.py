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


@app.command("balance-report")
def balance_report(
    study: Path = typer.Option(None, "--study", help="A study TOML file: env, policies, loadouts, budget (docs/balance.md)."),
    env: str = typer.Option(None, "--env", help="Env id or package.module:factory (default: the study's, else breath_duel_v0)."),
    policy: list[str] = typer.Option(None, "--policy", "-p", help="Policy name or name=package.module:factory; repeat. Default: every registered agent."),
    games: int = typer.Option(None, "--games", "-n", help="Games per pair and loadout (seats swap every other game)."),
    seed: int = typer.Option(None, "--seed", help="Base seed of the games."),
    mirrors: bool = typer.Option(None, "--mirrors/--no-mirrors", help="Also play each policy against itself."),
    db: Path = typer.Option(Path("runs/balance/matches.sqlite"), "--db", help="Match store (resumed if it exists)."),
    out: Path = typer.Option(Path("runs/balance/report"), "--out", help="Folder for report.md and the plots."),
    workers: int = typer.Option(None, "--workers", "-j", help="Worker processes (0: play in this process; default: one per CPU)."),
    batch_size: int = typer.Option(16, "--batch-size", help="Games per job."),
    bootstrap: int = typer.Option(1000, "--bootstrap", help="Bootstrap resamples for the rating intervals."),
    play: bool = typer.Option(True, "--play/--no-play", help="Play the study first, or only report on the store."),
    composition_kind: str = typer.Option(None, help="Decision kind whose runs form compositions (breath_duel_v0: breath)."),
    composition_end: list[str] = typer.Option(None, help="Action closing a composition (e.g. end_breath); repeat."),
) -> None:
    """Play a seeded round-robin tournament into the match store, then write the balance report."""
    from issoku.evaluation.commands import balance_report as run_balance_report
    from issoku.evaluation.commands import study_from_options
    from issoku.evaluation.metrics import CompositionSpec

    try:
        spec = study_from_options(study, env, policy, games, seed, mirrors) if play else None
        composition = CompositionSpec(composition_kind, tuple(composition_end or ())) if composition_kind else None
        run, report = run_balance_report(spec, db, out, workers=workers, batch_size=batch_size, bootstrap=bootstrap,
                                         composition=composition)
    except (ValueError, KeyError) as error:  # DataError, pydantic ValidationError, UnknownNameError
        typer.echo(f"balance-report: {error}", err=True)
        raise typer.Exit(2) from None
    if run is not None:
        typer.echo(f"{run.played} games played, {run.already_stored} already stored, {run.scheduled} in the study")
    typer.echo(f"report: {report}")


def main() -> None:
    """Entry point for ``python -m issoku``."""
    app()
