"""What guarded generation reports: each token's step and view, backtracks and removed spans, the
stream updates the studio draws, and the final results of a guarded or a plain run."""

from __future__ import annotations

from dataclasses import dataclass

from core.aback.hsm import UnitState
from core.aback.monitor import Leak


@dataclass(frozen=True)
class TokenStep:
    index: int
    token_id: int
    text: str  # the characters this token added to the decoded output
    elapsed_s: float


@dataclass(frozen=True)
class TokenView:
    token_id: int
    text: str
    state: str | None = None  # "S1".."S4" from the HSM run that covered this token
    pending: bool = False  # held back in the look-ahead, not yet shown to the user
    masked: bool = False  # overlaps a leak masked after the backtracks ran out
    refusal: bool = False  # part of the refusal sentence that ended the answer


@dataclass(frozen=True)
class BacktrackEvent:
    leak_position: int  # token index i where the leaked indicator starts
    indicator: str
    units: tuple[UnitState, ...]  # o_1..o_n and the look-ahead unit (S4)
    backtrack_token: int  # generation resumed from this token index
    removed_text: str
    replacement_text: str = ""  # what was generated in place of the removed tokens
    leak_span: tuple[int, int] = (0, 0)  # the leak's character range inside removed_text


@dataclass(frozen=True)
class RemovedSpan:
    event_index: int
    at_token: int  # the removed tokens stood before today's token at this index
    text: str
    tokens: tuple[TokenView, ...]  # with the states the HSM gave them
    leak_span: tuple[int, int]  # character range of the leak inside `text`


@dataclass(frozen=True)
class StreamUpdate:
    text: str  # the answer as the user sees it: committed tokens, masks applied
    tokens: tuple[TokenView, ...]  # committed and pending tokens
    removed: tuple[RemovedSpan, ...]
    events: tuple[BacktrackEvent, ...]
    masked_leaks: tuple[Leak, ...]
    phase: str  # generating | lookahead | backtracked | masked | refused | stopped | done
    generated_tokens: int  # forward-sampled tokens so far, removed ones included
    done: bool = False
    elapsed_s: float = 0.0  # since the run started (prefill included)
    first_token_s: float | None = None  # time to the first sampled token
    stopped: bool = False  # ended by stop() before its natural end
    refused: bool = False  # ended with the refusal sentence

    @property
    def tokens_per_s(self) -> float | None:
        """Decoding speed after the first token (None until two tokens exist)."""
        if self.first_token_s is None or self.generated_tokens < 2 or self.elapsed_s <= self.first_token_s:
            return None
        return (self.generated_tokens - 1) / (self.elapsed_s - self.first_token_s)


@dataclass(frozen=True)
class GuardedResult:
    text: str
    events: tuple[BacktrackEvent, ...]
    tokens: tuple[TokenView, ...]
    wall_s: float
    generated_tokens: int
    masked_leaks: tuple[Leak, ...] = ()
    refused: bool = False
    stopped: bool = False


@dataclass(frozen=True)
class PlainResult:
    text: str
    token_ids: tuple[int, ...]
    wall_s: float
    generated_tokens: int
