"""The arbiter's window (PySide6).

The services the window needs from its first paint are imported here, before PySide6: PySide6
installs an import hook that reads the source of every module imported after it (its
``__feature__`` support), which made SQLAlchemy and the services about 0.2–0.3 s slower to import
(measured with ``python -X importtime``); imported first, they are not inspected.
"""

import app.services.backups  # before PySide6 (see above)
import app.services.registration
import app.services.rounds
import app.services.tournaments  # noqa: F401
