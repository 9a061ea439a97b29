"""Processes: pool workers die with their parent (SIGKILL included); two reports on one store take turns,
and no game is played twice."""

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from issoku.evaluation.games.store import MatchStore

PARENT = textwrap.dedent("""
    import os, sys, time
    from issoku.common.workers import worker_pool

    def sleeper(folder):
        open(os.path.join(folder, str(os.getpid())), "w").close()
        time.sleep(120)

    pool = worker_pool(2, 2)
    for _ in range(2):
        pool.submit(sleeper, sys.argv[1])
    time.sleep(120)
""")


def kill_and_list_survivors(parent: subprocess.Popen, workers: list[int]) -> list[int]:
    """SIGKILL ``parent``, give its ``workers`` ten seconds to end, and return those still alive (killed
    then, so a failing test leaves no orphan behind)."""
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while any(map(alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    survivors = [pid for pid in workers if alive(pid)]
    for pid in survivors:
        os.kill(pid, signal.SIGKILL)
    return survivors


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie has exited; only its parent has not reaped it yet
        return stat.read().split(") ")[-1][0] != "Z"


def test_pool_workers_die_when_their_parent_is_killed(tmp_path):
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(tmp_path)])
    deadline = time.monotonic() + 60
    while len(list(tmp_path.iterdir())) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    workers = [int(path.name) for path in tmp_path.iterdir()]
    assert len(workers) == 2 and all(map(alive, workers))
    assert not kill_and_list_survivors(parent, workers), "orphaned workers outlived their parent"


def report(db: Path, out: Path) -> subprocess.Popen:
    command = [sys.executable, "-m", "issoku", "balance-report", "--env", "tempo_duel_v0", "-p", "random",
               "-p", "tempo_heuristic", "--games", "40", "-j", "0", "--bootstrap", "10", "--db", str(db),
               "--out", str(out)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_reports_on_one_fresh_store_take_turns_and_play_each_game_once(tmp_path):
    db = tmp_path / "store" / "m.sqlite"
    runs = [report(db, tmp_path / f"out{i}") for i in range(2)]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    counts = [tuple(map(int, re.search(r"(\d+) games played, (\d+) already stored, (\d+) in the study", out).groups()))
              for out, _ in outputs]
    assert sorted(counts) == [(0, 40, 40), (40, 0, 40)], counts
    with MatchStore(db) as store:
        assert store.count() == 40


def test_a_second_writer_says_it_waits_and_goes_on_when_the_first_closes(tmp_path):
    db = tmp_path / "m.sqlite"
    waiter = ("import sys; from issoku.evaluation.games.store import MatchStore\n"
              "with MatchStore(sys.argv[1], exclusive=True, on_wait=lambda m: print(m, flush=True)) as s:\n"
              "    print('opened', s.count(), flush=True)\n")
    with MatchStore(db, exclusive=True):
        second = subprocess.Popen([sys.executable, "-c", waiter, str(db)], stdout=subprocess.PIPE, text=True)
        assert "waiting for it to finish" in second.stdout.readline()
        time.sleep(0.5)
        assert second.poll() is None  # still waiting while the first holds the store
    assert second.stdout.readline().strip() == "opened 0" and second.wait(timeout=60) == 0


def children_of(pid: int) -> list[int]:
    """Live processes whose parent is ``pid`` (from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(") ", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def test_sigkill_of_a_balance_report_leaves_no_worker_behind(tmp_path):
    command = [sys.executable, "-m", "issoku", "balance-report", "--env", "breath_skirmish_v0", "-p", "random",
               "-p", "breath_heuristic", "--games", "4000", "-j", "2", "--batch-size", "4",
               "--db", str(tmp_path / "m.sqlite"), "--out", str(tmp_path / "out")]
    report = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
        workers = children_of(report.pid)
    assert len(workers) >= 2, "the report started no pool"
    time.sleep(1.0)  # workers past their start-up, playing
    assert not kill_and_list_survivors(report, workers), "balance-report's workers outlived it"


THREADS = textwrap.dedent("""
    import sys
    from issoku.common.workers import worker_pool

    def threads():
        import torch
        return torch.get_num_threads()

    if sys.argv[1] == "before":
        import torch  # imported in the parent: forked workers inherit it already initialized
    with worker_pool(1, 1) as pool:
        print(pool.submit(threads).result())
""")


def test_pool_workers_run_torch_on_one_thread_imported_before_or_after_the_fork():
    for when in ("before", "after"):
        out = subprocess.run([sys.executable, "-c", THREADS, when], capture_output=True, text=True, timeout=120,
                             env={**os.environ, "OMP_NUM_THREADS": "2"})
        assert out.returncode == 0, out.stderr
        assert out.stdout.split() == ["1"], (when, out.stdout)
