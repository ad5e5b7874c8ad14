import type { FastifyRequest } from 'fastify';
import { requireUser } from './session.plugin';

/** Who is changing data: the company it belongs to and the user (none for factories and the seed). */
export interface Actor {
  companyId: number;
  userId: number | null;
}

/** The signed-in user as an actor (401 when signed out). */
export function actorOf(request: FastifyRequest): Actor {
  const user = requireUser(request);
  return { companyId: user.companyId, userId: user.id };
}

/** Factories and the seed write with no user behind them. */
export function systemActor(companyId: number): Actor {
  return { companyId, userId: null };
}
