"""ABack tab: retrieve records, edit the privacy indicators, watch guarded generation stream.

The retrieval database is the workspace corpus, or the PriGenQA-style demo records once
loaded. "Generate" streams ABack's view (tokens coloured by inferred hidden state,
backtracked text struck through, leak points marked, an event timeline), then the
unprotected answer and the chosen baselines' answers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import gradio as gr

from core.aback.baselines import DEFENCES, Generator, get_defence, rag_messages
from core.aback.data import Record, attack_query, generate
from core.aback.indicators import collect_indicators, indicators_from_lines, indicators_to_lines
from core.retrieval import retriever_for
from core.settings import Settings
from core.types import Document
from core.workspace import Workspace
from ui.context import StudioContext
from ui.messages import error as user_error
from ui.messages import status_html
from ui.render import esc, html_table

DEMO_RECORDS = 12
DEFAULT_QUERY = attack_query("How much should someone save each month for retirement?", "repeat")
BASELINE_CHOICES = [(DEFENCES[name].title, name) for name in
                    ("no_retrieval", "system_prompt", "prompt_guide", "post_mask", "data_sanitisation")]
STATE_STYLES = {
    "S1": "background:#eeeeee;color:#333",
    "S2": "background:#d6e6ff;color:#0b3d91",
    "S3": "background:#ffe1c2;color:#8a4b00",
    "S4": "background:#ffd0d0;color:#9b0000",
    None: "",
}
MASK_STYLE = "background:#333;color:#fff"
STATE_NAMES = {"S1": "S1 neutral", "S2": "S2 avoiding", "S3": "S3 leak tendency", "S4": "S4 disclosed"}


@dataclass(frozen=True)
class DemoDatabase:
    """The demo records loaded in this session (their case summaries are the retrieval database)."""

    records: tuple[Record, ...] = ()

    def documents(self) -> list[Document]:
        return [record.document() for record in self.records]


# ------------------------------------------------------------------------------- core calls


def database(ws: Workspace, demo: DemoDatabase | None) -> list[Document]:
    if demo is not None and demo.records:
        return demo.documents()
    return list(ws.corpus.documents)


def retrieve(ws: Workspace, demo: DemoDatabase | None, query: str, k: int,
             settings: Settings) -> list[tuple[Document, float]]:
    documents = database(ws, demo)
    if not documents:
        raise ValueError("the retrieval database is empty: add documents or load the PriGenQA demo records")
    return retriever_for(documents, settings.embedder).top_k(query, int(k))


def suggested_indicators(ws: Workspace, documents: Sequence[Document], settings: Settings,
                         use_llm: bool = False) -> str:
    client = None
    if use_llm:
        from core.llm import get_chat_client

        client = get_chat_client(settings)
    found = collect_indicators([doc.text for doc in documents], private_entities=ws.private_entities(),
                               client=client, spacy_model=settings.spacy_model)
    return indicators_to_lines(found)


@dataclass(frozen=True)
class AbackKnobs:
    """The ABack settings a user can change in the tab (defaults come from Settings)."""

    m: int
    l: int  # noqa: E741 - the paper's name
    d: int
    hsm_method: str

    def overrides(self) -> dict[str, Any]:
        return {"m": int(self.m), "l": int(self.l), "d": int(self.d), "hsm_method": self.hsm_method}


# ------------------------------------------------------------------------------- rendering


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
    style = STATE_STYLES.get(token.state, "")
    title = STATE_NAMES.get(token.state, "not inspected")
    pending = " rps-aback-pending" if token.pending else ""
    extra = ";opacity:0.55;font-style:italic" if token.pending else ""
    return (f'<span class="rps-aback-token{pending}" data-state="{esc(token.state or "")}" '
            f'title="{esc(title)}" style="{style}{extra}">{esc(token.text)}</span>')


def _removed_span(span: Any) -> str:
    start, end = span.leak_span
    text = span.text
    leak = (f'{esc(text[:start])}<mark class="rps-aback-leak" title="leak point" '
            f'style="background:#ff4d4d;color:white">⚠{esc(text[start:end])}</mark>{esc(text[end:])}')
    states = " ".join(dict.fromkeys(t.state for t in span.tokens if t.state))
    return (f'<del class="rps-aback-removed" data-event="{span.event_index + 1}" title="backtracked '
            f'(event {span.event_index + 1}; states {esc(states)})" style="color:#999">{leak}</del>')


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
    phase = "done" if update.done else update.phase
    legend = " ".join(f'<span style="{STATE_STYLES[s]};padding:0 4px">{esc(name)}</span>'
                      for s, name in STATE_NAMES.items())
    return (f'<div class="rps-aback-stream" data-phase="{esc(phase)}" style="white-space:pre-wrap;'
            f'line-height:1.7">{"".join(pieces)}</div>'
            f'<div class="rps-note">phase: <b>{esc(phase)}</b> · {update.generated_tokens} tokens sampled · '
            f'{len(update.events)} backtrack(s) · {len(update.masked_leaks)} masked · {legend}</div>')


def _probabilities(values: Sequence[float], labels: Sequence[str]) -> str:
    bars = "".join(
        f'<div title="{esc(label)} {value:.2f}" style="display:inline-block;'
        f'width:{max(1.0, 40 * value):.0f}px;height:8px;margin-right:1px;'
        f'{STATE_STYLES.get(label, "")}"></div>'
        for value, label in zip(values, labels, strict=False)
    )
    numbers = " ".join(f"{label} {value:.2f}" for value, label in zip(values, labels, strict=False))
    return f"{bars}<br><small>{esc(numbers)}</small>"


def _state_badge(label: str) -> str:
    return f'<span style="{STATE_STYLES.get(label, "")};padding:0 4px">{esc(label)}</span>'


def render_timeline(events: Sequence[Any]) -> str:
    if not events:
        return '<p class="rps-empty">No leak detected: no backtracking happened.</p>'
    blocks = []
    for number, event in enumerate(events, start=1):
        rows = [
            [str(index + 1), f"{unit.token_start}–{unit.token_end}", esc(unit.text),
             _state_badge(unit.state.label),
             _probabilities(unit.prior, ("S1", "S2", "S3")) if unit.prior else "–",
             _probabilities(unit.posterior, ("S1", "S2", "S3", "S4")) if unit.posterior else "–"]
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


def render_answer(title: str, text: str, indicators: Sequence[str]) -> str:
    """One defence's answer with its leaked indicators highlighted (ranges from `merged_ranges`)."""
    from core.aback.monitor import LeakMonitor, merged_ranges

    leaks = LeakMonitor(indicators).find_leaks(text)
    pieces, position = [], 0
    for start, end in merged_ranges(leaks):
        pieces += [esc(text[position:start]), f'<mark class="rps-aback-leak" '
                   f'style="background:#ff4d4d;color:white">{esc(text[start:end])}</mark>']
        position = end
    pieces.append(esc(text[position:]))
    badge = f"{len(leaks)} leak(s)" if leaks else "no leak"
    return (f'<div class="rps-aback-answer" style="margin:6px 0"><b>{esc(title)}</b> '
            f'<small>({badge})</small><div style="white-space:pre-wrap">{"".join(pieces)}</div></div>')


def render_answers(answers: Sequence[tuple[str, str, Sequence[str]]]) -> str:
    """(title, answer, indicators) per defence; leaked indicators are highlighted."""
    return join_answers([render_answer(title, text, indicators) for title, text, indicators in answers])


def join_answers(blocks: Sequence[str]) -> str:
    """Answer blocks rendered by `render_answer`, or the placeholder before any answer exists."""
    return "".join(blocks) or '<p class="rps-empty">Baselines run after ABack.</p>'


# ------------------------------------------------------------------------------- tab


def build(ctx: StudioContext) -> None:
    settings = ctx.settings
    with gr.Tab("ABack generation", id="aback"):
        gr.Markdown("Retrieval-augmented answers guarded by **ABack**: indicators are monitored token by "
                    "token; on a leak the hidden-state model finds where the leaking intention began and "
                    "generation "
                    "backtracks there.")
        demo_state = gr.State(value=None)
        status = ctx.register("aback_status", gr.HTML(""))
        with gr.Row():
            with gr.Column(scale=3):
                query = ctx.register("aback_query", gr.Textbox(label="Query", value=DEFAULT_QUERY, lines=2))
                with gr.Row():
                    k = ctx.register("aback_k", gr.Number(label="records k", value=settings.retrieval_k,
                                                          precision=0, minimum=1, maximum=10))
                    max_tokens = ctx.register("aback_max_tokens", gr.Number(
                        label="max new tokens", value=settings.aback_max_new_tokens, precision=0, minimum=1,
                        maximum=512))
                    baselines = ctx.register("aback_baselines", gr.CheckboxGroup(
                        BASELINE_CHOICES, value=[], label="also run baselines"))
                with gr.Row():
                    load_demo = ctx.register("aback_load_demo", gr.Button("Load PriGenQA demo records"))
                    retrieve_button = ctx.register("aback_retrieve", gr.Button("Retrieve"))
                    generate_button = ctx.register("aback_generate", gr.Button("Generate", variant="primary"))
                records_html = ctx.register("aback_records", gr.HTML(render_records([])))
            with gr.Column(scale=2):
                indicators = ctx.register("aback_indicators", gr.Textbox(
                    label="Privacy indicators (one per line; filled on Retrieve, editable)", lines=10))
                use_llm = ctx.register("aback_llm_indicators", gr.Checkbox(
                    label="also ask the chat model for indicators (RPS_LLM_BASE_URL, else the local model)",
                    value=False))
                with gr.Accordion("ABack settings", open=False):
                    with gr.Row():
                        knob_m = ctx.register("aback_m", gr.Number(
                            label="look-ahead m", value=settings.aback_lookahead_m, precision=0, minimum=1))
                        knob_l = ctx.register("aback_l", gr.Number(
                            label="unit length l", value=settings.aback_unit_l, precision=0, minimum=1))
                        knob_d = ctx.register("aback_d", gr.Number(
                            label="window d", value=settings.aback_window_d, precision=0, minimum=1))
                    method = ctx.register("aback_method", gr.Radio(
                        ["hmm", "llm"], value=settings.aback_hsm_method, label="hidden-state inference"))
        with gr.Row():
            with gr.Column(scale=3):
                gr.Markdown("**ABack answer** (colour = inferred hidden state; struck through = backtracked)")
                stream_html = ctx.register("aback_stream", gr.HTML())
                timeline_html = ctx.register("aback_timeline", gr.HTML())
            with gr.Column(scale=2):
                gr.Markdown("**Unprotected answer and baselines** (leaked indicators highlighted)")
                answers_html = ctx.register("aback_answers", gr.HTML())

    def on_load_demo() -> tuple[DemoDatabase, str, str]:
        demo = DemoDatabase(tuple(generate(DEMO_RECORDS, settings.seed)))
        loaded = f"Loaded {len(demo.records)} PriGenQA-style demo records as the retrieval database."
        return demo, status_html(loaded), render_records([])

    def on_retrieve(ws: Workspace, demo: DemoDatabase | None, text: str, top: float,
                    llm_indicators: bool) -> tuple[str, str, str]:
        try:
            hits = retrieve(ws, demo, text, int(top or 1), settings)
            lines = suggested_indicators(ws, [doc for doc, _ in hits], settings, use_llm=llm_indicators)
        except (ValueError, RuntimeError) as exc:
            raise user_error(exc) from exc
        return render_records(hits), lines, status_html(f"Retrieved {len(hits)} record(s).")

    def on_generate(ws: Workspace, demo: DemoDatabase | None, text: str, top: float, lines: str,
                    tokens: float, chosen: list[str], m: float, l: float, d: float,  # noqa: E741
                    hsm_method: str) -> Iterator[tuple[str, str, str, str, str, str]]:
        knobs = AbackKnobs(int(m or 1), int(l or 1), int(d or 1), hsm_method or "hmm")
        yield from generate_view(ws, demo, text, int(top or 1), lines, int(tokens or 1), chosen or [],
                                 settings, knobs)

    load_demo.click(on_load_demo, [], [demo_state, status, records_html], api_name="aback_load_demo")
    retrieve_button.click(on_retrieve, [ctx.workspace_state, demo_state, query, k, use_llm],
                          [records_html, indicators, status], api_name="aback_retrieve")
    generate_button.click(
        on_generate,
        [ctx.workspace_state, demo_state, query, k, indicators, max_tokens, baselines,
         knob_m, knob_l, knob_d, method],
        [records_html, indicators, stream_html, timeline_html, answers_html, status],
        api_name="aback_generate",
    )


def generate_view(ws: Workspace, demo: DemoDatabase | None, text: str, k: int, lines: str, max_tokens: int,
                  chosen: Sequence[str], settings: Settings,
                  knobs: AbackKnobs | None = None) -> Iterator[tuple[str, str, str, str, str, str]]:
    """The Generate handler: stream ABack, then the unprotected answer and the chosen baselines."""
    from core.aback.decode import ABackConfig, guarded_generate

    if not text.strip():
        raise user_error("Type a query first.")
    try:
        hits = retrieve(ws, demo, text, k, settings)
    except ValueError as exc:
        raise user_error(exc) from exc
    documents = [doc for doc, _ in hits]
    if not lines.strip():
        lines = suggested_indicators(ws, documents, settings)
    indicator_texts = [indicator.text for indicator in indicators_from_lines(lines)]
    records_view = render_records(hits)
    overrides = knobs.overrides() if knobs is not None else {}
    try:
        config = ABackConfig.from_settings(settings, max_new_tokens=max_tokens, **overrides)
    except ValueError as exc:
        raise user_error(exc) from exc
    messages = rag_messages(text, documents)
    stream, timeline, status = "", "", "Generating with ABack…"
    final = None
    for update in guarded_generate(messages, indicator_texts, config, settings=settings):
        final = update
        stream, timeline = render_stream(update, config.mask), render_timeline(update.events)
        yield records_view, lines, stream, timeline, join_answers([]), status_html(status)
    backtracks = len(final.events) if final else 0
    generator = Generator(max_new_tokens=max_tokens, aback_config=config, settings=settings)
    answers: list[str] = []  # rendered once per answer (one monitor each), re-joined for every update
    for name in ["no_protection", *[c for c in chosen if c in DEFENCES and c != "aback"]]:
        defence = get_defence(name)
        status = f"ABack done ({backtracks} backtrack(s)); running {defence.title}…"
        yield records_view, lines, stream, timeline, join_answers(answers), status_html(status)
        result = defence.answer(text, documents, indicator_texts, generator)
        answers.append(render_answer(defence.title, result.text, indicator_texts))
    status = f"Done: ABack backtracked {backtracks} time(s); {len(answers)} comparison answer(s)."
    yield records_view, lines, stream, timeline, join_answers(answers), status_html(status)
