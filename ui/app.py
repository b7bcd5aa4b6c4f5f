"""Assembles the studio: one `gr.Blocks` with the tab modules of `TAB_MODULES`, in order."""

from __future__ import annotations

import html
import importlib
import importlib.util
import logging
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import gradio as gr
from starlette.middleware import Middleware

from core.eraser4rag.workspace import Workspace
from core.extract import get_extractor
from core.settings import Settings
from core.throttle import SignInThrottle
from ui import messages
from ui.context import MESSAGE, StudioContext
from ui.http_limits import CLIENT_ADDRESS, BodyLimit, RecordClientAddress
from ui.messages import triple_count
from ui.render import vis_asset_dir
from ui.sessions import (
    BROWSER_STATE_SECRET,
    BROWSER_STORAGE_KEY,
    LOCAL_USER,
    Autosaver,
    session_key,
    user_of,
    valid_browser_id,
)

log = logging.getLogger("rps")
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}

# One module per tab, in display order; each exposes `build(ctx: StudioContext) -> None`.
TAB_MODULES = [
    "ui.documents_tab",
    "ui.graph_tab",
    "ui.risk_tab",
    "ui.rewrite_tab",
    "ui.aback_tab",
    "ui.review_tab",
    "ui.settings_tab",
]

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
        # SQLAlchemy and alembic (~1 s) load here, not when ui.app is imported (tests give their own store)
        from storage.repository import Repository

        repository = Repository(settings.db)  # a SQLite path (its folder is created) or a database URL
    gr.set_static_paths([str(vis_asset_dir())])
    notice = shared_address_notice(settings)
    if notice:
        log.warning(notice)
    autosaver = Autosaver(repository)
    with gr.Blocks(title=TITLE) as demo:
        gr.Markdown(f"# {TITLE}\nDefine private knowledge, see what other documents still reveal.")
        # A value, not a callable: gradio deep-copies it per session (a callable would add its own
        # load event, racing the first extraction below).
        state = gr.State(value=initial_workspace(settings))
        browser_id = gr.BrowserState(None, storage_key=BROWSER_STORAGE_KEY, secret=BROWSER_STATE_SECRET)
        ctx = StudioContext(
            settings,
            repository,
            state,
            # With sign-in, nobody until the page load names the user (an API call never does).
            user_state=gr.State("" if settings.auth else LOCAL_USER),
            session_state=gr.State(""),
            autosaver=autosaver,
        )
        ctx.register("session_info", gr.HTML(_session_info(LOCAL_USER, settings, notice)))
        ctx.register(
            MESSAGE,
            gr.HTML(messages.status_html("Loading…", tab=messages.ANY_TAB), elem_classes=["rps-message"]),
        )
        modules = tab_modules()
        for module in modules:
            for storage_key, default in getattr(module, "BROWSER_STATES", {}).items():
                ctx.remember_in_browser(storage_key, default)
        with gr.Tabs():
            for module in modules:
                module.build(ctx)
        ctx.finish()
        # An action taken before this load ended had no session to be saved in: save once more now.
        ctx.autosave_after(
            ctx.refresh(
                demo.load(
                    _open_session(settings, autosaver, notice),
                    [state, browser_id],
                    [
                        state,
                        ctx.get(MESSAGE),
                        browser_id,
                        ctx.session_state,
                        ctx.user_state,
                        ctx.get("session_info"),
                    ],
                    api_visibility="private",
                    show_progress="minimal",
                )
            )
        )
    demo.studio_context = ctx  # type: ignore[attr-defined]
    # Gradio runs each event one call at a time by default, so one user's long extraction would
    # queue every other session's extraction behind it: serve several at once instead.
    demo.queue(default_concurrency_limit=max(1, settings.concurrency))
    return demo


def shared_address_notice(settings: Settings) -> str:
    """Why the studio is not safe to share as started ("" when it is)."""
    if settings.auth or settings.host in LOOPBACK_HOSTS:
        return ""
    return (
        f"Single-user mode: the studio serves {settings.host}:{settings.port} without sign-in, so everyone "
        "who can reach it acts as the same user and sees every saved workspace. To share it, add users "
        "(python -m core.cli users add NAME) and start with --auth true."
    )


def _session_info(user: str, settings: Settings, notice: str) -> str:
    if settings.auth and user != LOCAL_USER:
        return (
            f'<div class="rps-session">Signed in as <b>{html.escape(user)}</b> · '
            '<a href="/logout">Sign out</a> · your work is saved automatically</div>'
        )
    text = "Your work is saved automatically in this browser."
    if notice:
        return f'<div class="rps-session rps-warning" role="alert">{html.escape(notice)}</div>'
    return f'<div class="rps-session">{text}</div>'


def _open_session(settings: Settings, autosaver: Autosaver, notice: str) -> Any:
    """On page load: restore this browser's (or user's) autosaved workspace, else start from the
    sample corpus and extract it with spaCy (fast) so the sample graph is ready."""
    extract_on_load = _first_extraction(settings)

    def open_session(ws: Workspace, stored_id: Any, request: gr.Request) -> tuple[Any, ...]:
        user = user_of(request)
        browser = valid_browser_id(stored_id)
        key = session_key(user, browser)
        info = _session_info(user, settings, notice)
        try:
            restored = autosaver.restore(ws, key, user)
        except (RuntimeError, ValueError, OSError) as exc:
            log.warning("could not restore session %s: %s", key[:20], exc)
            restored = False
        if restored:
            message = messages.status_html(
                "Restored your workspace. " + _ready_message(ws), tab=messages.ANY_TAB
            )
            return ws, message, browser, key, user, info
        ws, message = extract_on_load(ws)
        return ws, message, browser, key, user, info

    return open_session


def _first_extraction(settings: Settings) -> Any:
    """On page load: extract what is pending with spaCy (fast) so the sample graph is ready."""

    def extract_on_load(ws: Workspace) -> tuple[Workspace, str]:
        pending = ws.pending_sources()
        if not pending.documents and not pending.queries:
            return ws, messages.status_html(_ready_message(ws), tab=messages.ANY_TAB)
        try:
            ws.extract(get_extractor("spacy", settings))
        except (RuntimeError, ValueError, OSError) as exc:  # the page stays usable without the model
            return ws, messages.status_html(
                f"Could not extract triples on load: {exc}", "error", messages.ANY_TAB
            )
        return ws, messages.status_html(_ready_message(ws), tab=messages.ANY_TAB)

    return extract_on_load


def _ready_message(ws: Workspace) -> str:
    return (
        f"{len(ws.corpus.documents)} document(s), {len(ws.corpus.queries)} query(ies), "
        f"{triple_count(ws)}. Mark triples private in the “Knowledge graph & privacy” tab."
    )


def _sign_in_checker(repository: Any, throttle: SignInThrottle | None = None) -> Any:
    """Gradio awaits a coroutine in its login route; bcrypt's deliberate ~0.3 s runs in a worker
    thread so a sign-in (or a guessing script) never stalls the server's event loop. After
    FREE_FAILURES failures for one user name or from one address, each attempt waits out an
    exponential back-off (refused without checking the password) and is logged."""
    throttle = throttle or SignInThrottle()

    async def check(username: str, password: str) -> bool:
        address = CLIENT_ADDRESS.get()
        wait = throttle.wait_s(username, address)
        if wait > 0:
            log.warning("sign-in refused for %r from %s: throttled for %.1f s more", username, address, wait)
            return False
        if await anyio.to_thread.run_sync(repository.verify_user, username, password):
            throttle.succeeded(username, address)
            return True
        failures = throttle.failed(username, address)
        log.warning("failed sign-in for %r from %s (%d in a row)", username, address, failures)
        return False

    return check


def launch_kwargs(settings: Settings, repository: Any = None) -> dict[str, Any]:
    """Arguments for `Blocks.launch` (Gradio 6 takes theme and css here); with `settings.auth`,
    sign-in against the users in `repository`."""
    kwargs: dict[str, Any] = {
        "server_name": settings.host,
        "server_port": settings.port,
        "theme": gr.themes.Soft(),
        "css_paths": [str(CSS_PATH)],
        "show_error": True,
        # scripts a tab needs on every page (e.g. the review tab's keyboard shortcuts)
        "head": "".join(getattr(module, "HEAD", "") for module in tab_modules()),
        # one setting bounds uploads (Gradio, per file) and every other request body (BodyLimit)
        "max_file_size": settings.max_upload_bytes,
        "app_kwargs": {
            "middleware": [
                Middleware(RecordClientAddress),
                Middleware(BodyLimit, max_bytes=settings.max_upload_bytes),
            ]
        },
    }
    if settings.auth:
        if repository is None or not repository.list_users():
            raise ValueError(
                "sign-in is on (--auth true) but the database has no users: add one with "
                "`python -m core.cli users add NAME`"
            )
        kwargs["auth"] = _sign_in_checker(repository)
        kwargs["auth_message"] = f"{TITLE}: sign in with the account your administrator created."
    return kwargs
