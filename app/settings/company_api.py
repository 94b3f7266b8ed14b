"""Logo and favicon uploads (multipart). Browsers post the settings page's form; API clients get JSON."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, Request, UploadFile
from fastapi.responses import RedirectResponse
from sqlmodel import Session

from app.access.policy import Actor
from app.kernel.config import get_settings
from app.kernel.errors import Invalid
from app.settings import company
from app.settings.schemas import BrandImagesRead
from app.web.deps import DB, get_actor
from app.web.envelope import Envelope, reply

router = APIRouter(tags=["branding"])
SETTINGS_PAGE = "/admin/settings"


@router.post("/company-config/{config_id}/{kind}", response_model=Envelope[BrandImagesRead], responses={
    303: {"description": "A browser's form post (`Accept: text/html`): back to the settings page, with the outcome."}})
def upload_image(config_id: int, kind: str, file: UploadFile, request: Request,
                 actor: Actor = Depends(get_actor), db: Session = DB) -> Any:
    """Upload the brand's `logo` or `favicon` (PNG, JPG, GIF, WEBP or ICO; at most 1 MB)."""
    wants_page = "text/html" in request.headers.get("accept", "")
    # A sync handler runs in a worker thread: reading the spooled upload, decoding it and writing it to the file
    # store (a bucket is a network call) block no other request.
    content = file.file.read(get_settings().max_image_upload_bytes + 1)
    try:
        branding = company.store_image(db, actor=actor, config_id=config_id, kind=kind,
                                       filename=file.filename or "", content=content)
    except Invalid as error:
        if wants_page:
            return RedirectResponse(f"{SETTINGS_PAGE}?upload_error={quote(error.message)}", status_code=303)
        raise
    if wants_page:
        return RedirectResponse(f"{SETTINGS_PAGE}?uploaded={kind}", status_code=303)
    return reply(BrandImagesRead(logoSrc=branding.logo_url, favicon=branding.favicon_url), "Uploaded")
