"""How every serving process logs, configured in one place: configure_logging(settings).

`python -m app serve` calls it in the process that starts (the supervisor, with DSP_WORKERS > 1), and each worker
process calls it again where it builds its app (app/cli.py serving_app, uvicorn's factory): uvicorn starts its
workers as fresh interpreters, which keep nothing of the parent's logging. uvicorn also applies logging_config()
in each worker before the factory runs, so its own first lines ("Started server process") have the same format.

One format for the console's own lines (logger "dsp": INFO), uvicorn's (uvicorn.error: start-up, uvicorn.access:
one line per request) and every library's (WARNING): level, the process id (several processes write to one
stream), logger name, message.
"""

from __future__ import annotations

import logging.config
from typing import Any

from app.kernel.config import Settings

FORMAT = "%(levelname)s:     [%(process)d] %(name)s: %(message)s"


def logging_config(_settings: Settings) -> dict[str, Any]:
    """The logging configuration (logging.config.dictConfig's schema) for `settings`."""
    # uvicorn's loggers keep no handlers of their own and propagate: one handler, one format, for all.
    uvicorn = {"handlers": [], "level": "INFO", "propagate": True}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"console": {"format": FORMAT}},
        "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "console",
                                 "stream": "ext://sys.stderr"}},
        "root": {"handlers": ["console"], "level": "WARNING"},
        "loggers": {"dsp": {"level": "INFO"}, "uvicorn": uvicorn, "uvicorn.error": uvicorn,
                    "uvicorn.access": uvicorn},
    }


def configure_logging(settings: Settings) -> None:
    """Apply this process's logging configuration. Call it where each serving process starts."""
    logging.config.dictConfig(logging_config(settings))
