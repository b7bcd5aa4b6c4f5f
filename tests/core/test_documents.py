"""Uploads: every format, every error kind with its file/line/field, batch loading, the sample corpus."""

from __future__ import annotations

import json
import time

import pytest

from core.documents import (
    BadRecords,
    InputError,
    corpus_from_text,
    load_bytes,
    load_many,
    load_path,
    load_sample_corpus,
)
from core.types import Corpus

LIMIT = 1_000_000


def make_pdf(page_texts: list[str], title: str | None = None) -> bytes:
    """A minimal valid PDF, written by hand: one Helvetica text line per page, correct xref offsets."""
    objects: list[bytes] = []
    page_count = len(page_texts)
    font_id = 3 + 2 * page_count
    info_id = font_id + 1
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(page_count))
    objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {page_count} >>".encode())
    for i, text in enumerate(page_texts):
        escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        stream = f"BT /F1 12 Tf 72 720 Td ({escaped}) Tj ET".encode() if text else b""
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
            f"/Resources << /Font << /F1 {font_id} 0 R >> >> >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    objects.append(f"<< /Title ({title or ''}) >>".encode())
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref_at = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\n" % (len(objects) + 1, info_id)
    out += b"startxref\n%d\n%%%%EOF\n" % xref_at
    return bytes(out)


def retriever_line(question: str, ctxs: list[dict], answers: list[str] | None = None) -> str:
    return json.dumps({"question": question, "answers": answers or [], "ctxs": ctxs})


def raised(name: str, data: bytes, max_bytes: int = LIMIT) -> InputError:
    """The error loading raises; for a file with one bad record, that record's own error."""
    with pytest.raises(InputError) as info:
        load_bytes(name, data, max_bytes)
    error = info.value
    if isinstance(error, BadRecords) and len(error.errors) == 1:
        return error.errors[0]
    return error


# ---------------------------------------------------------------------------- formats


def test_txt_gives_one_document_titled_by_stem():
    corpus = load_bytes("Field Notes.txt", b"John Doe lives in TechVille.\n", LIMIT)
    assert len(corpus.documents) == 1 and corpus.queries == []
    doc = corpus.documents[0]
    assert (doc.id, doc.title, doc.source) == ("field-notes", "Field Notes", "Field Notes.txt")
    assert doc.text == "John Doe lives in TechVille.\n"


def test_md_title_is_first_heading_and_crlf_is_normalised():
    data = b"intro line\r\n\r\n## Mara Voss ##\r\nMara Voss works for Lindqvist Robotics.\r\n"
    doc = load_bytes("profile.md", data, LIMIT).documents[0]
    assert doc.title == "Mara Voss"
    assert "\r" not in doc.text and "Mara Voss works for Lindqvist Robotics." in doc.text
    assert doc.text.startswith("intro line")  # a heading that does not open the file stays in the text


def test_md_opening_heading_becomes_the_title_and_leaves_the_text():
    data = b"\n# Mara Voss\n\nMara Voss works for Lindqvist Robotics.\n"
    doc = load_bytes("p.md", data, LIMIT).documents[0]
    assert (doc.title, doc.text) == ("Mara Voss", "Mara Voss works for Lindqvist Robotics.\n")
    only_heading = load_bytes("h.md", b"# Just a title\n", LIMIT).documents[0]
    assert (only_heading.title, only_heading.text) == ("Just a title", "# Just a title\n")


def test_utf8_bom_is_dropped():
    doc = load_bytes("bom.txt", "\ufeffÅsa Lind lives in Malmö.".encode(), LIMIT).documents[0]
    assert doc.text == "Åsa Lind lives in Malmö."


def test_pdf_text_of_all_pages_and_metadata_title():
    pages = ["Mara Voss works for Lindqvist Robotics.", "Lindqvist Robotics is in Harrow Vale."]
    data = make_pdf(pages, "Staff")
    doc = load_bytes("staff.pdf", data, LIMIT).documents[0]
    assert "Mara Voss works for Lindqvist Robotics." in doc.text
    assert "Lindqvist Robotics is in Harrow Vale." in doc.text
    assert doc.text.index("Mara Voss") < doc.text.index("Harrow Vale")
    assert (doc.id, doc.title) == ("staff", "Staff")


def test_jsonl_retriever_records_give_queries_and_ctx_documents():
    lines = [
        retriever_line(
            "Where does Mara Voss work?",
            [
                {"id": "w1", "title": "Mara Voss", "text": "Mara Voss works for Lindqvist Robotics."},
                {"title": "Lindqvist", "text": "Lindqvist Robotics is located in Harrow Vale."},
            ],
            ["Lindqvist Robotics"],
        ),
        "",
        json.dumps({"title": "Note", "text": "Harrow Vale lies on the Tamsin River."}),
        retriever_line("Who is Elin Voss?", [{"title": "Elin", "text": "Elin Voss teaches mathematics."}]),
    ]
    corpus = load_bytes("My Run.jsonl", "\n".join(lines).encode(), LIMIT)
    assert [q.id for q in corpus.queries] == ["my-run-q1", "my-run-q4"]
    first = corpus.queries[0]
    assert first.text == "Where does Mara Voss work?"
    assert first.answers == ("Lindqvist Robotics",)
    assert first.doc_ids == ("my-run-q1-d0", "my-run-q1-d1")
    assert corpus.queries[1].doc_ids == ("my-run-q4-d0",)
    assert [d.id for d in corpus.documents] == ["my-run-q1-d0", "my-run-q1-d1", "my-run-l3", "my-run-q4-d0"]
    ctx = corpus.document("my-run-q1-d0")
    assert ctx.title == "Mara Voss" and ctx.text == "Mara Voss works for Lindqvist Robotics."
    assert "line 1" in ctx.source and "w1" in ctx.source
    assert corpus.document("my-run-l3").title == "Note"


def test_json_single_record_list_of_records_and_list_of_documents():
    record = {
        "question": "Where is Lindqvist Robotics?",
        "answers": ["Harrow Vale"],
        "ctxs": [{"title": "L", "text": "Lindqvist Robotics is located in Harrow Vale."}],
    }
    single = load_bytes("one.json", json.dumps(record).encode(), LIMIT)
    assert [q.id for q in single.queries] == ["one-q0"] and single.queries[0].doc_ids == ("one-q0-d0",)

    records = load_bytes("many.json", json.dumps([record, record]).encode(), LIMIT)
    assert [q.id for q in records.queries] == ["many-q0", "many-q1"]
    assert len(records.documents) == 2

    docs = [{"title": "A", "text": "Alpha text."}, {"title": "B", "text": "Beta text."}]
    plain = load_bytes("docs.json", json.dumps(docs).encode(), LIMIT)
    assert [(d.id, d.title, d.text) for d in plain.documents] == [
        ("docs-d0", "A", "Alpha text."),
        ("docs-d1", "B", "Beta text."),
    ]
    assert plain.queries == []


def test_same_file_gives_the_same_ids():
    data = retriever_line("Q?", [{"title": "t", "text": "x y"}, {"title": "u", "text": "z"}]).encode()
    assert load_bytes("a.jsonl", data, LIMIT) == load_bytes("a.jsonl", data, LIMIT)


def test_load_path_reads_from_disk(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("# Notes\nIda Brandt opened a library.", encoding="utf-8")
    corpus = load_path(path, LIMIT)
    assert corpus.documents[0].title == "Notes"
    with pytest.raises(InputError, match=r"notes\.md: file is \d+ bytes, over the upload limit of 10 bytes"):
        load_path(path, 10)


def test_pasted_text():
    corpus = corpus_from_text("Jonas Brandt manages Saint Alder Clinic.", title="Clinic memo")
    doc = corpus.documents[0]
    assert doc.title == "Clinic memo" and doc.text == "Jonas Brandt manages Saint Alder Clinic."
    assert corpus_from_text(doc.text).documents[0].id == doc.id
    assert corpus_from_text("Another text.").documents[0].id != doc.id
    with pytest.raises(InputError) as info:
        corpus_from_text("   \n ")
    assert info.value.file == "pasted text" and str(info.value).startswith("pasted text: ")


# ---------------------------------------------------------------------------- errors


def test_unsupported_extension():
    error = raised("report.docx", b"PK\x03\x04")
    assert error.file == "report.docx"
    assert str(error).startswith("report.docx: unsupported file type .docx; supported: .txt, .md")


def test_over_the_size_limit_names_the_setting():
    error = raised("big.txt", b"a" * 2_000, max_bytes=1_000)
    assert "2,000 bytes" in str(error) and "1,000 bytes" in str(error)
    assert "RPS_MAX_UPLOAD_BYTES" in str(error) and "--max-upload-bytes" in str(error)


def test_binary_content_is_named():
    nul = raised("image.txt", b"abc\n\x89PNG\x00\x00")
    assert (nul.file, nul.line) == ("image.txt", 2) and "binary content" in nul.message
    latin = raised("latin.md", "line one\nCafé".encode("latin-1"))
    assert latin.line == 2 and "not valid UTF-8" in str(latin) and "0xe9" in str(latin)


def test_empty_file_and_empty_text():
    assert str(raised("empty.txt", b"")) == "empty.txt: empty file"
    assert "empty text" in str(raised("blank.md", b"  \n\t\n"))
    assert "empty text" in str(raised("blank.jsonl", b"\n\n"))
    assert "empty list" in str(raised("none.json", b"[]"))


def test_pdf_without_text_and_broken_pdf():
    assert str(raised("scan.pdf", make_pdf([""]))).startswith("scan.pdf: no extractable text")
    assert "not a PDF" in str(raised("fake.pdf", b"hello world"))
    assert raised("cut.pdf", b"%PDF-1.4\n1 0 obj\n<<").file == "cut.pdf"


def test_malformed_jsonl_line_names_the_line_and_keeps_the_valid_lines_on_request():
    good = retriever_line("Q?", [{"title": "t", "text": "x"}])
    data = "\n".join([good, good, '{"question": "Q?" "ctxs": []}', good]).encode()
    with pytest.raises(BadRecords) as info:
        load_bytes("notes.jsonl", data, LIMIT)
    refused = info.value
    counts = (refused.file, refused.line, refused.good_records, refused.total_records)
    assert counts == ("notes.jsonl", 3, 3, 4)
    assert [str(e) for e in refused.errors] == [
        "notes.jsonl, line 3: malformed JSON (Expecting ',' delimiter at column 19)"
    ]
    assert "3 good record(s) can be loaded" in str(refused)
    loaded = load_bytes("notes.jsonl", data, LIMIT, skip_bad=True)
    assert [q.id for q in loaded.queries] == ["notes-q1", "notes-q2", "notes-q4"]
    assert loaded.queries == refused.good.queries


def test_malformed_json_names_the_line():
    error = raised("docs.json", b'[\n  {"title": "a", "text": "b"},\n  {"title": "c" "text": "d"}\n]')
    assert error.line == 3 and "malformed JSON" in error.message


@pytest.mark.parametrize(
    ("ctxs_and_extra", "field", "fragment"),
    [
        ({"ctxs": [{"text": "a"}, {"text": "b"}, {"title": "c"}]}, "ctxs[2].text", "missing"),
        ({"ctxs": [{"text": "a"}, {"text": 7}]}, "ctxs[1].text", "must be a string, got a number"),
        ({"ctxs": [{"text": "a", "title": ["x"]}]}, "ctxs[0].title", "must be a string, got a list"),
        ({"ctxs": ["just a string"]}, "ctxs[0]", "must be an object"),
        ({"ctxs": {"text": "a"}}, "ctxs", "must be a list"),
        ({}, "ctxs", "missing"),
        ({"ctxs": []}, "ctxs", "empty list"),
        ({"ctxs": [{"text": "a"}], "answers": "Harrow Vale"}, "answers", "must be a list of strings"),
        ({"ctxs": [{"text": "a"}], "answers": ["ok", 3]}, "answers[1]", "must be a string"),
    ],
)
def test_jsonl_field_errors_name_line_and_field(ctxs_and_extra, field, fragment):
    good = retriever_line("Q?", [{"title": "t", "text": "x"}])
    bad = json.dumps({"question": "Where?", **ctxs_and_extra})
    error = raised("run.jsonl", f"{good}\n{bad}\n".encode())
    assert (error.file, error.line, error.field) == ("run.jsonl", 2, field)
    assert str(error).startswith(f"run.jsonl, line 2: field {field}: {fragment}")


def test_jsonl_question_type_and_non_object_lines():
    error = raised("q.jsonl", json.dumps({"question": 5, "ctxs": []}).encode())
    assert (error.line, error.field) == (1, "question")
    error = raised("q.jsonl", b'{"title": "a", "text": "b"}\n[1, 2]\n')
    assert error.line == 2 and "expected a JSON object" in error.message and "got a list" in error.message
    error = raised("q.jsonl", b'{"name": "a"}\n')
    assert "keys: name" in error.message


def test_json_list_field_error_has_index_path():
    docs = [{"title": "A", "text": "Alpha."}, {"question": "Q?", "ctxs": [{"title": "t"}]}]
    error = raised("mixed.json", json.dumps(docs).encode())
    assert error.line is None and error.field == "[1].ctxs[0].text"
    assert str(error) == "mixed.json: field [1].ctxs[0].text: missing"
    error = raised("docs.json", json.dumps([{"title": "A", "text": 3}]).encode())
    assert error.field == "[0].text"


# ---------------------------------------------------------------------------- batches


def test_load_many_keeps_good_files_and_reports_each_bad_one():
    items = [
        ("a.txt", b"Mara Voss works for Lindqvist Robotics."),
        ("b.bin", b"\x00\x01"),
        ("c.jsonl", b'{"question": "Q?", "ctxs": [{"title": "t", "text": "x"}]}\n{oops\n'),
        ("d.md", b"# D\nLindqvist Robotics is located in Harrow Vale."),
        ("e.pdf", make_pdf(["Elin Voss teaches mathematics."])),
    ]
    seen: list[tuple[int, int]] = []
    corpus, errors = load_many(items, LIMIT, progress=lambda done, total: seen.append((done, total)))
    assert [d.id for d in corpus.documents] == ["a", "d", "e"]
    assert corpus.queries == []  # c.jsonl is rejected whole, nothing partial
    assert [(e.file, e.line) for e in errors] == [("b.bin", None), ("c.jsonl", 2)]
    assert seen[-1] == (5, 5) and len(seen) == 5


def test_load_many_reports_id_clash_between_files_of_one_batch():
    corpus, errors = load_many([("notes.txt", b"one"), ("notes.md", b"two")], LIMIT)
    assert [d.text for d in corpus.documents] == ["one"]
    assert errors[0].file == "notes.md" and "rename" in errors[0].message


def test_reupload_merged_with_does_not_overwrite():
    first = load_bytes("a.txt", b"original", LIMIT)
    again = first.merged_with(load_bytes("a.txt", b"changed", LIMIT))
    assert [d.text for d in again.documents] == ["original"]


# ---------------------------------------------------------------------------- sample corpus


def test_sample_corpus_loads_with_unique_ids_and_linked_queries():
    corpus = load_sample_corpus()
    assert isinstance(corpus, Corpus)
    assert len(corpus.documents) >= 10 and len(corpus.queries) >= 3
    ids = [d.id for d in corpus.documents] + [q.id for q in corpus.queries]
    assert len(ids) == len(set(ids))
    for query in corpus.queries:
        assert 2 <= len(query.doc_ids) <= 3
        assert set(query.doc_ids) <= corpus.document_ids()
        assert query.answers
    text = " ".join(d.text for d in corpus.documents)
    for fact in (
        "Mara Voss works for Lindqvist Robotics.",
        "Lindqvist Robotics is located in Harrow Vale.",
        "Mara Voss lives in Harrow Vale.",
        "Tomas Reyl suffers from asthma.",
    ):
        assert fact in text


def test_sample_corpus_parses_quickly_with_spacy():
    from core.model_loading import get_spacy

    nlp = get_spacy()
    corpus = load_sample_corpus()
    started = time.perf_counter()
    parsed = list(nlp.pipe([d.text for d in corpus.documents]))
    elapsed = time.perf_counter() - started
    assert elapsed < 2.0
    persons = {ent.text for doc in parsed for ent in doc.ents if ent.label_ == "PERSON"}
    assert {"Mara Voss", "Elin Voss", "Tomas Reyl"} <= persons
