"""Add translations to every catalog in one step: `python -m app.kernel.i18n.merge patch.json`.

The patch is {"keys": {key: {"en": ..., "sp": ..., "gr": ..., "it": ..., "rs": ...}},
"messages": {english server message: {"sp": ..., "gr": ..., "it": ..., "rs": ...}}}.
UI keys are appended to en.json; other catalogs keep English key order followed by the server
messages (tests/test_i18n.py checks this; new messages must also go into its MESSAGE_KEYS).
Existing keys are overwritten, so re-running a patch is harmless.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from app.kernel.i18n.catalog import DEFAULT_LANGUAGE, LANGUAGES

CATALOG_DIR = Path(__file__).parent / "catalogs"


def _read(language: str) -> dict[str, str]:
    catalog: dict[str, str] = json.loads((CATALOG_DIR / f"{language}.json").read_text(encoding="utf-8"))
    return catalog


def _write(language: str, entries: dict[str, str]) -> None:
    text = json.dumps(entries, ensure_ascii=False, indent=2) + "\n"
    (CATALOG_DIR / f"{language}.json").write_text(text, encoding="utf-8")


def merge(patch: dict[str, dict[str, dict[str, str]]]) -> None:
    keys, messages = patch.get("keys", {}), patch.get("messages", {})
    others = [code for code in LANGUAGES if code != DEFAULT_LANGUAGE]
    for key, texts in keys.items():
        missing = [code for code in LANGUAGES if not texts.get(code, "").strip()]
        if missing:
            raise SystemExit(f"{key}: no text for {', '.join(missing)}")
    for message, texts in messages.items():
        missing = [code for code in others if not texts.get(code, "").strip()]
        if missing:
            raise SystemExit(f"{message}: no text for {', '.join(missing)}")
    english = _read(DEFAULT_LANGUAGE)
    english.update({key: texts[DEFAULT_LANGUAGE] for key, texts in keys.items()})
    _write(DEFAULT_LANGUAGE, english)
    for code in others:
        own = _read(code)
        own.update({key: texts[code] for key, texts in keys.items()})
        own.update({message: texts[code] for message, texts in messages.items()})
        ordered = {key: own[key] for key in english if key in own}
        ordered.update({key: text for key, text in own.items() if key not in english})
        _write(code, ordered)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    merge(json.loads(Path(sys.argv[1]).read_text(encoding="utf-8")))
