"""The replay viewer in a real browser (``tests/browser.py``): headless Chromium opens pages from ``file://``,
steps forward and back, and checks what the page shows against the traced fight. No console errors;
screenshots are saved."""

from pathlib import Path

import pytest

from issoku.envs.viewer import rule_statements, write_html
from issoku.evaluation.viewing import trace_fight, trace_scenario
from tests.browser import chromium, errors, require_browser, screenshot, shows

ROOT = Path(__file__).resolve().parents[2]
require_browser()
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


def test_the_viewer_steps_through_a_scenario_with_keys_buttons_and_slider(browser, tmp_path):
    fight, title = trace_scenario(ROOT / "scenarios" / "breath_duel" / "closing_the_ma.toml")
    page = write_html(fight, tmp_path / "fight.html", title=title)
    browser.get(page.as_uri())
    assert browser.find_element(By.ID, "title").text == title
    shows(browser, fight, 0)
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(12):
        body.send_keys(Keys.ARROW_RIGHT)
    shows(browser, fight, 12)
    body.send_keys(Keys.ARROW_LEFT)
    shows(browser, fight, 11)
    browser.find_element(By.ID, "next").click()
    shows(browser, fight, 12)
    body.send_keys(Keys.END)
    shows(browser, fight, len(fight.frames) - 1)
    browser.find_element(By.ID, "first").click()
    shows(browser, fight, 0)
    browser.execute_script("const s = document.getElementById('slider'); s.value = 30; s.dispatchEvent(new Event('input'))")
    shows(browser, fight, 30)
    link = browser.find_elements(By.CSS_SELECTOR, "#events a.rule")[0]
    link.click()
    assert browser.find_element(By.ID, "rule-id").text == link.text
    shown, stated = browser.find_element(By.ID, "rule-text").text, rule_statements()[link.text]  # docs/rules/reference/
    assert shown.split() == stated.split() and stated.endswith(".md)")
    screenshot(browser, tmp_path, "viewer.png")  # ISSOKU_SCREENSHOTS=docs/images: the README's (tests/browser.py)
    assert errors(browser) == []


@pytest.mark.parametrize("env_id,agents", [("breath_duel_v0", ["ma_heuristic"]), ("tempo_duel_v0", ["tempo_heuristic"]),
                                           ("breath_skirmish_v0", ["breath_heuristic"]),
                                           ("encounter_duel_v0", ["encounter_heuristic"])])
def test_every_env_opens_and_steps_to_its_end(browser, tmp_path, env_id, agents):
    fight, title = trace_fight(env_id, 2, agents, {})
    browser.get(write_html(fight, tmp_path / f"{env_id}.html", title=title).as_uri())
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.END)
    shows(browser, fight, len(fight.frames) - 1)
    assert errors(browser) == []


def test_a_crafted_title_does_not_run_as_script(browser, tmp_path):
    fight, _ = trace_fight("tempo_duel_v0", 1, ["random"], {})
    hostile = "<img src=x onerror=\"window.pwned=1\"></script><script>window.pwned=1</script>"
    browser.get(write_html(fight, tmp_path / "hostile.html", title=hostile).as_uri())
    assert browser.execute_script("return window.pwned === undefined")
    assert browser.find_element(By.ID, "title").text == hostile
