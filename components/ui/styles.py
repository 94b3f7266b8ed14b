"""Class names used in more than one place, so pages do not carry long class strings."""

from __future__ import annotations

CARD = "card dsp-card shadow-sm border-0"
CARD_BODY = "card-body"
PAGE_HEADER = "d-flex flex-wrap align-items-center justify-content-between gap-2 mb-4"
PAGE_TITLE = "h4 mb-0 fw-semibold"
PAGE_SUBTITLE = "text-body-secondary small mb-0"
TOPBAR_BUTTON = "btn dsp-topbar-btn"
DROPDOWN_MENU = "dropdown-menu dropdown-menu-end show shadow dsp-dropdown"
FORM_LABEL = "form-label small fw-medium"
