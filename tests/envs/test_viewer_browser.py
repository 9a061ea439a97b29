"""The replay viewer in a real browser: headless Chromium (Debian's package, driven by Selenium through
Debian's chromedriver; ``scripts/browser.sh`` installs both) opens pages from ``file://``, steps forward and
back, and checks what the page shows against the traced fight. No console errors; screenshots are saved."""

import os
import shutil
from pathlib import Path

import pytest

from issoku.envs.viewer import rule_statements, write_html
from issoku.evaluation.viewing import trace_fight, trace_scenario

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM, CHROMEDRIVER = shutil.which("chromium"), shutil.which("chromedriver")

if not (CHROMIUM and CHROMEDRIVER):
    if os.environ.get("CI"):
        pytest.fail("CI must run the browser tests: chromium and chromedriver are missing (scripts/browser.sh installs "
                    "them)", pytrace=False)
    pytest.skip("no chromium/chromedriver on this machine: run scripts/browser.sh (Debian, root) to install them",
                allow_module_level=True)

webdriver = pytest.importorskip("selenium.webdriver")
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


@pytest.fixture(scope="module")
def browser():
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


def errors(driver):
    return [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def shows(driver, fight, step):
    """What the page must show at ``step``: position, decision, chosen legal action, the step's rule IDs."""
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
    browser.save_screenshot(str(tmp_path / "viewer.png"))
    assert (tmp_path / "viewer.png").stat().st_size > 10_000
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
