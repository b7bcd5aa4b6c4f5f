"""Training the deletion tagger: labels from the word diff, the fitted head, the features cache."""

from __future__ import annotations

import json
from pathlib import Path

import torch

from core.eraser4rag.erasers.deletion_tags import FLAG_COUNT, TaggerHead, load_head, word_flags, words_of
from core.eraser4rag.training.tagger import cached, deletion_labels, fit_head, word_scores

# PopQA dev passages (Henry Master Feilden; Arcangelo Resani) and graph-guided targets of them
FEILDEN = (
    "Henry Master Feilden (21 February 1818 – 5 September 1875) was an English Conservative Party politician."
)
FEILDEN_TARGET = "Henry Master Feilden (21 February 1818 – 5 September 1875) was an English politician."
RESANI = (
    "He was born at Rome and was a pupil of Giovanni Battista Boncuore. "
    "He chiefly excelled in painting animals."
)
RESANI_TARGET = "He chiefly excelled in painting animals."
PARTY = ("Henry Master Feilden", "member of political party", "Conservative Party")
TEACHER = ("Arcangelo Resani", "student of", "Giovanni Battista Boncuore")


def test_a_word_is_labelled_delete_when_the_target_does_not_keep_it() -> None:
    labels = deletion_labels(FEILDEN, FEILDEN_TARGET)
    deleted = [FEILDEN[s:e] for (s, e), y in zip(words_of(FEILDEN), labels, strict=True) if y]
    assert deleted == ["Conservative", "Party"]
    labels = deletion_labels(RESANI, RESANI_TARGET)
    assert sum(labels) == len(words_of(RESANI.split(". ")[0] + "."))  # the whole first sentence
    assert deletion_labels(RESANI, RESANI) == [0.0] * len(words_of(RESANI))


def test_the_fitted_head_separates_what_its_features_separate() -> None:
    rows = []
    labels = []
    for text, key in ((FEILDEN, PARTY), (RESANI, TEACHER)):
        words = words_of(text)
        flags = torch.tensor(word_flags(text, words, [key], []))
        rows.append(
            torch.cat([torch.randn(len(words), 6, generator=torch.Generator().manual_seed(1)), flags], -1)
        )
        labels += [f[0] for f in flags.tolist()]  # delete exactly the private tail's words
    features, truth = torch.cat(rows), torch.tensor(labels)
    weight, bias, curve = fit_head(features, truth, epochs=200)
    assert curve[-1] < curve[0]
    head = TaggerHead(weight, bias, (-1,), 0.5)
    scores = word_scores(head.probabilities(features), truth, 0.5)
    assert scores["recall"] == 1.0 and scores["precision"] == 1.0
    assert features.shape[1] == 6 + FLAG_COUNT


def test_features_are_computed_once_per_cache_folder(tmp_path: Path) -> None:
    calls = []

    def compute() -> tuple[list[torch.Tensor], list[torch.Tensor]]:
        calls.append(1)
        return [torch.ones(2, 3)], [torch.zeros(2)]

    first = cached(tmp_path, "train", compute)
    again = cached(tmp_path, "train", compute)
    assert len(calls) == 1 and torch.equal(first[0][0], again[0][0])
    assert cached(None, "train", compute) and len(calls) == 2  # no folder: always computed


def test_accepted_reviews_are_read_beside_the_window_data(tmp_path: Path) -> None:
    import json

    from core.eraser4rag.annotation.export import sft_record
    from core.eraser4rag.training.tagger import read_windows
    from tests.annotation_fixtures import tiny_task

    windows = tmp_path / "windows.jsonl"
    windows.write_text(
        json.dumps({"document": FEILDEN, "applied": FEILDEN_TARGET, "completion": "DEL Conservative Party"})
        + "\n",
        encoding="utf-8",
    )
    reviews = tmp_path / "reviews.jsonl"  # what `annotate export` writes for an accepted review
    reviews.write_text(
        json.dumps(sft_record(tiny_task(), "She works as an architect.")) + "\n", encoding="utf-8"
    )
    first, second = read_windows(windows, reviews)
    assert first["applied"] == FEILDEN_TARGET  # edit_data's text, not its script
    assert second["applied"] == "She works as an architect."
    labels = deletion_labels(second["document"], second["applied"])
    assert sum(labels) == len(words_of("Mara Voss lives in Harrow Vale."))  # the first sentence goes


def _reviewed_store(tmp_path: Path):
    """A studio store with three accepted reviews (one edited) and one whose target is broken."""
    from core.eraser4rag.annotation.candidates import CandidateProposal
    from core.eraser4rag.annotation.scoring import Scores
    from storage.annotation_store import AnnotationStore
    from tests.annotation_fixtures import tiny_task

    store = AnnotationStore(tmp_path / "studio.sqlite3")
    texts = {
        "d1": ("Mara Voss lives in Harrow Vale. She works as an architect.", "She works as an architect."),
        "d2": ("Priya Okafor lives in Eastmere. She plays the violin.", "She plays the violin."),
        "d3": ("Tomas Reyl lives in Northport. He is a nurse.", "Tomas Reyl is a nurse."),
        "d4": ("Ada Brook lives in Harrow Vale. She is a pilot.", "Ada Brook lives in. She is a pilot."),
    }
    ids = store.add_tasks([tiny_task(doc, text) for doc, (text, _target) in texts.items()])
    good = Scores(0.0, 1.0, (), "spacy", True)
    for task_id, (_text, target) in zip(ids, texts.values(), strict=True):
        candidate = store.add_candidate(task_id, CandidateProposal("model", "graph-guided", target), good)
        store.review(candidate, "ann", "accept")
    return store


def test_the_tagger_trains_on_accepted_reviews_and_the_eraser_loads_its_folder(tmp_path: Path) -> None:
    from core.eraser4rag.training.common import RunHooks
    from core.eraser4rag.training.tagger import TaggerSettings, train_tagger, windows_from_examples

    store = _reviewed_store(tmp_path)
    rows = windows_from_examples(store.accepted_pairs())
    assert len(rows) == 3  # "Ada Brook lives in." is broken: never learned from
    points = []
    hooks = RunHooks(on_point=points.append)
    result = train_tagger(rows, tmp_path / "tagger", TaggerSettings(epochs=60), hooks)
    assert result.saved and not result.cancelled
    assert (tmp_path / "tagger" / "tagger.safetensors").exists()
    card = json.loads((tmp_path / "tagger" / "training.json").read_text(encoding="utf-8"))
    assert card["kind"] == "deletion-tagger" and card["data"]["windows_train"] == 2
    assert points[0]["step"] == 0 and points[-1]["step"] == 59 and points[-1]["loss"] < points[0]["loss"]
    head = load_head(tmp_path / "tagger")
    assert 0.0 < head.threshold <= 1.01
    store.close()


def test_a_cancelled_tagger_run_writes_and_caches_nothing(tmp_path: Path) -> None:
    import threading

    from core.eraser4rag.training.common import RunHooks
    from core.eraser4rag.training.tagger import TaggerSettings, train_tagger

    rows = [
        {"document": FEILDEN, "applied": FEILDEN_TARGET, "global_private": [PARTY], "global_public": []},
        {"document": RESANI, "applied": RESANI_TARGET, "global_private": [TEACHER], "global_public": []},
    ]
    stop = threading.Event()
    stop.set()
    config = TaggerSettings(features_cache=str(tmp_path / "features"))
    result = train_tagger(rows, tmp_path / "tagger", config, RunHooks(cancelled=stop))
    assert result.cancelled and not result.saved
    assert not (tmp_path / "tagger").exists() and not list((tmp_path / "features").glob("*.pt"))


def test_the_review_tab_trains_the_tagger_as_a_recorded_background_run(tmp_path: Path) -> None:
    from core.settings import Settings
    from ui.review_tab import _Store, _Trainer

    _reviewed_store(tmp_path).close()
    db = str(tmp_path / "studio.sqlite3")
    trainer = _Trainer(Settings(db=db), _Store(db))
    trainer.start("tagger", str(tmp_path / "out"), "", 40)
    (run,) = trainer.store.store.runs()
    trainer.jobs.join(run.id, timeout=300)
    (run,) = trainer.store.store.runs()
    assert (run.kind, run.status, run.examples) == ("tagger", "finished", 3), run.message
    assert run.settings["epochs"] == 40 and (tmp_path / "out" / "tagger.safetensors").exists()
    assert [p["step"] for p in run.curve][:2] == [0, 20] and "loss" in run.curve[0]
    status, _plot = trainer.latest()
    assert "finished" in status
