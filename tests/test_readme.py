"""The README's examples stay true: the replay output it shows is what the command prints today."""

import re
from pathlib import Path

from typer.testing import CliRunner

from issoku.cli import app

README = (Path(__file__).parents[1] / "README.md").read_text()


def test_the_readme_replay_output_is_what_replay_prints():
    command, shown = re.search(r"```bash\n(issoku replay \S+)[^\n]*\n```\n\n```\n(.*?)```", README, re.S).groups()
    result = CliRunner().invoke(app, command.split()[1:])
    assert result.exit_code == 0, result.output
    printed = result.output.splitlines()
    for line in shown.splitlines():
        if line != "...":
            assert line in printed, f"README shows a line replay no longer prints: {line!r}"


def test_the_readme_setup_and_test_commands_exist():
    assert "bash scripts/setup.sh && " in README and "bash scripts/test.sh" in README
    root = Path(__file__).parents[1]
    assert (root / "scripts/setup.sh").is_file() and "scripts/test.sh" in (root / ".ci/run").read_text()
