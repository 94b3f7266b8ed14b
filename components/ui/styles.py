"""Class names used in more than one place, so pages do not carry long class strings."""

from __future__ import annotations

CARD = "card dsp-card shadow-sm border-0"
CARD_BODY = "card-body"
PAGE_HEADER = "d-flex flex-wrap align-items-center justify-content-between gap-2 mb-4"
PAGE_TITLE = "h4 mb-0 fw-semibold"
PAGE_SUBTITLE = "text-body-secondary small mb-0"
BUTTON_PRIMARY = "btn btn-primary"
BUTTON_SECONDARY = "btn btn-outline-secondary"
BUTTON_LINK = "btn btn-link p-0 align-baseline"
TOPBAR_BUTTON = "btn dsp-topbar-btn"
DROPDOWN_MENU = "dropdown-menu dropdown-menu-end show shadow dsp-dropdown"
FORM_LABEL = "form-label small fw-medium"
EMPTY_STATE = "dsp-empty text-center text-body-secondary py-5"
