"""birth date may be unknown (a player read from another program's TRF file without one)

Revision ID: 0006
Revises: 0004

A TRF file need not give a birth date; such a player's birth date is kept unknown (NULL) and exported
empty, instead of an invented 2000-01-01. The registration still requires one.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.alter_column("birth_date", existing_type=sa.Date(), nullable=True)


def downgrade() -> None:
    op.execute("UPDATE players SET birth_date = '2000-01-01' WHERE birth_date IS NULL")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.alter_column("birth_date", existing_type=sa.Date(), nullable=False)
