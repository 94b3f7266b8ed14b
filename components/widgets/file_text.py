"""A file chooser whose file is read in the browser and handed over as text (the `filetext` widget):
small text uploads (a CSV of geo-fence points) without a multipart round trip."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reactpy.types import VdomDict

from components.widgets.bundles import widget_component

_FileText = widget_component("filetext", "FileText")


def file_text(*, name: str, label: str, on_text: Callable[[str, str], Any], on_error: Callable[[str, str], Any],
              accept: str = ".csv,text/csv,text/plain", max_bytes: int = 1_048_576) -> VdomDict:
    """`on_text(text, file name)` with the chosen file's content; `on_error("too_big" | "unreadable", file name)`."""
    return _FileText({"name": name, "label": label, "accept": accept, "maxBytes": max_bytes,
                      "onText": on_text, "onError": on_error})
