"""The Settings tab lists every setting with its flag, environment variable, value and meaning."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.tabs import open_tab

pytestmark = pytest.mark.browser


def test_the_settings_tab_lists_each_setting_with_its_value(page, studio_url) -> None:
    page.goto(studio_url)
    open_tab(page, "Settings")
    table = page.locator("#rps-settings_table")
    expect(table).to_contain_text("RPS_MAX_UPLOAD_BYTES", timeout=120_000)
    expect(table).to_contain_text("--local-lm-timeout-s")
    expect(table).to_contain_text("embedded SmolLM2-135M-Instruct")
