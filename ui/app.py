"""Assembles the studio: one `gr.Blocks` with the tab modules of `TAB_MODULES`, in order."""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import gradio as gr

from core.extract import get_extractor
from core.settings import Settings
from core.workspace import Workspace
from ui import messages
from ui.context import MESSAGE, StudioContext
from ui.render import vis_asset_dir

# One module per tab, in display order; each exposes `build(ctx: StudioContext) -> None`.
TAB_MODULES = ["ui.documents_tab", "ui.graph_tab", "ui.risk_tab", "ui.aback_tab", "ui.review_tab"]

CSS_PATH = Path(__file__).resolve().parents[1] / "assets" / "studio.css"
TITLE = "RAG Privacy Studio"


def tab_modules() -> list[ModuleType]:
    """The importable modules of TAB_MODULES (a tab whose module is absent is skipped)."""
    return [
        importlib.import_module(name) for name in TAB_MODULES if importlib.util.find_spec(name) is not None
    ]


def initial_workspace(settings: Settings) -> Workspace:
    """A new session's workspace: the sample corpus (documents only; extraction follows on load)."""
    workspace = Workspace()
    if settings.sample_corpus:
        workspace.load_sample()
    return workspace


def build_app(settings: Settings, repository: Any = None) -> gr.Blocks:
    """The whole studio; models load only when an action needs them (never at build time)."""
    if repository is None:
        from storage.repository import Repository

        Path(settings.db).expanduser().parent.mkdir(parents=True, exist_ok=True)
        repository = Repository(settings.db)
    gr.set_static_paths([str(vis_asset_dir())])
    with gr.Blocks(title=TITLE) as demo:
        gr.Markdown(f"# {TITLE}\nDefine private knowledge, see what other documents still reveal.")
        # A value, not a callable: gradio deep-copies it per session (a callable would add its own
        # load event, racing the first extraction below).
        state = gr.State(value=initial_workspace(settings))
        ctx = StudioContext(settings, repository, state)
        ctx.register(MESSAGE, gr.HTML(messages.status_html("Loading…"), elem_classes=["rps-message"]))
        with gr.Tabs():
            for module in tab_modules():
                module.build(ctx)
        ctx.finish()
        ctx.refresh(
            demo.load(
                _first_extraction(settings),
                [state],
                [state, ctx.get(MESSAGE)],
                api_visibility="private",
                show_progress="minimal",
            )
        )
    demo.studio_context = ctx  # type: ignore[attr-defined]
    # Gradio runs each event one call at a time by default, so one user's long extraction would
    # queue every other session's extraction behind it: serve several at once instead.
    demo.queue(default_concurrency_limit=max(1, settings.concurrency))
    return demo


def _first_extraction(settings: Settings) -> Any:
    """On page load: extract what is pending with spaCy (fast) so the sample graph is ready."""

    def extract_on_load(ws: Workspace) -> tuple[Workspace, str]:
        pending = ws.pending_sources()
        if not pending.documents and not pending.queries:
            return ws, messages.status_html(_ready_message(ws))
        try:
            ws.extract(get_extractor("spacy", settings))
        except (RuntimeError, ValueError, OSError) as exc:  # the page stays usable without the model
            return ws, messages.status_html(f"Could not extract triples on load: {exc}", "error")
        return ws, messages.status_html(_ready_message(ws))

    return extract_on_load


def _ready_message(ws: Workspace) -> str:
    return (
        f"{len(ws.corpus.documents)} document(s), {len(ws.corpus.queries)} query(ies), "
        f"{len(ws.triples)} triple(s). Mark triples private in the “Knowledge graph & privacy” tab."
    )


def launch_kwargs(settings: Settings) -> dict[str, Any]:
    """Arguments for `Blocks.launch` (Gradio 6 takes theme and css here)."""
    return {
        "server_name": settings.host,
        "server_port": settings.port,
        "theme": gr.themes.Soft(),
        "css_paths": [str(CSS_PATH)],
        "show_error": True,
        # scripts a tab needs on every page (e.g. the review tab's keyboard shortcuts)
        "head": "".join(getattr(module, "HEAD", "") for module in tab_modules()),
    }
