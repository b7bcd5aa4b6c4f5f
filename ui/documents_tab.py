"""Documents tab: upload or paste documents, extract triples, save/load/export/import."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gradio as gr

from core.documents import SUPPORTED_EXTENSIONS, BadRecords, InputError
from core.eraser4rag.workspace import Workspace
from core.extract import get_extractor
from ui.context import MESSAGE, StudioContext
from ui.jobs import PROCESS_THRESHOLD_CHARS, Cancellations, Cancelled, Estimate, ProcessExtractor
from ui.messages import status_html, triple_count
from ui.render import esc, html_list, html_table

EXTRACTORS = ("spacy", "llm", "relik")
PREVIEW_CHARS = 240
CANCELLATIONS = Cancellations()  # per browser session: the Cancel button stops that session's extraction
CANCELLED_TEXT = "Extraction cancelled."
ROWS_SHOWN = 300  # a 5 MB upload holds ~70,000 records: listing all would send ~12 MB per re-render


def build(ctx: StudioContext) -> None:
    with gr.Tab("Documents", id="documents"):
        with gr.Row():
            with gr.Column(scale=1):
                upload = ctx.register(
                    "upload",
                    gr.File(
                        label=f"Upload documents ({' '.join(SUPPORTED_EXTENSIONS)})",
                        file_count="multiple",
                        file_types=list(SUPPORTED_EXTENSIONS),
                        type="filepath",
                    ),
                )
                upload_errors = ctx.register("upload_errors", gr.HTML())
                # An upload into a workspace that holds documents asks first: add to them or replace them.
                with gr.Row(visible=False, elem_classes=["rps-confirm"]) as upload_choice:
                    upload_prompt = gr.HTML()
                    upload_merge = gr.Button("Add to them", variant="primary", scale=0, min_width=120)
                    upload_replace = gr.Button("Replace them", variant="stop", scale=0, min_width=120)
                    upload_cancel = gr.Button("Cancel", scale=0, min_width=100)
                ctx.register("upload_choice", upload_choice)
                ctx.register("upload_choice_prompt", upload_prompt)
                ctx.register("upload_merge", upload_merge)
                ctx.register("upload_replace", upload_replace)
                ctx.register("upload_cancel", upload_cancel)
                pending_upload = gr.State([])
                load_good = ctx.register(
                    "load_good_records", gr.Button("Load the good records", visible=False)
                )
            with gr.Column(scale=1):
                paste_title = ctx.register(
                    "paste_title", gr.Textbox(label="Title", placeholder="Pasted text")
                )
                paste_text = ctx.register("paste_text", gr.Textbox(label="Paste text", lines=5))
                add_text = ctx.register("add_text", gr.Button("Add text"))
        with gr.Row():
            extractor = ctx.register(
                "extractor",
                gr.Radio(list(EXTRACTORS), value=ctx.settings.extractor, label="Triple extractor"),
            )
            extract = ctx.register("extract", gr.Button("Extract triples", variant="primary"))
            cancel = ctx.register("cancel_extract", gr.Button("Cancel extraction"))
            load_sample = ctx.register("load_sample", gr.Button("Load sample corpus"))
            clear = ctx.register("clear_workspace", gr.Button("Clear workspace", variant="stop"))
        extract_progress = ctx.register("extract_progress", gr.HTML(elem_classes=["rps-progress"]))
        clear_confirm = ctx.confirmation("clear_workspace")
        with gr.Accordion("Save, load, export, import", open=False):
            with gr.Row():
                save_name = ctx.register("save_name", gr.Textbox(label="Workspace name", scale=2))
                save = ctx.register("save", gr.Button("Save", scale=1))
                saved = ctx.register(
                    "saved",
                    gr.Dropdown(label="Saved workspaces", choices=[], allow_custom_value=False, scale=2),
                )
                load = ctx.register("load", gr.Button("Load", scale=1))
            save_confirm = ctx.confirmation("save_workspace")
            # Sharing matters only with sign-in; without it the studio has one user.
            with gr.Row(visible=ctx.settings.auth):
                share_users = ctx.register(
                    "share_users",
                    gr.Textbox(label="Share the saved workspace with (user names, comma-separated)", scale=3),
                )
                share_public = ctx.register("share_public", gr.Checkbox(label="Public (every user)", scale=1))
                share = ctx.register("share", gr.Button("Apply sharing", scale=1))
            with gr.Row():
                export = ctx.register("export", gr.Button("Export JSON"))
                export_file = ctx.register("export_file", gr.File(label="Exported bundle", interactive=False))
                import_file = ctx.register(
                    "import_file", gr.File(label="Import JSON bundle", file_types=[".json"], type="filepath")
                )
            export_confirm = ctx.confirmation("export_json")
            # Loading or importing replaces the workspace in view: asked first when it holds work.
            load_confirm = ctx.confirmation("load_workspace")
            import_confirm = ctx.confirmation("import_json")
        summary = ctx.register("documents_summary", gr.HTML())
        documents = ctx.register("documents", gr.HTML())

    settings = ctx.settings
    repo_for = ctx.repository_for

    def on_upload(ws: Workspace, paths: list[str] | None) -> tuple[Any, ...]:
        paths = list(paths or [])
        if paths and (ws.corpus.documents or ws.corpus.queries):
            question = (
                f"{len(paths)} file(s) uploaded. This workspace already holds {len(ws.corpus.documents)} "
                f"document(s) and {len(ws.corpus.queries)} question(s): add the upload to them, or "
                f"replace them (their {len(ws.triples)} triple(s) and {len(ws.marked_private)} private "
                "mark(s) go too)?"
            )
            hidden = (gr.skip(), gr.skip())
            return ws, question, *hidden, paths, gr.Row(visible=True), status_html(question, "question")
        return (*add_uploaded(ws, paths), [], gr.Row(visible=False), "")

    def on_upload_merge(ws: Workspace, paths: list[str]) -> tuple[Any, ...]:
        if not paths:
            raise ValueError("no upload is waiting: upload the files again")
        return (*add_uploaded(ws, paths), [], gr.Row(visible=False), "")

    def on_upload_replace(ws: Workspace, paths: list[str]) -> tuple[Any, ...]:
        if not paths:
            raise ValueError("no upload is waiting: upload the files again")
        ws.clear()
        ws, message, *rest = add_uploaded(ws, paths)
        return (ws, "Replaced the workspace's documents. " + message, *rest, [], gr.Row(visible=False), "")

    def add_uploaded(ws: Workspace, paths: list[str]) -> tuple[Any, ...]:
        try:  # each file's size is checked before it is read; the temporary uploads go either way
            errors = ws.add_paths(paths, settings.max_upload_bytes)
        finally:
            remove_uploads(paths)
        items = paths
        loaded = len(items) - len(errors)
        message = f"Loaded {loaded} of {len(items)} file(s)." + (
            " Problems are listed below." if errors else ""
        )
        waiting = ws.held_back_records()
        if waiting:
            message += f" Press 'Load the {waiting} good record(s)' to load the rest of the refused file(s)."
        return ws, message, render_errors(errors), None

    def on_load_good(ws: Workspace) -> tuple[Any, ...]:
        files = ", ".join(ws.held_back)
        added = ws.load_held_back()
        return ws, f"Loaded the good records of {files}: {added} new document(s)/query(ies).", ""

    def on_add_text(ws: Workspace, title: str, text: str) -> tuple[Any, ...]:
        document = ws.add_text(text, title)
        return ws, f"Added document {document.title!r}.", ""

    def on_extract(
        ws: Workspace,
        name: str,
        request: gr.Request,
        progress: gr.Progress = gr.Progress(),  # noqa: B008
    ) -> tuple[Any, ...]:
        session = request.session_hash if request is not None else ""
        flag = CANCELLATIONS.start(session)
        estimate = Estimate(unit="source")  # Workspace.extract counts sources, whatever the backend counts
        pending = ws.pending_sources()
        progress((0, len(pending.documents) + len(pending.queries) or 1), desc=f"{name}: starting")

        def report(done: int, total: int) -> None:
            if flag.is_set():
                raise Cancelled
            progress((done, total), desc=f"{name}: {estimate.describe(done, total)}")

        before = len(ws.triples), len(pending.documents) + len(pending.queries)
        try:
            backend = extractor_for(name, pending, flag)
            added = ws.extract(backend, progress=report)
        except Cancelled:
            # The cancel button writes a note too; whichever of the two events lands last, the
            # progress area must still say the extraction was cancelled, and what it kept.
            left = ws.pending_sources()
            text = cancelled_text(
                len(ws.triples) - before[0], before[1] - len(left.documents) - len(left.queries), before[1]
            )
            return ws, text, cancelled_note(text)
        finally:
            CANCELLATIONS.finish(session, flag)
        done = f"{name}: {added} new triple(s); {triple_count(ws)} in total."
        return ws, done, f'<span class="rps-note">Extracted in {estimate.elapsed():.1f} s.</span>'

    def extractor_for(name: str, pending: Any, flag: Any) -> Any:
        """Long work goes to a worker process (other sessions keep the CPU; Cancel ends it at
        once); a little runs here, where a process's start-up would cost more than it saves."""
        size = sum(len(d.text) for d in pending.documents) + sum(len(q.text) for q in pending.queries)
        if size >= PROCESS_THRESHOLD_CHARS:
            return ProcessExtractor(name, settings, flag)
        return get_extractor(name, settings)

    def on_cancel(ws: Workspace, request: gr.Request) -> tuple[str, str]:
        running = CANCELLATIONS.cancel(request.session_hash if request is not None else "")
        if not running:
            text = "No extraction is running."
            return status_html(text), f'<span class="rps-note">{esc(text)}</span>'
        left = ws.pending_sources()
        text = (
            f"Extraction cancelled: the sources extracted so far are kept ({len(ws.triples)} triple(s) in "
            f"all); {len(left.documents) + len(left.queries)} source(s) not extracted yet (press Extract "
            "triples to do them)."
        )
        return status_html(text), cancelled_note(text)

    def on_load_sample(ws: Workspace) -> tuple[Any, ...]:
        added = ws.load_sample()
        return ws, f"Sample corpus: {added} new document(s)/query(ies). Extract triples next."

    def on_clear(ws: Workspace) -> tuple[Any, ...]:
        ws.clear()
        return ws, "Workspace cleared."

    def ask_clear(ws: Workspace) -> str | None:
        if not ws.corpus.documents and not ws.corpus.queries:
            return None
        return (
            f"Clear the workspace: {len(ws.corpus.documents)} document(s), {len(ws.triples)} triple(s) and "
            f"{len(ws.marked_private)} private mark(s) are dropped (saved workspaces stay)."
        )

    def who_sees(repo: Any, name: str) -> str:
        """Owner and sharing of a saved workspace, said only where there are several users."""
        return f" ({repo.sharing(name).describe()})" if settings.auth else ""

    def overwrite_question(ws: Workspace, name: str | None) -> str | None:
        """Asked before a save or export replaces a workspace other than the one loaded here."""
        target = (name or ws.name or "").strip()
        if not target or (target == ws.name and ws.saved_version is not None):
            return None
        if not ctx.repository.name_taken(target):
            return None
        return (
            f"A saved workspace named {target!r} already exists. Overwrite it? Its documents, triples "
            "and privacy definitions are replaced by this workspace's."
        )

    def on_save(ws: Workspace, name: str, request: gr.Request, overwrite: bool = False) -> tuple[Any, ...]:
        repo = repo_for(request)
        ws.save(repo, name, overwrite=overwrite)
        return ws, f"Saved as {ws.name!r}{who_sees(repo, ws.name)}.", saved_choices(repo, ws.name)

    def on_load(ws: Workspace, name: str | None, request: gr.Request) -> tuple[Any, ...]:
        if not name:
            raise ValueError("choose a saved workspace to load")
        repo = repo_for(request)
        ws.load(repo, name)
        return (
            ws,
            f"Loaded {name!r}{who_sees(repo, name)}: {len(ws.corpus.documents)} document(s), "
            f"{triple_count(ws)}.",
            name,
        )

    def on_share(ws: Workspace, users: str, public: bool, request: gr.Request) -> tuple[Any, ...]:
        if not ws.name:
            raise ValueError("save the workspace under a name first, then share it")
        sharing = repo_for(request).set_sharing(ws.name, users=users.split(","), public=bool(public))
        return ws, f"{ws.name!r}: {sharing.describe()}."

    def on_export(ws: Workspace, name: str, request: gr.Request, overwrite: bool = False) -> tuple[Any, ...]:
        repo = repo_for(request)
        name = (name or ws.name).strip()
        if not name:
            raise ValueError(
                "Type a name in 'Workspace name' first: Export saves the workspace under that name, "
                "then offers the JSON file to download."
            )
        ws.save(repo, name, overwrite=overwrite)
        folder = Path(tempfile.mkdtemp(prefix="rps-export-"))
        target = folder / f"{_safe_filename(name)}.json"
        target.write_text(repo.export_json(name), encoding="utf-8")
        return ws, f"Exported {name!r}.", str(target), saved_choices(repo, name)

    def on_import(ws: Workspace, path: str | None, request: gr.Request) -> tuple[Any, ...]:
        repo = repo_for(request)
        if not path:
            raise ValueError("choose a JSON bundle to import")
        stored = repo.import_json(
            Path(path).read_text(encoding="utf-8"), name=_unused_name(repo, Path(path).stem)
        )
        ws.load(repo, stored)
        return ws, f"Imported as {stored!r}.", saved_choices(repo, stored), None

    choice_outputs = [upload_errors, upload, pending_upload, upload_choice, upload_prompt]
    ctx.action(upload.upload, on_upload, [upload], choice_outputs, api_name="add_files")
    for button, handler, name in (
        (upload_merge, on_upload_merge, "add_files_merge"),
        (upload_replace, on_upload_replace, "add_files_replace"),
    ):
        ctx.action(button.click, handler, [pending_upload], choice_outputs, api_name=name)
    upload_cancel.click(
        lambda: ([], gr.Row(visible=False), "", status_html("Upload cancelled: nothing was added.")),
        [],
        [pending_upload, upload_choice, upload_prompt, ctx.get(MESSAGE)],
        api_visibility="private",
        show_progress="hidden",
    )
    ctx.action(load_good.click, on_load_good, [], [upload_errors], api_name="load_good_records")
    ctx.action(add_text.click, on_add_text, [paste_title, paste_text], [paste_text], api_name="add_text")
    extraction = ctx.action(
        extract.click,
        on_extract,
        [extractor],
        [extract_progress],
        api_name="extract",
        show_progress="full",
        show_progress_on=[extract_progress],
    )
    cancelling = cancel.click(
        on_cancel,
        [ctx.workspace_state],
        [ctx.get(MESSAGE), extract_progress],
        cancels=[extraction],
        api_name="cancel_extract",
        queue=False,
    )
    # the batches extracted before the Cancel are kept: show and save them
    ctx.shows_changes_of(cancelling)
    ctx.action(load_sample.click, on_load_sample, [], [], api_name="load_sample")
    ctx.confirmed_action(clear, clear_confirm, on_clear, ask=ask_clear, api_name="clear_workspace")
    ask = overwrite_question
    wire_overwrite_check(ctx, save, save_confirm, on_save, ask, [save_name], [saved], "save_workspace")
    wire_asking_first(
        ctx,
        load.click,
        load_confirm,
        on_load,
        replace_question("Loading"),
        [saved],
        [save_name],
        "load_workspace",
        "_confirmed",
    )
    ctx.action(share.click, on_share, [share_users, share_public], [], api_name="share_workspace")
    export_outputs = [export_file, saved]
    wire_overwrite_check(
        ctx, export, export_confirm, on_export, ask, [save_name], export_outputs, "export_json"
    )
    wire_asking_first(
        ctx,
        import_file.upload,
        import_confirm,
        on_import,
        replace_question("Importing"),
        [import_file],
        [saved, import_file],
        "import_json",
        "_confirmed",
    )

    ctx.add_view(lambda ws: (render_summary(ws), render_documents(ws)), [summary, documents])
    # The page's pick is an input: a re-render after "Load" asked first must not reset the pick
    # the confirmation then loads (it used to fall back to the name of the workspace in view).
    ctx.add_view(
        lambda ws, picked=None, user="local": saved_choices(ctx.repository.for_user(user), picked, ws.name),
        [saved],
        inputs=[saved, ctx.user_state] if ctx.user_state is not None else [saved],
    )
    ctx.add_view(render_load_good, [load_good])


def render_load_good(ws: Workspace) -> Any:
    waiting = ws.held_back_records()
    return gr.Button(value=f"Load the {waiting} good record(s)", visible=waiting > 0)


def saved_choices(repo: Any, *preferred: str | None) -> Any:
    """The workspaces this user may load, another owner's labelled with that owner; selected: the
    first of `preferred` that is still among them."""
    summaries = repo.list_corpora()
    user = getattr(repo, "user", None)
    choices = [
        (s.name if user is None or s.owner == user else f"{s.name} (shared by {s.owner})", s.name)
        for s in summaries
    ]
    names = {s.name for s in summaries}
    selected = next((name for name in preferred if name in names), None)
    return gr.Dropdown(choices=choices, value=selected)


def _safe_filename(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name) or "workspace"


def _unused_name(repo: Any, stem: str) -> str:
    """`stem`, or `stem-2`, `stem-3`, ...: the first name nobody has taken (names are unique in the
    database, including other users' workspaces this user cannot see)."""
    name, counter = stem or "imported", 2
    while repo.name_taken(name):
        name = f"{stem}-{counter}"
        counter += 1
    return name


def render_errors(errors: list[InputError]) -> str:
    if not errors:
        return ""
    items = []
    for error in errors:
        if isinstance(error, BadRecords):
            waiting = f"; its {error.good_records} good record(s) can be loaded" if error.good_records else ""
            items.append(
                f"<b>{esc(error.file)}</b>: {len(error.errors)} problem(s) in "
                f"{error.total_records - error.good_records} of {error.total_records} record(s){esc(waiting)}"
            )
            items.extend(_error_item(e) for e in error.errors)
        else:
            items.append(_error_item(error))
    return '<div class="rps-errors">' + html_list(items, "", "rps-error-list") + "</div>"


def _error_item(error: InputError) -> str:
    line = f", line {error.line}" if error.line else ""
    return f"<b>{esc(error.file)}</b>{line}: {esc(error.message)}"


def render_summary(ws: Workspace) -> str:
    pending = ws.pending_sources()
    waiting = len(pending.documents) + len(pending.queries)
    parts = [
        f"<b>{len(ws.corpus.documents)}</b> document(s)",
        f"<b>{len(ws.corpus.queries)}</b> query(ies)",
        f"<b>{len(ws.triples)}</b> triple(s)",
    ]
    if waiting:
        parts.append(f"<b>{waiting}</b> not extracted yet")
    empty = sum(1 for doc in ws.corpus.documents if not doc.text.strip())
    if empty:
        parts.append(f"<b>{empty}</b> empty passage(s), never extracted")
    if ws.name:
        parts.append(f"saved as <b>{esc(ws.name)}</b>")
    return '<div class="rps-summary">' + " · ".join(parts) + "</div>"


def render_documents(ws: Workspace) -> str:
    counts: dict[str, int] = {}
    for triple in ws.triples:
        counts[triple.doc_id] = counts.get(triple.doc_id, 0) + 1
    doc_rows = [
        (
            f"<b>{esc(doc.title or doc.id)}</b><br><code>{esc(doc.id)}</code>",
            esc(doc.source),
            _triple_count(ws, doc.id, doc.text, counts),
            f'<span class="rps-preview">{esc(_preview(doc.text))}</span>'
            if doc.text.strip()
            else '<span class="rps-empty">(empty passage)</span>',
        )
        for doc in ws.corpus.documents[:ROWS_SHOWN]
    ]
    query_rows = [
        (
            f"{esc(query.text)}<br><code>{esc(query.id)}</code>",
            esc(", ".join(query.answers)),
            esc(", ".join(query.doc_ids)),
            str(counts.get(query.id, 0)) if query.id in ws.extracted_ids else "–",
        )
        for query in ws.corpus.queries[:ROWS_SHOWN]
    ]
    html = "<h3>Documents</h3>"
    html += (
        html_table(["Document", "Source", "Triples", "Text"], doc_rows) + _more(len(ws.corpus.documents))
        if doc_rows
        else '<p class="rps-empty">No documents yet: upload files, paste text or load the sample corpus.</p>'
    )
    if query_rows:
        html += (
            "<h3>Queries</h3>"
            + html_table(["Query", "Answers", "Retrieved documents", "Triples"], query_rows)
            + _more(len(ws.corpus.queries))
        )
    return html


def _more(total: int) -> str:
    hidden = total - ROWS_SHOWN
    if hidden <= 0:
        return ""
    return f'<p class="rps-empty">… and {hidden:,} more (the first {ROWS_SHOWN} are listed).</p>'


def _triple_count(ws: Workspace, doc_id: str, text: str, counts: dict[str, int]) -> str:
    if not text.strip():
        return "empty"
    return str(counts.get(doc_id, 0)) if doc_id in ws.extracted_ids else "–"


def _preview(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= PREVIEW_CHARS else text[: PREVIEW_CHARS - 1] + "…"


def wire_overwrite_check(
    ctx: Any,
    button: Any,
    confirmation: Any,
    handler: Callable[..., tuple[Any, ...]],
    question: Callable[[Workspace, str | None], str | None],
    inputs: list[Any],
    outputs: list[Any],
    api_name: str,
) -> None:
    """`button` saves at once unless `question` has something to ask (the name is another saved
    workspace); then only the confirmation's yes button saves, and only it may overwrite.
    Endpoints: `<api_name>` (asks first) and `<api_name>_overwrite`."""
    wire_asking_first(
        ctx,
        button.click,
        confirmation,
        handler,
        question,
        inputs,
        outputs,
        api_name,
        "_overwrite",
        overwrite=True,
    )


def replace_question(verb: str) -> Callable[[Workspace, Any], str | None]:
    """The question asked before `verb` ("Loading", "Importing") a saved workspace replaces the one in
    view; None when that holds nothing to lose."""

    def ask(ws: Workspace, _chosen: Any) -> str | None:
        if not ws.corpus.documents and not ws.corpus.queries:
            return None
        held = (
            f"{len(ws.corpus.documents)} document(s), {len(ws.corpus.queries)} question(s), "
            f"{triple_count(ws)} and {len(ws.marked_private)} private mark(s)"
        )
        named = f", last saved as {ws.name!r}" if ws.name else ", never saved under a name"
        return (
            f"{verb} replaces the workspace in view ({held}{named}). To keep it, cancel and save it under "
            "a name first (Save); to replace it, confirm."
        )

    return ask


def wire_asking_first(
    ctx: Any,
    trigger: Callable[..., Any],
    confirmation: Any,
    handler: Callable[..., tuple[Any, ...]],
    question: Callable[[Workspace, Any], str | None],
    inputs: list[Any],
    outputs: list[Any],
    api_name: str,
    confirmed_suffix: str,
    **confirmed_options: Any,
) -> None:
    """`trigger` runs `handler(ws, value, request)` unless `question(ws, value)` asks something; then the
    confirmation row shows the question and its yes button runs `handler(..., **confirmed_options)`."""
    shown = [confirmation.row, confirmation.prompt]

    def ask_first(ws: Workspace, value: Any, request: gr.Request) -> tuple[Any, ...]:
        asked = question(ws, value)
        if asked is None:
            return (*handler(ws, value, request), gr.Row(visible=False), "")
        skipped = [gr.skip() for _ in outputs]
        prompt = status_html(asked, "question")
        return (ws, f"{asked} Confirm or cancel below.", *skipped, gr.Row(visible=True), prompt)

    def confirmed(ws: Workspace, value: Any, request: gr.Request) -> tuple[Any, ...]:
        return (*handler(ws, value, request, **confirmed_options), gr.Row(visible=False), "")

    ctx.action(trigger, ask_first, inputs, [*outputs, *shown], api_name=api_name)
    ctx.action(
        confirmation.yes.click,
        confirmed,
        inputs,
        [*outputs, *shown],
        api_name=f"{api_name}{confirmed_suffix}",
    )
    confirmation.no.click(
        lambda: (gr.Row(visible=False), ""), [], shown, api_visibility="private", show_progress="hidden"
    )


def remove_uploads(paths: list[str]) -> None:
    """Delete Gradio's temporary copies of uploaded files once read: nothing of them stays on disk."""
    for path in map(Path, paths):
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)


def cancelled_text(triples: int, sources_done: int, sources: int) -> str:
    """What a cancelled extraction kept, and what to do next."""
    left = sources - sources_done
    return (
        f"Extraction cancelled: kept {triples} new triple(s) from {sources_done} of {sources} source(s); "
        f"{left} not extracted yet (press Extract triples to do them)."
    )


def cancelled_note(text: str = CANCELLED_TEXT) -> str:
    return f'<span class="rps-note">{esc(text)}</span>'
