"""The replay viewer: one self-contained HTML file that steps through a traced fight.

No server and no network: the page's script, styles and the fight's data are inlined, so the file opens
from ``file://`` anywhere and can be mailed to a designer. It shows, per decision, the ruleset's picture
(distance ladder, zones, tempo track), the legal actions with the one taken highlighted, the events of the
step with their rule IDs (a click shows the rule's text from the repository's ``docs/rules/reference/``
and the decision ``docs/rules/<system>.md`` records for it), and every
seat's observation fields, changed values marked. Arrow keys, Home/End, buttons and a slider navigate (one
step a key, whatever has the focus); a play button (or Space) steps on its own. A timeline charts each
fighter's guard, Energy, wounds (or health, AP) over the whole fight, drawn from the page's own data; a click
on it jumps to that step. A page written for a report links back to it.

Every string from the fight reaches the page through ``textContent``, never as markup, and the embedded
JSON escapes ``<``, so a crafted match store cannot inject script into a viewer page. The rule texts'
Markdown (``**bold**``, ``*emphasis*``, ``` `code` ```, ``[text](target)``) is rendered by building those
elements around text nodes, never by parsing the text as HTML; a link shows its text only.
"""

from __future__ import annotations

import html
import json
import os
import re
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote

from issoku.envs.trace import Trace

DOCS_RULES = Path(__file__).resolve().parents[1] / "docs" / "rules"
"""The rules reference (shipped in the wheel as ``issoku/docs/rules``; where it is missing the viewer shows IDs only)."""
RULE_ID = re.compile(r"^(?:BR|MA|SP|EN|TP)-[A-Z]?\d+[a-z]?$")


def rule_statements(folder: Path = DOCS_RULES) -> dict[str, str]:
    """Rule ID -> its text: the row of ``reference/`` (every ID in our words, its source and status), then the
    decision the system's own doc records for it, if any (``breath.md``: the default adopted for a gap).

    Read from every Markdown table row in ``folder`` whose first cell is a rule ID; each part ends with the
    file it comes from. Markdown is kept as text.
    """
    reference: dict[str, str] = {}
    decisions: dict[str, str] = {}
    for path in sorted(folder.rglob("*.md"), key=lambda p: (len(p.parts), p)) if folder.is_dir() else ():
        found = reference if path.parent.name == "reference" else decisions
        for line in path.read_text(encoding="utf-8").splitlines():
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            rule = cells[0].strip("`* ")
            if len(cells) >= 2 and RULE_ID.match(rule) and rule not in found:
                # a reference row is ID | rule | source | status | code | tests: the code and tests are left out
                kept = cells[1:4] if found is reference else cells[1:]
                found[rule] = f"{' | '.join(cell for cell in kept if cell)}  ({path.name})"
    return {rule: "\n".join(text for text in (reference.get(rule), decisions.get(rule) and
                                               f"Decision: {decisions[rule]}") if text)
            for rule in sorted(reference.keys() | decisions.keys())}


def used_rules(fight: Trace, statements: dict[str, str]) -> dict[str, str]:
    """The statements of the rule IDs the fight's events name (what its page needs)."""
    named = {event["rule"] for frame in fight.frames for event in frame.events}
    return {rule: text for rule, text in statements.items() if rule in named}


TIMELINE_FIELDS = ("ma_guard", "energy", "wounds", "self_health", "self_ap", "self_wounds")
"""The observation fields the timeline charts, where an env has them: each fighter's own value (a field that lists
every fighter starts with the observing one's), as the observation scales it (0 to 1)."""


def timeline(fight: Trace, fields: Sequence[str] = TIMELINE_FIELDS) -> list[dict[str, object]]:
    """Per fighter and charted field present in its own observation, the value at every step of ``fight``."""
    series: list[dict[str, object]] = []
    for agent in fight.agents:
        own = fight.frames[0].seats[agent]
        for field in (name for name in fields if name in own):
            values = [frame.seats[agent][field] for frame in fight.frames]
            series.append({"agent": agent, "field": field.removeprefix("self_").removeprefix("ma_"),
                           "values": [value[0] if isinstance(value, list) else value for value in values]})
    return series


def report_link(report: Path, page: Path) -> str:
    """The relative URL from ``page`` to ``report`` (both files), percent-encoded: a path, never a scheme."""
    relative = os.path.relpath(report.resolve(), page.resolve().parent)
    return quote(Path(relative).as_posix(), safe="/")


def _json_for_script(data: object) -> str:
    """JSON safe inside a ``<script>`` element (no ``</script>`` or ``<!--`` can appear)."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e")


def render_html(fight: Trace, *, title: str, rules: dict[str, str] | None = None, report: str | None = None) -> str:
    """The viewer page for ``fight``; ``report``, a relative URL (:func:`report_link`), adds a link back to it."""
    data = {"title": title, "trace": fight.to_json(), "timeline": timeline(fight), "report": report,
            "rules": used_rules(fight, rules if rules is not None else rule_statements())}
    return (_PAGE.replace("{{title}}", html.escape(title))
            .replace("{{style}}", _STYLE).replace("{{script}}", _SCRIPT).replace("{{data}}", _json_for_script(data)))


def write_html(fight: Trace, out: Path, *, title: str, rules: dict[str, str] | None = None,
               report: Path | None = None) -> Path:
    """Write the viewer page to ``out`` (its folder is created), linking back to the ``report`` file if given;
    returns ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    link = report_link(report, out) if report is not None else None
    out.write_text(render_html(fight, title=title, rules=rules, report=link), encoding="utf-8")
    return out


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{title}}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{{style}}</style></head>
<body>
<header><h1 id="title"></h1><div id="summary"></div><a id="back" hidden>&#x2190; back to the report</a></header>
<nav>
  <button id="first" title="first (Home)">|&#x25C0;</button><button id="prev" title="previous (&#x2190;)">&#x25C0;</button>
  <button id="play" title="play / pause (Space)">&#x25B6; play</button>
  <select id="speed" aria-label="autoplay speed" title="autoplay speed">
    <option value="1000">1 step/s</option><option value="500" selected>2 steps/s</option>
    <option value="200">5 steps/s</option><option value="100">10 steps/s</option></select>
  <input id="slider" type="range" min="0" value="0" aria-label="step">
  <button id="next" title="next (&#x2192;)">&#x25B6;</button><button id="last" title="last (End)">&#x25B6;|</button>
  <span id="position"></span>
</nav>
<div id="timeline"><svg id="chart" role="img" aria-label="timeline"></svg><div id="legend"></div></div>
<main>
  <section id="left">
    <h2 id="picture-heading">Position</h2><pre id="picture"></pre>
    <h2 id="decision-heading">Decision</h2><div id="decision"></div><ol id="legal"></ol>
  </section>
  <section id="right">
    <h2>Events</h2><ol id="events"></ol>
    <div id="rule" hidden><strong id="rule-id"></strong> <span id="rule-text"></span></div>
    <h2>What each seat sees</h2><table id="seats"></table>
  </section>
</main>
<script type="application/json" id="data">{{data}}</script>
<script>{{script}}</script>
</body></html>
"""

_STYLE = """
body{font-family:system-ui,sans-serif;margin:0;background:#f6f5f1;color:#222}
header{padding:.6em 1em;background:#2b2d42;color:#fff}h1{font-size:1.2em;margin:0}#summary{font-size:.9em;opacity:.85}
nav{display:flex;gap:.4em;align-items:center;padding:.5em 1em;background:#e8e6df;position:sticky;top:0}
nav input{flex:1}button{font-size:1em;min-width:2.2em}
main{display:flex;gap:1em;padding:1em;flex-wrap:wrap}section{flex:1;min-width:22em}
h2{font-size:1em;margin:.8em 0 .3em;color:#555}pre{background:#fff;padding:.6em;border:1px solid #ccc;font-size:.85em;white-space:pre-wrap;overflow-wrap:anywhere}
header a{color:#bcd3ff}#timeline{padding:.4em 1em 0}#chart{width:100%;height:9em;background:#fff;border:1px solid #ccc;cursor:pointer}
#legend{font-size:.8em;display:flex;flex-wrap:wrap;gap:.2em 1em}#legend span{white-space:nowrap}
#rule-text code{background:#f0ede4;padding:0 .2em}
#legal{display:flex;flex-wrap:wrap;gap:.3em;list-style:none;padding:0;font-size:.85em;font-family:monospace}
#legal li{border:1px solid #ccc;background:#fff;padding:0 .35em}#legal li.chosen{background:#ffd166;font-weight:bold;border-color:#c08a00}
#events{font-family:monospace;font-size:.85em}#events li{margin:.15em 0}
a.rule{color:#1d4ed8;cursor:pointer;text-decoration:underline}
#rule{background:#fff8e1;border:1px solid #e0c060;padding:.5em;margin:.5em 0;font-size:.9em}#rule-text{white-space:pre-line}
table{border-collapse:collapse;font-size:.8em;font-family:monospace}td,th{border:1px solid #ddd;padding:.1em .4em;text-align:right}
th{background:#eee}td.changed{background:#d1fae5}td.name{text-align:left}
"""

_SCRIPT = r"""
(function(){
const data = JSON.parse(document.getElementById('data').textContent);
const trace = data.trace, frames = trace.frames, rules = data.rules, last = frames.length - 1;
const $ = id => document.getElementById(id);
function el(tag, text, cls){const e=document.createElement(tag); if(text!==undefined) e.textContent=text; if(cls) e.className=cls; return e;}
$('title').textContent = data.title;
if (data.report){ $('back').href = data.report; $('back').hidden = false; }
const result = Object.entries(trace.returns).map(([a,r]) => a + ' ' + (r>0?'+':'') + r).join(', ');
$('summary').textContent = trace.env + ', seed ' + trace.seed + ', ' + last + ' decisions; result: ' + result
  + (trace.truncated ? ' (cut off)' : trace.terminated ? '' : ' (not finished)');
const slider = $('slider'); slider.max = last;
let current = 0;
// The rule texts' Markdown (**bold**, *emphasis*, `code`, [text](target)) as elements around text nodes: the text
// is never parsed as HTML, and a link shows its text only.
const MARKDOWN = /\*\*([^*]+)\*\*|`([^`]+)`|\*([^*\s][^*]*)\*|\[([^\]]+)\]\([^)]*\)/g;
function markdown(text){
  const out = document.createDocumentFragment(); let at = 0;
  for (const m of text.matchAll(MARKDOWN)){
    out.appendChild(document.createTextNode(text.slice(at, m.index)));
    out.appendChild(m[1]!==undefined ? el('strong', m[1]) : m[2]!==undefined ? el('code', m[2])
                    : m[3]!==undefined ? el('em', m[3]) : document.createTextNode(m[4]));
    at = m.index + m[0].length;
  }
  out.appendChild(document.createTextNode(text.slice(at))); return out;
}
function showRule(id){ $('rule').hidden=false; $('rule-id').textContent=id;
  $('rule-text').replaceChildren(markdown(rules[id] || 'no statement for this ID in docs/rules/ of this checkout')); }
function fmt(v){ return Array.isArray(v) ? '[' + v.join(' ') + ']' : String(v); }
// the timeline: one line per fighter and field, a marker at the current step
const SVG = 'http://www.w3.org/2000/svg', chart = $('chart'), W = 1000, H = 100;
const COLOURS = ['#1d4ed8', '#c2410c', '#15803d', '#7e22ce', '#b45309', '#0e7490', '#be123c', '#4d7c0f'];
const fields = [...new Set(data.timeline.map(s => s.field))], agents = [...new Set(data.timeline.map(s => s.agent))];
const x = step => last ? step * W / last : 0, y = v => H - 4 - Math.max(0, Math.min(1, v)) * (H - 8);
chart.setAttribute('viewBox', '0 0 ' + W + ' ' + H); chart.setAttribute('preserveAspectRatio', 'none');
for (const s of data.timeline){
  const line = document.createElementNS(SVG, 'polyline'), colour = COLOURS[fields.indexOf(s.field) % COLOURS.length];
  line.setAttribute('points', s.values.map((v, step) => x(step) + ',' + y(v)).join(' '));
  line.setAttribute('fill', 'none'); line.setAttribute('stroke', colour); line.setAttribute('stroke-width', '2');
  line.setAttribute('vector-effect', 'non-scaling-stroke'); line.setAttribute('class', 'series');
  if (agents.indexOf(s.agent) % 2) line.setAttribute('stroke-dasharray', '6 3');
  line.dataset.agent = s.agent; line.dataset.field = s.field; chart.appendChild(line);
  const key = el('span', (agents.indexOf(s.agent) % 2 ? '- - ' : '\u2014 ') + s.agent + ' ' + s.field); key.style.color = colour;
  $('legend').appendChild(key);
}
$('legend').appendChild(el('span', data.timeline.length ? '(0 at the bottom, 1 at the top, as each fighter\'s own observation scales it)'
                                                     : '(this env observes no guard, Energy, wounds or health to chart)'));
const marker = document.createElementNS(SVG, 'line'); marker.setAttribute('id', 'marker');
marker.setAttribute('y1', '0'); marker.setAttribute('y2', String(H)); marker.setAttribute('stroke', '#222');
marker.setAttribute('vector-effect', 'non-scaling-stroke'); chart.appendChild(marker);
chart.addEventListener('click', e => { const box = chart.getBoundingClientRect();
  render(Math.round((e.clientX - box.left) / box.width * last)); });
function render(i){
  current = Math.max(0, Math.min(last, i)); const f = frames[current], before = frames[Math.max(0,current-1)];
  slider.value = current; $('position').textContent = 'step ' + current + ' / ' + last;
  marker.setAttribute('x1', String(x(current))); marker.setAttribute('x2', String(x(current)));
  $('picture-heading').textContent = current ? 'Position after step ' + current : 'Position at the start (step 0)';
  $('decision-heading').textContent = current ? 'Decision at step ' + current + ' (taken in the position '
    + (current > 1 ? 'after step ' + (current-1) : 'at the start') + ')' : 'Decision (none yet at step 0)';
  $('picture').textContent = f.picture || '(this ruleset draws no picture)';
  $('decision').textContent = f.agent ? (f.agent + ' decides (' + f.decision_kind + '): ' + f.action) : 'the fight begins';
  const legal = $('legal'); legal.replaceChildren();
  for (const name of f.legal){ legal.appendChild(el('li', name, name===f.action ? 'chosen' : undefined)); }
  const events = $('events'); events.replaceChildren();
  for (const ev of f.events){
    const li = el('li'); const a = el('a', ev.rule, 'rule'); a.dataset.rule = ev.rule; a.title = rules[ev.rule] || '';
    a.addEventListener('click', () => showRule(ev.rule)); li.appendChild(a);
    const rest = Object.entries(ev).filter(([k]) => !['rule','kind','actor'].includes(k)).map(([k,v]) => k + '=' + fmt(v)).join(' ');
    li.appendChild(document.createTextNode(' ' + ev.kind + (ev.actor===null||ev.actor===undefined ? '' : ' seat ' + ev.actor) + ': ' + rest));
    events.appendChild(li);
  }
  if (!f.events.length) events.appendChild(el('li', '(no events)'));
  const table = $('seats'); table.replaceChildren(); const agents = trace.agents;
  const head = el('tr'); head.appendChild(el('th', 'field')); for (const a of agents) head.appendChild(el('th', a)); table.appendChild(head);
  for (const name of Object.keys(f.seats[agents[0]])){
    const tr = el('tr'); tr.appendChild(el('td', name, 'name'));
    for (const a of agents){ const now = fmt(f.seats[a][name]), then = fmt(before.seats[a][name]);
      tr.appendChild(el('td', now, now !== then ? 'changed' : undefined)); }
    table.appendChild(tr);
  }
}
// autoplay: a step every chosen interval until the end (play at the end starts over)
let timer = null;
function pause(){ clearInterval(timer); timer = null; $('play').textContent = '\u25B6 play'; }
function play(){ if (current >= last) render(0);
  timer = setInterval(() => { render(current+1); if (current >= last) pause(); }, parseInt($('speed').value, 10));
  $('play').textContent = '\u275A\u275A pause'; }
$('play').onclick = () => timer ? pause() : play();
$('speed').onchange = () => { if (timer){ pause(); play(); } };
$('first').onclick = () => render(0); $('last').onclick = () => render(last);
$('prev').onclick = () => render(current-1); $('next').onclick = () => render(current+1);
slider.oninput = () => render(parseInt(slider.value, 10));
// one handler for every key, wherever the focus is: the slider's own arrow handling is prevented, so a key
// steps once (the slider alone would step too, and twice with ours)
const KEYS = {ArrowRight: () => render(current+1), ArrowLeft: () => render(current-1), Home: () => render(0),
              End: () => render(last), ' ': () => timer ? pause() : play()};
document.addEventListener('keydown', e => {
  if (!(e.key in KEYS) || e.target.tagName === 'SELECT' || e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.key === ' ' && e.target.tagName === 'BUTTON') return;  // Space presses a focused button (play among them)
  e.preventDefault(); KEYS[e.key](); });
const start = parseInt((location.hash.match(/step=(\d+)/)||[])[1] || '0', 10);
render(start);
})();
"""
