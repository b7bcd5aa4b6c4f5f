"""The JavaScript the studio's page runs (`ui.context` installs it): the stable DOM ids of registered
components, the stamps and settling that order view renders (`ui.view_clock` is the server side), the
status line's per-tab messages, and the row a table click names as the page showed it."""

from __future__ import annotations

import json

ELEM_PREFIX = "rps-"
MESSAGE = "message"  # the registered status line every action writes to
SETTLE = "views_settle"  # the registered hidden button the page clicks for one last render (`SETTLE_JS`)


def elem_id(name: str) -> str:
    """The DOM id a registered component gets (`#rps-<name>`)."""
    return ELEM_PREFIX + name


VIEWS_SETTLED_JS = "() => !window.__rpsInFlight && !window.__rpsOverlap && !window.__rpsSettling"


def stamp_js(inputs: int, counted: bool = True) -> str:
    """Frontend code run as a view render is sent: its first input (the stamp) becomes the page's
    next render number; the other inputs pass unchanged. A `counted` render is also counted in
    flight until `SETTLE_JS` runs after it."""
    count = (
        "window.__rpsInFlight = (window.__rpsInFlight || 0) + 1; window.__rpsSettling = false; "
        "if (window.__rpsInFlight > 1) window.__rpsOverlap = true; "
        if counted
        else ""
    )
    return (
        "(...args) => { window.__rpsViewStamp = (window.__rpsViewStamp || 0) + 1; "
        f"{count}const values = args.slice(0, {inputs}); values[0] = window.__rpsViewStamp; return values; }}"
    )


# Run in the page after each counted view render. The page applies a render's values with awaits
# between components, so of two renders in flight at once the older can still land last on a busy
# machine; once none is in flight after such an overlap, one more render of the newest state is
# asked for (the hidden SETTLE button), so what stays on screen is always the newest state.
# `VIEWS_SETTLED_JS` tells a test (or a script) that no render is in flight or about to be.
SETTLE_JS = f"""() => {{
  window.__rpsInFlight = Math.max(0, (window.__rpsInFlight || 1) - 1);
  if (window.__rpsInFlight === 0 && window.__rpsOverlap) {{
    window.__rpsOverlap = false;
    const button = document.getElementById({elem_id(SETTLE)!r});
    if (button) {{ window.__rpsSettling = true; button.click(); }}
  }}
}}"""


# Installed once on page load: every pointer, mouse or key event on a table cell records, per table
# (`rps-<name>`), the texts of the row as the page shows it at that moment; `shown_row_js` reads it.
# Each press (mousedown, key) is also numbered with its click count (`event.detail`: 2 for the
# second press of a double-click), so the second press of a double-click on the same row is sent as
# a repeat that changes nothing (gradio's table fires a select event on every press).
RECORD_SHOWN_ROWS_JS = """() => {
  if (window.__rpsShownRows) return;
  window.__rpsShownRows = {};
  window.__rpsPresses = {};
  let pressNumber = 0;
  const record = (event) => {
    const cell = event.target && event.target.closest && event.target.closest('[role=gridcell][data-row]');
    const table = cell && cell.closest('[id^="rps-"]');
    if (!table) return;
    const cells = [...table.querySelectorAll(`[role=gridcell][data-row="${cell.dataset.row}"]`)];
    const column = (c) => Number((c.dataset.testid || '').split('-').pop());
    cells.sort((a, b) => column(a) - column(b));
    window.__rpsShownRows[table.id] = cells.map((c) => c.innerText.trim());
    if (event.type === 'mousedown' || event.type === 'keydown') {
      pressNumber += 1;
      const count = event.type === 'mousedown' ? event.detail || 1 : 1;
      window.__rpsPresses[table.id] = { number: pressNumber, count: count };
    }
  };
  for (const type of ['pointerdown', 'mousedown', 'click', 'keydown']) {
    document.addEventListener(type, record, true);
  }
}"""


def tab_messages_js(first_tab: str) -> str:
    """Installed once on page load: the status line shows only the current tab's message.

    A message belongs to the tab whose action wrote it (`data-tab`, `ui.messages.status_html`), or,
    untagged, to the tab shown when it arrived; `*` belongs to every tab. The page keeps each tab's
    newest message; on a tab switch (`show_tab_message_js`), or when a message of another tab arrives
    (a long action finishing after a switch), gradio's line is hidden and the tab's own newest message
    (or nothing) is shown in its place, so the line never shows a message from elsewhere. A `*`
    message shows on every tab only until some tab writes a newer one (its counts may be stale then)."""
    return f"""() => {{
  if (window.__rpsShowTab) return;
  const line = document.getElementById({elem_id(MESSAGE)!r});
  if (!line) return;
  const messages = {{}};
  let number = 0, lastHtml = '', lineTab = '';
  window.__rpsTab = {first_tab!r};
  const own = document.createElement('div');
  own.id = {elem_id(MESSAGE + "_tab")!r};
  own.className = 'rps-message-tab';
  own.hidden = true;
  const status = () => [...line.querySelectorAll('.rps-status')].find((span) => !own.contains(span));
  const remember = () => {{
    const span = status();
    if (!span || span.outerHTML === lastHtml) return;
    lastHtml = span.outerHTML;
    lineTab = span.dataset.tab || window.__rpsTab;
    number += 1;
    messages[lineTab] = {{ html: lastHtml, number: number }};
  }};
  const show = () => {{
    if (!own.isConnected) line.append(own);
    const tab = window.__rpsTab;
    // The page-wide message (the load's "N document(s) ... M triple(s)") stands only until any tab
    // writes a newer one: after that it may be stale (a tab would show the sample's counts after an
    // upload replaced the sample).
    const latest = Math.max(0, ...Object.values(messages).map((m) => m.number));
    const pageWide = messages['*'] && messages['*'].number === latest ? messages['*'] : null;
    const candidates = [messages[tab], pageWide].filter(Boolean);
    const newest = candidates.sort((a, b) => b.number - a.number)[0];
    const onLine = newest && newest.html === lastHtml && (lineTab === tab || lineTab === '*');
    if (onLine || !newest && !lastHtml) {{
      line.removeAttribute('data-elsewhere');
      own.hidden = true;
      return;
    }}
    line.setAttribute('data-elsewhere', lineTab);
    const html = newest ? newest.html : '';
    if (own.innerHTML !== html) own.innerHTML = html;
    own.hidden = false;
  }};
  window.__rpsShowTab = (tab) => {{ window.__rpsTab = tab; show(); }};
  new MutationObserver(() => {{ remember(); show(); }}).observe(line, {{
    childList: true, subtree: true, characterData: true,
  }});
  remember();
  show();
}}"""


def show_tab_message_js(tab: str) -> str:
    """Frontend code run when tab `tab` is selected: the status line shows that tab's message."""
    return f"() => {{ if (window.__rpsShowTab) window.__rpsShowTab({tab!r}); }}"


REPEAT = "repeat_of"  # the key of the JSON a row click sends for a double-click's second press


def shown_row_js(name: str, inputs: int) -> str:
    """Frontend code run as a row click is sent: its last input becomes the row of table `name` as the
    page showed it when clicked (JSON; "" when unknown), whatever the table's data holds by then.
    The second press of a double-click on the row the previous click sent (within 1.5 s) is sent as
    `{"repeat_of": row}`, and so is a send whose press was already sent: a busy page can send the
    first click after the second press, and then both sends read the second press. Either way a
    double-click acts once."""
    table = elem_id(name)
    return (
        "(...args) => { const values = args.slice(0, "
        f"{inputs}); const shown = (window.__rpsShownRows || {{}})[{table!r}]; "
        f"const press = (window.__rpsPresses || {{}})[{table!r}]; "
        "window.__rpsLastSent = window.__rpsLastSent || {}; "
        f"const last = window.__rpsLastSent[{table!r}]; const row = shown ? JSON.stringify(shown) : ''; "
        "const now = Date.now(); "
        "const repeat = !!(press && row && last && last.row === row && now - last.time < 1500 "
        "&& (press.count >= 2 || last.press === press.number)); "
        f"window.__rpsLastSent[{table!r}] = {{ row: row, press: press ? press.number : 0, time: now }}; "
        f"values[{inputs - 1}] = repeat ? JSON.stringify({{ {REPEAT}: shown }}) : row; return values; }}"
    )


def is_repeated_click(shown: str) -> bool:
    """Whether a row click's `shown` value is a double-click's second press (`shown_row_js`)."""
    try:
        value = json.loads(shown) if shown else None
    except json.JSONDecodeError:
        return False
    return isinstance(value, dict) and REPEAT in value
