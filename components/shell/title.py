"""Page title: the capitalised path, then the meta title, then the company name (spec section 2)."""

from __future__ import annotations

import re


def capitalised_path(path: str) -> str:
    words = [w for w in re.split(r"[/\-_]+", path) if w and not w.isdigit()]
    spaced = [re.sub(r"(?<=[a-z])(?=[A-Z])", " ", w) for w in words]
    return " ".join(w[:1].upper() + w[1:] for w in " ".join(spaced).split())


def page_title(path: str, meta_title: str, company_name: str) -> str:
    parts = [capitalised_path(path) or "Home", meta_title, company_name]
    unique = [p for i, p in enumerate(parts) if p and p not in parts[:i]]
    return " | ".join(unique)
