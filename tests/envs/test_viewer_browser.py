"""The replay viewer in a real browser (``tests/browser.py``): headless Chromium opens pages from ``file://``,
steps forward and back, and checks what the page shows against the traced fight. No console errors;
screenshots are saved."""

import re
from pathlib import Path

import pytest

from issoku.envs.viewer import rule_statements, write_html
from issoku.evaluation.games.viewing import trace_fight, trace_scenario
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
    plain = re.sub(r"\[([^\]]+)\]\([^)]*\)", r"\1", stated.replace("**", "").replace("`", ""))  # Markdown rendered
    assert shown.split() == plain.split() and stated.endswith(".md)")
    screenshot(browser, tmp_path, "viewer.png")  # ISSOKU_SCREENSHOTS=docs/images: docs/envs.md's (tests/browser.py)
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


def test_an_arrow_key_on_the_focused_slider_steps_once(browser, tmp_path):
    fight, title = trace_scenario(ROOT / "scenarios" / "breath_duel" / "closing_the_ma.toml")
    browser.get(write_html(fight, tmp_path / "fight.html", title=title).as_uri())
    slider = browser.find_element(By.ID, "slider")
    slider.click()  # focus it (the click may move it: start from where it is)
    start = int(slider.get_attribute("value"))
    slider.send_keys(Keys.ARROW_RIGHT)
    shows(browser, fight, start + 1)
    slider.send_keys(Keys.ARROW_LEFT)
    slider.send_keys(Keys.ARROW_LEFT)
    shows(browser, fight, start - 1)
    slider.send_keys(Keys.HOME)
    shows(browser, fight, 0)
    assert errors(browser) == []


def test_autoplay_advances_to_the_end_and_pauses(browser, tmp_path):
    from selenium.webdriver.support.ui import Select, WebDriverWait

    fight, title = trace_fight("tempo_duel_v0", 1, ["tempo_heuristic"], {})
    browser.get(write_html(fight, tmp_path / "fight.html", title=title).as_uri())
    Select(browser.find_element(By.ID, "speed")).select_by_value("100")
    browser.find_element(By.ID, "play").click()
    step = lambda driver: int(driver.find_element(By.ID, "slider").get_attribute("value"))  # noqa: E731
    WebDriverWait(browser, 10).until(lambda driver: step(driver) >= 3)
    browser.find_element(By.ID, "play").click()  # pause
    paused = step(browser)
    browser.find_element(By.TAG_NAME, "body").send_keys(Keys.SPACE)  # Space plays on, from there
    WebDriverWait(browser, 60).until(lambda driver: step(driver) == len(fight.frames) - 1)
    assert paused >= 3 and "play" in browser.find_element(By.ID, "play").text  # stopped at the end
    shows(browser, fight, len(fight.frames) - 1)
    assert errors(browser) == []


def test_the_timeline_charts_each_fighters_guard_energy_and_wounds_and_a_click_jumps_there(browser, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains

    fight, title = trace_fight("breath_duel_v0", 2, ["ma_heuristic"], {})
    browser.get(write_html(fight, tmp_path / "fight.html", title=title).as_uri())
    lines = browser.find_elements(By.CSS_SELECTOR, "#chart polyline.series")
    assert sorted((line.get_attribute("data-agent"), line.get_attribute("data-field")) for line in lines) == sorted(
        (agent, field) for agent in fight.agents for field in ("guard", "energy", "wounds"))
    assert all(len(line.get_attribute("points").split()) == len(fight.frames) for line in lines)
    legend = browser.find_element(By.ID, "legend").text
    assert all(f"{agent} energy" in legend for agent in fight.agents)
    chart = browser.find_element(By.ID, "chart")
    ActionChains(browser).move_to_element(chart).click().perform()  # the chart's middle
    middle = int(browser.find_element(By.ID, "slider").get_attribute("value"))
    assert abs(middle - (len(fight.frames) - 1) / 2) <= 1
    marker = browser.find_element(By.ID, "marker")
    assert float(marker.get_attribute("x1")) == pytest.approx(middle * 1000 / (len(fight.frames) - 1))
    assert errors(browser) == []


def test_positions_and_decisions_are_labelled_after_and_at_their_step_and_lines_are_not_clipped(browser, tmp_path):
    fight, title = trace_fight("breath_duel_v0", 2, ["ma_heuristic"], {})
    page = write_html(fight, tmp_path / "fight.html", title=title)
    browser.get(page.as_uri())
    assert browser.find_element(By.ID, "picture-heading").text == "Position at the start (step 0)"
    body = browser.find_element(By.TAG_NAME, "body")
    for _ in range(3):
        body.send_keys(Keys.ARROW_RIGHT)
    assert browser.find_element(By.ID, "picture-heading").text == "Position after step 3"
    assert browser.find_element(By.ID, "decision-heading").text == "Decision at step 3 (taken in the position after step 2)"
    widest = max(range(len(fight.frames)), key=lambda step: max(map(len, fight.frames[step].picture.splitlines())))
    browser.set_window_size(560, 900)  # a narrow window: the picture's long lines wrap, nothing hides behind a scrollbar
    browser.get(f"{page.as_uri()}#step={widest}")
    overflows = "const p = document.getElementById('picture'); return p.scrollWidth > p.clientWidth"
    assert not browser.execute_script(overflows)
    browser.execute_script("document.getElementById('picture').style.whiteSpace = 'pre'")  # unwrapped, as it was
    assert browser.execute_script(overflows)  # so the window is narrow enough for the check to mean something
    browser.set_window_size(1400, 1000)


def test_rule_text_markdown_is_rendered_and_script_in_it_is_not_run(browser, tmp_path):
    fight, title = trace_scenario(ROOT / "scenarios" / "breath_duel" / "closing_the_ma.toml")
    rule = fight.frames[1].events[0]["rule"] if fight.frames[1].events else next(
        event["rule"] for frame in fight.frames for event in frame.events)
    hostile = ("**Bold claim.** the `take_hit` action, *once*, see [agents](../agents.md) "
               "<script>window.pwned=1</script><img src=x onerror=\"window.pwned=1\">")
    page = write_html(fight, tmp_path / "fight.html", title=title, rules={rule: hostile})
    step = next(frame.step for frame in fight.frames if any(event["rule"] == rule for event in frame.events))
    browser.get(page.as_uri() + f"#step={step}")
    next(link for link in browser.find_elements(By.CSS_SELECTOR, "#events a.rule") if link.text == rule).click()
    text = browser.find_element(By.ID, "rule-text")
    assert text.find_element(By.TAG_NAME, "strong").text == "Bold claim."
    assert text.find_element(By.TAG_NAME, "code").text == "take_hit"
    assert text.find_element(By.TAG_NAME, "em").text == "once"
    assert "**" not in text.text and "`" not in text.text and "see agents <script>" in text.text
    assert text.find_elements(By.CSS_SELECTOR, "script, img, a") == []
    assert browser.execute_script("return window.pwned === undefined")
    assert errors(browser) == []


def test_a_page_written_for_a_report_links_back_to_it(browser, tmp_path):
    fight, title = trace_fight("tempo_duel_v0", 1, ["random"], {})
    report = tmp_path / "report.html"
    report.write_text("<!DOCTYPE html><title>report</title><p id='here'>the report</p>")
    page = write_html(fight, tmp_path / "games" / "fight one.html", title=title, report=report)
    browser.get(page.as_uri())
    back = browser.find_element(By.ID, "back")
    assert back.get_attribute("href").endswith("/report.html")
    back.click()
    assert browser.find_element(By.ID, "here").text == "the report"
    browser.get(write_html(fight, tmp_path / "alone.html", title=title).as_uri())
    assert not browser.find_element(By.ID, "back").is_displayed()
