"""Write the balance report's headlines into README.md and docs/balance.md, with when and where they were measured.

The two docs show what `issoku balance-report` prints when it is done. Those lines are figures, so they come
from a run, not from a hand: after a default run,

    python scripts/refresh_headlines.py runs/balance/report/report.md --wall 39

replaces the block under the marker line in both files with the report's headlines and a stamp line (the
report's date, the wall time you give, this machine's CPUs, platform and load). `tests/test_docs.py` holds the
two blocks equal and stamped. `--machine TEXT` replaces the machine description (say "idle" or "shared").
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = (ROOT / "README.md", ROOT / "docs" / "balance.md")
MARK = "<!-- headlines: written by scripts/refresh_headlines.py from a report; do not edit by hand -->"
BLOCK = re.compile(re.escape(MARK) + r"\n(?P<stamp>[^\n]*)\n\n```text\n(?P<lines>.*?)\n```", re.S)
DEFAULT_REPORT = "runs/balance/report/report.md"
DEFAULT_HTML = "runs/balance/report/report.html"


def machine() -> str:
    """This machine in a few words: CPUs, OS and architecture, the load average over the last 15 minutes."""
    load = f", load average {os.getloadavg()[2]:.1f}" if hasattr(os, "getloadavg") else ""
    return f"{os.cpu_count()} CPUs, {platform.system()} {platform.machine()}{load}"


def stamp(report: Path, wall_s: float | None, where: str) -> str:
    """The line above the block: what ran, when (the report file's time, UTC), how long, on what."""
    when = dt.datetime.fromtimestamp(report.stat().st_mtime, dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    took = f", {wall_s:.0f} s wall" if wall_s is not None else ""
    return f"Measured: `issoku balance-report` on the shipped rules, a cold run ({when}{took}; {where})."


def block(headlines: list[str], stamp_line: str) -> str:
    """The marker, the stamp and the headlines as the command prints them."""
    lines = [f"  {line}" for line in headlines] + [f"report: {DEFAULT_REPORT}", f"html: {DEFAULT_HTML}"]
    return f"{MARK}\n{stamp_line}\n\n```text\n" + "\n".join(lines) + "\n```"


def refresh(text: str, new_block: str) -> str:
    """``text`` with its one marked block replaced by ``new_block``."""
    if len(BLOCK.findall(text)) != 1:
        raise ValueError("expected exactly one marked headlines block")
    return BLOCK.sub(lambda _: new_block, text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path, nargs="?", default=ROOT / DEFAULT_REPORT)
    parser.add_argument("--wall", type=float, default=None, help="the run's wall time in seconds")
    parser.add_argument("--machine", default=None, help="describe the machine (default: CPUs, OS, load average)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "src"))
    from issoku.evaluation.reports.report import read_headlines

    new_block = block(read_headlines(args.report), stamp(args.report, args.wall, args.machine or machine()))
    for doc in DOCS:
        doc.write_text(refresh(doc.read_text(encoding="utf-8"), new_block), encoding="utf-8")
        print(f"refreshed {doc.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
