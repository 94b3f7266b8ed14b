"""Adding, editing and configuring users, change logs, payments and moving advertisers between
agencies, in a real browser."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from app.access.roles import Role
from app.demo.seed import DEMO_PASSWORD, create_user
from app.kernel.db import run
from tests.e2e.conftest import login, screenshot

pytestmark = pytest.mark.e2e


def _toast(page: Page, text: str) -> None:
    expect(page.locator("[data-toast-kind=success]", has_text=text)).to_be_visible()


def _row(page: Page, text: str):
    return page.locator("tr", has_text=text)


def test_admin_adds_edits_and_disables_a_user(page: Page) -> None:
    login(page, "admin@demo.example")
    page.goto("/admin/users")
    page.click("[data-action=add-user]")
    page.wait_for_url("**/admin/addUser")
    page.select_option("#field-agency_id", label="Blue Harbor Agency")
    page.fill("#field-first_name", "Nova")
    page.fill("#field-last_name", "Lane")
    page.fill("#field-email", "not-an-email")
    page.fill("#field-company_name", "Nova Brands")
    page.fill("#field-password", "nova-Pass-1")
    page.click("form[name=add-user] button[type=submit]")
    expect(page.locator("[data-field-error=email]")).to_have_text("Please enter a valid email address.")
    expect(page.locator("#field-first_name")).to_have_value("Nova")  # nothing typed is lost
    screenshot(page, "admin-add-user")
    page.fill("#field-email", "nova@brand.example")
    page.click("form[name=add-user] button[type=submit]")
    page.wait_for_url("**/admin/users")
    _toast(page, "Nova Lane was added.")

    page.select_option("#field-role_filter", "ADVERTISER")
    expect(_row(page, "Nova Lane")).to_contain_text("Blue Harbor Agency")
    expect(_row(page, "Colin Coadmin")).to_have_count(0)
    screenshot(page, "admin-users-filtered")
    _row(page, "Nova Lane").locator("[data-action='user.edit']").click()
    page.wait_for_url("**/admin/editUser/*")
    page.fill("#field-last_name", "Lane-Smith")
    page.click("form[name=edit-user] button[type=submit]")
    _toast(page, "The account was saved.")
    screenshot(page, "admin-edit-user")

    page.locator(".dsp-subnav a[href*='/user/change-log/']").click()
    page.wait_for_url("**/admin/user/change-log/*")
    expect(page.locator("tr[data-action=update]")).to_contain_text("Lane-Smith")
    expect(page.locator("tr[data-action=create]")).to_contain_text("Ada Admin")
    screenshot(page, "admin-user-change-log")

    page.get_by_role("link", name="Back to the list").click()
    page.wait_for_url("**/admin/users")
    _row(page, "Nova Lane-Smith").locator("[data-action=more]").click()
    menu = page.get_by_role("menu")
    expect(menu.get_by_role("menuitem")).to_have_text(["Configuration", "Change log", "Payments", "Campaigns",
                                                       "Campaign change log", "Send password reset"])
    screenshot(page, "admin-users-row-menu")
    menu.get_by_role("menuitem", name="Send password reset").click()
    page.click("[data-confirm=yes]")
    _toast(page, "nova@brand.example")
    _row(page, "Nova Lane-Smith").locator("[data-action=disable]").click()
    page.click("[data-confirm=yes]")
    expect(_row(page, "Nova Lane-Smith").locator("[data-action=enable]")).to_have_count(1)


def test_admin_configures_a_user_and_sees_payments(page: Page) -> None:
    login(page, "admin@demo.example")
    page.goto("/admin/users")
    _row(page, "Arlo Advertiser").locator("td").first.click()  # a row opens the account
    page.wait_for_url("**/admin/editUser/*")
    page.get_by_role("link", name="Configuration").click()
    page.wait_for_url("**/admin/user-config/*")
    page.fill("#field-margin", "")  # an empty margin is no way of saying 0
    page.click("form[name=user-config] button[type=submit]")
    expect(page.locator("[data-field-error=margin]")).to_have_text("Enter an amount, e.g. 12.5.")
    page.fill("#field-margin", "95")
    page.click("form[name=user-config] button[type=submit]")
    expect(page.locator("[data-field-error=margin]")).to_have_text("At most 90.00 %.")
    page.fill("#field-margin", "12.5")
    page.click("label[for=field-insight_dashboard]")
    page.click("form[name=user-config] button[type=submit]")
    _toast(page, "The configuration was saved.")
    screenshot(page, "admin-user-config")
    page.get_by_role("link", name="Payments").click()
    page.wait_for_url("**/admin/CampaignList/payment-list/*")
    expect(page.locator("[data-payment-balance]")).to_have_text("$5,000.00")
    expect(page.locator("tbody tr", has_text="Opening deposit")).to_have_count(1)
    screenshot(page, "admin-payment-list")
    page.locator(".dsp-subnav a[href*='/user/change-log/']").click()
    expect(page.locator("tr[data-action=update_config]")).to_contain_text("12.5 %")


def test_admin_moves_an_advertiser_to_another_agency(page: Page) -> None:
    def rival(db):
        create_user(db, email="summit@agency.example", role=Role.AGENCY, password=DEMO_PASSWORD,
                    first_name="Sam", last_name="Summit", company_name="Summit Digital")
    run(rival)
    login(page, "admin@demo.example")
    page.click(".dsp-sidebar a[href='/admin/agencies']")
    page.wait_for_url("**/admin/agencies")
    expect(_row(page, "Blue Harbor Agency")).to_contain_text("$5,000.00")
    screenshot(page, "admin-agencies")
    _row(page, "Blue Harbor Agency").locator("[data-action='agency.edit']").click()
    page.wait_for_url("**/admin/editAgency/*")
    expect(_row(page, "Arlo Advertiser")).to_have_count(1)
    screenshot(page, "admin-edit-agency")
    page.get_by_role("link", name="Move advertisers").click()
    page.wait_for_url("**/admin/assignAdvertiser?from=*")
    box = page.locator(".dsp-grid tr", has_text="advertiser@demo.example").locator("input[data-select]")
    box.check()
    page.select_option("#field-agency_id", label="Summit Digital")
    expect(page.locator("[data-move-count]")).to_have_text("1 selected")
    screenshot(page, "admin-assign-advertiser")
    page.click("[data-action=move]")
    page.click("[data-confirm=yes]")
    _toast(page, "Moved 1 advertiser(s) to Summit Digital.")
    page.select_option("#field-from", label="All agencies")
    expect(page.locator(".dsp-grid tr", has_text="advertiser@demo.example")).to_contain_text("Summit Digital")

    page.goto("/admin/agencies")
    expect(_row(page, "Summit Digital")).to_contain_text("$5,000.00")
    page.context.clear_cookies()
    login(page, "agency@demo.example")
    page.goto("/agency/advertiser")
    expect(page.locator("tbody tr", has_text="@")).to_have_count(0)


def test_agency_adds_an_advertiser_and_sets_its_margin(page: Page, demo: dict[str, int]) -> None:
    login(page, "agency@demo.example")
    page.goto("/agency/advertiser")
    page.click("[data-action=add-user]")
    page.wait_for_url("**/agency/addAdvertiser")
    expect(page.locator("#field-role")).to_have_count(0)  # an agency adds advertisers only
    page.fill("#field-first_name", "Tara")
    page.fill("#field-last_name", "Trail")
    page.fill("#field-email", "tara@trail.example")
    page.fill("#field-company_name", "Trail Co")
    page.fill("#field-password", "trail-Pass-1")
    page.click("form[name=add-user] button[type=submit]")
    page.wait_for_url("**/agency/advertiser")
    _row(page, "Tara Trail").locator("[data-action='user.edit']").click()
    page.wait_for_url("**/agency/editAdvertiser/*")
    page.fill("#field-margin", "15")
    page.click("form[name=margin] button[type=submit]")
    _toast(page, "The margin was saved.")
    screenshot(page, "agency-edit-advertiser")
    page.click("[data-action=reset_password]")
    page.click("[data-confirm=yes]")
    _toast(page, "A password reset code was sent to tara@trail.example.")
    page.goto("/agency/advertiser")
    expect(_row(page, "Tara Trail")).to_contain_text("15 %")
    screenshot(page, "agency-advertisers")
    page.goto(f"/agency/editAdvertiser/{demo['admin@demo.example']}")  # not the agency's to see
    expect(page.locator("[data-state=not-found]")).to_be_visible()


def test_each_feature_switchs_help_starts_where_its_label_does(page: Page, demo: dict[str, int]) -> None:
    """The user configuration's help under each switch stood half a letter to the right of the switch's label."""
    login(page, "admin@demo.example")
    page.goto(f"/admin/user-config/{demo['advertiser@demo.example']}")
    for name, help_starts in (("insight_dashboard", "Lets the user switch"), ("postback_enabled", "The user can set"),
                              ("api_access", "Shows API Docs")):
        label = page.locator(f"label[for=field-{name}]").bounding_box()
        help_text = page.get_by_text(help_starts).bounding_box()
        assert label is not None and help_text is not None, name
        assert abs(label["x"] - help_text["x"]) < 1, (name, label["x"], help_text["x"])
