"""A typed Python client for the DSP Console API (README.md beside pyproject.toml says how to use it)."""

from dsp_console_client.client import DspConsole
from dsp_console_client.errors import ApiError
from dsp_console_client.models import (
    ApiKey,
    BatchRow,
    BatchStored,
    Campaign,
    CampaignDetail,
    Creative,
    Figures,
    Page,
    Report,
    ReportRun,
    User,
)
from dsp_console_client.transport import RetryPolicy

__all__ = ["ApiError", "ApiKey", "BatchRow", "BatchStored", "Campaign", "CampaignDetail", "Creative", "DspConsole",
           "Figures", "Page", "Report", "ReportRun", "RetryPolicy", "User"]
