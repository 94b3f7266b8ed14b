"""SQLModel tables, one module per entity. Importing this package registers every table."""

from app.models.api_credential import ApiCredential
from app.models.app_list import AppList, AppListEntry, SmartAppEntry, SmartAppList
from app.models.audience import Audience, AudienceDevice
from app.models.audit import AuditEntry
from app.models.auth_session import AuthSession, LoginAttempt, OneTimeCode
from app.models.campaign import Campaign
from app.models.company import CompanyConfig
from app.models.creative import CampaignCreative, Creative, CreativeAsset
from app.models.dsp import Dsp, DspAssociation
from app.models.exchange_approval import ExchangeApproval
from app.models.ledger import LedgerEntry
from app.models.messaging import EmailOutbox, Notification
from app.models.postback import PostbackDelivery
from app.models.reference import ReferenceValue
from app.models.report import Report, ReportRun
from app.models.user import User, UserPreferences, UserSettings, UserStatus

__all__ = [
    "ApiCredential",
    "AppList",
    "AppListEntry",
    "Audience",
    "AudienceDevice",
    "AuditEntry",
    "AuthSession",
    "Campaign",
    "CampaignCreative",
    "CompanyConfig",
    "Creative",
    "CreativeAsset",
    "Dsp",
    "DspAssociation",
    "EmailOutbox",
    "ExchangeApproval",
    "LedgerEntry",
    "LoginAttempt",
    "Notification",
    "OneTimeCode",
    "PostbackDelivery",
    "ReferenceValue",
    "Report",
    "ReportRun",
    "SmartAppEntry",
    "SmartAppList",
    "User",
    "UserPreferences",
    "UserSettings",
    "UserStatus",
]
