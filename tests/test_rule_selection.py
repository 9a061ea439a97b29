"""``pytest --rule ID`` selects one rule's tests, and a failing rule test prints its rules (tests/conftest.py).

Each case runs pytest in a subprocess on a small test file in a temporary folder whose conftest takes the
project's hooks, so nothing here depends on which project tests exist.
"""

import subprocess
import sys
import textwrap

from tests.conftest import selects
from tests.rule_reference import REPO, load_reference

CONFTEST = """
from tests.conftest import (pytest_addoption, pytest_collection_modifyitems, pytest_configure,
                            pytest_runtest_makereport)
"""
TESTS = '''
import pytest

@pytest.mark.rule("BR-007")
def test_tie_break():
    assert {fail}

def test_br_008_by_its_name():
    pass

@pytest.mark.rule("EN-108", "EN-118")
def test_deflect():
    pass

def test_no_rule():
    pass
'''


def run(tmp_path, *args, fail=False):
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_sample.py").write_text(textwrap.dedent(TESTS.format(fail=not fail)))
    result = subprocess.run([sys.executable, "-m", "pytest", str(tmp_path), "-p", "no:cacheprovider", "-o", "addopts=",
                             "-p", "no:xdist", "--rootdir", str(tmp_path), *args],
                            cwd=REPO, capture_output=True, text=True, timeout=120,
                            env={"PYTHONPATH": str(REPO), "PATH": ""})
    return result.returncode, result.stdout + result.stderr


def test_rule_selects_the_tests_that_name_it(tmp_path):
    code, out = run(tmp_path, "--rule", "BR-007", "-v")
    assert code == 0 and "test_tie_break PASSED" in out and "3 deselected" in out, out
    code, out = run(tmp_path, "--rule", "EN-118,BR-008", "-v")
    assert "test_deflect PASSED" in out and "test_br_008_by_its_name PASSED" in out and "2 deselected" in out, out
    code, out = run(tmp_path, "--rule", "EN", "-q")
    assert "1 passed, 3 deselected" in out, out


def test_without_rule_every_test_runs(tmp_path):
    code, out = run(tmp_path, "-q")
    assert code == 0 and "4 passed" in out, out


def test_a_failing_rule_test_prints_its_rules_and_what_they_say(tmp_path):
    code, out = run(tmp_path, "--rule", "BR-007", fail=True)
    entry = load_reference()["BR-007"]
    assert code == 1 and "rules held" in out, out
    line = next(line for line in out.splitlines() if line.startswith("BR-007 ("))
    assert entry.source in line and entry.text.replace("**", "") in line


def test_a_system_prefix_selects_only_whole_ids():
    assert selects(["SP"], {"SP-036"}) and not selects(["SP"], {"BR-007"})
    assert selects(["EN-108"], {"EN-108", "EN-118"}) and not selects(["EN-10"], {"EN-108"})
