"""Triple extraction behind one interface: spaCy rules (default), a chat model, or ReLiK.

`get_extractor(name, settings)` builds a backend; `extract_corpus(corpus, extractor)`
extracts from every document and query. Every backend names relations by the one
convention in `base.py` (see docs/EXTRACTION.md).
"""

from __future__ import annotations

from collections.abc import Callable

from core.extract.base import ExtractionError, Extractor, extract_corpus, lemmatize_relation
from core.llm import get_chat_client
from core.settings import Settings

__all__ = [
    "EXTRACTORS",
    "ExtractionError",
    "Extractor",
    "available_extractors",
    "extract_corpus",
    "get_extractor",
    "lemmatize_relation",
]


def _spacy(settings: Settings) -> Extractor:
    # registry: a backend's module loads only when it is chosen (spacy_rules alone: ~0.4 s)
    from core.extract.spacy_rules import SpacyRuleExtractor

    return SpacyRuleExtractor(settings.spacy_model)


def _llm(settings: Settings) -> Extractor:
    # registry: a backend's module loads only when it is chosen (spacy_rules alone: ~0.4 s)
    from core.extract.llm import LLMExtractor

    if not settings.llm_base_url and not settings.local_lm:
        # Measured: the embedded 135M model answers in prose, never JSON, after minutes of decoding.
        raise ValueError(
            "the llm extractor needs a chat model that can write JSON: set --llm-base-url/RPS_LLM_BASE_URL "
            "to an OpenAI-compatible endpoint (or --local-lm to a larger local model); the embedded "
            "SmolLM2-135M cannot"
        )
    return LLMExtractor(get_chat_client(settings))


def _relik(settings: Settings) -> Extractor:
    # registry: a backend's module loads only when it is chosen (spacy_rules alone: ~0.4 s)
    from core.extract.relik_worker import RelikExtractor

    return RelikExtractor(
        settings.relik_python,
        settings.relik_model,
        startup_timeout_s=settings.relik_startup_timeout_s,
        request_timeout_s=settings.relik_timeout_s,
    )


EXTRACTORS: dict[str, Callable[[Settings], Extractor]] = {"spacy": _spacy, "llm": _llm, "relik": _relik}


def available_extractors() -> list[str]:
    """Names accepted by `get_extractor` (and `--extractor`)."""
    return list(EXTRACTORS)


def get_extractor(name: str, settings: Settings) -> Extractor:
    """The named backend configured from settings; unknown names raise ValueError listing the choices."""
    factory = EXTRACTORS.get(name.strip().lower())
    if factory is None:
        raise ValueError(f"unknown extractor {name!r}: choose one of {', '.join(EXTRACTORS)}")
    return factory(settings)
