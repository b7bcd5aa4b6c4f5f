import argparse
from dataclasses import fields

import pytest

from core.settings import HELP, Settings, add_arguments, from_args, from_env


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
    assert {f.name for f in fields(Settings)} == set(HELP)
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert "RPS_MAX_UPLOAD_BYTES" in parser.format_help()
