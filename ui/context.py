"""The tab convention: one `StudioContext` shared by every tab module.

Each tab module (`ui/documents_tab.py`, `ui/graph_tab.py`, ...) exposes

    def build(ctx: StudioContext) -> None

and is listed in `ui.app.TAB_MODULES`. `build` opens its own `gr.Tab(...)`, creates its
components, registers the ones other tabs or tests need with `ctx.register(name, comp)`
(which gives them the stable DOM id `rps-<name>`), and wires its events:

- `ctx.workspace_state` is the per-session `gr.State` holding a `core.eraser4rag.workspace.Workspace`.
- An action that changes the workspace is wired with `ctx.action(...)`: the handler takes
  `(workspace, *inputs)` and returns `(workspace, message, *outputs)`; `message` is plain text
  (user strings included) that `ui.messages.status_html` escapes for the status line. A
  `ValueError`/`KeyError` it raises is shown as an escaped error toast and nothing is lost.
  Every action gets a named API endpoint (`api_name=`) so scripts and tests can call it.
- Every message the user reads (status line, toasts) is built by `ui.messages`: never put a
  user string into a `gr.Markdown`, a toast or HTML yourself.
- After every action the workspace is autosaved for the browser session (`ui.sessions`),
  from this one place: tabs never save on their own. A handler that needs the user asks
  `ctx.repository_for(request)` (a `request: gr.Request` parameter) for the store as that
  user sees it.
- A view that shows workspace contents is declared with `ctx.add_view(render, outputs)`:
  `render(workspace)` returns one value per output. After every action (and on page load)
  all views of all tabs are re-rendered, so a tab never needs to know which other tab
  changed the workspace.

`ctx.finish()` is called once by `ui.app.build_app` after all tabs are built.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import gradio as gr
from gradio.components import Component

from core.eraser4rag.workspace import Workspace
from core.settings import Settings
from ui import api, messages
from ui.page_scripts import (
    MESSAGE,
    RECORD_SHOWN_ROWS_JS,
    SETTLE,
    SETTLE_JS,
    elem_id,
    is_repeated_click,
    show_tab_message_js,
    shown_row_js,
    stamp_js,
    tab_messages_js,
)
from ui.sessions import Autosaver, user_of
from ui.view_clock import ViewClock, fresh_only

log = logging.getLogger("rps.ui")

# Every view render runs in this one queue, so renders start in the order the page sent them.
VIEWS_CONCURRENCY_ID = "rps-views"
STAMP = "view_stamp"  # the registered hidden number that orders view renders (`ViewClock`)

Render = Callable[[Workspace], Any]


def tab_of(component: Any) -> str:
    """The id of the `gr.Tab` holding `component` ("" outside every tab)."""
    block = component
    while block is not None:
        if isinstance(block, gr.Tab):
            return str(block.id if block.id is not None else block.label)
        block = getattr(block, "parent", None)
    return ""


@dataclass
class _View:
    render: Render
    outputs: list[Component]
    inputs: list[Component]


@dataclass
class StudioContext:
    settings: Settings
    repository: Any  # storage.repository.Repository (kept untyped so ui imports no SQLAlchemy)
    workspace_state: gr.State
    # The signed-in user (or "local") and the autosave key of this browser session, set on page load.
    user_state: gr.State | None = None
    session_state: gr.State | None = None
    autosaver: Autosaver | None = None
    components: dict[str, Component] = field(default_factory=dict)
    clock: ViewClock = field(default_factory=ViewClock)
    # Values kept in the browser's localStorage, by storage key (`remember_in_browser`).
    browser_states: dict[str, Any] = field(default_factory=dict)
    _views: list[_View] = field(default_factory=list)
    _changing_events: list[Any] = field(default_factory=list)
    _finished: bool = False

    def register(self, name: str, component: Component) -> Component:
        """Name a component so other tabs and tests find it; its DOM id becomes `rps-<name>`."""
        if name in self.components:
            raise ValueError(f"component name {name!r} is already registered")
        if getattr(component, "elem_id", None) is None:
            component.elem_id = elem_id(name)
        self.components[name] = component
        if name == MESSAGE:  # the status line's place in the layout: the hidden parts go with it
            self._result()
            self._stamp()
            self.register(SETTLE, gr.Button("Show the newest views", visible="hidden"))
        return component

    def remember_in_browser(self, storage_key: str, default: Any) -> Any:
        """A `gr.BrowserState` placed here in the layout; call it at the page's top level, before
        the tabs: a BrowserState inside a tab reads the browser's storage only once that tab is
        first shown, too late for the page load that restores what it keeps."""
        state = gr.BrowserState(default, storage_key=storage_key)
        self.browser_states[storage_key] = state
        return state

    def browser_state(self, storage_key: str) -> Any:
        """The BrowserState `remember_in_browser` made for `storage_key` (a tab module lists its keys
        and defaults in `BROWSER_STATES`)."""
        try:
            return self.browser_states[storage_key]
        except KeyError:
            raise KeyError(
                f"no BrowserState for {storage_key!r}: list it in the tab module's BROWSER_STATES"
            ) from None

    def keep_over_reload(
        self, component: Component, storage_key: str, restored: Callable[[Any], Any | None]
    ) -> None:
        """`component`'s value as the user last set it is kept in this browser (the BrowserState of
        `storage_key`, listed in the tab module's `BROWSER_STATES` with the default None) and set again
        on page load: `restored(stored)` gives the value to set, None to leave the component as built
        (nothing stored, or a choice this build no longer has)."""
        state = self.browser_state(storage_key)
        component.input(
            lambda value: value,
            [component],
            [state],
            api_visibility="private",
            show_progress="hidden",
            queue=False,
        )

        def restore(stored: Any) -> Any:
            value = restored(stored) if stored is not None else None
            return gr.skip() if value is None else value

        page = gr.context.Context.root_block
        if page is not None:
            page.load(
                restore, [state], [component], api_visibility="private", show_progress="hidden", queue=False
            )

    def repository_for(self, request: gr.Request | None) -> Any:
        """The store as the request's user sees it (their own, shared and public workspaces)."""
        return self.repository.for_user(user_of(request))

    def get(self, name: str) -> Component:
        try:
            return self.components[name]
        except KeyError:
            known = ", ".join(sorted(self.components))
            raise KeyError(f"no component registered as {name!r} (registered: {known})") from None

    def add_view(
        self, render: Render, outputs: Sequence[Component], inputs: Sequence[Component] = ()
    ) -> None:
        """A view re-rendered after every action and on page load.

        render(workspace, *inputs) returns one value per output (a bare value for one output);
        `inputs` are view options such as filters, read when the view is re-rendered.
        """
        self._views.append(_View(render, list(outputs), list(inputs)))

    def action(
        self,
        trigger: Callable[..., Any],
        handler: Callable[..., tuple[Any, ...]],
        inputs: Sequence[Component] = (),
        outputs: Sequence[Component] = (),
        *,
        api_name: str,
        show_progress: str = "minimal",
        **event_options: Any,
    ) -> Any:
        """Wire `trigger` (e.g. `button.click`) to a workspace-changing handler.

        handler(workspace, *inputs) -> (workspace, message, *outputs); the plain-text message
        is escaped into the status line (None leaves the line as it is). `event_options` go to the
        event (`concurrency_limit`, `api_visibility`, ...).
        """
        event = trigger(
            _user_errors(handler, tab_of(getattr(trigger, "__self__", None))),
            inputs=[self.workspace_state, *inputs],
            outputs=[self.workspace_state, self.get(MESSAGE), *outputs, self._result()],
            api_name=api_name,
            show_progress=show_progress,
            **event_options,
        )
        self._changing_events.append(event)
        return event

    def shows_changes_of(self, event: Any) -> None:
        """Re-render every view and autosave after `event` (not wired by `action`), once all tabs
        are built: a refresh wired earlier would miss the views of the tabs built after it."""
        self._changing_events.append(event)

    def row_action(
        self,
        table: Any,
        name: str,
        shown: Component,
        handler: Callable[..., tuple[Any, ...]],
        *,
        api_name: str,
    ) -> Any:
        """Wire a click on a row of `table` (registered as `name`) to an action that names its target
        by the row as the page showed it: handler(workspace, shown_row_json, evt: gr.SelectData);
        `shown` is a hidden Textbox placed in the table's tab that carries the row. Every click is
        sent (none dropped while an earlier one is pending) and marking clicks run one at a time.
        A double-click acts once: its second press changes nothing (`shown_row_js`)."""

        @functools.wraps(handler)  # gradio reads the signature (gr.SelectData)
        def once_per_double_click(ws: Workspace, shown: str, *rest: Any, **named: Any) -> tuple[Any, ...]:
            if is_repeated_click(shown):
                return ws, None  # the first click's message stays on the line
            return handler(ws, shown, *rest, **named)

        return self.action(
            table.select,
            once_per_double_click,
            [shown],
            [],
            api_name=api_name,
            js=shown_row_js(name, 2),
            trigger_mode="multiple",
            concurrency_id="rps-row-clicks",
            concurrency_limit=1,
        )

    def _result(self) -> Component:
        """The hidden JSON every action also writes (`ui.api.action_result`), for scripts."""
        if api.RESULT not in self.components:
            self.register(api.RESULT, gr.JSON(visible=False, label="result"))
        return self.components[api.RESULT]

    def confirmation(self, name: str) -> Confirmation:
        """A hidden "are you sure?" row, placed where it is called in the layout; wire it with
        `confirmed_action`. Its parts are registered as `confirm_<name>` (+ `_yes`, `_no`)."""
        with gr.Row(visible=False, elem_classes=["rps-confirm"]) as row:
            prompt = gr.HTML()
            yes = gr.Button("Yes, do it", variant="stop", scale=0, min_width=120)
            no = gr.Button("Cancel", scale=0, min_width=100)
        self.register(f"confirm_{name}", row)
        self.register(f"confirm_{name}_prompt", prompt)
        self.register(f"confirm_{name}_yes", yes)
        self.register(f"confirm_{name}_no", no)
        return Confirmation(row, prompt, yes, no)

    def confirmed_action(
        self,
        button: Any,
        confirmation: Confirmation,
        handler: Callable[..., tuple[Any, ...]],
        inputs: Sequence[Component] = (),
        outputs: Sequence[Component] = (),
        *,
        ask: Callable[..., str | None],
        api_name: str,
    ) -> None:
        """`button` runs `handler` at once when `ask(workspace, *inputs)` is None; otherwise it only
        shows the question `ask` returned, and the confirmation's yes button runs the handler.
        Endpoints: `<api_name>` (asks first) and `<api_name>_confirmed` (runs at once)."""
        shown = [confirmation.row, confirmation.prompt]
        skipped = [gr.skip() for _ in outputs]

        def ask_first(ws: Workspace, *values: Any) -> tuple[Any, ...]:
            question = ask(ws, *values)
            if question is None:
                return (*handler(ws, *values), gr.Row(visible=False), "")
            prompt = messages.status_html(question, "question")
            return (ws, f"{question} Confirm or cancel below.", *skipped, gr.Row(visible=True), prompt)

        def run_confirmed(ws: Workspace, *values: Any) -> tuple[Any, ...]:
            return (*handler(ws, *values), gr.Row(visible=False), "")

        self.action(button.click, ask_first, inputs, [*outputs, *shown], api_name=api_name)
        confirmed = f"{api_name}_confirmed"
        self.action(confirmation.yes.click, run_confirmed, inputs, [*outputs, *shown], api_name=confirmed)
        confirmation.no.click(
            lambda: (gr.Row(visible=False), ""), [], shown, api_visibility="private", show_progress="hidden"
        )

    def render_all(self, workspace: Workspace, *view_inputs: Any) -> list[Any]:
        """Every view's values, in `view_outputs()` order; `view_inputs` in `view_inputs()` order."""
        values: list[Any] = []
        position = 0
        for view in self._views:
            own_inputs = view_inputs[position : position + len(view.inputs)]
            position += len(view.inputs)
            rendered = view.render(workspace, *own_inputs)
            values.extend([rendered] if len(view.outputs) == 1 else rendered)
        return values

    def view_outputs(self) -> list[Component]:
        return [comp for view in self._views for comp in view.outputs]

    def view_inputs(self) -> list[Component]:
        return [comp for view in self._views for comp in view.inputs]

    def _stamp(self) -> Component:
        """The hidden number every view render carries as its first input (see `ViewClock`)."""
        if STAMP not in self.components:
            self.register(STAMP, gr.Number(value=0, visible=False))
        return self.components[STAMP]

    def refresh(self, event: Any) -> Any:
        """Chain a re-render of all views after `event` (an event listener's dependency); only after
        `finish`, when every view exists (before it, use `shows_changes_of`)."""
        if not self._finished:
            raise RuntimeError("refresh before finish() would leave out the views of later tabs")
        outputs = self.view_outputs()
        inputs = [self._stamp(), self.workspace_state, *self.view_inputs()]
        render = event.then(
            fresh_only(self.clock, self.render_all, outputs, inputs[1:]),
            inputs=inputs,
            outputs=outputs,
            js=stamp_js(len(inputs)),
            api_visibility="private",
            show_progress="hidden",
            # Every render runs: with gradio's default ("once") a render asked for while an earlier
            # one of the same event was still pending in the page was dropped, and the view kept
            # showing an older state. ViewClock orders the renders.
            trigger_mode="multiple",
            concurrency_id=VIEWS_CONCURRENCY_ID,
            concurrency_limit=self.settings.concurrency or None,
        )
        self._settle_after(render)
        return render

    def _settle_after(self, render: Any) -> None:
        render.then(None, js=SETTLE_JS, api_visibility="private", show_progress="hidden", queue=False)

    def view_event(
        self,
        trigger: Callable[..., Any],
        render: Callable[..., Any],
        inputs: Sequence[Component],
        outputs: Sequence[Component],
        selected: bool = False,
    ) -> Any:
        """Re-render some views on `trigger` (a filter change, a row click that only changes a view);
        an update older than another render of the same component is dropped (`ViewClock`)."""
        stamped_inputs = [self._stamp(), *inputs]
        changed = None if selected else getattr(trigger, "__self__", None)  # `component.change` -> component
        # A row click's focus is not counted: the settling render would draw the view unfocused.
        event = trigger(
            fresh_only(self.clock, render, outputs, inputs, selected=selected, changed=changed),
            inputs=stamped_inputs,
            outputs=list(outputs),
            js=stamp_js(len(stamped_inputs), counted=not selected),
            api_visibility="private",
            show_progress="hidden",
            # Every render runs: with gradio's default ("once") a render asked for while an earlier
            # one of the same event was still pending in the page was dropped, and the view kept
            # showing an older state. ViewClock orders the renders.
            trigger_mode="multiple",
            concurrency_id=VIEWS_CONCURRENCY_ID,
            concurrency_limit=self.settings.concurrency or None,
        )
        if not selected:
            self._settle_after(event)
        return event

    def finish(self) -> None:
        """Re-render every view and autosave after every action; call once after all tabs are built."""
        api.build(self)
        self._finished = True
        page = gr.context.Context.root_block
        if page is not None:
            page.load(None, js=RECORD_SHOWN_ROWS_JS, api_visibility="private", show_progress="hidden")
            self._own_tab_messages(page)
        if self._views and SETTLE in self.components:
            settle = self.components[SETTLE].click(
                None, js="() => {}", api_visibility="private", show_progress="hidden", queue=False
            )
            self.refresh(settle)
        for event in self._changing_events:
            if self._views:
                self.refresh(event)
            self.autosave_after(event)

    def _own_tab_messages(self, page: Any) -> None:
        """The status line shows only the selected tab's message (`tab_messages_js`)."""
        tabs = [block for block in _descendants(page) if isinstance(block, gr.Tab)]
        if not tabs:
            return
        page.load(None, js=tab_messages_js(tab_of(tabs[0])), api_visibility="private", show_progress="hidden")
        for tab in tabs:
            tab.select(
                None,
                js=show_tab_message_js(tab_of(tab)),
                api_visibility="private",
                show_progress="hidden",
                queue=False,
            )

    def autosave_after(self, event: Any) -> None:
        """Chain one autosave of the page's session after `event` when it succeeds."""
        if self.autosaver is None or self.session_state is None or self.user_state is None:
            return
        event.success(  # a refused action changed nothing worth saving
            self.autosaver.save_quietly,
            inputs=[self.workspace_state, self.session_state, self.user_state],
            outputs=None,
            api_visibility="private",
            show_progress="hidden",
        )


def among(choices: Sequence[Any]) -> Callable[[Any], list[Any] | None]:
    """A `keep_over_reload` restorer for a CheckboxGroup: the stored ticks this build still offers
    (`choices`: values or (label, value) pairs); None when the stored value is not a list."""
    values = [c[1] if isinstance(c, tuple | list) else c for c in choices]

    def restored(stored: Any) -> list[Any] | None:
        return [v for v in stored if v in values] if isinstance(stored, list) else None

    return restored


def as_bool(stored: Any) -> bool | None:
    """A `keep_over_reload` restorer for a Checkbox."""
    return stored if isinstance(stored, bool) else None


def _descendants(block: Any) -> list[Any]:
    found = []
    for child in getattr(block, "children", None) or []:
        found.append(child)
        found.extend(_descendants(child))
    return found


def user_error(message: str, where: str) -> gr.Error:
    """The toast for bad input, logged as one line (`where` names the handler), never a traceback;
    a traceback stays for bugs. Raise what it returns."""
    log.info("user error in %s: %s", where, " ".join(str(message).split())[:300])
    return messages.error(message)  # escaped, print_exception=False


@dataclass(frozen=True)
class Confirmation:
    row: Any
    prompt: Component
    yes: Component
    no: Component


def _user_errors(handler: Callable[..., Any], tab: str = "") -> Callable[..., Any]:
    """Show bad input as an (escaped) error toast; the workspace is left as it was. The plain
    message the handler returns becomes the escaped status line, owned by `tab` (the tab of the
    action's trigger). A generator handler (a long action that reports as it goes) has each message
    escaped and keeps what it yielded before an error.
    """
    if inspect.isgeneratorfunction(handler):

        @functools.wraps(handler)
        def wrapped_stream(*args: Any, **kwargs: Any) -> Any:
            try:
                for result in handler(*args, **kwargs):
                    yield (
                        result[0],
                        messages.status_html(result[1], tab=tab),
                        *result[2:],
                        api.action_result(result[0], str(result[1])),
                    )
            except gr.Error:
                raise
            except (ValueError, LookupError, RuntimeError, OSError) as exc:
                raise messages.error(user_message(exc)) from exc

        return wrapped_stream

    @functools.wraps(handler)  # keeps the signature gradio inspects (gr.Progress, gr.SelectData)
    def wrapped(*args: Any, **kwargs: Any) -> tuple[Any, ...]:
        try:
            result = handler(*args, **kwargs)
        except gr.Error:
            raise
        # RuntimeError covers ExtractionError, ChatError and StorageError, whose messages are for users.
        except (ValueError, LookupError, RuntimeError, OSError) as exc:
            raise user_error(user_message(exc), handler.__name__) from exc
        return (
            result[0],
            gr.skip() if result[1] is None else messages.status_html(result[1], tab=tab),
            *result[2:],
            api.action_result(result[0], str(result[1] or "")),
        )

    return wrapped


def user_message(exc: BaseException) -> str:
    """The message of an exception meant for users (a KeyError's repr quotes are dropped)."""
    return str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
