"""Alembic environment, run in-process by app.db.session (never from a command line)."""

from alembic import context

from app.db.models import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,  # SQLite cannot ALTER most things: batch mode copies the table
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
