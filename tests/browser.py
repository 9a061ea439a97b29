"""A real browser for the tests of the HTML pages (the replay viewer, the balance report): headless Chromium
(Debian's package, driven by Selenium through Debian's chromedriver; ``scripts/browser.sh`` installs both),
pages opened from ``file://``.

A test module calls :func:`require_browser` at import (it skips the module where no Chromium is installed,
and fails it under ``CI``), then defines its ``browser`` fixture as ``yield from chromium()``.

The docs' screenshots come from these tests: ``ISSOKU_SCREENSHOTS=docs/images python -m pytest
tests/envs/test_viewer_browser.py tests/evaluation/test_report_browser.py`` rewrites ``viewer.png`` and
``report.png`` there (:func:`screenshot`).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")


def require_browser() -> None:
    """Skip the calling test module without Chromium and its driver (fail it under CI), or without selenium."""
    if not (CHROMIUM and CHROMEDRIVER):
        if os.environ.get("CI"):
            pytest.fail("CI must run the browser tests: chromium and chromedriver are missing (scripts/browser.sh "
                        "installs them)", pytrace=False)
        pytest.skip("no chromium/chromedriver on this machine: run scripts/browser.sh (Debian, root) to install them",
                    allow_module_level=True)
    pytest.importorskip("selenium.webdriver")


def chromium() -> Iterator:
    """A headless Chromium that logs the pages' console (a fixture's body: it quits when the fixture ends)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1400,1000"):
        options.add_argument(flag)
    options.binary_location = CHROMIUM
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def errors(driver) -> list[dict]:
    """The console's errors since the last call (the log is read once)."""
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def shows(driver, fight, step: int) -> None:
    """What a viewer page must show at ``step`` of ``fight``: position, decision, chosen legal action, the
    step's rule IDs, the picture."""
    from selenium.webdriver.common.by import By

    frame = fight.frames[step]
    assert driver.find_element(By.ID, "position").text == f"step {step} / {len(fight.frames) - 1}"
    rules = [link.text for link in driver.find_elements(By.CSS_SELECTOR, "#events a.rule")]
    assert rules == [event["rule"] for event in frame.events]
    if frame.agent:
        assert driver.find_element(By.ID, "decision").text == f"{frame.agent} decides ({frame.decision_kind}): {frame.action}"
        chosen = driver.find_elements(By.CSS_SELECTOR, "#legal li.chosen")
        assert [item.text for item in chosen] == [frame.action]
        assert len(driver.find_elements(By.CSS_SELECTOR, "#legal li")) == len(frame.legal)
    assert driver.find_element(By.ID, "picture").text.splitlines()[0] == frame.picture.splitlines()[0]


DOCS_WINDOW = (1150, 720)
"""The window of the docs' screenshots (smaller than the tests' own)."""


def screenshot(driver, folder, name: str, docs: bool = True) -> None:
    """Save a screenshot as ``folder/name``; with ``docs`` and ``ISSOKU_SCREENSHOTS=DIR`` also one for the docs in
    ``DIR``, in a smaller window, reduced to a 64-colour palette (a few tens of kB)."""
    path = folder / name
    driver.save_screenshot(str(path))
    assert path.stat().st_size > 10_000
    target_folder = os.environ.get("ISSOKU_SCREENSHOTS")
    if docs and target_folder:
        from PIL import Image

        size = driver.get_window_size()
        driver.set_window_size(*DOCS_WINDOW)
        target = os.path.join(target_folder, name)
        driver.save_screenshot(target)
        driver.set_window_size(size["width"], size["height"])
        Image.open(target).convert("RGB").quantize(64).save(target, optimize=True)
