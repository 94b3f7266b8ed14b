"""Every domain's SQLModel tables, for Alembic. Importing this module registers every table and loads every
domain package, so each registers its hooks (app/kernel/hooks.py): whatever runs the console (app/main.py,
app/cli.py, the tests) imports it first."""

import app.accounts  # noqa: F401  (no tables; loading it declares the accounts' status machine)
from app.access.models import (
    ApiCredential,
    AuthSession,
    LoginAttempt,
    OneTimeCode,
    RateCount,
    RecoveryCode,
    SecondFactor,
    SignInPolicy,
    User,
    UserPreferences,
    UserSettings,
    UserStatus,
)
from app.alerts.models import Alert, AlertSubscription
from app.campaigns.models import Campaign, ExchangeApproval
from app.creatives.models import CampaignCreative, Creative, CreativeAsset
from app.dsps.models import Dsp, DspAssociation
from app.funds.models import ChargeCheck, LedgerEntry
from app.history.models import AuditEntry
from app.jobs.models import ClockSlot, JobRow
from app.messaging.models import EmailOutbox, Notification
from app.reference.models import ReferenceValue
from app.reports.models import Report, ReportRun
from app.settings.models import CompanyConfig, PostbackDelivery
from app.supply.models import AppList, AppListEntry, Audience, AudienceDevice, SmartAppEntry, SmartAppList

__all__ = [
    "Alert",
    "AlertSubscription",
    "ApiCredential",
    "AppList",
    "AppListEntry",
    "Audience",
    "AudienceDevice",
    "AuditEntry",
    "AuthSession",
    "Campaign",
    "CampaignCreative",
    "ChargeCheck",
    "ClockSlot",
    "CompanyConfig",
    "Creative",
    "CreativeAsset",
    "Dsp",
    "JobRow",
    "RateCount",
    "RecoveryCode",
    "SecondFactor",
    "SignInPolicy",
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
