"""/inventory-list/changelog/{id} (every role with lists) and /admin/smart-apps/changelog/{id}: a list's history,
its entries added and removed, filterable by date and person."""

from __future__ import annotations

from app.history.change_log import CHANGE_LOGS
from components.supply.app_lists.inventory_pages import APP_LISTS
from components.supply.app_lists.smart_pages import SMART_APPS
from components.ui.change_log import ChangeLogFrame, change_log_page

InventoryListChangeLogPage = change_log_page("app_list", ChangeLogFrame(
    "inventory-list-change-log", APP_LISTS.back_to_list, APP_LISTS.not_found,
    tabs=lambda console, applist_id, _list: APP_LISTS.record_tabs(console, applist_id,
                                                                  current=CHANGE_LOGS["app_list"].page)))
SmartAppListChangeLogPage = change_log_page("smart_app_list", ChangeLogFrame(
    "smart-app-change-log", SMART_APPS.back_to_list, SMART_APPS.not_found,
    tabs=lambda console, list_id, _list: SMART_APPS.record_tabs(console, list_id,
                                                                current=CHANGE_LOGS["smart_app_list"].page)))
