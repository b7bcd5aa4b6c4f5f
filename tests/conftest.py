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


import itertools  # noqa: E402
from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402

_database_numbers = itertools.count()


@pytest.fixture(scope="session")
def postgresql_executor() -> Iterator[object]:
    """One real PostgreSQL server for the session, in a temporary directory (tests/postgres_server.py)."""
    from tests.postgres_server import postgresql_server

    with postgresql_server() as executor:
        yield executor


@pytest.fixture(params=["sqlite", "postgresql"])
def store_target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A database the storage, concurrency and kill tests run against: a SQLite file, then a fresh
    database on a real PostgreSQL server."""
    if request.param == "sqlite":
        yield str(tmp_path / "store.sqlite3")
        return
    from tests.postgres_server import fresh_database

    executor = request.getfixturevalue("postgresql_executor")
    with fresh_database(executor, f"rps_test_{next(_database_numbers)}") as url:
        yield url


@pytest.fixture(scope="session")
def nlp() -> object:
    """The spaCy pipeline the erasers parse with, loaded once per session."""
    from core.model_loading import get_spacy

    return get_spacy()
