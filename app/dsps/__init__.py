"""The buying platforms campaigns and creatives are pushed to: connections, their encrypted
credentials, the connectors that speak each platform's protocol, and the ids they give back."""

# Loading the package registers what DSP connections count as uses of reference values (no module imports it).
# Loading the package declares the DSPs' status machine.
from app.dsps import (
    reference_usage,  # noqa: E402, F401
    service,  # noqa: E402, F401
)
