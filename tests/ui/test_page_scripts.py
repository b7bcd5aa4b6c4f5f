"""The page's JavaScript as the server reads what it sends."""

import json

from ui.page_scripts import elem_id, is_repeated_click, shown_row_js, stamp_js


def test_a_double_clicks_second_press_is_told_apart_from_a_row():
    row = ["public", "Ada Brook", "works_for", "Zephyr Labs", "notes"]
    assert is_repeated_click(json.dumps({"repeat_of": row}))
    assert not is_repeated_click(json.dumps(row))
    assert not is_repeated_click("")
    assert not is_repeated_click("{not json")


def test_scripts_name_the_registered_ids_and_the_inputs_they_pass_on():
    assert elem_id("graph_table") == "rps-graph_table"
    script = shown_row_js("graph_table", 3)
    assert "'rps-graph_table'" in script and "args.slice(0, 3)" in script and "values[2]" in script
    assert "args.slice(0, 2)" in stamp_js(2) and "__rpsInFlight" not in stamp_js(2, counted=False)
