"""Downloads of generated files (CSV exports). A link works only for the user who asked for the file."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import FileResponse
from sqlmodel import Session

from app.api.deps import get_actor, get_db
from app.api.envelope import ok
from app.auth.policy import Actor
from app.services import campaign_export

router = APIRouter(tags=["exports"])


@router.get("/exports/{token}", response_class=FileResponse)
def download(token: str, actor: Actor = Depends(get_actor)) -> FileResponse:
    """The file behind a download link (15 minutes, only for whoever asked for it)."""
    path = campaign_export.export_file(actor=actor, token=token)
    return FileResponse(path, media_type="text/csv; charset=utf-8", filename="campaigns.csv",
                        headers={"x-content-type-options": "nosniff", "cache-control": "private, no-store"})


@router.get("/campaning/exportCampaningData")
def export_campaigns(columns: str = Query("", description="Comma-separated column keys; empty for all"),
                     status: str = "", search: str = "", sort: str = Query("", description="A column, '-' first for "
                                                                                           "descending"),
                     advertiser_id: int | None = None, include_archived: bool = False,
                     actor: Actor = Depends(get_actor), db: Session = Depends(get_db)) -> dict[str, Any]:
    """The campaign list as CSV (spec: exportCampaningData): answers {csv_download_url} to fetch the file from."""
    chosen = [c.strip() for c in columns.split(",") if c.strip()]
    return ok(campaign_export.export_campaigns(db, actor=actor, columns=chosen, status=status, search=search,
                                               sort=sort, advertiser_id=advertiser_id,
                                               include_archived=include_archived))
