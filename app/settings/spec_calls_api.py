"""The settings calls under the names the spec gives them (section 7: uploadLogo among "Uploads",
generate-api-credentials among "Admin"). Each is an alias of a REST call and runs the same service function, so
answers, permission and row-scope checks are identical; new clients should prefer the REST paths.

The spec's client sends POST bodies as JSON (or its `encryptedData` envelope, app/web/client_envelope.py) and
media as multipart form data, so ids travel in the body here instead of in the path."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Form, Request, Response, UploadFile
from sqlmodel import Session

from app.access.policy import Actor, require
from app.kernel.schema_examples import example
from app.settings import client_settings_api, company, company_api
from app.settings.schemas import ApiKeyCreate, ApiKeyCreated, BrandImagesRead
from app.web.deps import DB, get_actor, get_signed_in_actor
from app.web.envelope import Envelope, spec_call

router = APIRouter(tags=["settings: spec call names"])
LOGO = "logo"


class GenerateCredentialsBody(ApiKeyCreate):
    model_config = example({"user_id": 12, "label": "Reporting", "scope": "reporting"})

    user_id: int


@router.post("/uploadLogo", response_model=Envelope[BrandImagesRead])
def upload_logo(file: UploadFile, request: Request,
                config_id: int | None = Form(None, description="The brand to change; left out: the brand of the "
                                                               "address this call was made to"),
                actor: Actor = Depends(get_actor), db: Session = DB) -> Any:
    """Upload the brand's logo (PNG, JPG, GIF, WEBP or ICO; at most 1 MB), as POST /company-config/{config_id}/logo.
    A form post from a browser (`Accept: text/html`) is sent back to the settings page, as there."""
    if config_id is None:
        # Only admins may change a brand: asked before the host's brand is looked up, since the lookup makes the
        # default brand on a first start and a refused caller must change nothing.
        require(actor, "company_config", "manage")
        config_id = company.config_row_for_host(db, request.headers.get("host", "")).id
        assert config_id is not None
    return company_api.upload_image(config_id, LOGO, file, request, actor, db)


@router.post("/generate-api-credentials")
@spec_call  # a compatibility route: answers 200, where POST /users/{user_id}/api-keys answers 201
def generate_api_credentials(body: GenerateCredentialsBody, response: Response,
                             actor: Actor = Depends(get_signed_in_actor), db: Session = DB) -> Envelope[ApiKeyCreated]:
    """Generate an API key for a user with API access (as POST /users/{user_id}/api-keys): `data.token` is the
    whole key, shown this once. Not callable with an API key."""
    return client_settings_api.generate_key(body.user_id, body, response, actor, db)
