"""Small reusable UI parts: forms, fields, buttons, cards, hooks."""
