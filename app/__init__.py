"""DSP Console server: settings, data, services, auth, API. Nothing here imports `components`."""
