"""The spec's `sheetData` call: a list as a spreadsheet file (app/reports/sheets.py), answered as a download link."""

from __future__ import annotations

from fastapi import APIRouter, Depends
from sqlmodel import Session

from app.access.policy import Actor
from app.kernel.csv_exports import ExportLink
from app.reports import sheets
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, reply

router = APIRouter(tags=["exports"])


@router.post("/sheetData")
def sheet_data(body: sheets.SheetRequest, actor: Actor = Depends(get_actor), db: Session = DB) -> Envelope[ExportLink]:
    """The campaign, creative or user list as you may see it, filtered as its page filters it, as a CSV file a
    spreadsheet opens: `data.csv_download_url` works for 15 minutes, for you only (send your token with it). A
    filter the list does not take answers 422 naming it. The campaign sheet is the campaign export
    (POST /campaigns/export with every column)."""
    return reply(sheets.sheet_data(db, actor=actor, request=body), "Export ready")
