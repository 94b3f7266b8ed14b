"""What the supply services take and answer, and so what the API's inventory-list, smart-app-list and audience
calls send and receive (times ISO-8601 UTC)."""

from __future__ import annotations

from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, Field

from app.kernel.schema_examples import example

ListKindName = Literal["allow", "block"]
EntryMode = Literal["add", "replace", "remove"]
LOOKBACK_MIN, LOOKBACK_MAX = 1, 540  # a retargeting audience's look-back window, in days
ENTRIES_HELP = ("App bundle ids (com.example.app, id123456789) and domains (example.com), one a line; commas, "
                "semicolons and tabs also separate entries")


# --- inventory and smart-app lists -------------------------------------------------------------------------

class CampaignUse(BaseModel):
    """A campaign that allows or blocks a list."""

    id: int
    name: str
    status: str
    side: str = Field(description="allow or block: how the campaign uses the list")


class ListUsage(BaseModel):
    """What any list shows of its entries and the campaigns using it."""

    apps: int = Field(description="Entries that are app bundle ids")
    domains: int = Field(description="Entries that are web domains")
    entries: int = Field(description="All entries")
    campaigns: list[CampaignUse] = Field(description="Campaigns that use the list (for smart-app lists, staff "
                                                     "only: others get an empty list)")
    campaign_count: int
    created_at: str
    updated_at: str


class InventoryListRead(ListUsage):
    id: int
    name: str
    kind: str = Field(description="allow or block")
    status: str = Field(description="active or archived")
    advertiser_id: int
    advertiser: str = Field(description="The advertiser's company name (or its person's name)")


class SmartAppListRead(ListUsage):
    id: int
    name: str
    status: str = Field(description="active or archived")
    category_id: str
    category: str
    genre_id: str
    genre: str
    subgenre_id: str = Field(description="Empty for the whole genre")
    subgenre: str


class RefusedLine(BaseModel):
    """A line of typed entries or of an uploaded file that was not taken."""

    line: int = Field(description="The line's number in the text or file")
    text: str = Field(description="The line as given (its first 80 characters; … for an overlong line of ids)")
    reason: str = Field(description="Lists: why, in words; device ids: invalid (no IDFA or GAID) or zero (the "
                                    "all-zero id of limited ad tracking)")


class EntryBatchResult(BaseModel):
    """What a batch of typed or uploaded entries did."""

    lines: int = Field(description="Non-blank lines read (a header row excluded)")
    added: int
    duplicates_in_batch: int = Field(description="Lines repeating a value earlier in the batch")
    already_in_list: int
    refused_count: int
    refused: list[RefusedLine] = Field(description="The refused lines (the first 1,000)")
    removed: int
    total: int = Field(description="The list's entries after the batch")


class ListEntry(BaseModel):
    value: str
    kind: str = Field(description="app or domain")


R = TypeVar("R", InventoryListRead, SmartAppListRead)


class ListCreated(BaseModel, Generic[R]):
    """A new list and what its first entries gave."""

    list: R
    result: EntryBatchResult


class InventoryListSaved(BaseModel):
    list: InventoryListRead
    result: EntryBatchResult | None = Field(description="What `entries` did; null when none were sent")


class EntriesChanged(BaseModel):
    result: EntryBatchResult


class EntriesUploaded(BaseModel):
    result: EntryBatchResult
    filename: str = Field(description="The uploaded file's name, as shown")


class ListDeleted(BaseModel):
    id: int
    name: str
    deleted: bool


class CategoryRead(BaseModel):
    category_id: str
    category: str


class GenreRead(BaseModel):
    genre_id: str
    genre: str
    has_subgenres: bool


class SubgenreRead(BaseModel):
    subgenre_id: str
    subgenre: str


class InventoryListChoice(BaseModel):
    """An active inventory list a campaign may allow (an allow list) or block (a block list)."""

    id: int
    name: str
    kind: str
    entries: int


class SmartAppListChoice(BaseModel):
    """An active smart-app list a campaign may allow."""

    id: int
    name: str
    category: str
    genre: str
    subgenre: str
    entries: int


class InventoryListCreate(BaseModel):
    model_config = example({"name": "News apps", "kind": "allow", "entries": "com.news.one\ncom.news.two"})

    name: str
    kind: ListKindName
    entries: str = Field("", description=ENTRIES_HELP)
    advertiser_id: int | None = Field(None, description="Whose list; an advertiser's own calls leave it out")


class InventoryListUpdate(BaseModel):
    """Fields left out keep their values. `entries` with `mode` also changes the entries."""

    model_config = example({"name": "News apps (EU)", "entries": "com.news.three", "mode": "add"})

    name: str | None = None
    kind: ListKindName | None = None
    entries: str | None = Field(None, description=ENTRIES_HELP)
    mode: EntryMode = "add"


class EntriesChange(BaseModel):
    model_config = example({"entries": "com.news.three\ncom.news.four", "mode": "add"})

    entries: str = Field(..., description=ENTRIES_HELP)
    mode: EntryMode = Field("add", description="add them, replace the list's entries with them, or remove them")


class SmartAppListCreate(BaseModel):
    model_config = example({
        "name": "Puzzle games", "category_id": "36", "genre_id": "6014", "subgenre_id": "7001",
        "entries": "com.puzzle.one"})

    name: str
    category_id: str = Field(..., description="From get-smart-app-categories")
    genre_id: str = Field(..., description="From genre?category_id=")
    subgenre_id: str = Field("", description="From subgenre?category_id=&genre_id=; empty for the whole genre")
    entries: str = Field("", description=ENTRIES_HELP)


class SmartAppListUpdate(BaseModel):
    """Fields left out keep their values."""

    model_config = example({"name": "Puzzle and word games"})

    name: str | None = None
    category_id: str | None = None
    genre_id: str | None = None
    subgenre_id: str | None = None


# --- audiences -----------------------------------------------------------------------------------------------

class AudienceCampaign(BaseModel):
    """A campaign of the audience's advertiser that allows or blocks it."""

    id: int
    name: str
    status: str
    mode: str = Field(description="allow (targets the audience) or block (excludes it)")


class DeviceUploadRead(BaseModel):
    """What one file of device ids did."""

    file: str = Field(description="The file's name, as shown")
    lines: int = Field(description="Lines read, blank ones and the header included")
    valid: int = Field(description="Lines holding a device id (duplicates included)")
    invalid: int
    added: int = Field(description="Ids new to the audience")
    duplicates: int = Field(description="Valid lines whose id was earlier in the file or in the audience already")
    samples: list[RefusedLine] = Field(description="The first invalid lines")
    at: str


class AudienceRead(BaseModel):
    """An audience. `size` counts distinct device ids (size_unit "devices") for a device-id list, and for a
    retargeting audience the events recorded in its look-back window (size_unit "events": the statistics count
    events, not people)."""

    model_config = example({
        "id": 301, "name": "App buyers", "kind": "device_ids", "status": "active", "advertiser_id": 4,
        "advertiser": "Acme Outdoor", "event": None, "lookback_days": None, "size": 0,
        "size_unit": "devices", "last_upload": None, "campaigns": [],
        "created_at": "2026-11-26T09:30:00+00:00", "updated_at": "2026-11-26T09:30:00+00:00"})

    id: int
    name: str
    kind: str = Field(description="device_ids or retargeting")
    status: str = Field(description="active or inactive")
    advertiser_id: int
    advertiser: str = Field(description="The advertiser's company name (or its person's name)")
    event: str | None = Field(description="retargeting: \"conversion\" or a custom event; null for a device-id list")
    lookback_days: int | None = Field(description="retargeting: the look-back window in days")
    size: int
    size_unit: str = Field(description="devices or events")
    last_upload: DeviceUploadRead | None = Field(description="The latest file of ids; null before the first")
    campaigns: list[AudienceCampaign] = Field(description="Campaigns not archived that use it, by name")
    created_at: str
    updated_at: str


class AudienceRow(BaseModel):
    """An audience as the list shows it."""

    id: int
    name: str
    kind: str
    status: str
    advertiser_id: int
    advertiser: str
    event: str | None
    lookback_days: int | None
    size: int
    size_unit: str
    campaign_count: int = Field(description="Campaigns not archived that use it")
    updated_at: str


class AudienceChoice(BaseModel):
    """An audience as a campaign's picker offers it."""

    id: int
    name: str
    kind: str
    status: str


class AudienceUploaded(BaseModel):
    audience: AudienceRead
    upload: DeviceUploadRead


class AudienceDeleted(BaseModel):
    id: int
    name: str


class AudienceCreate(BaseModel):
    model_config = example({"name": "App buyers", "kind": "device_ids"})

    name: str = Field(..., description="Letters, numbers, spaces and hyphens; unique per advertiser")
    kind: Literal["device_ids", "retargeting"]
    advertiser_id: int | None = Field(None, description="Whose audience; an advertiser's own calls leave it out")
    event: str | None = Field(None, description="retargeting: \"conversion\" or one of the advertiser's custom "
                                                "events (GET /audience-events)")
    lookback_days: int | None = Field(None, description=f"retargeting: {LOOKBACK_MIN} to {LOOKBACK_MAX} days")
