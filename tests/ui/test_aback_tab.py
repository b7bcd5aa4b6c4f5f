"""ABack tab rendering without a browser: leak highlighting uses the monitor's merged ranges."""

from __future__ import annotations

from ui.aback_render import join_answers, render_answer, render_answers


def test_partly_overlapping_leaks_are_highlighted_as_one_extended_range() -> None:
    html = render_answer("Boundary 2", "Visit Ann Lee Clinic <today>", ["Ann Lee", "Lee Clinic"])
    assert '<mark class="rps-aback-leak" style="background:#ff4d4d;color:white">Ann Lee Clinic</mark>' in html
    assert html.count("<mark") == 1 and "(2 leak(s))" in html
    assert "&lt;today&gt;" in html and "<today>" not in html


def test_answers_join_and_placeholder() -> None:
    assert render_answers([]) == join_answers([])
    assert "Baselines run after ABack" in join_answers([])
    block = render_answer("Post Mask", "no names here", ["Ann Lee"])
    assert "(no leak)" in block and render_answers([("Post Mask", "no names here", ["Ann Lee"])]) == block


def test_a_value_the_question_names_is_marked_apart_and_the_badge_says_so() -> None:
    """Names in the question are not watched; an answer repeating one is never labelled a bare "no leak"."""
    block = render_answer(
        "Post Mask", "Mara Voss lives in [REDACTED] with <Elin Voss>.", ["Elin Voss"], ["Mara Voss"]
    )
    assert "(1 leak(s); repeats from your question, not watched: Mara Voss)" in block
    assert '<mark class="rps-aback-echo"' in block and "Mara Voss</mark>" in block
    assert "&lt;" in block and "<Elin" not in block
    quiet = render_answer("ABack", "I can't share that.", ["Elin Voss"], ["Mara Voss"])
    assert "(no leak)" in quiet and "rps-aback-echo" not in quiet


def test_a_reload_gets_the_browsers_last_run_back_and_only_its_own() -> None:
    from ui.aback_tab import LastRuns

    runs = LastRuns(size=2)
    first = ("<p>records</p>", "Mara Voss", "<div>stream 1</div>", "", "", "<span>Generating…</span>", None)
    runs.keep("browser:a", "Where does Mara live?", first)
    skipped = type(runs.restore("nobody")[0])
    runs.keep(
        "browser:a", "Where does Mara live?", (*first[:3], "<p>trace</p>", "<p>answers</p>", "<b>Done</b>")
    )
    question, records, lines, stream, timeline, answers, status = runs.restore("browser:a")
    assert (question, records, lines, stream) == ("Where does Mara live?", *first[:3])
    assert (timeline, answers, status) == ("<p>trace</p>", "<p>answers</p>", "<b>Done</b>")
    assert all(isinstance(value, skipped) for value in runs.restore("browser:b"))  # another browser: nothing
    runs.keep("browser:b", "q b", first)
    runs.keep("browser:c", "q c", first)
    assert all(isinstance(value, skipped) for value in runs.restore("browser:a"))  # the oldest went
    assert runs.restore("browser:c")[0] == "q c"


def test_a_run_started_before_the_page_gave_its_session_is_handed_to_that_session_only() -> None:
    """On a busy server a Generate click can run before the page load has set this browser's session:
    the run is kept under the connection and handed over when the session arrives (the browser suite
    under load lost it: a reload then showed no run); another connection's session never gets it."""
    from types import SimpleNamespace

    from ui.aback_tab import LastRuns

    runs = LastRuns()
    update = ("<p>records</p>", "Mara Voss", "<div>stream</div>", "", "", "<span>Generating…</span>", None)
    runs.keep("", "Where does Mara live?", update, connection="hash-1")
    skipped = type(runs.restore("browser:other", SimpleNamespace(session_hash="hash-2"))[0])
    assert all(isinstance(value, skipped) for value in runs.restore("browser:other"))
    assert runs.restore("browser:a", SimpleNamespace(session_hash="hash-1"))[0] == "Where does Mara live?"
    runs.keep("", "Where does Mara live?", (*update[:5], "<b>Done</b>"), connection="hash-1")
    assert runs.restore("browser:a")[6] == "<b>Done</b>"  # later updates of that run follow it
    runs.keep("", "q", update)  # neither a session nor a connection: nothing is kept
    assert all(isinstance(value, skipped) for value in runs.restore("browser:b"))
