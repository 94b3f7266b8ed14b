"""Why a campaign is not delivering (issue 27): every reason, most blocking first, each with its figures and the
page that fixes it. service.diagnose is the one call; checks.py is the extension point other domains add to."""

# Loading the package registers the checks campaigns answer themselves (other domains register theirs).
from app.campaigns.diagnosis import campaign_checks, delivery_checks  # noqa: F401
