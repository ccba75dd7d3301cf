"""hall network: deputy tokens and results waiting for the chief's confirmation

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('deputy_tokens',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('deputy', sa.String(length=64), nullable=False),
    sa.Column('first_board', sa.Integer(), nullable=False),
    sa.Column('last_board', sa.Integer(), nullable=False),
    sa.Column('digest', sa.String(length=64), nullable=False),
    sa.Column('issued_at', sa.DateTime(), nullable=False),
    sa.Column('issued_by', sa.String(length=64), nullable=False),
    sa.Column('revoked_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['round_id'], ['rounds.id'], name=op.f('fk_deputy_tokens_round_id_rounds'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_deputy_tokens')),
    sa.UniqueConstraint('digest', name=op.f('uq_deputy_tokens_digest'))
    )
    with op.batch_alter_table('deputy_tokens', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_deputy_tokens_round_id'), ['round_id'], unique=False)

    op.create_table('pending_results',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('token_id', sa.Integer(), nullable=False),
    sa.Column('board', sa.Integer(), nullable=False),
    sa.Column('game_no', sa.Integer(), nullable=False),
    sa.Column('result', sa.String(length=16), nullable=False),
    sa.Column('device', sa.String(length=200), nullable=False),
    sa.Column('submitted_at', sa.DateTime(), nullable=False),
    sa.Column('status', sa.String(length=16), nullable=False),
    sa.Column('decided_at', sa.DateTime(), nullable=True),
    sa.Column('decided_by', sa.String(length=64), nullable=False),
    sa.ForeignKeyConstraint(['round_id'], ['rounds.id'], name=op.f('fk_pending_results_round_id_rounds'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['token_id'], ['deputy_tokens.id'], name=op.f('fk_pending_results_token_id_deputy_tokens'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_pending_results'))
    )
    with op.batch_alter_table('pending_results', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_pending_results_round_id'), ['round_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_pending_results_token_id'), ['token_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('pending_results', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_pending_results_token_id'))
        batch_op.drop_index(batch_op.f('ix_pending_results_round_id'))
    op.drop_table('pending_results')
    with op.batch_alter_table('deputy_tokens', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_deputy_tokens_round_id'))
    op.drop_table('deputy_tokens')
