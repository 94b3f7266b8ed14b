"""The targeting pickers' geography and languages (the spec's meta-data calls: GET with a query string),
for every signed-in role."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query

from app.access.policy import Actor
from app.kernel.i18n.catalog import DEFAULT_LANGUAGE, LANGUAGES
from app.reference import geo
from app.reference.schemas import CityRead, CountryRead, LanguageRead, RegionRead
from app.web.deps import get_actor
from app.web.envelope import Envelope, reply

router = APIRouter(tags=["targeting data"])
# Names in English unless asked otherwise (the API's language), as on the pages in the reader's language.
LANGUAGE = Query(DEFAULT_LANGUAGE, pattern=f"^({'|'.join(LANGUAGES)})$",
                 description="The console's language code the names are in: " + ", ".join(LANGUAGES))


@router.get("/meta/country")
def countries(language: str = LANGUAGE, actor: Actor = Depends(get_actor)) -> Envelope[list[CountryRead]]:
    """Every ISO 3166-1 country: {code (alpha-2), name}, by name, in `language`."""
    return reply(geo.countries(actor=actor, language=language))


@router.get("/meta/state")
def regions(country: str = Query(..., min_length=2, max_length=2, description="ISO alpha-2, e.g. DE"),
            language: str = LANGUAGE, actor: Actor = Depends(get_actor)) -> Envelope[list[RegionRead]]:
    """A country's ISO 3166-2 regions (states, provinces, ...): {code, name, type}, by name, in `language`."""
    return reply(geo.regions(actor=actor, country=country, language=language))


@router.get("/meta/city")
def cities(q: str = Query(..., min_length=1, max_length=80, description="The start of a city's name"),
           country: str = Query("", max_length=2, description="ISO alpha-2 to search one country only"),
           limit: int = Query(geo.CITY_SEARCH_LIMIT, ge=1, le=100),
           actor: Actor = Depends(get_actor)) -> Envelope[list[CityRead]]:
    """Cities (GeoNames, 5,000 people or more) whose name starts with `q`, accents and case ignored, biggest
    first: {id (GeoNames id, what targeting stores), name, country, region, population, latitude, longitude}."""
    return reply(geo.search_cities(actor=actor, query=q, country=country, limit=limit))


@router.get("/meta/languages")
def languages(language: str = LANGUAGE, actor: Actor = Depends(get_actor)) -> Envelope[list[LanguageRead]]:
    """ISO 639-1 languages: {code, name}, by name, in `language`."""
    return reply(geo.languages(actor=actor, language=language))
