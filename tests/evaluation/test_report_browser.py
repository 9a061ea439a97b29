"""The HTML balance report in a real browser (``tests/browser.py``): a small-budget ``balance-report`` run (the
planted-exploit loadouts with their combo table, the tempo policies with restricted play) writes ``report.html``;
headless Chromium opens it from ``file://``, sorts a table, follows a headline's link to a replay page, steps
through it, and checks both pages against the report's data and the stored games. No console errors.

``ISSOKU_SCREENSHOTS=docs/images`` also writes docs/balance.md's screenshot of the report there (``report.png``,
``tests/browser.py``).
"""

import os
import re
from pathlib import Path

import pytest

from issoku.evaluation.reports.commands import balance_report
from issoku.evaluation.games.config import ComboTableConfig, RestrictedPlayConfig, load_study
from issoku.evaluation.reports.report import read_headlines
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.viewing import REPLAY_LIMIT, trace_record
from tests.browser import chromium, errors, require_browser, screenshot, shows

REPO = Path(__file__).resolve().parents[2]
require_browser()
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402


@pytest.fixture(scope="module")
def browser():
    yield from chromium()


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A small balance report: every kind of headline that links games (loadout, combo, policy, restriction)."""
    out = tmp_path_factory.mktemp("balance")
    cwd = os.getcwd()
    os.chdir(REPO)  # the planted study names its data files relative to the repository root
    try:
        planted = load_study(REPO / "tests" / "data" / "planted_exploit_study.toml").model_copy(update={
            "games_per_pair": 4,
            "combo_table": ComboTableConfig(samples=10, exact_dice=2, weapons=("uchigatana", "yari", "nodachi",
                                                                               "ninjato"))})
        tempo = load_study(REPO / "evaluation" / "studies" / "3_tempo_duel_v0_policies.toml").model_copy(update={
            "games_per_pair": 6, "restricted_play": RestrictedPlayConfig(games=10, maneuvers=2, combos=1),
            "policies": ["random", "tempo_always_parry", "tempo_feint_counter", "tempo_heuristic"]})  # a scripted
        # field: the battery's strongest agent then has a move whose loss it feels in 10 games (the headline to follow)
        _, path = balance_report([planted, tempo], out / "m.sqlite", out / "report", workers=0, bootstrap=50,
                                 progress=False)
    finally:
        os.chdir(cwd)
    return path


def _rows(text, heading):
    """The body rows of the first Markdown table after ``heading`` in report.md, as lists of cells."""
    section = text.split(heading, 1)[1].split("\n\n", 2)[2]  # skip the heading's paragraph
    lines = [line for line in section.split("\n\n", 1)[0].splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def test_the_report_page_shows_the_report_with_heatmaps_and_sorts_its_tables(browser, report, tmp_path):
    html = report.with_name("report.html")
    assert html.exists() and not re.search(r'(src|href)="(https?:)?//', html.read_text())  # nothing from a network
    browser.get(html.as_uri())
    assert browser.find_element(By.TAG_NAME, "h1").text == "issoku balance report"
    items = browser.find_elements(By.CSS_SELECTOR, "#headlines + ul > li")
    shown = [re.sub(r"\\(.)", r"\1", line.split(" — ")[0].replace("`", ""))  # inline code shows unquoted, and
             for line in read_headlines(report)]  # a name's backslash-escapes (escape_markdown) show as the characters
    assert [item.text.split(" — ")[0] for item in items] == shown
    images = browser.find_elements(By.CSS_SELECTOR, "main img")
    assert len(images) >= 5 and all(browser.execute_script("return arguments[0].naturalWidth", img) > 0 for img in images)

    # the matchup matrix is a heatmap: each rate coloured, red below ½ and blue above
    cells = browser.find_elements(By.CSS_SELECTOR, "table.matrix td[data-rate]")
    assert cells
    for cell in cells:
        rate = float(cell.get_attribute("data-rate"))
        red, green, blue = map(int, re.findall(r"\d+", cell.value_of_css_property("background-color"))[:3])
        assert (red > blue) if rate < 0.5 else (blue > red) if rate > 0.5 else red == blue == 255

    # sort the tempo ratings by Elo, both ways, and compare with report.md's rows
    rows = _rows(report.read_text().split("## tempo_duel_v0\n", 1)[1], "### Ratings of policies")
    table = browser.find_element(By.XPATH, "//h3[text()='Ratings of policies']/following-sibling::table[1]")
    elo = table.find_element(By.XPATH, ".//th[text()='Elo']")
    shown = lambda: [[td.text for td in tr.find_elements(By.TAG_NAME, "td")]  # noqa: E731
                     for tr in table.find_elements(By.CSS_SELECTOR, "tbody tr")]
    assert shown() == rows  # ranked, strongest first
    elo.click()
    assert shown() == sorted(rows, key=lambda row: float(row[2])) and elo.get_attribute("aria-sort") == "ascending"
    elo.click()
    assert shown() == rows and elo.get_attribute("aria-sort") == "descending"
    table.find_element(By.XPATH, ".//th[text()='policy']").click()
    assert [row[1] for row in shown()] == sorted(row[1] for row in rows)
    browser.execute_script("window.scrollTo(0, 0)")
    screenshot(browser, tmp_path, "report.png")
    assert errors(browser) == []


def test_a_headline_opens_its_games_in_the_viewer_and_they_replay_the_stored_games(browser, report, tmp_path):
    folder = report.parent
    browser.get(report.with_name("report.html").as_uri())
    links = browser.find_elements(By.CSS_SELECTOR, "#headlines + ul a.game")
    relative = [link.get_attribute("outerHTML").split('href="', 1)[1].split('"', 1)[0] for link in links]
    assert relative and all(re.fullmatch(r"games/[0-9a-f]{32}\.html(#step=\d+)?", href) for href in relative)
    pages = sorted(folder.joinpath("games").glob("*.html"))
    assert {folder / href.split("#")[0] for href in relative} == set(pages) and len(pages) <= REPLAY_LIMIT
    captions = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#headlines + ul > li")]
    assert any("ninjato's most lopsided wins: " in c for c in captions)
    assert any("most suspicious combo ninjato: cut" in c and "games that played it: " in c for c in captions)
    assert any("loses without" in c and "games it decided: " in c for c in captions)

    # follow the restricted-play headline's first game: the restricted policy lost it, and the page opens at
    # the step where its unrestricted opponent played the move taken away
    decided = browser.find_element(By.XPATH, "//li[contains(., 'games it decided')]//a[@class='game']")
    href = decided.get_attribute("href")
    key, step = re.fullmatch(r".*/games/([0-9a-f]{32})\.html#step=(\d+)", href).groups()
    decided.click()
    assert browser.current_url == href
    with MatchStore(folder.parent / "m.sqlite") as store:
        record = store.record(key)
    fight, title = trace_record(record)
    assert browser.find_element(By.ID, "title").text == title and key in title
    loser = 1 - record.winner
    base, banned = record.policies[loser].split(" -")  # the restricted side's name carries the restriction
    assert record.policies[record.winner] == base
    shows(browser, fight, int(step))
    assert browser.find_element(By.ID, "decision").text == \
        f"{record.agents[record.winner]} decides ({fight.frames[int(step)].decision_kind}): {banned}"
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.HOME)
    shows(browser, fight, 0)
    played = {agent: [] for agent in record.agents}
    for step in range(1, len(fight.frames)):
        body.send_keys(Keys.ARROW_RIGHT)
        agent, action = browser.find_element(By.ID, "decision").text.split(" decides ")
        played[agent].append(action.split(": ", 1)[1])
        if step in (1, 5):
            shows(browser, fight, step)
    assert [tuple(played[agent]) for agent in record.agents] == list(record.actions)  # the stored game, move by move
    body.send_keys(Keys.ARROW_LEFT)
    body.send_keys(Keys.ARROW_LEFT)
    shows(browser, fight, len(fight.frames) - 3)
    result = browser.find_element(By.ID, "summary").text.split("result: ", 1)[1]
    assert result.startswith(", ".join(f"{agent} {'+' if r > 0 else ''}{r:g}" for agent, r in
                                       zip(record.agents, record.returns)))
    screenshot(browser, tmp_path, "report_replay.png", docs=False)
    browser.find_element(By.ID, "back").click()  # the replay's own link back to the report
    assert browser.current_url == report.with_name("report.html").as_uri()
    assert errors(browser) == []
