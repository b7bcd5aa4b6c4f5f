"""StudioContext: every re-render of all views is wired with every view's inputs, whichever tab
asked for it (a refresh wired before the later tabs existed gave their views no inputs, and the
render failed with a TypeError that left the page's views showing an error)."""

from __future__ import annotations

import inspect

import pytest

from core.settings import Settings
from ui.app import build_app
from ui.context import StudioContext


def _renders_all_views(fn) -> bool:
    if not inspect.isfunction(fn):
        return False
    stamped = inspect.getclosurevars(fn).nonlocals.get("_stamped")  # view_clock.fresh_only's
    if stamped is None:
        return False
    render = inspect.getclosurevars(stamped).nonlocals.get("render")
    return getattr(render, "__name__", "") == "render_all"


def test_every_full_refresh_reads_every_view_input(tmp_path):
    demo = build_app(Settings(db=str(tmp_path / "studio.sqlite3"), sample_corpus=False))
    ctx = demo.studio_context
    expected_ids = [ctx._stamp()._id, ctx.workspace_state._id] + [c._id for c in ctx.view_inputs()]
    refreshes = [fn for fn in demo.fns.values() if _renders_all_views(fn.fn)]
    assert len(refreshes) > 10  # every workspace-changing action, the cancel and the page load
    for block_fn in refreshes:
        assert [c._id for c in block_fn.inputs] == expected_ids, block_fn.name
        assert [c._id for c in block_fn.outputs] == [c._id for c in ctx.view_outputs()]


def test_a_refresh_asked_before_all_tabs_are_built_is_refused(tmp_path):
    ctx = StudioContext.__new__(StudioContext)  # the refusal comes before any field is read
    ctx._finished = False
    with pytest.raises(RuntimeError, match="before finish"):
        ctx.refresh(None)
