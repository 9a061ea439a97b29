"""What the built wheel ships: build it, install it (not editable) into a fresh virtual environment, and run every
env, both benchmark suites, the default studies, the duel commands and every shipped scenario from the installed
package alone, and check that the viewer quotes the rules reference shipped with it.

An editable install reads the data files from the checkout, so a wheel missing them passes every other test;
this one runs from a folder with no checkout in sight.
"""

import os
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

from issoku.envs.registry import env_ids

ROOT = Path(__file__).resolve().parents[1]

FROM_THE_WHEEL = textwrap.dedent("""
    import sys
    from pathlib import Path

    import numpy as np

    import issoku
    from issoku.envs.registry import env_ids, make_env
    from issoku.evaluation.strength.reference_suite import load_suite, shipped_suites
    from issoku.evaluation.games.studies import default_studies
    from issoku.evaluation.games.config import build_tournament, load_study
    from issoku.evaluation.games.policies import shipped_checkpoints
    from issoku.evaluation.games.store import MatchStore
    from issoku.evaluation.games.tournament import Tournament, run_tournament

    venv = Path(sys.prefix).resolve()
    assert Path(issoku.__file__).resolve().is_relative_to(venv), issoku.__file__
    for env_id in env_ids():
        env = make_env(env_id)
        env.reset(seed=1)
        rng = np.random.default_rng(1)
        for agent in env.agent_iter(max_iter=200):
            observation, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        print("env", env_id)
    assert sorted(shipped_suites()) == ["breath_duel_v0", "encounter_duel_v0", "tempo_duel_v0"], shipped_suites()
    with MatchStore(Path("m.sqlite")) as store:
        for name in shipped_suites():
            suite = load_suite(name)
            references = build_tournament(suite)
            run_tournament(Tournament(references.env_factory, references.policies[:2], references.loadouts[:1],
                                      games_per_pair=1), store, workers=0, progress=False)
            print("suite", name)
        assert len(default_studies()) == 8, default_studies()
        assert sorted(shipped_checkpoints()) == ["breath_duel_v0", "encounter_duel_v0", "tempo_duel_v0"]
        for path in default_studies():
            study = build_tournament(load_study(path))  # the first policy and the last (a shipped checkpoint)
            run_tournament(Tournament(study.env_factory, study.policies[:1] + study.policies[1:][-1:], study.loadouts[:2],
                                      games_per_pair=1,
                                      mirrors=study.mirrors), store, workers=0, progress=False)
            print("study", path.name)
    from typer.testing import CliRunner
    from issoku.cli import app
    for command in (["duel", "--seed", "1"], ["duel", "--seed", "1", "--ma", "--stage", "sandbar"],
                    ["tempo-duel", "--seed", "1"], ["encounter-duel", "--seed", "1"]):
        result = CliRunner().invoke(app, command)
        verdict = result.output.rstrip().splitlines()[-1] if result.output.strip() else ""
        assert result.exit_code == 0 and (verdict.endswith(" wins") or verdict == "a draw"), (command, result.output[-2000:])
        print("command", " ".join(command))
    shipped = Path(issoku.__file__).resolve().parent
    for path in sorted((shipped / "scenarios").rglob("*.toml")):  # what `issoku replay` and `issoku view` read
        name = path.relative_to(shipped / "scenarios").with_suffix("").as_posix()  # a user names it, from any folder
        result = CliRunner().invoke(app, ["replay", name])
        assert result.exit_code == 0, (path, result.output[-2000:])
        print("scenario", path.relative_to(shipped / "scenarios").as_posix())
    from issoku.envs.viewer import DOCS_RULES, rule_statements
    assert DOCS_RULES.resolve().is_relative_to(venv), DOCS_RULES  # the viewer quotes the shipped rules reference
    print("rule statements", len(rule_statements()))
""")


def _see_the_dependencies_of_this_venv(python: Path) -> None:
    """Where the tests run in a venv (scripts/setup.sh's .venv), let the fresh one import the dependencies
    installed there: ``--system-site-packages`` reaches only the base interpreter's, which on a stock
    machine lack them. A path in a ``.pth`` file is searched after the fresh venv's own site-packages and
    its own ``.pth`` files are not run, so the wheel's issoku wins over the checkout's editable one."""
    if sys.prefix == sys.base_prefix:
        return
    inner = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                           check=True, capture_output=True, text=True, timeout=120).stdout.strip()
    Path(inner, "outer_venv.pth").write_text(sysconfig.get_path("purelib") + "\n")


@pytest.mark.slow
def test_the_installed_wheel_runs_every_env_every_suite_and_the_default_studies(tmp_path):
    source = tmp_path / "source"  # the checkout's files only: a build/ folder left by an earlier build would
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True,  # hide a gap
                            capture_output=True, text=True).stdout.splitlines()
    for name in listed:
        if (ROOT / name).is_symlink() or (ROOT / name).is_file():  # src/issoku/<layer> are links: copied as links
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name, follow_symlinks=False)
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(source), "-w", str(wheels)],
                   check=True, capture_output=True, timeout=300)
    (wheel,) = wheels.glob("issoku-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    _see_the_dependencies_of_this_venv(python)
    subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)], check=True,
                   capture_output=True, timeout=300)
    wheel_only = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}  # a source tree on it
    run = subprocess.run([str(python), "-c", FROM_THE_WHEEL], cwd=tmp_path, capture_output=True, text=True, timeout=600,
                         env=wheel_only)  # would be imported instead of the wheel
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    assert {line.removeprefix("env ") for line in lines if line.startswith("env ")} == set(env_ids())
    assert sum(line.startswith("command ") for line in lines) == 4
    assert sum(line.startswith("suite ") for line in lines) == 3 and sum(line.startswith("study ") for line in lines) == 8
    assert {line.removeprefix("scenario ") for line in lines if line.startswith("scenario ")} == {
        path.relative_to(ROOT / "scenarios").as_posix() for path in (ROOT / "scenarios").rglob("*.toml")}
    (statements,) = [int(line.split()[-1]) for line in lines if line.startswith("rule statements ")]
    assert statements > 500, statements  # every rule ID of docs/rules/reference, read from the installed package
    help_text = subprocess.run([str(venv / "bin" / "issoku"), "--help"], cwd=tmp_path, capture_output=True, text=True,
                               timeout=120, env=wheel_only)
    assert help_text.returncode == 0 and "balance-report" in help_text.stdout
