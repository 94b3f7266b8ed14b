"""Names in the order a language's readers look for them in a list (countries, regions, languages).

Accents and case are ignored (Å, Ä and A file together, as in the grid's Intl.Collator with sensitivity "base"),
except where a language's alphabet has a letter of its own that Unicode writes as an accented one: Spanish ñ
comes after n, Russian й after и (CLDR's tailorings for es and ru). Hand-written, not ICU (PyICU builds against
the ICU C library): those two letters are all that the five languages' orders add to accent-blind order."""

from __future__ import annotations

import unicodedata

# language code -> its own letters, each replaced before accents are dropped by the base letter and a character
# that sorts after every letter: "ña" lands after "nz" and before "o".
_OWN_LETTERS: dict[str, dict[str, str]] = {"sp": {"ñ": "n\uffff"}, "rs": {"й": "и\uffff"}}


def fold(text: str) -> str:
    """Lower case without accents: what a user types and what a name is called meet here."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().strip()


def sort_key(text: str, language: str) -> tuple[str, str]:
    """Compare two names' keys to order them as `language` does; names equal but for accents and case keep a
    fixed order between them."""
    lowered = unicodedata.normalize("NFC", text).casefold()
    for letter, place in _OWN_LETTERS.get(language, {}).items():
        lowered = lowered.replace(letter, place)
    return fold(lowered), text
