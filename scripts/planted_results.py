"""Write what the variant balance report says about each planted exploit to docs/results/planted_battery.md.

`tests/data/variants/` plants one mistyped number per variant; docs/balance.md lists what the report should name
for each. Whether it does, at the default budget, is a measurement, so it lives here: each plant is one
``issoku balance-report --variant tests/data/variants/NAME --study <its env's loadouts study>`` into a fresh store
in a temporary folder, timed, and its row quotes the headlines that speak to the planted loadout (its move, its
sequential verdict, the smallest move the study can detect) verbatim. A plant the report does not name is a row
that says so. The games are seeded, so a rerun writes the same quotes; only the walls move with the machine's
load. Run from the repository root:

    python scripts/planted_results.py                 # 13 reports at one worker each, a few minutes
    python scripts/planted_results.py --workers 2 --out -
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from issoku.evaluation.reports.report import read_headlines
from issoku.rules.variant import Variant, data_diff
from results_file import write_results

ROOT = Path(__file__).resolve().parents[1]
OUT = Path("docs/results/planted_battery.md")
VARIANTS = ROOT / "tests" / "data" / "variants"
STUDIES = ROOT / "evaluation" / "studies"
BREATH = "2_breath_duel_v0_loadouts.toml"
TEMPO = "4_tempo_duel_v0_loadouts.toml"
ENCOUNTER = "6_encounter_duel_v0_loadouts.toml"
SEARCH = "8_breath_duel_v0_loadouts_search.toml"


@dataclass(frozen=True)
class Plant:
    """One planted variant, the loadouts study of its env, and the loadout whose score the edit should raise
    (``None``: no scripted agent plays the edited content, so the report should say it is untested by play)."""

    name: str
    study: str
    loadout: str | None
    note: str = ""
    """What docs/balance.md says the default budget needs to see this plant, if anything."""
    games: int | None = None
    """``-n``, games a pairing, where the study's default is too few to name the plant (``None``: the default)."""


PLANTS: tuple[Plant, ...] = (
    Plant("attack_ninjato_cut", BREATH, "ninjato"),
    Plant("defence_nodachi_parry", BREATH, "nodachi"),
    Plant("skill_ashigaru_spear", BREATH, "yari"),
    Plant("stance_spear_wall_cost", BREATH, "yari", "needs `-n 100`, or the sequential cell"),
    Plant("stance_spear_wall_guard", BREATH, "yari", "only search plays it: study 8 at `-n 8`"),
    Plant("stance_spear_wall_guard", SEARCH, "yari", "search plays it; `-n 8`", games=8),
    Plant("small_breath_uchigatana_cut", BREATH, "uchigatana"),
    Plant("tempo_spear_counter_ap", TEMPO, "spearman"),
    Plant("armour_tempo_medium", TEMPO, "spearman"),
    Plant("small_tempo_spearman_defence", TEMPO, "spearman"),
    Plant("small_tempo_spearman_melee", TEMPO, "spearman"),
    Plant("encounter_armour_heavy_bonus", ENCOUNTER, "ono"),
    Plant("learned_only_tanto_parry", BREATH, None),
    Plant("learned_only_tanto_thrust", BREATH, None),
)
STUDY_PREFIX = re.compile(r"^[\w.@=/-]+ \([\w.-]+\): ")
"""``breath_duel_v0 (2_breath_duel_v0_loadouts): ``, the env and study every variant headline opens with."""


def edit_text(plant: Plant) -> str:
    """The plant's edits against the shipped rules, as the report's *What changed* section writes them."""
    return "; ".join(str(change) for change in data_diff(Variant(None), Variant(VARIANTS / plant.name)))


def quoted(headlines: list[str], loadout: str | None) -> list[str]:
    """The headlines that speak to the plant, without their env-and-study prefix: the moves and sequential
    verdicts naming the planted loadout, an *untested by play* or *no figure moved* verdict, and the smallest
    move the study can detect."""
    keep = []
    for line in headlines:
        text = STUDY_PREFIX.sub("", line)
        names_it = loadout is not None and f"loadout {loadout}:" in text
        if names_it or text.startswith(("UNTESTED", "no figure moved", "smallest move")):
            keep.append(text)
    return keep


def verdict(headlines: list[str], loadout: str | None) -> str:
    """Whether the report names the planted loadout's move up, and by which test; for a plant no scripted agent
    plays, whether the report says so (untested by play) rather than calling the edit harmless."""
    texts = [STUDY_PREFIX.sub("", line) for line in headlines]
    untested = any(t.startswith("UNTESTED") for t in texts)
    if loadout is None:
        return "says untested by play" if untested else "**NOT flagged untested**"
    paired = any(" move, " in t and f"loadout {loadout}: score" in t and "(+" in t for t in texts)
    sequential = any(f"loadout {loadout}: score moved ≥ δ (up)" in t for t in texts)
    tests = [name for name, found in (("paired test", paired), ("sequential test", sequential)) if found]
    if tests:
        return "named by the " + " and the ".join(tests)
    return "**NOT named** (untested by play)" if untested else "**NOT named**"


def cell(text: str) -> str:
    """``text`` safe inside a Markdown table cell."""
    return text.replace("|", "\\|")


def row(plant: Plant, edit: str, headlines: list[str], wall_s: float) -> str:
    """One table row: the plant, its edit, what the report should name, the quoted headlines, named or not, wall."""
    should = f"loadout {plant.loadout} up" if plant.loadout else "nothing by scripted play: untested by play"
    should += f" ({plant.note})" if plant.note else ""
    quotes = "<br>".join(f"“{cell(line)}”" for line in quoted(headlines, plant.loadout)) or "(no headline quoted)"
    return (f"| `{plant.name}` ({plant.study.split('_', 1)[0]}) | `{cell(edit)}` | {should} | {quotes} | {verdict(headlines, plant.loadout)} | "
            f"{wall_s:.0f} s |")


def run_plant(plant: Plant, workers: int, folder: Path) -> tuple[list[str], float]:
    """Play ``plant``'s report into a fresh store under ``folder``; its headlines and the command's wall seconds."""
    out = folder / f"{plant.name}-{plant.study}"
    command = [sys.executable, "-m", "issoku", "balance-report", "--variant", str(VARIANTS / plant.name),
               "--study", str(STUDIES / plant.study), "-j", str(workers), "--db", str(out / "matches.sqlite"),
               "--out", str(out / "report")] + ([] if plant.games is None else ["-n", str(plant.games)])
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    wall_s = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{plant.name}: balance-report exited {done.returncode}: {done.stderr.strip()[-500:]}")
    return read_headlines(out / "report" / "report.md"), wall_s


def table(workers: int) -> str:
    """The Markdown table, one row per plant, each measured in its own fresh store."""
    load = f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "unknown"
    rows = [f"Each row: `issoku balance-report --variant tests/data/variants/NAME --study evaluation/studies/STUDY "
            f"-j {workers}` at the default budget (or the `-n` its row names) into a fresh store; {os.cpu_count()} "
            f"CPUs, load average {load} at the start; the study numbers: "
            + ", ".join(f"`{study}`" for study in (BREATH, TEMPO, ENCOUNTER, SEARCH)) +
            ". Quotes drop each headline's `env (study): ` prefix.", "",
            "| plant (study) | the edit | the report should name | what the report says (headlines, verbatim) | named? | "
            "wall |", "|---|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory(prefix="planted-") as folder:
        for plant in PLANTS:
            headlines, wall_s = run_plant(plant, workers, Path(folder))
            rows.append(row(plant, edit_text(plant), headlines, wall_s))
            print(f"{plant.name}: {wall_s:.0f} s", file=sys.stderr)
    return "\n".join(rows) + "\n"


def main(argv: list[str] | None = None) -> None:
    write_results(argv, __doc__, "planted_results.py", OUT, "workers", 1, 0,
                  "Worker processes per report (default 1; 0 plays in the script's child process).", table)


if __name__ == "__main__":
    main()
