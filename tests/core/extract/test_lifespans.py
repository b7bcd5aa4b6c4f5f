"""core/extract/lifespans.py: the parenthesis parser."""

from __future__ import annotations

from core.extract.lifespans import parse_parenthetical


def test_parse_parenthetical_skips_statements_without_a_date():
    text = "Russian: Иван Петров; born 5 May 1950"
    facts = parse_parenthetical(text)
    assert [(prop, value) for prop, value, _, _ in facts] == [("date_of_birth", "5 May 1950")]
    assert all(text[start:end] == value for _, value, start, end in facts)
    assert parse_parenthetical("born David Wilson; 29 November 1948")[0][0] == "place_of_birth"  # unchanged


def test_lifespan_parser_reads_only_dates_and_places():
    assert parse_parenthetical("NFL") == []
    assert parse_parenthetical("赤羽 一嘉") == []
    assert [f[:2] for f in parse_parenthetical("16 June 1839, in Blackburn – 25 June 1887")] == [
        ("date_of_birth", "16 June 1839"),
        ("place_of_birth", "Blackburn"),
        ("date_of_death", "25 June 1887"),
    ]
    assert [f[:2] for f in parse_parenthetical("born 12 March 1904, date of death unknown")] == [
        ("date_of_birth", "12 March 1904"),
    ]
