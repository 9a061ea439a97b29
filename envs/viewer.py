"""The replay viewer: one self-contained HTML file that steps through a traced fight.

No server and no network: the page's script, styles and the fight's data are inlined, so the file opens
from ``file://`` anywhere and can be mailed to a designer. It shows, per decision, the ruleset's picture
(distance ladder, zones, tempo track), the legal actions with the one taken highlighted, the events of the
step with their rule IDs (a click shows the rule's text from the repository's ``docs/rules/reference/``
and the decision ``docs/rules/<system>.md`` records for it), and every
seat's observation fields, changed values marked. Arrow keys, Home/End, buttons and a slider navigate.

Every string from the fight reaches the page through ``textContent``, never as markup, and the embedded
JSON escapes ``<``, so a crafted match store cannot inject script into a viewer page.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

from issoku.envs.trace import Trace

DOCS_RULES = Path(__file__).resolve().parents[1] / "docs" / "rules"
"""The repository's rules reference (absent from an installed wheel: the viewer then shows IDs only)."""
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


def _json_for_script(data: object) -> str:
    """JSON safe inside a ``<script>`` element (no ``</script>`` or ``<!--`` can appear)."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c").replace(">", "\\u003e")


def render_html(fight: Trace, *, title: str, rules: dict[str, str] | None = None) -> str:
    """The viewer page for ``fight``."""
    data = {"title": title, "trace": fight.to_json(),
            "rules": used_rules(fight, rules if rules is not None else rule_statements())}
    return (_PAGE.replace("{{title}}", html.escape(title))
            .replace("{{style}}", _STYLE).replace("{{script}}", _SCRIPT).replace("{{data}}", _json_for_script(data)))


def write_html(fight: Trace, out: Path, *, title: str, rules: dict[str, str] | None = None) -> Path:
    """Write the viewer page to ``out`` (its folder is created); returns ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_html(fight, title=title, rules=rules), encoding="utf-8")
    return out


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{{title}}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{{style}}</style></head>
<body>
<header><h1 id="title"></h1><div id="summary"></div></header>
<nav>
  <button id="first" title="first (Home)">|&#x25C0;</button><button id="prev" title="previous (&#x2190;)">&#x25C0;</button>
  <input id="slider" type="range" min="0" value="0" aria-label="step">
  <button id="next" title="next (&#x2192;)">&#x25B6;</button><button id="last" title="last (End)">&#x25B6;|</button>
  <span id="position"></span>
</nav>
<main>
  <section id="left">
    <h2>Position</h2><pre id="picture"></pre>
    <h2>Decision</h2><div id="decision"></div><ol id="legal"></ol>
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
h2{font-size:1em;margin:.8em 0 .3em;color:#555}pre{background:#fff;padding:.6em;border:1px solid #ccc;overflow:auto;font-size:.85em}
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
const trace = data.trace, frames = trace.frames, rules = data.rules;
const $ = id => document.getElementById(id);
function el(tag, text, cls){const e=document.createElement(tag); if(text!==undefined) e.textContent=text; if(cls) e.className=cls; return e;}
$('title').textContent = data.title;
const result = Object.entries(trace.returns).map(([a,r]) => a + ' ' + (r>0?'+':'') + r).join(', ');
$('summary').textContent = trace.env + ', seed ' + trace.seed + ', ' + (frames.length-1) + ' decisions; result: ' + result
  + (trace.truncated ? ' (cut off)' : trace.terminated ? '' : ' (not finished)');
const slider = $('slider'); slider.max = frames.length-1;
let current = 0;
function showRule(id){ $('rule').hidden=false; $('rule-id').textContent=id;
  $('rule-text').textContent = rules[id] || 'no statement for this ID in docs/rules/ of this checkout'; }
function fmt(v){ return Array.isArray(v) ? '[' + v.join(' ') + ']' : String(v); }
function render(i){
  current = Math.max(0, Math.min(frames.length-1, i)); const f = frames[current], before = frames[Math.max(0,current-1)];
  slider.value = current; $('position').textContent = 'step ' + current + ' / ' + (frames.length-1);
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
$('first').onclick = () => render(0); $('last').onclick = () => render(frames.length-1);
$('prev').onclick = () => render(current-1); $('next').onclick = () => render(current+1);
slider.oninput = () => render(parseInt(slider.value, 10));
document.addEventListener('keydown', e => {
  if (e.key==='ArrowRight') render(current+1); else if (e.key==='ArrowLeft') render(current-1);
  else if (e.key==='Home') render(0); else if (e.key==='End') render(frames.length-1); });
const start = parseInt((location.hash.match(/step=(\d+)/)||[])[1] || '0', 10);
render(start);
})();
"""
