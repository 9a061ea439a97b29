"""Docs that cannot go stale: every code block in README.md and docs/ is checked against the code.

- Every ``python`` block runs as it is written (in a fresh interpreter, from the repository root), unless the
  line before its fence is an ``<!-- illustration: why -->`` comment (a block that needs the reader's own code).
- Every ``toml`` block (a study, a scenario, a style) loads with its loader as written.
- Every ``issoku`` command in a ``bash`` block is parsed by the real CLI: the command exists, every option and
  argument is one it takes, every value has the right type, and every repository file it names exists. The cheap
  ones (``replay``, ``view``, ``--help``) also run, with their output sent to a temporary folder; the rest
  (training, reports, hunts: minutes to hours) are parsed only, because their budget is what they document.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from issoku.cli import app

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"(?P<before>[^\n]*)\n```(?P<lang>\w*)\n(?P<body>.*?)```", re.S)
REPO_FOLDERS = ("scenarios/", "tests/", "rules/", "training/", "evaluation/", "examples/", "envs/", "benchmarks/")
RUN_FULLY = {"replay", "view"}
CLI = typer.main.get_command(app)


def blocks(lang: str) -> list[tuple[str, str, bool]]:
    """(where, body, illustration) of every fenced block in that language."""
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            if match["lang"] == lang:
                line = text.count("\n", 0, match.start("body"))
                found.append((f"{path.relative_to(ROOT)}:{line}", match["body"],
                              match["before"].strip().startswith("<!-- illustration")))
    return found


def issoku_commands() -> list[tuple[str, list[str]]]:
    """(where, argv after ``issoku``) of every issoku command line in a bash block."""
    commands = []
    for where, body, _ in blocks("bash"):
        for line in body.splitlines():
            words = shlex.split(line, comments=True)
            for start, word in enumerate(words):
                if word.endswith("issoku") and (start == 0 or words[start - 1] == "&&"):
                    tail = words[start + 1:]
                    commands.append((f"{where}: {line.strip()}", tail[:tail.index("&&")] if "&&" in tail else tail))
    return commands


def test_the_docs_have_blocks_to_check():
    assert len(blocks("python")) >= 5 and len(issoku_commands()) >= 30


@pytest.mark.parametrize("where,body,illustration", blocks("python"), ids=[w for w, _, _ in blocks("python")])
def test_python_block_runs(where, body, illustration, tmp_path):
    if illustration:
        pytest.skip("marked as an illustration")
    run = subprocess.run([sys.executable, "-c", body], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"{where}\n{run.stderr[-3000:]}"


@pytest.mark.parametrize("where,argv", issoku_commands(), ids=[w for w, _ in issoku_commands()])
def test_issoku_command_parses(where, argv, tmp_path):
    if not argv or argv[0] in ("--help", "-h"):
        return
    command = CLI.commands.get(argv[0])  # type: ignore[attr-defined]
    assert command is not None, f"{where}: no command {argv[0]!r}"
    try:
        command.make_context(argv[0], list(argv[1:]))
    except typer.TyperException as error:  # an unknown option, a missing argument, a value of the wrong type
        pytest.fail(f"{where}: {error}")
    for word in argv[1:]:
        if word.startswith(REPO_FOLDERS) and "*" not in word:
            assert (ROOT / word).exists(), f"{where}: {word} is not in the repository"
    if argv[0] in RUN_FULLY and not any(word.startswith("runs/balance") for word in argv):
        run = subprocess.run([sys.executable, "-c", "from issoku.cli import app; app()", *_to_tmp(argv, tmp_path)], cwd=ROOT,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, f"{where}\n{run.stdout[-2000:]}{run.stderr[-2000:]}"


def _to_tmp(argv: list[str], tmp_path: Path) -> list[str]:
    """The command with its ``--out`` moved into the test's temporary folder."""
    moved = list(argv)
    for index, word in enumerate(moved[:-1]):
        if word == "--out":
            moved[index + 1] = str(tmp_path / Path(moved[index + 1]).name)
    return moved


def test_the_balance_headlines_in_the_docs_come_from_one_stamped_run():
    """README.md and docs/balance.md show the same headlines, written by scripts/refresh_headlines.py from a
    report with the run's date and machine; never edited by hand into two different runs."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("refresh_headlines", ROOT / "scripts" / "refresh_headlines.py")
    refresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(refresh)
    found = [refresh.BLOCK.findall(doc.read_text(encoding="utf-8")) for doc in refresh.DOCS]
    assert all(len(blocks) == 1 for blocks in found), "each doc holds one marked headlines block"
    (readme_stamp, readme_lines), (balance_stamp, balance_lines) = found[0][0], found[1][0]
    assert (readme_stamp, readme_lines) == (balance_stamp, balance_lines)
    assert re.search(r"\(\d{4}-\d\d-\d\d \d\d:\d\d UTC, \d+ s wall; .*CPU", readme_stamp), readme_stamp
    assert readme_lines.endswith(f"report: {refresh.DEFAULT_REPORT}\nhtml: {refresh.DEFAULT_HTML}")
    assert {line.split(":")[0].strip() for line in readme_lines.splitlines()[:-2]} == {"breath_duel_v0",
                                                                                      "tempo_duel_v0",
                                                                                      "encounter_duel_v0"}


def test_refresh_headlines_replaces_the_marked_block_from_a_report(tmp_path):
    import importlib.util

    spec = importlib.util.spec_from_file_location("refresh_headlines", ROOT / "scripts" / "refresh_headlines.py")
    refresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(refresh)
    report = tmp_path / "report.md"
    report.write_text("# issoku balance report\n\n## Headlines\n\n- toy_v0: strongest policy **a** (+1 Elo).\n\n## toy\n")
    new = refresh.block(["toy_v0: strongest policy a (+1 Elo)."], refresh.stamp(report, 3, "a test machine"))
    doc = f"before\n\n{refresh.MARK}\nMeasured: old.\n\n```text\n  old line\n```\n\nafter\n"
    text = refresh.refresh(doc, new)
    assert "Measured: old." not in text and "old line" not in text and text.startswith("before") and text.endswith("after\n")
    assert "  toy_v0: strongest policy a (+1 Elo).\nreport: runs/balance/report/report.md\nhtml: runs/balance/report/report.html\n```" in text
    assert re.search(r"UTC, 3 s wall; a test machine\)\.", text)
    with pytest.raises(ValueError):
        refresh.refresh("no block", new)


def toml_blocks() -> list[tuple[str, str]]:
    """(where, body) of every ``toml`` block that is not marked as an illustration."""
    return [(where, body) for where, body, illustration in blocks("toml") if not illustration]


@pytest.mark.parametrize("where, body", toml_blocks(), ids=[where for where, _ in toml_blocks()])
def test_a_toml_block_loads_as_the_file_it_shows(tmp_path, monkeypatch, where, body):
    """A study, a scenario or a style shown in the docs is one its loader accepts as written (a study's
    loadouts also build their env), so a reader who copies it gets a working file."""
    import tomllib

    from issoku.envs.registry import resolve_env

    monkeypatch.chdir(ROOT)
    data = tomllib.loads(body)
    path = tmp_path / "block.toml"
    path.write_text(body, encoding="utf-8")
    if "policies" in data:
        from issoku.evaluation.games.config import load_study

        study = load_study(path)
        for loadout in study.all_loadouts():
            resolve_env(study.env)(**loadout.kwargs).reset(seed=0)
    elif "actions" in data:
        from issoku.envs.scenario import load_scenario

        load_scenario(path)
    elif "bonus" in data:
        from issoku.training.shaping import load_style

        load_style(str(path))
    else:
        pytest.fail(f"{where}: a toml block of no known kind (mark it <!-- illustration: why -->)")


def test_the_render_picture_in_envs_md_is_what_the_env_draws():
    """docs/envs.md's ``render_mode="ansi"`` picture is the render of the reset it names (lines shortened with
    "..." match on what comes before it)."""
    from issoku.envs import breath_duel_v0

    text = (ROOT / "docs" / "envs.md").read_text(encoding="utf-8")
    shown = re.search(r"\(seed 4\),\nthen the events of the last step \(here: the setup\):\n\n```\n(.*?)```", text,
                      re.S)[1].splitlines()
    env = breath_duel_v0.env(kind="hatashiai", stage="high_ground", stage_side=1, render_mode="ansi")
    env.reset(seed=4)
    drawn = [line.rstrip() for line in str(env.render()).splitlines()]
    for line in shown:
        head = line[:-4] if line.endswith(" ...") else None
        assert (line in drawn) if head is None else any(d.startswith(head) for d in drawn), line


def _heading_anchors(path: Path) -> set[str]:
    """The anchors GitHub gives a Markdown file's headings (lower case, punctuation dropped, spaces as dashes;
    a repeated heading gets ``-1``, ``-2``...), code blocks left out."""
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    anchors: set[str] = set()
    for heading in re.findall(r"^#{1,6} (.*)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        suffix = 0
        while (slug if suffix == 0 else f"{slug}-{suffix}") in anchors:
            suffix += 1
        anchors.add(slug if suffix == 0 else f"{slug}-{suffix}")
    return anchors


def test_every_relative_link_in_the_docs_reaches_its_file_and_heading():
    """A guide whose links lead nowhere is no guide: every relative link of README.md, CHANGELOG.md and docs/
    names a file of the repository and, with ``#anchor``, one of that Markdown file's headings."""
    broken = []
    for path in [*DOCS, ROOT / "CHANGELOG.md"]:
        text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
        for link in re.findall(r"\]\(([^)\s]+)\)", text):
            if link.startswith(("http://", "https://", "mailto:")):
                continue
            target, _, anchor = link.partition("#")
            file = (path.parent / target).resolve() if target else path
            if not file.exists():
                broken.append(f"{path.relative_to(ROOT)}: {link} (no such file)")
            elif anchor and file.suffix == ".md" and anchor not in _heading_anchors(file):
                broken.append(f"{path.relative_to(ROOT)}: {link} (no such heading)")
    assert broken == []
