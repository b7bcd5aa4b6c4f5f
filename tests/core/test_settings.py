import argparse
from dataclasses import fields
from pathlib import Path

import pytest

from core.settings import Settings, add_arguments, from_args, from_env, help_of, settings_table
from ui.settings_tab import settings_table_rows

README = Path(__file__).resolve().parents[2] / "README.md"


def test_defaults_serve_on_localhost_7860():
    settings = Settings()
    assert (settings.host, settings.port) == ("127.0.0.1", 7860)
    assert settings.db.endswith("studio.sqlite3")


def test_environment_overrides_defaults_with_types():
    settings = from_env({"RPS_PORT": "9000", "RPS_SAMPLE_CORPUS": "false", "RPS_PRIVATE_RATIO": "0.5"})
    assert settings.port == 9000
    assert settings.sample_corpus is False
    assert settings.private_ratio == 0.5


def test_bad_environment_value_names_the_variable():
    with pytest.raises(ValueError, match="RPS_PORT"):
        from_env({"RPS_PORT": "many"})


def test_cli_flags_override_environment():
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--port", "8123", "--db", "/tmp/x.sqlite3"])
    settings = from_args(args, base=from_env({"RPS_PORT": "9000", "RPS_HOST": "0.0.0.0"}))
    assert (settings.port, settings.db, settings.host) == (8123, "/tmp/x.sqlite3", "0.0.0.0")


def test_api_key_is_read_from_environment_not_stored(monkeypatch):
    monkeypatch.setenv("RPS_LLM_API_KEY", "sk-test-secret")
    settings = Settings()
    assert settings.llm_api_key == "sk-test-secret"
    assert "sk-test-secret" not in repr(settings)


def test_every_setting_has_help_text_for_its_flag():
    assert all(help_of(f.name).strip() for f in fields(Settings))
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert "RPS_MAX_UPLOAD_BYTES" in parser.format_help()


def test_readme_settings_table_is_the_one_made_from_the_declarations():
    """README lists every setting as declared; regenerate it with `python -m core.settings`."""
    text = README.read_text(encoding="utf-8")
    start = text.index("| flag | environment | default | meaning |")
    end = text.index("<!-- end of settings table -->")
    assert text[start:end].strip() == settings_table()
    assert len(settings_table().splitlines()) == len(fields(Settings)) + 2


def test_the_settings_panel_shows_values_without_a_urls_password():
    settings = Settings(db="postgresql://studio:hunter2secret@db.example/rps", port=8123)
    rows = {row[0]: row for row in settings_table_rows(settings)}
    assert len(rows) == len(fields(Settings))
    assert rows["--port"][2:4] == ["8123", "7860"]
    assert rows["--db"][2] == "postgresql://db.example/rps" and "hunter2secret" not in str(rows)
    assert rows["--local-lm"][3] == "embedded SmolLM2-135M-Instruct"
