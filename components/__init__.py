"""ReactPy UI. Nothing here touches the database: pages reach services through components.ui.hooks."""

from reactpy.config import REACTPY_ASYNC_RENDERING

from components import reactpy_fixes  # noqa: F401 - applied on import

# Render each tab's components one at a time, in the order they were scheduled, with the state of the
# moment they render. ReactPy's default (parallel rendering) hands out finished renders in any order:
# when two renders of one component finish before the websocket sends the first, the older can be sent
# last and the page shows stale state (seen: a sign-in error appearing, then vanishing). Our renders
# never await, so rendering in parallel gains nothing here.
REACTPY_ASYNC_RENDERING.current = False
