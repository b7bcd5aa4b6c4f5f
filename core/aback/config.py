"""ABack's knobs (`ABackConfig`), defaulting to the settings they come from (`SETTING_OF`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from core.aback.hsm import DEFAULT_TRANSITION, parse_transition, validate_transition
from core.aback.indicators import not_in_query
from core.settings import Settings

# ABackConfig's field -> the setting it comes from (the transition is parsed from aback_transition).
SETTING_OF = {
    "m": "aback_lookahead_m",
    "l": "aback_unit_l",
    "d": "aback_window_d",
    **{
        name: f"aback_{name}"
        for name in (
            "hsm_method",
            "max_backtracks",
            "max_new_tokens",
            "temperature",
            "top_p",
            "prior_temperature",
            "repetition_ngram",
            "repetition_penalty",
            "max_backtracks_per_indicator",
            "block_loops",
            "skip_query_indicators",
            "ban_invented",
        )
    },
    "seed": "seed",
}


@dataclass(frozen=True)
class ABackConfig:
    """ABack's knobs (defaults: `Settings`; reasons in docs/ABACK.md)."""

    # Defaults are the settings' defaults (`core.settings`, where each is declared and explained).
    m: int = Settings.aback_lookahead_m  # look-ahead tokens after a suspicious token
    l: int = Settings.aback_unit_l  # noqa: E741 - tokens per observation unit (the paper's l)
    d: int = Settings.aback_window_d  # tokens before the leak that the HSM looks at
    hsm_method: str = Settings.aback_hsm_method
    transition: tuple[tuple[float, ...], ...] = tuple(tuple(row) for row in DEFAULT_TRANSITION)
    max_backtracks: int = Settings.aback_max_backtracks
    max_new_tokens: int = Settings.aback_max_new_tokens
    temperature: float = Settings.aback_temperature
    top_p: float = Settings.aback_top_p
    seed: int = Settings.seed
    prior_temperature: float = Settings.aback_prior_temperature
    mask: str = "[REDACTED]"
    repetition_ngram: int = Settings.aback_repetition_ngram
    repetition_penalty: float = Settings.aback_repetition_penalty
    max_backtracks_per_indicator: int = Settings.aback_max_backtracks_per_indicator
    block_loops: bool = Settings.aback_block_loops
    skip_query_indicators: bool = Settings.aback_skip_query_indicators
    ban_invented: bool = Settings.aback_ban_invented
    refusal: str = "I can't share personal details from these records."

    def __post_init__(self) -> None:
        if self.m < 0 or self.l < 1 or self.d < 0:
            raise ValueError(
                f"ABackConfig: need m >= 0, l >= 1, d >= 0; got m={self.m}, l={self.l}, d={self.d}"
            )
        if self.hsm_method not in {"hmm", "llm"}:
            raise ValueError(f"ABackConfig.hsm_method: {self.hsm_method!r} is not 'hmm' or 'llm'")
        if self.max_backtracks < 0 or self.max_new_tokens < 1:
            raise ValueError("ABackConfig: max_backtracks must be >= 0 and max_new_tokens >= 1")
        if self.temperature < 0 or not 0 < self.top_p <= 1 or self.prior_temperature <= 0:
            raise ValueError("ABackConfig: need temperature >= 0, 0 < top_p <= 1, prior_temperature > 0")
        if self.repetition_ngram < 0 or self.repetition_penalty < 1 or self.max_backtracks_per_indicator < 1:
            raise ValueError(
                "ABackConfig: need repetition_ngram >= 0, repetition_penalty >= 1, "
                "max_backtracks_per_indicator >= 1"
            )
        validate_transition(np.array(self.transition), "ABackConfig.transition")

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> ABackConfig:
        values: dict[str, Any] = {ours: getattr(settings, name) for ours, name in SETTING_OF.items()}
        values["transition"] = tuple(tuple(row) for row in parse_transition(settings.aback_transition))
        values.update(overrides)
        return cls(**values)

    def watched(self, indicators: Sequence[str], question: str) -> list[str]:
        """The indicators to watch for `question`: without those it contains when so configured."""
        return not_in_query(indicators, question) if self.skip_query_indicators else list(indicators)
