"""What a keystroke and a click cost and keep, in a real browser (issue 24; static/shell/lean-events.js).

Typed text arrives whole and in order, each keystroke sends under 1 KB, and a box ticked while the page is re-rendering
from the user's own typing stays ticked (no frame shows it unticked) and is saved ticked; so does a radio chosen while
renders computed before the choice are on their way."""

from __future__ import annotations

import json
import string
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocket, expect

from tests.e2e.conftest import login, wait_for_value

pytestmark = pytest.mark.e2e

TYPED = (string.ascii_lowercase + "0123456789" + "-_.,")[:40]
FIELD = "#field-footer_text"


def _field_values(update: Any, field_id: str) -> Iterator[str]:
    """Every `value` the server rendered for the element with this id in one layout update."""
    if isinstance(update, dict):
        attributes = update.get("attributes")
        if isinstance(attributes, dict) and attributes.get("id") == field_id and "value" in attributes:
            yield str(attributes["value"])
        for child in update.values():
            yield from _field_values(child, field_id)
    elif isinstance(update, list):
        for child in update:
            yield from _field_values(child, field_id)


class Wire:
    """The page's websocket frames: what each event sent, and each value the server rendered for one field."""

    def __init__(self, page: Page, field_id: str) -> None:
        self.sent: list[int] = []
        self.rendered: list[str] = []
        self._field_id = field_id
        page.on("websocket", self._watch)

    def _watch(self, socket: WebSocket) -> None:
        socket.on("framesent", lambda frame: self.sent.append(len(frame.encode() if isinstance(frame, str) else frame)))
        socket.on("framereceived", self._received)

    def _received(self, frame: str | bytes) -> None:
        self.rendered.extend(_field_values(json.loads(frame), self._field_id))

    def wait_for_render(self, page: Page, value: str, timeout_ms: int = 10_000) -> None:
        """Until the server has rendered the field with `value` (frames arrive while Playwright waits)."""
        waited = 0
        while not (self.rendered and self.rendered[-1] == value):
            if waited > timeout_ms:
                raise AssertionError(f"the server last rendered {self.rendered[-1:]!r}, not {value!r}")
            page.wait_for_timeout(50)
            waited += 50


def _open_brand_settings(page: Page) -> None:
    login(page, "admin@demo.example")
    page.goto("/admin/settings")
    expect(page.locator("#field-name")).to_have_value("Northwind DSP")


@pytest.mark.parametrize("delay_ms", [0, 50], ids=["full-speed", "20-keys-a-second"])
def test_forty_keystrokes_arrive_whole_and_in_order_at_under_1_kb_each(page: Page, delay_ms: int) -> None:
    wire = Wire(page, FIELD[1:])
    _open_brand_settings(page)
    page.fill(FIELD, "")
    expect(page.locator(FIELD)).to_have_value("")
    page.focus(FIELD)
    wait_for_value(page, "() => document.activeElement.id", FIELD[1:])
    start = len(wire.sent), len(wire.rendered)
    page.keyboard.type(TYPED, delay=delay_ms)

    expect(page.locator(FIELD)).to_have_value(TYPED)
    # The server's own state, as it renders the field back: it reaches the whole text, through prefixes only.
    wire.wait_for_render(page, TYPED)
    rendered = wire.rendered[start[1]:]
    assert all(TYPED.startswith(value) for value in rendered), f"a value out of order: {rendered}"
    keystrokes = wire.sent[start[0]:]  # one event a key (the page sends nothing else meanwhile)
    assert len(keystrokes) >= len(TYPED)
    assert max(keystrokes) <= 1024, f"a keystroke sent {max(keystrokes)} bytes"

    page.click("form[name=brand] button[type=submit]")
    expect(page.locator("[data-toast-kind=success]")).to_contain_text("Brand settings saved")
    page.reload()
    expect(page.locator(FIELD)).to_have_value(TYPED)


def test_a_box_ticked_while_the_page_re_renders_stays_ticked_and_is_saved(page: Page) -> None:
    _open_brand_settings(page)
    switch = page.locator("#field-maintenance_mode")
    expect(switch).not_to_be_checked()
    # Every frame from here on says whether the box is ticked (page.evaluate runs outside the page's CSP).
    page.evaluate("""() => {
        const box = document.querySelector('#field-maintenance_mode');
        window.__ticks = [];
        const look = () => { window.__ticks.push(box.checked); requestAnimationFrame(look); };
        requestAnimationFrame(look);
        box.addEventListener('click', () => { window.__clickedAt = window.__ticks.length; });
    }""")
    # The footer text is typed and the box clicked in one go, inside the page: the typing's events reach the server
    # first, and the server renders the whole form (the box with it) for them, computed before it sees the click:
    # those renders arrive after the click.
    page.evaluate("""text => {
        const field = document.querySelector('#field-footer_text');
        field.focus();
        field.value = '';
        for (const letter of text) {
            field.value += letter;
            field.dispatchEvent(new Event('input', {bubbles: true}));
        }
        document.querySelector('#field-maintenance_mode').click();
    }""", TYPED)
    page.focus(FIELD)
    page.keyboard.type("!", delay=0)  # and a render from after the click, for good measure
    expect(page.locator(FIELD)).to_have_value(TYPED + "!")
    page.click("form[name=brand] button[type=submit]")
    expect(page.locator("[data-toast-kind=success]")).to_contain_text("Brand settings saved")

    after_click = page.evaluate("() => window.__ticks.slice(window.__clickedAt)")
    assert after_click and all(after_click), f"the box showed unticked in {after_click.count(False)} frames"
    page.reload()
    expect(page.locator("#field-maintenance_mode")).to_be_checked()


# Installed before the page's scripts: while `window.__holdUpdates` is set, the server's messages wait in
# `window.__heldUpdates` (ReactPy's client reads them through `onmessage`) until `window.__releaseUpdates()`.
HOLD_UPDATES = """
(() => {
    const native = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
    window.__heldUpdates = [];
    window.__releaseUpdates = () => {
        window.__holdUpdates = false;
        for (const deliver of window.__heldUpdates.splice(0)) deliver();
    };
    Object.defineProperty(WebSocket.prototype, 'onmessage', {
        configurable: true,
        get() { return native.get.call(this); },
        set(handler) {
            native.set.call(this, handler && (event => {
                if (window.__holdUpdates) window.__heldUpdates.push(() => handler.call(this, event));
                else handler.call(this, event);
            }));
        },
    });
})();
"""
AUDIENCE = "Spring sale buyers"


def test_a_radio_chosen_while_the_page_re_renders_stays_chosen_and_is_saved(page: Page) -> None:
    """The audience kind is a radio group. Renders the server computed before the click (for the name typed just
    before) arrive after it and still tick the other kind; the choice is the group's first radio, so those renders
    reach its mate after it (the order in which the mate used to win)."""
    page.add_init_script(HOLD_UPDATES)
    login(page, "advertiser@demo.example")
    page.goto("/audience/create")
    page.click("[data-kind=retargeting]")
    expect(page.locator("#field-lookback_days")).to_have_value("30")  # the server has seen it
    page.evaluate("""name => {
        const radio = document.querySelector('#kind-device_ids');
        window.__chosen = [];
        const look = () => { window.__chosen.push(radio.checked); requestAnimationFrame(look); };
        requestAnimationFrame(look);
        radio.addEventListener('click', () => { window.__clickedAt = window.__chosen.length; });
        window.__holdUpdates = true;
        const field = document.querySelector('#field-name');
        field.focus();
        for (const letter of name) {
            field.value += letter;
            field.dispatchEvent(new Event('input', {bubbles: true}));
        }
    }""", AUDIENCE)
    wait_for_value(page, "() => window.__heldUpdates.length > 0", True)  # renders of the name, "retargeting" in them
    page.evaluate("() => { document.querySelector('#kind-device_ids').click(); window.__releaseUpdates(); }")
    page.focus("#field-name")
    page.keyboard.type(" 2026", delay=0)  # and renders from after the click
    expect(page.locator("#field-name")).to_have_value(AUDIENCE + " 2026")
    expect(page.locator("#field-lookback_days")).to_have_count(0)  # the server rendered the device-id form
    expect(page.locator("#kind-device_ids")).to_be_checked()
    expect(page.locator("#kind-retargeting")).not_to_be_checked()

    after_click = page.evaluate("() => window.__chosen.slice(window.__clickedAt)")
    assert after_click and all(after_click), f"the choice showed unticked in {after_click.count(False)} frames"
    page.click("[data-page=audience-create] button[type=submit]")
    expect(page.locator("[data-page=audience-view] h1")).to_contain_text(AUDIENCE + " 2026")
    expect(page.locator("[data-empty=devices]")).to_be_visible()  # a device-id audience
