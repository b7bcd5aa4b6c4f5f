"""The ABack tab's Stop button in a real browser: a long guarded generation ends cleanly when pressed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.tabs import open_tab

pytestmark = pytest.mark.browser

TOKEN_STATES = {"S1", "S2", "S3", "S4", "not-inspected", "refusal"}
SPEED = re.compile(r"first token after (\d+\.\d) s · (\d+\.\d) tokens/s · (\d+\.\d) s")


def test_stop_ends_a_running_generation_and_keeps_its_tokens(page, studio_url, artifacts):
    page.goto(studio_url)
    open_tab(page, "ABack generation")
    generate, stop = page.locator("#rps-aback_generate"), page.locator("#rps-aback_stop")
    expect(stop).to_be_disabled()
    page.locator("#rps-aback_load_demo").click()
    status = page.locator("#rps-aback_status")
    expect(status).to_contain_text(re.compile(r"Loaded 12 PriGenQA"), timeout=30_000)
    page.locator("#rps-aback_query textarea").fill("How much should someone save each month for retirement?")
    page.locator("#rps-aback_retrieve").click()
    expect(page.locator("#rps-aback_indicators textarea")).not_to_have_value("", timeout=60_000)
    page.locator("#rps-aback_max_tokens input").fill("400")  # far more than will be generated before Stop

    generate.click()
    expect(generate).to_be_disabled(timeout=10_000)
    expect(stop).to_be_enabled()
    stream = page.locator("#rps-aback_stream")
    committed = stream.locator(".rps-aback-token:not(.rps-aback-pending)")
    expect(committed.nth(5)).to_be_attached(timeout=180_000)  # six tokens shown: the run is streaming
    expect(stream.locator(".rps-aback-speed")).to_contain_text(SPEED)
    shown_before_stop = committed.count()
    stop.click()

    expect(stream.locator('[data-phase="stopped"]')).to_be_attached(timeout=60_000)
    expect(status).to_contain_text(re.compile(r"Stopped after \d+ token\(s\)"), timeout=30_000)
    expect(generate).to_be_enabled()
    expect(stop).to_be_disabled()
    tokens = stream.locator(".rps-aback-token")
    kept = tokens.count()
    assert kept >= shown_before_stop  # the tokens shown before Stop are kept
    assert stream.locator(".rps-aback-pending").count() == 0  # an unchecked look-ahead is never left shown
    assert kept < 400
    states = tokens.evaluate_all("spans => spans.map(span => span.dataset.state)")
    assert set(states) <= TOKEN_STATES, states  # every token: its inferred state or "not inspected"
    if stream.locator(".rps-aback-masked").count() == 0:
        stopped_after = int(re.search(r"Stopped after (\d+)", status.inner_text()).group(1))
        assert stopped_after == kept
    first_token_s, tokens_per_s, elapsed_s = (
        float(value) for value in SPEED.search(stream.inner_text()).groups()
    )
    assert 0 < first_token_s <= elapsed_s
    assert tokens_per_s > 0
    assert page.locator("#rps-aback_answers").inner_text().strip() == "Baselines run after ABack."
    page.screenshot(path=str(artifacts / "aback-stop.png"), full_page=True)
