"""Messages users read in English whatever their language, now in theirs: the New DSP wizard's first step, bulk
edits' row results, country, region and language names (in that language's order), and the days in the explain
dialog's note (as the grid beside it writes them). The API stays English unless asked."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from sqlmodel import Session

from app.campaigns import bulk as campaign_bulk
from app.campaigns import service as campaigns
from app.campaigns.schemas import CampaignUpdate
from app.creatives import service as creatives
from app.creatives.models import Creative
from app.kernel.i18n.catalog import translator
from app.reference import geo
from components.campaigns.bulk_edit import BulkStatusPage
from components.dsps.new_dsp import NewDspPage
from components.reports.row_explain import row_note
from tests.helpers import actor_of, bearer_headers, user_by_email
from tests.render import (
    deliver_in_turn,
    element_event,
    grid_choice,
    handler_target,
    signed_in_console,
    text_of,
    walk,
)

ADMIN, ADVERTISER = "admin@demo.example", "advertiser@demo.example"
SETTINGS: dict[str, Any] = {"objective": "traffic", "starts_at": "2026-12-01", "ends_at": "2026-12-31",
                            "time_zone": "UTC", "total_budget": "1000", "bid_strategy": "cpm", "bid": "2",
                            "bid_min": "1", "bid_max": "4"}


def _campaign(db: Session, name: str, **extra: Any) -> int:
    return campaigns.create_campaign(db, actor=actor_of(db, ADVERTISER),
                                     data=CampaignUpdate.model_validate({**SETTINGS, "name": name, **extra})).id


def _completed(db: Session, name: str) -> int:
    campaign_id = _campaign(db, name)
    me = actor_of(db, ADVERTISER)
    for status in ("active", "completed"):
        campaigns.set_status(db, actor=me, campaign_id=campaign_id, status=status)
    return campaign_id


def _field_errors(model: dict[str, Any]) -> dict[str, str]:
    return {n["attributes"]["data-field-error"]: text_of(n) for n in walk(model)
            if n.get("attributes", {}).get("data-field-error")}


def test_the_new_dsp_wizards_first_step_answers_in_spanish(db: Session) -> None:
    button = {"tagName": "BUTTON", "name": "", "type": "submit", "value": ""}
    submit = {"type": "submit", "target": [{"tagName": "INPUT", "name": "name", "type": "text", "value": " "},
                                           {"tagName": "INPUT", "name": "endpoint_url", "type": "text",
                                            "value": "ftp://bidder.example"}, button]}
    (model,) = deliver_in_turn(NewDspPage, signed_in_console(ADMIN, "sp"), "/admin/newdsp",
                               (lambda first: (handler_target(first, "onSubmit"), [submit]),))
    assert _field_errors(model) == {
        "name": "Este campo es obligatorio.",
        "endpoint_url": "Introduzca la dirección de la DSP, empezando por http:// o https://."}


def test_bulk_rows_are_refused_in_the_readers_language_and_in_english_for_the_api(db: Session) -> None:
    me = actor_of(db, ADVERTISER)
    low, done = _campaign(db, "Low", bid="2.40"), _completed(db, "Done")
    spanish = campaign_bulk.bulk_update(db, actor=me, campaign_ids=[low, 987654],
                                        changes={"bid_min": "3", "bid_max": "5"}, language="sp")
    assert [r.message for r in spanish] == ["Puja mínima: la puja mínima no puede superar la puja.",
                                            "No se encontró la campaña."]
    moved = campaign_bulk.bulk_update(db, actor=me, campaign_ids=[done], changes={"status": "paused"}, language="sp")
    assert moved[0].message == "Estado: una campaña en estado «Completada» no puede pasar a «En pausa»."
    german = campaign_bulk.bulk_status(db, actor=actor_of(db, ADMIN), campaign_ids=[done], status="paused",
                                       language="gr")
    assert german[0].message == "Status: Eine Kampagne im Status „Abgeschlossen“ kann nicht zu „Pausiert“ wechseln."
    english = campaign_bulk.bulk_status(db, actor=actor_of(db, ADMIN), campaign_ids=[done], status="paused")
    assert english[0].message == "Status: a completed campaign cannot become paused."


def test_a_creatives_bulk_row_is_refused_in_spanish(db: Session) -> None:
    old = Creative(advertiser_id=user_by_email(db, ADVERTISER).id or 0, name="Old", type="html", html="<p>ad</p>",
                   status="archived")
    db.add(old)
    db.flush()
    results = creatives.bulk_status(db, actor=actor_of(db, ADMIN), creative_ids=[old.id or 0], status="paused",
                                    language="sp")
    assert results[0].message == "Estado: una creatividad en estado «Archivada» no puede pasar a «En pausa»."


def test_the_bulk_status_page_shows_its_refusals_in_spanish(db: Session) -> None:
    done = _completed(db, "Done")
    db.commit()
    *_walk, applied = deliver_in_turn(BulkStatusPage, signed_in_console(ADMIN, "sp"), "/admin/bulk-campaign-status",
                                      (grid_choice(done), element_event("data-action", "apply-bulk", "onClick", {})))
    row = next(n for n in walk(applied) if n.get("attributes", {}).get("data-result") == "refused")
    assert text_of(row) == "DoneEstado: una campaña en estado «Completada» no puede pasar a «En pausa»."


def test_countries_regions_and_languages_are_named_and_ordered_in_the_readers_language(db: Session) -> None:
    me = actor_of(db, ADVERTISER)
    spanish = [c.name for c in geo.countries(actor=me, language="sp")]
    assert {"Alemania", "España", "Estados Unidos", "Corea del Sur"} <= set(spanish)
    assert spanish.index("Alemania") < spanish.index("Austria") < spanish.index("Bélgica") < spanish.index("Bolivia")
    russian = [c.name for c in geo.countries(actor=me, language="rs")]
    # й is a letter of its own after и: Yemen (Йемен) comes after Ireland (Ирландия), before Kazakhstan.
    assert russian.index("Ирландия") < russian.index("Йемен") < russian.index("Казахстан")
    assert [r.name for r in geo.regions(actor=me, country="DE", language="it")][:2] == ["Amburgo", "Assia"]
    assert {lang.code: lang.name for lang in geo.languages(actor=me, language="rs")}["de"] == "Немецкий"
    assert {c.code: c.name for c in geo.countries(actor=me)}["DE"] == "Germany"  # English unless asked


def test_a_campaigns_view_names_its_targeting_in_spanish(db: Session) -> None:
    campaign_id = _campaign(db, "Abroad", targeting={"countries": ["DE", "US"], "languages": ["de"]})
    names = campaigns.describe_campaign(db, actor=actor_of(db, ADVERTISER), campaign_id=campaign_id,
                                        language="sp").names
    assert (names["countries"], names["languages"]) == (["Alemania", "Estados Unidos"], ["Alemán"])


def test_the_api_names_countries_in_english_unless_asked(client: Any) -> None:
    headers = bearer_headers(client, ADVERTISER)

    def germany(query: str) -> str:
        rows = client.get(f"/api/meta/country{query}", headers=headers).json()["data"]
        return str(next(row["name"] for row in rows if row["code"] == "DE"))

    assert (germany(""), germany("?language=sp"), germany("?language=gr")) == ("Germany", "Alemania", "Deutschland")
    assert client.get("/api/meta/country?language=de", headers=headers).status_code == 422  # the console's codes


def test_the_explain_notes_day_reads_as_the_grid_writes_it() -> None:
    row = {"date": "2026-11-26", "exchange": "Magnite"}
    for language, shown in (("en", "Nov 26, 2026 · Magnite"), ("sp", "26 nov 2026 · Magnite"),
                            ("gr", "26.11.2026 · Magnite")):
        console = SimpleNamespace(t=translator(language), language=language)
        assert shown in row_note(console, ["date", "exchange"], row)  # type: ignore[arg-type]
