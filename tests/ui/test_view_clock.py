"""ViewClock: a view update that belongs to an older state is dropped, whatever order the page
sends renders in and the server runs and finishes them in."""

from __future__ import annotations

from types import SimpleNamespace

import gradio as gr

from ui.view_clock import ViewClock, fresh_only

SKIP = gr.skip()


def components():
    with gr.Blocks():
        state = gr.State()
        search = gr.Textbox()
        table = gr.Textbox()
        moves = gr.Textbox()
    return state, search, table, moves


def request(session: str = "s1"):
    return SimpleNamespace(session_hash=session)


def test_a_refresh_renders_the_newest_filter_even_when_stamped_after_gathering_an_older_one():
    """The page gathers a refresh's inputs (search 'Priya'), then the user's filter change
    ('asthma') is gathered and stamped, then the refresh is stamped: newer stamp, older input."""
    state, search, table, moves = components()
    clock = ViewClock()
    seen = []

    def render(ws, text):
        seen.append(text)
        return f"table filtered by {text}", "moves"

    filter_render = fresh_only(
        clock, lambda ws, text: f"table filtered by {text}", [table], [state, search], changed=search
    )
    refresh = fresh_only(clock, render, [table, moves], [state, search])
    assert filter_render(request(), 5, "ws", "asthma") == "table filtered by asthma"
    assert refresh(request(), 6, "ws", "Priya") == ["table filtered by asthma", "moves"]
    assert seen == ["asthma"]


def test_an_older_render_finishing_last_is_dropped_for_the_components_a_newer_one_writes():
    _state, search, table, moves = components()
    clock = ViewClock()
    first, _ = clock.start("s1", [table, moves], [search], ["a"])
    second, _ = clock.start("s1", [table], [search], ["b"])
    assert second > first
    assert clock.newest("s1", second, [table], ["new"]) == ["new"]
    assert clock.newest("s1", first, [table, moves], ["old", "moves"]) == [SKIP, "moves"]
    other, _ = clock.start("s2", [table], [search], ["c"])  # another session keeps its own order
    assert clock.newest("s2", other, [table], ["x"]) == ["x"]


def test_a_filter_keeps_its_newest_value_and_api_calls_are_never_dropped():
    state, search, table, _moves = components()
    clock = ViewClock()
    clock.remember("s1", 7, [state, search], ["ws", "newest"])
    clock.remember("s1", 3, [state, search], ["ws", "older"])  # sent earlier, arrived later
    _, current = clock.start("s1", [table], [state, search], ["ws", "gathered"])
    assert current == ["ws", "newest"]
    unstamped = fresh_only(clock, lambda ws, text: text, [table], [state, search], changed=search)
    assert unstamped(request(), 0, "ws", "from a script") == "from a script"


def test_another_filters_change_keeps_the_newest_search():
    """A dropdown changed by a render sends all filters, the search as gathered before the user's
    newest search: only the dropdown's own value is stored."""
    with gr.Blocks():
        state, search, entity, table = gr.State(), gr.Textbox(), gr.Dropdown(), gr.Textbox()
    clock = ViewClock()

    def render(ws, text, who):
        return f"{who}/{text}"

    by_search = fresh_only(clock, render, [table], [state, search, entity], changed=search)
    by_entity = fresh_only(clock, render, [table], [state, search, entity], changed=entity)
    assert by_search(request(), 5, "ws", "Lindqvist", "") == "/Lindqvist"
    assert by_entity(request(), 6, "ws", "Harrow Vale", "Mara") == "Mara/Lindqvist"
