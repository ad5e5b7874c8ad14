import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../config';
import type { DatabaseHandle } from '../db/database';

export interface FeatureOptions {
  config: AppConfig;
  database: DatabaseHandle;
}

/** Registers every feature's routes; each feature owns its folder under server/features/. */
export const featureRoutes: FastifyPluginAsync<FeatureOptions> = async (app, options) => {
  void app;
  void options;
};
