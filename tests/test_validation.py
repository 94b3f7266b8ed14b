from app import validation as v
from app.errors import Invalid


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
