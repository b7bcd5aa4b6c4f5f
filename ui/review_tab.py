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

import html
import time
from typing import Any

import gradio as gr

from core.annotation.agreement import cohen_kappa
from core.erasers.base import edits_between
from ui.context import StudioContext

VIEWS = ["pending", "filtered-out", "disagreed", "all"]
SHORTCUTS = "Keys: **a** accept · **e** edit (Ctrl+Enter saves) · **r** reject · **u** undo · **s** skip"

HEAD = """<script>
document.addEventListener('keydown', (event) => {
  const accept = document.querySelector('#rps-review-accept');
  if (!accept || accept.offsetParent === null) return;  // the review tab is not shown
  const click = (name) => { event.preventDefault(); document.querySelector('#rps-review-' + name).click(); };
  const target = event.target;
  if (target.closest && target.closest('#rps-review-edit')) {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) click('save-edit');
    if (event.key === 'Escape') target.blur();
    return;
  }
  if (['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || target.isContentEditable) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === 'e') {
    event.preventDefault();
    document.querySelector('#rps-review-edit textarea').focus();
    return;
  }
  const names = {a: 'accept', r: 'reject', u: 'undo', s: 'skip'};
  if (names[event.key]) click(names[event.key]);
});
</script>"""


def build(ctx: StudioContext) -> None:
    store = _Store(ctx.settings.annotation_store_url)
    with gr.Tab("Review rewrites", id="review"):
        gr.Markdown("Review candidate rewrites for training the eraser4rag rewriter. " + SHORTCUTS)
        with gr.Row():
            annotator = ctx.register("review-annotator", gr.Textbox(label="Annotator", max_lines=1, scale=2))
            view = ctx.register("review-view", gr.Radio(VIEWS, value="pending", label="Show", scale=3))
            overlap = ctx.register(
                "review-overlap", gr.Checkbox(label="Overlap mode (two people review the same items)")
            )
            load = ctx.register("review-load", gr.Button("Start / refresh", scale=1))
        status = ctx.register("review-status", gr.Markdown(""))
        diff = ctx.register("review-diff", gr.HTML(""))
        scores = ctx.register("review-scores", gr.Markdown(""))
        edit = ctx.register("review-edit", gr.Textbox(label="Candidate (edit, then Ctrl+Enter)", lines=5))
        with gr.Row():
            accept = ctx.register("review-accept", gr.Button("Accept (a)", variant="primary"))
            save_edit = ctx.register("review-save-edit", gr.Button("Save edit (Ctrl+Enter)"))
            reject = ctx.register("review-reject", gr.Button("Reject (r)", variant="stop"))
            undo = ctx.register("review-undo", gr.Button("Undo (u)"))
            skip = ctx.register("review-skip", gr.Button("Skip (s)"))
        progress = ctx.register("review-progress", gr.Markdown(""))
        shown = gr.State(value=None)  # {"candidate": id, "at": monotonic seconds}

    inputs = [annotator, view, overlap, shown]
    outputs = [status, diff, scores, edit, progress, shown]

    def wire(trigger: Any, handler: Any, extra: list[Any], name: str) -> None:
        trigger(
            _errors(handler), inputs=inputs + extra, outputs=outputs, api_name=name, show_progress="hidden"
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
    wire(view.change, lambda a, v, o, s: store.show(a, v, o) if a.strip() else _empty(""), [], "review_view")
    wire(
        overlap.change,
        lambda a, v, o, s: store.show(a, v, o) if a.strip() else _empty(""),
        [],
        "review_overlap",
    )


def _errors(handler: Any) -> Any:
    def wrapped(*args: Any) -> Any:
        try:
            return handler(*args)
        except (RuntimeError, ValueError) as exc:
            raise gr.Error(html.escape(str(exc))) from exc

    return wrapped


def _empty(message: str) -> tuple[Any, ...]:
    return message, "", "", "", "", None


class _Store:
    """The store opened on first use (the tab builds without touching the database)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._store: Any = None

    @property
    def store(self) -> Any:
        if self._store is None:
            from storage.annotation_store import AnnotationStore

            self._store = AnnotationStore(self.url)
        return self._store

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
        self.store.review(shown["candidate"], annotator, decision, text, seconds)
        return self.show(
            annotator, view, overlap, note=f"Saved: {decision} (candidate {shown['candidate']})."
        )

    def undo(self, annotator: str, view: str, overlap: bool) -> tuple:
        candidate = self.store.undo_last(annotator)
        if candidate is None:
            return self.show(annotator, view, overlap, note="Nothing to undo.")
        item = self.store.item(candidate, view, annotator, overlap)
        return self._render(annotator, item, f"Undone: candidate {candidate} is pending again.", view)

    def _render(self, annotator: str, item: Any, note: str, view: str) -> tuple:
        progress = self._progress()
        if item is None:
            return (
                f"{html.escape(note)} Nothing left in *{view}* for {html.escape(annotator)}.",
                "",
                "",
                "",
                progress,
                None,
            )
        c = item.candidate
        status = (
            f"{html.escape(note)} {item.remaining} item(s) left in *{view}*. "
            f"Task {item.task.id}, candidate {c.id}."
        )
        shown = {"candidate": c.id, "at": time.monotonic()}
        return (
            status,
            diff_html(item.task.text, c.text, item.task.private_spans),
            scores_markdown(item),
            c.text,
            progress,
            shown,
        )

    def _progress(self) -> str:
        rows = self.store.progress()
        if not rows:
            return ""
        lines = [
            "| annotator | reviewed | accepted | edited | rejected | s per item |",
            "|---|---|---|---|---|---|",
        ]
        lines += [
            f"| {_md(p.annotator)} | {p.reviewed} | {p.accepted} | {p.edited} | {p.rejected} | "
            f"{p.mean_seconds:.1f} |"
            for p in rows
        ]
        names = [p.annotator for p in rows]
        for i, first in enumerate(names):
            for second in names[i + 1 :]:
                agreement = cohen_kappa(self.store.decision_pairs(first, second))
                if agreement.items:
                    kappa = "undefined" if agreement.kappa is None else f"{agreement.kappa:.2f}"
                    lines.append(
                        f"\nAgreement {_md(first)} / {_md(second)}: {agreement.items} shared item(s), "
                        f"Cohen's kappa {kappa}"
                    )
        return "\n".join(lines)


def _md(text: str) -> str:
    """User text inside Markdown: HTML-escaped and Markdown punctuation neutralised."""
    escaped = html.escape(text)
    return "".join("\\" + ch if ch in "\\`*_{}[]()#+-.!|<>~" else ch for ch in escaped)


def scores_markdown(item: Any) -> str:
    c = item.candidate

    def fmt(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.2f}"

    verdict = "passed" if c.passed_filter else "**filtered out**"
    reviews = ", ".join(f"{_md(name)}: {decision}" for name, decision in item.reviews) or "none yet"
    leaked = len(c.leaked)
    return (
        f"r_pri {fmt(c.r_pri)} · r_pub {fmt(c.r_pub)} · leak check {leaked} of {len(item.task.private)} "
        f"private triple(s) still named · automatic filter: {verdict} · source {_md(c.source)} · "
        f"reviews: {reviews}"
    )


def diff_html(original: str, candidate: str, private_spans: tuple[tuple[int, int], ...]) -> str:
    """Two escaped columns: the original with removed text struck and private spans highlighted,
    the candidate with inserted text marked."""
    edits = edits_between(original, candidate)
    removed = [e.original_span for e in edits if e.kind in ("removed", "replaced")]
    inserted = [e.rewrite_span for e in edits if e.kind in ("inserted", "replaced")]
    left = _marked(
        original, [(s, "rps-private") for s in private_spans] + [(s, "rps-removed") for s in removed]
    )
    right = _marked(candidate, [(s, "rps-inserted") for s in inserted])
    style = (
        "<style>.rps-private{background:#ffd8a8}.rps-removed{text-decoration:line-through;color:#c92a2a}"
        ".rps-inserted{background:#d3f9d8}.rps-review-col{white-space:pre-wrap;flex:1;padding:8px;"
        "border:1px solid #ddd;border-radius:6px}</style>"
    )
    return (
        f"{style}<div style='display:flex;gap:12px'><div class='rps-review-col' id='rps-review-original'>"
        f"<b>Original</b><br>{left}</div><div class='rps-review-col' id='rps-review-candidate'>"
        f"<b>Candidate</b><br>{right}</div></div>"
    )


def _marked(text: str, spans: list[tuple[tuple[int, int], str]]) -> str:
    """`text` escaped, each character wrapped in the classes of the spans covering it."""
    classes: list[set[str]] = [set() for _ in text]
    for (start, end), name in spans:
        for i in range(max(0, start), min(len(text), end)):
            classes[i].add(name)
    pieces: list[str] = []
    run_start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or classes[i] != classes[run_start]:
            chunk = html.escape(text[run_start:i])
            names = " ".join(sorted(classes[run_start]))
            pieces.append(f"<span class='{names}'>{chunk}</span>" if names else chunk)
            run_start = i
    return "".join(pieces)
