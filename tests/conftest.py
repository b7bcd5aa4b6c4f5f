"""Test-wide environment: offline, no analytics, one model cache for the whole run."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

os.environ["GRADIO_ANALYTICS_ENABLED"] = "False"
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# Converted model weights are reused across tests and runs (created on first use).
os.environ.setdefault("RPS_CACHE_DIR", str(REPO / ".cache" / "models"))
