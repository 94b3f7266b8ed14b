"""The two documentation pages: they render, their contents link to real sections, and they carry
the spec's messages."""

from __future__ import annotations

import re
from typing import Any

import pytest

from components.docs.console_content import CONSOLE_SECTIONS
from components.docs.documentation import ConsoleDocsPage, GeneralDocsPage
from components.docs.general_content import GENERAL_SECTIONS
from tests.render import render_model, walk

SPEC_MESSAGES = (
    "Creative name cannot be empty.",
    "Click URL is mandatory",
    "Please enter a valid URL.",
    "Invalid input. Please use only letters, numbers, spaces, and hyphens.",
)

PAGES = {"general": (GeneralDocsPage, GENERAL_SECTIONS), "console": (ConsoleDocsPage, CONSOLE_SECTIONS)}


def text_of(model: dict[str, Any]) -> str:
    parts: list[str] = []
    for node in walk(model):
        parts.extend(child for child in node.get("children", ()) if isinstance(child, str))
    return " ".join(parts)


@pytest.fixture(scope="module", params=sorted(PAGES))
def page(request: pytest.FixtureRequest) -> tuple[str, dict[str, Any], tuple[Any, ...]]:
    component_fn, sections = PAGES[request.param]
    return request.param, render_model(component_fn), sections


def test_every_contents_link_points_at_a_section(page: tuple[str, dict[str, Any], tuple[Any, ...]]) -> None:
    _name, model, sections = page
    nodes = list(walk(model))
    ids = [n["attributes"]["id"] for n in nodes if "id" in n.get("attributes", {})]
    anchors = [n["attributes"]["href"][1:] for n in nodes
               if n.get("tagName") == "a" and n.get("attributes", {}).get("href", "").startswith("#")]
    assert len(ids) == len(set(ids)), "duplicate ids"
    assert anchors == [s.id for s in sections], "the contents list every section, in order"
    assert set(anchors) <= set(ids)
    section_ids = [n["attributes"]["id"] for n in nodes if n.get("tagName") == "section"]
    assert section_ids == anchors


def test_sections_have_titled_headings(page: tuple[str, dict[str, Any], tuple[Any, ...]]) -> None:
    _name, model, sections = page
    headings = [n for n in walk(model) if n.get("tagName") == "h2"]
    assert [h["children"][0] for h in headings] == [s.title for s in sections]
    for section in sections:
        assert re.fullmatch(r"[a-z][a-z0-9-]*", section.id), section.id
        assert section.title.strip()


def test_pages_are_in_english_with_the_translated_note(page: tuple[str, dict[str, Any], tuple[Any, ...]]) -> None:
    _name, model, _sections = page
    text = text_of(model)
    assert "This documentation is written in English." in text
    assert "coming soon" not in text.lower()


def test_console_guide_carries_the_spec_messages() -> None:
    text = text_of(render_model(ConsoleDocsPage))
    for message in SPEC_MESSAGES:
        assert message in text, message
    for expected in ("POST /api/auth/login/", "Authorization: Bearer <token>", "GET /api/auth/refresh-token",
                     "401", "403", "404", "422", "429", "500", "/admin/settings"):
        assert expected in text, expected


def test_general_page_documents_roles_sessions_and_money() -> None:
    text = text_of(render_model(GeneralDocsPage))
    for expected in ("ADMIN", "CO-ADMIN", "AGENCY", "ADVERTISER", "This tab was inactive for some time!",
                     "Back To Admin", "Back To Co-Admin", "Back To Agency", "$1,234.50", "-$5.00",
                     "Your console's menu shows the sections your role has.", "$100,000,000.00", "$5,000.00",
                     "90.00 %"):
        assert expected in text, expected


def test_routes_serve_the_pages() -> None:
    from components.pages import PAGES as ROUTES

    by_path = {p.path: p for p in ROUTES}
    assert by_path["/documentation/general"].component is GeneralDocsPage
    assert by_path["/documentation/console"].component is ConsoleDocsPage
