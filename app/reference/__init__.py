"""Reference values people choose from: exchanges, operating systems, device types, countries,
app categories, and geography."""
