"""The two public manuals: /documentation/general and /documentation/console.

The content lives as data in general_content.py and console_content.py (tuples of Section);
docs_article() turns a tuple into the article: a sticky table of contents derived from the
sections, and the sections themselves. The docs frame (header, footer) comes from the shell.
"""

from __future__ import annotations

from typing import Any

from reactpy import component, html

from components.docs.console_content import CONSOLE_SECTIONS
from components.docs.general_content import GENERAL_SECTIONS, Section
from components.ui.console import use_console

# Clears the sticky docs header when the page jumps to an anchor or the contents stick.
_STICKY_OFFSET = "5rem"


def table_of_contents(sections: tuple[Section, ...]) -> Any:
    return html.nav(
        {"className": "sticky-lg-top small", "style": {"top": _STICKY_OFFSET}, "aria-label": "Contents"},
        html.div({"className": "text-uppercase fw-semibold text-body-secondary mb-2"}, "Contents"),
        html.div({"className": "list-group list-group-flush dsp-docs-toc"},
                 *[html.a({"className": "list-group-item list-group-item-action px-2 py-1", "href": f"#{s.id}",
                           "key": s.id}, s.title) for s in sections]),
    )


def _section(section: Section) -> Any:
    return html.section(
        {"id": section.id, "key": section.id, "className": "mb-5", "style": {"scrollMarginTop": _STICKY_OFFSET},
         "aria-labelledby": f"{section.id}-title"},
        html.h2({"id": f"{section.id}-title", "className": "h4 pb-2 mb-3 border-bottom"}, section.title),
        *section.body(),
    )


def docs_article(sections: tuple[Section, ...], *, title: str, lead: str, note: str) -> Any:
    """The article of a manual: title and lead, then contents on the left and sections on the right."""
    return html.div(
        {"className": "dsp-docs-article"},
        html.div({"className": "mb-4"},
                 html.h1({"className": "h2 mb-2"}, title),
                 html.p({"className": "lead text-body-secondary mb-2"}, lead),
                 html.p({"className": "small text-body-secondary mb-0", "data-docs-note": ""}, note)),
        html.div({"className": "row g-4"},
                 html.div({"className": "col-lg-3"}, table_of_contents(sections)),
                 html.article({"className": "col-lg-9"}, *[_section(s) for s in sections])),
    )


@component
def GeneralDocsPage() -> Any:
    console = use_console()
    return docs_article(
        GENERAL_SECTIONS,
        title="General documentation",
        lead="What the console is for, who uses it, how accounts and sessions work, and the words of the trade.",
        note=console.t("docs.language_note"),
    )


@component
def ConsoleDocsPage() -> Any:
    console = use_console()
    return docs_article(
        CONSOLE_SECTIONS,
        title="Console guide",
        lead="Working in the console: the top bar, menus and dashboard, your settings, the brand settings, "
             "the API and the validation rules.",
        note=console.t("docs.language_note"),
    )
