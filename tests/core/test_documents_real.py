"""The loader on real retrieval files: a PopQA slice (tests/data/popqa_slice.jsonl, see its README)
with empty passages, HTML entities and titles glued to their passages; bad records all listed at
once; the good records loaded on request; loading linear in the number of records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import core.documents as documents
from core.documents import BadRecords, load_bytes, load_path, separate_title
from core.eraser4rag.workspace import Workspace
from core.extract.base import Extractor, extract_corpus
from core.types import Corpus, Triple

SLICE = Path(__file__).resolve().parents[1] / "data" / "popqa_slice.jsonl"
LIMIT = 5_000_000


def raw_records() -> list[dict]:
    return [json.loads(line) for line in SLICE.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_real_slice_keeps_every_passage_and_empty_ones_are_counted_not_refused():
    corpus = load_path(SLICE, LIMIT)
    records = raw_records()
    raw_ctxs = [ctx for record in records for ctx in record["ctxs"]]
    blank = [ctx for ctx in raw_ctxs if not ctx["text"].strip()]
    assert len(blank) >= 3  # the slice was chosen for its empty passages
    assert len(corpus.queries) == len(records) and len(corpus.documents) == len(raw_ctxs)
    empty = [doc for doc in corpus.documents if not doc.text.strip()]
    assert len(empty) == len(blank)
    assert [doc.title for doc in empty] == [ctx["title"] for ctx in blank]
    # each question keeps all 25 of its passages, the empty ones included
    assert [len(query.doc_ids) for query in corpus.queries] == [len(r["ctxs"]) for r in records]


def test_real_slice_decodes_entities_and_drops_citation_tags():
    raw_text = SLICE.read_text(encoding="utf-8")
    assert "&ndash;" in raw_text and "<ref" in raw_text
    corpus = load_path(SLICE, LIMIT)
    assert not any("&ndash;" in doc.text or "<ref" in doc.text for doc in corpus.documents)
    opening = "Edward Bernard Cresset Corser (1852"
    corser = [doc for doc in corpus.documents if doc.text.lstrip().startswith(opening)]
    assert corser and any("(1852 – 31 July 1928)" in doc.text for doc in corser)


def test_real_slice_titles_stay_titles_and_leave_the_first_sentence():
    corpus = load_path(SLICE, LIMIT)
    by_title: dict[str, list[str]] = {}
    for doc in corpus.documents:
        by_title.setdefault(doc.title, []).append(doc.text)
    # "Title\n\nText": the heading line is gone, the title is still the document's title
    feilden = [text.strip() for text in by_title["Henry Feilden (Conservative politician)"]]
    assert (
        "Henry Master Feilden (21 February 1818 – 5 September 1875) was an English Conservative Party "
        "politician." in feilden
    )
    # titles glued to the first sentence, as the retriever dump has them
    assert any(t.startswith("Gustav Seitz (11 September 1906") for t in by_title["Gustav Seitz"])
    assert any(t.startswith("Otto Seitz, was a 19th-century German painter") for t in by_title["Otto Seitz"])
    assert any(t.startswith("Peter John Frank (6 May 1934") for t in by_title["Peter Frank (academic)"])
    for title, texts in by_title.items():
        for text in texts:
            assert not text.startswith(title + "\n"), title
            assert not text.startswith(f"{title} {title}"), title


@pytest.mark.parametrize(
    ("title", "text", "expected"),
    [
        ("Masayoshi Soken", "Masayoshi Soken Born in La Paz, Mexico.", "Born in La Paz, Mexico."),
        ("Shigeru Nakanishi", "Shigeru Nakanishi Nakanishi graduated.", "Nakanishi graduated."),
        ("Franz Zitz", "Franz Zitz Dr. Franz Zitz was a lawyer.", "Dr. Franz Zitz was a lawyer."),
        # a longer name, a sentence about the title, a possessive: left as they are
        ("Marco Denegri", "Marco Denegri Santagadea (1938) was a writer.", None),
        ("Krarup", "Krarup is a Danish surname.", None),
        ("Kate Mulvany", "Kate Mulvany's father was a veteran.", None),
        ("Kazuya Shimba", "Kazuya Shimba", None),
    ],
)
def test_separate_title_rules(title, text, expected):
    assert separate_title(title, text) == (text if expected is None else expected)


class RecordingExtractor(Extractor):
    """Records the texts it is given (the interface contract under test), extracts nothing."""

    name = "recording"

    def __init__(self) -> None:
        self.seen: list[str] = []

    def extract(self, doc_id: str, text: str) -> list[Triple]:
        self.seen.append(text)
        return []


def test_empty_passages_are_never_extracted_but_count_as_done():
    corpus = load_path(SLICE, LIMIT)
    recorder = RecordingExtractor()
    extract_corpus(corpus, recorder)
    assert recorder.seen and all(text.strip() for text in recorder.seen)
    assert len(recorder.seen) == sum(1 for d in corpus.documents if d.text.strip()) + len(corpus.queries)
    ws = Workspace()
    ws.add_files([(SLICE.name, SLICE.read_bytes())], LIMIT)
    ws.extract(RecordingExtractor())
    assert not ws.pending_sources().documents  # empty passages are not left "to extract" forever


def records_with_three_bad_lines() -> bytes:
    good = raw_records()[1]
    lines = [
        json.dumps(good),
        '{"question": "Who?" "ctxs": []}',  # malformed JSON
        json.dumps({**good, "ctxs": [{"title": "t", "text": 12}, {"title": ["x"], "text": "y"}]}),
        json.dumps(good),
        json.dumps({"answers": ["a"], "ctxs": [{"title": "t", "text": "x"}]}),  # no question
    ]
    return ("\n".join(lines) + "\n").encode()


def test_every_bad_record_is_reported_at_once_with_line_and_field():
    with pytest.raises(BadRecords) as info:
        load_bytes("popqa_bad.jsonl", records_with_three_bad_lines(), LIMIT)
    refused = info.value
    where = [(e.file, e.line, e.field) for e in refused.errors]
    assert where == [
        ("popqa_bad.jsonl", 2, None),
        ("popqa_bad.jsonl", 3, "ctxs[0].text"),
        ("popqa_bad.jsonl", 3, "ctxs[1].title"),
        ("popqa_bad.jsonl", 5, "question"),
    ]
    assert (refused.good_records, refused.total_records) == (2, 5)
    assert "4 problem(s) in 3 of 5 record(s)" in str(refused)
    assert "line 2" in str(refused) and "line 3" in str(refused) and "line 5" in str(refused)
    good = load_bytes("popqa_bad.jsonl", records_with_three_bad_lines(), LIMIT, skip_bad=True)
    assert [q.id for q in good.queries] == ["popqa-bad-q1", "popqa-bad-q4"]
    assert len(good.documents) == 50


def test_workspace_loads_the_good_records_when_the_user_asks():
    ws = Workspace()
    errors = ws.add_files([("popqa_bad.jsonl", records_with_three_bad_lines()), ("n.txt", b"A note.")], LIMIT)
    assert [type(e) for e in errors] == [BadRecords]
    assert [d.id for d in ws.corpus.documents] == ["n"]  # nothing of the refused file yet
    assert ws.held_back_records() == 2
    added = ws.load_held_back()
    assert added == 52 and len(ws.corpus.queries) == 2 and ws.held_back_records() == 0
    with pytest.raises(ValueError, match="no file is waiting"):
        ws.load_held_back()


def test_html_entities_are_decoded_in_titles_text_questions_and_answers():
    record = {
        "question": "Who founded Smith &amp; Sons?",
        "answers": ["Ann &amp; Bo"],
        "ctxs": [{"title": "Smith &amp; Sons", "text": "Founded 1850 &ndash; 1900 by Ann&nbsp;Smith."}],
    }
    corpus = load_bytes("e.jsonl", json.dumps(record).encode(), LIMIT)
    doc, query = corpus.documents[0], corpus.queries[0]
    assert doc.title == "Smith & Sons" and doc.text == "Founded 1850 – 1900 by Ann\xa0Smith."
    assert query.text == "Who founded Smith & Sons?" and query.answers == ("Ann & Bo",)


def test_loading_copies_each_record_once(monkeypatch):
    """Linear loading, checked without a clock: the lists handed to every Corpus built while
    loading hold each document a bounded number of times (building the corpus record by record by
    merging copied the growing corpus per line: quadratic)."""
    copied: list[int] = []
    original_init = Corpus.__init__

    def counting_init(self, documents=None, queries=None) -> None:
        copied.append(len(documents or []) + len(queries or []))
        original_init(self, documents=documents or [], queries=queries or [])

    monkeypatch.setattr(Corpus, "__init__", counting_init)
    for count in (200, 2_000):
        copied.clear()
        lines = "\n".join(json.dumps({"title": f"n{i}", "text": f"Note {i}."}) for i in range(count))
        corpus = documents.load_bytes("n.jsonl", lines.encode(), LIMIT)
        assert len(corpus.documents) == count
        assert sum(copied) <= 2 * count


def test_a_line_that_is_not_utf8_costs_only_itself():
    good = json.dumps({"title": "a", "text": "Café au lait."}, ensure_ascii=False).encode()
    latin = json.dumps({"title": "b", "text": "Café noir."}, ensure_ascii=False).encode("latin-1")
    data = good + b"\r\n" + latin + b"\n" + good + b"\n"
    with pytest.raises(BadRecords) as info:
        load_bytes("mixed.jsonl", data, LIMIT)
    [error] = info.value.errors
    assert (error.line, info.value.good_records) == (2, 2) and "not valid UTF-8" in error.message
    loaded = load_bytes("mixed.jsonl", data, LIMIT, skip_bad=True)
    assert [d.id for d in loaded.documents] == ["mixed-l1", "mixed-l3"]
    assert loaded.documents[0].text == "Café au lait."
