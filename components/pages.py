"""THE route table: path, page component, roles, menu label and order.

The router, the menus, the redirect screen and the route-access tests all derive from this table.
Co-admin pages are derived from the admin ones (spec: they mirror admin minus some exclusions).
It imports every page, so it sits on the top floor: only components/root.py imports it, and hands it down in
the console context, where pages ask for each other's paths by name (`console.path("user.edit", id=5)`).
"""

from __future__ import annotations

from dataclasses import replace

from app.access.roles import ROLE_PREFIX, Role
from app.history.change_log import CHANGE_LOGS
from app.kernel.page_links import PAGE_PATHS
from components.accounts.agencies.agency_list import AgenciesPage
from components.accounts.agencies.assign_advertiser import AssignAdvertiserPage
from components.accounts.agencies.edit_agency import EditAgencyPage
from components.accounts.auth.forgot_password import ForgotPasswordPage
from components.accounts.auth.login import LoginPage
from components.accounts.auth.maintenance import MaintenancePage
from components.accounts.auth.register import RegisterPage
from components.accounts.profile_page import ProfilePage
from components.accounts.users.change_log import UserChangeLogPage
from components.accounts.users.payment_list import PaymentListPage
from components.accounts.users.user_config import UserConfigPage
from components.accounts.users.user_form import AddUserPage, EditUserPage
from components.accounts.users.user_list import UsersPage
from components.campaigns.bulk_edit import BulkCampaignEditPage, BulkExchangesPage, BulkStatusPage
from components.campaigns.campaign_form import CloneCampaignPage, CreateCampaignPage, EditCampaignPage
from components.campaigns.campaign_list import CampaignListPage
from components.campaigns.campaign_view import CampaignViewPage
from components.campaigns.change_log import AdvertiserCampaignsChangeLogPage, CampaignChangeLogPage
from components.campaigns.exchange_approvals.approval_list import ExchangeApprovalPage
from components.campaigns.exchange_approvals.bulk_approval import BulkExchangeApprovalPage
from components.campaigns.exchange_approvals.change_log import ExchangeApprovalChangeLogPage
from components.creatives.bulk_edit import BulkCreativeEditPage, BulkCreativeStatusPage
from components.creatives.change_log import CreativeChangeLogPage
from components.creatives.creative_list import CampaignCreativesPage, CreativeListPage
from components.creatives.creative_view import CreativeViewPage
from components.docs.documentation import ConsoleDocsPage, GeneralDocsPage
from components.dsps.change_log import DspChangeLogPage
from components.dsps.dsp_form import CreateDspPage, EditDspPage
from components.dsps.dsp_list import DspListPage
from components.dsps.dsp_view import DspViewPage
from components.dsps.new_dsp import NewDspPage
from components.funds.add_funds import AddFundsPage
from components.funds.advertiser_funds import FundsPage
from components.funds.funds_overview import FundsOverviewPage
from components.funds.transfer_funds import TransferFundsPage
from components.reference.metadata_page import MetadataPage
from components.reports.report_form import ReportCreatePage, ReportEditPage
from components.reports.report_list import ReportListPage
from components.reports.report_view import ReportViewPage
from components.settings.client_settings import ClientSettingsPage
from components.settings.company_settings import CompanySettingsPage
from components.statistics.dashboard_page import DashboardPage
from components.supply.app_lists.change_log import InventoryListChangeLogPage, SmartAppListChangeLogPage
from components.supply.app_lists.inventory_pages import (
    CreateInventoryListPage,
    EditInventoryListPage,
    InventoryListsPage,
    ViewInventoryListPage,
)
from components.supply.app_lists.smart_pages import (
    CreateSmartAppListPage,
    EditSmartAppListPage,
    SmartAppListsPage,
    ViewSmartAppListPage,
)
from components.supply.audiences.audience_form import AudienceCreatePage
from components.supply.audiences.audience_list import AudienceListPage
from components.supply.audiences.audience_view import AudienceViewPage
from components.supply.audiences.change_log import AudienceChangeLogPage
from components.ui.routes import MenuLink, Page, RouteTable

A, C, G, V = Role.ADMIN, Role.CO_ADMIN, Role.AGENCY, Role.ADVERTISER
# The page component of each change log declared in app.history.change_log.CHANGE_LOGS (one component,
# components/ui/change_log.py, framed by its area).
CHANGE_LOG_PAGES = {"campaign": CampaignChangeLogPage, "advertiser_campaigns": AdvertiserCampaignsChangeLogPage,
                    "creative": CreativeChangeLogPage, "audience": AudienceChangeLogPage,
                    "app_list": InventoryListChangeLogPage, "smart_app_list": SmartAppListChangeLogPage,
                    "exchange_approval": ExchangeApprovalChangeLogPage, "user": UserChangeLogPage,
                    "dsp": DspChangeLogPage}


def _change_log(path: str, kind: str, roles: frozenset[Role], co_admin: str = "mirror") -> Page:
    """A route of the change log `kind`: its page and its name come from the declaration."""
    return Page(path, CHANGE_LOG_PAGES[kind], roles, name=CHANGE_LOGS[kind].page, co_admin=co_admin)


def _inventory_pages(prefix: str, role: Role) -> tuple[Page, ...]:
    """/inventory-list and its create, edit, view and change-log pages under a role's prefix. The menu entry sits
    after audience (50) for every role (spec section 2, top menus)."""
    roles = frozenset({role})
    return (
        Page(f"{prefix}/inventory-list", InventoryListsPage, roles, menu="menu.inventory_lists", order=55,
             icon="bi-list-check", name="applists"),
        Page(f"{prefix}/inventory-list/create", CreateInventoryListPage, roles, name="applist.create"),
        Page(f"{prefix}/inventory-list/edit/{{id:int}}", EditInventoryListPage, roles, name="applist.edit"),
        Page(f"{prefix}/inventory-list/view/{{id:int}}", ViewInventoryListPage, roles, name="applist.view"),
        _change_log(f"{prefix}/inventory-list/changelog/{{id:int}}", "app_list", roles),
    )


PUBLIC_PAGES: tuple[Page, ...] = (
    Page("/login", LoginPage, frame="auth"),
    Page("/register", RegisterPage, frame="auth"),
    Page("/forgot-password", ForgotPasswordPage, frame="auth"),
    Page("/maintenance", MaintenancePage, frame="auth", anyone=True),
    Page("/documentation/general", GeneralDocsPage, frame="docs", anyone=True),
    Page("/documentation/console", ConsoleDocsPage, frame="docs", anyone=True),
)

ADMIN_PAGES: tuple[Page, ...] = (
    Page("/admin/dashboard", DashboardPage, frozenset({A}), menu="menu.dashboard", order=10, icon="bi-speedometer2"),
    Page("/admin/users", UsersPage, frozenset({A}), menu="menu.users", order=20, icon="bi-people", name="users"),
    Page("/admin/addUser", AddUserPage, frozenset({A}), co_admin="none", name="user.add"),
    Page("/admin/editUser/{id:int}", EditUserPage, frozenset({A}), co_admin="shared", name="user.edit"),
    Page("/admin/user-config/{id:int}", UserConfigPage, frozenset({A}), name="user.config"),
    _change_log("/admin/user/change-log/{id:int}", "user", frozenset({A})),
    Page("/admin/CampaignList/payment-list/{id:int}", PaymentListPage, frozenset({A}), name="user.payments"),
    Page("/admin/campaign", CampaignListPage, frozenset({A}), menu="menu.campaigns", order=30, icon="bi-megaphone",
         name="campaigns"),
    Page("/admin/bulk-campaign-status", BulkStatusPage, frozenset({A}), name="campaign.bulk_status"),
    Page("/admin/CampaignList/{id:int}", CampaignListPage, frozenset({A}), name="campaigns.of_advertiser"),
    _change_log("/admin/CampaignList/changeLog/{id:int}", "advertiser_campaigns", frozenset({A})),
    Page("/admin/campaignForm", CreateCampaignPage, frozenset({A}), name="campaign.create"),
    Page("/admin/campaign/viewCampaign/{id:int}", CampaignViewPage, frozenset({A}), name="campaign.view"),
    Page("/admin/campaignEditForm/{id:int}", EditCampaignPage, frozenset({A}), name="campaign.edit"),
    _change_log("/admin/campaign/changelog/{id:int}", "campaign", frozenset({A})),
    Page("/admin/CampaignList/creative-list/{id:int}", CampaignCreativesPage, frozenset({A}), name="campaign.creatives"),
    Page("/admin/creative", CreativeListPage, frozenset({A}), menu="menu.creatives", order=40, icon="bi-images",
         name="creatives"),
    Page("/admin/bulk-creative-status", BulkCreativeStatusPage, frozenset({A}), name="creative.bulk_status"),
    Page("/admin/creative/viewCreative/{id:int}", CreativeViewPage, frozenset({A}), name="creative.view"),
    _change_log("/admin/creative/changelog/{id:int}", "creative", frozenset({A})),
    # Funds sit after creatives in every menu (spec section 2, top menus); 45/35 leave room on both sides.
    Page("/admin/funds", FundsOverviewPage, frozenset({A}), menu="menu.funds", order=45, icon="bi-wallet2",
         name="funds"),
    Page("/admin/addfund", AddFundsPage, frozenset({A}), name="funds.add"),
    # DSP connections: admin only (spec: co-admin mirrors admin "without the DSP pages").
    Page("/admin/dsplist", DspListPage, frozenset({A}), menu="menu.dsps", order=70, icon="bi-hdd-network",
         co_admin="none", name="dsps"),
    Page("/admin/newdsp", NewDspPage, frozenset({A}), menu="menu.new_dsp", order=75, icon="bi-plus-square",
         co_admin="none", name="dsp.new"),
    Page("/admin/createdsp", CreateDspPage, frozenset({A}), co_admin="none", name="dsp.create"),
    Page("/admin/editdsp/{id:int}", EditDspPage, frozenset({A}), co_admin="none", name="dsp.edit"),
    Page("/admin/viewdsp/{id:int}", DspViewPage, frozenset({A}), co_admin="none", name="dsp.view"),
    _change_log("/admin/dsp/changelog/{id:int}", "dsp", frozenset({A}), co_admin="none"),
    *_inventory_pages("/admin", A),
    Page("/admin/smart-apps", SmartAppListsPage, frozenset({A}), menu="menu.smart_apps", order=60, icon="bi-stars",
         name="smartapps"),
    Page("/admin/smart-apps/create", CreateSmartAppListPage, frozenset({A}), name="smartapp.create"),
    Page("/admin/smart-apps/edit/{id:int}", EditSmartAppListPage, frozenset({A}), name="smartapp.edit"),
    Page("/admin/smart-apps/view/{id:int}", ViewSmartAppListPage, frozenset({A}), name="smartapp.view"),
    _change_log("/admin/smart-apps/changelog/{id:int}", "smart_app_list", frozenset({A})),
    # Audiences follow funds in every menu (spec: ... funds, audience, inventory-list ...).
    Page("/admin/audience", AudienceListPage, frozenset({A}), menu="menu.audiences", order=50, icon="bi-people",
         name="audiences"),
    Page("/admin/audience/create", AudienceCreatePage, frozenset({A}), name="audience.create"),
    Page("/admin/audience/view/{id:int}", AudienceViewPage, frozenset({A}), name="audience.view"),
    _change_log("/admin/audience/changelog/{id:int}", "audience", frozenset({A})),
    Page("/admin/agencies", AgenciesPage, frozenset({A}), menu="menu.agencies", order=110, icon="bi-buildings",
         name="agencies"),
    Page("/admin/report", ReportListPage, frozenset({A}), menu="menu.reports", order=115, icon="bi-bar-chart-line",
         name="reports"),
    # Before the generic create route: the router takes the first match.
    Page("/admin/report/create/multi-dimensional", ReportCreatePage, frozenset({A}), name="report.create_multi"),
    Page("/admin/report/create/{report_type:str}", ReportCreatePage, frozenset({A}), name="report.create"),
    Page("/admin/report/edit/{id:int}", ReportEditPage, frozenset({A}), name="report.edit"),
    Page("/admin/report/view/{id:int}", ReportViewPage, frozenset({A}), name="report.view"),
    Page("/admin/exchange-approval", ExchangeApprovalPage, frozenset({A}), menu="menu.exchanges", order=120,
         icon="bi-diagram-3", name="exchange.approvals"),
    _change_log("/admin/exchange-approval/change-log/{id:int}", "exchange_approval", frozenset({A})),
    Page("/admin/bulk-exchange-approval", BulkExchangeApprovalPage, frozenset({A}), name="exchange.bulk_approval"),
    Page("/admin/editAgency/{id:int}", EditAgencyPage, frozenset({A}), name="agency.edit"),
    Page("/admin/assignAdvertiser", AssignAdvertiserPage, frozenset({A}), name="agency.assign"),
    Page("/admin/profile", ProfilePage, frozenset({A}), name="profile"),
    Page("/admin/settings", CompanySettingsPage, frozenset({A}), co_admin="none", name="settings"),
    Page("/admin/metadata", MetadataPage, frozenset({A}), co_admin="shared", name="metadata"),
)

AGENCY_PAGES: tuple[Page, ...] = (
    Page("/agency/dashboard", DashboardPage, frozenset({G}), menu="menu.dashboard", order=10, icon="bi-speedometer2"),
    Page("/agency/advertiser", UsersPage, frozenset({G}), menu="menu.advertisers", order=20, icon="bi-person-badge",
         name="users"),
    Page("/agency/addAdvertiser", AddUserPage, frozenset({G}), name="user.add"),
    Page("/agency/editAdvertiser/{id:int}", EditUserPage, frozenset({G}), name="user.edit"),
    _change_log("/agency/changeLog/{id:int}", "user", frozenset({G})),
    Page("/agency/advertiser/payment-list/{id:int}", PaymentListPage, frozenset({G}), name="user.payments"),
    Page("/agency/campaign", CampaignListPage, frozenset({G}), menu="menu.campaigns", order=30, icon="bi-megaphone",
         name="campaigns"),
    Page("/agency/campaignList/{id:int}", CampaignListPage, frozenset({G}), name="campaigns.of_advertiser"),
    Page("/agency/campaignForm", CreateCampaignPage, frozenset({G}), name="campaign.create"),
    Page("/agency/campaign/viewCampaign/{id:int}", CampaignViewPage, frozenset({G}), name="campaign.view"),
    Page("/agency/campaignEditForm/{id:int}", EditCampaignPage, frozenset({G}), name="campaign.edit"),
    # The agency acts on its advertisers' campaigns and creatives itself, across advertisers, without "Login as".
    Page("/agency/campaignClone/{id:int}", CloneCampaignPage, frozenset({G}), name="campaign.clone"),
    Page("/agency/bulk-campaign-edit", BulkCampaignEditPage, frozenset({G}), name="campaign.bulk_edit"),
    Page("/agency/bulk-edit-exchanges", BulkExchangesPage, frozenset({G}), name="campaign.bulk_exchanges"),
    Page("/agency/creative/bulk-creative-edit", BulkCreativeEditPage, frozenset({G}), name="creative.bulk_edit"),
    _change_log("/agency/campaign/changelog/{id:int}", "campaign", frozenset({G})),
    Page("/agency/CampaignList/creativeList/{id:int}", CampaignCreativesPage, frozenset({G}),
         name="campaign.creatives"),
    Page("/agency/creative", CreativeListPage, frozenset({G}), menu="menu.creatives", order=40, icon="bi-images",
         name="creatives"),
    Page("/agency/creative/viewCreative/{id:int}", CreativeViewPage, frozenset({G}), name="creative.view"),
    _change_log("/agency/creative/changelog/{id:int}", "creative", frozenset({G})),
    Page("/agency/report", ReportListPage, frozenset({G}), menu="menu.reports", order=90, icon="bi-bar-chart-line",
         name="reports"),
    Page("/agency/report/create/{report_type:str}", ReportCreatePage, frozenset({G}), name="report.create"),
    Page("/agency/report/edit/{id:int}", ReportEditPage, frozenset({G}), name="report.edit"),
    Page("/agency/report/view/{id:int}", ReportViewPage, frozenset({G}), name="report.view"),
    Page("/agency/funds", FundsOverviewPage, frozenset({G}), menu="menu.funds", order=45, icon="bi-wallet2",
         name="funds"),
    Page("/agency/funds/transfer", TransferFundsPage, frozenset({G}), name="funds.transfer"),
    *_inventory_pages("/agency", G),
    Page("/agency/audience", AudienceListPage, frozenset({G}), menu="menu.audiences", order=50, icon="bi-people",
         name="audiences"),
    Page("/agency/audience/create", AudienceCreatePage, frozenset({G}), name="audience.create"),
    Page("/agency/audience/view/{id:int}", AudienceViewPage, frozenset({G}), name="audience.view"),
    _change_log("/agency/audience/changelog/{id:int}", "audience", frozenset({G})),
    Page("/agency/profile", ProfilePage, frozenset({G}), name="profile"),
    Page("/agency/agency-settings", ClientSettingsPage, frozenset({G}), name="settings"),
)

ADVERTISER_PAGES: tuple[Page, ...] = (
    Page("/dashboard", DashboardPage, frozenset({V}), menu="menu.dashboard", order=10, icon="bi-speedometer2"),
    Page("/campaign", CampaignListPage, frozenset({V}), menu="menu.campaigns", order=20, icon="bi-megaphone",
         name="campaigns"),
    Page("/bulk-campaign-edit", BulkCampaignEditPage, frozenset({V}), name="campaign.bulk_edit"),
    Page("/bulk-edit-exchanges", BulkExchangesPage, frozenset({V}), name="campaign.bulk_exchanges"),
    Page("/campaignForm", CreateCampaignPage, frozenset({V}), name="campaign.create"),
    Page("/campaign/{id:int}/", CampaignViewPage, frozenset({V}), name="campaign.view"),
    Page("/campaignEditForm/{id:int}", EditCampaignPage, frozenset({V}), name="campaign.edit"),
    Page("/campaignClone/{id:int}", CloneCampaignPage, frozenset({V}), name="campaign.clone"),
    _change_log("/campaign/changelog/{id:int}", "campaign", frozenset({V})),
    Page("/creatives", CreativeListPage, frozenset({V}), menu="menu.creatives", order=30, icon="bi-images",
         name="creatives"),
    Page("/creative/ViewCreative/{id:int}", CreativeViewPage, frozenset({V}), name="creative.view"),
    _change_log("/campaign/creative/changelog/{id:int}", "creative", frozenset({V})),
    Page("/creative/bulk-creative-edit", BulkCreativeEditPage, frozenset({V}), name="creative.bulk_edit"),
    Page("/report", ReportListPage, frozenset({V}), menu="menu.reports", order=90, icon="bi-bar-chart-line",
         name="reports"),
    Page("/report/create/{report_type:str}", ReportCreatePage, frozenset({V}), name="report.create"),
    Page("/report/edit/{id:int}", ReportEditPage, frozenset({V}), name="report.edit"),
    Page("/report/view/{id:int}", ReportViewPage, frozenset({V}), name="report.view"),
    Page("/funds", FundsPage, frozenset({V}), menu="menu.funds", order=35, icon="bi-wallet2", name="funds"),
    *_inventory_pages("", V),
    Page("/audience", AudienceListPage, frozenset({V}), menu="menu.audiences", order=50, icon="bi-people",
         name="audiences"),
    Page("/audience/create", AudienceCreatePage, frozenset({V}), name="audience.create"),
    Page("/audience/view/{id:int}", AudienceViewPage, frozenset({V}), name="audience.view"),
    _change_log("/audience/changeLog/{id:int}", "audience", frozenset({V})),
    Page("/profile", ProfilePage, frozenset({V}), name="profile"),
    Page("/advertiser-settings", ClientSettingsPage, frozenset({V}), name="settings"),
)

MENU_LINKS: tuple[MenuLink, ...] = (
    MenuLink("menu.api_docs", "/docs", "bi-code-square", 900, frozenset({G, V}), "api_access"),
    # Spec §2 top menus: Help & Support is in the advertiser's menu only.
    MenuLink("menu.help", "", "bi-life-preserver", 910, frozenset({V}), "help_and_support"),
)


def _co_admin_pages(admin_pages: tuple[Page, ...]) -> tuple[tuple[Page, ...], tuple[Page, ...]]:
    """(admin pages with shared ones opened to co-admin, the mirrored /co-admin pages)."""
    admin, mirrored = [], []
    for page in admin_pages:
        if page.co_admin == "shared":
            admin.append(replace(page, roles=page.roles | {C}))
            continue
        admin.append(page)
        if page.co_admin == "mirror":
            path = ROLE_PREFIX[C] + page.path.removeprefix(ROLE_PREFIX[A])
            mirrored.append(replace(page, path=path, roles=frozenset({C})))
    return tuple(admin), tuple(mirrored)


_ADMIN, _CO_ADMIN = _co_admin_pages(ADMIN_PAGES)
PAGES: tuple[Page, ...] = PUBLIC_PAGES + _ADMIN + _CO_ADMIN + AGENCY_PAGES + ADVERTISER_PAGES


def _check(pages: tuple[Page, ...]) -> None:
    # Mistakes fail at import, not on the first request.
    paths = [p.path for p in pages]
    duplicates = {p for p in paths if paths.count(p) > 1}
    assert not duplicates, f"duplicate routes: {duplicates}"
    for page in pages:
        assert page.path.startswith("/"), page.path
        assert page.public or page.frame == "shell", page.path
    # Each change log's pages open to exactly the roles its declaration lets read it (the API follows the same
    # declaration): a page for a role that may not read the log would only ever show "not found".
    for kind, log in CHANGE_LOGS.items():
        roles = frozenset().union(*(p.roles for p in pages if p.name == log.page))
        assert roles == log.roles, f"change log {kind}: pages for {sorted(roles)}, readers {sorted(log.roles)}"


_check(PAGES)


ROUTES = RouteTable(PAGES, MENU_LINKS)
# Services link to pages by name (a diagnosis's fixes): this table answers for them (app/kernel/page_links.py).
PAGE_PATHS.register("routes", ROUTES.path)
# The lookups, as functions of the table (tests and benchmarks ask them directly; pages ask their console).
pages_for, menu_pages, page_path = ROUTES.pages_for, ROUTES.menu_pages, ROUTES.path
profile_path, settings_path = ROUTES.profile_path, ROUTES.settings_path
