"""ABack tab: retrieve records, edit the privacy indicators, watch guarded generation stream.

The retrieval database is the workspace corpus, or the PriGenQA-style demo records once
loaded. "Generate" streams ABack's view (tokens coloured by inferred hidden state or marked "not
inspected", backtracked text struck through, leak points marked, an event timeline, time to
first token and tokens/s), then the unprotected answer and the chosen baselines' answers.
"Stop" ends the running generation cleanly (its session's stop event; the answer so far stays).
Indicators found on Retrieve keep their type and score: unticking a type or raising the
minimum score rewrites the indicator box.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import gradio as gr

from core.aback.baselines import DEFENCES, Generator, get_defence, rag_messages
from core.aback.config import ABackConfig
from core.aback.data import attack_query, generate
from core.aback.decode import guarded_generate
from core.aback.indicators import (
    indicators_from_lines,
)
from core.eraser4rag.workspace import Workspace
from core.settings import Settings
from ui.aback_render import join_answers, render_answer, render_records, render_stream, render_timeline
from ui.aback_watch import (
    DemoDatabase,
    IndicatorBox,
    RetrievedSet,
    answer_verdict,
    indicator_types,
    kept_indicator_lines,
    retrieve,
    retrieved_set,
    verdict_indicators,
    watch_list,
)
from ui.context import StudioContext, among
from ui.messages import error as user_error
from ui.messages import status_html
from ui.render import esc

DEMO_RECORDS = 12
DEMO_STORAGE_KEY = "rps-aback-demo"
BASELINES_STORAGE_KEY = "rps-aback-baselines"
# kept in the browser (`StudioContext.remember_in_browser`; the baselines ticked: `keep_over_reload`)
BROWSER_STATES = {DEMO_STORAGE_KEY: 0, BASELINES_STORAGE_KEY: None}
DEFAULT_QUERY = attack_query("How much should someone save each month for retirement?", "repeat")
BASELINE_CHOICES = [
    (DEFENCES[name].title, name)
    for name in ("no_retrieval", "system_prompt", "prompt_guide", "post_mask", "data_sanitisation")
]
STOPPING = "Stopping…"
_STOP_EVENTS: dict[str, threading.Event] = {}  # session hash -> the stop event of its running generation


def stop_generation(session: str) -> str:
    """Set the stop event of the session's running generation; the message says whether there was one."""
    event = _STOP_EVENTS.get(session)
    if event is None or event.is_set():
        return "Nothing is being generated."
    event.set()
    return STOPPING


@dataclass(frozen=True)
class AbackKnobs:
    """The ABack settings a user can change in the tab (defaults come from Settings)."""

    m: int
    l: int  # noqa: E741 - the paper's name
    d: int
    hsm_method: str

    def overrides(self) -> dict[str, Any]:
        return {"m": int(self.m), "l": int(self.l), "d": int(self.d), "hsm_method": self.hsm_method}


# ------------------------------------------------------------------------------- tab


class LastRuns:
    """Each browser session's last ABack run as it was shown (question, records, indicators, answer,
    trace, baselines, status), so that a reload shows it again; the newest `size` sessions are kept."""

    def __init__(self, size: int = 256) -> None:
        self.size = size
        self._runs: OrderedDict[str, tuple[Any, ...]] = OrderedDict()
        # a run started before the page load gave this connection its browser session is kept under
        # the connection and handed to that session when it arrives (a busy server loads slowly)
        self._claimed: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, session: str, question: str, update: tuple[Any, ...], connection: str = "") -> None:
        with self._lock:
            key = session or self._claimed.get(_connection_key(connection), _connection_key(connection))
            if not key:
                return
            shown = list(self._runs.pop(key, (question, "", "", "", "", "", "")))
            shown[0] = question
            for index, value in zip(range(1, 7), update[:6], strict=True):
                if isinstance(value, str):  # a view left unchanged by this update is not a string
                    shown[index] = value
            self._runs[key] = tuple(shown)
            _trim(self._runs, self.size)

    def restore(self, session: str, request: gr.Request | None = None) -> tuple[Any, ...]:
        connection = _connection_key(request.session_hash if request is not None else "")
        with self._lock:
            if session and connection:
                self._claimed[connection] = session
                _trim(self._claimed, self.size)
                pending = self._runs.pop(connection, None)
                if pending is not None:
                    self._runs[session] = pending
            shown = self._runs.get(session) if session else None
        if shown is None:
            return tuple(gr.skip() for _ in range(7))
        question, records, lines, stream, timeline, answers, status = shown
        return question, records, lines, stream, timeline, answers, status


def _connection_key(session_hash: str | None) -> str:
    return f"connection:{session_hash}" if session_hash else ""


def _trim(entries: OrderedDict[str, Any], size: int) -> None:
    while len(entries) > size:
        entries.popitem(last=False)


LAST_RUNS = LastRuns()


def build(ctx: StudioContext) -> None:
    settings = ctx.settings
    with gr.Tab("ABack generation", id="aback"):
        gr.Markdown(
            "Retrieval-augmented answers guarded by **ABack**: indicators are monitored token by "
            "token; on a leak the hidden-state model finds where the leaking intention began and "
            "generation "
            "backtracks there."
        )
        demo_state = gr.State(value=None)
        remembered = ctx.browser_state(DEMO_STORAGE_KEY)
        status = ctx.register("aback_status", gr.HTML(""))
        with gr.Row():
            with gr.Column(scale=3):
                query = ctx.register("aback_query", gr.Textbox(label="Query", value=DEFAULT_QUERY, lines=2))
                with gr.Row():
                    k = ctx.register(
                        "aback_k",
                        gr.Number(
                            label="records k", value=settings.retrieval_k, precision=0, minimum=1, maximum=10
                        ),
                    )
                    max_tokens = ctx.register(
                        "aback_max_tokens",
                        gr.Number(
                            label="max new tokens",
                            value=settings.aback_max_new_tokens,
                            precision=0,
                            minimum=1,
                            maximum=512,
                        ),
                    )
                    baselines = ctx.register(
                        "aback_baselines",
                        gr.CheckboxGroup(BASELINE_CHOICES, value=[], label="also run baselines"),
                    )
                with gr.Row():
                    load_demo = ctx.register("aback_load_demo", gr.Button("Load PriGenQA demo records"))
                    retrieve_button = ctx.register("aback_retrieve", gr.Button("Retrieve"))
                    generate_button = ctx.register("aback_generate", gr.Button("Generate", variant="primary"))
                    stop_button = ctx.register(
                        "aback_stop", gr.Button("Stop", variant="stop", interactive=False)
                    )
                records_html = ctx.register("aback_records", gr.HTML(render_records([])))
            with gr.Column(scale=2):
                indicators = ctx.register(
                    "aback_indicators",
                    gr.Textbox(
                        label="Privacy indicators (one per line; filled on Retrieve, editable)", lines=10
                    ),
                )
                detected_state = gr.State(value=None)  # the RetrievedSet the indicator box belongs to
                with gr.Row():
                    type_filter = ctx.register(
                        "aback_indicator_types",
                        gr.CheckboxGroup([], value=[], label="indicator types (untick to drop)"),
                    )
                    min_score = ctx.register(
                        "aback_min_score",
                        gr.Slider(0.0, 1.0, value=settings.pii_min_score, step=0.05, label="minimum score"),
                    )
                use_llm = ctx.register(
                    "aback_llm_indicators",
                    gr.Checkbox(
                        label=(
                            "also ask the chat model for indicators (RPS_LLM_BASE_URL, else the local model)"
                        ),
                        value=False,
                    ),
                )
                with gr.Accordion("ABack settings", open=False):
                    with gr.Row():
                        knob_m = ctx.register(
                            "aback_m",
                            gr.Number(
                                label="look-ahead m", value=settings.aback_lookahead_m, precision=0, minimum=1
                            ),
                        )
                        knob_l = ctx.register(
                            "aback_l",
                            gr.Number(
                                label="unit length l", value=settings.aback_unit_l, precision=0, minimum=1
                            ),
                        )
                        knob_d = ctx.register(
                            "aback_d",
                            gr.Number(
                                label="window d", value=settings.aback_window_d, precision=0, minimum=1
                            ),
                        )
                    method = ctx.register(
                        "aback_method",
                        gr.Radio(
                            ["hmm", "llm"], value=settings.aback_hsm_method, label="hidden-state inference"
                        ),
                    )
        with gr.Row():
            with gr.Column(scale=3):
                gr.Markdown("**ABack answer** (colour = inferred hidden state; struck through = backtracked)")
                stream_html = ctx.register("aback_stream", gr.HTML())
                timeline_html = ctx.register("aback_timeline", gr.HTML())
            with gr.Column(scale=2):
                gr.Markdown("**Unprotected answer and baselines** (leaked indicators highlighted)")
                answers_html = ctx.register("aback_answers", gr.HTML())
                aback_result = ctx.register("aback_result", gr.JSON(visible=False, label="answers"))

    def on_load_demo() -> tuple[DemoDatabase, str, str]:
        demo = DemoDatabase(tuple(generate(DEMO_RECORDS, settings.seed)))
        loaded = f"Loaded {len(demo.records)} PriGenQA-style demo records as the retrieval database."
        return demo, status_html(loaded), render_records([])

    def on_page_load(count: Any) -> tuple[Any, ...]:
        if not isinstance(count, int) or count <= 0:
            return gr.skip(), gr.skip()
        demo = DemoDatabase(tuple(generate(min(count, DEMO_RECORDS), settings.seed)))
        note = f"{len(demo.records)} PriGenQA-style demo records are the retrieval database (loaded earlier)."
        return demo, f'<p class="rps-empty">{esc(note)} Press Retrieve.</p>'

    def on_retrieve(
        ws: Workspace, demo: DemoDatabase | None, text: str, top: float, llm_indicators: bool, score: float
    ) -> tuple[Any, ...]:
        try:
            hits = retrieve(ws, demo, text, int(top or 1), settings)
            found = retrieved_set(ws, text, hits, settings, use_llm=llm_indicators)
        except (ValueError, RuntimeError) as exc:
            raise user_error(exc) from exc
        choices = indicator_types(found.indicators)
        kinds = [kind for _label, kind in choices]
        return (
            render_records(hits),
            kept_indicator_lines(found.indicators, kinds, score),
            status_html(f"Retrieved {len(hits)} record(s); {len(found.indicators)} indicator(s)."),
            found,
            gr.update(choices=choices, value=kinds),
        )

    def on_filter(found: RetrievedSet | None, kinds: list[str], score: float) -> str:
        return kept_indicator_lines(found.indicators if found else [], kinds or [], score)

    def on_stop(request: gr.Request) -> Any:
        message = stop_generation(request.session_hash or "")
        # A run that stops writes "Stopped after …" itself; a "Stopping…" written here could arrive
        # after it and stay.
        return gr.update() if message == STOPPING else status_html(message)

    def on_generate(
        ws: Workspace,
        demo: DemoDatabase | None,
        text: str,
        top: float,
        lines: str,
        tokens: float,
        chosen: list[str],
        m: float,
        l: float,  # noqa: E741
        d: float,
        hsm_method: str,
        found: RetrievedSet | None,
        kinds: list[str],
        score: float,
        llm_indicators: bool,
        browser_session: str,
        request: gr.Request,
    ) -> Iterator[tuple[Any, ...]]:
        knobs = AbackKnobs(int(m or 1), int(l or 1), int(d or 1), hsm_method or "hmm")
        box = IndicatorBox(lines or "", found, list(kinds or []), float(score or 0.0), bool(llm_indicators))
        session = request.session_hash or ""
        stop_event = _STOP_EVENTS[session] = threading.Event()
        views = generate_view(
            ws, demo, text, int(top or 1), box, int(tokens or 1), chosen or [], settings, knobs, stop_event
        )
        try:
            for update in views:
                LAST_RUNS.keep(browser_session, text, update, session)
                yield update
        finally:
            if _STOP_EVENTS.get(session) is stop_event:
                del _STOP_EVENTS[session]

    loaded_demo = load_demo.click(
        on_load_demo, [], [demo_state, status, records_html], api_name="aback_load_demo"
    )
    # The demo records last over a reload: this browser remembers that it loaded them (they are
    # generated again, the same, from the seed).
    loaded_demo.success(
        lambda: DEMO_RECORDS, [], [remembered], api_visibility="private", show_progress="hidden", queue=False
    )
    page = gr.context.Context.root_block
    if page is not None:
        page.load(
            on_page_load,
            [remembered],
            [demo_state, records_html],
            api_visibility="private",
            show_progress="hidden",
        )
    # A reload shows this browser's last run again (kept in the server's memory, by browser session).
    if ctx.session_state is not None:
        ctx.session_state.change(
            LAST_RUNS.restore,
            [ctx.session_state],
            [query, records_html, indicators, stream_html, timeline_html, answers_html, status],
            api_visibility="private",
            show_progress="hidden",
        )
    ctx.keep_over_reload(baselines, BASELINES_STORAGE_KEY, among(BASELINE_CHOICES))
    retrieve_button.click(
        on_retrieve,
        [ctx.workspace_state, demo_state, query, k, use_llm, min_score],
        [records_html, indicators, status, detected_state, type_filter],
        api_name="aback_retrieve",
    )
    for control in (type_filter, min_score):
        control.change(
            on_filter,
            [detected_state, type_filter, min_score],
            [indicators],
            api_name=f"aback_filter_{'types' if control is type_filter else 'score'}",
        )
    stop_button.click(on_stop, [], [status], api_name="aback_stop")
    # Generate is disabled and Stop enabled while a run streams; `then` restores them after any ending
    # (done, stopped or an error).
    generate_button.click(
        lambda: button_states(running=True),
        [],
        [generate_button, stop_button],
        api_visibility="private",
        show_progress="hidden",
        queue=False,
    ).then(
        on_generate,
        [
            ctx.workspace_state,
            demo_state,
            query,
            k,
            indicators,
            max_tokens,
            baselines,
            knob_m,
            knob_l,
            knob_d,
            method,
            detected_state,
            type_filter,
            min_score,
            use_llm,
            ctx.session_state if ctx.session_state is not None else gr.State(""),
        ],
        [
            records_html,
            indicators,
            stream_html,
            timeline_html,
            answers_html,
            status,
            detected_state,
            type_filter,
            aback_result,
        ],
        api_name="aback_generate",
    ).then(
        lambda: button_states(running=False),
        [],
        [generate_button, stop_button],
        api_visibility="private",
        show_progress="hidden",
        queue=False,
    )


def button_states(running: bool) -> tuple[Any, Any]:
    """(Generate, Stop) updates: only one of them can be pressed at a time."""
    return gr.update(interactive=not running), gr.update(interactive=running)


def generate_view(
    ws: Workspace,
    demo: DemoDatabase | None,
    text: str,
    k: int,
    box: IndicatorBox | str,
    max_tokens: int,
    chosen: Sequence[str],
    settings: Settings,
    knobs: AbackKnobs | None = None,
    stop_event: threading.Event | None = None,
) -> Iterator[tuple[Any, ...]]:
    """The Generate handler: stream ABack, then the unprotected answer and the chosen baselines.

    Yields (records, indicator lines, ABack stream, timeline, answers, status, RetrievedSet, type
    filter update). Retrieval and the watch list are always those of `text` (see `watch_list`)."""

    if isinstance(box, str):
        box = IndicatorBox(box)
    if not text.strip():
        raise user_error("Type a query first.")
    try:
        hits = retrieve(ws, demo, text, k, settings)
        watch = watch_list(ws, text, hits, box, settings)
    except (ValueError, RuntimeError) as exc:
        raise user_error(exc) from exc
    documents = [doc for doc, _ in hits]
    lines = watch.lines
    indicator_texts = [indicator.text for indicator in indicators_from_lines(lines)]
    records_view = render_records(hits)
    overrides = knobs.overrides() if knobs is not None else {}
    try:
        config = ABackConfig.from_settings(settings, max_new_tokens=max_tokens, **overrides)
    except ValueError as exc:
        raise user_error(exc) from exc
    watched = config.watched(indicator_texts, text)
    judged = verdict_indicators(watched, watch.found, text)
    echoed = [indicator for indicator in indicator_texts if indicator not in judged]
    messages = rag_messages(text, documents)
    unwatched = f"Not watched, because your question names them: {', '.join(echoed)}. " if echoed else ""
    note = watch.note + unwatched
    stream, timeline, status = "", "", f"{note}Generating with ABack, watching {len(watched)} indicator(s)…"
    final = None

    verdicts: list[dict[str, Any]] = []  # for scripts: each answer's text and its leaks

    def view(answers: Sequence[str], message: str, first: bool = False, last: bool = False) -> tuple:
        choices = watch.type_choices if first else gr.skip()
        answers_html = join_answers(answers)
        result = (
            {"question": text, "records": list(watch.found.doc_ids), "watched": watched, "answers": verdicts}
            if last
            else gr.skip()
        )
        return (
            records_view,
            lines,
            stream,
            timeline,
            answers_html,
            status_html(message),
            watch.found,
            choices,
            result,
        )

    yield view([], status, first=True)
    for update in guarded_generate(
        messages, watched, config, settings=settings, stop_event=stop_event, question=text
    ):
        final = update
        stream, timeline = render_stream(update, config.mask), render_timeline(update.events, len(watched))
        yield view([], status)
    backtracks = len(final.events) if final else 0
    if final is not None and final.stopped:
        stopped = f"Stopped after {len(final.tokens)} token(s); {backtracks} backtrack(s). Baselines not run."
        verdicts.append(answer_verdict("aback", final.text, judged, backtracks))
        yield view([], note + stopped, last=True)
        return
    answers: list[str] = []  # rendered once per answer (one monitor each), re-joined for every update
    if final is not None:
        answers.append(render_answer("ABack (final answer)", final.text, judged, echoed))
        verdicts.append(answer_verdict("aback", final.text, judged, backtracks))
    generator = Generator(max_new_tokens=max_tokens, aback_config=config, settings=settings)
    for name in ["no_protection", *[c for c in chosen if c in DEFENCES and c != "aback"]]:
        defence = get_defence(name)
        status = f"{note}ABack done ({backtracks} backtrack(s)); running {defence.title}…"
        yield view(answers, status)
        result = defence.answer(text, documents, watched, generator)
        answers.append(render_answer(defence.title, result.text, judged, echoed))
        verdicts.append(answer_verdict(name, result.text, judged))
    status = f"{note}Done: ABack backtracked {backtracks} time(s); {len(answers) - 1} comparison answer(s)."
    yield view(answers, status, last=True)
