"""Names are text wherever they are drawn, and an env whose dependency is missing is one line."""

from __future__ import annotations

import importlib.util

import pytest
from typer.testing import CliRunner

from issoku.cli import app
from tests.security.helpers import issoku, one_line_refusal


def test_a_policy_name_with_dollars_is_drawn_as_text_not_mathtext(tmp_path):
    """``a$\\foo$`` made matplotlib parse mathtext and crash the plots after the games were played."""
    result = CliRunner().invoke(app, ["balance-report", "--env", "tempo_duel_v0", "-p", "a$\\foo$=random", "-p",
                                      "tempo_heuristic", "--games", "2", "--db", str(tmp_path / "m.sqlite"), "--out",
                                      str(tmp_path / "r"), "-j", "0", "--bootstrap", "20"])
    assert result.exit_code == 0, result.output
    assert "a$\\\\foo$" in (tmp_path / "r" / "report.md").read_text()  # the backslash escaped for Markdown


def _pygame_installed() -> bool:
    try:
        return importlib.util.find_spec("pygame") is not None
    except ValueError:  # the empty stand-in tests/evaluation/test_classic_envs.py puts in sys.modules
        return False


@pytest.mark.skipif(_pygame_installed(), reason="pygame is installed here")
def test_a_classic_env_whose_dependency_is_missing_is_one_line(tmp_path):
    """PettingZoo's connect_four_v3 imports pygame, which set-up does not install: it was a traceback."""
    result = issoku("head-to-head", "--env", "connect_four_v3", "-n", "2", cwd=tmp_path)
    one_line_refusal(result, "connect_four_v3 needs the package 'pygame'")
    assert not list(tmp_path.iterdir())
