"""Test configuration: headless Qt, hypothesis profiles."""

import os
import tempfile

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# owners' rendezvous files (app/channel) in a private folder of this run, not the user's own
os.environ.setdefault("XQARBITER_RUN_DIR", tempfile.mkdtemp(prefix="xqrun-"))

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
