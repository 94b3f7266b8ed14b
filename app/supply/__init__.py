"""Where ads run and to whom: inventory and smart-app lists, and audiences."""

# Loading the package declares its record kinds: audiences' and lists' status machines and change logs' sources.
from app.supply import app_lists, audiences, smart_apps  # noqa: E402, F401
