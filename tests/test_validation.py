from app.campaigns.schemas import CampaignUpdate
from app.kernel import validation as v
from app.kernel.errors import Invalid
from app.reports.schemas import ReportSettings


def test_creative_name_and_click_url_messages_are_the_specs():
    assert v.creative_name("  ") == "Creative name cannot be empty."
    assert v.creative_name("Spring sale") is None
    assert v.click_url("") == "Click URL is mandatory"
    assert v.click_url("", mandatory=False) is None
    assert v.click_url("ftp://example.com") == "Please enter a valid URL."
    assert v.click_url("https://localhost") == "Please enter a valid URL."
    assert v.click_url("https://shop.example.com/landing?x=1") is None


def test_url_list_needs_trailing_slashes():
    assert v.url_list("https://a.example.com/,http://b.example.org/path/") is None
    assert v.url_list("https://a.example.com") is not None
    assert v.url_list("https://a.example.com/,,https://b.example.com/") is not None


def test_geo_fence_limits():
    assert v.geo_fence("40.7,-74.0,5|51.5,-0.12,0.5") is None
    assert "latitude" in v.geo_fence("91,0,5")
    assert "longitude" in v.geo_fence("0,181,5")
    assert "radius" in v.geo_fence("0,0,0.4")
    assert "radius" in v.geo_fence("0,0,1000")
    assert "2500" in v.geo_fence("|".join(["1,1,1"] * 2501))
    assert v.geo_fence("|".join(["1,1,1"] * 2500)) is None
    assert v.geo_fence("1,1") is not None


def test_name_token_and_patterns():
    assert v.name("Summer Sale-2026") is None
    assert v.name("Sale!") == "Invalid input. Please use only letters, numbers, spaces, and hyphens."
    for bad in ("has space", "null", "undefinedX", "a|b", "a$b", "{x}", "a~"):
        assert v.token_text(bad) is not None, bad
    assert v.token_text("abc_123-XYZ") is None
    assert v.file_name("report 2026.csv") is None
    assert v.file_name("xreport.csv") is not None
    assert v.file_name("Xreport.csv") is not None
    assert v.file_name("two  spaces.csv") is not None
    assert v.identifier("abc_1-2") is None and v.identifier("a b") is not None
    assert v.free_text("Hello World_@!") is None and v.free_text("semi;colon") is not None


def test_check_names_every_failing_field():
    try:
        v.check({"email": (v.email, "nope"), "password": (v.password, "short"), "name": (v.name, "ok")})
    except Invalid as error:
        assert set(error.fields) == {"email", "password"}
    else:
        raise AssertionError("Invalid not raised")


def test_names_take_letters_of_every_script():
    for good in ("Иван", "Müller", "José", "Ñandú 2-B", "Jose\u0301 Garci\u0301a", "北京 Ads", "Summer Sale-2026"):
        assert v.name(good) is None, good
    for bad in ("a_b", "x<y", "emoji 😀", "tab\there", "", "Sale!", "dot.com"):
        assert v.name(bad) == "Invalid input. Please use only letters, numbers, spaces, and hyphens.", bad
    assert v.person_name("Zoë", max_length=25) is None
    assert v.person_name("Иван", max_length=25) is None and v.person_name("a_b", max_length=25) is not None
    assert v.free_text("Grüße_@! Иван") is None and v.free_text("semi;colon") is not None


def test_letters_keep_their_combining_marks():
    """Scripts whose letters carry marks that have no precomposed form (Devanagari, Thai, Bengali) are letters too;
    a mark with no letter before it is not."""
    for good in ("हिन्दी", "प्रिया शर्मा", "ภาษาไทย", "বাংলা 2", "Nguyễn", "e\u0301\u0323"):
        assert v.name(good) is None, good
        assert v.free_text(good) is None, good
    for bad in ("\u0301abc", "- \u0301", "a\u200db"):
        assert v.name(bad) is not None, repr(bad)
        assert v.free_text(bad) is not None, repr(bad)


def test_password_rule_and_email_messages():
    assert v.password("abc1234") == "Password must be at least 8 characters."
    assert v.password("abcd1234") is None
    assert v.password("abcdefgh") == "Password must contain letters and numbers."
    assert v.password("12345678") == "Password must contain letters and numbers."
    assert v.email("") == "Email is required."
    assert v.email("not-an-address") == "Please enter a valid email address."
    assert v.email("ana@shop.example") is None


def test_money_rounds_half_up_on_the_decimal_text():
    from app.kernel.i18n.formatters import money

    assert money(1.005) == "$1.01"  # as written, not as the float 1.00499999...
    assert money(2.675) == "$2.68"
    assert money(-1234.5) == "-$1,234.50"
    assert money(1_500_000, micros=True) == "$1.50"
    assert money(0) == "$0.00"


def test_urls_with_international_domain_names_are_valid():
    # Issue 21: a hand-written ASCII pattern refused them. Host names are checked with idna now.
    for good in ("http://bücher.example/", "https://пример.рф/путь", "https://ÉCOLE.fr/x?y=1", "https://münchen.de"):
        assert v.click_url(good) is None, good
        assert v.optional_http_url(good) is None, good
    assert v.url_list("http://bücher.example/,https://пример.рф/") is None
    for bad in ("https://localhost", "https://1.2.3.4/", "http://-bad.example/", "http://exa mple.com/", "http://a..b/",
                "https://[::1/", "http://" + "a" * 64 + ".com/", "ftp://bücher.example/"):
        assert v.click_url(bad) == "Please enter a valid URL.", bad
    assert v.url_list("http://bücher.example") is not None, "each still ends with a slash"


def test_email_addresses_are_checked_by_email_validator():
    for good in ("ana@shop.example", "josé@bücher.example", "first.last+tag@sub.example.co.uk"):
        assert v.email(good) is None, good
    for bad in ("not-an-address", "a@b", "a..b@example.com", "a@-x.example", "a b@example.com", "@example.com"):
        assert v.email(bad) == "Please enter a valid email address.", bad
    assert v.email("  ") == "Email is required."


def test_a_name_of_only_hyphens_or_spaces_is_refused():
    for bad in ("-", "---", " - - ", "  "):
        assert v.name(bad) == "Invalid input. Please use only letters, numbers, spaces, and hyphens.", repr(bad)
    assert v.name("A-1") is None and v.name("- 2 -") is None


def test_each_governed_field_is_held_to_its_section_5_rule(db):
    """GOVERNED_FIELDS names the fields of each spec §5 pattern: each refuses what its rule refuses, naming the
    field."""
    import pytest

    from app.campaigns import service as campaigns
    from app.dsps import service as dsps
    from app.dsps.schemas import DspCreate
    from app.reports import service as reports
    from app.settings import api_credentials
    from app.supply import app_lists, audiences, smart_apps
    from tests.helpers import actor_of

    me, admin = actor_of(db, "advertiser@demo.example"), actor_of(db, "admin@demo.example")
    name_rule = "Invalid input. Please use only letters, numbers, spaces, and hyphens."
    attempts = {
        "campaign.name": (lambda n: campaigns.create_campaign(db, actor=me, data=CampaignUpdate.model_validate({
            "name": n, "starts_at": "2026-12-01", "total_budget": "100", "bid": "1"})), "name", name_rule),
        "inventory_list.name": (lambda n: app_lists.create_list(db, actor=me, name=n, kind="allow",
                                                                entries="com.example.app"), "name", name_rule),
        "smart_app_list.name": (lambda n: smart_apps.create_list(db, actor=admin, name=n, category_id="36",
                                                                 genre_id="6014", entries="com.example.app"),
                                "name", name_rule),
        "audience.name": (lambda n: audiences.create_audience(db, actor=me, name=n, kind="device_ids"),
                          "name", name_rule),
        "report.name": (lambda n: reports.create_report(db, actor=me, report_type="geo", data=ReportSettings.model_validate({
            "name": n, "period": "custom", "start_date": "2026-01-01", "end_date": "2026-01-01",
            "metrics": ["impressions"]})), "name", name_rule),
        "dsp.api_key": (lambda k: dsps.create_dsp(db, actor=admin, data=DspCreate(**{
            "name": "Token DSP", "connector": dsps.CONNECTOR_TYPES[0], "endpoint_url": "https://dsp.example/",
            "api_key": k})), "api_key", v.token_text("null")),
        "api_key.label": (lambda label: api_credentials.generate(db, actor=admin, user_id=me.id, label=label),
                          "label", v.free_text("#")),
        "running_apps.file_name": (lambda f: reports.running_apps_export(db, actor=me, file_name=f), "file_name",
                                   v.file_name("x.csv")),
        "dsp.seat_id": (lambda seat: dsps.create_dsp(db, actor=admin, data=DspCreate(**{
            "name": "Seat DSP", "connector": dsps.CONNECTOR_TYPES[0], "endpoint_url": "https://dsp.example/",
            "api_key": "k-1", "seat_id": seat})), "seat_id", v.identifier(".")),
    }
    bad_values = {"name": "- -", "token_text": "key null", "free_text": "Prod <key>", "file_name": "xApps.csv",
                  "identifier": "seat 4.2"}
    for rule, fields in v.GOVERNED_FIELDS.items():
        for field in fields:
            attempt, field_name, message = attempts[field]
            with pytest.raises(v.Invalid) as refused:
                attempt(bad_values[rule])
            assert refused.value.fields == {field_name: message}, field
    assert set(attempts) == {f for fields in v.GOVERNED_FIELDS.values() for f in fields}


def test_a_dsp_endpoint_host_is_checked_by_idna_too():
    from app.dsps.service import INVALID_ENDPOINT, endpoint_problem

    for good in ("https://bücher.example/rtb", "http://10.0.0.5:8080/rtb", "http://bidder.internal:9000/",
                 "http://localhost:8080/"):
        assert endpoint_problem(good) is None, good
    for bad in ("http://-bidder.example/", "http://bid_der.example/", "http://a..b/"):
        assert endpoint_problem(bad) == INVALID_ENDPOINT, bad
