"""players: a rating-list rank (等级分排名)

Revision ID: 0010
Revises: 0008 (team matches)

A player's place on a rating list (1 the best; NULL: not ranked), for groups that admit players by it
(限排名前32名; 全国等级分排名前100名不得参加).
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # plain ADD COLUMN (no table copy: other tables' rows refer to players)
    op.add_column("players", sa.Column("rating_rank", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("rating_rank")
