"""What the sign-in pages share: the caller's address and a heading."""

from __future__ import annotations

from typing import Any

from reactpy import html


def client_address(scope: Any) -> str:
    client = scope.get("client") if isinstance(scope, dict) else None
    return str(client[0]) if client else ""


def auth_heading(title: str, subtitle: str = "") -> Any:
    return html.div({"className": "mb-4 text-center"}, html.h1({"className": "h4 fw-semibold mb-1"}, title),
                    html.p({"className": "text-body-secondary small mb-0"}, subtitle) if subtitle else "")
