"""``report.html``: the balance report's Markdown as one HTML page, with sortable tables and headlines that
open their example games in the replay viewer.

The page says exactly what ``report.md`` says (it is rendered from that file by markdown-it, with raw HTML
off, so a name from a crafted match store stays text), and adds:

* every table sorts by a click on a column's header (numbers by value, ``[interval]`` and ``%`` ignored;
  blanks and ``n/a`` last), again to reverse;
* matchup matrices (a table whose first header cell is empty) are coloured as heatmaps, red below ½, blue
  above, beside the PNG heatmaps the Markdown already shows;
* each headline is followed by links to the games that show it (:mod:`issoku.evaluation.reports.example_games`),
  each a self-contained viewer page in ``games/`` beside the report, linked relatively.

No server, no network: the script and styles are inlined and the links are relative, so the folder works
from ``file://`` and can be zipped and sent.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from issoku.evaluation.games.viewing import GameLink

HEADLINES_TITLE = "Headlines"
"""The title of the section whose lines get their games (``report.HEADLINES``, which imports this module)."""


MARKDOWN_SPECIAL = frozenset("\\`*[]<|#&~")
"""The characters :func:`escape_markdown` escapes: those that can open a link, an image (``!`` needs a ``[``), an
autolink, code, a heading, an entity, emphasis, strikethrough or a table cell wherever a name lands in a line. ``_``,
``>`` and ``!`` stay, so names such as ``ma_heuristic`` and sequences such as ``move:close>proactive:feint`` read as
typed (``>`` quotes only at the start of a line, where no name is written)."""


def escape_markdown(text: object) -> str:
    """``text`` (a name read from a file, study, store or replay) as Markdown that shows exactly that text: one line
    (line breaks become spaces), every :data:`MARKDOWN_SPECIAL` character backslash-escaped, so it cannot open a link,
    image, heading or table cell; a string already escaped is escaped again (use it once, where the text is written)."""
    flat = " ".join(str(text).splitlines())
    return "".join("\\" + char if char in MARKDOWN_SPECIAL else char for char in flat)


def code_span(text: object) -> str:
    """``text`` as one Markdown code span (one line), fenced with more backticks than any run it holds."""
    flat = " ".join(str(text).splitlines())
    fence = "`" * (max((len(run) for run in re.findall("`+", flat)), default=0) + 1)
    pad = " " if flat.startswith("`") or flat.endswith("`") else ""
    return f"{fence}{pad}{flat}{pad}{fence}"


def escape_cell(text: object) -> str:
    """A table cell's Markdown with every ``|`` not already escaped escaped (a ``|`` in a name never shifts a column)."""
    return re.sub(r"(?<!\\)((?:\\\\)*)\|", r"\1\\|", " ".join(str(text).splitlines()))


def is_local(url: str) -> bool:
    """Whether ``url`` stays inside the report's folder: relative, no scheme, no host (``//host``), no ``data:``."""
    from urllib.parse import urlsplit

    parts = urlsplit(url.strip())
    return not parts.scheme and not parts.netloc and not url.strip().startswith(("//", "\\", "/\\"))


def _markdown() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def _offline(tokens: list[Token]) -> None:
    """Keep the page offline whatever its Markdown says: an image whose source is not local becomes its alt text, a
    link whose target is not local becomes its text (a relative link to a replay or a plot stays)."""
    for token in tokens:
        if not token.children:
            continue
        kept: list[Token] = []
        dropped: list[bool] = []  # per open link: whether it was dropped
        for child in token.children:
            if child.type == "image" and not is_local(str(child.attrGet("src") or "")):
                kept.append(_text(child.content or "image"))
            elif child.type == "link_open":
                dropped.append(not is_local(str(child.attrGet("href") or "")))
                if not dropped[-1]:
                    kept.append(child)
            elif child.type == "link_close":
                if not (dropped.pop() if dropped else False):
                    kept.append(child)
            else:
                kept.append(child)
        token.children = kept


def _slug(text: str, taken: set[str]) -> str:
    """A unique id for a heading."""
    base = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"
    slug, n = base, 1
    while slug in taken:
        n += 1
        slug = f"{base}-{n}"
    taken.add(slug)
    return slug


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _links(games: Sequence[GameLink], caption: str) -> list[Token]:
    """Inline tokens: " — <caption>: " and a link per game (or its label and why there is no replay)."""
    tokens = [_text(f" — {caption or 'games'}: ")]
    for number, game in enumerate(games):
        if number:
            tokens.append(_text("; "))
        if game.href is None:
            tokens.append(_text(f"{game.label} (no replay: {game.why})"))
            continue
        opening = Token("link_open", "a", 1)
        opening.attrs = {"href": game.href, "class": "game"}
        tokens += [opening, _text(game.label), Token("link_close", "a", -1)]
    return tokens


def render_report_html(markdown: str, games: Mapping[str, Sequence[GameLink]] | None = None,
                       captions: Mapping[str, str] | None = None) -> str:
    """The HTML page of a report written in ``markdown``; ``games`` maps a headline (its Markdown text) to the
    games it links, ``captions`` to what they are ("games it decided")."""
    games, captions = games or {}, captions or {}
    md = _markdown()
    tokens = md.parse(markdown)
    _offline(tokens)
    title, section = "issoku balance report", ""
    ids: set[str] = set()
    contents: list[tuple[int, str, str]] = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            heading = tokens[i + 1].content
            token.attrSet("id", _slug(heading, ids))
            if token.tag == "h1":
                title = heading
            elif token.tag in ("h2", "h3"):
                contents.append((int(token.tag[1]), str(token.attrGet("id")), heading))
                if token.tag == "h2":
                    section = heading
        elif token.type == "table_open":
            # a matchup matrix: its header row starts with an empty cell (the row names' column)
            token.attrSet("class", "matrix" if tokens[i + 4].content == "" else "plain")
        elif token.type == "inline" and section == HEADLINES_TITLE and token.content in games and games[token.content]:
            token.children = [*(token.children or ()), *_links(games[token.content], captions.get(token.content, ""))]
    body = md.renderer.render(tokens, md.options, {})
    toc = "".join(f'<li class="level{level}"><a href="#{slug}">{html.escape(text)}</a></li>'
                  for level, slug, text in contents)
    return (_PAGE.replace("{{title}}", html.escape(title)).replace("{{style}}", _STYLE)
            .replace("{{script}}", _SCRIPT).replace("{{toc}}", toc).replace("{{body}}", body))


def write_html_report(report_md: Path, games: Mapping[str, Sequence[GameLink]] | None = None,
                      captions: Mapping[str, str] | None = None) -> Path:
    """Write ``report.html`` beside ``report_md`` (:func:`render_report_html`); returns its path."""
    path = report_md.with_suffix(".html")
    path.write_text(render_report_html(report_md.read_text(encoding="utf-8"), games, captions), encoding="utf-8")
    return path


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{title}}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{{style}}</style></head>
<body>
<nav id="contents"><strong>Contents</strong><ul>{{toc}}</ul></nav>
<main id="report">
{{body}}
</main>
<script>{{script}}</script>
</body></html>
"""

_STYLE = """
body{font-family:system-ui,sans-serif;margin:0;background:#f6f5f1;color:#222;display:flex;align-items:flex-start}
#contents{position:sticky;top:0;max-height:100vh;overflow:auto;width:15em;flex:none;padding:1em;font-size:.8em;
  background:#e8e6df;box-sizing:border-box}
#contents ul{list-style:none;padding:0;margin:.4em 0}#contents li.level3{padding-left:1em}
#contents a{color:#2b2d42;text-decoration:none}#contents a:hover{text-decoration:underline}
main{padding:0 1.5em 2em;min-width:0;flex:1;overflow-wrap:anywhere}#contents li{overflow-wrap:anywhere}
h1{font-size:1.5em;color:#2b2d42}h2{border-bottom:2px solid #2b2d42;padding-bottom:.2em;margin-top:1.6em}
h3{color:#444;margin-top:1.3em}
table{border-collapse:collapse;font-size:.85em;margin:.5em 0;background:#fff;display:block;max-width:100%;
  overflow-x:auto;width:max-content}
th,td{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
th{background:#2b2d42;color:#fff;cursor:pointer;user-select:none;white-space:nowrap}
th[aria-sort=ascending]::after{content:" \\25B2"}th[aria-sort=descending]::after{content:" \\25BC"}
th:not([aria-sort])::after{content:" \\21C5";opacity:.5}
table.matrix td{text-align:center;white-space:nowrap}
img{max-width:100%;height:auto;border:1px solid #ddd;background:#fff;margin:.5em 0}
blockquote{margin:.5em 0;padding:.3em .8em;background:#fff8e1;border-left:4px solid #e0c060}
code{background:#eee;padding:0 .2em;border-radius:3px}
a.game{color:#1d4ed8}
"""

_SCRIPT = r"""
(function(){
const MISSING = new Set(['', '\u2014', '-', 'n/a']);
function number(text){
  const m = text.replace(/\u2212/g, '-').match(/^\s*\**\s*([+-]?\d+(?:\.\d+)?(?:e[+-]?\d+)?)/i);
  return m ? parseFloat(m[1]) : null;
}
function sortBy(table, th, column){
  const rows = Array.from(table.tBodies[0].rows);
  const direction = th.getAttribute('aria-sort') === 'ascending' ? 'descending' : 'ascending';
  for (const other of table.tHead.rows[0].cells) other.removeAttribute('aria-sort');
  th.setAttribute('aria-sort', direction);
  const keyed = rows.map((row, index) => {
    const text = row.cells[column] ? row.cells[column].textContent.trim() : '';
    return {row, index, text, value: number(text), missing: MISSING.has(text)};
  });
  const numeric = keyed.some(k => k.value !== null) && keyed.every(k => k.value !== null || k.missing);
  const sign = direction === 'ascending' ? 1 : -1;
  keyed.sort((a, b) => {
    if (a.missing !== b.missing) return a.missing ? 1 : -1;
    const order = a.missing ? 0 : numeric ? a.value - b.value : a.text.localeCompare(b.text);
    return order ? sign * order : a.index - b.index;
  });
  for (const k of keyed) table.tBodies[0].appendChild(k.row);
}
for (const table of document.querySelectorAll('main table')){
  if (!table.tHead || !table.tBodies.length) continue;
  Array.from(table.tHead.rows[0].cells).forEach((th, column) => {
    th.tabIndex = 0; th.title = 'sort by this column';
    th.addEventListener('click', () => sortBy(table, th, column));
    th.addEventListener('keydown', e => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(table, th, column); } });
  });
}
function heat(rate){  // red (0) through white (1/2) to blue (1)
  const t = Math.max(-1, Math.min(1, (rate - 0.5) * 2)), far = [t < 0 ? 196 : 59, t < 0 ? 78 : 117, t < 0 ? 82 : 175];
  return 'rgb(' + far.map(c => Math.round(255 + (c - 255) * Math.abs(t))).join(',') + ')';
}
for (const table of document.querySelectorAll('table.matrix')){
  for (const row of table.tBodies[0].rows){
    for (const cell of Array.from(row.cells).slice(1)){
      const rate = number(cell.textContent);
      if (rate !== null && rate >= 0 && rate <= 1){ cell.style.backgroundColor = heat(rate); cell.dataset.rate = rate; }
    }
  }
}
})();
"""
