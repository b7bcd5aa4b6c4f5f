"""Server side of keeping views in order: every view render takes a `ViewClock` ticket as it starts,
and an update older than another render of the same component is dropped (`fresh_only`). The page
side (stamps, settling) is `ui.page_scripts.stamp_js` / `SETTLE_JS`; docs/ARCHITECTURE.md, UI conventions,
tells the whole story."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

import gradio as gr
from gradio.components import Component


class ViewClock:
    """Drops view updates that belong to an older state.

    Every view render reads the newest state the server knows: the workspace, and each view input
    (a filter) as the page last changed it. The page stamps every render as it sends it (`stamp_js`:
    a counter in the page); a filter change stores the changed filter's value under that stamp
    (`remember`; the other inputs it gathered may be older), the newest stamp per input winning, and
    a render uses the stored values instead of the ones the page gathered for it, which may be older
    than its stamp (the page reads inputs, then awaits, then stamps). Renders are numbered in the
    order they start (`start`), under the same lock that hands them the stored inputs, so a
    later-started render has newer or equal inputs; a render's value for a component is replaced by
    `gr.skip()` when a later-started render also writes it (`newest`). Whatever order the server runs
    and finishes them in, the newest state wins. A render without a stamp (an API call) reads and
    writes nothing here and is never dropped."""

    MAX_SESSIONS = 5000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tickets: OrderedDict[str, int] = OrderedDict()
        self._latest: dict[str, dict[int, int]] = {}  # session -> component id -> ticket
        self._inputs: dict[str, dict[int, tuple[float, Any]]] = {}  # session -> id -> (stamp, value)

    def remember(
        self, session: str, stamp: float, components: Sequence[Component], values: Sequence[Any]
    ) -> None:
        """Store view input values the page sent under `stamp`; an input keeps its newest value."""
        with self._lock:
            stored = self._inputs.setdefault(session, {})
            for component, value in zip(components, values, strict=True):
                if isinstance(component, gr.State):
                    continue
                if stored.get(component._id, (0.0, None))[0] < stamp:
                    stored[component._id] = (stamp, value)

    def start(
        self,
        session: str,
        outputs: Sequence[Component],
        inputs: Sequence[Component],
        values: Sequence[Any],
    ) -> tuple[int, list[Any]]:
        """This render's ticket and its input values, the stored (newest) ones where known."""
        with self._lock:
            ticket = self._tickets.get(session, 0) + 1
            self._tickets[session] = ticket
            self._tickets.move_to_end(session)
            latest = self._latest.setdefault(session, {})
            for component in outputs:
                latest[component._id] = ticket
            stored = self._inputs.get(session, {})
            current = [
                stored[c._id][1] if c._id in stored else value
                for c, value in zip(inputs, values, strict=True)
            ]
            while len(self._tickets) > self.MAX_SESSIONS:
                old, _ = self._tickets.popitem(last=False)
                self._latest.pop(old, None)
                self._inputs.pop(old, None)
            return ticket, current

    def newest(
        self, session: str, ticket: int, components: Sequence[Component], values: Sequence[Any]
    ) -> list:
        """`values` with a `gr.skip()` for each component a later-started render writes."""
        with self._lock:
            latest = self._latest.get(session, {})
            return [
                value if latest.get(component._id, 0) <= ticket else gr.skip()
                for component, value in zip(components, values, strict=True)
            ]


def fresh_only(
    clock: ViewClock,
    render: Callable[..., Any],
    outputs: Sequence[Component],
    inputs: Sequence[Component],
    *,
    selected: bool = False,
    changed: Component | None = None,
) -> Callable[..., Any]:
    """`render` (after a leading stamp input) of the newest state (`ViewClock`): `inputs` are the
    components of its other inputs; `changed` (the filter whose change sent this render, one of
    `inputs`) has its value stored first: only its value is sure to be the page's newest.
    With `selected`, render gets the select event's data last."""
    outputs, inputs = list(outputs), list(inputs)
    position = inputs.index(changed) if changed is not None and changed in inputs else None

    def run(request: gr.Request, stamp: Any, *values: Any) -> Any:
        return _stamped(request, stamp, values)

    def run_selected(request: gr.Request, evt: gr.SelectData, stamp: Any, *values: Any) -> Any:
        return _stamped(request, stamp, values, evt)

    def _stamped(request: gr.Request, stamp: Any, values: tuple, *extra: Any) -> Any:
        session = getattr(request, "session_hash", None) or ""
        if not (isinstance(stamp, int | float) and stamp > 0):
            return render(*values, *extra)
        if position is not None:
            clock.remember(session, float(stamp), [inputs[position]], [values[position]])
        ticket, current = clock.start(session, outputs, inputs, values)
        rendered = render(*current, *extra)
        results = [rendered] if len(outputs) == 1 else list(rendered)
        results = clock.newest(session, ticket, outputs, results)
        return results[0] if len(outputs) == 1 else results

    return run_selected if selected else run
