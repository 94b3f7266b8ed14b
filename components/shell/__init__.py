"""The frame around every page: layout, top bar, menus, footer, toasts, theme panel, session agent."""
