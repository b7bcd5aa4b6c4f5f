"""`eraser4rag`: the paper's rewriter (section 3.1.2) -- a language model that reads the
document and the linearised global triples G_pri / G_pub and writes the rewrite.

Sequence-to-sequence models (the Flan-T5 family, `AutoModelForSeq2SeqLM`) and causal
LMs both work, from a local folder or a hub id (`--rewriter-model`), with an optional
peft LoRA adapter (`--rewriter-adapter`). The offline default is the embedded
SmolLM2-135M-Instruct, with the adapter shipped in `assets/adapters/` (trained by the
studio's own pipeline, see README) unless `--rewriter-adapter` says otherwise: "" or "none"
give the untrained base model, which the eraser reports as `trained = False` and the UI
labels "untrained". The shipped adapter belongs to the embedded model only; with another
`--rewriter-model` the default ("shipped") means no adapter.

Context: the input is the document plus G_pri and G_pub. When that exceeds
`rewriter_max_input_tokens`, the document is rewritten sentence-window by sentence-window
(`rewriter_window_sentences`), and each window gets the triples that fit, those sharing
an entity with the window first; every such cut is written in the rewrite's notes.
Nothing is truncated silently.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.erasers.base import NO_PRIVATE_NOTE, EraseRequest, EraserError, Progress, Rewrite, edits_between
from core.erasers.linearize import add_special_tokens, linearize_triple, rewriter_input, select_triples
from core.settings import Settings
from core.types import Document, TripleKey

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
SHIPPED = "shipped"
SHIPPED_ADAPTER = Path(__file__).resolve().parents[2] / "assets" / "adapters" / "smollm2-135m-eraser4rag"
NO_ADAPTER = ("", "none")
_lock = threading.Lock()


@dataclass(frozen=True)
class Rewriter:
    tokenizer: Any
    model: Any
    seq2seq: bool
    source: str


@lru_cache(maxsize=2)
def load_rewriter(name_or_path: str, adapter: str, cache_dir: str) -> Rewriter:
    """Tokenizer and model (with the eight special tokens and the adapter, if any), on CPU."""
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForSeq2SeqLM, AutoTokenizer

    from core.models import ModelUnavailable, resolve_local_lm
    from core.settings import default_cache_dir

    source = resolve_local_lm(name_or_path, cache_dir or str(default_cache_dir()))
    try:
        config = AutoConfig.from_pretrained(source)
        tokenizer_source = adapter if adapter and _has_tokenizer(Path(adapter)) else source
        tokenizer = AutoTokenizer.from_pretrained(tokenizer_source)
        seq2seq = bool(getattr(config, "is_encoder_decoder", False))
        model_class = AutoModelForSeq2SeqLM if seq2seq else AutoModelForCausalLM
        model = model_class.from_pretrained(source)
    except OSError as exc:
        raise ModelUnavailable(
            f"rewriter model {source!r} could not be loaded ({exc}); give a local folder or a hub id "
            "with --rewriter-model (hub ids need internet)"
        ) from exc
    add_special_tokens(tokenizer, model)
    if adapter:
        model = _with_adapter(model, adapter)
    model.eval()
    return Rewriter(tokenizer, model, seq2seq, source)


def resolve_adapter(model: str, adapter: str) -> str:
    """The adapter folder to load ("" = none): "shipped" is the committed adapter of the embedded model."""
    value = adapter.strip()
    if value.lower() in NO_ADAPTER:
        return ""
    if value == SHIPPED:
        embedded = not model.strip()
        return str(SHIPPED_ADAPTER) if embedded and (SHIPPED_ADAPTER / "adapter_config.json").exists() else ""
    return value


def _has_tokenizer(folder: Path) -> bool:
    return (folder / "tokenizer_config.json").exists()


def _with_adapter(model: Any, adapter: str) -> Any:
    from peft import PeftModel

    from core.models import ModelUnavailable

    if not (Path(adapter) / "adapter_config.json").exists():
        raise ModelUnavailable(f"{adapter!r} is not a peft adapter folder (no adapter_config.json)")
    return PeftModel.from_pretrained(model, adapter)


def split_sentences(text: str) -> list[str]:
    """Sentences with their trailing whitespace, so that "".join gives the text back."""
    pieces: list[str] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        pieces.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        pieces.append(text[start:])
    return pieces


class Eraser4RAGEraser:
    name = "eraser4rag"

    def __init__(self, settings: Settings, rewriter: Rewriter | None = None) -> None:
        self.settings = settings
        self._rewriter = rewriter
        self.adapter = resolve_adapter(settings.rewriter_model, settings.rewriter_adapter)
        self.trained = bool(self.adapter)
        self._cost_cache: dict[tuple[TripleKey, bool], int] = {}

    @property
    def rewriter(self) -> Rewriter:
        if self._rewriter is None:
            s = self.settings
            self._rewriter = load_rewriter(s.rewriter_model, self.adapter, s.cache_dir)
        return self._rewriter

    def erase(self, request: EraseRequest, progress: Progress | None = None) -> Iterator[Rewrite]:
        if not request.definition.private:
            yield from self._unchanged(request, NO_PRIVATE_NOTE)
            return
        private = sorted(request.definition.private)  # the global G_pri and G_pub, as the paper argues
        public = sorted(request.definition.public)
        total = len(request.documents)
        for done, document in enumerate(request.documents, start=1):
            yield self.rewrite_document(document, request, private, public)
            if progress is not None:
                progress(done, total)

    def _unchanged(self, request: EraseRequest, note: str) -> Iterator[Rewrite]:
        for d in request.documents:
            yield Rewrite(d.id, self.name, d.text, d.text, (), (), request.public_keys_of(d.id), 0.0, (note,))

    def rewrite_document(
        self,
        document: Document,
        request: EraseRequest,
        private: Sequence[TripleKey],
        public: Sequence[TripleKey],
    ) -> Rewrite:
        started = time.perf_counter()
        notes: list[str] = []
        windows = self._windows(document.text, notes)
        outputs = []
        for number, window in enumerate(windows, start=1):
            bare = self._tokens(rewriter_input(window.strip(), (), ()))
            room = self.settings.rewriter_max_input_tokens - bare
            selection = select_triples(window, private, public, self._triple_tokens, room)
            if selection.note():
                notes.append(f"window {number} of {len(windows)}: {selection.note()}")
            prompt = rewriter_input(window.strip(), selection.private, selection.public)
            output = self._generate(prompt, window)
            if window.strip() and not output:
                notes.append(
                    f"window {number} of {len(windows)}: the model returned an empty rewrite, so this part "
                    "is left out; train an adapter (--rewriter-adapter) or use another model"
                )
            outputs.append(output)
        text = " ".join(o for o in outputs if o)
        if not self.trained:
            notes.append("untrained: no LoRA adapter (--rewriter-adapter ''/none, or a model the shipped "
                         "adapter is not for); the base model only follows the instruction")
        return Rewrite(
            doc_id=document.id,
            eraser=self.name,
            original=document.text,
            text=text,
            edits=edits_between(document.text, text),
            removed=request.private_keys_of(document.id),
            kept=request.public_keys_of(document.id),
            seconds=time.perf_counter() - started,
            notes=tuple(notes),
        )

    def _tokens(self, text: str) -> int:
        return len(self.rewriter.tokenizer(text, add_special_tokens=True)["input_ids"])

    def _triple_tokens(self, key: TripleKey, private: bool) -> int:
        cached = self._cost_cache.get((key, private))
        if cached is None:
            text = " " + linearize_triple(key, private)
            cached = len(self.rewriter.tokenizer(text, add_special_tokens=False)["input_ids"])
            self._cost_cache[(key, private)] = cached
        return cached

    def _windows(self, text: str, notes: list[str]) -> list[str]:
        """The whole text when it fits with room for triples, else windows of a few sentences."""
        budget = self.settings.rewriter_max_input_tokens
        if self._tokens(rewriter_input(text, (), ())) <= budget // 2:
            return [text]
        sentences = split_sentences(text)
        size = max(1, self.settings.rewriter_window_sentences)
        windows: list[str] = []
        for start in range(0, len(sentences), size):
            window = "".join(sentences[start : start + size])
            windows.extend(self._split_long(window, budget // 2, notes))
        notes.append(
            f"document longer than the context: rewritten in {len(windows)} windows of up to {size} sentences"
        )
        return windows

    def _split_long(self, window: str, budget: int, notes: list[str]) -> list[str]:
        tokenizer = self.rewriter.tokenizer
        overhead = self._tokens(rewriter_input("", (), ()))
        ids = tokenizer(window, add_special_tokens=False)["input_ids"]
        room = max(16, budget - overhead)
        if len(ids) <= room:
            return [window]
        notes.append(
            f"a passage of {len(ids)} tokens has no sentence break within the context: "
            f"split every {room} tokens"
        )
        return [tokenizer.decode(ids[i : i + room]) for i in range(0, len(ids), room)]

    def _generate(self, prompt: str, window: str) -> str:
        import torch

        rewriter = self.rewriter
        tokenizer = rewriter.tokenizer
        inputs = tokenizer(prompt, return_tensors="pt")
        window_tokens = len(tokenizer(window, add_special_tokens=False)["input_ids"])
        max_new = min(self.settings.rewriter_max_new_tokens, int(window_tokens * 1.5) + 16)
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        try:
            with _lock, torch.no_grad():
                output = rewriter.model.generate(
                    **inputs, max_new_tokens=max_new, do_sample=False, pad_token_id=pad
                )
        except RuntimeError as exc:
            raise EraserError(f"the rewriter {rewriter.source!r} failed: {exc}") from exc
        tokens = output[0] if rewriter.seq2seq else output[0, inputs["input_ids"].shape[1] :]
        return tokenizer.decode(tokens, skip_special_tokens=True).strip()
