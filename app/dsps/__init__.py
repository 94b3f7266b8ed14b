"""The buying platforms campaigns and creatives are pushed to: connections, their encrypted
credentials, the connectors that speak each platform's protocol, and the ids they give back."""
