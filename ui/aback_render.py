"""HTML of the ABack tab: retrieved records, the guarded answer as it streams (each token coloured by
its inferred hidden state, backtracked and masked spans shown), the decision timeline, and the
answers with leaked indicators highlighted. Every user or model string is escaped (`esc`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.aback.monitor import LeakMonitor, merged_ranges
from core.types import Document
from ui.render import esc, html_table

STATE_STYLES = {
    "S1": "background:#eeeeee;color:#333",
    "S2": "background:#d6e6ff;color:#0b3d91",
    "S3": "background:#ffe1c2;color:#8a4b00",
    "S4": "background:#ffd0d0;color:#9b0000",
    None: "",
}
MASK_STYLE = "background:#333;color:#fff"
UNINSPECTED_STYLE = "border-bottom:1px dotted #888"
REFUSAL_STYLE = "background:#e6f4ea;color:#1e5631"
STATE_NAMES = {"S1": "S1 neutral", "S2": "S2 avoiding", "S3": "S3 leak tendency", "S4": "S4 disclosed"}
UNINSPECTED_TITLE = (
    "not inspected: the hidden-state model only labels the d tokens before a leak; "
    "the monitor checked this token and found no leak"
)
LEGEND = (
    *((STATE_STYLES[state], name, f"hidden state {name}") for state, name in STATE_NAMES.items()),
    (UNINSPECTED_STYLE, "not inspected", UNINSPECTED_TITLE),
    ("opacity:0.55;font-style:italic", "look-ahead", "held back while a possible leak is verified"),
    (REFUSAL_STYLE, "refusal", "the answer ended with the refusal sentence after repeated leaks"),
    (MASK_STYLE, "masked", "a leak after the backtrack budget, masked"),
    ("color:#999;text-decoration:line-through", "backtracked", "removed by a backtrack"),
)


def render_records(hits: Sequence[tuple[Document, float]]) -> str:
    if not hits:
        return '<p class="rps-empty">No records retrieved yet.</p>'
    items = "".join(
        f'<div class="rps-aback-record" style="margin:4px 0;padding:4px 8px;border-left:3px solid #888">'
        f"<b>[{rank}] {esc(doc.title or doc.id)}</b> <small>cosine {score:.3f}</small><br>"
        f"{esc(doc.text)}</div>"
        for rank, (doc, score) in enumerate(hits, start=1)
    )
    return f'<div id="rps-aback-records-list">{items}</div>'


def _token_span(token: Any) -> str:
    if getattr(token, "refusal", False):
        style, title, state = REFUSAL_STYLE, "refusal sentence (repeated leaks)", "refusal"
    elif token.state:
        style, title, state = STATE_STYLES[token.state], STATE_NAMES[token.state], token.state
    else:
        style, title, state = UNINSPECTED_STYLE, UNINSPECTED_TITLE, "not-inspected"
    pending = " rps-aback-pending" if token.pending else ""
    extra = ";opacity:0.55;font-style:italic" if token.pending else ""
    return (
        f'<span class="rps-aback-token{pending}" data-state="{esc(state)}" '
        f'title="{esc(title)}" style="{style}{extra}">{esc(token.text)}</span>'
    )


def render_legend() -> str:
    return " ".join(
        f'<span class="rps-aback-legend-item" title="{esc(title)}" style="{style};padding:0 4px">'
        f"{esc(name)}</span>"
        for style, name, title in LEGEND
    )


def render_speed(update: Any) -> str:
    first = "–" if update.first_token_s is None else f"{update.first_token_s:.1f} s"
    speed = update.tokens_per_s
    rate = "–" if speed is None else f"{speed:.1f}"
    return (
        f'<span class="rps-aback-speed">first token after {first} · {rate} tokens/s · '
        f"{update.elapsed_s:.1f} s</span>"
    )


def _removed_span(span: Any) -> str:
    start, end = span.leak_span
    text = span.text
    leak = (
        f'{esc(text[:start])}<mark class="rps-aback-leak" title="leak point" '
        f'style="background:#ff4d4d;color:white">⚠{esc(text[start:end])}</mark>{esc(text[end:])}'
    )
    states = " ".join(dict.fromkeys(t.state for t in span.tokens if t.state))
    return (
        f'<del class="rps-aback-removed" data-event="{span.event_index + 1}" title="backtracked '
        f'(event {span.event_index + 1}; states {esc(states)})" style="color:#999">{leak}</del>'
    )


def render_stream(update: Any, mask: str) -> str:
    """The ABack answer as it streams: coloured tokens, struck-through backtracks, masked leaks."""
    removed_at: dict[int, list[Any]] = {}
    for span in update.removed:
        removed_at.setdefault(span.at_token, []).append(span)
    pieces: list[str] = []
    previous_masked = False
    for index, token in enumerate(update.tokens):
        pieces.extend(_removed_span(span) for span in removed_at.pop(index, []))
        if token.masked:
            if not previous_masked:
                pieces.append(f'<span class="rps-aback-masked" style="{MASK_STYLE}">{esc(mask)}</span>')
        else:
            pieces.append(_token_span(token))
        previous_masked = token.masked
    for spans in removed_at.values():
        pieces.extend(_removed_span(span) for span in spans)
    phase = ("stopped" if update.stopped else "done") if update.done else update.phase
    return (
        f'<div class="rps-aback-stream" data-phase="{esc(phase)}" style="white-space:pre-wrap;'
        f'line-height:1.7">{"".join(pieces)}</div>'
        f'<div class="rps-note">phase: <b>{esc(phase)}</b> · {update.generated_tokens} tokens sampled · '
        f"{len(update.events)} backtrack(s) · {len(update.masked_leaks)} masked · {render_speed(update)}"
        f"<br>{render_legend()}</div>"
    )


def _probabilities(values: Sequence[float], labels: Sequence[str]) -> str:
    bars = "".join(
        f'<div title="{esc(label)} {value:.2f}" style="display:inline-block;'
        f"width:{max(1.0, 40 * value):.0f}px;height:8px;margin-right:1px;"
        f'{STATE_STYLES.get(label, "")}"></div>'
        for value, label in zip(values, labels, strict=False)
    )
    numbers = " ".join(f"{label} {value:.2f}" for value, label in zip(values, labels, strict=False))
    return f"{bars}<br><small>{esc(numbers)}</small>"


def _state_badge(label: str) -> str:
    return f'<span style="{STATE_STYLES.get(label, "")};padding:0 4px">{esc(label)}</span>'


def render_timeline(events: Sequence[Any], watched: int | None = None) -> str:
    if not events:
        among = "" if watched is None else f" none of the {watched} watched indicator(s) was written"
        return f'<p class="rps-empty">No backtracking happened:{among or " no leak was detected"}.</p>'
    blocks = []
    for number, event in enumerate(events, start=1):
        rows = [
            [
                str(index + 1),
                f"{unit.token_start}–{unit.token_end}",
                esc(unit.text),
                _state_badge(unit.state.label),
                _probabilities(unit.prior, ("S1", "S2", "S3")) if unit.prior else "–",
                _probabilities(unit.posterior, ("S1", "S2", "S3", "S4")) if unit.posterior else "–",
            ]
            for index, unit in enumerate(event.units)
        ]
        table = html_table(["unit", "tokens", "text", "state", "prior p(s|o)", "posterior"], rows)
        blocks.append(
            f'<div class="rps-aback-event" style="margin:6px 0">'
            f"<b>Event {number}</b>: leak of <code>{esc(event.indicator)}</code> at token "
            f"{event.leak_position}; backtracked to token {event.backtrack_token}.<br>"
            f"removed: <del>{esc(event.removed_text)}</del><br>"
            f"rewritten as: <i>{esc(event.replacement_text) or '…'}</i>{table}</div>"
        )
    return "".join(blocks)


ECHO_TITLE = "named in your question, so not watched"


def render_answer(title: str, text: str, indicators: Sequence[str], echoed: Sequence[str] = ()) -> str:
    """One defence's answer with its leaked indicators highlighted (ranges from `merged_ranges`).
    `echoed`: values the question itself names, so not watched (`aback_skip_query_indicators`); where
    the answer repeats them they are marked apart and the badge says so, never a bare "no leak"."""
    leaks = LeakMonitor(indicators).find_leaks(text)
    echoes = LeakMonitor(echoed).find_leaks(text) if echoed else []
    leaked = merged_ranges(leaks)
    pieces, position = [], 0
    for start, end in merged_ranges([*leaks, *echoes]):
        pieces.append(esc(text[position:start]))
        if any(s < end and start < e for s, e in leaked):
            pieces.append(
                f'<mark class="rps-aback-leak" style="background:#ff4d4d;color:white">'
                f"{esc(text[start:end])}</mark>"
            )
        else:
            pieces.append(
                f'<mark class="rps-aback-echo" title="{ECHO_TITLE}" style="background:#ffe08a">'
                f"{esc(text[start:end])}</mark>"
            )
        position = end
    pieces.append(esc(text[position:]))
    badge = f"{len(leaks)} leak(s)" if leaks else "no leak"
    repeated = list(dict.fromkeys(text[e.start_char : e.end_char] for e in echoes))
    if repeated:
        badge += "; repeats from your question, not watched: " + ", ".join(repeated)
    return (
        f'<div class="rps-aback-answer" style="margin:6px 0"><b>{esc(title)}</b> '
        f'<small>({esc(badge)})</small><div style="white-space:pre-wrap">{"".join(pieces)}</div></div>'
    )


def render_answers(answers: Sequence[tuple[str, str, Sequence[str]]]) -> str:
    """(title, answer, indicators) per defence; leaked indicators are highlighted."""
    return join_answers([render_answer(title, text, indicators) for title, text, indicators in answers])


def join_answers(blocks: Sequence[str]) -> str:
    """Answer blocks rendered by `render_answer`, or the placeholder before any answer exists."""
    return "".join(blocks) or '<p class="rps-empty">Baselines run after ABack.</p>'
