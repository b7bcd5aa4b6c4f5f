"""ABack tab rendering without a browser: leak highlighting uses the monitor's merged ranges."""

from __future__ import annotations

from ui.aback_tab import join_answers, render_answer, render_answers


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
