"""Translation lookup. Catalogs are JSON files beside this module, one per language code of the spec:
en English (default and fallback), sp Spanish, gr German, it Italian, rs Russian."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

LANGUAGES: dict[str, str] = {"en": "English", "sp": "Español", "gr": "Deutsch", "it": "Italiano", "rs": "Русский"}
DEFAULT_LANGUAGE = "en"
LANGUAGE_COOKIE = "dsp_lang"  # mirrors localStorage "language" (kept by the session agent) for the first render
_CATALOG_DIR = Path(__file__).parent / "catalogs"

Translator = Callable[..., str]


class Message(str):
    """A server message built from values, e.g. Message("At most {n} characters.", n=25). It is its English text
    wherever a string goes (API replies, logs, comparisons) and keeps its template and values, so a translator
    looks up the template: one catalog entry serves every value, and a limit changed in code stays translated."""

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, /, **values: object) -> Message:
        text = super().__new__(cls, template.format(**values))
        text.template, text.values = template, values
        return text

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, object]]:  # pickles and copies keep the template
        return (self.template,), self.values


@lru_cache
def catalog(language: str) -> dict[str, str]:
    path = _CATALOG_DIR / f"{language}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def normalise_language(language: str | None) -> str:
    return language if language in LANGUAGES else DEFAULT_LANGUAGE


def translator(language: str | None) -> Translator:
    """t(key, **values): the language's text, else English, else the key itself. A Message is looked up by its
    template and filled with its values."""
    own, fallback = catalog(normalise_language(language)), catalog(DEFAULT_LANGUAGE)

    def t(key: str, **values: object) -> str:
        if isinstance(key, Message):
            values = {**key.values, **values}
            key = key.template
        text = own.get(key) or fallback.get(key) or key
        return text.format(**values) if values else text

    return t
