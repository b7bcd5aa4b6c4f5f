"""Review tab: people accept, edit or reject candidate rewrites, one at a time (Eraser4RAG 3.1.1).

Original and candidate side by side (removed words struck through in the original, private
spans highlighted, inserted words marked in the candidate), the automatic scores, and the
buttons with their keyboard shortcuts (a accept, e edit then Ctrl+Enter save, r reject,
u undo, s skip). A decision is saved with who made it and how long the item was shown, and
the next item follows. Views: pending, filtered-out, disagreed; overlap mode shows items
another annotator already reviewed, and the progress table shows Cohen's kappa per pair.
The store is `storage.annotation_store.AnnotationStore` (opened from `--annotation-db`).
"""

from __future__ import annotations

import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import gradio as gr
import pandas as pd

from core.eraser4rag.annotation.agreement import cohen_kappa
from core.eraser4rag.annotation.export import trainable, write_jsonl
from core.eraser4rag.annotation.run import make_source, run_candidates, tasks_from_workspace
from core.eraser4rag.erasers import ERASER_NAMES
from core.eraser4rag.erasers.base import edits_between
from core.eraser4rag.training.grpo import GrpoSettings, train_grpo
from core.eraser4rag.training.jobs import BackgroundJobs
from core.eraser4rag.training.ppo import PpoSettings, train_ppo
from core.eraser4rag.training.sft import SftSettings, train_sft
from core.eraser4rag.training.tagger import EPOCHS, TaggerSettings, train_tagger, windows_from_examples
from core.eraser4rag.workspace import scope_of
from core.extract import get_extractor
from ui.context import StudioContext, user_error
from ui.messages import quoted, status_html
from ui.render import Layer, esc, html_table, layered_text

VIEWS = ["pending", "filtered-out", "disagreed", "all"]
SHORTCUTS = "Keys: **a** accept · **e** edit (Ctrl+Enter saves) · **r** reject · **u** undo · **s** skip"

HEAD = """<script>
document.addEventListener('keydown', (event) => {
  const accept = document.querySelector('#rps-review_accept');
  if (!accept || accept.offsetParent === null) return;  // the review tab is not shown
  const click = (name) => { event.preventDefault(); document.querySelector('#rps-review_' + name).click(); };
  const target = event.target;
  if (target.closest && target.closest('#rps-review_edit')) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) click('save_edit');
    if (event.key === 'Escape') target.blur();
    return;
  }
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.isContentEditable) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === 'e') {
    event.preventDefault();
    document.querySelector('#rps-review_edit textarea').focus();
    return;
  }
  const names = {a: 'accept', r: 'reject', u: 'undo', s: 'skip'};
  if (names[event.key]) click(names[event.key]);
});
</script>"""


ANNOTATOR_STORAGE_KEY = "rps-annotator"
BROWSER_STATES = {ANNOTATOR_STORAGE_KEY: ""}  # kept in the browser (`StudioContext.remember_in_browser`)


def build(ctx: StudioContext) -> None:
    store = _Store(ctx.settings.annotation_store_url, ctx.settings.review_words_per_minute)
    with gr.Tab("Review rewrites", id="review"):
        gr.Markdown("Review candidate rewrites for training the eraser4rag rewriter. " + SHORTCUTS)
        with gr.Row():
            annotator = ctx.register("review_annotator", gr.Textbox(label="Annotator", max_lines=1, scale=2))
            # The annotator's name lasts over a reload: kept in this browser's localStorage.
            remembered = ctx.browser_state(ANNOTATOR_STORAGE_KEY)
            view = ctx.register("review_view", gr.Radio(VIEWS, value="pending", label="Show", scale=3))
            overlap = ctx.register(
                "review_overlap", gr.Checkbox(label="Overlap mode (two people review the same items)")
            )
            load = ctx.register("review_load", gr.Button("Start / refresh", scale=1))
        status = ctx.register("review_status", gr.HTML(""))
        diff = ctx.register("review_diff", gr.HTML(""))
        scores = ctx.register("review_scores", gr.HTML(""))
        edit = ctx.register("review_edit", gr.Textbox(label="Candidate (edit, then Ctrl+Enter)", lines=5))
        with gr.Row():
            accept = ctx.register("review_accept", gr.Button("Accept (a)", variant="primary"))
            save_edit = ctx.register("review_save_edit", gr.Button("Save edit (Ctrl+Enter)"))
            reject = ctx.register("review_reject", gr.Button("Reject (r)", variant="stop"))
            undo = ctx.register("review_undo", gr.Button("Undo (u)"))
            skip = ctx.register("review_skip", gr.Button("Skip (s)"))
        progress = ctx.register("review_progress", gr.HTML(""))
        shown = gr.State(value=None)  # {"candidate": id, "at": monotonic seconds, "version": int}
        with gr.Accordion("Add items from this workspace · export training data", open=False):
            gr.Markdown(
                "Make review items from every privacy definition of this workspace (Knowledge graph tab): "
                "the question in view, every other question with private marks and the whole corpus's "
                "marks, one task per passage holding a private triple, with a candidate rewrite from the "
                "chosen eraser (or the chat model), scored like the CLI's `annotate candidates`."
            )
            with gr.Row():
                source = ctx.register(
                    "review_source",
                    gr.Dropdown(
                        [("chat model", "model"), *[(name, name) for name in ERASER_NAMES]],
                        value="graph-guided",
                        label="Candidates from",
                    ),
                )
                generate = ctx.register("review_generate", gr.Button("Make items and candidates"))
                export_sft = ctx.register("review_export_sft", gr.Button("Export SFT data (accepted items)"))
            export_file = ctx.register("review_export_file", gr.File(label="SFT JSONL", interactive=False))
        with gr.Accordion("Train the rewriter on accepted items", open=False):
            gr.Markdown(
                "On every accepted item whose text reads (the fluency checker drops the rest): the "
                "deletion tagger, eraser4rag's shipped form (a head over the embedded model; give its "
                "folder as the rewriter adapter), or SFT (TRL SFTTrainer + LoRA) of the whole-rewrite "
                "form, then RL from that adapter. Runs in the background; the curve is read from the "
                "store, so it survives a reload."
            )
            with gr.Row():
                train_kind = ctx.register(
                    "train_kind",
                    gr.Radio(
                        [
                            ("Deletion tagger", "tagger"),
                            ("SFT", "sft"),
                            ("RL: PPO", "rl"),
                            ("RL: GRPO", "grpo"),
                        ],
                        value="tagger",
                        label="Stage",
                    ),
                )
                train_out = ctx.register(
                    "train_out", gr.Textbox(label="Adapter folder to write", max_lines=1)
                )
                train_sft_dir = ctx.register(
                    "train_sft_dir", gr.Textbox(label="SFT adapter (RL only)", max_lines=1)
                )
                train_steps = ctx.register(
                    "train_steps", gr.Number(label="Max steps / iterations (0 = full)", value=0, precision=0)
                )
            with gr.Row():
                train_start = ctx.register("train_start", gr.Button("Start training"))
                train_cancel = ctx.register("train_cancel", gr.Button("Cancel", variant="stop"))
            train_status = ctx.register("train_status", gr.HTML(""))
            train_curve = ctx.register(
                "train_curve", gr.LinePlot(x="step", y="value", color="metric", label="Latest run")
            )
            timer = gr.Timer(2.0)

    inputs = [annotator, view, overlap, shown]
    outputs = [status, diff, scores, edit, progress, shown]

    def wire(trigger: Any, handler: Any, extra: list[Any], name: str) -> None:
        trigger(
            _signed_in(_errors(handler), len(extra)),
            inputs=inputs + extra,
            outputs=outputs,
            api_name=name,
            show_progress="hidden",
        )

    wire(load.click, lambda a, v, o, s: store.show(a, v, o), [], "review_show")
    wire(accept.click, lambda a, v, o, s: store.decide(a, v, o, s, "accept", ""), [], "review_accept")
    wire(reject.click, lambda a, v, o, s: store.decide(a, v, o, s, "reject", ""), [], "review_reject")
    wire(
        save_edit.click,
        lambda a, v, o, s, text: store.decide(a, v, o, s, "edit", text),
        [edit],
        "review_edit",
    )
    wire(undo.click, lambda a, v, o, s: store.undo(a, v, o), [], "review_undo")
    wire(
        skip.click,
        lambda a, v, o, s: store.show(a, v, o, after=(s or {}).get("candidate")),
        [],
        "review_skip",
    )
    wire(annotator.submit, lambda a, v, o, s: store.show(a, v, o), [], "review_annotator")
    annotator.change(
        lambda name: (name or "").strip(),
        [annotator],
        [remembered],
        api_visibility="private",
        show_progress="hidden",
        queue=False,
    )
    page = gr.context.Context.root_block
    if page is not None:
        page.load(  # a name typed before the load ended is kept when none was remembered
            lambda name: name if isinstance(name, str) and name else gr.skip(),
            [remembered],
            [annotator],
            api_visibility="private",
            show_progress="hidden",
            queue=False,
        )
    wire(view.change, lambda a, v, o, s: store.show(a, v, o) if a.strip() else _empty(""), [], "review_view")
    wire(
        overlap.change,
        lambda a, v, o, s: store.show(a, v, o) if a.strip() else _empty(""),
        [],
        "review_overlap",
    )

    def on_generate(ws: Any, name: str) -> tuple[Any, ...]:
        note = store.add_from_workspace(ws, name or "graph-guided", ctx.settings)
        return status_html(note), store.progress_html()

    def on_export() -> tuple[Any, ...]:
        path, count = store.export_sft()
        if not count:
            raise ValueError("no accepted item yet: accept or edit candidates above, then export")
        return status_html(f"Exported {count} accepted example(s) as SFT JSONL (prompt/completion)."), path

    generate.click(
        _errors(on_generate), [ctx.workspace_state, source], [status, progress], api_name="review_generate"
    )
    export_sft.click(_errors(on_export), [], [status, export_file], api_name="review_export_sft")

    trainer = _Trainer(ctx.settings, store)
    train_outputs = [train_status, train_curve]
    train_start.click(
        _errors(trainer.start),
        [train_kind, train_out, train_sft_dir, train_steps],
        train_outputs,
        api_name="train_start",
        show_progress="hidden",
    )
    train_cancel.click(
        _errors(trainer.cancel), [], train_outputs, api_name="train_cancel", show_progress="hidden"
    )
    timer.tick(trainer.latest, [], train_outputs, api_visibility="private", show_progress="hidden")


def _errors(handler: Any) -> Any:
    """Bad input as an escaped error toast, logged as one line like every tab's (`user_error`).

    The review tab's handlers neither read nor change the workspace (they work on the annotation
    store), so they are wired without `ctx.action`: no autosave and no view refresh follow them."""

    def wrapped(*args: Any) -> Any:
        try:
            return handler(*args)
        except (RuntimeError, ValueError) as exc:
            raise user_error(str(exc), getattr(handler, "__name__", "review")) from exc

    return wrapped


def _signed_in(handler: Any, extra: int) -> Any:
    """With the studio's sign-in on, the signed-in user is the annotator (the name box is ignored).

    Gradio passes `gr.Request` to a parameter annotated with it, found by position: hence one
    wrapper per input count.
    """

    def user(annotator: str, request: gr.Request | None) -> str:
        return getattr(request, "username", None) or annotator

    if extra:

        def with_text(
            annotator: str, view: str, overlap: bool, shown: Any, text: str, request: gr.Request
        ) -> Any:
            return handler(user(annotator, request), view, overlap, shown, text)

        return with_text

    def plain(annotator: str, view: str, overlap: bool, shown: Any, request: gr.Request) -> Any:
        return handler(user(annotator, request), view, overlap, shown)

    return plain


def _empty(message: str) -> tuple[Any, ...]:
    return status_html(message), "", "", "", "", None


class _Store:
    """The store opened on first use (the tab builds without touching the database)."""

    def __init__(self, url: str, words_per_minute: int = 400) -> None:
        self.url = url
        self.words_per_minute = words_per_minute
        self._store: Any = None

    @property
    def store(self) -> Any:
        if self._store is None:
            # SQLAlchemy and alembic (~1 s) load when the review store is first used, not at start-up
            from storage.annotation_store import AnnotationStore

            self._store = AnnotationStore(self.url)
            self._store.fail_interrupted_runs()  # runs of a studio that was killed: failed, with the reason
        return self._store

    def add_from_workspace(self, ws: Any, source_name: str, settings: Any) -> str:
        """Tasks from the workspace's marks and a candidate per task; a note saying what landed."""
        tasks = tasks_from_workspace(ws, f"studio:{ws.name or 'session'}")
        if not tasks:
            raise ValueError(
                "nothing is private in this workspace: mark triples private in the Knowledge graph tab first"
            )
        ids = self.store.add_tasks(tasks)
        withdrawn = self.store.withdraw_superseded(tasks[0].batch, ids)
        stored = [replace(task, id=task_id) for task, task_id in zip(tasks, ids, strict=True)]
        evaluator = get_extractor(settings.eval_extractor or settings.extractor, settings)
        report = run_candidates(self.store, stored, make_source(source_name, settings), evaluator, settings)
        failed = f"; {len(report.failed)} failed ({report.failed[0]})" if report.failed else ""
        definitions = "; ".join(dict.fromkeys(_definition_shown(ws, task.definition) for task in tasks))
        return (
            f"{len(tasks)} task(s) from this workspace ({definitions}); {report.stored} candidate(s) from "
            f"{source_name} "
            f"stored, {report.passed} passed the automatic filter{failed}. "
            + (
                f"{withdrawn} item(s) made from earlier marks of the same passages, which nobody had "
                "reviewed, were withdrawn. "
                if withdrawn
                else ""
            )
            + "Type your name and press Start to review."
        )

    def export_sft(self) -> tuple[str | None, int]:
        examples = self.store.accepted_pairs()
        if not examples:
            return None, 0
        target = Path(tempfile.mkdtemp(prefix="rps-sft-")) / "sft.jsonl"
        return str(target), write_jsonl(target, examples)

    def show(
        self, annotator: str, view: str, overlap: bool, after: int | None = None, note: str = ""
    ) -> tuple:
        item = self.store.next_item(annotator, view, overlap, after)
        if item is None and after is not None:
            item = self.store.next_item(annotator, view, overlap)
        return self._render(annotator, item, note, view)

    def decide(
        self, annotator: str, view: str, overlap: bool, shown: dict | None, decision: str, text: str
    ) -> tuple:
        if not shown:
            raise ValueError("no item is shown: press Start first")
        seconds = time.monotonic() - shown["at"]
        # the version this page showed: a decision made meanwhile in another tab is not overwritten
        version = shown.get("version")
        self.store.review(shown["candidate"], annotator, decision, text, seconds, expected_version=version)
        note = f"Saved: {decision} (candidate {shown['candidate']})."
        warning = too_fast(seconds, int(shown.get("words", 0)), self.words_per_minute)
        return self.show(annotator, view, overlap, note=f"{note} {warning}".strip())

    def undo(self, annotator: str, view: str, overlap: bool) -> tuple:
        undone = self.store.undo_last_review(annotator)
        if undone is None:
            return self.show(annotator, view, overlap, note="Nothing to undo.")
        candidate = undone.candidate_id
        item = self.store.item(candidate, view, annotator, overlap)
        note = f"Undone: candidate {candidate} is pending again."
        if undone.decision == "edit" and undone.edited_text:
            note += " Your edited text is back in the box: change it and save, or decide again."
        shown = self._render(annotator, item, note, view)
        if undone.decision == "edit" and undone.edited_text:  # the item as it was before: with the edit
            return (*shown[:3], undone.edited_text, *shown[4:])
        return shown

    def _render(self, annotator: str, item: Any, note: str, view: str) -> tuple:
        progress = self.progress_html()
        if item is None:
            hint = empty_hint(view, self.store.counts())
            return (
                status_html(f"{note} Nothing left in “{view}” for {quoted(annotator)}. {hint}".strip()),
                "",
                "",
                "",
                progress,
                None,
            )
        c = item.candidate
        status = f"{note} {item.remaining} item(s) left in “{view}”. Task {item.task.id}, candidate {c.id}."
        words = len(item.task.text.split()) + len(c.text.split())
        shown = {"candidate": c.id, "at": time.monotonic(), "version": item.version, "words": words}
        return (
            status_html(status.strip()),
            diff_html(item.task.text, c.text, item.task.private_spans) + private_list_html(item.task),
            scores_html(item, annotator),
            c.text,
            progress,
            shown,
        )

    def progress_html(self) -> str:
        """Each annotator's counts, then Cohen's kappa of every pair that shares items."""
        rows = self.store.progress()
        if not rows:
            return ""
        table = html_table(
            ["annotator", "reviewed", "accepted", "edited", "rejected", "s per item"],
            [
                [
                    esc(p.annotator),
                    *map(str, (p.reviewed, p.accepted, p.edited, p.rejected)),
                    f"{p.mean_seconds:.1f}",
                ]
                for p in rows
            ],
        )
        names = [p.annotator for p in rows]
        agreements = []
        for i, first in enumerate(names):
            for second in names[i + 1 :]:
                agreement = cohen_kappa(self.store.decision_pairs(first, second))
                if agreement.items:
                    kappa = "undefined" if agreement.kappa is None else f"{agreement.kappa:.2f}"
                    agreements.append(
                        f"<p>Agreement {esc(first)} / {esc(second)}: {agreement.items} shared item(s), "
                        f"Cohen's kappa {kappa}</p>"
                    )
        return table + "".join(agreements)


def empty_hint(view: str, counts: dict[str, int]) -> str:
    """What to do when a view is empty."""
    if not counts.get("candidates"):
        return (
            "The store has no candidate yet: mark triples private in the Knowledge graph tab, then use "
            "“Add items from this workspace” below (or `python -m core.cli annotate tasks`)."
        )
    if view == "pending":
        return (
            "Everything the automatic filter passed is reviewed: look at *filtered-out* (the items it "
            "excluded), *disagreed* or *all*, or add items from this workspace."
        )
    return "Choose another view, or add items from this workspace."


def too_fast(seconds: float, words: int, words_per_minute: int) -> str:
    """A warning when `seconds` is shorter than reading `words` at `words_per_minute` ("" otherwise)."""
    if words_per_minute <= 0 or words <= 0:
        return ""
    needed = words * 60.0 / words_per_minute
    if seconds >= needed:
        return ""
    return (
        f"Warning: decided in {seconds:.1f} s, but reading its {words} words at {words_per_minute} "
        f"words/min takes {needed:.0f} s. Read the original and the candidate before deciding "
        "(setting review_words_per_minute)."
    )


def private_list_html(task: Any) -> str:
    """The task's private triples, named, under the diff (their sentences are highlighted above)."""
    if not task.private:
        return '<p class="rps-note">No private triple in this passage.</p>'
    spans = {(o[0], o[1], o[2]): (o[3], o[4]) for o in task.occurrences}
    items = "".join(
        f"<li>{esc(head)} —{esc(relation)}→ {esc(tail)}"
        + (f": “{esc(task.text[slice(*spans[key])].strip())}”" if key in spans else "")
        + "</li>"
        for key in task.private
        for head, relation, tail in [key]
    )
    return (
        '<div id="rps-review_private" class="rps-note"><b>Private triples</b> (their sentences are '
        f'<span class="rps-private">highlighted</span> in the original): <ul>{items}</ul></div>'
    )


def scores_html(item: Any, annotator: str = "") -> str:
    c = item.candidate

    def fmt(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.2f}"

    verdict = "passed" if c.passed_filter else "<b>filtered out</b>"
    # Blind review: others' decisions stay hidden until this annotator's own is recorded.
    decided = any(name == annotator for name, _ in item.reviews)
    if decided or not item.reviews:
        reviews = ", ".join(f"{esc(name)}: {esc(decision)}" for name, decision in item.reviews) or "none yet"
    else:
        reviews = f"{len(item.reviews)} other(s), hidden until you decide"
    leaked = len(c.leaked)
    return (
        f"r_pri {fmt(c.r_pri)} · r_pub {fmt(c.r_pub)} · leak check {leaked} of {len(item.task.private)} "
        f"private triple(s) still named · automatic filter: {verdict} · source {esc(c.source)} · "
        f"reviews: {reviews}"
    )


def diff_html(original: str, candidate: str, private_spans: tuple[tuple[int, int], ...]) -> str:
    """Two escaped columns: the original with removed text struck and private spans highlighted,
    the candidate with inserted text marked."""
    edits = edits_between(original, candidate)
    removed = [e.original_span for e in edits if e.kind in ("removed", "replaced")]
    inserted = [e.rewrite_span for e in edits if e.kind in ("inserted", "replaced")]
    left = layered_text(
        original, _layers([(s, "rps-private") for s in private_spans] + [(s, "rps-removed") for s in removed])
    )
    right = layered_text(candidate, _layers([(s, "rps-inserted") for s in inserted]))
    style = (
        "<style>.rps-private{background:#ffd8a8}.rps-removed{text-decoration:line-through;color:#c92a2a}"
        ".rps-inserted{background:#d3f9d8}.rps-review-col{white-space:pre-wrap;flex:1;padding:8px;"
        "border:1px solid #ddd;border-radius:6px}</style>"
    )
    return (
        f"{style}<div style='display:flex;gap:12px'><div class='rps-review-col' id='rps-review_original'>"
        f"<b>Original</b><br>{left}</div><div class='rps-review-col' id='rps-review_candidate'>"
        f"<b>Candidate</b><br>{right}</div></div>"
    )


def _layers(spans: list[tuple[tuple[int, int], str]]) -> list[Layer]:
    return [Layer(span, css_class) for span, css_class in spans if span[0] < span[1]]


NO_TRAINABLE_ITEMS = "no accepted item whose text reads: accept or edit some candidates first"


class _Trainer:
    """Background training runs started from the tab; their state lives in the store."""

    def __init__(self, settings: Any, store: _Store) -> None:
        self.settings = settings
        self.store = store
        self.jobs = BackgroundJobs()

    def start(self, kind: str, out: str, sft_dir: str, steps: float | None) -> tuple:
        if not out.strip():
            raise ValueError("give the adapter folder to write")
        limit = int(steps or 0)
        folder = Path(out.strip()).expanduser()
        store = self.store.store
        if kind == "tagger":
            self._start_tagger(folder, limit)
        elif kind == "sft":
            examples = trainable(store.accepted_pairs())
            if not examples:
                raise ValueError(NO_TRAINABLE_ITEMS)
            config = SftSettings(
                model=self.settings.rewriter_model,
                cache_dir=self.settings.cache_dir,
                max_steps=limit if limit > 0 else -1,
            )
            self.jobs.start(
                store,
                "sft",
                config,
                len(examples),
                folder,
                lambda hooks: train_sft(examples, folder, config, hooks),
            )
        else:
            self._start_rl(kind, folder, sft_dir.strip(), limit)
        return self.latest()

    def _start_tagger(self, folder: Path, limit: int) -> None:
        """The deletion tagger on the accepted items (`limit`: the head's epochs, 0 = the default)."""
        store = self.store.store
        rows = windows_from_examples(store.accepted_pairs())
        if len(rows) < 2:
            raise ValueError(f"{NO_TRAINABLE_ITEMS} (the tagger needs at least 2; {len(rows)} now)")
        config = TaggerSettings(
            model=self.settings.rewriter_model, cache_dir=self.settings.cache_dir, epochs=limit or EPOCHS
        )
        train = lambda hooks: train_tagger(rows, folder, config, hooks)  # noqa: E731
        self.jobs.start(store, "tagger", config, len(rows), folder, train)

    def _start_rl(self, method: str, folder: Any, sft_dir: str, limit: int) -> None:
        """PPO (`rl`, the compact loop) or GRPO (`grpo`, TRL's GRPOTrainer); both runs are kind "rl"."""
        store = self.store.store
        tasks = [e.task for e in store.accepted_examples()] or store.tasks()
        common: dict[str, Any] = {
            "sft_adapter": sft_dir,
            "model": self.settings.rewriter_model,
            "cache_dir": self.settings.cache_dir,
        }
        common.update({"iterations": limit} if limit > 0 else {})
        evaluator = get_extractor(self.settings.eval_extractor or self.settings.extractor, self.settings)
        config: Any = GrpoSettings(**common) if method == "grpo" else PpoSettings(**common)
        train_rl_method: Any = train_grpo if method == "grpo" else train_ppo

        def train(hooks: Any) -> Any:
            return train_rl_method(tasks, folder, config, evaluator, hooks)

        self.jobs.start(store, "rl", config, len(tasks), folder, train)

    def cancel(self) -> tuple:
        runs = self.store.store.runs(limit=1)
        if runs and runs[0].status == "running" and self.jobs.cancel(runs[0].id):
            return status_html(f"Cancelling run {runs[0].id} after its current step."), self.latest()[1]
        return status_html("No run of this studio is running."), self.latest()[1]

    def latest(self) -> tuple:
        runs = self.store.store.runs(limit=1)
        if not runs:  # an empty plot draws "NaN" axes: hide it until there is a point
            return (
                status_html(
                    "No training run yet: accept or edit candidates above, then press Start training."
                ),
                gr.LinePlot(value=_no_points(), visible=False),
            )
        run = runs[0]
        metric = "reward" if run.kind == "rl" else "loss"
        rows = [
            {"step": p["step"], "value": p[metric], "metric": metric}
            for p in run.curve
            if p.get(metric) is not None
        ]
        status = (
            f"Run {run.id} ({run.kind}): {run.status}, {len(run.curve)} point(s). "
            f"{run.message} {run.artefact_dir}"
        )
        if not rows:
            status += " The curve appears with the first logged point."
        return status_html(status), gr.LinePlot(
            value=pd.DataFrame(rows) if rows else _no_points(), visible=bool(rows)
        )


def _no_points() -> Any:
    return pd.DataFrame(
        {
            "step": pd.Series([], dtype=float),
            "value": pd.Series([], dtype=float),
            "metric": pd.Series([], dtype=str),
        }
    )


def _definition_shown(ws: Any, definition: str) -> str:
    """A task's privacy definition as people name it: the whole corpus, or the question's text."""
    scope = scope_of(definition)
    if not scope:
        return "whole corpus"
    query = next((q for q in ws.corpus.queries if q.id == scope), None)
    return f"question {query.text!r}" if query is not None else f"question {scope}"
