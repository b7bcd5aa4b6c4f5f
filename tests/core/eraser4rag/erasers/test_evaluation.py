"""Grading (`core.eraser4rag.erasers.evaluation`) on a real PopQA retrieval set: titles and the second
method."""

import json
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from core.documents import retriever_record
from core.eraser4rag.erasers import EraseRequest, Rewrite
from core.eraser4rag.erasers.evaluation import evaluate_rewrites, summarize
from core.eraser4rag.filters import define_privacy
from core.eraser4rag.names import name_aliases
from core.eraser4rag.split import connected_random_private_keys
from core.extract import get_extractor
from core.settings import Settings

SLICE = Path(__file__).resolve().parents[3] / "data" / "popqa_erase_slice.jsonl"


def _spacy():
    return get_extractor("spacy", Settings())


@lru_cache(maxsize=1)
def _titled_request() -> EraseRequest:
    """The Henry Feilden set (dev line 1, first 10 passages), extracted with its titles as the studio does."""
    record = json.loads(SLICE.read_text(encoding="utf-8").splitlines()[0])
    retrieval_set = retriever_record(record, SLICE.name, 1)
    query, documents = retrieval_set.query, tuple(retrieval_set.documents)
    titles = {d.id: d.title for d in documents if d.title}
    items = [(d.id, d.text) for d in documents if d.text.strip()]
    triples = _spacy().extract_many(items, titles=titles)
    keys = {t.key for t in triples}
    aliases = name_aliases(triples)
    marked = connected_random_private_keys(keys, 0.25, 0, aliases=aliases)
    definition = define_privacy(keys, marked, aliases=aliases)
    return EraseRequest(documents=documents, triples=tuple(triples), definition=definition, query=query)


def _unchanged(request: EraseRequest) -> list[Rewrite]:
    return [Rewrite(d.id, "none", d.text, d.text, (), (), (), 0.0) for d in request.documents]


def test_an_unchanged_passage_scores_r_pri_1_and_r_pub_1_when_re_extracted_with_the_same_titles():
    request = _titled_request()
    evaluation = evaluate_rewrites(request, _unchanged(request), _spacy())
    defined = [d for d in evaluation.docs if d.private_before or d.public_before]
    assert defined and all(d.r_pri in (None, 1.0) and d.r_pub in (None, 1.0) for d in defined)
    assert any(d.private_before for d in defined)
    summary = summarize([evaluation])
    assert summary["r_pri"] == 1.0 and summary["r_pub"] == 1.0
    assert summary["characters_kept"] == 1.0 and summary["public_kept_strings"] == 1.0
    # every private fact the original names is still named: strict leak = string coverage
    assert summary["strict_leak"] == summary["strings"]["private_visible"] > 0.5
    # without the titles the same unchanged passages lose facts (the bug this fixes)
    untitled = summarize([evaluate_rewrites(request, _unchanged(request), _spacy(), titles={})])
    assert untitled["r_pub"] < 1.0


def test_the_second_method_is_reported_beside_the_extractor_figures():
    request = _titled_request()
    rewrites = _unchanged(request)
    first = request.documents[0]  # " Henry Master Feilden (21 February 1818 – 5 September 1875) was an ..."
    broken = first.text.split(" was ")[0] + " was."
    rewrites[0] = replace(rewrites[0], text=broken)
    evaluation = evaluate_rewrites(request, rewrites, _spacy(), second_extractor=_spacy())
    summary = summarize([evaluation])
    second = summary["second"]
    assert second["extractor"] == "spacy" and second["private_found"] > 0
    assert summary["characters_kept"] < 1.0 and summary["strings"]["changed_passages"] == 1
    assert 0.0 <= second["r_pub"] <= 1.0 and "r_pri" in summary and "strict_leak" in summary
