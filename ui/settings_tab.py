"""Settings tab: every setting this studio runs with, its flag, environment variable, default and
meaning, read from their one declaration (`core.settings`). Read-only: settings are chosen when the
studio starts (CLI flags, environment)."""

from __future__ import annotations

import gradio as gr

from core.llm import redact_url
from core.settings import Settings, settings_rows
from ui.context import StudioContext

HEADERS = ["flag", "environment", "value now", "default", "meaning"]


def build(ctx: StudioContext) -> None:
    with gr.Tab("Settings", id="settings"):
        gr.Markdown(
            "The settings this studio was started with. Change one with its flag "
            "(`python app.py --port 8000`) or its environment variable, then restart; API keys are read "
            "from the environment only and never shown or stored."
        )
        ctx.register(
            "settings_table",
            gr.Dataframe(
                value=settings_table_rows(ctx.settings),
                headers=HEADERS,
                datatype="str",
                interactive=False,
                wrap=True,
                max_height=600,
            ),
        )


def settings_table_rows(settings: Settings) -> list[list[str]]:
    """One row per setting with its current value; a URL's user and password are never shown."""
    rows = []
    for flag, env, default, meaning in settings_rows():
        value = getattr(settings, flag.removeprefix("--").replace("-", "_"))
        rows.append([flag, env, _shown_value(value), default, meaning])
    return rows


def _shown_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return redact_url(text) if "://" in text else text
