"""The ``issoku`` command: one entry point, each subcommand owned by the layer that does the work.

Subcommands import their layer lazily so that ``issoku --help`` stays fast and a layer's heavy
dependencies (torch) load only when used.
"""

from __future__ import annotations

import typer

app = typer.Typer(help="issoku: a reinforcement-learning lab for tabletop combat rules.", no_args_is_help=True,
                  add_completion=False)


@app.command()
def version() -> None:
    """Print the issoku version."""
    from issoku import __version__

    typer.echo(__version__)


def main() -> None:
    """Entry point for ``python -m issoku``."""
    app()
