"""Names from stores, studies and variants are text in ``report.md`` and ``report.html``: no link, image, heading or
table column of their own, and the page references nothing outside its folder (checked on the HTML, and in a real
browser opened offline where Chromium is installed)."""

from __future__ import annotations

from dataclasses import replace
from html.parser import HTMLParser

import pytest

from issoku.evaluation.html_report import code_span, escape_cell, escape_markdown, is_local, render_report_html
from issoku.evaluation.report import write_report
from issoku.evaluation.store import MatchStore
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

    from issoku.evaluation.config import StudyConfig
    from issoku.evaluation.levers import Lever, write_levers
    from issoku.evaluation.stats import PairedDifference
    from issoku.evaluation.variants import Shift
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
