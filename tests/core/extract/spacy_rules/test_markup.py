"""Markup pasted with a document never becomes part of an entity, and spans stay in the original."""

from __future__ import annotations

from core.extract.spacy_rules import SpacyRuleExtractor
from core.extract.spacy_rules.markup import without_markup

PASTED = (
    "<b>Zora Quill</b> works for **Fenwick Labs**. Zora Quill lived in <i>Oakport</i>. "
    "<img src=x onerror=alert(1)> See [the lab](https://example.org/labs_(old)) for `more`."
)


def test_markup_is_blanked_character_for_character() -> None:
    blanked = without_markup(PASTED)
    assert len(blanked) == len(PASTED)
    assert "<" not in blanked and "*" not in blanked and "`" not in blanked and "](" not in blanked
    assert "Zora Quill" in blanked and "the lab" in blanked and "Oakport" in blanked
    assert without_markup("2 < 3 and 5 > 4; a * b; snake_case") == "2 < 3 and 5 > 4; a * b; snake_case"


def test_entities_of_a_pasted_html_and_markdown_text_carry_no_markup(extractor: SpacyRuleExtractor) -> None:
    triples = extractor.extract("pasted", PASTED)
    entities = {t.head for t in triples} | {t.tail for t in triples}
    assert {"Zora Quill", "Fenwick Labs", "Oakport"} <= entities
    assert not [entity for entity in entities if set(entity) & set("<>*`[]") or entity == "i"]
    for triple in triples:  # the evidence span is read from the original text
        start, end = triple.span
        assert triple.head.split()[0] in PASTED[start:end] or triple.tail in PASTED[start:end]


def test_script_and_style_content_is_blanked_with_its_tags() -> None:
    text = "<script>window.__xss=1</script> Mallory Quinn lives in Harrow Vale.<style>b{}</style>"
    blanked = without_markup(text)
    assert blanked.split() == ["Mallory", "Quinn", "lives", "in", "Harrow", "Vale."]
