"""An upload button that posts the chosen file to an API call over HTTP (the `fileupload` widget) and tells
Python what the server answered: creative images and videos never cross the websocket."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from reactpy.types import VdomDict

from components.widgets.bundles import widget_component

_FileUpload = widget_component("fileupload", "FileUpload")


def file_upload(*, name: str, url: str, label: str, busy_label: str, on_uploaded: Callable[[dict[str, Any]], Any],
                on_error: Callable[[str], Any], accept: str = "", fields: Mapping[str, Any] | None = None) -> VdomDict:
    """`on_uploaded(data)` with the reply's `data` (the API envelope's); `on_error(message)` otherwise. `fields`
    go along as form fields."""
    def uploaded(text: str) -> Any:
        try:
            data = json.loads(str(text))
        except ValueError:
            return on_error("The server's answer could not be read.")
        return on_uploaded(data if isinstance(data, dict) else {})

    return _FileUpload({"name": name, "url": url, "label": label, "busyLabel": busy_label, "accept": accept,
                        "fields": dict(fields or {}), "onUploaded": uploaded, "onError": on_error})
