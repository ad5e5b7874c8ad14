import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config';

/**
 * Where the links the product prints or hands out point (label QR codes, invitation and password links, checklist
 * links): PUBLIC_URL when it is set, otherwise this server as the browser that asked reached it (issue 34).
 */
export function publicOrigin(config: Pick<AppConfig, 'publicUrl'>, request: FastifyRequest): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
}
