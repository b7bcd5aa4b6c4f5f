"""Learned deletion tags (`rewriter_output = tags`): the rewriter as a deletion-based compressor.

The model reads the linearised global triples (the paper's special tokens) and then one
window of the document; a linear head over its hidden state at each word gives the
probability that the word goes (token-level deletion tagging, Filippova et al. 2015,
"Sentence Compression by Deletion with LSTMs"). Words at or above the head's threshold are
removed and `repair.repair_removals` -- the graph-guided eraser's grammar -- decides what
else must go so that every touched sentence still reads. The model decides *what* to cut;
text it does not tag is kept verbatim by construction.

The guard (the tags form's constrained decoding): a tag counts only in a sentence that states a
private fact concerning its window (`window_tails`, `in_private_sentences`), and then a
mention of such a tail that no remaining tag covers is removed too, so the model chooses how much
goes with a private fact but can neither keep the fact itself nor cut a sentence that states
none; a tagged word that says a public fact's tail (and no private one) stays
(`spare_public_tails`), and the repair decides what its sentence needs around it. The rewrite's
notes count the spans the model tagged, those the guard set aside and the mentions the guard added.

Why the triples come first: a causal model's state at a word sees only what precedes it,
so the triples must precede the text they decide about (the paper's encoder-decoder reads
the document first and attends both ways).

A word's features are its tokens' mean hidden state (the layers in `TaggerHead.layers`)
and four flags: whether the word belongs to a private tail, a private head, a public tail
or a public head of the global triples -- all of them, also those the prompt had no room for
(`word_flags`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.eraser4rag.erasers.base import EraserError
from core.eraser4rag.erasers.mentions import find_mentions, pair_named
from core.eraser4rag.erasers.repair import segments
from core.eraser4rag.erasers.tag_syntax import syntax_signals
from core.types import Span, TripleKey

TAGGER_FILE = "tagger.safetensors"
FLAG_COUNT = 4
SYNTAX = "flags+syntax"  # training.json's settings.signals of a head that reads `tag_syntax` signals
_WORD = re.compile(r"\S+")
_BARE = re.compile(r"[\W_]+")


@dataclass(frozen=True)
class TaggerHead:
    """A linear layer over [mean hidden state of the chosen layers; flags], and its threshold."""

    weight: Any  # torch tensor (features,)
    bias: float
    layers: tuple[int, ...]
    threshold: float
    syntax: bool = False  # the words' `tag_syntax` signals follow the flags

    def probabilities(self, features: Any) -> Any:
        # torch (~5 s) loads only when a model runs
        import torch

        return torch.sigmoid(features @ self.weight + self.bias)


def check_width(head: TaggerHead, width: int) -> None:
    """Refuse features the head was not fitted on (a flags-only head given syntactic signals, or
    another model's hidden size): the product would fail or, worse, mean nothing."""
    expected = int(head.weight.numel())
    if width != expected:
        signals = SYNTAX if head.syntax else "flags"
        raise EraserError(
            f"the tagger head has {expected} weights but its words have {width} features: it was fitted "
            f"with other signals or another model (its card says signals = {signals!r}); retrain it "
            "with `train tagger` or benchmarks/build_adapter.sh"
        )


def has_tagger(folder: str | Path) -> bool:
    return bool(str(folder)) and (Path(folder) / TAGGER_FILE).exists()


def save_head(head: TaggerHead, folder: Path) -> None:
    from safetensors.torch import save_file

    folder.mkdir(parents=True, exist_ok=True)
    save_file(
        {"weight": head.weight.contiguous(), "bias": head.weight.new_tensor([head.bias])},
        folder / TAGGER_FILE,
    )


def load_head(folder: str | Path) -> TaggerHead:
    """The head in `folder`, with the layers and threshold its training.json records."""
    from safetensors.torch import load_file

    tensors = load_file(Path(folder) / TAGGER_FILE)
    card = json.loads((Path(folder) / "training.json").read_text(encoding="utf-8"))
    settings = card.get("settings", {})
    return TaggerHead(
        tensors["weight"],
        float(tensors["bias"][0]),
        tuple(settings.get("layers", (-1,))),
        float(settings.get("threshold", 0.5)),
        settings.get("signals") == SYNTAX,
    )


def words_of(text: str) -> list[Span]:
    return [(m.start(), m.end()) for m in _WORD.finditer(text)]


def _bare_words(text: str) -> set[str]:
    return {w for w in (_BARE.sub("", part).lower() for part in text.split()) if len(w) > 1}


def word_flags(
    text: str, words: Sequence[Span], private: Sequence[TripleKey], public: Sequence[TripleKey]
) -> list[list[float]]:
    """Per word: [in a private tail, in a private head, in a public tail, in a public head]."""
    sets = (
        set().union(*(_bare_words(k[2]) for k in private)),
        set().union(*(_bare_words(k[0]) for k in private)),
        set().union(*(_bare_words(k[2]) for k in public)),
        set().union(*(_bare_words(k[0]) for k in public)),
    )
    flags = []
    for start, end in words:
        word = _BARE.sub("", text[start:end]).lower()
        flags.append([float(bool(word) and word in s) for s in sets])
    return flags


def word_signals(
    text: str,
    own_private: Sequence[TripleKey],
    private: Sequence[TripleKey],
    public: Sequence[TripleKey],
    doc: Any = None,
    tails: Sequence[str] | None = None,
) -> list[list[float]]:
    """Per word of `text`: the four flags, then (given `doc`, a parse of `text`) the syntactic
    signals relative to the private tails the window concerns (`tag_syntax.SIGNALS`; `tails`: those
    tails when the caller has them, `window_tails`)."""
    words = words_of(text)
    flags = word_flags(text, words, private, public)
    if doc is None:
        return flags
    if tails is None:
        tails = window_tails(text, own_private, private)
    syntax = syntax_signals(doc, words, tails, sorted({key[2] for key in public}))
    return [f + s for f, s in zip(flags, syntax, strict=True)]


def word_features(
    tokenizer: Any,
    model: Any,
    prompts: Sequence[str],
    windows: Sequence[str],
    layers: Sequence[int],
    flags: Sequence[Sequence[Sequence[float]]],
) -> list[Any]:
    """Per window: a (words, features) tensor. Each prompt ends with its window's text."""
    # torch (~5 s) loads only when a model runs
    import torch

    side = tokenizer.padding_side
    tokenizer.padding_side = "left"
    try:
        encoded = tokenizer(list(prompts), return_tensors="pt", padding=True, return_offsets_mapping=True)
    finally:
        tokenizer.padding_side = side
    offsets = encoded.pop("offset_mapping")
    with torch.no_grad():
        output = model(**encoded.to(model.device), output_hidden_states=True)
    states = torch.cat([output.hidden_states[layer] for layer in layers], dim=-1).float().cpu()
    features = []
    for row, (prompt, window) in enumerate(zip(prompts, windows, strict=True)):
        start = len(prompt) - len(window)
        words = words_of(window)
        pooled = _pool_words(
            states[row], offsets[row].tolist(), encoded["attention_mask"][row].tolist(), start, words
        )
        features.append(
            torch.cat([pooled, torch.tensor(flags[row], dtype=pooled.dtype).reshape(len(words), -1)], dim=-1)
        )
    return features


def _pool_words(
    states: Any, offsets: list[list[int]], mask: list[int], start: int, words: Sequence[Span]
) -> Any:
    """Mean hidden state of the tokens overlapping each word (window offsets shifted by `start`)."""
    import torch

    pooled = torch.zeros(len(words), states.shape[-1])
    counts = [0] * len(words)
    w = 0
    for index, ((first, last), real) in enumerate(zip(offsets, mask, strict=True)):
        if not real or last <= start:
            continue
        first, last = first - start, last - start
        while w < len(words) and words[w][1] <= first:
            w += 1
        k = w
        while k < len(words) and words[k][0] < last:
            pooled[k] += states[index]
            counts[k] += 1
            k += 1
    for k, count in enumerate(counts):
        if count:
            pooled[k] /= count
    return pooled


def deletion_spans(window: str, probabilities: Sequence[float], threshold: float) -> list[tuple[Span, float]]:
    """Runs of consecutive tagged words as spans of `window`, each with its highest probability."""
    spans: list[tuple[Span, float]] = []
    for (start, end), p in zip(words_of(window), probabilities, strict=True):
        if p < threshold:
            continue
        if spans and not window[spans[-1][0][1] : start].strip():
            (first, _last), best = spans[-1]
            spans[-1] = ((first, end), max(best, p))
        else:
            spans.append(((start, end), p))
    return spans


def window_tails(window: str, own: Sequence[TripleKey], global_keys: Sequence[TripleKey]) -> list[str]:
    """Tails of the passage's own triples, and of the global triples whose head and tail the window names
    (a pair a reader could re-join): with private keys, the facts a cut must erase; with public ones, those
    it must leave readable."""
    tails = {key[2] for key in own}
    tails |= {key[2] for key in global_keys if pair_named(window, key)}
    return sorted(tails)


def guard_spans(window: str, tagged: Sequence[Span], tails: Sequence[str]) -> list[Span]:
    """Mentions of `tails` in `window` that no tagged span covers."""
    added: list[Span] = []
    for tail in tails:
        for first, last in find_mentions(window, tail):
            if not any(start <= first and last <= end for start, end in [*tagged, *added]):
                added.append((first, last))
    return added


def spare_public_tails(
    window: str,
    tagged: Sequence[tuple[Span, float]],
    public_tails: Sequence[str],
    private_tails: Sequence[str],
) -> list[tuple[Span, float]]:
    """`tagged` without the words that say a public fact's tail (and no private one): the model chooses
    what goes with a private fact, but a public tail it tagged stays and the repair decides what its
    sentence needs ("[American actor and] singer" keeps "singer" for a public occupation)."""
    private = [m for tail in private_tails for m in find_mentions(window, tail)]
    spared = [
        m
        for tail in public_tails
        for m in find_mentions(window, tail)
        if not any(a < m[1] and m[0] < b for a, b in private)
    ]
    kept: list[tuple[Span, float]] = []
    for span, p in tagged:
        pieces = [span]
        for mention in spared:
            pieces = [piece for whole in pieces for piece in _without(whole, mention)]
        kept += [(piece, p) for piece in pieces if window[piece[0] : piece[1]].strip(" ,;:-")]
    return kept


def _without(span: Span, cut: Span) -> list[Span]:
    """What of `span` lies outside `cut`: none, one or two spans."""
    first, last = span
    if cut[1] <= first or last <= cut[0]:
        return [span]
    return [piece for piece in ((first, cut[0]), (cut[1], last)) if piece[0] < piece[1]]


def in_private_sentences(
    doc: Any, spans: Sequence[Span], tails: Sequence[str], private_spans: Sequence[Span] = ()
) -> list[bool]:
    """Whether each span of `doc`'s text touches a sentence that states a private fact: one a mention
    of a private tail overlaps (a mention may cross a sentence end the parser put inside it, "Yahoo!
    Music"), or an extracted private occurrence (`private_spans`, written otherwise than its tail:
    "the U.S." for "United States"). A sentence that states none only loses public text to a cut.
    Sentences are cut as the repair cuts them (`repair.segments`): a list page's members count
    one by one, so a tag in "B, poet" is set aside when only "A, actor" of "A, actor ; B, poet"
    states a private fact."""
    text = doc.text
    marked = [*private_spans, *(m for tail in tails for m in find_mentions(text, tail))]
    private = [
        (sentence.start_char, sentence.end_char)
        for sentence in segments(doc)
        if any(start < sentence.end_char and sentence.start_char < end for start, end in marked)
    ]
    return [any(start < last and first < end for start, end in private) for first, last in spans]


def with_whole_names(doc: Any, spans: Sequence[Span]) -> list[Span]:
    """`spans` widened to every name each cuts into: a spaCy entity, or a run of proper nouns
    ("Harrow" tagged alone in "lives in Harrow Vale" would leave "lives in Vale")."""
    names = _name_spans(doc)
    return [_widened(span, names) for span in spans]


def _name_spans(doc: Any) -> list[Span]:
    names = [(e.start_char, e.end_char) for e in doc.ents]
    run: list[Any] = []
    for token in [*doc, None]:
        if token is not None and token.pos_ == "PROPN":
            run.append(token)
            continue
        if run:
            names.append((run[0].idx, run[-1].idx + len(run[-1].text)))
        run = []
    return names


def _widened(span: Span, names: Sequence[Span]) -> Span:
    first, last = span
    for start, end in names:
        if start < last and first < end:
            first, last = min(first, start), max(last, end)
    return first, last
