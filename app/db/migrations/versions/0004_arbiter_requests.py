"""arbiter requests: region and re-entry of players, excused absences, named pair avoidances

Revision ID: 0004
Revises: 0003 (hall network)

The arbiters' requests; it touches none of the tables of 0003 (the hall network).
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("region", sa.String(length=64), nullable=False, server_default=""))
        batch_op.add_column(sa.Column("reentry_round", sa.Integer(), nullable=True))

    op.create_table(
        "absences",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_absences_player_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_absences")),
        sa.UniqueConstraint("player_id", "round_number", name=op.f("uq_absences_player_id")),
    )
    with op.batch_alter_table("absences", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_absences_player_id"), ["player_id"], unique=False)

    op.create_table(
        "pair_avoidances",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("first_id", sa.Integer(), nullable=False),
        sa.Column("second_id", sa.Integer(), nullable=False),
        sa.Column("strength", sa.String(length=16), nullable=False),
        sa.Column("from_round", sa.Integer(), nullable=False),
        sa.Column("to_round", sa.Integer(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["first_id"], ["players.id"], name=op.f("fk_pair_avoidances_first_id_players"), ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["second_id"], ["players.id"], name=op.f("fk_pair_avoidances_second_id_players"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_pair_avoidances")),
        sa.UniqueConstraint("first_id", "second_id", name=op.f("uq_pair_avoidances_first_id")),
    )
    with op.batch_alter_table("pair_avoidances", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_pair_avoidances_first_id"), ["first_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("pair_avoidances", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_pair_avoidances_first_id"))
    op.drop_table("pair_avoidances")
    with op.batch_alter_table("absences", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_absences_player_id"))
    op.drop_table("absences")
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("reentry_round")
        batch_op.drop_column("region")
