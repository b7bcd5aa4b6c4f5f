"""Language-model fluency of a rewrite: how much less likely its changed sentences read than the originals.

For each sentence a rewrite changed, the mean token negative log-likelihood (NLL) under a
small causal LM (the embedded SmolLM2-135M-Instruct unless `local_lm` names another) is
compared with that of the original sentence it came from: a positive difference means the
rewrite reads worse ("... (21 February 1818 – 5 September 1875) was." against "... was an
English Conservative Party politician."). It is slow on CPU, so it is an option
(`lm_fluency` setting), batched (`lm_fluency_batch`), with a cap on the sentences scored per
run (`lm_fluency_max_sentences`); sentences past the cap get NaN and are left out of the
distribution.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Sequence

from core.eraser4rag.erasers.sentences import split_at_stops
from core.model_loading import get_causal_lm
from core.settings import Settings

MIN_SIMILARITY = 0.3  # a rewritten sentence this unlike every original one is new text, not a change


def changed_sentence_pairs(original: str, rewrite: str) -> list[tuple[str, str]]:
    """(original sentence, rewritten sentence) for each sentence the rewrite changed.

    Sentences kept verbatim are skipped, and so are deleted ones (nothing left to read);
    each other rewritten sentence is paired with the most similar original sentence that
    the rewrite does not keep verbatim.
    """
    before = [s.strip() for s in split_at_stops(original) if s.strip()]
    after = [s.strip() for s in split_at_stops(rewrite) if s.strip()]
    kept = set(before) & set(after)
    candidates = [s for s in before if s not in kept]
    pairs = []
    for sentence in after:
        if sentence in kept or not candidates:
            continue
        best = max(candidates, key=lambda c: difflib.SequenceMatcher(None, c, sentence).ratio())
        if difflib.SequenceMatcher(None, best, sentence).ratio() >= MIN_SIMILARITY:
            pairs.append((best, sentence))
    return pairs


class LmFluency:
    """Scores (original, rewritten) sentence pairs; callable as `evaluate_rewrites(..., fluency=)`."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.remaining = settings.lm_fluency_max_sentences
        self.scored = 0

    def __call__(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """NLL(rewrite) - NLL(original) per pair; NaN for pairs past the cap."""
        take = max(0, min(len(pairs), self.remaining))
        self.remaining -= take
        self.scored += take
        texts = [text for pair in pairs[:take] for text in pair]
        nll = mean_token_nll(texts, self.settings) if texts else []
        deltas = [nll[2 * i + 1] - nll[2 * i] for i in range(take)]
        return deltas + [math.nan] * (len(pairs) - take)


def mean_token_nll(texts: Sequence[str], settings: Settings) -> list[float]:
    """Mean negative log-likelihood per token of each text (after a start token), in batches."""
    # torch (~5 s) loads only when a model runs
    import torch

    tokenizer, model = get_causal_lm(settings.local_lm, settings.cache_dir)
    start = tokenizer.bos_token_id if tokenizer.bos_token_id is not None else tokenizer.eos_token_id
    pad = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else tokenizer.eos_token_id
    size = max(1, settings.lm_fluency_batch)
    results: list[float] = []
    for first in range(0, len(texts), size):
        encoded = [
            [start, *tokenizer(text, add_special_tokens=False)["input_ids"][:256]]
            for text in texts[first : first + size]
        ]
        width = max(len(ids) for ids in encoded)
        ids = torch.tensor([row + [pad] * (width - len(row)) for row in encoded])
        mask = torch.tensor([[1] * len(row) + [0] * (width - len(row)) for row in encoded])
        with torch.no_grad():
            logits = model(input_ids=ids, attention_mask=mask).logits[:, :-1].float()
        targets = ids[:, 1:]
        losses = torch.nn.functional.cross_entropy(logits.transpose(1, 2), targets, reduction="none")
        weights = mask[:, 1:].float()
        counts = weights.sum(dim=1).clamp(min=1)
        results.extend(((losses * weights).sum(dim=1) / counts).tolist())
    return results
