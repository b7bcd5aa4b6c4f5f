"""The ReLiK worker for real: a subprocess running relik_server.py, speaking JSON lines.

relik itself cannot be installed here (see OFFLINE.md), so the server loads
tests/data/fake_relik_backend.py through its --backend option; the process, protocol,
offset handling and error paths are the real ones.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from core.extract import ExtractionError, get_extractor
from core.extract.relik_worker import RelikExtractor
from core.settings import Settings
from core.types import triple_key

BACKEND = f"{Path(__file__).parents[2] / 'data' / 'fake_relik_backend.py'}:FakeRelik"
TEXT = "The clinic opened in 2022. Priya Okafor works for Saint Alder Clinic. Tomas Reyl lives in Eastmere."


@pytest.fixture
def worker():
    extractors: list[RelikExtractor] = []

    def start(model: str = "fake") -> RelikExtractor:
        extractor = RelikExtractor(
            sys.executable, model, backend=BACKEND, startup_timeout_s=30, request_timeout_s=30
        )
        extractors.append(extractor)
        return extractor

    yield start
    for extractor in extractors:
        extractor.close()


def test_triplets_become_triples_with_sentence_spans(worker):
    extractor = worker()
    triples = extractor.extract("doc-1", TEXT)
    assert [t.key for t in triples] == [
        triple_key("Priya Okafor", "employer", "Saint Alder Clinic"),
        triple_key("Tomas Reyl", "residence", "Eastmere"),
    ]
    assert [TEXT[t.span[0] : t.span[1]] for t in triples] == [
        "Priya Okafor works for Saint Alder Clinic.",
        "Tomas Reyl lives in Eastmere.",
    ]
    assert {(t.doc_id, t.backend, t.confidence) for t in triples} == {("doc-1", "relik", 0.75)}


def test_one_process_serves_many_documents(worker):
    extractor = worker()
    items = [("a", "Mara Voss works for Lindqvist Robotics."), ("b", "Elin Voss lives in Eastmere.")]
    first = extractor.extract_many(items[:1])
    process_id = extractor._process.pid
    second = extractor.extract_many(items[1:])
    assert extractor._process.pid == process_id
    assert [(t.doc_id, t.head) for t in first + second] == [("a", "Mara Voss"), ("b", "Elin Voss")]


def test_word_offsets_fall_back_to_finding_the_text(worker):
    triples = worker("fake-word-offsets").extract("doc-2", TEXT)
    assert [TEXT[t.span[0] : t.span[1]] for t in triples] == [
        "Priya Okafor works for Saint Alder Clinic.",
        "Tomas Reyl lives in Eastmere.",
    ]


def test_backend_error_names_the_document_and_the_worker_goes_on(worker):
    extractor = worker()
    with pytest.raises(ExtractionError, match=r"'doc-3'.*ValueError: window too long"):
        extractor.extract("doc-3", "Mara Voss works for Acme. RAISE")
    assert [t.tail for t in extractor.extract("doc-4", "Mara Voss works for Acme.")] == ["Acme"]


def test_dead_worker_is_reported_and_restarted(worker):
    extractor = worker()
    with pytest.raises(ExtractionError, match=r"exited \(code 3\).*'doc-5'"):
        extractor.extract("doc-5", "CRASH")
    assert [t.head for t in extractor.extract("doc-6", "Ida Brandt lives in Harrow.")] == ["Ida Brandt"]


def test_model_that_cannot_load_is_a_clear_error(worker):
    with pytest.raises(ExtractionError, match=r"could not start.*missing-model.*not a model on the hub"):
        worker("missing-model").extract("doc-7", TEXT)


def test_missing_interpreter_says_how_to_set_it_up(tmp_path):
    with pytest.raises(ExtractionError, match="set RPS_RELIK_PYTHON"):
        get_extractor("relik", Settings())
    with pytest.raises(ExtractionError, match=r"does not exist.*RPS_RELIK_PYTHON"):
        RelikExtractor(str(tmp_path / "no-such-python"), "fake")


def test_close_stops_the_process(worker):
    extractor = worker()
    extractor.extract("doc-8", "Mara Voss works for Acme.")
    process = extractor._process
    extractor.close()
    assert process.poll() is not None


def _fake_interpreter(tmp_path: Path, body: str) -> str:
    """An executable standing in for the relik interpreter (it ignores the server script)."""
    script = tmp_path / "python"
    script.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    script.chmod(0o755)
    return str(script)


def test_a_worker_printing_endless_noise_is_stopped_at_its_deadline(tmp_path):
    noisy = _fake_interpreter(tmp_path, "echo 'warming up' >&2\nwhile true; do echo 'not json'; done\n")
    extractor = RelikExtractor(noisy, "fake", startup_timeout_s=2, request_timeout_s=2)
    started = time.monotonic()
    with pytest.raises(ExtractionError, match=r"did not answer within 2 s.*stopped.*warming up"):
        extractor.extract("doc-9", TEXT)
    assert time.monotonic() - started < 6  # killed at the deadline, not politely waited for
    assert extractor._process is None  # stopped, not left running


def test_a_silent_worker_error_carries_its_stderr(tmp_path):
    silent = _fake_interpreter(tmp_path, "echo 'CUDA out of memory' >&2\nsleep 60\n")
    extractor = RelikExtractor(silent, "fake", startup_timeout_s=1, request_timeout_s=1)
    with pytest.raises(ExtractionError, match="last messages: CUDA out of memory"):
        extractor.extract("doc-10", TEXT)


def test_worker_deadlines_are_settings():
    settings = Settings(relik_python=sys.executable, relik_startup_timeout_s=7, relik_timeout_s=3)
    extractor = get_extractor("relik", settings)
    assert (extractor.startup_timeout_s, extractor.request_timeout_s) == (7, 3)
