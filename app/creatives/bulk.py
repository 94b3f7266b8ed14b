"""Bulk edits of creatives (/creative/bulk-creative-edit, /admin/bulk-creative-status): each row is checked
and saved on its own, so the rows that pass are saved even when others are refused, and each row's result
says why it was refused. Each row runs in a SAVEPOINT: a refused row leaves no half-made change behind."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from sqlmodel import Session

from app.access.policy import Actor, require
from app.creatives.records import in_scope, set_status, update_creative
from app.creatives.schemas import BulkChanges, BulkResult, CreativeRead, CreativeUpdate
from app.history import versions
from app.kernel.errors import Invalid, NotFound, ServiceError
from app.kernel.i18n.catalog import Message, translator
from app.kernel.i18n.refusals import refusal_text

# What the bulk edit page changes: the tracking of many creatives at once (names and files are per creative).
BULK_EDITABLE = ("click_url", "pixel_urls", "impression_urls")
BULK_MAX_ROWS = 500
# How a refused field is named in a row's message: its catalog key (app/kernel/i18n/refusals.py).
LABELS = {"click_url": "creatives.field.click_url", "pixel_urls": "creatives.field.pixel_urls",
          "impression_urls": "creatives.field.impression_urls", "status": "bulk.field.status"}


def _row_ids(creative_ids: list[int]) -> list[int]:
    try:
        ids = list(dict.fromkeys(int(value) for value in creative_ids))
    except (TypeError, ValueError):
        raise Invalid({"creative_ids": "Send creative ids as numbers."}) from None
    if not ids:
        raise Invalid({"creative_ids": "Choose at least one creative."})
    if len(ids) > BULK_MAX_ROWS:
        raise Invalid({"creative_ids": Message("At most {limit} creatives at a time.", limit=BULK_MAX_ROWS)})
    return ids


def _each(db: Session, actor: Actor, ids: list[int], change: Callable[[int], CreativeRead], done: str,
          language: str | None, read: Mapping[int, int] | None = None) -> list[BulkResult]:
    """change(id) for every id, each in its own savepoint; one result per id, in order, worded in `language`.
    `read`: the version the caller read of some creatives, by id: one saved since is refused, naming who changed
    what (each row's write is conditional on the version it read either way)."""
    t = translator(language)
    results: list[BulkResult] = []
    for creative_id in ids:
        try:
            if creative_id in (read or {}):
                versions.check(db, entity="creative", row=in_scope(db, actor, creative_id)[0],
                               expected=(read or {})[creative_id], fields=list)
            with db.begin_nested():
                row = change(creative_id)
            results.append(BulkResult(id=creative_id, name=row.name, ok=True, message=t(done)))
        except ServiceError as refused:
            try:
                name = in_scope(db, actor, creative_id)[0].name
            except NotFound:
                name = ""  # missing or another tenant's: nothing about it is told
            results.append(BulkResult(id=creative_id, name=name, ok=False,
                                      message=refusal_text(refused, LABELS, language=language)))
    return results


def bulk_update(db: Session, *, actor: Actor, creative_ids: list[int], changes: BulkChanges,
                language: str | None = None, read: Mapping[int, int] | None = None) -> list[BulkResult]:
    """Apply `changes` (click_url, pixel_urls, impression_urls: the ones given) to each creative. Each row's
    message is in `language` (English by default: the API's), a refusal naming the field: "Status: ..."."""
    require(actor, "creative", "update")
    sent = changes.model_dump(include=set(BULK_EDITABLE), exclude_unset=True)
    if not sent:
        raise Invalid({"changes": "Choose at least one field to change."})
    edit = CreativeUpdate.model_validate(sent)
    return _each(db, actor, _row_ids(creative_ids),
                 lambda creative_id: update_creative(db, actor=actor, creative_id=creative_id, data=edit), "Saved",
                 language, read)


def bulk_status(db: Session, *, actor: Actor, creative_ids: list[int], status: str,
                language: str | None = None, read: Mapping[int, int] | None = None) -> list[BulkResult]:
    """Admin and co-admin: move each creative to `status`, each saved or refused on its own."""
    require(actor, "creative", "bulk_status")
    return _each(db, actor, _row_ids(creative_ids),
                 lambda creative_id: set_status(db, actor=actor, creative_id=creative_id, status=status),
                 "Status changed", language, read)
