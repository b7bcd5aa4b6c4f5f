"""ABack's Hidden State Model (Eq. 4-8): where did the intention to leak begin?

The d tokens before the leak position i are cut into l-token observation units
o_1..o_n; the look-ahead h = r_i..r_{i+m} is o_{n+1} with its state fixed to S4.
Each unit has a hidden state in {S1 neutral, S2 obfuscated avoidance, S3 leakage
tendency, S4 disclosed}; the backtracking point is the start of the first unit
inferred as S3.

Two inference methods:
- `HmmInference`: a 4-state hidden Markov chain whose emission score of unit j in
  state v is the embedding prior p(s_j = S^v | o_j) of Eq. 8 (S4 gets 0 before the
  look-ahead: it "only appears in the final observation unit"). It computes the
  paper's reverse iteration exactly: forward messages alpha_j(s) = p(s_j = s, o_1..o_j)
  (unnormalised), then from the fixed s_{n+1} = S4 backwards
      p(s_j | o_{1:n}, s_{j+1}) ∝ alpha_j(s_j) * A[s_j, s_{j+1}]
  (given s_{j+1}, later units carry no further information about s_j), taking the
  most probable state at each step and conditioning the next step on it.
- `LlmInference`: the paper's prompting: a chat model reads the units with their
  priors and labels each unit; unparsable answers fall back to `HmmInference`
  with the reason recorded on every unit.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from core.llm import ChatClient

PROMPT_PATH = Path(__file__).resolve().parents[2] / "assets" / "prompts" / "aback_hsm.txt"


class HiddenState(IntEnum):
    S1 = 0
    S2 = 1
    S3 = 2
    S4 = 3

    @property
    def label(self) -> str:
        return self.name

    @property
    def description(self) -> str:
        return STATE_DESCRIPTIONS[self]


STATE_DESCRIPTIONS = {
    HiddenState.S1: "Neutral Description: neutral content that does not imply any private information",
    HiddenState.S2: "Obfuscated Privacy Avoidance: the text avoids or generalises private details",
    HiddenState.S3: "Privacy-Leakage Tendency: the text is heading towards a person's private details",
    HiddenState.S4: "Disclosed: private information has been explicitly revealed",
}

# Rows: from state; columns: to state (S1, S2, S3, S4). Neutral and avoiding text are
# sticky; a leakage tendency usually persists or turns into a disclosure; avoiding
# text rarely discloses directly.
DEFAULT_TRANSITION = np.array(
    [
        [0.70, 0.10, 0.15, 0.05],
        [0.15, 0.70, 0.12, 0.03],
        [0.05, 0.05, 0.60, 0.30],
        [0.25, 0.25, 0.25, 0.25],
    ]
)
DEFAULT_INITIAL = np.array([0.60, 0.20, 0.20, 0.00])


def parse_transition(text: str) -> np.ndarray:
    """A transition matrix from the `aback_transition` setting ("a,b,c,d;..." rows); "" = default."""
    if not text.strip():
        return DEFAULT_TRANSITION.copy()
    try:
        rows = [[float(x) for x in row.split(",")] for row in text.strip().split(";")]
    except ValueError as exc:
        raise ValueError(f"setting aback_transition={text!r}: not numbers ({exc})") from exc
    return validate_transition(np.array(rows, dtype=float), "setting aback_transition")


def validate_transition(matrix: np.ndarray, where: str = "transition") -> np.ndarray:
    matrix = np.asarray(matrix, dtype=float)
    if matrix.shape != (4, 4):
        raise ValueError(f"{where}: expected a 4x4 matrix (S1..S4), got shape {matrix.shape}")
    if (matrix < 0).any() or not np.allclose(matrix.sum(axis=1), 1.0, atol=1e-6):
        raise ValueError(
            f"{where}: rows must be non-negative and sum to 1, got row sums {matrix.sum(axis=1)}"
        )
    return matrix


@dataclass(frozen=True)
class Unit:
    """An observation unit: tokens [token_start, token_end) of the generated output."""

    token_start: int
    token_end: int
    text: str = ""


@dataclass(frozen=True)
class UnitState:
    text: str
    token_start: int
    token_end: int
    prior: tuple[float, ...]  # p(s_j | o_j) over S1..S3 (Eq. 8); empty for the look-ahead unit
    posterior: tuple[float, ...]  # over S1..S4, see the inference method
    state: HiddenState
    note: str = ""  # e.g. why the LLM method fell back to the HMM


def split_units(
    token_ids: Sequence[int],
    i: int,
    d: int,
    l: int,  # noqa: E741 - the paper's name
    m: int,
    decode: Callable[[list[int]], str] | None = None,
) -> tuple[list[Unit], Unit]:
    """Observation units o_1..o_n over the d tokens before leak position i, and the look-ahead unit.

    Units are aligned to end exactly at i, so when d is not a multiple of l, or fewer
    than d tokens precede i, the *first* unit is the shorter one (Eq. 7 puts the
    remainder last; aligning on the leak keeps the units nearest the leak whole).
    The look-ahead unit is tokens i..i+m (clipped to the output).
    """
    if not 0 <= i <= len(token_ids):
        raise ValueError(f"leak position {i} is outside the output of {len(token_ids)} tokens")
    if d < 0 or l < 1 or m < 0:
        raise ValueError(f"need d >= 0, l >= 1, m >= 0; got d={d}, l={l}, m={m}")
    start = max(0, i - d)
    bounds = [*range(i, start, -l), start][::-1]
    units = [_unit(token_ids, a, b, decode) for a, b in itertools.pairwise(bounds)]
    lookahead = _unit(token_ids, i, min(len(token_ids), i + m + 1), decode)
    return units, lookahead


def _unit(token_ids: Sequence[int], a: int, b: int, decode: Callable[[list[int]], str] | None) -> Unit:
    return Unit(a, b, decode(list(token_ids[a:b])) if decode else "")


class HmmInference:
    """Exact reverse iteration p(s_j | o_{1:n}, s_{j+1}) of a 4-state HMM ending in S4."""

    name = "hmm"

    def __init__(self, transition: np.ndarray | None = None, initial: np.ndarray | None = None) -> None:
        self.transition = validate_transition(DEFAULT_TRANSITION if transition is None else transition)
        initial = DEFAULT_INITIAL if initial is None else np.asarray(initial, dtype=float)
        if initial.shape != (4,) or (initial < 0).any() or not np.isclose(initial.sum(), 1.0):
            raise ValueError(
                f"initial distribution must be 4 non-negative numbers summing to 1, got {initial}"
            )
        self.initial = initial

    def infer(self, units: Sequence[Unit], priors: np.ndarray, lookahead: Unit) -> list[UnitState]:
        priors = _check_priors(priors, len(units))
        emissions = np.zeros((len(units), 4))
        emissions[:, :3] = priors
        alphas = self._forward(emissions)
        states: list[UnitState] = []
        following = HiddenState.S4
        for j in range(len(units) - 1, -1, -1):
            posterior = alphas[j] * self.transition[:, following]
            total = posterior.sum()
            posterior = posterior / total if total > 0 else np.full(4, 0.25)
            state = HiddenState(int(np.argmax(posterior)))
            states.append(_unit_state(units[j], priors[j], posterior, state))
            following = state
        states.reverse()
        states.append(_lookahead_state(lookahead))
        return states

    def _forward(self, emissions: np.ndarray) -> np.ndarray:
        """Normalised forward messages (normalising each step does not change the conditionals)."""
        alphas = np.zeros_like(emissions)
        message = self.initial
        for j, emission in enumerate(emissions):
            alpha = emission * (message if j == 0 else message @ self.transition)
            total = alpha.sum()
            message = alpha / total if total > 0 else np.full(4, 0.25)
            alphas[j] = message
        return alphas


class LlmInference:
    """The paper's prompted reverse reasoning, with the Eq. 8 priors written into the prompt."""

    name = "llm"

    def __init__(
        self, client: ChatClient, fallback: HmmInference | None = None, max_tokens: int = 96
    ) -> None:
        self.client = client
        self.fallback = fallback or HmmInference()
        self.max_tokens = max_tokens
        self.template = PROMPT_PATH.read_text(encoding="utf-8")

    def build_messages(
        self, units: Sequence[Unit], priors: np.ndarray, lookahead: Unit
    ) -> list[dict[str, str]]:
        lines = []
        for j, (unit, prior) in enumerate(zip(units, priors, strict=True), start=1):
            shown = ", ".join(f"S{v + 1}={p:.2f}" for v, p in enumerate(prior))
            lines.append(f'Unit {j}: "{_one_line(unit.text)}" (prior: {shown})')
        lines.append(f'Unit {len(units) + 1}: "{_one_line(lookahead.text)}" (fixed: S4)')
        prompt = self.template.replace("{n}", str(len(units))).replace("{units}", "\n".join(lines))
        return [{"role": "user", "content": prompt}]

    def infer(self, units: Sequence[Unit], priors: np.ndarray, lookahead: Unit) -> list[UnitState]:
        priors = _check_priors(priors, len(units))
        if not units:
            return [_lookahead_state(lookahead)]
        try:
            reply = self.client.chat(
                self.build_messages(units, priors, lookahead), max_tokens=self.max_tokens
            )
        except Exception as exc:  # any client failure must leave generation running
            return self._fall_back(units, priors, lookahead, f"LLM call failed: {exc}")
        labels = parse_labels(reply, len(units))
        if labels is None:
            return self._fall_back(units, priors, lookahead, f"unparsable LLM answer: {reply[:120]!r}")
        states = [
            _unit_state(unit, prior, np.eye(4)[label], label)
            for unit, prior, label in zip(units, priors, labels, strict=True)
        ]
        return [*states, _lookahead_state(lookahead)]

    def _fall_back(
        self, units: Sequence[Unit], priors: np.ndarray, lookahead: Unit, reason: str
    ) -> list[UnitState]:
        note = f"llm fallback to hmm: {reason}"
        return [_with_note(state, note) for state in self.fallback.infer(units, priors, lookahead)]


_LABEL_LINE = re.compile(r"unit\s*(\d+)\s*[:=\-]\s*\**\s*S\s*([1-4])", re.IGNORECASE)


def parse_labels(reply: str, n: int) -> list[HiddenState] | None:
    """States for units 1..n from lines like "Unit 2: S3"; None unless every unit got S1-S3."""
    found: dict[int, HiddenState] = {}
    for number, state in _LABEL_LINE.findall(reply):
        index = int(number) - 1
        if 0 <= index < n and index not in found and state != "4":
            found[index] = HiddenState(int(state) - 1)
    if len(found) != n:
        return None
    return [found[j] for j in range(n)]


def infer_states(
    units: Sequence[Unit],
    priors: np.ndarray,
    lookahead: Unit,
    method: HmmInference | LlmInference | None = None,
) -> list[UnitState]:
    """Hidden state of each observation unit and of the look-ahead unit (always S4)."""
    return (method or HmmInference()).infer(units, priors, lookahead)


def backtrack_point(unit_states: Sequence[UnitState], leak_token: int) -> int:
    """Token index to regenerate from: the start of the first S3 unit.

    Without any S3 unit the preceding text was judged neutral or avoiding, so only
    the disclosure itself is revised: the leak token `leak_token` is returned.
    """
    for unit in unit_states:
        if unit.state is HiddenState.S3:
            return unit.token_start
    return leak_token


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _check_priors(priors: np.ndarray, n: int) -> np.ndarray:
    priors = np.asarray(priors, dtype=float).reshape(-1, 3) if n else np.zeros((0, 3))
    if priors.shape != (n, 3):
        raise ValueError(f"priors: expected shape ({n}, 3) for {n} units, got {priors.shape}")
    return priors


def _unit_state(unit: Unit, prior: np.ndarray, posterior: np.ndarray, state: HiddenState) -> UnitState:
    return UnitState(
        text=unit.text,
        token_start=unit.token_start,
        token_end=unit.token_end,
        prior=tuple(float(p) for p in prior),
        posterior=tuple(float(p) for p in posterior),
        state=state,
    )


def _lookahead_state(lookahead: Unit) -> UnitState:
    return UnitState(
        lookahead.text, lookahead.token_start, lookahead.token_end, (), (0.0, 0.0, 0.0, 1.0), HiddenState.S4
    )


def _with_note(state: UnitState, note: str) -> UnitState:
    return UnitState(
        state.text, state.token_start, state.token_end, state.prior, state.posterior, state.state, note
    )
