"""What the reference-list services take and answer, and so what the API's reference calls send and receive."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.kernel.schema_examples import example

_PARENT = "OS versions only: the id of their operating system (null: none)"
_COUNTRY = "Carriers only: the ISO alpha-2 code of the country they serve (null: none)"


class ReferenceValueCreate(BaseModel):
    model_config = example({"name": "Vodafone", "country": "DE"})

    name: str
    parent_id: int | None = Field(None, description=_PARENT)
    country: str | None = Field(None, description=_COUNTRY)


class ReferenceValueUpdate(BaseModel):
    """Every field is optional: a field left out keeps its value."""

    model_config = example({"name": "Vodafone DE", "retired": False})

    name: str | None = Field(None, description="A new name; unique in its list, case-insensitively")
    retired: bool | None = Field(None, description="true: pickers stop offering it; false: restore it")
    parent_id: int | None = Field(None, description=_PARENT + "; left out: unchanged")
    country: str | None = Field(None, description=_COUNTRY + "; left out: unchanged")


class ReferenceValueRead(BaseModel):
    """A value as the admin's list shows it (times ISO-8601 UTC)."""

    id: int
    kind: str
    name: str
    retired: bool
    used: int = Field(description="How many records use it (campaigns, DSPs, OS versions); 0: it may be deleted")
    parent_id: int | None
    parent: str = Field(description="The operating system's name (OS versions); empty otherwise")
    country: str | None
    created: str
    updated: str


class KindCount(BaseModel):
    active: int
    retired: int


class ReferenceOption(BaseModel):
    """What a picker offers. OS versions also carry `parent_id`, carriers `country`, traffic types `code`: each
    kind answers its own fields only (the subclasses below)."""

    id: int
    name: str


class OsVersionOption(ReferenceOption):
    parent_id: int | None = Field(description="The operating system's id")


class CarrierOption(ReferenceOption):
    country: str | None = Field(description="ISO alpha-2 code of the country served")


class TrafficTypeOption(ReferenceOption):
    code: str = Field(description="What campaigns store for this traffic type")


class TrafficTypeRead(BaseModel):
    """A traffic type of the admin's list, by the code campaigns keep."""

    code: str = Field(description="What campaigns store for this traffic type")
    name: str
    retired: bool = Field(description="true: no longer offered to new campaigns")


# A picker's row in a reply: the most specific option that fits (pydantic's smart union picks it).
AnyOption = OsVersionOption | CarrierOption | TrafficTypeOption | ReferenceOption


class CountryRead(BaseModel):
    code: str = Field(description="ISO 3166-1 alpha-2")
    name: str


class RegionRead(BaseModel):
    code: str = Field(description="ISO 3166-2, e.g. DE-BY")
    name: str
    type: str = Field(description="What the country calls it: State, Province, ...")


class LanguageRead(BaseModel):
    code: str = Field(description="ISO 639-1")
    name: str


class CityRead(BaseModel):
    id: int = Field(description="The GeoNames id: what a campaign's targeting stores")
    name: str
    country: str = Field(description="ISO 3166-1 alpha-2")
    region: str = Field(description="ISO 3166-2 where GeoNames' region is an ISO one (US states, ...), else empty")
    population: int
    latitude: float
    longitude: float
