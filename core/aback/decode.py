"""Token-level generation with ABack: monitor, look ahead, infer hidden states, backtrack, revise.

One forward pass per generated token in both modes (KV cache, `DynamicCache`).
The guarded loop after each token:
1. checks the tail of the decoded text with `LeakMonitor` (cost: microseconds);
2. while the text ends in an indicator prefix, holds the next tokens as a pending
   look-ahead (at most m tokens past the suspicious token) instead of committing them;
3. on an exact leak at token i, splits the d tokens before i into l-token units,
   scores them with the Eq. 8 prior, infers their hidden states (HMM or LLM), and
   cuts the output back to the first S3 unit (or to i when none is S3);
4. re-prefills the prompt with the privacy instruction (assets/prompts/aback_revise.txt)
   appended to the system message plus the kept tokens, bans the first token of
   every tokenisation of the leaked indicators, and resumes generation under
   `core.aback.regeneration.RegenerationGuard`: every indicator of the retrieved set is
   banned, no n-gram may repeat, the regenerated span carries a repetition penalty, and (with
   `ban_invented`) no token may begin a number or a capitalised name that the question lacks;
   `EchoGuard` keeps the answer from copying 4 words in a row of the privacy instruction.
When one indicator has caused `max_backtracks_per_indicator` backtracks and leaks again,
the answer is cut after its last whole sentence and ends with a refusal sentence. After
`max_backtracks` backtracks in all, a further leak is masked in the output instead.
`GuardedGenerator.stop()` (or a set `stop_event`) ends a run cleanly at the next token.
"""

from __future__ import annotations

import bisect
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from core.aback.config import ABackConfig
from core.aback.events import (
    BacktrackEvent,
    GuardedResult,
    PlainResult,
    RemovedSpan,
    StreamUpdate,
    TokenStep,
    TokenView,
)
from core.aback.hsm import (
    HmmInference,
    LlmInference,
    backtrack_point,
    split_units,
)
from core.aback.monitor import Leak, LeakMonitor, merged_ranges
from core.aback.prototypes import Prototypes
from core.aback.regeneration import EchoGuard, RegenerationGuard, WordLoopGuard, refusal_cut
from core.llm import get_chat_client
from core.model_loading import get_causal_lm, get_embedder
from core.settings import Settings, from_env

if TYPE_CHECKING:
    from core.aback.prototypes import Prototypes
    from core.llm import ChatClient

REVISE_PROMPT_PATH = Path(__file__).resolve().parents[2] / "assets" / "prompts" / "aback_revise.txt"
Message = dict[str, str]
ECHO_NGRAM = 4  # words: the answer may not repeat 4 words in a row of the privacy instruction


class _Detokenizer:
    """Decoded text of a growing token list, with each token's start offset, without re-decoding it all.

    Tokens that end inside a multi-byte character are held until the character completes.
    """

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer
        self.ids: list[int] = []
        self.starts: list[int] = []
        self.text = ""
        self._held_from = 0

    def push(self, token_id: int) -> str:
        self.ids.append(token_id)
        self.starts.append(len(self.text))
        chunk = self.tokenizer.decode(
            self.ids[self._held_from :], skip_special_tokens=True, clean_up_tokenization_spaces=False
        )
        if chunk.endswith("\ufffd"):
            return ""
        self.text += chunk
        self._held_from = len(self.ids)
        return chunk

    def truncate(self, n: int) -> None:
        if n >= len(self.ids):
            return
        self.text = self.text[: self.starts[n]]
        del self.ids[n:], self.starts[n:]
        self._held_from = min(self._held_from, n)

    def token_text(self, index: int) -> str:
        end = self.starts[index + 1] if index + 1 < len(self.starts) else len(self.text)
        return self.text[self.starts[index] : end]

    def char_of(self, index: int) -> int:
        return self.starts[index] if index < len(self.starts) else len(self.text)

    def token_at_char(self, char: int) -> int:
        return max(0, bisect.bisect_right(self.starts, char) - 1)


class _Decoder:
    """Prefill once, then one forward pass per token over a KV cache."""

    def __init__(self, tokenizer: Any, model: Any, temperature: float, top_p: float, seed: int) -> None:
        # torch (~5 s) loads only when a model runs
        import torch

        self.torch = torch
        self.tokenizer = tokenizer
        self.model = model
        self.temperature = temperature
        self.top_p = top_p
        self.generator = torch.Generator().manual_seed(seed)
        self.banned: list[int] = []
        self.guard: RegenerationGuard | None = None  # set after the first backtrack
        self.word_loops: WordLoopGuard | None = None  # with block_loops: no word n-gram a third time
        self.echo: EchoGuard | None = None  # after a backtrack: no word n-gram of the privacy instruction
        self.answer_text: Callable[[], str] = str
        self.answer_ids: Sequence[int] = ()
        self.regenerated_from = 0
        self.stop_ids = _stop_ids(tokenizer, model)
        self._cache: Any = None
        self._logits: Any = None

    def start(self, ids: Sequence[int]) -> None:
        # transformers (~2 s) loads only when a model runs
        from transformers import DynamicCache

        self._cache = DynamicCache(config=self.model.config)
        self._forward(list(ids))

    def advance(self, token_id: int) -> None:
        self._forward([token_id])

    def sample(self) -> int:
        logits = self._logits.clone()
        if self.banned:
            logits[self.banned] = float("-inf")
        if self.guard is not None:
            self.guard.adjust(logits, self.answer_ids, self.regenerated_from)
        if self.word_loops is not None:
            looping = self.word_loops.bans(self.answer_text())
            if looping:
                logits[sorted(looping)] = float("-inf")
        if self.echo is not None:
            echoing = self.echo.bans(self.answer_text())
            if echoing:
                logits[sorted(echoing)] = float("-inf")
        if bool(self.torch.isinf(logits).all()):  # everything banned: end the answer
            return min(self.stop_ids)
        if self.temperature == 0:
            return int(logits.argmax())
        probs = self.torch.softmax(logits / self.temperature, dim=-1)
        if self.top_p < 1:
            sorted_probs, order = probs.sort(descending=True)
            keep = sorted_probs.cumsum(0) - sorted_probs < self.top_p
            probs = self.torch.zeros_like(probs).scatter(0, order[keep], sorted_probs[keep])
        return int(self.torch.multinomial(probs, 1, generator=self.generator))

    def _forward(self, ids: list[int]) -> None:
        with self.torch.inference_mode():
            output = self.model(
                input_ids=self.torch.tensor([ids]), past_key_values=self._cache, use_cache=True
            )
        self._logits = output.logits[0, -1].float()


def _stop_ids(tokenizer: Any, model: Any) -> set[int]:
    ids = {tokenizer.eos_token_id}
    configured = getattr(getattr(model, "generation_config", None), "eos_token_id", None)
    ids.update(configured if isinstance(configured, list) else [configured])
    return {i for i in ids if i is not None}


def _load_lm(lm: tuple[Any, Any] | None, settings: Settings | None) -> tuple[Any, Any]:
    if lm is not None:
        return lm

    settings = settings or from_env()
    return get_causal_lm(settings.local_lm, settings.cache_dir)


def prompt_ids(tokenizer: Any, messages: list[Message]) -> list[int]:
    prompt = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    return list(tokenizer(prompt, add_special_tokens=False)["input_ids"])


def with_privacy_instruction(messages: list[Message], instruction: str) -> list[Message]:
    """The messages with `instruction` appended to the system message (one is added if absent)."""
    if messages and messages[0]["role"] == "system":
        first = {"role": "system", "content": messages[0]["content"].rstrip() + "\n\n" + instruction}
        return [first, *messages[1:]]
    return [{"role": "system", "content": instruction}, *messages]


def first_token_bans(tokenizer: Any, indicator: str) -> set[int]:
    """First token of each tokenisation of the indicator (as written, lower, Title; with and without a space).

    First tokens whose text has no letter or digit (" (", " $") are not banned: they
    would block every number or bracket, and the monitor still catches the leak.
    """
    banned: set[int] = set()
    for variant in {indicator.strip(), indicator.strip().lower(), indicator.strip().title()}:
        for text in (variant, " " + variant):
            ids = tokenizer.encode(text, add_special_tokens=False)
            if ids and any(ch.isalnum() for ch in tokenizer.decode(ids[:1])):
                banned.add(ids[0])
    return banned


def generate_tokens(
    messages: list[Message],
    max_new_tokens: int = 96,
    temperature: float = 0.0,
    top_p: float = 1.0,
    seed: int = 0,
    *,
    lm: tuple[Any, Any] | None = None,
    settings: Settings | None = None,
) -> Iterator[TokenStep]:
    """Plain (unprotected) generation, one token at a time."""
    tokenizer, model = _load_lm(lm, settings)
    decoder = _Decoder(tokenizer, model, temperature, top_p, seed)
    detok = _Detokenizer(tokenizer)
    started = time.perf_counter()
    decoder.start(prompt_ids(tokenizer, messages))
    for index in range(max_new_tokens):
        token_id = decoder.sample()
        if token_id in decoder.stop_ids:
            return
        text = detok.push(token_id)
        yield TokenStep(index, token_id, text, time.perf_counter() - started)
        if index + 1 < max_new_tokens:
            decoder.advance(token_id)


def run_plain(
    messages: list[Message],
    max_new_tokens: int = 96,
    temperature: float = 0.0,
    top_p: float = 1.0,
    seed: int = 0,
    *,
    lm: tuple[Any, Any] | None = None,
    settings: Settings | None = None,
) -> PlainResult:
    tokenizer, _ = lm = _load_lm(lm, settings)
    started = time.perf_counter()
    steps = list(generate_tokens(messages, max_new_tokens, temperature, top_p, seed, lm=lm))
    ids = tuple(step.token_id for step in steps)
    text = tokenizer.decode(list(ids), skip_special_tokens=True, clean_up_tokenization_spaces=False)
    return PlainResult(text, ids, time.perf_counter() - started, len(steps))


@dataclass
class _Run:
    """Mutable state of one guarded generation."""

    detok: _Detokenizer
    labels: list[str | None] = field(default_factory=list)
    events: list[BacktrackEvent] = field(default_factory=list)
    removed: list[RemovedSpan] = field(default_factory=list)
    masks: list[Leak] = field(default_factory=list)
    leaked: list[str] = field(default_factory=list)
    lookahead_start: int | None = None
    open_event: tuple[int, int] | None = None  # (event index, tokens it removed) awaiting its replacement
    generated: int = 0
    started: float = field(default_factory=time.perf_counter)
    first_token_s: float | None = None
    refused: bool = False
    stopped: bool = False
    refusal_from: int = 0


class GuardedGenerator:
    """ABack over a local causal LM; iterate `run()` for `StreamUpdate`s."""

    def __init__(
        self,
        messages: list[Message],
        indicators: Iterable[str],
        config: ABackConfig | None = None,
        on_event: Callable[[BacktrackEvent], None] | None = None,
        *,
        lm: tuple[Any, Any] | None = None,
        prototypes: Prototypes | None = None,
        chat_client: ChatClient | None = None,
        settings: Settings | None = None,
        stop_event: threading.Event | None = None,
        question: str = "",
    ) -> None:
        self.settings = settings or from_env()
        self.config = config or ABackConfig.from_settings(self.settings)
        self.messages = messages
        self.question = question  # the asker's own words: the invented-specifics rule allows them
        self.indicators = [text for text in dict.fromkeys(indicators) if text.strip()]
        self.monitor = LeakMonitor(self.indicators)
        self.stop_event = stop_event or threading.Event()
        self.on_event = on_event
        self.tokenizer, self.model = _load_lm(lm, self.settings)
        self._prototypes = prototypes
        self._chat_client = chat_client
        self.revise_instruction = REVISE_PROMPT_PATH.read_text(encoding="utf-8").strip()

    @property
    def prototypes(self) -> Prototypes:
        if self._prototypes is None:
            embedder = get_embedder(self.settings.embedder)
            self._prototypes = Prototypes.load(embedder, temperature=self.config.prior_temperature)
        return self._prototypes

    def hsm(self) -> HmmInference | LlmInference:
        hmm = HmmInference(np.array(self.config.transition))
        if self.config.hsm_method == "hmm":
            return hmm
        if self._chat_client is None:
            self._chat_client = get_chat_client(self.settings)
        return LlmInference(self._chat_client, fallback=hmm)

    def stop(self) -> None:
        """End the run cleanly before its next token (thread-safe)."""
        self.stop_event.set()

    def run(self) -> Iterator[StreamUpdate]:
        config = self.config
        decoder = _Decoder(self.tokenizer, self.model, config.temperature, config.top_p, config.seed)
        run = _Run(_Detokenizer(self.tokenizer))
        decoder.answer_ids = run.detok.ids
        # Before a backtrack only the word rule acts: the token rule (no token 4-gram twice) changed
        # ordinary answers too and cost ABack most of its utility on the benchmark (docs/ABACK.md).
        if config.block_loops and config.repetition_ngram:
            decoder.word_loops = WordLoopGuard(self.tokenizer, config.repetition_ngram)
            decoder.answer_text = lambda: run.detok.text
        decoder.start(prompt_ids(self.tokenizer, self.messages))
        while True:
            if self.stop_event.is_set():
                run.stopped = True
                self._drop_pending(run)
                break
            finished = len(run.detok.ids) >= config.max_new_tokens
            since = len(run.detok.text)
            if not finished:
                token_id = decoder.sample()
                run.generated += 1
                if run.first_token_s is None:
                    run.first_token_s = time.perf_counter() - run.started
                finished = token_id in decoder.stop_ids
                if not finished:
                    self._append(run, decoder, token_id)
                    finished = len(run.detok.ids) >= config.max_new_tokens
            phase = self._inspect(run, decoder, since, finished)
            if phase == "backtracked":
                yield self._update(run, phase)
                continue
            if finished or phase == "refused":
                break
            yield self._update(run, phase)
        self._close_event(run)
        final_phase = "stopped" if run.stopped else "refused" if run.refused else "done"
        yield self._update(run, final_phase, done=True)

    def _append(self, run: _Run, decoder: _Decoder, token_id: int) -> None:
        run.detok.push(token_id)
        run.labels.append(None)
        if len(run.detok.ids) < self.config.max_new_tokens:
            decoder.advance(token_id)
        if run.open_event is not None:
            index, removed_count = run.open_event
            start = run.events[index].backtrack_token
            if len(run.detok.ids) - start >= removed_count:
                self._close_event(run)

    def _inspect(self, run: _Run, decoder: _Decoder, since: int, finished: bool) -> str:
        """Monitor the new text; backtrack, mask or hold a look-ahead. Returns the phase."""
        text = run.detok.text
        state = self.monitor.check(text, since, final=finished)
        handled_until = run.masks[-1].end_char if run.masks else -1
        # a leak reaching past the masked text is new (after a mask, it can only be masked, extending it)
        leaks = [leak for leak in state.leaks if leak.end_char > handled_until]
        if leaks:
            repeats = sum(event.indicator == leaks[0].indicator for event in run.events)
            if repeats >= self.config.max_backtracks_per_indicator:
                self._refuse(run, leaks[0])
                return "refused"
            if len(run.events) < self.config.max_backtracks:
                self._backtrack(run, decoder, leaks[0])
                return "backtracked"
            self._mask(run, decoder, leaks)
            return "masked"
        n = len(run.detok.ids)
        if state.suspicious:
            if run.lookahead_start is None or n - run.lookahead_start > self.config.m:
                run.lookahead_start = n - 1
            return "lookahead"
        run.lookahead_start = None
        return "generating"

    def _backtrack(self, run: _Run, decoder: _Decoder, leak: Leak) -> None:
        config, detok = self.config, run.detok
        self._close_event(run)
        i = detok.token_at_char(leak.start_char)
        units, lookahead = split_units(detok.ids, i, config.d, config.l, config.m)
        units = [replace(u, text=self._span_text(detok, u.token_start, u.token_end)) for u in units]
        lookahead = replace(lookahead, text=self._span_text(detok, i, lookahead.token_end))
        priors = self.prototypes.prior([u.text for u in units])
        unit_states = self.hsm().infer(units, priors, lookahead)
        back_to = backtrack_point(unit_states, i)
        for unit in unit_states:
            for t in range(unit.token_start, min(unit.token_end, len(run.labels))):
                run.labels[t] = unit.state.label
        removed_from = detok.char_of(back_to)
        event = BacktrackEvent(
            leak_position=i,
            indicator=leak.indicator,
            units=tuple(unit_states),
            backtrack_token=back_to,
            removed_text=detok.text[removed_from:],
            leak_span=(leak.start_char - removed_from, leak.end_char - removed_from),
        )
        removed_tokens = tuple(
            TokenView(detok.ids[t], detok.token_text(t), run.labels[t])
            for t in range(back_to, len(detok.ids))
        )
        run.removed.append(
            RemovedSpan(len(run.events), back_to, event.removed_text, removed_tokens, event.leak_span)
        )
        run.events.append(event)
        run.open_event = (len(run.events) - 1, len(removed_tokens))
        detok.truncate(back_to)
        del run.labels[back_to:]
        run.lookahead_start = None
        if leak.indicator not in run.leaked:
            run.leaked.append(leak.indicator)
        decoder.banned = sorted(set().union(*(first_token_bans(self.tokenizer, x) for x in run.leaked)))
        if decoder.guard is None:
            decoder.guard = RegenerationGuard(
                self.tokenizer,
                self.indicators,
                config.repetition_ngram,
                config.repetition_penalty,
                self.question if config.ban_invented else None,
            )
        if decoder.echo is None:
            decoder.echo = EchoGuard(self.tokenizer, self.revise_instruction, ECHO_NGRAM)
            decoder.answer_text = lambda: run.detok.text
        decoder.regenerated_from = back_to
        revised = with_privacy_instruction(self.messages, self.revise_instruction)
        decoder.start(prompt_ids(self.tokenizer, revised) + detok.ids)
        if self.on_event:
            self.on_event(event)

    def _mask(self, run: _Run, decoder: _Decoder, leaks: list[Leak]) -> None:
        for leak in leaks:
            if not run.masks or leak.end_char > run.masks[-1].end_char:  # overlaps merge in apply_masks
                run.masks.append(leak)
            if leak.indicator not in run.leaked:
                run.leaked.append(leak.indicator)
        decoder.banned = sorted(set().union(*(first_token_bans(self.tokenizer, x) for x in run.leaked)))

    def _refuse(self, run: _Run, leak: Leak) -> None:
        """End the answer after its last whole sentence before `leak`, with the refusal sentence."""
        detok = run.detok
        cut = refusal_cut(detok.text, leak.start_char)
        keep = len(detok.ids) if cut >= len(detok.text) else detok.token_at_char(cut)
        while keep < len(detok.ids) and detok.starts[keep] < cut:
            keep += 1
        detok.truncate(keep)
        del run.labels[keep:]
        run.lookahead_start = None
        refusal = (" " if detok.text and not detok.text[-1].isspace() else "") + self.config.refusal
        for token_id in self.tokenizer.encode(refusal, add_special_tokens=False):
            detok.push(token_id)
            run.labels.append(None)
        run.refusal_from = keep
        run.refused = True

    @staticmethod
    def _drop_pending(run: _Run) -> None:
        """On stop(): tokens held in an unfinished look-ahead were never checked, so they are dropped."""
        if run.lookahead_start is not None:
            run.detok.truncate(run.lookahead_start)
            del run.labels[run.lookahead_start :]
            run.lookahead_start = None

    def _close_event(self, run: _Run) -> None:
        if run.open_event is None:
            return
        index, removed_count = run.open_event
        event = run.events[index]
        end = min(len(run.detok.ids), event.backtrack_token + removed_count)
        run.events[index] = replace(
            event, replacement_text=self._span_text(run.detok, event.backtrack_token, end)
        )
        run.open_event = None

    @staticmethod
    def _span_text(detok: _Detokenizer, start: int, end: int) -> str:
        return detok.text[detok.char_of(start) : detok.char_of(end)]

    def _update(self, run: _Run, phase: str, done: bool = False) -> StreamUpdate:
        detok = run.detok
        pending_from = len(detok.ids) if done or run.lookahead_start is None else run.lookahead_start
        visible_end = detok.char_of(pending_from)
        refusal_from = run.refusal_from if run.refused else len(detok.ids)
        tokens = tuple(
            TokenView(
                detok.ids[t],
                detok.token_text(t),
                run.labels[t],
                pending=t >= pending_from,
                masked=_overlaps_mask(detok.starts[t], detok.char_of(t + 1), run.masks),
                refusal=t >= refusal_from,
            )
            for t in range(len(detok.ids))
        )
        return StreamUpdate(
            text=apply_masks(detok.text[:visible_end], run.masks, self.config.mask),
            tokens=tokens,
            removed=tuple(run.removed),
            events=tuple(run.events),
            masked_leaks=tuple(run.masks),
            phase=phase,
            generated_tokens=run.generated,
            done=done,
            elapsed_s=time.perf_counter() - run.started,
            first_token_s=run.first_token_s,
            stopped=run.stopped,
            refused=run.refused,
        )


def _overlaps_mask(start: int, end: int, masks: Sequence[Leak]) -> bool:
    return any(start < leak.end_char and leak.start_char < end for leak in masks)


def apply_masks(text: str, masks: Sequence[Leak], mask: str) -> str:
    """`text` with every masked leak range inside it replaced by `mask` (overlapping ranges merged)."""
    pieces, cursor = [], 0
    for start, end in merged_ranges(masks):
        if start >= len(text):
            break
        pieces += [text[cursor:start], mask]
        cursor = min(end, len(text))
    pieces.append(text[cursor:])
    return "".join(pieces)


def regenerated_span(result: GuardedResult | StreamUpdate) -> tuple[str, int]:
    """The text produced after the earliest backtrack point and its token count ("", 0 without a
    backtrack); the refusal sentence and masked tokens are not the model's regenerated text."""
    if not result.events:
        return "", 0
    start = min(event.backtrack_token for event in result.events)
    tokens = [token for token in result.tokens[start:] if not token.refusal and not token.masked]
    return "".join(token.text for token in tokens), len(tokens)


def guarded_generate(
    messages: list[Message],
    indicators: Iterable[str],
    config: ABackConfig | None = None,
    on_event: Callable[[BacktrackEvent], None] | None = None,
    **resources: Any,
) -> Iterator[StreamUpdate]:
    """ABack-guarded generation; the last update has `done=True` and the final text.

    `resources` (keyword-only): `lm=(tokenizer, model)`, `prototypes`, `chat_client`, `settings`,
    `stop_event` (a `threading.Event`; setting it ends the run cleanly at the next token), `question`
    (the user's question alone: its numbers and names may be restated after a backtrack).
    """
    return GuardedGenerator(messages, indicators, config, on_event, **resources).run()


def run_guarded(
    messages: list[Message],
    indicators: Iterable[str],
    config: ABackConfig | None = None,
    **resources: Any,
) -> GuardedResult:
    started = time.perf_counter()
    final: StreamUpdate | None = None
    for final in guarded_generate(messages, indicators, config, **resources):  # noqa: B007
        pass
    assert final is not None and final.done
    return GuardedResult(
        text=final.text,
        events=final.events,
        tokens=final.tokens,
        wall_s=time.perf_counter() - started,
        generated_tokens=final.generated_tokens,
        masked_leaks=final.masked_leaks,
        refused=final.refused,
        stopped=final.stopped,
    )
