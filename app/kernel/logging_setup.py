"""The one place logging is configured: every server process (each DSP_WORKERS child too) and every command calls
configure_logging(settings) once, where it starts.

The standard library's logging stays the API (app code and libraries use logging.getLogger); structlog's
ProcessorFormatter renders each record: JSON in production, one object a line (time, level, logger, message, and
the request's request_id, user_id, route, status, duration_ms when there is one), readable text in development.
uvicorn's own access log is off: app/web/observe.py writes one access line per request and page session, with the
fields above, which uvicorn's does not have.
"""

from __future__ import annotations

import logging
import logging.config
from typing import TYPE_CHECKING, Any

import structlog

from app.kernel import log_context

if TYPE_CHECKING:
    from app.kernel.config import Settings

ACCESS_LOGGER = "dsp.access"


def _request_fields(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    """The current request's fields (app/kernel/log_context.py) on every line logged while it runs."""
    for key, value in log_context.current().items():
        event.setdefault(key, value)
    return event


def _drop_color_message(_logger: Any, _name: str, event: dict[str, Any]) -> dict[str, Any]:
    """uvicorn passes its lines' coloured copy as an extra field; the message itself is enough."""
    event.pop("color_message", None)
    return event


def log_format(settings: Settings) -> str:
    """json or text: DSP_LOG_FORMAT, or by default JSON in production and text elsewhere."""
    return settings.log_format or ("json" if settings.environment == "production" else "text")


def configure_logging(settings: Settings) -> None:
    logging.config.dictConfig(logging_config(settings))


def logging_config(settings: Settings) -> dict[str, Any]:
    """The configuration as logging.config.dictConfig takes it (uvicorn takes it too, as log_config, and applies it
    in each worker process it starts)."""
    as_json = log_format(settings) == "json"
    shared: list[Any] = [
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        # Several processes (DSP_WORKERS) write to one stream: each line says which.
        structlog.processors.CallsiteParameterAdder([structlog.processors.CallsiteParameter.PROCESS]),
        # "time" in JSON; the text renderer puts "timestamp" first on the line.
        structlog.processors.TimeStamper(fmt="iso", utc=True, key="time" if as_json else "timestamp"),
        _request_fields,
        structlog.stdlib.ExtraAdder(),  # logger.info("...", extra={"status": 200}) becomes a field
        _drop_color_message,
    ]
    renderer: list[Any] = ([structlog.processors.dict_tracebacks,
                            structlog.processors.EventRenamer("message"),
                            structlog.processors.JSONRenderer()]
                           if as_json else [structlog.dev.ConsoleRenderer(colors=False)])
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"console": {
            "()": structlog.stdlib.ProcessorFormatter,
            "foreign_pre_chain": shared,
            "processors": [structlog.stdlib.ProcessorFormatter.remove_processors_meta, *renderer],
        }},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "console"}},
        # The console's own notes (logger "dsp") at DSP_LOG_LEVEL, libraries' at WARNING; uvicorn's startup lines
        # at INFO through the same handler; its access log off (ours is dsp.access).
        "root": {"handlers": ["console"], "level": "WARNING"},
        "loggers": {
            "dsp": {"level": settings.log_level},
            "uvicorn": {"handlers": ["console"], "level": "INFO", "propagate": False},
            "uvicorn.error": {"level": "INFO"},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
        },
    }
