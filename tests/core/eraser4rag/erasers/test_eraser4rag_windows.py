"""eraser4rag rewrites window by window: only windows that mention a private triple reach the
(real, embedded) model, the others are carried through verbatim; annotation tasks are cut into
the same windows, so the rewriter trains on the inputs it sees at inference."""

from __future__ import annotations

from core.eraser4rag.annotation.tasks import AnnotationTask, window_tasks
from core.eraser4rag.erasers.base import EraseRequest
from core.eraser4rag.erasers.eraser4rag import Eraser4RAGEraser, GeneratedScript
from core.eraser4rag.erasers.linearize import fitted_input
from core.eraser4rag.erasers.windows import sentence_spans, windows_of
from core.eraser4rag.filters import PrivacyDefinition
from core.eraser4rag.training.common import model_input, token_counter
from core.settings import Settings
from core.types import Document, Triple

LIVES = ("mara voss", "live_in", "harrow vale")
WORKS = ("mara voss", "work_for", "lindqvist robotics")
TEXT = (
    "Mara Voss lives in Harrow Vale. She works for Lindqvist Robotics. "
    "The weather was mild that spring. Harrow Vale is known for its rain."
)
LIVES_SPAN = (0, 31)
WORKS_SPAN = (32, 65)


def _request() -> EraseRequest:
    triples = (Triple(*LIVES, "d1", LIVES_SPAN), Triple(*WORKS, "d1", WORKS_SPAN))
    definition = PrivacyDefinition(
        private=frozenset({LIVES}),
        public=frozenset({WORKS}),
        excluded=frozenset(),
        moves=(),
        marked=frozenset({LIVES}),
    )
    return EraseRequest(documents=(Document("d1", "", TEXT),), triples=triples, definition=definition)


class RecordingEraser(Eraser4RAGEraser):
    """The real eraser on the real model; it only records what it sends to the model."""

    def __init__(self, settings: Settings) -> None:
        super().__init__(settings)
        self.sent: list[str] = []

    def _generate(self, prompt: str, window: str) -> str:
        self.sent.append(window)
        return super()._generate(prompt, window)

    def _generate_scripts(self, prompts: list[str], windows: list[str]) -> list[GeneratedScript]:
        self.sent += windows
        return super()._generate_scripts(prompts, windows)


def test_windows_cover_the_text_and_mark_span_and_tail_mentions_private() -> None:
    assert "".join(TEXT[s:e] for s, e in sentence_spans(TEXT, 1)) == TEXT
    request = _request()
    windows = windows_of(TEXT, 1, request.triples, request.definition.private)
    assert [w.private for w in windows] == [True, False, False, True]  # span; -; -; the tail named again
    assert [len(w) for w in (sentence_spans(TEXT, 2), sentence_spans(TEXT, 9))] == [2, 1]


def test_only_private_windows_reach_the_model_and_the_rest_is_kept_verbatim() -> None:
    settings = Settings(rewriter_adapter="none", rewriter_max_new_tokens=3, rewriter_window_sentences=1)
    eraser = RecordingEraser(settings)
    (rewrite,) = eraser.erase(_request())
    assert [w.strip() for w in eraser.sent] == [
        "Mara Voss lives in Harrow Vale.",
        "Harrow Vale is known for its rain.",
    ]
    assert "She works for Lindqvist Robotics. The weather was mild that spring." in rewrite.text
    assert any("window(s) 2, 3 of 4 mention no private triple" in note for note in rewrite.notes)


def test_every_window_reaches_the_model_when_asked_and_when_too_long_keeps_whole_documents() -> None:
    everything = RecordingEraser(
        Settings(
            rewriter_adapter="none",
            rewriter_max_new_tokens=2,
            rewriter_window_sentences=1,
            rewriter_only_private_windows=False,
        )
    )
    list(everything.erase(_request()))
    assert len(everything.sent) == 4
    whole = RecordingEraser(
        Settings(rewriter_adapter="none", rewriter_max_new_tokens=2, rewriter_windows="when-too-long")
    )
    list(whole.erase(_request()))
    assert whole.sent == [TEXT]


def test_window_tasks_are_the_eraser_windows_with_their_own_occurrences_and_prompt() -> None:
    task = AnnotationTask(
        doc_id="d1",
        text=TEXT,
        private=(LIVES,),
        public=(WORKS,),
        global_private=(LIVES,),
        global_public=(WORKS,),
        occurrences=((*LIVES, *LIVES_SPAN), (*WORKS, *WORKS_SPAN)),
    )
    first, last = window_tasks(task, 1)
    assert (first.doc_id, first.text, first.private, first.public) == ("d1#w1", TEXT[:31], (LIVES,), ())
    assert last.text == "Harrow Vale is known for its rain." and last.private == () and last.occurrences == ()
    (pair,) = [t for t in window_tasks(task, 2) if t.doc_id == "d1#w1"]
    assert (
        pair.public == (WORKS,) and pair.text[pair.occurrences[1][3] : pair.occurrences[1][4]] == TEXT[32:65]
    )
    eraser = Eraser4RAGEraser(Settings(rewriter_adapter="none"))
    tokenizer = eraser.rewriter.tokenizer
    prompt, _selection = fitted_input(first.text, [LIVES], [WORKS], eraser._tokens, 384)
    assert model_input(first, tokenizer, 384) == prompt  # training and inference build the same input
    assert token_counter(tokenizer)("Mara") == eraser._tokens("Mara")
