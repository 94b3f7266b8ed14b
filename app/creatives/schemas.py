"""What the creative services take and answer, and so what the API's creative calls send and receive. Html
markup leaves only through a preview (HtmlPreview); every other answer says its size."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from app.history.schemas import VERSION_HELP, RecordVersion, RowVersions
from app.kernel.schema_examples import example

CreativeTypeName = Literal["image", "native", "video", "html"]
CreativeStatusName = Literal["active", "paused", "archived"]
UrlList = list[str] | str

_TIME = "ISO-8601 UTC"
_URLS = "a JSON list, or the spec's comma-separated text; each URL ends with a slash"
_PIXELS = "html only, pixels: a whole number from 1 to 4096 (other types take it from the file)"
_TYPE = "image, native, video or html"


class CreativeFields(BaseModel):
    """A creative's fields; which apply depends on its type (the others must be left empty). File ids come from
    `POST /uploads/creative`. On edit, fields left out keep their values. The service judges each value (its
    message names the field)."""

    name: str | None = Field(None, description="At most 120 characters")
    click_url: str | None = Field(None, description="image, native, video: mandatory")
    pixel_urls: UrlList | None = Field(None, description="image only: optional, several; " + _URLS)
    impression_urls: UrlList | None = Field(None, description="native: optional, one; video: optional, several; "
                                                              + _URLS)
    asset_id: int | None = Field(None, description="image: an uploaded image; video: an uploaded MP4")
    title: str | None = Field(None, description="native, at most 90 characters")
    description: str | None = Field(None, description="native, at most 140 characters")
    call_to_action: str | None = Field(None, description="native, at most 25 characters")
    main_image_asset_id: int | None = Field(None, description="native: an uploaded image")
    icon_asset_id: int | None = Field(None, description="native: an uploaded image, optional")
    html: str | None = Field(None, description="html only: the ad's markup, at most 100 KB")
    width: int | str | None = Field(None, description=_PIXELS + "; the form sends the text typed")
    height: int | str | None = Field(None, description=_PIXELS + "; the form sends the text typed")


_VERSION = ("The `version` you read (GET's `version`, or its ETag). A creative changed since is refused with 409 "
            "naming who changed what; left out (and no If-Match header), the save is not checked")


class CreativeUpdate(CreativeFields):
    """An edit: the fields given change, the others keep their values. Archived creatives are read-only."""

    type: str | None = Field(None, description="The creative's own type, or left out: a type cannot change")
    version: int | None = Field(None, description=_VERSION)


class CreativeCreate(CreativeFields):
    type: str = Field(description=_TYPE + "; it cannot change later", json_schema_extra={"enum": ["image", "native",
                                                                                                  "video", "html"]})


class CreativeBody(CreativeFields):
    """The API's edit body: the fields given change, the others keep their values (a `type` sent is ignored: it
    cannot change)."""

    model_config = example({"name": "Leaderboard B", "click_url": "https://shop.example/winter"})

    width: int | None = Field(None, description=_PIXELS)
    height: int | None = Field(None, description=_PIXELS)
    version: int | None = Field(None, description=_VERSION)


class NewCreativeBody(CreativeCreate):
    """The API's body for a new creative."""

    model_config = example({
        "type": "image", "name": "Leaderboard", "click_url": "https://shop.example/sale", "asset_id": 55,
        "pixel_urls": ["https://px.example/i/"]})

    type: CreativeTypeName = Field(description=_TYPE + "; it cannot change later")
    advertiser_id: int | None = Field(None, description="Whose creative; an advertiser's own calls leave it out")
    width: int | None = Field(None, description=_PIXELS)
    height: int | None = Field(None, description=_PIXELS)


class CreativeFile(BaseModel):
    """An uploaded image or video; what it is comes from its bytes."""

    model_config = example({
        "id": 55, "url": "/files/creatives/3f5c0d1e9a.png", "content_type": "image/png", "width": 728,
        "height": 90, "duration_ms": None, "size_bytes": 471, "filename": "leaderboard.png"})

    id: int = Field(description="Use it as a creative's asset_id, main_image_asset_id or icon_asset_id")
    url: str = Field(description="Where it is served, /files/creatives/...")
    content_type: str
    width: int | None = Field(description="Pixels")
    height: int | None = Field(description="Pixels")
    duration_ms: int | None = Field(description="Videos only")
    size_bytes: int
    filename: str = Field(description="The name it was uploaded with")


class CampaignRef(BaseModel):
    id: int
    name: str


class CreativeRead(BaseModel):
    """A creative as pages and the API show it: its fields, its files and the campaigns it is in (never its html
    markup: see the preview)."""

    model_config = example({
        "advertiser_id": 4, "name": "Leaderboard", "type": "image", "status": "active",
        "click_url": "https://shop.example/sale", "pixel_urls": ["https://px.example/i/"],
        "impression_urls": [], "asset_id": 55, "width": 728, "height": 90, "duration_ms": None, "title": "",
        "description": "", "call_to_action": "", "icon_asset_id": None, "main_image_asset_id": None,
        "id": 201, "created_at": "2026-11-26T09:30:00+00:00", "updated_at": "2026-11-26T09:30:00+00:00",
        "advertiser": "Acme Outdoor", "html_size_bytes": 0,
        "asset": {"id": 55, "url": "/files/creatives/3f5c0d1e9a.png", "content_type": "image/png", "width": 728,
                  "height": 90, "duration_ms": None, "size_bytes": 471, "filename": "leaderboard.png"},
        "main_image": None, "icon": None, "campaigns": [{"id": 101, "name": "Launch Week"}],
        "next_statuses": ["archived", "paused"], "version": 1})

    advertiser_id: int
    name: str
    type: CreativeTypeName
    status: CreativeStatusName
    click_url: str
    pixel_urls: list[str]
    impression_urls: list[str]
    asset_id: int | None
    width: int | None = Field(description="Pixels, from the file (html: as entered)")
    height: int | None = Field(description="Pixels, from the file (html: as entered)")
    duration_ms: int | None = Field(description="Videos only, from the file")
    title: str
    description: str
    call_to_action: str
    icon_asset_id: int | None
    main_image_asset_id: int | None
    id: int  # after the columns, where the answers have always had it
    created_at: str = Field(description=_TIME)
    updated_at: str = Field(description=_TIME)
    advertiser: str = Field(description="The advertiser's company (or person's) name")
    html_size_bytes: int = Field(description="The markup's size (html creatives; 0 otherwise)")
    asset: CreativeFile | None
    main_image: CreativeFile | None
    icon: CreativeFile | None
    campaigns: list[CampaignRef] = Field(description="The campaigns that show it, by name")
    next_statuses: list[CreativeStatusName] = Field(description="The statuses it may move to")
    version: int = Field(description=VERSION_HELP)


class CreativeRow(BaseModel):
    """A creative as lists show it (columns only)."""

    id: int
    name: str
    type: CreativeTypeName
    status: CreativeStatusName
    advertiser_id: int
    advertiser: str
    click_url: str
    width: int | None
    height: int | None
    duration_ms: int | None
    asset_url: str | None = Field(description="The creative's file (for native, its main image); null: none")
    asset_content_type: str | None
    updated_at: str = Field(description=_TIME)
    version: int = Field(description=VERSION_HELP)


class CampaignCreativeRow(BaseModel):
    """A creative a campaign shows."""

    id: int
    name: str
    type: CreativeTypeName
    status: CreativeStatusName
    width: int | None
    height: int | None


class CreativePreview(BaseModel):
    """What a preview draws (image and video creatives; the other types add their own fields)."""

    type: CreativeTypeName
    id: int
    name: str
    width: int | None
    height: int | None
    duration_ms: int | None
    click_url: str
    asset: CreativeFile | None


class NativePreview(CreativePreview):
    title: str
    description: str
    call_to_action: str
    main_image: CreativeFile | None
    icon: CreativeFile | None


class HtmlPreview(CreativePreview):
    html: str = Field(description="Untrusted markup: show it only in a sandboxed iframe (`<iframe sandbox ...>`)")


# A preview: the most specific shape that fits (pydantic's smart union picks it).
AnyPreview = NativePreview | HtmlPreview | CreativePreview


class BulkResult(BaseModel):
    """One creative of a bulk edit: saved, or refused with the reason (naming the field)."""

    id: int
    name: str = Field(description="Empty for a creative that is missing or out of your scope")
    ok: bool
    message: str


class BulkChanges(BaseModel):
    """What a bulk edit sets on each creative (the service refuses a field a creative's type does not have)."""

    click_url: str | None = None
    pixel_urls: UrlList | None = None
    impression_urls: UrlList | None = None


class CampaignIds(RecordVersion):
    """The campaigns a creative shows; `version`: the creative's."""

    model_config = example({"campaign_ids": [101, 102]})

    campaign_ids: list[int]


class CreativeIds(RecordVersion):
    """The creatives a campaign shows; `version`: the campaign's."""

    model_config = example({"creative_ids": [201, 202]})

    creative_ids: list[int]


class BulkStatusRequest(RowVersions):
    model_config = example({"creative_ids": [201, 202], "status": "paused"})

    creative_ids: list[int]
    status: CreativeStatusName


class BulkUpdateRequest(RowVersions):
    model_config = example({
        "creative_ids": [201, 202], "changes": {"click_url": "https://shop.example/winter"}})

    creative_ids: list[int]
    changes: BulkChanges
