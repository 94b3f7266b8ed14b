"""ReactPy UI. Nothing here touches the database: pages reach services through components.ui.hooks."""
