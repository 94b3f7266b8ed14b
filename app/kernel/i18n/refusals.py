"""A refused row's reason in plain words, in the reader's language: what bulk edits answer per row
("Bid: the bid cannot exceed the highest bid."). The services write it (the API's default is English, a page passes
its reader's language); a page cannot, because the row results reach it as plain text."""

from __future__ import annotations

from collections.abc import Mapping

from app.kernel.errors import Invalid, ServiceError
from app.kernel.i18n.catalog import normalise_language, translator

# Languages that keep a message's capital after "Field:" (a German sentence after a colon starts with a capital,
# and its nouns always have one); the others continue in lower case.
_KEEPS_CAPITAL = frozenset({"gr"})


def _continued(message: str, language: str) -> str:
    """The message as the second half of "Field: message." (its first word lower-cased unless an acronym)."""
    if language in _KEEPS_CAPITAL or not message:
        return message
    return message[0].lower() + message[1:] if message[1:2].islower() or message[1:2] == " " else message


def refusal_text(refusal: ServiceError, labels: Mapping[str, str], *, language: str | None = None) -> str:
    """Each bad field named by its label (`labels`: field -> catalog key; another field by its name in words),
    then why; a refusal without fields is its message ("Campaign not found.")."""
    code = normalise_language(language)
    t = translator(code)

    def label(field: str) -> str:
        key = labels.get(field)
        return t(key) if key else field.removeprefix("targeting.").replace("_", " ").capitalize()

    if isinstance(refusal, Invalid) and refusal.fields:
        return " ".join(f"{label(field)}: {_continued(t(message), code)}" for field, message in refusal.fields.items())
    return t(refusal.message)
