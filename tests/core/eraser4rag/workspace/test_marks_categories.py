"""Issue 19, item 4: privacy by category. One action marks every triple of a category of personal
data private (as marks on their keys, undoable, filtered like any other marks); the table and the
graph show each triple's category."""

from __future__ import annotations

import pytest

from core.eraser4rag.filters import define_privacy
from core.eraser4rag.workspace import Workspace
from core.types import Triple, triple_key
from ui.graph_tab import TABLE_HEADERS, render_graph, render_table
from ui.render import graph_data, graph_elements

ROWS = [
    ("a", "Noor Reyl", "medical_condition", "asthma", "health"),
    ("a", "Noor Reyl", "medication", "salbutamol", "health"),
    ("a", "Noor Reyl", "phone", "+44 20 7946 0018", "contact"),
    ("a", "Noor Reyl", "employer", "Harrow Vale Clinic", "employment"),
    ("b", "Harrow Vale Clinic", "located_in", "Harrow Vale", ""),
]


@pytest.fixture
def ws() -> Workspace:
    workspace = Workspace()
    workspace.add_text("Noor Reyl has asthma.", "Staff file")
    workspace.add_text("Harrow Vale Clinic is in Harrow Vale.", "Clinic")
    workspace.triples = [
        Triple(head=h, relation=r, tail=t, doc_id=d, span=(0, 1), category=c) for d, h, r, t, c in ROWS
    ]
    workspace._triples_changed()
    return workspace


def test_marking_a_category_marks_exactly_its_triples_and_undo_takes_it_back(ws: Workspace):
    assert ws.category_counts() == {"health": 2, "contact": 1, "employment": 1}
    assert ws.mark_category_private("health") == 2
    health = {
        triple_key("Noor Reyl", "medical_condition", "asthma"),
        triple_key("Noor Reyl", "medication", "salbutamol"),
    }
    assert ws.marked_private == health
    assert ws.definition is not None and set(ws.definition.private) == health
    assert ws.mark_category_private("Health") == 0  # already marked: nothing new, one undo step only
    ws.undo()
    assert ws.marked_private == set()


def test_category_marks_join_the_other_marks_and_go_through_the_filters(ws: Workspace):
    ws.triples += [
        Triple("Noor Reyl", "colleague_of", "Ada Lin", "b", (0, 1)),
        Triple("Ada Lin", "desk_phone", "+44 20 7946 0018", "b", (0, 1)),
    ]
    ws._triples_changed()
    located = triple_key("Harrow Vale Clinic", "located_in", "Harrow Vale")
    phone = triple_key("Noor Reyl", "phone", "+44 20 7946 0018")
    ws.toggle_private(located)
    ws.mark_category_private("contact")
    assert ws.marked_private == {located, phone}
    expected = define_privacy(ws.all_keys(), {located, phone}, ws.query_keys(), aliases=ws.name_aliases())
    assert ws.definition == expected
    # The phone is still inferable from public triples (through the colleague's desk phone): the
    # filters treat a category mark like a click.
    assert ws.status_of(phone) != "public" and ws.status_counts() != {"private": 2}


def test_an_unknown_category_names_the_categories_there_are(ws: Workspace):
    with pytest.raises(ValueError, match=r"'religion'.*health, contact, employment"):
        ws.mark_category_private("religion")
    with pytest.raises(ValueError, match="choose a category"):
        ws.mark_category_private(" ")


def test_query_triples_are_never_marked_by_category(ws: Workspace):
    query_key = triple_key("Noor Reyl", "medication", "salbutamol")
    ws._derived["query_keys"] = (frozenset({query_key}), None)  # as if a question stated it
    ws.mark_category_private("health")
    assert ws.marked_private == {triple_key("Noor Reyl", "medical_condition", "asthma")}


def test_table_and_graph_show_each_triples_category(ws: Workspace):
    assert TABLE_HEADERS[-1] == "category"
    rows = render_table(ws, "", "", "", "")
    by_relation = {row[2]: row[-1] for row in rows}
    assert by_relation == {
        "medical_condition": "health",
        "medication": "health",
        "phone": "contact",
        "employer": "employment",
        "located_in": "",
    }
    nodes, edges = graph_elements(
        ws.graph.edges,
        ws.statuses(),
        ws.corpus,
        {},
        ws.graph.label,
        ws.graph.documents_mentioning,
        ws.key_categories(),
    )
    data = graph_data(nodes, edges)
    labels = {edge["label"] for edge in data["edges"]}
    assert "phone [contact]" in labels and "located_in" in labels
    assert [c["name"] for c in data["categories"]] == ["contact", "employment", "health"]
    colours = {edge["category"]: edge.get("fontColour") for edge in data["edges"]}
    assert colours[""] is None and len({colours["health"], colours["contact"], colours["employment"]}) == 3
    assert "[health]" in render_graph(ws, "", "", "", "")
