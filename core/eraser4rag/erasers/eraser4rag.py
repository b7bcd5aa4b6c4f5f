"""`eraser4rag`: the paper's rewriter (section 3.1.2) -- a language model that reads the
document and the linearised global triples G_pri / G_pub and writes the rewrite.

Sequence-to-sequence models (the Flan-T5 family, `AutoModelForSeq2SeqLM`) and causal
LMs both work, from a local folder or a hub id (`--rewriter-model`), with an optional
peft LoRA adapter (`--rewriter-adapter`). The offline default is the embedded
SmolLM2-135M-Instruct, with the deletion tagger shipped in `assets/adapters/` (trained by the
studio's own pipeline, see README) unless `--rewriter-adapter` says otherwise: "" or "none"
give the untrained base model, which the eraser reports as `trained = False` and the UI
labels "untrained". The shipped adapter belongs to the embedded model only; with another
`--rewriter-model` the default ("shipped") means no adapter.

Windows (`rewriter_windows`, default "always"): the document is rewritten sentence-window
by sentence-window (`rewriter_window_sentences`) even when it would fit the context, and
only windows that mention a private triple (`core.eraser4rag.erasers.windows`: a private occurrence's
span, or the tail of a private triple that concerns the document) reach the model
(`rewriter_only_private_windows`, default true); the others are carried through verbatim,
and the rewrite's notes say which. This is an engineering choice of the studio, NOT the
paper's: the paper feeds whole documents to Flan-T5-large. Text that holds nothing private
is then never put at risk by the model, and a window is a short input for a 135M model.
The shipped adapter is trained on exactly these windows (`annotate tasks --windows`,
`benchmarks/build_adapter.sh`; SFT with the loss weighed on the tokens where the rewrite
departs from the window, since plain SFT taught it to copy). "when-too-long" gives the
paper's whole-document input back, windowing only documents that exceed
`rewriter_max_input_tokens`.

Output (`rewriter_output`; "auto", the default, takes the form the adapter was trained for
from its training.json, else "rewrite"): with "tags" (the shipped tagger,
`core.eraser4rag.erasers.deletion_tags`) a linear head over the model's hidden states tags the
words of each private window to delete, the graph-guided repair makes the text read, and the
guard (`rewriter_tag_guard`) removes what the model left of a private tail; with "edits" the
model writes an edit script per window
(`core.eraser4rag.erasers.edit_script`: CUT / DEL / REP ... BY / KEEP lines, each anchored by verbatim
text of the window), decoded with `edit_decoding.anchor_constraint` so that every anchor
exists in the window; the script is applied, so text outside its edits is kept verbatim by
construction, and the model writes a few tokens instead of the whole window. The private
windows of a document are decoded as one batch (greedy, KV cache). A script that does not
parse or apply (an anchor off a word boundary, a BY line that repeats a keyword or runs too
long, a script the token budget cut before the model ended it, ...) is rejected; that window
then falls back to deleting the sentences that name a private tail of the document, never
to the unedited window when a sentence names one. Each fallback, with the script line and
why, is in the rewrite's `fallbacks` (reported as a "fallback" problem by the Rewrite tab
and the `erase` command's OUT and metrics) and notes.
"rewrite" is the paper's form: the model writes the whole rewritten window.

Each model input is built by `linearize.fitted_input` (shared with training): the window
and the global triples that fit, the most related to the window first; every
cut is written in the rewrite's notes. Nothing is truncated silently.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.eraser4rag.erasers.base import NO_PRIVATE_NOTE, EraseRequest, EraserError, Rewrite, edits_between
from core.eraser4rag.erasers.deletion_tags import (
    TaggerHead,
    check_width,
    deletion_spans,
    guard_spans,
    has_tagger,
    in_private_sentences,
    load_head,
    spare_public_tails,
    window_tails,
    with_whole_names,
    word_features,
    word_signals,
)
from core.eraser4rag.erasers.edit_decoding import anchor_constraint
from core.eraser4rag.erasers.edit_script import ScriptError, apply_script, parse_script
from core.eraser4rag.erasers.graph_guided import ParseCache, edited_rewrite, sayable_public
from core.eraser4rag.erasers.linearize import OUTPUT_FORMS, add_special_tokens, fitted_input, rewriter_input
from core.eraser4rag.erasers.mentions import mentions_entity
from core.eraser4rag.erasers.repair import Removal, repair_removals, without_broken_sentences
from core.eraser4rag.erasers.sentences import split_at_stops
from core.eraser4rag.erasers.windows import Window, concerning_keys, windows_of
from core.model_loading import ModelUnavailable, resolve_local_lm
from core.settings import Settings, default_cache_dir
from core.types import Document, Progress, TripleKey

__all__ = ["Eraser4RAGEraser", "load_rewriter", "resolve_adapter"]
WINDOW_MODES = ("always", "when-too-long")
SHIPPED = "shipped"
ADAPTERS = Path(__file__).resolve().parents[3] / "assets" / "adapters"
SHIPPED_ADAPTER = ADAPTERS / "smollm2-135m-eraser4rag"  # the deletion tagger (tags form)
REWRITE_ADAPTER = ADAPTERS / "smollm2-135m-eraser4rag-rewrite"  # the previous one: LoRA, rewrite form
NO_ADAPTER = ("", "none")
AUTO = "auto"
EDIT_SCRIPT_TOKENS = 96  # an edit script's token budget (anchors are a few words; CUT needs two)
_lock = threading.Lock()
TAGGED = "tagged for deletion"  # the reason of a removal the model's tags chose
GUARDED = "private tail the model kept (guard)"


@dataclass(frozen=True)
class GeneratedScript:
    """An edit script as the model wrote it; `budget` is the token budget when it ran out
    before the model ended the script (0 when the model ended it)."""

    text: str
    budget: int = 0


@dataclass(frozen=True)
class Rewriter:
    tokenizer: Any
    model: Any
    seq2seq: bool
    source: str


@lru_cache(maxsize=2)
def load_rewriter(name_or_path: str, adapter: str, cache_dir: str) -> Rewriter:
    """Tokenizer and model (with the eight special tokens and the adapter, if any), on CPU."""
    # transformers (~2 s) loads only when a model runs
    from transformers import AutoConfig, AutoModelForCausalLM, AutoModelForSeq2SeqLM, AutoTokenizer

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
    if adapter and not (has_tagger(adapter) and not (Path(adapter) / "adapter_config.json").exists()):
        model = _with_adapter(model, adapter)  # a tagger-only folder adds a head, not LoRA weights
    model.eval()
    return Rewriter(tokenizer, model, seq2seq, source)


def resolve_adapter(model: str, adapter: str) -> str:
    """The adapter folder to load ("" = none): "shipped" is the committed adapter of the embedded model."""
    value = adapter.strip()
    if value.lower() in NO_ADAPTER:
        return ""
    if value == SHIPPED:
        embedded = not model.strip()
        present = (SHIPPED_ADAPTER / "adapter_config.json").exists() or has_tagger(SHIPPED_ADAPTER)
        return str(SHIPPED_ADAPTER) if embedded and present else ""
    return value


def _has_tokenizer(folder: Path) -> bool:
    return (folder / "tokenizer_config.json").exists()


def _with_adapter(model: Any, adapter: str) -> Any:
    # peft (~10 s) loads only when an adapter is trained or applied
    from peft import PeftModel

    if not (Path(adapter) / "adapter_config.json").exists():
        raise ModelUnavailable(f"{adapter!r} is not a peft adapter folder (no adapter_config.json)")
    return PeftModel.from_pretrained(model, adapter)


class Eraser4RAGEraser:
    name = "eraser4rag"

    def __init__(self, settings: Settings, rewriter: Rewriter | None = None) -> None:
        self.settings = settings
        self._rewriter = rewriter
        self.adapter = resolve_adapter(settings.rewriter_model, settings.rewriter_adapter)
        self.trained = bool(self.adapter)
        self._tagger: TaggerHead | None = None
        self._parse_cache: ParseCache | None = None

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
        windows = self._windows(document, request, notes)
        form = output_form(self.settings.rewriter_output, self.adapter)
        if form not in OUTPUT_FORMS:
            raise EraserError(
                f"setting rewriter_output = {form!r}: expected one of {', '.join(OUTPUT_FORMS)}"
            )
        if form == "edits" and self.rewriter.seq2seq:
            form = "rewrite"
            notes.append(
                "edit scripts need a causal model: this sequence-to-sequence model writes whole windows"
            )
        fallbacks: list[str] = []
        if form == "tags":
            return self._tagged_document(document, request, windows, private, public, notes, started)
        if form == "edits":
            outputs = self._edited_windows(document, request, windows, private, public, notes, fallbacks)
        else:
            outputs = self._rewritten_windows(windows, private, public, notes)
        kept = [n for n, w in enumerate(windows, start=1) if not w.private]
        if kept and self.settings.rewriter_only_private_windows and len(windows) > 1:
            notes.append(
                f"window(s) {', '.join(map(str, kept))} of {len(windows)} mention no private triple: "
                "carried through verbatim, not sent to the model"
            )
        text = "".join(
            o + _trailing_space(w.text) for o, w in zip(outputs, windows, strict=True) if o
        ).strip()
        if not self.trained:
            notes.append(
                "untrained: no LoRA adapter (--rewriter-adapter ''/none, or a model the shipped "
                "adapter is not for); the base model only follows the instruction"
            )
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
            fallbacks=tuple(fallbacks),
        )

    def _tagged_document(
        self,
        document: Document,
        request: EraseRequest,
        windows: list[Window],
        private: Sequence[TripleKey],
        public: Sequence[TripleKey],
        notes: list[str],
        started: float,
    ) -> Rewrite:
        """The tags form: the head tags the words of every private window in one batch; the
        tagged words (and what the guard adds) are removed and `repair_removals` makes each
        touched sentence read."""
        chosen = [w for w in windows if w.text.strip() and w.private]
        removals, counts = self._tag_removals(document, request, chosen, private, public, notes)
        tagged, set_aside, guarded = counts
        text, edits = document.text, ()
        if removals:
            parse = self._parse()
            doc = parse(document.text)
            widened = with_whole_names(doc, [removal[0] for removal in removals])
            removals = [(span, *rest) for span, (_old, *rest) in zip(widened, removals, strict=True)]
            public_triples = sayable_public(request, document.id)
            text, edits = repair_removals(document.text, doc, removals, public_triples, parse, document.title)
            text, edits, dropped = without_broken_sentences(document.text, text, edits, parse)
            if dropped:
                notes.append(f"{dropped} sentence(s) the checker flagged after the repair went whole")
        notes.append(
            f"deletion tags: {tagged} span(s) tagged in {len(chosen)} private window(s), "
            f"{set_aside} of them in sentences that state no private fact (kept); "
            f"the guard removed {guarded} private tail mention(s) the model kept"
        )
        seconds = time.perf_counter() - started
        return edited_rewrite(self.name, document, request, text, edits, seconds, tuple(notes))

    def _tag_removals(
        self,
        document: Document,
        request: EraseRequest,
        chosen: list[Window],
        private: Sequence[TripleKey],
        public: Sequence[TripleKey],
        notes: list[str],
    ) -> tuple[list[Removal], tuple[int, int, int]]:
        """Removals (document spans) of the words the head tags in `chosen` windows and of the
        private tail mentions the guard adds; how many spans were tagged, set aside by the guard
        (in sentences that state no private fact) and added by it."""
        head = self._head()
        budget = min(self.settings.rewriter_edit_input_tokens, self.settings.rewriter_max_input_tokens)
        prompts, texts, flags, docs, tails_of = [], [], [], [], []
        own = request.private_keys_of(document.id)
        own_public = request.public_keys_of(document.id)
        guard = self.settings.rewriter_tag_guard
        for window in chosen:
            text = window.text.strip()
            prompt, selection = fitted_input(text, private, public, self._tokens, budget, "tags")
            if selection.note():
                notes.append(f"window at {window.span[0]}: {selection.note()}")
            prompts.append(prompt)
            texts.append(text)
            tails_of.append(window_tails(text, own, private))
            docs.append(self._parse()(text) if head.syntax or guard else None)
            flags.append(
                word_signals(text, own, private, public, docs[-1] if head.syntax else None, tails_of[-1])
            )
        if not prompts:
            return [], (0, 0, 0)
        with _lock:
            features = word_features(
                self.rewriter.tokenizer, self.rewriter.model, prompts, texts, head.layers, flags
            )
        check_width(head, features[0].shape[-1])
        private_keys = set(private)
        private_spans = [t.span for t in request.triples_of(document.id) if t.key in private_keys and t.span]
        removals: list[Removal] = []
        counts = [0, 0, 0]  # tagged, set aside, added by the guard
        for window, text, rows, doc, tails in zip(chosen, texts, features, docs, tails_of, strict=True):
            shift = window.span[0] + len(window.text) - len(window.text.lstrip())
            tagged = deletion_spans(text, head.probabilities(rows).tolist(), head.threshold)
            counts[0] += len(tagged)
            if guard:
                inside = [(a - shift, b - shift) for a, b in private_spans]
                keep = in_private_sentences(doc, [span for span, _p in tagged], tails, inside)
                counts[1] += keep.count(False)
                tagged = [tag for tag, kept in zip(tagged, keep, strict=True) if kept]
                tagged = spare_public_tails(text, tagged, window_tails(text, own_public, public), tails)
                guarded = guard_spans(text, [span for span, _p in tagged], tails)
                counts[2] += len(guarded)
                removals += [((a + shift, b + shift), "", GUARDED, ()) for a, b in guarded]
            removals += [((a + shift, b + shift), "", f"{TAGGED} (p = {p:.2f})", ()) for (a, b), p in tagged]
        return removals, (counts[0], counts[1], counts[2])

    def _head(self) -> TaggerHead:
        if self._tagger is None:
            if not has_tagger(self.adapter):
                raise EraserError(
                    "rewriter_output = 'tags' needs a tagger folder (tagger.safetensors); "
                    f"{self.adapter!r} has none"
                )
            self._tagger = load_head(self.adapter)
        return self._tagger

    def _parse(self) -> ParseCache:
        if self._parse_cache is None:
            self._parse_cache = ParseCache(self.settings.spacy_model)
        return self._parse_cache

    def _rewritten_windows(
        self,
        windows: list[Window],
        private: Sequence[TripleKey],
        public: Sequence[TripleKey],
        notes: list[str],
    ) -> list[str]:
        """The paper's form: the model writes each private window whole."""
        outputs = []
        for number, window in enumerate(windows, start=1):
            where = f"window {number} of {len(windows)}"
            if not window.private and self.settings.rewriter_only_private_windows:
                outputs.append(window.text.strip())
                continue
            prompt, selection = fitted_input(
                window.text.strip(), private, public, self._tokens, self.settings.rewriter_max_input_tokens
            )
            if selection.note():
                notes.append(f"{where}: {selection.note()}")
            output = self._generate(prompt, window.text)
            if window.text.strip() and not output:
                notes.append(
                    f"{where}: the model returned an empty rewrite, so this part is left out; "
                    "train an adapter (--rewriter-adapter) or use another model"
                )
            outputs.append(output)
        return outputs

    def _edited_windows(
        self,
        document: Document,
        request: EraseRequest,
        windows: list[Window],
        private: Sequence[TripleKey],
        public: Sequence[TripleKey],
        notes: list[str],
        fallbacks: list[str],
    ) -> list[str]:
        """The edit form: one batch of edit scripts for the private windows, each applied to its
        window; a rejected script's window falls back (`_fallback`), listed in `fallbacks`."""
        outputs = [w.text.strip() for w in windows]
        chosen = [
            n
            for n, w in enumerate(windows)
            if w.text.strip() and (w.private or not self.settings.rewriter_only_private_windows)
        ]
        prompts = []
        for n in chosen:
            prompt, selection = fitted_input(
                windows[n].text.strip(),
                private,
                public,
                self._tokens,
                min(self.settings.rewriter_edit_input_tokens, self.settings.rewriter_max_input_tokens),
                "edits",
            )
            if selection.note():
                notes.append(f"window {n + 1} of {len(windows)}: {selection.note()}")
            prompts.append(prompt)
        scripts = self._generate_scripts(prompts, [outputs[n] for n in chosen]) if prompts else []
        tails = _private_tails(document, request, private)
        applied = 0
        for n, script in zip(chosen, scripts, strict=True):
            try:
                if script.budget:
                    raise ScriptError(
                        f"the token budget of {script.budget} tokens cut the script before it ended",
                        "cut by the token budget",
                    )
                outputs[n] = apply_script(outputs[n], parse_script(script.text))
                applied += 1
            except ScriptError as exc:
                outputs[n], cut = _fallback(outputs[n], tails)
                fallbacks.append(
                    f"window {n + 1} of {len(windows)}: edit script rejected ({exc}); fallback: "
                    f"{cut} sentence(s) naming a private tail deleted"
                )
                notes.append(fallbacks[-1])
        if chosen:
            notes.append(
                f"edit scripts: {applied} of {len(chosen)} applied, {len(chosen) - applied} fallback"
            )
        return outputs

    def _generate_scripts(self, prompts: list[str], windows: list[str]) -> list[GeneratedScript]:
        """Greedy edit scripts for a batch of prompts, anchors constrained to each window's text;
        each says whether the token budget cut it."""
        # torch (~5 s) loads only when a model runs
        import torch

        rewriter = self.rewriter
        tokenizer = rewriter.tokenizer
        if rewriter.seq2seq:
            raise EraserError(
                "rewriter_output = 'edits' needs a causal model; use 'rewrite' with seq2seq models"
            )
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        side = tokenizer.padding_side
        tokenizer.padding_side = "left"
        try:
            inputs = tokenizer(prompts, return_tensors="pt", padding=True).to(rewriter.model.device)
        finally:
            tokenizer.padding_side = side
        length = inputs["input_ids"].shape[1]
        constraint = anchor_constraint(tokenizer, windows, length)
        budget = min(self.settings.rewriter_max_new_tokens, EDIT_SCRIPT_TOKENS)
        try:
            with _lock, torch.no_grad():
                output = rewriter.model.generate(
                    **inputs,
                    max_new_tokens=budget,
                    do_sample=False,
                    pad_token_id=pad,
                    eos_token_id=tokenizer.eos_token_id,  # the one training ends targets with
                    logits_processor=[constraint],
                )
        except RuntimeError as exc:
            raise EraserError(f"the rewriter {rewriter.source!r} failed: {exc}") from exc
        scripts = []
        for row in output:
            generated = row[length:].tolist()
            ended = tokenizer.eos_token_id in generated
            if ended:  # a model's own generation config may name another end token: stop at ours
                generated = generated[: generated.index(tokenizer.eos_token_id)]
            text = tokenizer.decode(generated, skip_special_tokens=True)
            scripts.append(GeneratedScript(text, 0 if ended else budget))
        return scripts

    def _tokens(self, text: str) -> int:
        """Tokens of a prompt part, counted as training counts them (`common.token_counter`)."""
        return len(self.rewriter.tokenizer(text, add_special_tokens=False)["input_ids"])

    def _windows(self, document: Document, request: EraseRequest, notes: list[str]) -> list[Window]:
        """Sentence windows (each marked private or not), split further where one exceeds the context."""
        mode = self.settings.rewriter_windows
        if mode not in WINDOW_MODES:
            expected = ", ".join(WINDOW_MODES)
            raise EraserError(f"setting rewriter_windows = {mode!r}: expected one of {expected}")
        text = document.text
        budget = self.settings.rewriter_max_input_tokens
        size = self.settings.rewriter_window_sentences
        if mode == "when-too-long" and self._tokens(rewriter_input(text, (), ())) <= budget // 2:
            return [Window((0, len(text)), text, True)]
        windows = windows_of(text, size, request.triples_of(document.id), request.definition.private)
        pieces = [piece for window in windows for piece in self._split_long(window, budget // 2, notes)]
        why = "document longer than the context: " if mode == "when-too-long" else ""
        notes.append(f"{why}rewritten in {len(pieces)} window(s) of up to {size} sentences")
        return pieces

    def _split_long(self, window: Window, budget: int, notes: list[str]) -> list[Window]:
        tokenizer = self.rewriter.tokenizer
        overhead = self._tokens(rewriter_input("", (), ()))
        ids = tokenizer(window.text, add_special_tokens=False)["input_ids"]
        room = max(16, budget - overhead)
        if len(ids) <= room:
            return [window]
        notes.append(
            f"a passage of {len(ids)} tokens has no sentence break within the context: "
            f"split every {room} tokens"
        )
        pieces = (tokenizer.decode(ids[i : i + room]) for i in range(0, len(ids), room))
        return [Window(window.span, piece, window.private) for piece in pieces]

    def _generate(self, prompt: str, window: str) -> str:
        # torch (~5 s) loads only when a model runs
        import torch

        rewriter = self.rewriter
        tokenizer = rewriter.tokenizer
        inputs = tokenizer(prompt, return_tensors="pt").to(rewriter.model.device)
        window_tokens = len(tokenizer(window, add_special_tokens=False)["input_ids"])
        max_new = min(self.settings.rewriter_max_new_tokens, int(window_tokens * 1.5) + 16)
        pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
        try:
            with _lock, torch.no_grad():
                output = rewriter.model.generate(
                    **inputs,
                    max_new_tokens=max_new,
                    do_sample=False,
                    pad_token_id=pad,
                    eos_token_id=tokenizer.eos_token_id,
                )
        except RuntimeError as exc:
            raise EraserError(f"the rewriter {rewriter.source!r} failed: {exc}") from exc
        tokens = output[0] if rewriter.seq2seq else output[0, inputs["input_ids"].shape[1] :]
        return tokenizer.decode(tokens, skip_special_tokens=True).strip()


def output_form(setting: str, adapter: str) -> str:
    """The output form: the setting, or with "auto" the form the adapter's training.json records
    (`SftSettings.output_form`; RL cards name their SFT adapter), else "rewrite"."""
    if setting != AUTO:
        return setting
    card = Path(adapter) / "training.json" if adapter else None
    if card is None or not card.exists():
        return "rewrite"
    try:
        settings = json.loads(card.read_text(encoding="utf-8")).get("settings", {})
    except (OSError, ValueError):
        return "rewrite"
    return str(settings.get("output_form") or "rewrite")


def _trailing_space(text: str) -> str:
    return text[len(text.rstrip()) :] or " "


def _private_tails(document: Document, request: EraseRequest, private: Sequence[TripleKey]) -> list[str]:
    """Tails of the private triples that concern the document (its own, and G_pri pairs it names)."""
    keys = concerning_keys(document.text, request.triples_of(document.id), private)
    return sorted({tail for _head, _relation, tail in keys})


def _fallback(window: str, tails: Sequence[str]) -> tuple[str, int]:
    """The window without its sentences that name a private tail, and how many were deleted."""
    sentences = split_at_stops(window)
    kept = [s for s in sentences if not any(mentions_entity(s, tail) for tail in tails)]
    return "".join(kept).strip(), len(sentences) - len(kept)
