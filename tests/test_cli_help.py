"""Every ``--help`` shows what an option left out does: typer prints a default that is a value; an option
whose default is None (decided later, or "none") says in its own help what happens."""

import typer.main
from typer.testing import CliRunner

from issoku.cli import app
from issoku.evaluation.strength.checkpoint_duels import DEFAULT_SEED
from issoku.training.config import TrainConfig

COMMAND = typer.main.get_command(app)
ALTERNATIVES = {("view", "env"), ("view", "db"), ("view", "game")}  # view names one fight: SCENARIO, --env or --db/--game


def test_every_option_without_a_value_default_says_what_happens():
    silent = [f"{name} --{param.name}" for name, command in COMMAND.commands.items() for param in command.params
              if param.param_type_name == "option" and not param.required and param.default in (None, (), [])
              and (name, param.name) not in ALTERNATIVES and "default" not in (param.help or "").lower()
              and "no default" not in (param.help or "").lower()]
    assert silent == []


def help_of(command: str, option: str) -> str:
    return next(param.help for param in COMMAND.commands[command].params if param.name == option)


def test_train_and_evaluate_help_show_the_actual_defaults():
    defaults = TrainConfig()
    assert f"default: {defaults.total_steps:,}" in help_of("train", "total_steps")
    assert f"default: {defaults.env_id}" in help_of("train", "env")
    assert f"default: {defaults.seed}" in help_of("train", "seed")
    assert f"default: {DEFAULT_SEED}" in help_of("evaluate", "seed")
    shown = CliRunner().invoke(app, ["evaluate", "--help"]).output
    assert "[default: 1000]" in shown  # a value default is printed by typer
