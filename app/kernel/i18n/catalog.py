"""Translation lookup. Catalogs are JSON files beside this module, one per language code of the spec:
en English (default and fallback), sp Spanish, gr German, it Italian, rs Russian."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

LANGUAGES: dict[str, str] = {"en": "English", "sp": "Español", "gr": "Deutsch", "it": "Italiano", "rs": "Русский"}
DEFAULT_LANGUAGE = "en"
# The codes as BCP 47 language tags, for libraries that know languages by those (gettext catalogs);
# js_modules/src/lib/locale.js holds the same table for the browser's Intl.
BCP47: dict[str, str] = {"en": "en", "sp": "es", "gr": "de", "it": "it", "rs": "ru"}
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


class Term(str):
    """A word inside a Message that a catalog names elsewhere: its English text here (a status, "archived"), and
    in a translation the text of `key` ("campaigns.status.archived": "Archivada"), so a sentence about a status
    uses the label the pages show for it."""

    key: str

    def __new__(cls, text: str, /, *, key: str) -> Term:
        term = super().__new__(cls, text)
        term.key = key
        return term

    def __getnewargs_ex__(self) -> tuple[tuple[str], dict[str, object]]:
        return (str(self),), {"key": self.key}


@lru_cache
def catalog(language: str) -> dict[str, str]:
    path = _CATALOG_DIR / f"{language}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def normalise_language(language: str | None) -> str:
    return language if language in LANGUAGES else DEFAULT_LANGUAGE


PLURAL_SEPARATOR = "|"


def plural_form(language: str, n: int) -> int:
    """Which of a text's forms ("{count} row|{count} rows") a count takes, in gettext's order for the language:
    English, Spanish, German and Italian have one and other; Russian one (1, 21, 101), few (2-4, 22-24) and
    many (0, 5-20, 25-30, 111). Written out (CLDR's cardinal rules for integers) because five languages do not
    warrant a locale library's data."""
    if language == "rs":
        if n % 10 == 1 and n % 100 != 11:
            return 0
        return 1 if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14 else 2
    return 0 if n == 1 else 1


def translator(language: str | None) -> Translator:
    """t(key, **values): the language's text, else English, else the key itself. A Message is looked up by its
    template and filled with its values. A text of forms separated by "|" is a count's: an int `count` value
    picks the form (plural_form; a language's missing form is its last). A value that is a Message is translated
    too, and a Term takes its key's text in this language (its own English text where the language has none)."""
    code = normalise_language(language)
    own, fallback = catalog(code), catalog(DEFAULT_LANGUAGE)

    def value_of(value: object) -> object:
        if isinstance(value, Term):
            return own.get(value.key, str(value)) if code != DEFAULT_LANGUAGE else str(value)
        return t(value) if isinstance(value, Message) else value

    def t(key: str, **values: object) -> str:
        if isinstance(key, Message):
            values = {**key.values, **values}
            key = key.template
        values = {name: value_of(value) for name, value in values.items()}
        text = own.get(key) or fallback.get(key) or key
        count = values.get("count")
        if isinstance(count, int) and PLURAL_SEPARATOR in text:
            forms = text.split(PLURAL_SEPARATOR)
            in_own = key in own
            text = forms[min(plural_form(code if in_own else DEFAULT_LANGUAGE, count), len(forms) - 1)]
        return text.format(**values) if values else text

    return t
