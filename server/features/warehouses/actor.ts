import type { FastifyRequest } from 'fastify';
import { requireUser } from '../../auth/session.plugin';
import type { Engine } from '../../db/database';

/** Who is changing data, and whether rows must be locked to serialise concurrent writers. */
export interface Actor {
  companyId: number;
  userId: number | null;
  /** PostgreSQL runs writers in parallel and needs `FOR UPDATE`; SQLite is serial and has no such clause. */
  lockRows: boolean;
}

/** The signed-in user as an actor (401 when signed out). */
export function actorOf(request: FastifyRequest, engine: Engine): Actor {
  const user = requireUser(request);
  return { companyId: user.companyId, userId: user.id, lockRows: engine === 'postgres' };
}

/** Factories and the seed run one write at a time, with no user behind them. */
export function systemActor(companyId: number): Actor {
  return { companyId, userId: null, lockRows: false };
}
