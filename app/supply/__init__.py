"""Where ads run and to whom: inventory and smart-app lists, and audiences."""
